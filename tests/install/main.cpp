// A user's program on the installed library: loads GaAs of the parameter set nemo3d from the installed data (no
// TBPETA_DATA_DIR) and prints its bulk band gap at Gamma (1.42421 eV: NEMO 3-D's band edges 1.42116 and -0.00305).
#include <slepcsys.h>

#include "bulk/CellSpectrum.hpp"
#include "model/TightBindingModel.hpp"

int main(int argc, char **argv) {
  tbpeta::TightBindingModel model;
  double vbm = 0, cbm = 0;
  PetscCall(SlepcInitialize(&argc, &argv, nullptr, nullptr));
  PetscCall(tbpeta::LoadTightBindingModel(PETSC_COMM_WORLD, tbpeta::ModelSpec{}, {}, &model));
  PetscCall(tbpeta::BulkBandEdges(model, 0, &vbm, &cbm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s: band gap %.5f eV\n", model.set.c_str(),
                        model.materials[0].material.c_str(), cbm - vbm));
  PetscCall(SlepcFinalize());
  return 0;
}
