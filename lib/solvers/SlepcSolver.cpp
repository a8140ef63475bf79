#include "solvers/SlepcSolver.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

#include "solvers/FoldedSpectrum.hpp"
#include "support/InterruptSignal.hpp"
#include "support/LogEvents.hpp"
#include "operator/Hamiltonian.hpp"

namespace tbpeta {

PetscErrorCode SolveWithSlepc(Mat H, double default_target, EigenStates *states, bool want_vectors) {
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
  PetscCall(CheckDenseSize(eps, H));
  PetscCall(CheckEntriesAvailable(eps, H));
  PetscCall(StopOnInterrupt(eps, "the SLEPc solve"));
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
  struct Pair {
    double value, residual;
    Vec x;
  };
  std::vector<Pair> pairs;
  for (PetscInt i = 0; i < nconv; ++i) {
    PetscScalar lambda;
    PetscReal err;
    Vec keep = nullptr;
    PetscCall(EPSGetEigenpair(eps, i, &lambda, nullptr, x, nullptr));
    PetscCall(EPSComputeError(eps, i, EPS_ERROR_ABSOLUTE, &err));
    if (want_vectors) {
      PetscCall(VecDuplicate(x, &keep));
      PetscCall(VecCopy(x, keep));
      PetscCall(VecNormalize(keep, nullptr));
    }
    pairs.push_back({PetscRealPart(lambda), (double)err, keep});
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair &a, const Pair &b) { return a.value < b.value; });
  states->DestroyVectors();
  states->values.clear(), states->residuals.clear();
  for (const Pair &p : pairs) {
    states->values.push_back(p.value), states->residuals.push_back(p.residual);
    if (p.x) states->vectors.push_back(p.x);
  }
  PetscCall(VecDestroy(&x));
  PetscCall(EPSDestroy(&eps));
  PetscFunctionReturn(0);
}

PetscErrorCode CheckDenseSize(EPS eps, Mat H) {
  EPSType type;
  PetscInt n, limit = kDenseMaxRows;
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)eps, &comm));
  PetscCall(EPSGetType(eps, &type));
  PetscCall(MatGetSize(H, &n, nullptr));
  PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-dense_max_rows", &limit, nullptr));
  PetscCheck(!type || std::string(type) != EPSLAPACK || n <= limit, comm, PETSC_ERR_USER_INPUT,
             "-eps_type lapack densifies H: %" PetscInt_FMT " rows would need %.1f GB on every rank and O(n^3) time; refused above -dense_max_rows %" PetscInt_FMT
             " (use an iterative solver)",
             n, 16.0 * n * (double)n / 1e9, limit);
  PetscFunctionReturn(0);
}

PetscErrorCode CheckEntriesAvailable(EPS eps, Mat H) {
  bool stored;
  EPSType type;
  PetscFunctionBeginUser;
  PetscCall(HamiltonianIsStored(H, &stored));
  if (stored) PetscFunctionReturn(0);
  PetscCall(EPSGetType(eps, &type));
  PetscCheck(!type || std::string(type) != EPSLAPACK, PetscObjectComm((PetscObject)eps), PETSC_ERR_USER_INPUT,
             "-eps_type lapack densifies the entries of H: it needs -hamiltonian stored, not an operator (-hamiltonian shell or stored_blocks)");
  PetscFunctionReturn(0);
}

namespace {
PetscErrorCode InterruptMonitor(EPS eps, PetscInt its, PetscInt, PetscScalar *, PetscScalar *, PetscReal *, PetscInt, void *ctx) {
  char what[160];
  PetscFunctionBeginUser;
  std::snprintf(what, sizeof what, "%s (iteration %" PetscInt_FMT ")", static_cast<const char *>(ctx), its);
  PetscCall(CheckInterrupted(PetscObjectComm((PetscObject)eps), what));
  PetscFunctionReturn(0);
}
} // namespace

PetscErrorCode StopOnInterrupt(EPS eps, const char *what) {
  PetscFunctionBeginUser;
  // The context is a string literal of the caller: nothing to free.
  PetscCall(EPSMonitorSet(eps, InterruptMonitor, const_cast<char *>(what), nullptr));
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
  PetscCall(CheckDenseSize(eps, H));
  PetscCall(CheckEntriesAvailable(eps, H));
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
