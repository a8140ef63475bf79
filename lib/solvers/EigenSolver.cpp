#include "solvers/EigenSolver.hpp"

#include <algorithm>
#include <string>

#include <string>

#include "study/AllocationTracker.hpp"
#include "solvers/FoldedSpectrum.hpp"
#include "solvers/LanczosSolver.hpp"
#include "support/ResidentMemory.hpp"
#include "solvers/SlepcSolver.hpp"
#include "study/SolverComparison.hpp"

namespace tbpeta {

const char *solverName(SolverKind k) {
  switch (k) {
  case SolverKind::folded: return "folded";
  case SolverKind::lanczos: return "lanczos";
  case SolverKind::compare: return "compare";
  default: return "slepc";
  }
}

PetscErrorCode SolverKindFromOptions(MPI_Comm comm, SolverKind *kind) {
  const char *names[] = {"slepc", "folded", "lanczos", "compare", "SolverKind", "SOLVER_", nullptr};
  PetscEnum k = (PetscEnum)SolverKind::lanczos; // NEMO 3-D's choice: least memory, no factorisation
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Eigen-solver", "tbpeta");
  PetscCall(PetscOptionsEnum("-solver", "Eigen-solver: slepc (EPS, -eps_* options), folded (smallest of (H-sigma)^2, -folded_* options), lanczos (NEMO 3-D style), compare (all of them, -compare_* options)", "tbpeta",
                             names, k, &k, nullptr));
  PetscOptionsEnd();
  *kind = (SolverKind)k;
  PetscFunctionReturn(0);
}

PetscErrorCode ListSolverOptions(MPI_Comm comm, double gap_center) {
  LanczosOptions lo;
  FoldedOptions fo;
  PetscFunctionBeginUser;
  PetscCall(LanczosOptionsFromOptions(comm, gap_center, &lo));
  PetscCall(FoldedOptionsFromOptions(comm, gap_center, &fo));
  CompareOptions co;
  PetscCall(CompareOptionsFromOptions(comm, gap_center, &co));
  PetscInt dense = kDenseMaxRows;
  PetscOptionsBegin(comm, nullptr, "Dense LAPACK references", "tbpeta");
  PetscCall(PetscOptionsInt("-dense_max_rows", "Largest H that -eps_type lapack may densify", "CheckDenseSize", dense, &dense, nullptr));
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

namespace {

// SLEPc's basis for nev values unless -<prefix>eps_ncv is given (Krylov-Schur's default, ARPACK's when arpack).
PetscInt SlepcBasis(const char *prefix, PetscInt nev, bool arpack) {
  PetscInt ncv = SlepcDefaultBasis(nev, arpack);
  PetscOptionsGetInt(nullptr, prefix, "-eps_ncv", &ncv, nullptr);
  return ncv;
}

bool IsArpack(const char *prefix) {
  char type[64] = "";
  PetscBool set = PETSC_FALSE;
  PetscOptionsGetString(nullptr, prefix, "-eps_type", type, sizeof type, &set);
  return set && std::string(type) == "arpack";
}

} // namespace

PetscErrorCode EstimateVectorsHeld(MPI_Comm comm, SolverKind kind, double gap_center, PetscInt *vectors) {
  PetscFunctionBeginUser;
  switch (kind) {
  case SolverKind::lanczos: {
    LanczosOptions lo;
    PetscCall(LanczosOptionsFromOptions(comm, gap_center, &lo));
    *vectors = 3 + (lo.window_set ? 0 : lo.nev_valence + lo.nev_conduction);
    break;
  }
  case SolverKind::slepc: {
    PetscInt nev = 1;
    PetscCall(PetscOptionsGetInt(nullptr, nullptr, "-eps_nev", &nev, nullptr));
    *vectors = SlepcBasis(nullptr, nev, IsArpack(nullptr)) + 2 * nev;
    break;
  }
  case SolverKind::folded: {
    FoldedOptions fo;
    PetscCall(FoldedOptionsFromOptions(comm, gap_center, &fo));
    *vectors = fo.solver == FoldedSolver::lanczos ? 3 + 1 + fo.nev : SlepcBasis("folded_", fo.nev, IsArpack("folded_")) + 1 + 2 * fo.nev;
    break;
  }
  case SolverKind::compare: {
    CompareOptions co;
    PetscCall(CompareOptionsFromOptions(comm, gap_center, &co));
    const PetscInt nev = co.nev_valence + co.nev_conduction;
    *vectors = std::max(SlepcBasis(nullptr, nev, false), SlepcBasis("folded_", nev, true) + 1) + 2 * nev;
    break;
  }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SolveFromOptions(Mat H, SolverKind kind, double gap_center, std::span<const PetscInt> canonical_rows, int kramers_block, bool want_vectors,
                                EigenStates *states) {
  MPI_Comm comm;
  const auto list = [](const std::vector<double> &values) {
    std::string text;
    for (double v : values) text += (text.empty() ? "" : ", ") + std::to_string(v);
    return text;
  };
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  ResetPeakResident();
  // Vectors held are measured, not declared: the peak of the bytes PETSc allocates during the solve.
  size_t baseline;
  PetscCall(BeginVectorCount(&baseline));
  FoldedOptions fo;
  FoldedReport folded;
  LanczosReport lanczos;
  switch (kind) {
  case SolverKind::slepc: PetscCall(SolveWithSlepc(H, gap_center, states, want_vectors)); break;
  case SolverKind::folded:
    PetscCall(FoldedOptionsFromOptions(comm, gap_center, &fo));
    PetscCall(FoldedSolve(H, fo, canonical_rows, kramers_block, want_vectors, states, &folded));
    break;
  case SolverKind::lanczos: {
    LanczosOptions lo;
    lo.kramers_block = kramers_block;
    PetscCall(LanczosOptionsFromOptions(comm, gap_center, &lo));
    PetscCall(LanczosSolve(H, lo, canonical_rows, want_vectors, states, &lanczos));
    break;
  }
  case SolverKind::compare: SETERRQ(comm, PETSC_ERR_ARG_WRONG, "SolveFromOptions runs one solver; -solver compare runs them all (SolverComparison)");
  }
  // Complete: the Lanczos solvers know which wanted levels converged; SLEPc returns at most what converged.
  if (kind == SolverKind::lanczos) states->complete = lanczos.converged;
  else if (kind == SolverKind::folded && fo.solver == FoldedSolver::lanczos) states->complete = folded.lanczos.converged;
  else states->complete = (PetscInt)states->values.size() >= states->requested;
  PetscCall(VectorsHeld(H, baseline, &states->vectors_held));
  PetscCall(PeakResidentMb(comm, &states->peak_rss_mb, nullptr));
  if (kind == SolverKind::lanczos && !lanczos.converged)
    PetscCall(PetscPrintf(comm, "tbpeta: warning: Lanczos stopped at %" PetscInt_FMT " steps (-lanczos_max_steps) with %zu wanted levels not converged: %s eV\n", lanczos.steps,
                          lanczos.unconverged.size(), list(lanczos.unconverged).c_str()));
  if (kind == SolverKind::folded && fo.solver == FoldedSolver::lanczos && !folded.lanczos.converged) {
    std::vector<double> distances; // |E - sigma| of the unconverged levels of F = (H - sigma)^2
    for (double mu : folded.lanczos.unconverged) distances.push_back(std::sqrt(std::max(mu, 0.0)));
    PetscCall(PetscPrintf(comm, "tbpeta: warning: folded Lanczos stopped at %" PetscInt_FMT " steps (-lanczos_max_steps) with %zu wanted levels not converged, at |E - sigma| = %s eV\n",
                          folded.lanczos.steps, distances.size(), list(distances).c_str()));
  }
  if (kind == SolverKind::folded && !folded.unresolved.empty())
    PetscCall(PetscPrintf(comm,
                          "tbpeta: warning: %zu folded states are no eigenstates of H (||Hx - Ex|| > %.1e eV): E = %s eV; the levels sigma - d and sigma + d are one level of "
                          "(H - sigma)^2 and its vectors can mix them: move -folded_shift (or the run has not converged)\n",
                          folded.unresolved.size(), folded.residual_limit, list(folded.unresolved).c_str()));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
