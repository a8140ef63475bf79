#pragma once
// One strained bond applied in the product without forming its block (-hamiltonian shell on a strained H): what
// the operator keeps per atom is its displacement (24 bytes), and each bond is evaluated from the two atoms'
// displacements in every product.
//
// The Slater-Koster block is a sum over channels: H = sum_m V_m P_m, with P_m projectors onto the sigma, pi, delta
// combinations along the bond direction n (Slater & Koster 1954). Written with d orbitals as symmetric traceless
// 3x3 tensors X (orthonormal basis T_xy = (xy + yx)/sqrt2, ..., T_x2-y2 = (xx - yy)/sqrt2, T_z2 = (2zz - xx - yy)/
// sqrt6), the projections are a few 3-vector operations: p_sigma = n.p, d_sigma = sqrt(3/2) n.X n, the pi part of
// X is n w^T + w n^T with w = (1 - n n^T) X n, and a p-d pi coupling is sqrt2 (1 - n n^T) X n. So a bond costs about
// as many operations as a dense 10 x 10 block product, on the four real vectors (two spins, real and imaginary) at
// once, and needs no table. The bond-length scaling (d0/d)^eta is exp(eta/2 log(d0^2/d^2)) by short series, exact to
// rounding for strains up to about 15 % (beyond, the library's exp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#if defined(__AVX__)
#include <immintrin.h>
#endif

#include "model/MaterialParameters.hpp"

