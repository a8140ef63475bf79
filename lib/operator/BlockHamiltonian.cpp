#include "operator/BlockHamiltonian.hpp"

#include <petscsf.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "operator/HamiltonianBlocks.hpp"
#include "operator/FusedLanczosProduct.hpp"
#include "operator/OperatorKind.hpp"
#include "operator/OperatorProperties.hpp"
#include "operator/StrainedBondKernel.hpp"
#include "support/LargeArrays.hpp"
#include "support/Progress.hpp"

namespace tbpeta {

const char *BlockSourceName(BlockSource source) {
  switch (source) {
  case BlockSource::per_bond: return "stored_blocks";
  case BlockSource::shared: return "shell";
  default: return "shell (no block cache)";
  }
}

namespace {

using Complex = std::complex<double>;

// The on-site terms of one distinct atom configuration (material, neighbours' materials, dangling bonds).
struct OnSite {
  std::array<double, kFullOrbitals> diag{}; // per orbital of the basis, both spins
  bool passivated = false;
  PassivationBlock passivation{};
  bool spin_orbit = false;
  SpinOrbitBlock so{};
};

// What a product needs of one owned atom besides its neighbours: its on-site terms, and per bond its block and Bloch
// phase. Atoms of one configuration share one entry.
struct AtomTerms {
  std::array<std::int32_t, 4> block{-1, -1, -1, -1}; // in `blocks` (per_bond, shared) or the key to recompute; a
                                                     // strained bond evaluated in the product finds its key itself
  std::array<std::uint8_t, 4> phase{};               // in `phases` (0: exactly 1)
  std::int32_t onsite = 0;                           // in `onsites`
  bool operator==(const AtomTerms &) const = default;
};
struct AtomTermsHash {
  size_t operator()(const AtomTerms &t) const {
    size_t h = (size_t)t.onsite * 0x9E3779B97F4A7C15ULL;
    for (int b = 0; b < 4; ++b) h = (h ^ ((size_t)(std::uint32_t)t.block[b] << 8 | t.phase[b])) * 0xC2B2AE3D27D4EB4FULL;
    return h;
  }
};

// Everything a product needs: its own tables, and the structure's bonds, shared; nothing else of the Structure is kept.
struct BlockOperator {
  BlockSource source = BlockSource::shared;
  TightBindingModel model; // for the recomputed blocks
  int bs = 0, norb = 0, spins = 1;
  void (*apply)(const BlockOperator &, PetscInt, const double *, const double *, double *) = nullptr; // the atom kernel for norb, spins
  PetscInt owned = 0, halo = 0;
  // Per owned atom and bond: the neighbour's site (owned, or owned + halo index), -1 dangling; the structure's bonds,
  // shared rather than copied.
  std::shared_ptr<const LargeVector<std::array<int, 4>>> bonds;
  const std::array<int, 4> *nbr = nullptr;
  LargeVector<AtomTerms> terms;                   // the distinct atoms' terms; per_bond (a block per bond): each owned atom's
  LargeVector<std::int32_t> terms_of;             // per owned atom: its entry in `terms`; empty when they are per atom
  // The owned atoms without a halo neighbour, as runs [first, end) of consecutive atoms (a single run on one rank or in
  // a slab; a box split along y or z has a run per x plane or line), and those with one.
  std::vector<std::array<PetscInt, 2>> interior;
  std::size_t interior_atoms = 0;
  LargeVector<PetscInt> boundary;
  std::size_t lead = 0; // how far in the interior atoms an atom's interior neighbours reach ahead of it, at most: the
                        // largest j - i over bonds i -> j between owned atoms (positions in the interior skip the boundary)
  std::vector<double> blocks;                     // norb x norb real blocks, row-major
  std::vector<Complex> phases{Complex(1)};
  std::vector<OnSite> onsites;
  // A strained H: every atom's own diagonal (norb per owned atom; the onsites then hold only spin-orbit and
  // passivation), and for the blocks recomputed in the product (shared, recomputed) what defines each bond: the
  // displacements and cation materials of owned and halo atoms, the row atoms' sublattices, the plane spacing.
  bool strained = false;
  LargeVector<double> diag;
  LargeVector<std::array<double, 3>> u;
  LargeVector<std::uint8_t> material, anion;
  double q = 0;
  std::array<std::array<double, 3>, 4> ideal{}; // the anion->cation ideal bonds, under the box's homogeneous strain
  bool box_strained = false;
  std::vector<RowIntegrals> rows; // per material: from the anion's rows, from the cation's
  // The halo: each halo atom's bs entries of x, gathered from its owner by a star forest whose unit is one atom's bs
  // scalars (each owner's rank and atom from the halo atom's global index and the structure's rank offsets: no index
  // analysis).
  PetscSF halo_sf = nullptr;
  MPI_Datatype unit = MPI_DATATYPE_NULL;
  PetscScalar *ghost = nullptr; // the halo's entries, written by every product (never read before)
  // H's infinity and Frobenius norms: this rank's (the largest row sum, the sum of squares) until the first MatNorm
  // sums them over the ranks, so that a build whose norms nobody asks for makes no reduction for them.
  double norm_inf = 0, fro2 = 0;
  bool norms_global = false;
  double bytes = 0; // this rank's operator memory

