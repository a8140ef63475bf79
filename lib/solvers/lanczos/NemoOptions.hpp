#pragma once
// The options of the EPS type nemo (-eps_nemo_*, after the EPS's prefix): read into its settings by its
// EPSSetFromOptions, listed under -help in a section of their own when another type is chosen, and the -lanczos_*
// options of earlier versions they replaced.
#include <petscsys.h>

#include <string>
#include <vector>

#include "solvers/lanczos/LanczosOptions.hpp"
#include "support/OptionRenames.hpp"

namespace tbpeta::lanczos {

// What the options set: the Lanczos's own settings, and the states below the target.
struct NemoSettings {
  LanczosOptions opts;              // the question comes from the EPS at each solve
  PetscInt valence = PETSC_DEFAULT; // states below the target (default nev / 2)
};

// The title of the type's options section.
extern const char *const kNemoOptionsTitle;

// Reads the options into `s` inside an options block (EPSSetFromOptions_Nemo's, or the -help listing's), each value
// checked in one line that names its option (`p`: the prefix of the messages; nev: the EPS's, for the default
// valence). Collective.
PetscErrorCode ReadNemoOptions(PetscOptionItems *PetscOptionsObject, MPI_Comm comm, const std::string &p, PetscInt nev,
                               NemoSettings *s);

// Lists the options under -help in a section of their own (EigenSolverType::list_options). Collective.
PetscErrorCode ListNemoOptions(MPI_Comm comm, double target);

// The -lanczos_* options of earlier versions and their successors.
std::vector<RenamedOption> NemoRenamedOptions();

} // namespace tbpeta::lanczos
