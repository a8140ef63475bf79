#include "bulk/KaneEnergy.hpp"

#include <cmath>
#include <complex>

#include "bulk/CellSpectrum.hpp"
#include "model/BulkCell.hpp"
#include "operator/BondCommutator.hpp"
#include "operator/Hamiltonian.hpp"
#include "bulk/BandStructure.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

PetscErrorCode KaneEnergy(const TightBindingModel &model, int material, double *ep) {
  BulkCell cell;
  std::vector<double> values;
  std::vector<PetscScalar> vectors;
  OwnedMat H;
  OwnedVec x, y;
  BondCommutator C;
  PetscFunctionBeginUser;
  PetscCall(CreateBulkCell(model, material, 1, &cell));
  PetscCall(CellEigenpairs(cell, {0, 0, 0}, &values, &vectors));
  PetscCall(CreateHamiltonian(PETSC_COMM_SELF, cell.structure, cell.model, {0, 0, 0}, HamiltonianOptions{}, H.out()));
  PetscCall(BondCommutator::Create(PETSC_COMM_SELF, cell.structure, cell.model, {0, 0, 0}, H, &C));
  const PetscInt n = (PetscInt)values.size();
  const int valence = 4 * (int)cell.structure.owned / 2 * (cell.model.spin_orbit ? 2 : 1); // 4 per atom pair
  PetscCheck(cell.model.spin_orbit, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
             "-kane: the Kane energy sums over the six states of the p manifold, which needs spin-orbit (set %s has "
             "none)",
             model.set.c_str());
  PetscCall(MatCreateVecs(H, x.out(), y.out()));
  // |M_x(c, v)|^2 summed over the six valence states v at the top, for conduction state c
  const auto coupling = [&](int c, double *sum) -> PetscErrorCode {
    PetscScalar *px;
    PetscFunctionBeginUser;
    PetscCall(VecGetArray(x, &px));
    for (PetscInt r = 0; r < n; ++r) px[r] = vectors[(size_t)c * n + r];
    PetscCall(VecRestoreArray(x, &px));
    PetscCall(C.Apply(0, x, y)); // C_x |c>; <v|C_x|c> = conj(<c|C_x|v>)
    *sum = 0;
    const PetscScalar *py;
    PetscCall(VecGetArrayRead(y, &py));
    for (int v = valence - 6; v < valence; ++v) {
      std::complex<double> m = 0;
      for (PetscInt r = 0; r < n; ++r) m += std::conj(vectors[(size_t)v * n + r]) * py[r];
      *sum += std::norm(m);
    }
    PetscCall(VecRestoreArrayRead(y, &py));
    PetscFunctionReturn(0);
  };
  double total = 0, first = 0;
  int found = -1;
  for (int c = valence; c + 1 < n && found < 0; c += 2) { // Kramers pairs, ascending
    PetscCall(coupling(c, &first));
    if (first > 1e-8) found = c;
  }
  PetscCheck(found >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-kane: no conduction state couples to the valence band");
  double second;
  PetscCall(coupling(found + 1, &second));
  total = first + second;
  *ep = total / (2 * kHbar2Over2m0 / 100); // hbar^2/2m0 in eV nm^2
  PetscFunctionReturn(0);
}

} // namespace tbpeta
