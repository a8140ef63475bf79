#pragma once
// The Keating valence-force-field terms centred at one atom (Pryor et al., J. Appl. Phys. 83, 2548 (1998)
// normalisation): for each bond b of the atom, (3/16) alpha_b / d0_b^2 (r_b.r_b - d0_b^2)^2, and for each pair of
// its bonds b < c, (3/8) beta_bc / (d0_b d0_c) (r_b.r_c + d0_b d0_c / 3)^2 with beta_bc = sqrt(beta_b beta_c).
// Summed over every atom, each bond is visited from both ends ((3/8) alpha per bond) and each angle once; these
// prefactors give C11 = (alpha + 3 beta)/a, C12 = (alpha - beta)/a, C44 = 4 alpha beta / ((alpha + beta) a).
// Pure arithmetic on bond vectors: the energy and its exact derivative with respect to each bond vector.
#include <array>
#include <cmath>

namespace tbpeta {

using Vec3 = std::array<double, 3>;

// 1 N/m x 1 nm^2 = 1e-18 J in eV: alpha and beta are in N/m, lengths in nm, energies in eV.
inline constexpr double kEvPerNewtonMetreNm2 = 6.241509074460763;

struct KeatingBond {
  Vec3 r;           // actual bond vector, nm
  double d0 = 0;    // unstrained bond length of the bond's binary, nm
  double alpha = 0; // eV/nm^2 (N/m x kEvPerNewtonMetreNm2)
  double beta = 0;  // eV/nm^2
};

inline double Dot(const Vec3 &a, const Vec3 &b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// Energy (eV) of the terms centred at an atom with n (<= 4) bonds; adds dE/dr_b (eV/nm) to grad[b].
inline double KeatingAtomTerms(int n, const KeatingBond *bond, Vec3 *grad) {
  double e = 0;
  for (int b = 0; b < n; ++b) {
    const double d2 = bond[b].d0 * bond[b].d0, x = Dot(bond[b].r, bond[b].r) - d2, c = bond[b].alpha / d2;
    e += 0.1875 * c * x * x;
    for (int k = 0; k < 3; ++k) grad[b][k] += 0.75 * c * x * bond[b].r[k];
    for (int o = b + 1; o < n; ++o) {
      const double dd = bond[b].d0 * bond[o].d0, y = Dot(bond[b].r, bond[o].r) + dd / 3.0,
                   cb = std::sqrt(bond[b].beta * bond[o].beta) / dd;
      e += 0.375 * cb * y * y;
      for (int k = 0; k < 3; ++k) {
        grad[b][k] += 0.75 * cb * y * bond[o].r[k];
        grad[o][k] += 0.75 * cb * y * bond[b].r[k];
      }
    }
  }
  return e;
}

} // namespace tbpeta
