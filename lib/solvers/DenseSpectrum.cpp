#include "solvers/DenseSpectrum.hpp"

#include <algorithm>

#include "solvers/SolverPolicy.hpp"

namespace tbpeta {

PetscErrorCode AllEigenvalues(Mat H, std::vector<double> *values) {
  EPS eps;
  PetscInt n, nconv;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(H, &n, nullptr));
  PetscCall(EPSCreate(PetscObjectComm((PetscObject)H), &eps));
  PetscCall(EPSSetOperators(eps, H, nullptr));
  PetscCall(EPSSetProblemType(eps, EPS_HEP));
  PetscCall(EPSSetType(eps, EPSLAPACK));
  PetscCall(EPSSetDimensions(eps, n, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_SMALLEST_REAL));
  PetscCall(CheckEigenSolver(eps, H, SolverPolicy{}));
  PetscCall(EPSSolve(eps));
  PetscCall(EPSGetConverged(eps, &nconv));
  values->resize(nconv);
  for (PetscInt i = 0; i < nconv; ++i) {
    PetscScalar lambda;
    PetscCall(EPSGetEigenvalue(eps, i, &lambda, nullptr));
    (*values)[i] = PetscRealPart(lambda);
  }
  std::sort(values->begin(), values->end());
  PetscCall(EPSDestroy(&eps));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
