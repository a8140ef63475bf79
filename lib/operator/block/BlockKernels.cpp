#include "operator/block/BlockKernels.hpp"

#include <cmath>

namespace tbpeta::block {

namespace {

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
  MeasureBonds(BondLanes{r[0][0], r[1][0], r[2][0], r[3][0]}, BondLanes{r[0][1], r[1][1], r[2][1], r[3][1]},
               BondLanes{r[0][2], r[1][2], r[2][2], r[3][2]}, BondLanes{d0sq[0], d0sq[1], d0sq[2], d0sq[3]}, g);
}

// acc = the on-site block of owned atom i (its diagonal, passivation and spin-orbit) on x_i.
template <int N, int S, bool Reference>
inline void AddOnsite(const BlockOperator &op, PetscInt i, const AtomTerms &at, const double *xi, double (*acc)[N][2]) {
  const OnSite &o = op.onsites[at.onsite];
  const double *diag = op.own_diagonal ? op.diag.data() + (size_t)i * N : o.diag.data();
  alignas(32) double shifted[N];
  if (!op.potential.empty()) { // the configuration's diagonal plus the atom's potential, summed as the matrix sums them
    for (int r = 0; r < N; ++r) shifted[r] = diag[r] + op.potential[i];
    diag = shifted;
  }
  for (int sp = 0; sp < S; ++sp)
    for (int r = 0; r < N; ++r) {
      acc[sp][r][0] = diag[r] * xi[2 * (sp * N + r)];
      acc[sp][r][1] = diag[r] * xi[2 * (sp * N + r) + 1];
    }
  if (o.passivated) // explicit fmas: the same rounding wherever it is inlined
    for (int sp = 0; sp < S; ++sp)
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) {
          acc[sp][r][0] = std::fma(o.passivation[r][c], xi[2 * (sp * N + c)], acc[sp][r][0]);
          acc[sp][r][1] = std::fma(o.passivation[r][c], xi[2 * (sp * N + c) + 1], acc[sp][r][1]);
        }
  if (S == 2 && o.spin_orbit && Reference) // (x, y, z) up are orbitals 1..3 of spin 0, down of spin 1
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) {
        const Complex v = o.so[r][c];
        if (v == Complex(0)) continue;
        const double *xc = xi + 2 * ((c / 3) * N + 1 + c % 3);
        double *ar = acc[(r / 3) % S][1 + r % 3];
        ar[0] += v.real() * xc[0] - v.imag() * xc[1];
        ar[1] += v.real() * xc[1] + v.imag() * xc[0];
      }
  // The same, from the list of the non-zero entries (no test per entry), each an explicit pair of fmas so that it
  // rounds alike wherever the compiler inlines it (ApplyAtom, ApplyAtomPair).
  if (S == 2 && o.spin_orbit && !Reference)
    for (int e = 0; e < o.so_count; ++e) {
      const SpinOrbitEntry &v = op.so_entries[o.so_first + e];
      const double *xc = xi + v.src;
      double *ar = &acc[0][0][0] + v.dst;
      ar[0] = std::fma(v.re, xc[0], std::fma(-v.im, xc[1], ar[0]));
      ar[1] = std::fma(v.re, xc[1], std::fma(v.im, xc[0], ar[1]));
    }
}

