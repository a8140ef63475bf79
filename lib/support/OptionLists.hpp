#pragma once
// Options that hold a comma-separated list, read so that a wrong length or a word that is not a number is one line
// naming the option (PETSc itself keeps the first entries of a longer list, and the low 32 bits of a larger integer),
// and the one comma splitter of the project.
#include <petscsys.h>

#include <string>
#include <vector>

namespace tbpeta {

// The fields of `text` between separators, each trimmed of blanks; empty fields are kept ("a,,b" has three).
std::vector<std::string> SplitList(const std::string &text, char separator = ',');

// Reads option `name` as exactly `n` comma-separated reals (values holds the defaults shown by -help). Collective;
// PETSC_ERR_USER_INPUT for another count.
PetscErrorCode OptionsGetRealTuple(MPI_Comm comm, const char *name, const char *help, int n, double *values,
                                   PetscBool *set);
// Reads option `name` as min_n to max_n comma-separated reals into values (which holds the defaults); *count is how
// many were given (unchanged when the option is not set). Collective; PETSC_ERR_USER_INPUT for another count.
PetscErrorCode OptionsGetRealList(MPI_Comm comm, const char *name, const char *help, int min_n, int max_n,
                                  double *values, int *count, PetscBool *set);
// The index of `value` among allowed[0..count) into *choice, or one line "NAME: 'value' is not allowed (allowed: a, b,
// ...)". Collective.
PetscErrorCode ChooseOptionWord(MPI_Comm comm, const char *name, const char *value, const char *const *allowed,
                                int count, int *choice);
// The same for integers, each within the range of PetscInt.
PetscErrorCode OptionsGetIntTuple(MPI_Comm comm, const char *name, const char *help, int n, PetscInt *values,
                                  PetscBool *set);

} // namespace tbpeta
