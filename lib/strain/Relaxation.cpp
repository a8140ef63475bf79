#include "strain/Relaxation.hpp"

#include <cmath>

#include "strain/BondLaplacian.hpp"
#include "support/LogEvents.hpp"
#include "support/PetscHandle.hpp"
#include "support/Progress.hpp"

namespace tbpeta {

namespace {

struct Problem {
  KeatingEnergy *energy;
  Progress *progress;
};

PetscErrorCode Gradient(SNES, Vec u, Vec g, void *ctx) {
  PetscReal e;
  PetscFunctionBeginUser;
  PetscCall(static_cast<Problem *>(ctx)->energy->Evaluate(u, &e, g));
  PetscFunctionReturn(0);
}

PetscErrorCode Energy(SNES, Vec u, PetscReal *e, void *ctx) {
  PetscFunctionBeginUser;
  PetscCall(static_cast<Problem *>(ctx)->energy->Evaluate(u, e, nullptr));
  PetscFunctionReturn(0);
}

// A progress line at most every -progress seconds: iterations and the gradient norm against its target.
PetscErrorCode ProgressMonitor(SNES snes, PetscInt it, PetscReal fnorm, void *ctx) {
  Progress *progress = static_cast<Problem *>(ctx)->progress;
  PetscReal atol;
  PetscFunctionBeginUser;
  if (!progress->Due()) PetscFunctionReturn(0);
  PetscCall(SNESGetTolerances(snes, &atol, nullptr, nullptr, nullptr, nullptr));
  PetscCall(progress->Report("%" PetscInt_FMT " iterations, |dE/du| %.3e eV/nm (target %.1e)", it, (double)fnorm,
                             (double)atol));
  PetscFunctionReturn(0);
}

// SNES's own test (rtol, stol, iteration limit, divergence, and atol on the 2-norm, which bounds every atom's force),
// then atol on the largest force of an atom: the 2-norm over all atoms grows with their number, the largest force
// is the accuracy a user asks for at any size.
PetscErrorCode LargestForceTest(SNES snes, PetscInt it, PetscReal xnorm, PetscReal step, PetscReal fnorm,
                                SNESConvergedReason *reason, void *) {
  Vec f;
  PetscReal atol;
  double largest;
  PetscFunctionBeginUser;
  PetscCall(SNESConvergedDefault(snes, it, xnorm, step, fnorm, reason, nullptr));
  if (*reason != SNES_CONVERGED_ITERATING) PetscFunctionReturn(0);
  PetscCall(SNESGetTolerances(snes, &atol, nullptr, nullptr, nullptr, nullptr));
  PetscCall(SNESGetFunction(snes, &f, nullptr, nullptr));
  PetscCall(MaxAtomForce(f, &largest));
  if (largest <= atol) *reason = SNES_CONVERGED_FNORM_ABS;
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode CreateRelaxationSolver(MPI_Comm comm, SNES *snes) {
  KSP ksp;
  PC pc;
  PetscFunctionBeginUser;
  PetscCall(SNESCreate(comm, snes));
  PetscCall(SNESSetOptionsPrefix(*snes, "strain_"));
  PetscCall(SNESSetType(*snes, SNESQN));
  PetscCall(SNESQNSetScaleType(*snes, SNES_QN_SCALE_JACOBIAN)); // the initial inverse Hessian: strain/BondLaplacian.hpp
  PetscCall(SNESGetKSP(*snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(SNESSetTolerances(*snes, kRelaxForceTolerance, 0.0, 0.0, kRelaxMaxIterations, -1));
  PetscCall(SNESSetConvergenceTest(*snes, LargestForceTest, nullptr, nullptr));
  PetscCall(SNESSetFromOptions(*snes));
  PetscFunctionReturn(0);
}

PetscErrorCode MaxAtomForce(Vec gradient, double *max_force) {
  const PetscScalar *g;
  PetscInt n;
  double m = 0;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(gradient, &n));
  PetscCall(VecGetArrayRead(gradient, &g));
  for (PetscInt i = 0; i + 2 < n; i += 3)
    m = std::max(m, std::sqrt(PetscRealPart(g[i] * PetscConj(g[i]) + g[i + 1] * PetscConj(g[i + 1]) +
                                            g[i + 2] * PetscConj(g[i + 2]))));
  PetscCall(VecRestoreArrayRead(gradient, &g));
  PetscCallMPI(MPI_Allreduce(&m, max_force, 1, MPI_DOUBLE, MPI_MAX, PetscObjectComm((PetscObject)gradient)));
  PetscFunctionReturn(0);
}

PetscErrorCode MinimiseEnergy(SNES snes, KeatingEnergy *energy, Vec u, RelaxationReport *report) {
  const LogEvents *ev;
  Progress progress("relaxation");
  Problem problem{energy, &progress};
  BondLaplacian preconditioner;
  OwnedVec g;
  SNESType type;
  SNESConvergedReason reason;
  PetscReal e;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(VecDuplicate(u, g.out()));
  PetscCall(SNESSetFunction(snes, g, Gradient, &problem));
  PetscCall(SNESSetObjective(snes, Energy, &problem));
  PetscCall(preconditioner.Attach(snes, energy));
  PetscCall(SNESMonitorSet(snes, ProgressMonitor, &problem, nullptr));
  const PetscInt evaluations = energy->evaluations();
  PetscCall(PetscLogEventBegin(ev->relaxation, 0, 0, 0, 0));
  PetscCall(SNESSolve(snes, nullptr, u));
  PetscCall(PetscLogEventEnd(ev->relaxation, 0, 0, 0, 0));
  PetscCall(SNESMonitorCancel(snes));
  PetscCall(SNESGetConvergedReason(snes, &reason));
  PetscCall(SNESGetIterationNumber(snes, &report->iterations));
  PetscCall(SNESGetType(snes, &type));
  PetscCall(energy->Evaluate(u, &e, g));
  PetscCall(MaxAtomForce(g, &report->max_force));
  report->relaxed = true;
  report->model = "keating";
  report->snes_type = type;
  report->evaluations = energy->evaluations() - evaluations;
  report->energy = e;
  report->atoms = energy->structure().total();
  report->seconds = progress.Elapsed();
  report->converged = reason > 0;
  report->reason = SNESConvergedReasons[reason];
  PetscFunctionReturn(0);
}

} // namespace tbpeta
