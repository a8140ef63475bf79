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
  H = A;
  centre = shift;
  PetscCall(OperatorGetProperties(A, &numbering));
  PetscCall(MatGetFusedLanczosProduct(A, &fused));
  PetscCall(MatGetLazyLanczosProduct(A, &lazy));
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
  PetscCall(CloseWindow());
  PetscFunctionReturn(0);
}

PetscErrorCode Recurrence::OpenWindow(PetscInt n) {
  PetscFunctionBeginUser;
  PetscCall(CloseWindow());
  spare.assign((size_t)n, nullptr);
  for (Vec &x : spare) PetscCall(VecDuplicate(v, &x));
  PetscFunctionReturn(0);
}

void Recurrence::ReleaseKept() {
  spare.insert(spare.end(), kept.begin(), kept.end());
  kept.clear();
}

PetscErrorCode Recurrence::CloseWindow() {
  PetscFunctionBeginUser;
  ReleaseKept();
  for (Vec &x : spare) PetscCall(VecDestroy(&x));
  spare.clear();
  keep_from = PETSC_MAX_INT;
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
  ForEachCanonicalRow(r.numbering, n, rstart, [&](PetscInt i, PetscInt canonical_row) {
    const std::uint64_t row = (std::uint64_t)canonical_row;
    const std::uint64_t h1 = MixBits(MixBits(seed) ^ (row * 0x100000001B3ULL + 0x51ED27ULL)), h2 = MixBits(h1);
    const double re = UnitInterval(h1) * 2 - 1, im = UnitInterval(h2) * 2 - 1;
    x[i] = PetscScalar(re, im);
    local += re * re + im * im;
  });
  PetscCallMPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, r.comm));
  ++r.cnt.reductions;
  const double s = 1 / std::sqrt(global);
  for (PetscInt i = 0; i < n; ++i) x[i] *= s;
  PetscCall(VecRestoreArray(r.v, &x));
  r.pending = false;
  r.newest = 0;
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

// Stops every rank together when any received SIGINT/SIGTERM (global[3]); stops at the product that made a NaN or Inf.
PetscErrorCode CheckStep(Recurrence &r, const double *global) {
  PetscFunctionBeginUser;
  if (global[3] != 0) {
    char what[96];
    std::snprintf(what, sizeof what, "the Lanczos recurrence (product %lld of H)", (long long)r.cnt.products);
    PetscCall(CheckInterrupted(r.comm, what));
  }
  PetscCheck(std::isfinite(global[0]) && std::isfinite(global[1]) && std::isfinite(global[2]), r.comm, PETSC_ERR_FP,
             "Lanczos: product %lld of H gave a NaN or Inf (v^H H v = %g, ||H v||^2 = %g, ||v||^2 = %g): H or the "
             "start vector holds a non-finite entry",
             (long long)r.cnt.products, global[0], global[1], global[2]);
  PetscFunctionReturn(0);
}

} // namespace

// The ||v||^2 term of beta^2 matters: v is normalised only to rounding, and with the shorter ||w||^2 - alpha^2 (which
// assumes ||v|| = 1) that error is amplified by (alpha/beta)^2 at every step, so on a spectrum not centred on 0
// (passivated structures, folded operators) the vectors' norms drift away from 1 and T stops describing H (values
// wander in the gaps and never converge).
namespace {

// The storage of a step's new w when v_{j-1} (r.vprev) is no longer needed by the recurrence: r.vprev's own, or a
// spare while the window keeps r.vprev (v_{j-1} is v_keep_from or newer).
PetscErrorCode TakeStorage(Recurrence &r, Vec *y) {
  PetscFunctionBeginUser;
  if (r.newest - 1 < r.keep_from) {
    *y = r.vprev;
    PetscFunctionReturn(0);
  }
  PetscCheck(!r.spare.empty(), r.comm, PETSC_ERR_PLIB, "Lanczos: no spare vector left to keep v_{j-1}");
  r.kept.push_back(r.vprev);
  *y = r.spare.back();
  r.spare.pop_back();
  PetscFunctionReturn(0);
}

// w = (H - centre) v - beta_j v_{j-1} and the local sums, by the operator's fused product or by the product and one
// pass; local[0..2] = Re v^H w, w^H w, v^H v.
PetscErrorCode ProductAndSums(Recurrence &r, double beta_j, double *local) {
  PetscFunctionBeginUser;
  if (r.pending) { // v_j formed in the sweep, in place in r.w; the new w over v_{j-1} or, kept, into r.vprev's storage
    Vec y = r.v;
    if (r.keep_previous) PetscCall(TakeStorage(r, &y));
    PetscCall(r.lazy(r.H, r.v, r.w, r.pending_alpha, r.pending_scale, beta_j, r.centre, y, local));
    ++r.cnt.products;
    if (r.keep_previous) r.vprev = r.v;
    r.v = r.w;
    r.w = y;
    r.pending = false;
    ++r.newest;
    PetscFunctionReturn(0);
  }
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
    const double vr = PetscRealPart(pv[i]), vi = PetscImaginaryPart(pv[i]), wr = PetscRealPart(pw[i]),
                 wi = PetscImaginaryPart(pw[i]);
    local[0] += vr * wr + vi * wi; // Re conj(v) w
    local[1] += wr * wr + wi * wi;
    local[2] += vr * vr + vi * vi;
  }
  if (pp) PetscCall(VecRestoreArrayRead(r.vprev, &pp));
  PetscCall(VecRestoreArray(r.w, &pw));
  PetscCall(VecRestoreArrayRead(r.v, &pv));
  PetscFunctionReturn(0);
}

