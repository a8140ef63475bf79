#pragma once
// The three-term Lanczos recurrence in the style of NEMO 3-D, on PETSc Vec/Mat only: complex vectors, exactly three of
// them, no reorthogonalisation, alpha real (H Hermitian), beta >= 0, and the reductions of one step fused into one
// MPI_Allreduce. The local sums are formed in a fixed order, so a second pass from the same start vector
// reproduces the first bit for bit.
#include <petscmat.h>

#include <vector>

#include "operator/FusedLanczosProduct.hpp"
#include "operator/OperatorProperties.hpp"

namespace tbpeta::lanczos {

struct Counters {
  PetscInt products = 0, reductions = 0, recomputed = 0; // recomputed: steps whose beta needed a second reduction
};

// The operator, its numbering and the three vectors, shared by all passes of one solve.
// With an operator that offers a lazy product, a step leaves its last pass to the next product: after it, r.v = v_j
// (the vector of the alpha_j just returned), r.w = (H - centre) v_j - beta_j v_{j-1}, not yet orthogonalised against
// v_j, and v_{j+1} = (w - alpha_j v_j) / beta_{j+1} is formed by the next step's sweep (or by Materialise).
struct Recurrence {
  MPI_Comm comm = MPI_COMM_NULL;
  Mat H = nullptr;
  double centre = 0;                             // the recurrence runs on H - centre I
  const OperatorProperties *numbering = nullptr; // canonical rows for the start vectors (null: global rows)
  Vec vprev = nullptr, v = nullptr, w = nullptr;
  FusedLanczosProduct fused = nullptr; // H's product fused with the step's first pass (null: the plain path)
  LazyLanczosProduct lazy = nullptr;   // H's product fused with the previous step's last pass (null: none)
  bool keep_previous = false;          // lazy steps keep v_{j-1} in r.vprev (else its storage takes w)
  // A window of older vectors (the second pass adds several Lanczos vectors to the eigenvectors in one sweep): a step
  // whose v_{j-1} is v_keep_from or newer takes its new w from `spare` and moves r.vprev to the end of `kept` (oldest
  // first) instead of overwriting it. Without a window keep_from lies beyond every step.
  std::vector<Vec> spare, kept;
  PetscInt keep_from = PETSC_MAX_INT;
  bool pending = false;                        // r.v = v_j, r.w = w of step j: v_{j+1} is not formed yet
  double pending_alpha = 0, pending_scale = 1; // v_{j+1} = (w - pending_alpha v) pending_scale
  PetscInt newest = 0;                         // r.v holds v_newest (r.vprev v_{newest-1}, when kept)
  Counters cnt;

  Recurrence() = default;
  Recurrence(const Recurrence &) = delete;
  Recurrence &operator=(const Recurrence &) = delete;
  ~Recurrence() { (void)Destroy(); } // a solve that stopped on an error leaves nothing behind

  PetscErrorCode Create(Mat A, double shift); // the three vectors
  PetscErrorCode Destroy();                   // the three vectors and the window's
  PetscErrorCode OpenWindow(PetscInt n);      // n spare vectors
  void ReleaseKept();                         // the kept vectors are spare again (their contents are used)
  PetscErrorCode CloseWindow();               // frees the window's vectors, wherever the steps rotated them
};

// r.v = the normalised start vector: a hash of (seed, canonical row) per entry, complex, so the same on any number of
// ranks. One reduction.
PetscErrorCode StartVector(Recurrence &r, unsigned long long seed);

// One step: returns alpha_j and beta_{j+1} of v_j, with on entry r.v = v_j and r.vprev = v_{j-1} (ignored when
// beta_j = 0), or a pending v_j (r.pending).
//  - The plain path (any Mat): the product, w -= beta_j v_{j-1} with the sums, then one pass v_{j+1} = (w - alpha_j
//    v_j) / beta_{j+1}. On exit r.v = v_{j+1}, r.vprev = v_j.
//  - The fused path (r.fused, no r.lazy): the product forms w = H v_j - beta_j v_{j-1} and the sums in its sweep, then
//    one pass makes v_{j+1} = (w - alpha_j v_j) / beta_{j+1}. On exit as the plain path.
//  - The lazy path (r.lazy): the product's sweep forms the pending v_j as it goes (LazyLanczosProduct), and no pass
//    follows: on exit r.v = v_j, r.w = w, pending (r.vprev = v_{j-1} when r.keep_previous). One read and one write of
//    two vectors per step.
// The fused and lazy paths give the same T bit for bit (the same sums of the same entries); the plain path rounds
// differently. Each reproduces itself bit for bit. -log_view: TbLanczosProduct, TbLanczosVectors. One MPI_Allreduce
// of Re v^H w, w^H w and v^H v (with w = H v_j - beta_j v_{j-1}): beta_{j+1}^2 = w^H w - 2 alpha_j^2 +
// alpha_j^2 v^H v, recomputed with a second reduction (and its own pass) only when cancellation would cost accuracy.
// The same reduction carries SIGINT/SIGTERM, and a NaN or Inf stops the run at the product that made it.
PetscErrorCode Step(Recurrence &r, double beta_j, double *alpha, double *beta_next);

// Forms a pending v_{j+1} (one pass): then r.v = v_{j+1}, r.vprev = v_j, as after a step of the plain path. Does
// nothing when no step is pending. Not collective.
PetscErrorCode Materialise(Recurrence &r);

// ||(H - centre) x - value x|| (x of unit norm), with r.w as scratch (a pending step is dropped).
PetscErrorCode Residual(Recurrence &r, Vec x, double value, double *res);

} // namespace tbpeta::lanczos
