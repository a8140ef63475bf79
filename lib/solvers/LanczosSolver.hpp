#pragma once
// A Lanczos eigen-solver in the style of NEMO 3-D, on PETSc Vec/Mat only.
//
// First pass: the plain three-term recurrence on complex vectors with exactly three vectors of matrix size, no
// reorthogonalisation, alpha real (H Hermitian), beta >= 0, and the reductions of one step fused into one
// MPI_Allreduce of four doubles (Re/Im v^H w, w^H w and v^H v, with w = H v_j - beta_j v_{j-1}; beta_{j+1}^2 =
// w^H w - 2 alpha_j^2 + alpha_j^2 v^H v, recomputed with a second reduction only when cancellation would cost
// accuracy; the v^H v term keeps the vectors' norms from drifting on spectra not centred on 0). The local
// sums are formed in a fixed order, so a second pass reproduces the first bit for bit.
//
// Every `check_every` steps (and at max_steps) the eigenvalues of the tridiagonal T_m near the wanted energies
// are computed with LAPACK (dstebz bisection on the needed index range only, dstein for the last components of
// their eigenvectors). The Cullum-Willoughby test removes spurious (ghost) values: a value of T_m that is simple
// and also an eigenvalue of T^_m (T_m without its first row and column) is spurious; copies of one value (closer
// than kLanczosCopyTolerance * spectral scale) are merged into one. A kept value has converged when
// beta_{m+1} |s_m| <= tol * spectral scale (s_m: last component of its T eigenvector, the best of its copies;
// scale: Gershgorin bound of T_m). The run stops when every wanted value has converged and the wanted list is the
// same at two consecutive checks (in window mode also the nearest kept values outside the window must have
// converged, so that an empty window is recognised).
//
// Eigenvectors: a second pass repeats the recurrence from the same start vector and accumulates x_i = sum_j s_ij v_j
// for the wanted values only, with s_i the eigenvector of T at the check where value i first converged (before
// copies of it appear). Memory: 3 + (wanted vectors) vectors of matrix size, never O(n * steps).
//
// Multiplicity: a single-vector Lanczos sees each degenerate level once (its Krylov space holds one vector of each
// eigenspace: the projection of the start vector).
//  - Kramers: with `kramers_block` > 0 (rows per atom block, spin-up orbitals then spin-down orbitals; only for
//    time-reversal-symmetric H: spin-orbit, no magnetic field, real orbitals, k = 0) every level is counted twice,
//    and with vectors the partner Theta x, (Theta x)[up o] = -conj(x[down o]), (Theta x)[down o] = conj(x[up o]),
//    is returned too; a partner whose residual shows that H is not time-reversal symmetric is dropped.
//  - Beyond Kramers (e.g. the 4-fold levels of a symmetric dot): restarted passes. Pass p starts from a new seeded
//    vector made orthogonal to every state found so far, runs as many steps as the first pass needed (plus a
//    quarter), and looks at the window of the levels found. Its converged vectors, orthogonalised against the found
//    states, that keep a norm >= 1/2 and have a small residual are further states of a level (with their Kramers
//    partners); the passes stop at the first pass that adds nothing (or at multiplicity_passes). Needs vectors.
//    In nev mode whole levels are returned: the levels nearest the gap centre until nev states are reached.
//
// Checkpoint: with a file name, the first pass saves T, the last two Lanczos vectors, the seed, the rank count and
// the matrix size every `checkpoint_every` steps (at a check) and when it ends (written to FILE.partial, then
// renamed). A run given an existing checkpoint continues the first pass from it (or goes straight to the second
// pass if T had converged), so the result is bit-for-bit that of an uninterrupted run. Refused (one line) when
// made on another rank count, for another matrix size or seed, or for another H (the first step is recomputed and
// must agree bit for bit).
#include <petscmat.h>

#include <span>
#include <string>
#include <vector>

#include "solvers/EigenStates.hpp"

