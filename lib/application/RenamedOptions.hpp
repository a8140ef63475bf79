#pragma once
// Options that tbpeta had under another name: given, each is refused in one line that names its successor, so that a
// script of an earlier version fails clearly instead of being half-understood (docs/solvers.md lists them all). Each
// owner registers its own (support/OptionRenames: the EPS types with their registration); the application adds
// -mat_type and -hamiltonian stored.
#include <petscsys.h>

namespace tbpeta {

// PETSC_ERR_USER_INPUT for the first renamed option present in the options database, after the eigen-solver types
// are registered (ApplicationMain: RegisterEigenSolvers first). Collective.
PetscErrorCode RefuseRenamedOptions(MPI_Comm comm);

} // namespace tbpeta