// f(v, w, m) on the local entries of r.v (read) and r.w (read and written) as m real numbers each.
template <class F>
PetscErrorCode OnVAndW(Recurrence &r, F &&f) {
  PetscInt n;
  const PetscScalar *pv;
  PetscScalar *pw;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(r.v, &n));
  PetscCall(VecGetArrayRead(r.v, &pv));
  PetscCall(VecGetArray(r.w, &pw));
  f(reinterpret_cast<const double *>(pv), reinterpret_cast<double *>(pw), 2 * n);
  PetscCall(VecRestoreArray(r.w, &pw));
  PetscCall(VecRestoreArrayRead(r.v, &pv));
  PetscFunctionReturn(0);
}

// w -= a v, then b from a second reduction of ||w||^2: the sums' b^2 = ||w||^2 - 2 a^2 + a^2 ||v||^2 lost its
// accuracy to cancellation (or came out negative).
PetscErrorCode OrthogonaliseWithNorm(Recurrence &r, double a, double *b) {
  double l = 0, g = 0;
  PetscFunctionBeginUser;
  PetscCall(OnVAndW(r, [&](const double *v, double *w, PetscInt m) {
    for (PetscInt i = 0; i < m; ++i) {
      w[i] -= a * v[i];
      l += w[i] * w[i];
    }
  }));
  PetscCallMPI(MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, r.comm));
  ++r.cnt.reductions;
  ++r.cnt.recomputed;
  *b = std::sqrt(g);
  PetscFunctionReturn(0);
}

// w = (w - a v) s in one pass (LanczosNextEntry: the bits of the lazy product's forming), then the vectors move on:
// r.vprev = v_j, r.v = v_{j+1}.
PetscErrorCode FormNext(Recurrence &r, double a, double s) {
  PetscFunctionBeginUser;
  PetscCall(OnVAndW(r, [&](const double *v, double *w, PetscInt m) { LanczosNextEntries(m, w, v, a, s); }));
  Vec t;
  PetscCall(TakeStorage(r, &t));
  r.vprev = r.v;
  r.v = r.w;
  r.w = t;
  ++r.newest;
  PetscFunctionReturn(0);
}

// The step's end: b from the sums, or recomputed; then v_{j+1} formed now (plain and fused paths) or left pending.
PetscErrorCode Finish(Recurrence &r, double a, double b2, double w2, double *b) {
  PetscFunctionBeginUser;
  double form_alpha = a;
  if (b2 > 0.01 * w2) *b = std::sqrt(b2);
  else { // cancellation: w -= a v now, so that what is left to form is w / b
    PetscCall(OrthogonaliseWithNorm(r, a, b));
    form_alpha = 0;
  }
  const double s = *b > 0 ? 1 / *b : 1;
  if (r.lazy) {
    r.pending = true;
    r.pending_alpha = form_alpha;
    r.pending_scale = s;
    PetscFunctionReturn(0);
  }
  PetscCall(FormNext(r, form_alpha, s));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode Step(Recurrence &r, double beta_j, double *alpha, double *beta_next) {
  const LogEvents *ev;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  // The fourth sum carries SIGINT/SIGTERM (InterruptSignal), so every rank stops at the same step at no extra cost.
  double local[4] = {0, 0, 0, (double)InterruptSignal()}, global[4];
  PetscCall(PetscLogEventBegin(ev->lanczos_product, 0, 0, 0, 0));
  PetscCall(ProductAndSums(r, beta_j, local));
  PetscCall(PetscLogEventEnd(ev->lanczos_product, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(ev->lanczos_vectors, 0, 0, 0, 0));
  PetscCallMPI(MPI_Allreduce(local, global, 4, MPI_DOUBLE, MPI_SUM, r.comm));
  ++r.cnt.reductions;
  PetscCall(CheckStep(r, global));
  const double a = global[0];
  double b = 0;
  PetscCall(Finish(r, a, global[1] - 2 * a * a + a * a * global[2], global[1], &b));
  PetscCall(PetscLogEventEnd(ev->lanczos_vectors, 0, 0, 0, 0));
  *alpha = a;
  *beta_next = b;
  PetscFunctionReturn(0);
}

PetscErrorCode Materialise(Recurrence &r) {
  const LogEvents *ev;
  PetscFunctionBeginUser;
  if (!r.pending) PetscFunctionReturn(0);
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->lanczos_vectors, 0, 0, 0, 0));
  PetscCall(FormNext(r, r.pending_alpha, r.pending_scale));
  r.pending = false;
  PetscCall(PetscLogEventEnd(ev->lanczos_vectors, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode Residual(Recurrence &r, Vec x, double value, double *res) {
  PetscReal nrm;
  PetscFunctionBeginUser;
  r.pending = false;
  PetscCall(Apply(r, x, r.w));
  PetscCall(VecAXPY(r.w, -value, x));
  PetscCall(VecNorm(r.w, NORM_2, &nrm));
  ++r.cnt.reductions;
  *res = nrm;
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos
