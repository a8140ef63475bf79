#pragma once
// Building a whole system from an options string, as the application does, for tests.
#include <petscsys.h>

#include <string>

#include "tbpeta/SlepcSolver.hpp"
#include "tbpeta/StoredHamiltonian.hpp"
#include "tbpeta/TightBindingSystem.hpp"

namespace tbpeta::test {

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