// yi = (on-site) x_i + sum over bonds phase * B x_j for owned atom i (N orbitals, S spins); x of a neighbour from
// the owned part xl or the halo part xg. Each row's terms are summed in one fixed order, whatever the ranks.
template <int N, int S, bool Reference>
void ApplyAtom(const BlockOperator &op, PetscInt i, const double *xl, const double *xg, double *yi) {
  constexpr size_t n = 2 * N * S;
  alignas(32) double acc[S][N][2], t[S][N][2];
  const AtomTerms &at = op.termsOf(i);
  AddOnsite<N, S, Reference>(op, i, at, xl + n * i, acc);
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

// The four bonds of atoms i and i + 1 (the same terms) on their row pairs [K0, K1) (and an odd N's last row with Last),
// those rows held in registers from bond to bond (through memory only around a Bloch phase).
template <int N, int S, int K0, int K1, bool Last>
inline void AddPairBonds(const BlockOperator &op, PetscInt i, const AtomTerms &at, const double *xl,
                         double (*acc0)[N][2], double (*acc1)[N][2]) {
  constexpr size_t n = 2 * N * S;
  using Range = RowRange<N, S, K0, K1, Last>;
  Range r0, r1;
  r0.Load(acc0);
  r1.Load(acc1);
  for (int b = 0; b < 4; ++b) {
    const std::int32_t j0 = op.nbr[i][b], j1 = op.nbr[i + 1][b];
    if (j0 < 0) continue; // the same terms: the same dangling bonds
    const double *B = op.blocks.data() + (size_t)at.block[b] * N * N;
    const std::uint8_t ph = at.phase[b];
    if (ph == 0) {
      AddBlockProductPair(B, xl + n * j0, xl + n * j1, r0, r1);
      continue;
    }
    Range p0, p1; // zero
    AddBlockProductPair(B, xl + n * j0, xl + n * j1, p0, p1);
    alignas(32) double t0[S][N][2], t1[S][N][2];
    r0.Store(acc0);
    r1.Store(acc1);
    p0.Store(t0);
    p1.Store(t1);
    AddPhased<N, S>(op.phases[ph], t0, acc0, 2 * K0, Last ? N : 2 * K1);
    AddPhased<N, S>(op.phases[ph], t1, acc1, 2 * K0, Last ? N : 2 * K1);
    r0.Load(acc0);
    r1.Load(acc1);
  }
  r0.Store(acc0);
  r1.Store(acc1);
}

// Atoms i and i + 1 at once (interior atoms of one configuration: the same terms, so the same blocks and phases): each
// block's loads and shuffles serve both, and each row sums its terms in the order ApplyAtom sums them (the same bits).
// Their rows stay in registers across the four bonds: all of them, or, where two atoms' rows would not fit the 32
// vector registers (sp3d5s* with spin: 20 row pairs), the first and the second half in turn (x read twice).
template <int N, int S>
void ApplyAtomPair(const BlockOperator &op, PetscInt i, const double *xl, double *y0, double *y1) {
  constexpr size_t n = 2 * N * S;
  constexpr int P = N / 2, half = (P + 1) / 2;
  alignas(32) double acc0[S][N][2], acc1[S][N][2];
  const AtomTerms &at = op.termsOf(i);
  AddOnsite<N, S, false>(op, i, at, xl + n * i, acc0);
  AddOnsite<N, S, false>(op, i + 1, at, xl + n * (i + 1), acc1);
  if constexpr (2 * S * P > 12) {
    AddPairBonds<N, S, 0, half, false>(op, i, at, xl, acc0, acc1);
    AddPairBonds<N, S, half, P, N % 2 == 1>(op, i, at, xl, acc0, acc1);
  } else AddPairBonds<N, S, 0, P, N % 2 == 1>(op, i, at, xl, acc0, acc1);
  std::memcpy(y0, acc0, sizeof acc0);
  std::memcpy(y1, acc1, sizeof acc1);
}

} // namespace

AtomKernel KernelFor(int norb, int spins, bool reference) {
  if (reference) {
    if (norb == 10) return spins == 2 ? ApplyAtom<10, 2, true> : ApplyAtom<10, 1, true>;
    return spins == 2 ? ApplyAtom<5, 2, true> : ApplyAtom<5, 1, true>;
  }
  if (norb == 10) return spins == 2 ? ApplyAtom<10, 2, false> : ApplyAtom<10, 1, false>;
  return spins == 2 ? ApplyAtom<5, 2, false> : ApplyAtom<5, 1, false>;
}

AtomPairKernel PairKernelFor(int norb, int spins) {
  if (norb == 10) return spins == 2 ? ApplyAtomPair<10, 2> : ApplyAtomPair<10, 1>;
  return spins == 2 ? ApplyAtomPair<5, 2> : ApplyAtomPair<5, 1>;
}

} // namespace tbpeta::block
