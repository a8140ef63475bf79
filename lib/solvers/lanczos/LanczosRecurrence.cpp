#include "solvers/lanczos/LanczosRecurrence.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "support/CounterHash.hpp"
#include "support/InterruptSignal.hpp"
#include "support/LogEvents.hpp"

namespace tbpeta::lanczos {

PetscErrorCode Recurrence::Create(Mat A, double shift) {
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  H = A, centre = shift;
  PetscCall(OperatorGetProperties(A, &numbering));
  PetscCall(MatGetFusedLanczosProduct(A, &fused));
  PetscCall(MatCreateVecs(H, &v, nullptr));
  PetscCall(VecDuplicate(v, &vprev));
  PetscCall(VecDuplicate(v, &w));
  PetscFunctionReturn(0);
}

PetscErrorCode Recurrence::Destroy() {
  PetscFunctionBeginUser;
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&vprev));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}

PetscErrorCode StartVector(Recurrence &r, unsigned long long seed) {
  PetscScalar *x;
  PetscInt n, rstart;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(r.v, &n));
  PetscCall(VecGetOwnershipRange(r.v, &rstart, nullptr));
  PetscCall(VecGetArray(r.v, &x));
  double local = 0, global = 0;
  for (PetscInt i = 0; i < n; ++i) {
    const std::uint64_t row = (std::uint64_t)(r.numbering ? r.numbering->canonicalRow(i, rstart) : rstart + i);
    const std::uint64_t h1 = MixBits(MixBits(seed) ^ (row * 0x100000001B3ULL + 0x51ED27ULL)), h2 = MixBits(h1);
    const double re = UnitInterval(h1) * 2 - 1, im = UnitInterval(h2) * 2 - 1;
    x[i] = PetscScalar(re, im);
    local += re * re + im * im;
  }
  PetscCallMPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, r.comm));
  ++r.cnt.reductions;
  const double s = 1 / std::sqrt(global);
  for (PetscInt i = 0; i < n; ++i) x[i] *= s;
  PetscCall(VecRestoreArray(r.v, &x));
  PetscFunctionReturn(0);
}

namespace {

// w = (H - centre) v, counted.
PetscErrorCode Apply(Recurrence &r, Vec x, Vec y) {
  PetscFunctionBeginUser;
  PetscCall(MatMult(r.H, x, y));
  if (r.centre != 0) PetscCall(VecAXPY(y, -r.centre, x)); // as a MatShell with a shift applies it
  ++r.cnt.products;
  PetscFunctionReturn(0);
}

// Stops every rank together when any received SIGINT/SIGTERM (global[4]); stops at the product that made a NaN or Inf.
PetscErrorCode CheckStep(Recurrence &r, const double *global) {
  PetscFunctionBeginUser;
  if (global[4] != 0) {
    char what[96];
    std::snprintf(what, sizeof what, "the Lanczos recurrence (product %lld of H)", (long long)r.cnt.products);
    PetscCall(CheckInterrupted(r.comm, what));
  }
  PetscCheck(std::isfinite(global[0]) && std::isfinite(global[2]) && std::isfinite(global[3]), r.comm, PETSC_ERR_FP,
             "Lanczos: product %lld of H gave a NaN or Inf (v^H H v = %g, ||H v||^2 = %g, ||v||^2 = %g): H or the start vector holds a non-finite entry",
             (long long)r.cnt.products, global[0], global[2], global[3]);
  PetscFunctionReturn(0);
}

} // namespace

