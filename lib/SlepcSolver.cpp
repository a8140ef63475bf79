#include "tbpeta/SlepcSolver.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "tbpeta/FoldedSpectrum.hpp"
#include "tbpeta/LogEvents.hpp"
#include "tbpeta/StoredHamiltonian.hpp"

namespace tbpeta {

PetscErrorCode SolveWithSlepc(Mat H, double default_target, EigenStates *states) {
  EPS eps;
  ST st;
  PetscInt nconv;
  Vec x;
  const LogEvents *ev;
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(EPSCreate(comm, &eps));
  PetscCall(EPSSetOperators(eps, H, nullptr));
  PetscCall(EPSSetProblemType(eps, EPS_HEP));
  PetscCall(EPSSetTarget(eps, default_target));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE));
  PetscCall(EPSSetFromOptions(eps));
  PetscScalar target;
  PetscCall(EPSGetTarget(eps, &target));
  PetscCheck(std::isfinite(PetscRealPart(target)), comm, PETSC_ERR_USER_INPUT, "-eps_target: %g is not a finite energy (eV)", (double)PetscRealPart(target));
  PetscCall(CheckSlepcCombination(eps, true));
  PetscInt products0 = 0, products1 = 0;
  PetscCall(HamiltonianProductCount(H, &products0));
  const double t0 = MPI_Wtime();
  PetscCall(PetscLogEventBegin(ev->solve, 0, 0, 0, 0));
  PetscCall(EPSSolve(eps));
  PetscCall(PetscLogEventEnd(ev->solve, 0, 0, 0, 0));
  states->seconds = MPI_Wtime() - t0;
  PetscCall(HamiltonianProductCount(H, &products1));
  states->products = products1 - products0;
  PetscCall(EPSGetConverged(eps, &nconv));
  PetscCall(EPSGetIterationNumber(eps, &states->iterations));
  PetscCall(EPSGetDimensions(eps, &states->requested, nullptr, nullptr));
  EPSType type;
  STType sttype;
  PetscCall(EPSGetType(eps, &type));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STGetType(st, &sttype));
  states->solver = std::string(type) + " + " + sttype;
  PetscCall(MatCreateVecs(H, &x, nullptr));
  std::vector<std::pair<double, double>> pairs;
  for (PetscInt i = 0; i < nconv; ++i) {
    PetscScalar lambda;
    PetscReal err;
    PetscCall(EPSGetEigenpair(eps, i, &lambda, nullptr, x, nullptr));
    PetscCall(EPSComputeError(eps, i, EPS_ERROR_ABSOLUTE, &err));
    pairs.emplace_back(PetscRealPart(lambda), err);
  }
  std::sort(pairs.begin(), pairs.end());
  states->values.clear(), states->residuals.clear();
  for (auto &p : pairs) states->values.push_back(p.first), states->residuals.push_back(p.second);
  PetscCall(VecDestroy(&x));
  PetscCall(EPSDestroy(&eps));
  PetscFunctionReturn(0);
}

PetscErrorCode AllEigenvalues(Mat H, std::vector<double> *values) {
  EPS eps;
  PetscInt n, nconv;
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetSize(H, &n, nullptr));
  PetscCall(EPSCreate(comm, &eps));
  PetscCall(EPSSetOperators(eps, H, nullptr));
  PetscCall(EPSSetProblemType(eps, EPS_HEP));
  PetscCall(EPSSetType(eps, EPSLAPACK));
  PetscCall(EPSSetDimensions(eps, n, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_SMALLEST_REAL));
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
