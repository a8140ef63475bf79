#include "tbpeta/EigenSolver.hpp"

#include <string>

#include "tbpeta/FoldedSpectrum.hpp"
#include "tbpeta/LanczosSolver.hpp"
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

PetscErrorCode ListSolverOptions(MPI_Comm comm, double gap_center) {
  LanczosOptions lo;
  FoldedOptions fo;
  PetscFunctionBeginUser;
  PetscCall(LanczosOptionsFromOptions(comm, gap_center, &lo));
  PetscCall(FoldedOptionsFromOptions(comm, gap_center, &fo));
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
  case SolverKind::lanczos: {
    LanczosOptions lo;
    lo.kramers_block = kramers_block;
    PetscCall(LanczosOptionsFromOptions(comm, gap_center, &lo));
    LanczosReport report;
    PetscCall(LanczosSolve(H, lo, canonical_rows, want_vectors, states, &report));
    if (!report.converged) {
      std::string list;
      for (double v : report.unconverged) list += (list.empty() ? "" : ", ") + std::to_string(v);
      PetscCall(PetscPrintf(comm, "tbpeta: warning: Lanczos stopped at %" PetscInt_FMT " steps (-lanczos_max_steps) with %zu wanted levels not converged: %s eV\n", report.steps,
                            report.unconverged.size(), list.c_str()));
    }
    break;
  }
  }
  PetscCall(PeakResidentMb(comm, &states->peak_rss_mb, nullptr));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
