#pragma once
// -version: tbpeta's version and git commit, and the versions of PETSc, SLEPc, MPI and HDF5 it was built with and runs
// with, in one block; then the program exits 0 without running. PETSc and SLEPc print banners of their own for
// -version while they start; those are held back so that the block is the only output.
#include <petscsys.h>

namespace tbpeta {

// Before SlepcInitialize: when -version is on the command line (or in PETSC_OPTIONS), PETSc's help printer holds what
// it is given instead of printing it.
void HoldStartUpBanners(int argc, char **argv);
// After SlepcInitialize: PETSc's own printer again; what was held is printed unless -version is set. Collective.
PetscErrorCode ReleaseStartUpBanners(MPI_Comm comm);
// Reads -version (listed by -help); when it is set, prints the block for `program` and sets *shown. Collective.
PetscErrorCode VersionFromOptions(MPI_Comm comm, const char *program, bool *shown);

} // namespace tbpeta