// The ||v||^2 term of beta^2 matters: v is normalised only to rounding, and with the shorter ||w||^2 - alpha^2 (which
// assumes ||v|| = 1) that error is amplified by (alpha/beta)^2 at every step, so on a spectrum not centred on 0
// (passivated structures, folded operators) the vectors' norms drift away from 1 and T stops describing H (values
// wander in the gaps and never converge).
namespace {

// w = (H - centre) v - beta_j v_{j-1} and the local sums, by the operator's fused product or by the product and one
// pass; local[0..3] = Re v^H w, Im v^H w, w^H w, v^H v.
PetscErrorCode ProductAndSums(Recurrence &r, double beta_j, double *local) {
  PetscFunctionBeginUser;
  if (r.fused) {
    PetscCall(r.fused(r.H, r.v, beta_j != 0 ? r.vprev : nullptr, beta_j, r.centre, r.w, local));
    ++r.cnt.products;
    PetscFunctionReturn(0);
  }
  PetscInt n;
  const PetscScalar *pv, *pp = nullptr;
  PetscScalar *pw;
  PetscCall(Apply(r, r.v, r.w));
  PetscCall(VecGetLocalSize(r.v, &n));
  PetscCall(VecGetArrayRead(r.v, &pv));
  PetscCall(VecGetArray(r.w, &pw));
  if (beta_j != 0) PetscCall(VecGetArrayRead(r.vprev, &pp));
  for (PetscInt i = 0; i < n; ++i) {
    if (pp) pw[i] -= beta_j * pp[i];
    const double vr = PetscRealPart(pv[i]), vi = PetscImaginaryPart(pv[i]), wr = PetscRealPart(pw[i]), wi = PetscImaginaryPart(pw[i]);
    local[0] += vr * wr + vi * wi; // Re conj(v) w
    local[1] += vr * wi - vi * wr; // Im conj(v) w
    local[2] += wr * wr + wi * wi;
    local[3] += vr * vr + vi * vi;
  }
  if (pp) PetscCall(VecRestoreArrayRead(r.vprev, &pp));
  PetscCall(VecRestoreArray(r.w, &pw));
  PetscCall(VecRestoreArrayRead(r.v, &pv));
  PetscFunctionReturn(0);
}

// w = (w - a v) / b where b is known from the sums (the fused path: one pass), or w -= a v, then b from ||w|| when the
// sums' b^2 = ||w||^2 - 2 a^2 + a^2 ||v||^2 lost its accuracy to cancellation, then w /= b.
PetscErrorCode Orthogonalise(Recurrence &r, double a, double b2, double w2, double *b) {
  PetscInt n;
  const PetscScalar *pv;
  PetscScalar *pw;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(r.v, &n));
  PetscCall(VecGetArrayRead(r.v, &pv));
  PetscCall(VecGetArray(r.w, &pw));
  const bool accurate = b2 > 0.01 * w2;
  if (r.fused && accurate) { // one pass
    *b = std::sqrt(b2);
    const double s = 1 / *b;
    for (PetscInt i = 0; i < n; ++i) pw[i] = (pw[i] - a * pv[i]) * s;
  } else {
    for (PetscInt i = 0; i < n; ++i) pw[i] -= a * pv[i];
    if (!accurate) { // cancellation (or negative): the norm of w - alpha v directly
      double l = 0, g = 0;
      for (PetscInt i = 0; i < n; ++i) l += PetscRealPart(pw[i]) * PetscRealPart(pw[i]) + PetscImaginaryPart(pw[i]) * PetscImaginaryPart(pw[i]);
      PetscCallMPI(MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, r.comm));
      ++r.cnt.reductions, ++r.cnt.recomputed;
      b2 = g;
    }
    *b = std::sqrt(std::max(b2, 0.0));
    if (*b > 0) {
      const double s = 1 / *b;
      for (PetscInt i = 0; i < n; ++i) pw[i] *= s;
    }
  }
  PetscCall(VecRestoreArray(r.w, &pw));
  PetscCall(VecRestoreArrayRead(r.v, &pv));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode Step(Recurrence &r, double beta_j, double *alpha, double *beta_next) {
  const LogEvents *ev;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  // The fifth sum carries SIGINT/SIGTERM (InterruptSignal), so every rank stops at the same step at no extra cost.
  double local[5] = {0, 0, 0, 0, (double)InterruptSignal()}, global[5];
  PetscCall(PetscLogEventBegin(ev->lanczos_product, 0, 0, 0, 0));
  PetscCall(ProductAndSums(r, beta_j, local));
  PetscCall(PetscLogEventEnd(ev->lanczos_product, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(ev->lanczos_vectors, 0, 0, 0, 0));
  PetscCallMPI(MPI_Allreduce(local, global, 5, MPI_DOUBLE, MPI_SUM, r.comm));
  ++r.cnt.reductions;
  PetscCall(CheckStep(r, global));
  const double a = global[0];
  double b = 0;
  PetscCall(Orthogonalise(r, a, global[2] - 2 * a * a + a * a * global[3], global[2], &b));
  PetscCall(PetscLogEventEnd(ev->lanczos_vectors, 0, 0, 0, 0));
  Vec t = r.vprev;
  r.vprev = r.v, r.v = r.w, r.w = t;
  *alpha = a, *beta_next = b;
  PetscFunctionReturn(0);
}

PetscErrorCode Residual(Recurrence &r, Vec x, double value, double *res) {
  PetscReal nrm;
  PetscFunctionBeginUser;
  PetscCall(Apply(r, x, r.w));
  PetscCall(VecAXPY(r.w, -value, x));
  PetscCall(VecNorm(r.w, NORM_2, &nrm));
  ++r.cnt.reductions;
  *res = nrm;
  PetscFunctionReturn(0);
}

PetscErrorCode KramersPartner(Vec x, Vec y, PetscInt kb) {
  const PetscScalar *px;
  PetscScalar *py;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &px));
  PetscCall(VecGetArray(y, &py));
  const PetscInt half = kb / 2;
  for (PetscInt a = 0; a < n; a += kb)
    for (PetscInt o = 0; o < half; ++o) {
      py[a + o] = -PetscConj(px[a + half + o]);
      py[a + half + o] = PetscConj(px[a + o]);
    }
  PetscCall(VecRestoreArray(y, &py));
  PetscCall(VecRestoreArrayRead(x, &px));
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos
