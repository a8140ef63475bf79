#pragma once
// Options that tbpeta had under another name: given, each is refused in one line that names its successor, so that a
// script of an earlier version fails clearly instead of being half-understood (docs/solvers.md lists them all).
#include <petscsys.h>

namespace tbpeta {

// PETSC_ERR_USER_INPUT for the first renamed option present in the options database. Collective.
PetscErrorCode RefuseRenamedOptions(MPI_Comm comm);

} // namespace tbpeta
