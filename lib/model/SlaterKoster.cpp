// Two-centre Slater-Koster blocks, on-site energies, p spin-orbit and dangling-bond passivation, written out as in
// the project's conventions (Slater & Koster, Phys. Rev. 94, 1498 (1954), Table I; anion/cation rules and the
// spin-orbit matrix as documented for the parameter files).
#include "model/SlaterKoster.hpp"

#include <cmath>

namespace tbpeta {

namespace {

constexpr double kSqrt3 = 1.7320508075688772935;

// Index of each d orbital in the 5-element d blocks below (same order as the full basis).
enum DIndex : int { kXY = 0, kYZ, kZX, kX2Y2, kZ2 };

using PBlock = std::array<double, 3>;
using DBlock = std::array<double, 5>;
using PPBlock = std::array<std::array<double, 3>, 3>;
using PDBlock = std::array<std::array<double, 5>, 3>;
using DDBlock = std::array<std::array<double, 5>, 5>;

// E(s, p_i): s (or s*) on the bra atom, p on the ket atom, bra->ket cosines (l, m, n).
PBlock SP(double sigma, double l, double m, double n) { return {l * sigma, m * sigma, n * sigma}; }

// E(s, d_j).
DBlock SD(double sigma, double l, double m, double n) {
  DBlock e{};
  e[kXY] = kSqrt3 * l * m * sigma;
  e[kYZ] = kSqrt3 * m * n * sigma;
  e[kZX] = kSqrt3 * n * l * sigma;
  e[kX2Y2] = 0.5 * kSqrt3 * (l * l - m * m) * sigma;
  e[kZ2] = (n * n - 0.5 * (l * l + m * m)) * sigma;
  return e;
}

// E(p_i, p_j); symmetric.
PPBlock PP(double sigma, double pi, double l, double m, double n) {
  const double c[3] = {l, m, n};
  PPBlock e{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e[i][j] = c[i] * c[j] * (sigma - pi) + (i == j ? pi : 0.0);
  return e;
}

// E(p_i, d_j).
PDBlock PD(double sigma, double pi, double l, double m, double n) {
  const double l2 = l * l, m2 = m * m, n2 = n * n, lmn = l * m * n;
  const double z2 = n2 - 0.5 * (l2 + m2); // the 3z^2-r^2 angular factor
  PDBlock e{};
  // p_x
  e[0][kXY] = kSqrt3 * l2 * m * sigma + m * (1 - 2 * l2) * pi;
  e[0][kYZ] = kSqrt3 * lmn * sigma - 2 * lmn * pi;
  e[0][kZX] = kSqrt3 * l2 * n * sigma + n * (1 - 2 * l2) * pi;
  e[0][kX2Y2] = 0.5 * kSqrt3 * l * (l2 - m2) * sigma + l * (1 - l2 + m2) * pi;
  e[0][kZ2] = l * z2 * sigma - kSqrt3 * l * n2 * pi;
  // p_y
  e[1][kXY] = kSqrt3 * m2 * l * sigma + l * (1 - 2 * m2) * pi;
  e[1][kYZ] = kSqrt3 * m2 * n * sigma + n * (1 - 2 * m2) * pi;
  e[1][kZX] = kSqrt3 * lmn * sigma - 2 * lmn * pi;
  e[1][kX2Y2] = 0.5 * kSqrt3 * m * (l2 - m2) * sigma - m * (1 + l2 - m2) * pi;
  e[1][kZ2] = m * z2 * sigma - kSqrt3 * m * n2 * pi;
  // p_z
  e[2][kXY] = kSqrt3 * lmn * sigma - 2 * lmn * pi;
  e[2][kYZ] = kSqrt3 * n2 * m * sigma + m * (1 - 2 * n2) * pi;
  e[2][kZX] = kSqrt3 * n2 * l * sigma + l * (1 - 2 * n2) * pi;
  e[2][kX2Y2] = 0.5 * kSqrt3 * n * (l2 - m2) * sigma - n * (l2 - m2) * pi;
  e[2][kZ2] = n * z2 * sigma + kSqrt3 * n * (l2 + m2) * pi;
  return e;
}

// E(d_i, d_j); symmetric (even parity), so only the upper triangle is written and then mirrored.
DDBlock DD(double sigma, double pi, double delta, double l, double m, double n) {
  const double l2 = l * l, m2 = m * m, n2 = n * n;
  const double d2 = l2 - m2;              // l^2 - m^2
  const double z2 = n2 - 0.5 * (l2 + m2); // the 3z^2-r^2 angular factor
  DDBlock e{};
  e[kXY][kXY] = 3 * l2 * m2 * sigma + (l2 + m2 - 4 * l2 * m2) * pi + (n2 + l2 * m2) * delta;
  e[kYZ][kYZ] = 3 * m2 * n2 * sigma + (m2 + n2 - 4 * m2 * n2) * pi + (l2 + m2 * n2) * delta;
  e[kZX][kZX] = 3 * n2 * l2 * sigma + (n2 + l2 - 4 * n2 * l2) * pi + (m2 + n2 * l2) * delta;
  e[kXY][kYZ] = 3 * l * m2 * n * sigma + l * n * (1 - 4 * m2) * pi + l * n * (m2 - 1) * delta;
  e[kXY][kZX] = 3 * l2 * m * n * sigma + m * n * (1 - 4 * l2) * pi + m * n * (l2 - 1) * delta;
  e[kYZ][kZX] = 3 * n2 * l * m * sigma + l * m * (1 - 4 * n2) * pi + l * m * (n2 - 1) * delta;
  e[kXY][kX2Y2] = 1.5 * l * m * d2 * sigma - 2 * l * m * d2 * pi + 0.5 * l * m * d2 * delta;
  e[kYZ][kX2Y2] = 1.5 * m * n * d2 * sigma - m * n * (1 + 2 * d2) * pi + m * n * (1 + 0.5 * d2) * delta;
  e[kZX][kX2Y2] = 1.5 * n * l * d2 * sigma + n * l * (1 - 2 * d2) * pi - n * l * (1 - 0.5 * d2) * delta;
  e[kXY][kZ2] = kSqrt3 * l * m * z2 * sigma - 2 * kSqrt3 * l * m * n2 * pi + 0.5 * kSqrt3 * l * m * (1 + n2) * delta;
  e[kYZ][kZ2] =
      kSqrt3 * m * n * z2 * sigma + kSqrt3 * m * n * (l2 + m2 - n2) * pi - 0.5 * kSqrt3 * m * n * (l2 + m2) * delta;
  e[kZX][kZ2] =
      kSqrt3 * l * n * z2 * sigma + kSqrt3 * l * n * (l2 + m2 - n2) * pi - 0.5 * kSqrt3 * l * n * (l2 + m2) * delta;
  e[kX2Y2][kX2Y2] = 0.75 * d2 * d2 * sigma + (l2 + m2 - d2 * d2) * pi + (n2 + 0.25 * d2 * d2) * delta;
  e[kX2Y2][kZ2] = 0.5 * kSqrt3 * d2 * z2 * sigma - kSqrt3 * n2 * d2 * pi + 0.25 * kSqrt3 * (1 + n2) * d2 * delta;
  e[kZ2][kZ2] = z2 * z2 * sigma + 3 * n2 * (l2 + m2) * pi + 0.75 * (l2 + m2) * (l2 + m2) * delta;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < i; ++j) e[i][j] = e[j][i];
  return e;
}

} // namespace

OrbitalBlock anionCationBlock(const TwoCentreIntegrals &v, double l, double m, double n) {
  OrbitalBlock b{};
  // s and s* with each other: no angular dependence.
  b[kS][kS] = v.ss_sigma;
  b[kS][kSstar] = v.s_a_sstar_c_sigma;
  b[kSstar][kS] = v.sstar_a_s_c_sigma;
  b[kSstar][kSstar] = v.sstar_sstar_sigma;

  // s/s* - p. With p on the anion (bra) the table entry is the reversed one, E(p,s) = -E(s,p) (odd parity).
  const PBlock sa_pc = SP(v.s_a_p_c_sigma, l, m, n), sc_pa = SP(v.s_c_p_a_sigma, l, m, n);
  const PBlock xa_pc = SP(v.sstar_a_p_c_sigma, l, m, n), xc_pa = SP(v.sstar_c_p_a_sigma, l, m, n);
  for (int i = 0; i < 3; ++i) {
    b[kS][kPx + i] = sa_pc[i];
    b[kPx + i][kS] = -sc_pa[i];
    b[kSstar][kPx + i] = xa_pc[i];
    b[kPx + i][kSstar] = -xc_pa[i];
  }

  // s/s* - d: even parity, no sign change when d sits on the anion.
  const DBlock sa_dc = SD(v.s_a_d_c_sigma, l, m, n), sc_da = SD(v.s_c_d_a_sigma, l, m, n);
  const DBlock xa_dc = SD(v.sstar_a_d_c_sigma, l, m, n), xc_da = SD(v.sstar_c_d_a_sigma, l, m, n);
  for (int j = 0; j < 5; ++j) {
    b[kS][kDxy + j] = sa_dc[j];
    b[kDxy + j][kS] = sc_da[j];
    b[kSstar][kDxy + j] = xa_dc[j];
    b[kDxy + j][kSstar] = xc_da[j];
  }

  // p - p: even parity, symmetric.
  const PPBlock pp = PP(v.pp_sigma, v.pp_pi, l, m, n);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) b[kPx + i][kPx + j] = pp[i][j];

