#include "operator/block/BlockProducts.hpp"

#include <algorithm>
#include <cmath>

#include "operator/FusedLanczosProduct.hpp"
#include "operator/OperatorProperties.hpp"
#include "operator/block/BlockKernels.hpp"
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace tbpeta::block {

namespace {

// Real flops of the blocks as applied (a multiply-add counts 2); PetscLogFlops counts in units of the scalar's
// operations (4 real flops per complex one in this build).
PetscErrorCode LogProductFlops(const BlockOperator &op) {
  const double per_bond = 2.0 * 2 * op.norb * op.norb * op.spins;
  return PetscLogFlops(per_bond * 4 * (double)op.owned / PETSC_FLOPS_PER_OP);
}

// The sweep of a product over the owned atoms: the interior ones while the halo of x arrives, then the boundary ones,
// in a fixed order whatever the ranks (the fused and the lazy products' sums depend on it). atom(i, xg) computes atom
// i (xg: the halo part of x, null for interior atoms); pair(i) computes interior atoms i and i + 1 where op.pairs(i)
// (the same terms); ahead(q) runs before the q-th interior atom. The caller holds the arrays; x is this rank's entries
// of x.
template <class Atom, class Pair, class Ahead>
PetscErrorCode SweepAtoms(const BlockOperator &op, const PetscScalar *x, Atom &&atom, Pair &&pair, Ahead &&ahead) {
  PetscScalar *ghost = op.ghost;
  PetscFunctionBeginUser;
  if (op.halo_sf) PetscCall(PetscSFBcastBegin(op.halo_sf, op.unit, x, ghost, MPI_REPLACE));
  size_t q = 0;
  for (const auto &[first, end] : op.interior)
    for (PetscInt i = first; i < end;) {
      ahead(q);
      if (i + 1 < end && op.pairs(i)) {
        ahead(q + 1);
        pair(i);
        i += 2;
        q += 2;
        continue;
      }
      atom(i, nullptr);
      ++i;
      ++q;
    }
  if (op.halo_sf) PetscCall(PetscSFBcastEnd(op.halo_sf, op.unit, x, ghost, MPI_REPLACE));
  const double *xg = reinterpret_cast<const double *>(ghost);
  for (PetscInt i : op.boundary) atom(i, xg);
  PetscCall(LogProductFlops(op));
  PetscFunctionReturn(0);
}

// y = H x, through SweepAtoms; finish(i, xl, yd) runs after each atom's rows are in y.
template <class Finish>
PetscErrorCode SweepProduct(const BlockOperator &op, Vec x, Vec y, Finish &&finish) {
  const PetscScalar *xa;
  PetscScalar *ya;
  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayWrite(y, &ya));
  const double *xl = reinterpret_cast<const double *>(xa);
  double *yd = reinterpret_cast<double *>(ya);
  const size_t n = 2 * (size_t)op.bs;
  PetscCall(SweepAtoms(
      op, xa,
      [&](PetscInt i, const double *xg) {
        op.apply(op, i, xl, xg, yd + n * i);
        finish(i, xl, yd);
      },
      [&](PetscInt i) {
        op.apply_pair(op, i, xl, yd + n * i, yd + n * (i + 1));
        finish(i, xl, yd);
        finish(i + 1, xl, yd);
      },
      [](size_t) {}));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArrayWrite(y, &ya));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode MultBlockOperator(Mat H, Vec x, Vec y) {
  BlockOperator *op;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(H, &op));
  PetscCall(SweepProduct(*op, x, y, [](PetscInt, const double *, double *) {}));
  PetscFunctionReturn(0);
}

