#pragma once
// The three-term Lanczos recurrence in the style of NEMO 3-D, on PETSc Vec/Mat only: complex vectors, exactly three of
// them, no reorthogonalisation, alpha real (H Hermitian), beta >= 0, and the reductions of one step fused into one
// MPI_Allreduce. The local sums are formed in a fixed order, so a second pass from the same start vector
// reproduces the first bit for bit.
#include <petscmat.h>

#include "operator/FusedLanczosProduct.hpp"
#include "operator/OperatorProperties.hpp"

namespace tbpeta::lanczos {

struct Counters {
  PetscInt products = 0, reductions = 0, recomputed = 0; // recomputed: steps whose beta needed a second reduction
};

// The operator, its numbering and the three vectors, shared by all passes of one solve.
struct Recurrence {
  MPI_Comm comm = MPI_COMM_NULL;
  Mat H = nullptr;
  double centre = 0;                             // the recurrence runs on H - centre I
  const OperatorProperties *numbering = nullptr; // canonical rows for the start vectors (null: global rows)
  Vec vprev = nullptr, v = nullptr, w = nullptr;
  FusedLanczosProduct fused = nullptr;           // H's product fused with the step's first pass (null: the plain path)
  Counters cnt;

  PetscErrorCode Create(Mat A, double shift); // the three vectors
  PetscErrorCode Destroy();
};

// r.v = the normalised start vector: a hash of (seed, canonical row) per entry, complex, so the same on any number of
// ranks. One reduction.
PetscErrorCode StartVector(Recurrence &r, unsigned long long seed);

// One step: on entry r.v = v_j, r.vprev = v_{j-1} (ignored when beta_j = 0); on exit r.v = v_{j+1}, r.vprev = v_j
// and r.w is free. With an operator that offers a fused product (r.fused) the product forms w = H v_j - beta_j
// v_{j-1} and the sums in its sweep, and one pass makes v_{j+1} = (w - alpha_j v_j) / beta_{j+1}: two passes over
// the vectors fewer than the plain path (product, w -= beta v_{j-1} with the sums, w -= alpha v_j, w /= beta). The two
// paths round differently; each reproduces itself bit for bit. -log_view: TbLanczosProduct, TbLanczosVectors. One MPI_Allreduce of Re and Im v^H w, w^H w and v^H v (with w = H v_j - beta_j v_{j-1}):
// beta_{j+1}^2 = w^H w - 2 alpha_j^2 + alpha_j^2 v^H v, recomputed with a second reduction only when cancellation
// would cost accuracy. The same reduction carries SIGINT/SIGTERM, and a NaN or Inf stops the run at the product
// that made it.
PetscErrorCode Step(Recurrence &r, double beta_j, double *alpha, double *beta_next);

// ||(H - centre) x - value x|| (x of unit norm), with r.w as scratch.
PetscErrorCode Residual(Recurrence &r, Vec x, double value, double *res);

// y = Theta x, time reversal per atom block of kb rows (kb/2 spin-up orbitals, then kb/2 spin-down):
// y_up = -conj(x_down), y_down = conj(x_up).
PetscErrorCode KramersPartner(Vec x, Vec y, PetscInt kb);

} // namespace tbpeta::lanczos
