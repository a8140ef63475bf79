#pragma once
// A misspelt option is caught before the work, not after it. Once a program's set-up has read its options (and
// before the relaxation and the solve), every option given that nothing has read, and nothing will read later, is
// named in a warning with the nearest option the program knows ("did you mean -dot_radius?"); with -options_strict
// it is a one-line error instead, and nothing runs. Options that PETSc and its libraries read late (viewers such as
// -log_view and -eps_view, monitors, -malloc_*, the factorisations' -mat_mumps_*, ...) are never reported here; the
// report at exit still names any of them that went unused.
#include <petscsys.h>

#include <functional>
#include <string>
#include <vector>

namespace tbpeta {

// Reads -options_strict (every program, at start-up). Collective.
PetscErrorCode OptionsStrictFromOptions(MPI_Comm comm);
// Whether -options_strict was given.
bool OptionsStrict();

// The check: read_all() reads every option the program knows (its -help listing, run quietly: the options of the
// objects it makes later are read now, and with -help on it names them all for the suggestions). Collective.
PetscErrorCode CheckOptionsBeforeWork(MPI_Comm comm, const char *program,
                                      const std::function<PetscErrorCode()> &read_all);

// Whether PETSc or a library reads option `name` (without its leading '-') only late in a run. Not collective.
bool ReadLate(const std::string &name);

// The known name nearest to `name` by edit distance, or "" when none is near. Not collective.
std::string NearestOption(const std::string &name, const std::vector<std::string> &known);

} // namespace tbpeta
