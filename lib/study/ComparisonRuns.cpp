#include "study/ComparisonRuns.hpp"

#include <algorithm>

#include "solvers/EigenSolve.hpp"
#include "solvers/SolveMonitor.hpp"
#include "solvers/folded/FoldedSpectrum.hpp"
#include "solvers/lanczos/NemoLanczos.hpp"

namespace tbpeta {

namespace {

PetscInt Nev(const CompareQuestion &q) { return q.nev_valence + q.nev_conduction; }

PetscErrorCode Lanczos(EPS eps, const CompareQuestion &q) {
  PetscFunctionBeginUser;
  PetscCall(EPSSetType(eps, EPSNEMO));
  PetscCall(EPSNemoSetValence(eps, q.nev_valence));
  PetscCall(EPSSetTolerances(eps, PETSC_DEFAULT, q.max_products));
  PetscFunctionReturn(0);
}

PetscErrorCode KrylovSchurHarmonic(EPS eps, const CompareQuestion &) {
  ST st;
  PetscFunctionBeginUser;
  PetscCall(EPSSetType(eps, EPSKRYLOVSCHUR));
  PetscCall(EPSSetExtraction(eps, EPS_HARMONIC));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STSetType(st, STSHIFT));
  PetscFunctionReturn(0);
}

PetscErrorCode ShiftAndInvert(EPS eps, const CompareQuestion &) {
  ST st;
  KSP ksp;
  PC pc;
  PetscFunctionBeginUser;
  PetscCall(EPSSetType(eps, EPSKRYLOVSCHUR));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STSetType(st, STSINVERT));
  PetscCall(STGetKSP(st, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscFunctionReturn(0);
}

PetscErrorCode Folded(EPS eps, EPSType inner_type, const CompareQuestion &q) {
  EPS inner;
  PetscFunctionBeginUser;
  PetscCall(EPSSetType(eps, EPSFOLDED));
  PetscCall(EPSFoldedGetInner(eps, &inner));
  PetscCall(EPSSetType(inner, inner_type));
  if (std::string(inner_type) == EPSNEMO) PetscCall(EPSSetTolerances(inner, PETSC_DEFAULT, std::max<PetscInt>(1, q.max_products / 2))); // F: two products per step
  PetscFunctionReturn(0);
}
PetscErrorCode FoldedKrylovSchur(EPS eps, const CompareQuestion &q) { return Folded(eps, EPSKRYLOVSCHUR, q); }
PetscErrorCode FoldedArpack(EPS eps, const CompareQuestion &q) { return Folded(eps, EPSARPACK, q); }
PetscErrorCode FoldedLanczos(EPS eps, const CompareQuestion &q) { return Folded(eps, EPSNEMO, q); }

// A SLEPc solver (not nemo) without an iteration limit of the user's gets the restarts that keep it within m
// applications of its operator; its basis ncv is made explicit first, since the limit is computed from it.
PetscErrorCode CapSlepcSolver(EPS eps, PetscInt n, PetscInt nev, PetscInt m) {
  PetscErrorCode (*nemo)(EPS, PetscInt) = nullptr;
  PetscBool arpack;
  PetscReal tol;
  PetscInt max_it, ncv, mpd;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectQueryFunction((PetscObject)eps, "EPSNemoSetValence_C", &nemo));
  PetscCall(EPSGetTolerances(eps, &tol, &max_it));
  if (nemo || max_it != PETSC_DEFAULT) PetscFunctionReturn(0);
  PetscCall(PetscObjectTypeCompare((PetscObject)eps, EPSARPACK, &arpack));
  PetscCall(EPSGetDimensions(eps, nullptr, &ncv, &mpd));
  if (ncv <= 0) ncv = std::min(n, SlepcDefaultBasis(nev, arpack));
  PetscCall(EPSSetDimensions(eps, nev, ncv, mpd));
  // Krylov-Schur: ncv applications, then at most ceil(ncv/2) per restart (half the basis is kept); ARPACK: ncv + 1,
  // then at most ncv - nev per restart.
  const PetscInt restarts = arpack ? 1 + std::max<PetscInt>(0, m - ncv - 1) / std::max<PetscInt>(1, ncv - nev) : 1 + std::max<PetscInt>(0, m - ncv) / ((ncv + 1) / 2);
  PetscCall(EPSSetTolerances(eps, tol, restarts));
  PetscFunctionReturn(0);
}

} // namespace

const std::vector<ComparisonRun> &ComparisonRuns() {
  static const std::vector<ComparisonRun> runs = {
    {"lanczos", "lanczos (NEMO 3-D style)", false, Lanczos},
    {"ks_harmonic", "slepc krylovschur harmonic", false, KrylovSchurHarmonic},
    {"sinvert", "slepc krylovschur sinvert", true, ShiftAndInvert},
    {"folded_ks", "folded krylovschur", false, FoldedKrylovSchur},
    {"folded_arpack", "folded arpack", false, FoldedArpack},
    {"folded_lanczos", "folded lanczos", false, FoldedLanczos},
  };
  return runs;
}

PetscErrorCode CreateRunSolver(MPI_Comm comm, const ComparisonRun &run, const CompareQuestion &q, PetscInt n, EPS *eps) {
  PetscErrorCode (*inner_of)(EPS, EPS *) = nullptr;
  PetscFunctionBeginUser;
  PetscCall(EPSCreate(comm, eps));
  PetscCall(EPSSetOptionsPrefix(*eps, (run.name + "_").c_str()));
  PetscCall(SetEigenSolverDefaults(*eps, q.center));
  PetscCall(EPSSetDimensions(*eps, Nev(q), PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(run.configure(*eps, q));
  PetscCall(EPSSetFromOptions(*eps));
  PetscCall(PetscObjectQueryFunction((PetscObject)*eps, "EPSFoldedGetInner_C", &inner_of));
  if (inner_of) {
    EPS inner;
    PetscCall(EPSFoldedGetInner(*eps, &inner));
    PetscCall(CapSlepcSolver(inner, n, Nev(q), std::max<PetscInt>(1, q.max_products / 2))); // F: two products of H
  } else PetscCall(CapSlepcSolver(*eps, n, Nev(q), q.max_products));
  PetscCall(InstallSolveMonitor(*eps, ("the comparison's run " + run.name).c_str()));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
