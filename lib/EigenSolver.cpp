#include "tbpeta/EigenSolver.hpp"

#include "tbpeta/FoldedSpectrum.hpp"
#include "tbpeta/ResidentMemory.hpp"
#include "tbpeta/SlepcSolver.hpp"

namespace tbpeta {

const char *solverName(SolverKind k) {
  switch (k) {
  case SolverKind::folded: return "folded";
  case SolverKind::lanczos: return "lanczos";
  default: return "slepc";
  }
}

PetscErrorCode SolverKindFromOptions(MPI_Comm comm, SolverKind *kind) {
  const char *names[] = {"slepc", "folded", "lanczos", "SolverKind", "SOLVER_", nullptr};
  PetscEnum k = (PetscEnum)SolverKind::slepc;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Eigen-solver", "tbpeta");
  PetscCall(PetscOptionsEnum("-solver", "Eigen-solver: slepc (EPS, -eps_* options), folded (smallest of (H-sigma)^2, -folded_* options), lanczos (NEMO 3-D style)", "tbpeta",
                             names, k, &k, nullptr));
  PetscOptionsEnd();
  *kind = (SolverKind)k;
  PetscFunctionReturn(0);
}

PetscErrorCode SolveFromOptions(Mat H, SolverKind kind, double gap_center, std::span<const PetscInt> canonical_rows, int kramers_block, bool want_vectors,
                                EigenStates *states) {
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  ResetPeakResident();
  switch (kind) {
  case SolverKind::slepc: PetscCall(SolveWithSlepc(H, gap_center, states)); break;
  case SolverKind::folded: {
    FoldedOptions fo;
    PetscCall(FoldedOptionsFromOptions(comm, gap_center, &fo));
    PetscCall(FoldedSolveWithSlepc(H, fo, want_vectors, states));
    break;
  }
  case SolverKind::lanczos: SETERRQ(comm, PETSC_ERR_USER_INPUT, "-solver lanczos: the NEMO 3-D-style Lanczos is not built into this version yet (use slepc or folded)");
  }
  PetscCall(PeakResidentMb(comm, &states->peak_rss_mb, nullptr));
  (void)canonical_rows, (void)kramers_block;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