namespace {

// One four-lane chunk of FuseAtom at entry k, into the partial sums a[q][lane].
inline void FuseChunk(int k, const double *xi, const double *pi, double b, double c, const double *hi, double *yi,
                      double (*a)[4]) {
  alignas(32) double yk[4];
  for (int l = 0; l < 4; ++l)
    yk[l] = pi ? std::fma(-b, pi[k + l], std::fma(-c, xi[k + l], hi[k + l])) : std::fma(-c, xi[k + l], hi[k + l]);
  for (int l = 0; l < 4; ++l) {
    yi[k + l] = yk[l];
    a[0][l] = std::fma(xi[k + l], yk[l], a[0][l]), a[1][l] = std::fma(yk[l], yk[l], a[1][l]),
    a[2][l] = std::fma(xi[k + l], xi[k + l], a[2][l]);
  }
}

#if defined(__AVX2__) && defined(__FMA__)
// FuseChunk in vector registers: the same fused multiply-adds on the same lanes, so the same bits.
inline void FuseChunk(int k, const double *xi, const double *pi, __m256d mb, __m256d mc, const double *hi, double *yi,
                      __m256d &xy, __m256d &yy, __m256d &xx) {
  const __m256d x = _mm256_loadu_pd(xi + k);
  __m256d y = _mm256_fmadd_pd(mc, x, _mm256_loadu_pd(hi + k));
  if (pi) y = _mm256_fmadd_pd(mb, _mm256_loadu_pd(pi + k), y);
  _mm256_storeu_pd(yi + k, y);
  xy = _mm256_fmadd_pd(x, y, xy), yy = _mm256_fmadd_pd(y, y, yy), xx = _mm256_fmadd_pd(x, x, xx);
}
#endif

// The partial sums of the fused Lanczos step over one sweep: for each of Re x^H y, y^H y and x^H x, two sets of four
// lanes (re, im, re, im) taken in turn (shorter chains of dependent multiply-adds). They are added up once, at the end
// of the sweep, in a fixed order: adding them per atom cost a fifth of the product (perf: zeroing and horizontal sums).
struct FuseSums {
#if defined(__AVX2__) && defined(__FMA__)
  __m256d v[2][3];
  FuseSums() {
    for (auto &set : v)
      for (__m256d &x : set) x = _mm256_setzero_pd();
  }
  double (*lanes(int set))[4] { return reinterpret_cast<double(*)[4]>(v[set]); }
#else
  double a[2][3][4] = {};
  double (*lanes(int set))[4] { return a[set]; }
#endif
  void AddTo(double sums[3]) {
    for (int q = 0; q < 3; ++q) {
      const double *a0 = lanes(0)[q], *a1 = lanes(1)[q];
      sums[q] += ((a0[0] + a0[1]) + (a0[2] + a0[3])) + ((a1[0] + a1[1]) + (a1[2] + a1[3]));
    }
  }
};

// The fused Lanczos step's part of atom i (FusedLanczosProduct.hpp): yi = hi - c xi - b pi (hi: (H x)_i, may be yi),
// and its terms of the sums, into acc. pi may be yi (each entry is read before it is written). Every multiply-add is
// an explicit fused one, in vector registers where the target has them (the compiler leaves std::fma scalar, which
// cost as much as the product's own arithmetic), so that the fused and the lazy sweep, which inline this in different
// code, round alike.
inline void FuseAtom(int bs, const double *xi, const double *pi, double b, double c, const double *hi, double *yi,
                     FuseSums &acc) {
  const int n = 2 * bs;
  int k = 0;
#if defined(__AVX2__) && defined(__FMA__)
  const __m256d mb = _mm256_set1_pd(-b), mc = _mm256_set1_pd(-c);
  // named registers, not arrays: an array of them was spilled and copied back in wider moves that stalled
  __m256d xy0 = acc.v[0][0], yy0 = acc.v[0][1], xx0 = acc.v[0][2], xy1 = acc.v[1][0], yy1 = acc.v[1][1],
          xx1 = acc.v[1][2];
  for (; k + 8 <= n; k += 8)
    FuseChunk(k, xi, pi, mb, mc, hi, yi, xy0, yy0, xx0), FuseChunk(k + 4, xi, pi, mb, mc, hi, yi, xy1, yy1, xx1);
  if (k + 4 <= n) FuseChunk(k, xi, pi, mb, mc, hi, yi, xy0, yy0, xx0), k += 4;
  acc.v[0][0] = xy0, acc.v[0][1] = yy0, acc.v[0][2] = xx0, acc.v[1][0] = xy1, acc.v[1][1] = yy1, acc.v[1][2] = xx1;
#endif
  for (; k + 4 <= n; k += 4) FuseChunk(k, xi, pi, b, c, hi, yi, acc.lanes((k / 4) & 1));
  for (; k < n; ++k) { // one complex entry left (an odd block size)
    const double yk = pi ? std::fma(-b, pi[k], std::fma(-c, xi[k], hi[k])) : std::fma(-c, xi[k], hi[k]);
    yi[k] = yk;
    double *a = &acc.lanes(0)[0][k % 4];
    a[0] = std::fma(xi[k], yk, a[0]), a[4] = std::fma(yk, yk, a[4]), a[8] = std::fma(xi[k], xi[k], a[8]);
  }
}

} // namespace

// The product fused with the first vector pass of a Lanczos step: as MultBlockOperator, each atom finished as soon
// as its row is computed (interior atoms, then boundary atoms: a fixed order).
PetscErrorCode FusedMultBlockOperator(Mat H, Vec x, Vec p, double b, double c, Vec y, double sums[3]) {
  BlockOperator *op;
  const PetscScalar *pa = nullptr;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(H, &op));
  if (p) PetscCall(VecGetArrayRead(p, &pa));
  const double *pl = reinterpret_cast<const double *>(pa);
  const size_t n = 2 * (size_t)op->bs;
  FuseSums acc;
  PetscCall(SweepProduct(*op, x, y, [&](PetscInt i, const double *xl, double *yd) {
    FuseAtom(op->bs, xl + n * i, pl ? pl + n * i : nullptr, b, c, yd + n * i, yd + n * i, acc);
  }));
  acc.AddTo(sums);
  if (p) PetscCall(VecRestoreArrayRead(p, &pa));
  PetscCall(OperatorAddProducts(H, 1));
  PetscFunctionReturn(0);
}

