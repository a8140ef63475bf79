#pragma once
// Two-centre Slater-Koster matrix elements (Slater & Koster, Phys. Rev. 94, 1498 (1954), Table I) for the
// s, p, d, s* basis, with the anion/cation asymmetric integrals, plus the on-site terms: orbital energies, the
// lambda L.sigma spin-orbit coupling on p orbitals and the dangling-bond passivation shift (Lee et al., PRB 69,
// 045316 (2004)). Pure functions of the parameters and the bond direction; no PETSc.
#include <array>
#include <complex>

#include "model/MaterialParameters.hpp"

namespace tbpeta {

// Real 10x10 block in the full orbital order (s, px, py, pz, dxy, dyz, dzx, dx2-y2, d3z2-r2, s*).
using OrbitalBlock = std::array<std::array<double, kFullOrbitals>, kFullOrbitals>;

// <anion orbital i | H | cation orbital j> for a bond whose anion->cation direction cosines are (l, m, n).
// The cation-row/anion-column block is its transpose (real, before any Bloch phase).
OrbitalBlock anionCationBlock(const TwoCentreIntegrals &v, double l, double m, double n);

// Diagonal on-site energies in the full orbital order (s, p x3, d x5, s*).
std::array<double, kFullOrbitals> onsiteEnergies(const OnSiteEnergies &e);

// lambda L.sigma on the p orbitals in the basis (x up, y up, z up, x down, y down, z down) (CONVENTIONS.md section 5).
using SpinOrbitBlock = std::array<std::array<std::complex<double>, 6>, 6>;
SpinOrbitBlock spinOrbitP(double lambda);

// delta |h><h| on (s, px, py, pz) for a dangling bond along signs (sx, sy, sz) (each +1/-1), h = (s + sx px + sy py +
// sz pz)/2: every entry is delta/4 times the sign product.
using PassivationBlock = std::array<std::array<double, 4>, 4>;
PassivationBlock danglingBondShift(double delta, int sx, int sy, int sz);

} // namespace tbpeta