  // p - d. With d on the anion and p on the cation, E(d,p) = -E(p,d) (odd parity).
  const PDBlock pa_dc = PD(v.p_a_d_c_sigma, v.p_a_d_c_pi, l, m, n), pc_da = PD(v.p_c_d_a_sigma, v.p_c_d_a_pi, l, m, n);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) {
      b[kPx + i][kDxy + j] = pa_dc[i][j];
      b[kDxy + j][kPx + i] = -pc_da[i][j];
    }

  // d - d: even parity.
  const DDBlock dd = DD(v.dd_sigma, v.dd_pi, v.dd_delta, l, m, n);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) b[kDxy + i][kDxy + j] = dd[i][j];
  return b;
}

std::array<double, kFullOrbitals> onsiteEnergies(const OnSiteEnergies &e) {
  std::array<double, kFullOrbitals> d{};
  d[kS] = e.s;
  for (int i = kPx; i <= kPz; ++i) d[i] = e.p;
  for (int i = kDxy; i <= kDz2; ++i) d[i] = e.d;
  d[kSstar] = e.sstar;
  return d;
}

SpinOrbitBlock spinOrbitP(double lambda) {
  // lambda L.sigma with (L_k)_ij = -i eps_kij on real p orbitals; basis (x up, y up, z up, x down, y down, z down).
  const std::complex<double> r(lambda, 0.0), im(0.0, lambda);
  SpinOrbitBlock h{};
  enum { XU = 0, YU, ZU, XD, YD, ZD };
  h[XU][YU] = -im; // same spin: L_z sigma_z
  h[YU][XU] = im;
  h[XD][YD] = im;
  h[YD][XD] = -im;
  h[XU][ZD] = r; // spin flip: L_x sigma_x + L_y sigma_y
  h[ZD][XU] = r;
  h[YU][ZD] = -im;
  h[ZD][YU] = im;
  h[ZU][XD] = -r;
  h[XD][ZU] = -r;
  h[ZU][YD] = im;
  h[YD][ZU] = -im;
  return h;
}

PassivationBlock danglingBondShift(double delta, int sx, int sy, int sz) {
  // delta |h><h| with h = (s + sx px + sy py + sz pz)/2.
  const double c[4] = {1.0, static_cast<double>(sx), static_cast<double>(sy), static_cast<double>(sz)};
  PassivationBlock p{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) p[i][j] = 0.25 * delta * c[i] * c[j];
  return p;
}

} // namespace tbpeta