namespace tbpeta {

// The integrals of one binary, seen from one row atom (anion or cation): "row-first" as in ss, s_row s*_col, ...
enum RowIntegral : int {
  kRss = 0,
  kRsS,
  kRSs,
  kRSS,
  kRsp,
  kRps,
  kRSp,
  kRpS,
  kRsd,
  kRds,
  kRSd,
  kRdS,
  kRppS,
  kRppP,
  kRpdS,
  kRpdP,
  kRdpS,
  kRdpP,
  kRddS,
  kRddP,
  kRddD,
  kRowIntegrals
};

struct RowIntegrals {
  alignas(32) double v[24] = {};        // V(d0), eV
  alignas(32) double half_eta[24] = {}; // eta / 2 of each
  double max_half_eta = 0;              // the largest of them
  double d0sq = 0;                      // squared unstrained bond length, nm^2
  double q0 = 0;                        // a / 4 of the binary, nm: a bond of a lattice with this spacing is ideal
  bool harrison = false;                // eta = 2 for all: the scale is (d0/d)^2 itself
};

// The integrals of binary m from the anion's rows (anion_row) or the cation's.
RowIntegrals MakeRowIntegrals(const MaterialParameters &m, bool anion_row, bool harrison, double d0sq);

namespace strained_kernel {

// 1 / j! for j = 0 .. 11.
constexpr double kInvFactorial[12] = {1.0,       1.0,        1.0 / 2,     1.0 / 6,      1.0 / 24,      1.0 / 120,
                                      1.0 / 720, 1.0 / 5040, 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800};
constexpr double kSqrt2 = 1.4142135623730951, kInvSqrt2 = 0.70710678118654752, kInvSqrt6 = 0.40824829046386302,
                 kSqrt3 = 1.7320508075688772, kSqrt1p5 = 1.2247448713915890;

// exp(a) for |a| <= 0.2 by Taylor to a^11 (below 1e-17 relative), in Estrin's order.
inline double ExpSmall(double a) {
  const double a2 = a * a, a4 = a2 * a2, a8 = a4 * a4;
  const double q0 = 1.0 + a, q1 = kInvFactorial[2] + a * kInvFactorial[3], q2 = kInvFactorial[4] + a * kInvFactorial[5],
               q3 = kInvFactorial[6] + a * kInvFactorial[7];
  const double q4 = kInvFactorial[8] + a * kInvFactorial[9], q5 = kInvFactorial[10] + a * kInvFactorial[11];
  const double r0 = q0 + a2 * q1, r1 = q2 + a2 * q3, r2 = q4 + a2 * q5;
  return (r0 + a4 * r1) + a8 * r2;
}

// exp(a) for |a| <= 0.05 by Taylor to a^8 (below 1e-17 relative): most bonds of a dot's surroundings.
inline double ExpTiny(double a) {
  const double a2 = a * a, a4 = a2 * a2, a8 = a4 * a4;
  const double q0 = 1.0 + a, q1 = kInvFactorial[2] + a * kInvFactorial[3], q2 = kInvFactorial[4] + a * kInvFactorial[5],
               q3 = kInvFactorial[6] + a * kInvFactorial[7];
  return ((q0 + a2 * q1) + a4 * (q2 + a2 * q3)) + a8 * (1.0 / 40320);
}

// The scaled integrals V_k (d0/d)^eta_k = V_k exp(eta_k / 2 L) of a bond of squared length len2, L = log(d0^2/d^2)
// (BondGeometry): series while |eta/2 L| <= 0.2 (strains up to about 8 % for eta < 5), the library's exp beyond.
inline void ScaleIntegrals(const RowIntegrals &R, double len2, double L, double *V) {
  if (R.harrison) {
    const double ratio2 = R.d0sq / len2;
    for (int k = 0; k < 24; ++k) V[k] = R.v[k] * ratio2;
    return;
  }
  const double largest = std::fabs(L) * R.max_half_eta;
  if (largest > 0.2)
    for (int k = 0; k < 24; ++k) V[k] = R.v[k] * std::exp(R.half_eta[k] * L);
  else if (largest > 0.05)
    for (int k = 0; k < 24; ++k) V[k] = R.v[k] * ExpSmall(R.half_eta[k] * L);
  else
    for (int k = 0; k < 24; ++k) V[k] = R.v[k] * ExpTiny(R.half_eta[k] * L);
}

} // namespace strained_kernel

// An atom's four bonds measured at once, a vector lane per bond: their square roots and divisions are one vector
// instruction each instead of four, which the bonds' evaluation would otherwise wait for one after another.
struct BondGeometry {
  alignas(32) double n[3][4];      // unit vector from the row atom to the neighbour
  alignas(32) double len2[4];      // squared length, nm^2
  alignas(32) double log_ratio[4]; // log(d0^2 / len2), the integrals' scaling (ScaleIntegrals)
};

// Four bonds' values, a lane each (GCC/Clang vector type: AVX here).
typedef double BondLanes __attribute__((vector_size(32)));

// The geometry of bonds (x, y, z) (row atom -> neighbour, nm; none of zero length) of binaries whose unstrained
// squared lengths are d0. The lanes come in registers: put in memory one by one, their load as a vector would wait for
// the stores (no forwarding from several narrower stores).
inline void MeasureBonds(const BondLanes &x, const BondLanes &y, const BondLanes &z, const BondLanes &d0,
                         BondGeometry *g) {
  typedef BondLanes Quad;
  const Quad len2 = x * x + y * y + z * z;
#if defined(__AVX__)
  const Quad root = _mm256_sqrt_pd(len2);
#else
  Quad root;
  for (int b = 0; b < 4; ++b) root[b] = std::sqrt(len2[b]);
#endif
  const Quad inv = 1 / root, t = (d0 - len2) / (d0 + len2);
  const Quad nx = x * inv, ny = y * inv, nz = z * inv;
  std::memcpy(g->n[0], &nx, sizeof nx), std::memcpy(g->n[1], &ny, sizeof ny), std::memcpy(g->n[2], &nz, sizeof nz),
      std::memcpy(g->len2, &len2, sizeof len2);
  // log(d0^2/d^2) = 2 atanh(t) by its series to t^17 (below 1e-17 for |t| < 0.1: bond lengths within about 10 % of
  // d0), in Estrin's order; the library's log for a bond beyond.
  const Quad s = t * t, s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
  const Quad p0 = 1.0 + s * (1.0 / 3), p1 = 1.0 / 5 + s * (1.0 / 7), p2 = 1.0 / 9 + s * (1.0 / 11),
             p3 = 1.0 / 13 + s * (1.0 / 15);
  const Quad q0 = p0 + s2 * p1, q1 = p2 + s2 * p3;
  const Quad L = 2 * t * ((q0 + s4 * q1) + s8 * (1.0 / 17));
  std::memcpy(g->log_ratio, &L, sizeof L);
  for (int b = 0; b < 4; ++b)
    if (s[b] > 0.01) g->log_ratio[b] = std::log(d0[b] / len2[b]);
}

// acc += B x_j for strained bond b of geometry g: the integrals R of the row atom, x_j the neighbour's N orbitals x S
// spins as (re, im) pairs. N = 10 (s, p, d, s*) or 5 (s, p, s*).
template <int N, int S>
inline void AddStrainedBond(const RowIntegrals &R, const BondGeometry &g, int b, const double *xj,
                            double (*acc)[N][2]) {
  using namespace strained_kernel;
  constexpr int W = 2 * S;                // lanes: (spin, re/im)
  constexpr int P = 1, D = 4, SS = N - 1; // first p, first d, s*
  const double n[3] = {g.n[0][b], g.n[1][b], g.n[2][b]};
  alignas(32) double V[24];
  ScaleIntegrals(R, g.len2[b], g.log_ratio[b], V);
  // The neighbour's orbitals and the row's results, lane by lane (unit stride in the lane: one vector register).
  alignas(32) double x[N][W], y[N][W];
  // An orbital's lanes in one store of their full width, which the loop's load of the lanes is forwarded from (from
  // two narrower stores it is not: a stall on every orbital of every bond).
  if constexpr (S == 2)
    for (int o = 0; o < N; ++o) {
      typedef double Pair __attribute__((vector_size(16)));
      typedef double Quad __attribute__((vector_size(32)));
      Pair up, down;
      std::memcpy(&up, xj + 2 * o, sizeof up), std::memcpy(&down, xj + 2 * (N + o), sizeof down);
      const Quad lanes = __builtin_shufflevector(up, down, 0, 1, 2, 3);
      std::memcpy(x[o], &lanes, sizeof lanes);
    }
  else
    for (int o = 0; o < N; ++o) std::memcpy(x[o], xj + 2 * o, sizeof x[o]);
  double tsig[5] = {};
  if constexpr (N == 10)
    tsig[0] = kSqrt3 * n[0] * n[1], tsig[1] = kSqrt3 * n[1] * n[2], tsig[2] = kSqrt3 * n[2] * n[0],
    tsig[3] = 0.5 * kSqrt3 * (n[0] * n[0] - n[1] * n[1]), tsig[4] = n[2] * n[2] - 0.5 * (n[0] * n[0] + n[1] * n[1]);
#pragma GCC ivdep
  for (int w = 0; w < W; ++w) {
    const double xs = x[0][w], xS = x[SS][w];
    const double ps = n[0] * x[P][w] + n[1] * x[P + 1][w] + n[2] * x[P + 2][w];    // p_sigma of the neighbour
    const double along = (V[kRppS] - V[kRppP]) * ps - V[kRps] * xs - V[kRpS] * xS; // the p rows' part along n
    double ys = V[kRss] * xs + V[kRsS] * xS + V[kRsp] * ps, yS = V[kRSs] * xs + V[kRSS] * xS + V[kRSp] * ps;
    double yp0 = V[kRppP] * x[P][w] + n[0] * along, yp1 = V[kRppP] * x[P + 1][w] + n[1] * along,
           yp2 = V[kRppP] * x[P + 2][w] + n[2] * along;
    if constexpr (N == 10) {
      const double dxy = x[D][w], dyz = x[D + 1][w], dzx = x[D + 2][w], dx2 = x[D + 3][w], dz2 = x[D + 4][w];
      // The neighbour's d part as a tensor, and v = X n, c = n.v, w = v - c n.
      const double Xxy = kInvSqrt2 * dxy, Xyz = kInvSqrt2 * dyz, Xzx = kInvSqrt2 * dzx;
      const double Xxx = kInvSqrt2 * dx2 - kInvSqrt6 * dz2, Xyy = -kInvSqrt2 * dx2 - kInvSqrt6 * dz2,
                   Xzz = 2 * kInvSqrt6 * dz2;
      const double v0 = Xxx * n[0] + Xxy * n[1] + Xzx * n[2], v1 = Xxy * n[0] + Xyy * n[1] + Xyz * n[2],
                   v2 = Xzx * n[0] + Xyz * n[1] + Xzz * n[2];
      const double c = n[0] * v0 + n[1] * v1 + n[2] * v2;
      const double w0 = v0 - c * n[0], w1 = v1 - c * n[1], w2 = v2 - c * n[2];
      const double ds = kSqrt1p5 * c; // d_sigma of the neighbour = T_sigma . X
      const double u0 = x[P][w] - ps * n[0], u1 = x[P + 1][w] - ps * n[1],
                   u2 = x[P + 2][w] - ps * n[2]; // the p's pi part
      ys += V[kRsd] * ds;
      yS += V[kRSd] * ds;
      const double pds = V[kRpdS] * ds, pdp = V[kRpdP] * kSqrt2;
      yp0 += pds * n[0] + pdp * w0, yp1 += pds * n[1] + pdp * w1, yp2 += pds * n[2] + pdp * w2;
      // The d rows: delta X + T_sigma (sigma terms) + the pi tensor n z^T + z n^T.
      const double sig = (V[kRddS] - V[kRddD]) * ds - V[kRdpS] * ps + V[kRds] * xs + V[kRdS] * xS;
      const double a = V[kRddP] - V[kRddD], b = -V[kRdpP] * kInvSqrt2;
      const double z0 = a * w0 + b * u0, z1 = a * w1 + b * u1, z2 = a * w2 + b * u2;
      const double Mxy = n[0] * z1 + z0 * n[1], Myz = n[1] * z2 + z1 * n[2], Mzx = n[2] * z0 + z2 * n[0];
      const double Mxx = 2 * n[0] * z0, Myy = 2 * n[1] * z1, Mzz = 2 * n[2] * z2;
      const double dd = V[kRddD];
      y[D][w] = dd * dxy + tsig[0] * sig + kSqrt2 * Mxy;
      y[D + 1][w] = dd * dyz + tsig[1] * sig + kSqrt2 * Myz;
      y[D + 2][w] = dd * dzx + tsig[2] * sig + kSqrt2 * Mzx;
      y[D + 3][w] = dd * dx2 + tsig[3] * sig + kInvSqrt2 * (Mxx - Myy);
      y[D + 4][w] = dd * dz2 + tsig[4] * sig + kInvSqrt6 * (2 * Mzz - Mxx - Myy);
    }
    y[0][w] = ys, y[SS][w] = yS, y[P][w] = yp0, y[P + 1][w] = yp1, y[P + 2][w] = yp2;
  }
  for (int o = 0; o < N; ++o)
    for (int sp = 0; sp < S; ++sp) acc[sp][o][0] += y[o][2 * sp], acc[sp][o][1] += y[o][2 * sp + 1];
}

} // namespace tbpeta
