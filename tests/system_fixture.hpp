#pragma once
// Building a whole system from an options string, as the application does, for tests.
#include <petscsys.h>

#include <string>
#include <vector>

#include "solvers/SlepcSolver.hpp"
#include "operator/StoredHamiltonian.hpp"
#include "model/TightBindingSystem.hpp"

namespace tbpeta::test {

// A diagonal matrix with the spectrum e (a known answer for the eigen-solvers), rows split by PETSc.
inline PetscErrorCode DiagonalMatrix(MPI_Comm comm, const std::vector<double> &e, Mat *A) {
  PetscInt rstart, rend;
  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(comm, PETSC_DECIDE, PETSC_DECIDE, (PetscInt)e.size(), (PetscInt)e.size(), 1, nullptr, 0, nullptr, A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; ++i) PetscCall(MatSetValue(*A, i, i, e[i], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

// Replaces the options database with `options` and builds the system on comm.
inline PetscErrorCode BuildFromOptions(MPI_Comm comm, const std::string &options, TightBindingSystem *sys) {
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsClear(nullptr));
  PetscCall(PetscOptionsInsertString(nullptr, options.c_str()));
  PetscCall(TightBindingSystemFromOptions(comm, true, sys));
  PetscFunctionReturn(0);
}

// Every eigenvalue of the system's H (small systems only).
inline PetscErrorCode SpectrumFromOptions(MPI_Comm comm, const std::string &options, std::vector<double> *values, MatrixFormat format = MatrixFormat::aij) {
  TightBindingSystem sys;
  Mat H;
  PetscFunctionBeginUser;
  PetscCall(BuildFromOptions(comm, options, &sys));
  PetscCall(AssembleHamiltonian(comm, sys.structure, sys.model, sys.cell.k, format, &H, nullptr));
  PetscCall(AllEigenvalues(H, values));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

// Runs a PETSc call with errors returned instead of printed; gives its error code.
template <class F>
PetscErrorCode Quietly(F &&f) {
  PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  PetscErrorCode ierr = f();
  PetscPopErrorHandler();
  return ierr;
}

} // namespace tbpeta::test