  const AtomTerms &termsOf(PetscInt i) const { return terms[terms_of.empty() ? i : terms_of[i]]; }
};

PetscErrorCode DestroyBlockOperator(Mat H) {
  BlockOperator *op;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(H, &op));
  PetscCall(PetscSFDestroy(&op->halo_sf));
  PetscCall(PetscFree(op->ghost));
  if (op->unit != MPI_DATATYPE_NULL) PetscCallMPI(MPI_Type_free(&op->unit));
  delete op;
  PetscFunctionReturn(0);
}

// Two rows' (re, im), and one row's: GCC/Clang vector types, lowered to whatever the target has (AVX2 here).
using Pair4 = double __attribute__((vector_size(32)));
using Pair2 = double __attribute__((vector_size(16)));

// acc[s][r] += sum_c B[r][c] x_s[c] for the S spin components of x (each N complex numbers as (re, im) pairs).
// Bt is B column by column (StoreByColumns): for each c, the rows come in pairs (B[r][c], B[r][c], B[r+1][c],
// B[r+1][c]), each multiplied by (x re, x im, x re, x im) into an accumulator of its own (no chain of dependent
// additions), and one pair of B serves both spins. Measured on the 10^6-atom dot (bench_operators, 1 rank): the
// product about 1.5x faster than the row-by-row loop, whose rows were chains of N dependent additions.
template <int N, int S>
inline void AddBlockProduct(const double *Bt, const double *x, double (*acc)[N][2]) {
  constexpr int P = N / 2; // row pairs; an odd N's last row apart
  Pair4 a[S][P];
  Pair2 last[S];
  for (int sp = 0; sp < S; ++sp) {
    std::memcpy(a[sp], acc[sp], sizeof a[sp]);
    if constexpr (N % 2) std::memcpy(&last[sp], acc[sp][N - 1], sizeof last[sp]);
  }
  for (int c = 0; c < N; ++c) {
    const double *Bc = Bt + c * N;
    Pair2 xc[S];
    Pair4 xx[S];
    for (int sp = 0; sp < S; ++sp) {
      std::memcpy(&xc[sp], x + 2 * (sp * N + c), sizeof xc[sp]);
      xx[sp] = __builtin_shufflevector(xc[sp], xc[sp], 0, 1, 0, 1);
    }
    for (int k = 0; k < P; ++k) {
      Pair2 b;
      std::memcpy(&b, Bc + 2 * k, sizeof b);
      const Pair4 bb = __builtin_shufflevector(b, b, 0, 0, 1, 1);
      for (int sp = 0; sp < S; ++sp) a[sp][k] += bb * xx[sp];
    }
    if constexpr (N % 2) {
      const Pair2 bl = {Bc[N - 1], Bc[N - 1]};
      for (int sp = 0; sp < S; ++sp) last[sp] += bl * xc[sp];
    }
  }
  for (int sp = 0; sp < S; ++sp) {
    std::memcpy(acc[sp], a[sp], sizeof a[sp]);
    if constexpr (N % 2) std::memcpy(acc[sp][N - 1], &last[sp], sizeof last[sp]);
  }
}

// An n x n row-major block, in place, column by column (the layout AddBlockProduct reads).
inline void StoreByColumns(int n, double *B) {
  for (int r = 0; r < n; ++r)
    for (int c = r + 1; c < n; ++c) std::swap(B[r * n + c], B[c * n + r]);
}

// acc += phase t.
template <int N, int S>
inline void AddPhased(Complex phase, const double (*t)[N][2], double (*acc)[N][2]) {
  const double pr = phase.real(), pi = phase.imag();
  for (int sp = 0; sp < S; ++sp)
    for (int r = 0; r < N; ++r) {
      acc[sp][r][0] += pr * t[sp][r][0] - pi * t[sp][r][1];
      acc[sp][r][1] += pr * t[sp][r][1] + pi * t[sp][r][0];
    }
}

// The anion->cation vector of bond b of owned atom i (a strained H on the fly), and whether it is the ideal bond
// of its binary (no displacement difference, the binary's own length): ideal bonds use the table's blocks.
inline bool StrainedBondVector(const BlockOperator &op, PetscInt i, int b, PetscInt j, double r[3]) {
  const bool anion = op.anion[i];
  const PetscInt an = anion ? i : j, ca = anion ? j : i;
  const auto &ua = op.u[an], &uc = op.u[ca];
  const double du[3] = {uc[0] - ua[0], uc[1] - ua[1], uc[2] - ua[2]};
  for (int a = 0; a < 3; ++a) r[a] = op.ideal[b][a] + du[a];
  return !op.box_strained && du[0] == 0 && du[1] == 0 && du[2] == 0 && op.q == op.rows[2 * op.material[ca]].q0;
}

// The four bonds of owned atom i as its rows see them (from i to the neighbour), measured at once, and which of them
// are strained (the others, ideal or dangling, take the table's blocks or nothing).
inline void MeasureStrainedBonds(const BlockOperator &op, PetscInt i, BondGeometry *g, bool strained[4]) {
  const bool anion = op.anion[i];
  double r[4][3], d0sq[4];
  for (int b = 0; b < 4; ++b) {
    const std::int32_t j = op.nbr[i][b];
    double *rb = r[b];
    for (int a = 0; a < 3; ++a) rb[a] = op.ideal[b][a]; // a dangling bond's lane: any length but zero
    strained[b] = j >= 0 && !StrainedBondVector(op, i, b, j, rb);
    if (!anion) rb[0] = -rb[0], rb[1] = -rb[1], rb[2] = -rb[2]; // the cation's rows see the bond reversed
    d0sq[b] = op.rows[2 * op.material[anion && j >= 0 ? j : i]].d0sq;
  }
  MeasureBonds(BondLanes{r[0][0], r[1][0], r[2][0], r[3][0]}, BondLanes{r[0][1], r[1][1], r[2][1], r[3][1]}, BondLanes{r[0][2], r[1][2], r[2][2], r[3][2]},
               BondLanes{d0sq[0], d0sq[1], d0sq[2], d0sq[3]}, g);
}

// yi = (on-site) x_i + sum over bonds phase * B x_j for owned atom i (N orbitals, S spins); x of a neighbour from
// the owned part xl or the halo part xg. Each row's terms are summed in one fixed order, whatever the ranks.
template <int N, int S>
void ApplyAtom(const BlockOperator &op, PetscInt i, const double *xl, const double *xg, double *yi) {
  constexpr size_t n = 2 * N * S;
  alignas(32) double acc[S][N][2], t[S][N][2];
  const double *xi = xl + n * i;
  const AtomTerms &at = op.termsOf(i);
  const OnSite &o = op.onsites[at.onsite];
  const double *diag = op.strained ? op.diag.data() + (size_t)i * N : o.diag.data();
  for (int sp = 0; sp < S; ++sp)
    for (int r = 0; r < N; ++r) {
      acc[sp][r][0] = diag[r] * xi[2 * (sp * N + r)];
      acc[sp][r][1] = diag[r] * xi[2 * (sp * N + r) + 1];
    }
  if (o.passivated)
    for (int sp = 0; sp < S; ++sp)
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) {
          acc[sp][r][0] += o.passivation[r][c] * xi[2 * (sp * N + c)];
          acc[sp][r][1] += o.passivation[r][c] * xi[2 * (sp * N + c) + 1];
        }
  if (S == 2 && o.spin_orbit) // (x, y, z) up are orbitals 1..3 of spin 0, down of spin 1
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) {
        const Complex v = o.so[r][c];
        if (v == Complex(0)) continue;
        const double *xc = xi + 2 * ((c / 3) * N + 1 + c % 3);
        double *ar = acc[(r / 3) % S][1 + r % 3];
        ar[0] += v.real() * xc[0] - v.imag() * xc[1];
        ar[1] += v.real() * xc[1] + v.imag() * xc[0];
      }
  const bool fly = op.strained && op.source != BlockSource::per_bond;
  BondGeometry geometry;
  bool strained[4];
  if (fly) MeasureStrainedBonds(op, i, &geometry, strained);
  for (int b = 0; b < 4; ++b) {
    const std::int32_t j = op.nbr[i][b];
    if (j < 0) continue;
    const double *xj = j < op.owned ? xl + n * j : xg + n * (j - op.owned);
    const std::uint8_t ph = at.phase[b];
    int key = fly ? 0 : at.block[b];
    if (fly) {
      const bool anion = op.anion[i];
      const int m = op.material[anion ? j : i];
      if (strained[b]) { // evaluated here
        if (ph) std::memset(t, 0, sizeof t);
        AddStrainedBond<N, S>(op.rows[2 * m + (anion ? 0 : 1)], geometry, b, xj, ph ? t : acc);
        if (ph) AddPhased<N, S>(op.phases[ph], t, acc);
        continue;
      }
      key = m * 8 + b * 2 + (anion ? 0 : 1); // an ideal bond: the block of its key (HamiltonianBlocks::bondKey)
    }
    const double *B;
    alignas(32) double scratch[N * N];
    if (op.source == BlockSource::recomputed) {
      HamiltonianBlocks::RecomputeBondBlock(op.model, key, scratch, true);
      B = scratch;
    } else B = op.blocks.data() + (size_t)key * N * N;
    if (ph == 0) {
      AddBlockProduct<N, S>(B, xj, acc);
      continue;
    }
    std::memset(t, 0, sizeof t);
    AddBlockProduct<N, S>(B, xj, t);
    AddPhased<N, S>(op.phases[ph], t, acc);
  }
  std::memcpy(yi, acc, sizeof acc);
}