namespace tbpeta {

// Copies of one Ritz value and a T_m / T^_m coincidence in the Cullum-Willoughby test: values closer than this
// times the spectral scale of T are the same.
inline constexpr double kLanczosCopyTolerance = 1e-11;

struct LanczosOptions {
  PetscInt nev_valence = 4, nev_conduction = 4; // states (with multiplicity) just below / above gap_center
  double gap_center = 0;                        // eV; the caller passes the host midgap as default
  bool window_set = false;                      // explicit window: all states inside [window[0], window[1]] (eV)
  double window[2] = {0, 0};
  PetscInt check_every = 50, max_steps = 20000;
  unsigned long long seed = 1;
  double tol = 1e-10;    // relative convergence tolerance on beta_{m+1} |s_m| (relative to the spectral scale)
  bool monitor = false;  // print step, converged count, wanted count and the window values at every check
  PetscInt multiplicity_passes = 4; // restarted passes for degeneracy beyond Kramers (0: Kramers only)
  bool vectors = true;              // -lanczos_vectors: false = eigenvalues only (no second pass, no restarted passes)
  std::string checkpoint;           // -lanczos_checkpoint FILE (empty: none)
  PetscInt checkpoint_every = 1000; // steps between checkpoint writes
  PetscInt kramers_block = 0; // rows per atom block when H is time-reversal symmetric with spin (see above); set by
                              // the caller, not an option
};

// Reads -lanczos_nev_valence, -lanczos_nev_conduction, -lanczos_gap_center (default: default_gap_center),
// -lanczos_window a,b, -lanczos_check_every, -lanczos_max_steps, -lanczos_seed, -lanczos_tol, -lanczos_monitor,
// -lanczos_multiplicity_passes, -lanczos_vectors, -lanczos_checkpoint FILE, -lanczos_checkpoint_every.
// Bad values give a one-line PETSC_ERR_USER_INPUT naming the option. Collective.
PetscErrorCode LanczosOptionsFromOptions(MPI_Comm comm, double default_gap_center, LanczosOptions *opts);

// What a run did beyond EigenStates.
struct LanczosReport {
  bool converged = false;                 // every wanted value converged (when the run stopped)
  std::vector<double> unconverged;        // wanted Ritz values (eV, one per level) not converged when the run stopped
  std::vector<double> unconverged_errors; // their estimates beta_{m+1} |s_m| (eV)
  PetscInt steps = 0;                     // steps of the first pass
  PetscInt checks = 0;                    // convergence checks
  PetscInt reductions = 0;                // MPI_Allreduce calls of both passes (norms of start vector included)
  PetscInt recomputed_betas = 0;          // steps whose beta needed the second reduction
  PetscInt spurious = 0;                  // ghosts removed at the last check (in the examined range)
  PetscInt copies = 0;                    // copies merged at the last check (in the examined range)
  PetscInt second_pass_steps = 0;         // 0 without vectors
  bool second_pass_identical = false;     // alpha and beta of the second pass equal the first's, bit for bit
  PetscInt resumed_from = 0;              // steps loaded from the checkpoint (0: started afresh)
  PetscInt multiplicity_passes = 0;       // restarted passes run
  PetscInt multiplicity_steps = 0;        // their steps (both passes of each)
  PetscInt extra_states = 0;              // states (with partners) the restarted passes added
  bool multiplicity_complete = true;      // false: the last allowed pass still found new states
  std::vector<double> alpha, beta;        // T of the first pass: alpha[0..steps), beta[0..steps] (beta[0] = 0)
};

// Solves for the wanted states of the Hermitian H. canonical_rows: for each local row of H its row in the
// canonical order (Structure::canonicalRows), so the start vector -- a hash of (seed, canonical row), complex,
// normalised -- is the same on any number of ranks (empty: global rows). want_vectors: eigenvectors by the second
// pass (owned by the caller). Values not converged at max_steps are not returned: states->solver says so and
// report->unconverged lists them. With kramers_block, nev counts states (two per level) and an odd nev is rounded
// up to whole pairs. Fills iterations (first-pass steps), products (both passes and the residuals), vectors_held
// (Vecs created: 3 + vectors + partners), seconds, requested (nev_valence + nev_conduction; in window mode the
// states found); peak_rss_mb stays 0 (the caller measures it). Errors (PETSC_ERR_USER_INPUT): more states than
// rows, a window outside the Gershgorin bound of H, a window found empty after convergence; PETSC_ERR_PLIB when
// the second pass does not reproduce the first. Collective.
PetscErrorCode LanczosSolve(Mat H, const LanczosOptions &opts, std::span<const PetscInt> canonical_rows, bool want_vectors, EigenStates *states,
                            LanczosReport *report = nullptr);

} // namespace tbpeta
