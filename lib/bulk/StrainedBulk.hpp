#pragma once
// Bulk under a homogeneous strain. The periodic 8-atom cell takes the strain eps (Voigt xx, yy, zz, yz, xz, xy;
// tensor components) on every ideal bond and on its periodic lengths; the atoms then relax inside the strained cell
// by the Keating energy (the internal strain of a shear), and H follows the relaxed bonds (model/StrainedBonds). Its
// deformation potentials: DeformationPotentials.hpp.
#include <petscsys.h>

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

} // namespace tbpeta