using AtomKernel = void (*)(const BlockOperator &, PetscInt, const double *, const double *, double *);

AtomKernel KernelFor(int norb, int spins) {
  if (norb == 10) return spins == 2 ? ApplyAtom<10, 2> : ApplyAtom<10, 1>;
  return spins == 2 ? ApplyAtom<5, 2> : ApplyAtom<5, 1>;
}

// Real flops of the blocks as applied (a multiply-add counts 2); PetscLogFlops counts in units of the scalar's
// operations (4 real flops per complex one in this build).
PetscErrorCode LogProductFlops(const BlockOperator &op) {
  const double per_bond = 2.0 * 2 * op.norb * op.norb * op.spins;
  return PetscLogFlops(per_bond * 4 * (double)op.owned / PETSC_FLOPS_PER_OP);
}

// The sweep of a product over the owned atoms: the interior ones while the halo of x arrives, then the boundary ones,
// in a fixed order whatever the ranks (the fused and the lazy products' sums depend on it). atom(i, xg) computes atom
// i (xg: the halo part of x, null for interior atoms); ahead(q) runs before the q-th interior atom. The caller holds
// the arrays; x is this rank's entries of x.
template <class Atom, class Ahead>
PetscErrorCode SweepAtoms(const BlockOperator &op, const PetscScalar *x, Atom &&atom, Ahead &&ahead) {
  PetscScalar *ghost = op.ghost;
  PetscFunctionBeginUser;
  if (op.halo_sf) PetscCall(PetscSFBcastBegin(op.halo_sf, op.unit, x, ghost, MPI_REPLACE));
  size_t q = 0;
  for (const auto &[first, end] : op.interior)
    for (PetscInt i = first; i < end; ++i, ++q) {
      ahead(q);
      atom(i, nullptr);
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
    [](size_t) {}));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArrayWrite(y, &ya));
  PetscFunctionReturn(0);
}

