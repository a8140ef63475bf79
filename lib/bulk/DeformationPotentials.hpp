#pragma once
// Deformation potentials of a material from its strained bulk cell (StrainedBulk.hpp) and band structure
// (BandUnfolding.hpp), by symmetric differences at +-delta:
//   a_gap = dEg/d(tr eps), Eg = E(G6c) - E(top of G8v), from a hydrostatic strain;
//   b from [001] strain (eps_zz = delta, eps_xx = eps_yy = -delta/2): E_lh - E_hh = 2 b (eps_zz - eps_xx);
//   d from [111] shear (eps_yz = eps_xz = eps_xy = e): E(+-1/2) - E(+-3/2) = 2 sqrt3 d e, J along [111];
// heavy and light holes told apart by the p weight along the strain axis (exactly none for +-3/2). Also the
// hydrostatic shifts dE/d(tr eps) of the valence top and of the lowest conduction band at G, X and L (energies as
// the parameter set places them).
#include <petscsys.h>

#include "model/TightBindingModel.hpp"

namespace tbpeta {

struct DeformationPotentials {
  double delta = 0;                // the strain of the differences
  double a_gap = 0;                // eV, dEg/d(tr eps) at G
  double b = 0, d = 0;             // eV, valence-band shear potentials
  double a_v = 0;                  // eV, dE(VBM)/d(tr eps)
  double a_c[3] = {0, 0, 0};       // eV, dE(lowest conduction band)/d(tr eps) at G, X, L
  double a_gap_x = 0, a_gap_l = 0; // eV, d(E_c(X or L) - E(VBM))/d(tr eps)
};

// The deformation potentials of one material of the model at strain delta (0.002 is linear for a_gap to 1 %, and
// keeps b clear of the light-hole / split-off mixing). Not collective.
PetscErrorCode ComputeDeformationPotentials(const TightBindingModel &model, int material, double delta,
                                            DeformationPotentials *out);

} // namespace tbpeta
