#include "bulk/StrainedBulk.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

#include "bulk/CellSpectrum.hpp"
#include "strain/DisplacementField.hpp"
#include "strain/Relaxation.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

PetscErrorCode CreateStrainedBulkCell(const TightBindingModel &model, int material, const Voigt &eps, BulkCell *out) {
  OwnedSNES snes;
  OwnedVec u;
  RelaxationReport report;
  PetscFunctionBeginUser;
  PetscCall(CreateBulkCell(model, material, 1, out));
  out->model.strained.on = true;
  PetscCall(CheckStrainedModel(PETSC_COMM_SELF, out->model));
  out->structure.strain = eps;
  KeatingEnergy energy;
  PetscCall(KeatingEnergy::Create(PETSC_COMM_SELF, out->structure, out->model, out->structure.a_nm, StrainFix::none,
                                  &energy));
  PetscCall(energy.CreateDisplacement(u.out()));
  PetscCall(CreateRelaxationSolver(PETSC_COMM_SELF, snes.out()));
  PetscCall(SNESSetTolerances(snes, kBulkRelaxForceTolerance, 0.0, 0.0, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(MinimiseEnergy(snes, &energy, u, &report));
  PetscCheck(report.converged, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED,
             "the internal relaxation of strained bulk %s stopped at a force of %.3g eV/nm (%s)",
             out->model.materials[0].material.c_str(), report.max_force, report.reason.c_str());
  PetscCall(StoreDisplacements(PETSC_COMM_SELF, u, &out->structure));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