PetscErrorCode MultBlockOperator(Mat H, Vec x, Vec y) {
  BlockOperator *op;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(H, &op));
  PetscCall(SweepProduct(*op, x, y, [](PetscInt, const double *, double *) {}));
  PetscFunctionReturn(0);
}

// One four-lane chunk of FuseAtom at entry k, into the partial sums a[q][lane].
inline void FuseChunk(int k, const double *xi, const double *pi, double b, double c, const double *hi, double *yi, double (*a)[4]) {
  alignas(32) double yk[4];
  for (int l = 0; l < 4; ++l) yk[l] = pi ? std::fma(-b, pi[k + l], std::fma(-c, xi[k + l], hi[k + l])) : std::fma(-c, xi[k + l], hi[k + l]);
  for (int l = 0; l < 4; ++l) {
    yi[k + l] = yk[l];
    a[0][l] = std::fma(xi[k + l], yk[l], a[0][l]), a[1][l] = std::fma(yk[l], yk[l], a[1][l]), a[2][l] = std::fma(xi[k + l], xi[k + l], a[2][l]);
  }
}

#if defined(__AVX2__) && defined(__FMA__)
// FuseChunk in vector registers: the same fused multiply-adds on the same lanes, so the same bits.
inline void FuseChunk(int k, const double *xi, const double *pi, __m256d mb, __m256d mc, const double *hi, double *yi, __m256d &xy, __m256d &yy, __m256d &xx) {
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
  double (*lanes(int set))[4] { return reinterpret_cast<double (*)[4]>(v[set]); }
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
inline void FuseAtom(int bs, const double *xi, const double *pi, double b, double c, const double *hi, double *yi, FuseSums &acc) {
  const int n = 2 * bs;
  int k = 0;
#if defined(__AVX2__) && defined(__FMA__)
  const __m256d mb = _mm256_set1_pd(-b), mc = _mm256_set1_pd(-c);
  // named registers, not arrays: an array of them was spilled and copied back in wider moves that stalled
  __m256d xy0 = acc.v[0][0], yy0 = acc.v[0][1], xx0 = acc.v[0][2], xy1 = acc.v[1][0], yy1 = acc.v[1][1], xx1 = acc.v[1][2];
  for (; k + 8 <= n; k += 8) FuseChunk(k, xi, pi, mb, mc, hi, yi, xy0, yy0, xx0), FuseChunk(k + 4, xi, pi, mb, mc, hi, yi, xy1, yy1, xx1);
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

// The interior atoms one after the other, in the order of the sweep.
class InteriorAtoms {
public:
  explicit InteriorAtoms(const std::vector<std::array<PetscInt, 2>> &runs) : runs_(runs), i_(runs.empty() ? 0 : runs[0][0]) {}
  PetscInt operator()() {
    while (i_ == runs_[r_][1]) i_ = runs_[++r_][0];
    return i_++;
  }

private:
  const std::vector<std::array<PetscInt, 2>> &runs_;
  size_t r_ = 0;
  PetscInt i_;
};

// The lazy product (FusedLanczosProduct.hpp): the boundary atoms' x is formed first, as the halo sends it; then the
// sweep of the fused product (SweepAtoms), with the forming of the interior atoms' x running op->lead atoms ahead of
// it, so that every neighbour the product reads is formed and the forming streams through w and v once, in order.
// The halo exchange reads w while interior entries of w are written: it sends boundary entries only, formed before it
// starts.
PetscErrorCode LazyMultBlockOperator(Mat H, Vec v, Vec w, double a, double s, double b, double c, Vec y, double sums[3]) {
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
  alignas(64) double hx[4 * kFullOrbitals]; // (H x)_i: up to 2 spins x 10 orbitals, complex
  FuseSums acc;
  PetscCall(SweepAtoms(
    *op, wa,
    [&](PetscInt i, const double *xg) {
      op->apply(*op, i, wd, xg, hx);
      FuseAtom(op->bs, wd + n * i, vd + n * i, b, c, hx, yd + n * i, acc);
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
  PetscCheck(type == NORM_1 || type == NORM_INFINITY || type == NORM_FROBENIUS, comm, PETSC_ERR_SUP, "norm type %d of the block Hamiltonian", (int)type);
  if (!op->norms_global) { // MatNorm is collective: every rank is here
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &op->norm_inf, 1, MPI_DOUBLE, MPI_MAX, comm));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &op->fro2, 1, MPI_DOUBLE, MPI_SUM, comm));
    op->norms_global = true;
  }
  *norm = type == NORM_FROBENIUS ? std::sqrt(op->fro2) : op->norm_inf; // Hermitian: the 1-norm is the infinity-norm
  PetscFunctionReturn(0);
}

template <class T, class A>
double Capacity(const std::vector<T, A> &v) {
  return (double)v.capacity() * sizeof(T);
}

// Fills the operator's per-atom tables (neighbours, block and phase indices, on-site configurations, interior and
// boundary atoms) and the blocks of the chosen source, and sums H's infinity and Frobenius norms on the way (every
// bond of one key contributes the same row sums). An unstrained H with shared or recomputed blocks has few distinct
// atoms: their terms are computed once per configuration (AtomConfiguration) and copied, which makes the tables'
// build several times faster than evaluating every atom's on-site terms, blocks and norms.
class TableBuilder {
public:
  TableBuilder(const Structure &s, const HamiltonianBlocks &blocks, BlockOperator *op)
    : s_(s), blocks_(blocks), op_(op), key_slot_(blocks.bondKeys(), -1), B_((size_t)op->norb * op->norb), rowsum_(op->bs), onsite_blk_((size_t)op->bs * op->bs) {}

  void Atoms() {
    if (op_->source == BlockSource::per_bond) { // exactly one block per bond: no growth beyond it
      size_t bonds = 0;
      for (PetscInt i = 0; i < s_.owned; ++i)
        for (int b = 0; b < 4; ++b) bonds += s_.bonds[i][b] >= 0;
      op_->blocks.reserve(bonds * B_.size());
    }
    const bool shared_terms = !op_->strained && op_->source != BlockSource::per_bond;
    if (op_->source == BlockSource::per_bond) op_->terms.reserve(s_.owned); // every atom its own blocks
    else op_->terms_of.reserve(s_.owned);
    Progress progress("building H (" + std::string(BlockSourceName(op_->source)) + " blocks)");
    PetscInt lead = 0;
    for (PetscInt line = 0, n; line < s_.owned; line += n) { // line by line: one sublattice per line of atoms
      n = s_.lineLength(line);
      const bool anion = s_.sublattice(line) == Sublattice::anion;
      if (line % 4096 < n) (void)progress.Loop(line - line % 4096, s_.owned, "blocks of atom"); // prints on rank 0 only
      for (PetscInt i = line; i < line + n; ++i) {
        lead = std::max(lead, Bonds(i));
        // By reference: a copy on the stack was read back in wider loads than it was stored in, a store-forwarding
        // stall on every atom.
        if (shared_terms) Append(Configured(i, anion));
        else Append(Terms(i));
      }
    }
    op_->blocks.shrink_to_fit(), op_->onsites.shrink_to_fit(), op_->terms.shrink_to_fit(), op_->boundary.shrink_to_fit();
    op_->lead = (size_t)lead, op_->interior_atoms = (size_t)s_.owned - op_->boundary.size();
  }
  double norm_inf = 0, fro2 = 0; // this rank's

private:
  // What an atom contributes to the tables and the norms; entry: its terms' index in op->terms once stored.
  struct Contribution {
    AtomTerms terms;
    double row_max = 0, fro2 = 0;
    std::int32_t entry = -1;
  };
  // What decides an unstrained atom's terms: its sublattice and material, per bond the bonded cation's material (an
  // anion's on-site energies average them; the block's key) or a dangling bond, and the bond's wrap (its Bloch phase;
  // left out at k = 0, where every phase is 1).
  struct AtomConfiguration {
    std::uint64_t materials, wraps;
    bool operator==(const AtomConfiguration &o) const { return materials == o.materials && wraps == o.wraps; }
  };
  struct ConfigurationHash {
    size_t operator()(const AtomConfiguration &c) const { return (size_t)((c.materials * 0x9E3779B97F4A7C15ULL) ^ (c.wraps * 0xC2B2AE3D27D4EB4FULL)); }
  };

  void Append(const Contribution &c) {
    if (op_->source == BlockSource::per_bond) op_->terms.push_back(c.terms);
    else op_->terms_of.push_back(c.entry >= 0 ? c.entry : Entry(c.terms));
    norm_inf = std::max(norm_inf, c.row_max), fro2 += c.fro2;
  }

  // The index of `t` in op->terms (added when new).
  std::int32_t Entry(const AtomTerms &t) {
    if (!op_->terms.empty() && op_->terms[last_entry_] == t) return last_entry_;
    auto [it, added] = entries_.try_emplace(t, (std::int32_t)op_->terms.size());
    if (added) op_->terms.push_back(t);
    return last_entry_ = it->second;
  }

  bool HasHaloBond(PetscInt i) const {
    for (int j : s_.bonds[i])
      if (j >= s_.owned) return true;
    return false;
  }

  // Whether atom i is an interior or a boundary atom; returns how far ahead of it its owned neighbours lie (a local,
  // not op->lead: a running maximum kept in memory was a chain of stores and loads through every bond).
  PetscInt Bonds(PetscInt i) {
    const std::array<int, 4> &nb = s_.bonds[i];
    PetscInt ahead = 0;
    for (int j : nb)
      if (j < s_.owned) ahead = std::max<PetscInt>(ahead, j - i);
    if (HasHaloBond(i)) op_->boundary.push_back(i);
    else if (!op_->interior.empty() && op_->interior.back()[1] == i) ++op_->interior.back()[1];
    else op_->interior.push_back({i, i + 1});
    return ahead;
  }

  AtomConfiguration ConfigurationOf(PetscInt i, bool anion) const {
    std::uint64_t m = (std::uint64_t)anion | (std::uint64_t)s_.material[i] << 1, w = 0;
    for (int b = 0; b < 4; ++b) {
      const int j = s_.bonds[i][b];
      const std::uint64_t mb = j < 0 ? 0xff : (anion ? s_.material[j] : 0); // a cation's neighbours' materials play no part
      m |= mb << (9 + 8 * b);
    }
    if (!blocks_.noBlochPhases())
      w = s_.wraps[i]; // two bits per bond and axis
    return {m, w};
  }

  // The terms of atom i from its configuration's first atom. Atoms along a line mostly share the previous atom's
  // configuration, which is checked before the table.
  const Contribution &Configured(PetscInt i, bool anion) {
    const AtomConfiguration c = ConfigurationOf(i, anion);
    if (last_ && c == last_->first) return last_->second;
    auto it = configurations_.find(c);
    if (it == configurations_.end()) {
      Contribution t = Terms(i);
      t.entry = Entry(t.terms);
      it = configurations_.emplace(c, t).first;
    }
    last_ = &*it; // elements of an unordered_map stay where they are when it grows
    return it->second;
  }

  // The terms of atom i, evaluated.
  Contribution Terms(PetscInt i) {
    Contribution t;
    atom_fro2_ = 0;
    t.terms.onsite = OnsiteIndex(i);
    if (op_->strained) OnsiteNorms(i); // every atom its own diagonal
    else {
      for (int r = 0; r < op_->bs; ++r) rowsum_[r] = onsite_rowsum_[(size_t)t.terms.onsite * op_->bs + r];
      atom_fro2_ += onsite_fro_[t.terms.onsite];
    }
    for (int b = 0; b < 4; ++b)
      if (s_.bonds[i][b] >= 0) Bond(i, b, &t.terms.block[b], &t.terms.phase[b]);
    for (int r = 0; r < op_->bs; ++r) t.row_max = std::max(t.row_max, rowsum_[r]);
    t.fro2 = atom_fro2_;
    return t;
  }

  // The index of atom i's on-site configuration in op->onsites (a new one is added, with its norms).
  int OnsiteIndex(PetscInt i) {
    HamiltonianBlocks::OnSiteTerms t = blocks_.onsiteTerms(i);
    if (op_->strained) { // the atom's own diagonal; the configurations share the rest
      op_->diag.insert(op_->diag.end(), t.diag.begin(), t.diag.begin() + op_->norb);
      t.diag.fill(0);
    }
    const bool so = op_->spins == 2;
    for (size_t n = 0; n < op_->onsites.size(); ++n) {
      const OnSite &o = op_->onsites[n];
      if (o.diag == t.diag && o.passivated == t.passivated && o.passivation == t.passivation && o.spin_orbit == so && (!so || o.so == spinOrbitP(t.lambda))) return (int)n;
    }
    OnSite o;
    o.diag = t.diag, o.passivated = t.passivated, o.passivation = t.passivation, o.spin_orbit = so;
    if (so) o.so = spinOrbitP(t.lambda);
    op_->onsites.push_back(o);
    if (!op_->strained) { // the norms of the configuration, shared by its atoms
      OnsiteNorms(i);
      onsite_rowsum_.insert(onsite_rowsum_.end(), rowsum_.begin(), rowsum_.end());
      onsite_fro_.push_back(onsite_f_);
    }
    return (int)op_->onsites.size() - 1;
  }

  // Row sums of |on-site block| of atom i into rowsum_, its sum of squares onto fro2 (and into onsite_f_).
  void OnsiteNorms(PetscInt i) {
    const int bs = op_->bs;
    blocks_.onsite(i, onsite_blk_.data());
    double f = 0;
    for (int r = 0; r < bs; ++r) {
      double sum = 0;
      for (int c = 0; c < bs; ++c) sum += std::abs(onsite_blk_[(size_t)r * bs + c]), f += std::norm(onsite_blk_[(size_t)r * bs + c]);
      rowsum_[r] = sum;
    }
    onsite_f_ = f;
    if (op_->strained) atom_fro2_ += f;
  }

  // Bond b of owned atom i: its block slot, its norms and its Bloch phase.
  void Bond(PetscInt i, int b, std::int32_t *block, std::uint8_t *phase_index) {
    const int key = blocks_.bondKey(i, b), nb = (int)B_.size();
    int slot;
    if (blocks_.strained()) blocks_.bondBlockOf(i, b, B_.data()); // for the norms
    if (op_->source == BlockSource::recomputed || (blocks_.strained() && op_->source == BlockSource::shared)) slot = key; // computed in the product
    else if (op_->source == BlockSource::shared && key_slot_[key] >= 0) slot = key_slot_[key];
    else { // a new block: every bond's own (per_bond), or the first of its key
      if (!blocks_.strained()) blocks_.bondBlockOf(i, b, B_.data());
      slot = (int)(op_->blocks.size() / nb);
      op_->blocks.insert(op_->blocks.end(), B_.begin(), B_.end());
      StoreByColumns(op_->norb, op_->blocks.data() + (size_t)slot * nb);
      if (op_->source == BlockSource::shared) key_slot_[key] = slot;
    }
    *block = slot;
    if (blocks_.strained()) AddNorms(BlockNorms(B_.data()));
    else AddNorms(KeyNorms(key));
    const Complex phase = blocks_.bondPhase(i, b);
    if (phase == Complex(1)) return;
    auto it = std::find(op_->phases.begin(), op_->phases.end(), phase);
    if (it == op_->phases.end()) {
      op_->phases.push_back(phase); // at most 255: checked by the caller through the count
      it = op_->phases.end() - 1;
    }
    *phase_index = (std::uint8_t)std::min<std::ptrdiff_t>(it - op_->phases.begin(), 255);
  }

  void AddNorms(const std::pair<std::vector<double>, double> &norms) {
    const auto &[rows, f] = norms;
    for (int sp = 0; sp < op_->spins; ++sp)
      for (int r = 0; r < op_->norb; ++r) rowsum_[sp * op_->norb + r] += rows[r];
    atom_fro2_ += f * op_->spins;
  }

  // Row sums of |B| and sum |B|^2 of one block.
  std::pair<std::vector<double>, double> BlockNorms(const double *B) const {
    const int norb = op_->norb;
    std::pair<std::vector<double>, double> n{std::vector<double>(norb, 0.0), 0.0};
    for (int r = 0; r < norb; ++r)
      for (int c = 0; c < norb; ++c) n.first[r] += std::fabs(B[r * norb + c]), n.second += B[r * norb + c] * B[r * norb + c];
    return n;
  }

  // Row sums of |B| and sum |B|^2 of the block of a key.
  const std::pair<std::vector<double>, double> &KeyNorms(int key) {
    auto it = key_norms_.find(key);
    if (it != key_norms_.end()) return it->second;
    blocks_.bondBlock(key, B_.data());
    return key_norms_[key] = BlockNorms(B_.data());
  }

  const Structure &s_;
  const HamiltonianBlocks &blocks_;
  BlockOperator *op_;
  std::vector<int> key_slot_;
  std::vector<double> B_, rowsum_, onsite_rowsum_, onsite_fro_;
  double onsite_f_ = 0, atom_fro2_ = 0;
  std::vector<Complex> onsite_blk_;
  std::map<int, std::pair<std::vector<double>, double>> key_norms_;
  std::unordered_map<AtomConfiguration, Contribution, ConfigurationHash> configurations_;
  const std::pair<const AtomConfiguration, Contribution> *last_ = nullptr; // the previous atom's configuration
  std::unordered_map<AtomTerms, std::int32_t, AtomTermsHash> entries_;    // op->terms, by value
  std::int32_t last_entry_ = 0;
};

// The MatShell on the operator, and the halo: the star forest that brings each halo atom's rows from its owner (the
// owner's rank and local atom from the structure's rank offsets), set up here so that no product pays for it.
PetscErrorCode CreateShell(MPI_Comm comm, const Structure &s, BlockOperator *op, Mat *H) {
  PetscMPIInt size;
  PetscLayout rows;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  // H's rows from the structure's rank offsets: a layout set up without the reductions MatSetSizes would make.
  std::vector<PetscInt> range(s.offsets.size());
  for (size_t r = 0; r < range.size(); ++r) range[r] = s.offsets[r] * op->bs;
  PetscCall(PetscLayoutCreateFromRanges(comm, range.data(), PETSC_COPY_VALUES, 1, &rows));
  PetscCall(MatCreate(comm, H));
  PetscCall(MatSetLayouts(*H, rows, rows));
  PetscCall(PetscLayoutDestroy(&rows));
  PetscCall(MatSetType(*H, MATSHELL));
  PetscCall(MatShellSetContext(*H, op));
  PetscCall(MatSetUp(*H));
  PetscCall(MatShellSetOperation(*H, MATOP_MULT, (void (*)(void))MultBlockOperator));
  PetscCall(MatShellSetOperation(*H, MATOP_NORM, (void (*)(void))NormBlockOperator));
  PetscCall(MatShellSetOperation(*H, MATOP_DESTROY, (void (*)(void))DestroyBlockOperator));
  PetscCall(MatSetOption(*H, MAT_HERMITIAN, PETSC_TRUE));
  PetscCall(MatSetFusedLanczosProduct(*H, FusedMultBlockOperator));
  PetscCall(MatSetLazyLanczosProduct(*H, LazyMultBlockOperator));
  if (size == 1) PetscFunctionReturn(0); // one rank has no halo (a periodic face wraps onto its own atoms)
  PetscSFNode *owners; // handed to the star forest, not copied
  PetscCall(PetscMalloc1(s.halo(), &owners));
  for (PetscInt h = 0; h < s.halo(); ++h) {
    const int owner = s.ownerOf(s.halo_global[h]);
    owners[h].rank = owner, owners[h].index = s.halo_global[h] - s.offsets[owner];
  }
  PetscCall(PetscSFCreate(comm, &op->halo_sf));
  PetscCall(PetscSFSetGraph(op->halo_sf, s.owned, s.halo(), nullptr, PETSC_OWN_POINTER, owners, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(op->halo_sf));
  PetscCallMPI(MPI_Type_contiguous(op->bs, MPIU_SCALAR, &op->unit));
  PetscCallMPI(MPI_Type_commit(&op->unit));
  PetscCall(PetscMalloc1((size_t)s.halo() * op->bs, &op->ghost));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode CreateBlockHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k, BlockSource source, Mat *H, double *bytes) {
  PetscFunctionBeginUser;
  const HamiltonianBlocks blocks(s, model, k, false); // dense blocks only: no stored patterns
  auto *op = new BlockOperator;
  op->source = source;
  op->bs = blocks.blockSize(), op->norb = blocks.orbitals(), op->spins = blocks.spins();
  op->apply = KernelFor(op->norb, op->spins);
  op->owned = s.owned, op->halo = s.halo();
  if (source == BlockSource::recomputed || blocks.strained()) op->model = model;
  op->strained = blocks.strained();
  if (op->strained) {
    op->q = s.a_nm / 4;
    op->box_strained = s.homogeneouslyStrained();
    for (int b = 0; b < 4; ++b) op->ideal[b] = StrainedIdealBond(ZincblendeLattice::kAnionBonds[b], op->q, s.strain);
    op->diag.reserve((size_t)s.owned * op->norb);
    if (source != BlockSource::per_bond) { // what the product evaluates each bond from
      op->material = s.material;
      if (s.displacement.empty()) op->u.assign(s.sites.size(), {0.0, 0.0, 0.0}); // a homogeneous strain only
      else op->u = s.displacement;
      op->anion.resize(s.owned);
      for (PetscInt i = 0; i < s.owned; ++i) op->anion[i] = s.sublattice(i) == Sublattice::anion;
      for (const auto &m : model.materials)
        for (bool anion_row : {true, false}) op->rows.push_back(MakeRowIntegrals(m, anion_row, model.strained.scaling == BondScaling::harrison, UnstrainedBondLength2(m)));
      if (source == BlockSource::shared) { // the ideal bonds' blocks, by key
        op->blocks.resize((size_t)blocks.bondKeys() * op->norb * op->norb);
        for (int key = 0; key < blocks.bondKeys(); ++key) {
          double *B = op->blocks.data() + (size_t)key * op->norb * op->norb;
          blocks.bondBlock(key, B);
          StoreByColumns(op->norb, B);
        }
      }
    }
  }
  op->bonds = s.bonds.share(), op->nbr = op->bonds->data();
  TableBuilder tables(s, blocks, op);
  tables.Atoms();
  PetscCheck(op->phases.size() <= 256, PETSC_COMM_SELF, PETSC_ERR_PLIB, "more than 255 distinct Bloch phases");
  op->norm_inf = tables.norm_inf, op->fro2 = tables.fro2;
  PetscCall(CreateShell(comm, s, op, H));
  op->bytes = Capacity(*op->bonds) + Capacity(op->terms) + Capacity(op->terms_of) + Capacity(op->interior) + Capacity(op->boundary) +
              Capacity(op->blocks) + Capacity(op->phases) + Capacity(op->onsites) + Capacity(op->diag) + Capacity(op->u) + Capacity(op->material) + Capacity(op->anion) + Capacity(op->rows) +
              3.0 * (double)s.halo() * op->bs * sizeof(PetscScalar); // the halo's entries and the star forest's send and receive buffers
  if (bytes) *bytes = op->bytes;
  PetscFunctionReturn(0);
}

} // namespace tbpeta

namespace tbpeta {

namespace {

PetscErrorCode CreateStoredBlocks(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k, const HamiltonianOptions &, Mat *H, double *bytes) {
  return CreateBlockHamiltonian(comm, s, model, k, BlockSource::per_bond, H, bytes);
}

PetscErrorCode CreateShellOperator(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k, const HamiltonianOptions &opts, Mat *H, double *bytes) {
  return CreateBlockHamiltonian(comm, s, model, k, opts.block_cache ? BlockSource::shared : BlockSource::recomputed, H, bytes);
}

// One real block per bond, the per-atom indices, the halo entries and the star forest's buffers; strained, each atom's
// diagonal too.
double StoredBlocksBytes(const OperatorCounts &c, const HamiltonianOptions &) {
  return c.bonds * c.orbitals * c.orbitals * sizeof(double) + c.owned * (48 + (c.strained ? c.orbitals * sizeof(double) : 0)) + 3 * c.halo * c.rows_per_atom * sizeof(PetscScalar);
}

// Per atom: neighbours, the index of its terms, interior/boundary list; the halo buffers; the table of distinct blocks
// (and of the passivated on-site terms). Strained: each atom's diagonal too, and the displacement, material and
// sublattice of owned and halo atoms.
double ShellBytes(const OperatorCounts &c, const HamiltonianOptions &) {
  const double per_atom = c.strained ? 24 + c.orbitals * sizeof(double) + 3 * sizeof(double) + 2 : 24;
  return c.owned * per_atom + c.halo * (3 * sizeof(double) + 1) + 3 * c.halo * c.rows_per_atom * sizeof(PetscScalar) + 64.0 * c.orbitals * c.orbitals * sizeof(double) +
         (c.dangling_atoms > 0 ? 1024.0 * 32 : 0);
}

std::string DescribeShell(const HamiltonianOptions &opts) { return opts.block_cache ? "shell (on the fly, block cache)" : "shell (on the fly, every block recomputed)"; }

} // namespace

OperatorKind StoredBlocksOperatorKind() {
  return {"stored_blocks", false, [](const HamiltonianOptions &) { return std::string("stored_blocks (tbpeta's bond blocks)"); }, CreateStoredBlocks, StoredBlocksBytes};
}

OperatorKind ShellOperatorKind() { return {"shell", false, DescribeShell, CreateShellOperator, ShellBytes}; }

} // namespace tbpeta
