#pragma once
// Bulk under a homogeneous strain, and its deformation potentials. The periodic 8-atom cell takes the strain
// eps (Voigt xx, yy, zz, yz, xz, xy; tensor components) on every ideal bond and on its periodic lengths; the atoms
// then relax inside the strained cell by the Keating energy (the internal strain of a shear), and H follows the
// relaxed bonds (model/StrainedBonds). Deformation potentials come from symmetric differences at +-delta:
//   a_gap = dEg/d(tr eps), Eg = E(G6c) - E(top of G8v), from a hydrostatic strain;
//   b from [001] strain (eps_zz = delta, eps_xx = eps_yy = -delta/2): E_lh - E_hh = 2 b (eps_zz - eps_xx);
//   d from [111] shear (eps_yz = eps_xz = eps_xy = e): E(+-1/2) - E(+-3/2) = 2 sqrt3 d e, J along [111];
// heavy and light holes told apart by the p weight along the strain axis (exactly none for +-3/2). Also the
// hydrostatic shifts dE/d(tr eps) of the valence top and of the lowest conduction band at G, X and L (energies as
// the parameter set places them).
#include <petscsys.h>

#include "bulk/BandStructure.hpp"
#include "model/BulkCell.hpp"
#include "strain/StrainTensor.hpp"

namespace tbpeta {

// Force tolerance of the internal relaxation of a strained bulk cell (eV/nm): the shear deformation potential d
// depends on the internal strain, so the cell is relaxed far below the structures' default.
inline constexpr double kBulkRelaxForceTolerance = 1e-9;

// The periodic cubic cell (1 cell, 8 atoms) of one material under `eps`, its atoms relaxed, with the strained H of
// model.strained (switched on). Not collective (PETSC_COMM_SELF); one-line errors for a material without Keating
// constants or strain data (unless harrison).
PetscErrorCode CreateStrainedBulkCell(const TightBindingModel &model, int material, const Voigt &eps, BulkCell *out);

struct DeformationPotentials {
  double delta = 0;        // the strain of the differences
  double a_gap = 0;        // eV, dEg/d(tr eps) at G
  double b = 0, d = 0;     // eV, valence-band shear potentials
  double a_v = 0;          // eV, dE(VBM)/d(tr eps)
  double a_c[3] = {0, 0, 0}; // eV, dE(lowest conduction band)/d(tr eps) at G, X, L
  double a_gap_x = 0, a_gap_l = 0; // eV, d(E_c(X or L) - E(VBM))/d(tr eps)
};

// The deformation potentials of one material of the model at strain delta (0.002 is linear for a_gap to 1 %, and
// keeps b clear of the light-hole / split-off mixing). Not collective.
PetscErrorCode ComputeDeformationPotentials(const TightBindingModel &model, int material, double delta, DeformationPotentials *out);

} // namespace tbpeta
