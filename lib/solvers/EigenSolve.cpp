#include "solvers/EigenSolve.hpp"

#include <slepc/private/epsimpl.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "operator/OperatorProperties.hpp"
#include "solvers/SolveMonitor.hpp"
#include "solvers/RegisterSolvers.hpp"
#include "solvers/SolverTraits.hpp"
#include "support/ErrorReporting.hpp"
#include "support/Help.hpp"
#include "support/LogEvents.hpp"
#include "support/CrashReport.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

PetscErrorCode SetEigenSolverDefaults(EPS eps, double target) {
  PetscFunctionBeginUser;
  PetscCall(EPSSetProblemType(eps, EPS_HEP));
  PetscCall(EPSSetType(eps, DefaultEigenSolverType()));
  PetscCall(EPSSetTarget(eps, target));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE));
  PetscCall(EPSSetDimensions(eps, 8, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscFunctionReturn(0);
}

PetscErrorCode CreateEigenSolver(MPI_Comm comm, const char *prefix, double target, EPS *eps) {
  PetscFunctionBeginUser;
  PetscCall(EPSCreate(comm, eps));
  if (prefix) PetscCall(EPSSetOptionsPrefix(*eps, prefix));
  PetscCall(SetEigenSolverDefaults(*eps, target));
  PetscCall(EPSSetFromOptions(*eps));
  PetscCall(InstallSolveMonitor(*eps, "the eigen-solve"));
  PetscFunctionReturn(0);
}

namespace {

// ||Hx - lambda x|| of the unit eigenvector of EPS index i (x, r: work vectors of H's layout). Computed here rather
// than by EPSComputeError, whose work vectors would stay in the EPS and count as vectors the solver holds.
PetscErrorCode Residual(EPS eps, Mat H, PetscInt i, PetscScalar lambda, Vec x, Vec r, double *residual) {
  PetscReal norm;
  PetscFunctionBeginUser;
  PetscCall(EPSGetEigenvector(eps, i, x, nullptr));
  PetscCall(VecNormalize(x, nullptr));
  PetscCall(MatMult(H, x, r));
  PetscCall(VecAXPY(r, -lambda, x));
  PetscCall(VecNorm(r, NORM_2, &norm));
  *residual = norm;
  PetscFunctionReturn(0);
}

// The states ascending with their residuals ||Hx - lambda x|| (0 without vectors).
PetscErrorCode ReadStates(EPS eps, Mat H, EigenStates *states) {
  PetscInt nconv;
  TbEPSTraits traits;
  OwnedVec x, r;
  PetscFunctionBeginUser;
  PetscCall(EPSGetConverged(eps, &nconv));
  PetscCall(TbEPSGetTraits(eps, &traits));
  states->vectors = traits.returns_vectors;
  if (states->vectors && nconv) PetscCall(MatCreateVecs(H, x.out(), r.out()));
  std::vector<double> values(nconv), residuals(nconv, 0.0);
  for (PetscInt i = 0; i < nconv; ++i) {
    PetscScalar lambda;
    PetscCall(EPSGetEigenvalue(eps, i, &lambda, nullptr));
    values[i] = PetscRealPart(lambda);
    if (x) PetscCall(Residual(eps, H, i, lambda, x, r, &residuals[i]));
  }
  states->index.resize(nconv);
  std::iota(states->index.begin(), states->index.end(), 0);
  std::stable_sort(states->index.begin(), states->index.end(),
                   [&](PetscInt a, PetscInt b) { return values[a] < values[b]; });
  states->values.clear();
  states->residuals.clear();
  for (PetscInt i : states->index) {
    states->values.push_back(values[i]);
    states->residuals.push_back(residuals[i]);
  }
  PetscFunctionReturn(0);
}

// The vectors that are no eigenvectors of H: a residual above kResidualLimit * (||H||_inf + |target|).
PetscErrorCode FindUnresolved(EPS eps, Mat H, EigenStates *states) {
  PetscBool norm;
  PetscScalar target;
  PetscFunctionBeginUser;
  PetscCall(MatHasOperation(H, MATOP_NORM, &norm));
  PetscCall(EPSGetTarget(eps, &target));
  if (norm && states->vectors) {
    PetscReal bound;
    PetscCall(MatNorm(H, NORM_INFINITY, &bound));
    states->residual_limit = kResidualLimit * (bound + std::fabs(PetscRealPart(target)));
    for (size_t i = 0; i < states->values.size(); ++i)
      if (states->residuals[i] > states->residual_limit) states->unresolved.push_back(states->values[i]);
  }
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode PrintSolveWarnings(EPS eps, const EigenStates &states) {
  MPI_Comm comm = PetscObjectComm((PetscObject)eps);
  auto list = [](const std::vector<double> &v) {
    std::string s;
    for (double x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
  };
  PetscFunctionBeginUser;
  if (!states.unresolved.empty())
    PetscCall(PetscPrintf(comm,
                          "%s: warning: %zu returned vectors are no eigenstates of H (||Hx - Ex|| > %.1e eV): E = %s "
                          "eV; with -eps_type folded the levels sigma - d and sigma + d are one level of (H - sigma)^2 "
                          "and its vectors can mix them: move -eps_target (or the run has not converged)\n",
                          ProgramName(), states.unresolved.size(), states.residual_limit,
                          list(states.unresolved).c_str()));
  PetscCall(TbEPSPrintWarnings(eps));
  PetscFunctionReturn(0);
}

PetscErrorCode SolveEigenproblem(EPS eps, Mat H, const SolverPolicy &policy, EigenStates *states, SolveMeter *meter) {
  const LogEvents *ev;
  PetscInt products0 = -1, products1 = -1, nev;
  EPSConvergedReason reason;
  EPSWhich which;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(EPSSetOperators(eps, H, nullptr));
  PetscCall(CheckEigenSolver(eps, H, policy));
  *states = EigenStates();
  if (meter) PetscCall(meter->Begin(H));
  PetscCall(OperatorProductCount(H, &products0)); // -1: a matrix of the caller's own, not counted
  PetscCall(PetscLogEventBegin(ev->solve, 0, 0, 0, 0));
  const double t0 = MPI_Wtime();
  {
    EPSType type;
    PetscCall(EPSGetType(eps, &type));
    CrashPhase phase(std::string("the solve (-eps_type ") + (type ? type : "?") + ")");
    PetscCall(EPSSolve(eps));
  }
  states->seconds = MPI_Wtime() - t0;
  PetscCall(PetscLogEventEnd(ev->solve, 0, 0, 0, 0));
  if (products0 >= 0) PetscCall(OperatorProductCount(H, &products1));
  states->products = products0 >= 0 ? products1 - products0 : -1;
  PetscCall(ReadStates(eps, H, states));
  if (meter) PetscCall(meter->End(H, states));
  PetscCallMPI(
      MPI_Allreduce(MPI_IN_PLACE, &states->seconds, 1, MPI_DOUBLE, MPI_MAX, PetscObjectComm((PetscObject)eps)));
  PetscCall(EPSGetIterationNumber(eps, &states->iterations));
  PetscCall(EPSGetDimensions(eps, &nev, nullptr, nullptr));
  PetscCall(EPSGetWhichEigenpairs(eps, &which));
  PetscCall(EPSGetConvergedReason(eps, &reason));
  states->requested = which == EPS_ALL ? (PetscInt)states->values.size() : nev;
  states->complete = reason > 0;
  PetscCall(TbEPSDescribe(eps, &states->solver));
  PetscCall(FindUnresolved(eps, H, states));
  PetscFunctionReturn(0);
}

PetscErrorCode StateVector(EPS eps, const EigenStates &states, size_t k, Vec x) {
  PetscFunctionBeginUser;
  PetscCheck(k < states.index.size(), PetscObjectComm((PetscObject)eps), PETSC_ERR_ARG_OUTOFRANGE, "state %zu of %zu",
             k, states.index.size());
  PetscCall(EPSGetEigenvector(eps, states.index[k], x, nullptr));
  PetscCall(VecNormalize(x, nullptr));
  PetscFunctionReturn(0);
}

PetscErrorCode EstimateVectorsHeld(EPS eps, const OperatorProperties &planned, PetscInt *vectors) {
  PetscInt nev;
  PetscFunctionBeginUser;
  PetscCall(EPSGetDimensions(eps, &nev, nullptr, nullptr));
  PetscCall(TbEPSEstimateVectors(eps, nev, planned, vectors));
  PetscFunctionReturn(0);
}

PetscErrorCode ListEigenSolverOptions(MPI_Comm comm, double target) {
  OwnedEPS eps;
  EPSType chosen;
  PetscFunctionBeginUser;
  PetscCall(CreateEigenSolver(comm, nullptr, target, eps.out()));
  if (!HelpRequested()) PetscFunctionReturn(0);
  PetscCall(EPSGetType(eps, &chosen));
  for (const EigenSolverType &type : RegisteredEigenSolverTypes())
    if (type.list_options && std::string(type.name) != chosen) PetscCall(type.list_options(comm, target));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