namespace {

// The interior atoms one after the other, in the order of the sweep.
class InteriorAtoms {
public:
  explicit InteriorAtoms(const std::vector<std::array<PetscInt, 2>> &runs)
      : runs_(runs), i_(runs.empty() ? 0 : runs[0][0]) {}
  PetscInt operator()() {
    while (i_ == runs_[r_][1]) i_ = runs_[++r_][0];
    return i_++;
  }

private:
  const std::vector<std::array<PetscInt, 2>> &runs_;
  size_t r_ = 0;
  PetscInt i_;
};

} // namespace

// The lazy product (FusedLanczosProduct.hpp): the boundary atoms' x is formed first, as the halo sends it; then the
// sweep of the fused product (SweepAtoms), with the forming of the interior atoms' x running op->lead atoms ahead of
// it, so that every neighbour the product reads is formed and the forming streams through w and v once, in order.
// The halo exchange reads w while interior entries of w are written: it sends boundary entries only, formed before it
// starts.
PetscErrorCode LazyMultBlockOperator(Mat H, Vec v, Vec w, double a, double s, double b, double c, Vec y,
                                     double sums[3]) {
  BlockOperator *op;
  PetscScalar *wa, *ya;
  const PetscScalar *va;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(H, &op));
  PetscCall(VecGetArray(w, &wa));
  if (y == v) {
    PetscCall(VecGetArray(y, &ya));
    va = ya;
  } else {
    PetscCall(VecGetArrayRead(v, &va));
    PetscCall(VecGetArrayWrite(y, &ya));
  }
  const double *vd = reinterpret_cast<const double *>(va);
  double *wd = reinterpret_cast<double *>(wa), *yd = reinterpret_cast<double *>(ya);
  const int nb = 2 * op->bs;
  const size_t n = (size_t)nb;
  const auto form = [&](PetscInt i) { LanczosNextEntries(nb, wd + n * i, vd + n * i, a, s); }; // x_i in place in w
  for (PetscInt i : op->boundary) form(i);
  InteriorAtoms next(op->interior);
  size_t formed = 0;
  alignas(64) double hx[4 * kFullOrbitals], hx1[4 * kFullOrbitals]; // (H x)_i: up to 2 spins x 10 orbitals, complex
  FuseSums acc;
  PetscCall(SweepAtoms(
      *op, wa,
      [&](PetscInt i, const double *xg) {
        op->apply(*op, i, wd, xg, hx);
        FuseAtom(op->bs, wd + n * i, vd + n * i, b, c, hx, yd + n * i, acc);
      },
      [&](PetscInt i) {
        op->apply_pair(*op, i, wd, hx, hx1);
        FuseAtom(op->bs, wd + n * i, vd + n * i, b, c, hx, yd + n * i, acc);
        FuseAtom(op->bs, wd + n * (i + 1), vd + n * (i + 1), b, c, hx1, yd + n * (i + 1), acc);
      },
      [&](size_t q) {
        for (const size_t need = std::min(op->interior_atoms, q + op->lead + 1); formed < need; ++formed) form(next());
      }));
  acc.AddTo(sums);
  if (y == v) PetscCall(VecRestoreArray(y, &ya));
  else {
    PetscCall(VecRestoreArrayRead(v, &va));
    PetscCall(VecRestoreArrayWrite(y, &ya));
  }
  PetscCall(VecRestoreArray(w, &wa));
  PetscCall(OperatorAddProducts(H, 1));
  PetscFunctionReturn(0);
}

PetscErrorCode NormBlockOperator(Mat H, NormType type, PetscReal *norm) {
  BlockOperator *op;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(H, &op));
  const MPI_Comm comm = PetscObjectComm((PetscObject)H);
  PetscCheck(type == NORM_1 || type == NORM_INFINITY || type == NORM_FROBENIUS, comm, PETSC_ERR_SUP,
             "norm type %d of the block Hamiltonian", (int)type);
  if (!op->norms_global) { // MatNorm is collective: every rank is here
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &op->norm_inf, 1, MPI_DOUBLE, MPI_MAX, comm));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &op->fro2, 1, MPI_DOUBLE, MPI_SUM, comm));
    op->norms_global = true;
  }
  *norm = type == NORM_FROBENIUS ? std::sqrt(op->fro2) : op->norm_inf; // Hermitian: the 1-norm is the infinity-norm
  PetscFunctionReturn(0);
}

} // namespace tbpeta::block
