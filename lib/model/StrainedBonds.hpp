#pragma once
// Tight binding on a strained bond (the model of NEMO 3-D's strained sp3d5s*; Boykin et al., PRB 66, 125207 (2002)):
//  - the Slater-Koster block takes the direction cosines of the actual anion->cation vector;
//  - every two-centre integral scales as V(d) = V(d0) (d0/d)^eta, one eta per integral type, d0 = sqrt(3)/4 a of the
//    bond's binary (its cation's material); -strain_tb_scaling harrison takes eta = 2 for all (Harrison's d^-2);
//  - each bond shifts the diagonal of both its atoms: orbital alpha of one atom gains
//    scale * sum_beta C_ab (H0_ab^2 - H_ab^2) / (E'_a + E'_b) over the orbitals beta of the other, where H0 is the
//    ideal bond's block, H the strained one, C the set's constant of the (anion kind, cation kind) pair and E' the
//    binary's on-site energy (plus its valence-band offset) minus the set's reference shift (27 eV).
// An ideal bond (no displacement difference, d = d0) gives the unstrained block bit for bit. Pure functions, no PETSc.
#include <array>
#include <string>

#include "model/SlaterKoster.hpp"

namespace tbpeta {

// How H follows the relaxed atoms (-strain, -strain_onsite, -strain_tb_scaling).
enum class BondScaling { parameters, harrison };
struct StrainedHamiltonian {
  bool on = false;    // H follows the atoms' displacements
  bool onsite = true; // the on-site correction, where the set has its constants
  BondScaling scaling = BondScaling::parameters;
  std::string describe() const; // e.g. "keating bonds (eta of the set, on-site correction boykin)"
};

// The anion->cation bond: direction cosines and squared length (nm^2).
struct BondVector {
  double l = 0, m = 0, n = 0, length2 = 0;
};
// The bond along ideal direction `signs` (each +-1) of a lattice with plane spacing q = a/4 (nm) under the
// homogeneous strain eps (Voigt, tensor components), whose cation is displaced by du (nm) relative to its anion:
// (1 + eps) signs q + du. With du and eps exactly zero the cosines are the ideal +-1/sqrt(3).
BondVector MakeBondVector(const std::array<int, 3> &signs, double q, const std::array<double, 6> &eps,
                          const std::array<double, 3> &du);
// (1 + eps) signs q: the ideal bond of a homogeneously strained lattice.
std::array<double, 3> StrainedIdealBond(const std::array<int, 3> &signs, double q, const std::array<double, 6> &eps);

// The squared unstrained bond length of a binary, computed the way MakeBondVector sums an ideal bond's length.
double UnstrainedBondLength2(const MaterialParameters &m);

// The two-centre integrals of binary m on a bond of squared length length2 (exactly m.bond when it equals d0^2).
TwoCentreIntegrals ScaledIntegrals(const MaterialParameters &m, BondScaling scaling, double length2);

// The full anion-row block of the bond (rows anion orbitals, full order).
OrbitalBlock StrainedBondBlock(const MaterialParameters &m, BondScaling scaling, const BondVector &v);

// Adds one bond's on-site correction to the diagonal (full orbital order) of its anion (anion_side) or its cation:
// H0, H the ideal and strained anion-row blocks of binary m, vbo its valence-band offset; the basis orbitals are
// orbs[0..norb). Nothing when m has no on-site constants.
void AddOnsiteCorrection(const MaterialParameters &m, double vbo, const OrbitalBlock &H0, const OrbitalBlock &H,
                         const int *orbs, int norb, bool anion_side, std::array<double, kFullOrbitals> *diag);

} // namespace tbpeta
