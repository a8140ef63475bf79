#pragma once
// A Lanczos eigen-solver in the style of NEMO 3-D, on PETSc Vec/Mat only: the engine behind the EPS type "nemo"
// (NemoLanczos.hpp), which is how every program uses it.
//
// First pass: the plain three-term recurrence (LanczosRecurrence) with exactly three vectors of matrix size and no
// reorthogonalisation; every check_every steps the wanted eigenvalues of the tridiagonal T are examined
// (TridiagonalAnalysis: Cullum-Willoughby ghosts removed, copies merged). Eigenvectors: a second pass repeats the
// recurrence from the same start vector and accumulates only the wanted vectors (LanczosPasses), ritz_batch Lanczos
// vectors per sweep over them (the eigenvectors are read and written once per ritz_batch steps). Memory: 3 + (the
// states) vectors of matrix size, + ritz_batch - 2 during a second pass, never O(n * steps).
//
// Multiplicity: a single-vector Lanczos sees each degenerate level once (its Krylov space holds one vector of each
// eigenspace: the projection of the start vector).
//  - Kramers: with kramers_block > 0 (rows per atom block, spin-up orbitals then spin-down; only for
//    time-reversal-symmetric H: spin-orbit, no magnetic field, real orbitals, k = 0) every level is counted twice,
//    and with vectors the partner Theta x is returned too; a partner whose residual shows that H is not
//    time-reversal symmetric is dropped.
//  - Beyond Kramers (e.g. the 4-fold levels of a symmetric dot): restarted passes (MultiplicityPasses). In nev mode
//    whole levels are returned: the levels nearest the gap centre until nev states are reached on each side.
#include <petscmat.h>

#include <functional>
#include <string>
#include <vector>

#include "solvers/lanczos/LanczosOptions.hpp"
#include "solvers/lanczos/LanczosPasses.hpp"

namespace tbpeta::lanczos {

// What a run did beyond its states.
struct LanczosReport {
  bool vectors = true;                    // the eigenvectors were computed
  bool kramers = false;                   // levels counted twice, with their time-reversal partners
  bool converged = false;                 // every wanted value converged (when the run stopped)
  std::vector<double> unconverged;        // wanted Ritz values (one per level) not converged when the run stopped
  std::vector<double> unconverged_errors; // their estimates beta_{m+1} |s_m|
  PetscInt steps = 0;                     // steps of the first pass
  PetscInt checks = 0;                    // convergence checks
  PetscInt products = 0;                  // products of H of all passes and residuals
  PetscInt reductions = 0;                // MPI_Allreduce calls of all passes (norms of start vectors included)
  PetscInt recomputed_betas = 0;          // steps whose beta needed the second reduction
  PetscInt spurious = 0;                  // ghosts removed at the last check (in the examined range)
  PetscInt copies = 0;                    // copies merged at the last check (in the examined range)
  bool second_pass_identical = false;     // alpha and beta of the second pass equal the first's, bit for bit
  PetscInt resumed_from = 0;              // steps loaded from the checkpoint (0: started afresh)
  bool resumed_states = false;            // the states of the passes after the first came from the checkpoint
  StatesRecord passes;                    // what the second and the restarted passes did
  bool invariant = false;                 // the Krylov space became invariant
  std::vector<double> alpha, beta;        // T of the first pass: alpha[0..steps), beta[0..steps] (beta[0] = 0)
};

// Solves for the wanted states of the Hermitian H (gap_center and window in eV of H; the states' values of
// H - opts.centre). states: the store (with vectors
// when opts.vectors). Errors (PETSC_ERR_USER_INPUT): more states than rows, a window outside the Gershgorin bound of
// H, a window found empty after convergence; PETSC_ERR_PLIB when the second pass does not reproduce the first.
// Shown in -log_view as TbSolve. Collective.
PetscErrorCode LanczosSolve(Mat H, const LanczosOptions &opts, StateColumns *states, LanczosReport *report);

// "nemo: Lanczos (NEMO 3-D style, 3 vectors, no reorthogonalisation, ...)" with what the run noted.
std::string LanczosDescription(const LanczosReport &report);

} // namespace tbpeta::lanczos
