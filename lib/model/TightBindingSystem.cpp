#include "model/TightBindingSystem.hpp"

#include "support/ErrorReporting.hpp"
#include "operator/Hamiltonian.hpp"
#include "solvers/SlepcSolver.hpp"
#include "operator/StoredHamiltonian.hpp"

namespace tbpeta {

PetscErrorCode TightBindingSystemFromOptions(MPI_Comm comm, bool build_structure, TightBindingSystem *sys) {
  PetscFunctionBeginUser;
  PetscCall(SupercellSpecFromOptions(comm, &sys->cell));
  PetscCall(NanostructureSpecFromOptions(comm, &sys->nano_spec));
  PetscCall(TightBindingModelFromOptions(comm, sys->nano_spec.extraMaterials(), &sys->model));
  sys->lattice = ZincblendeLattice(sys->cell.cells, sys->cell.periodic);
  const double rows = (double)sys->lattice.totalAtoms() * sys->model.blockSize();
  PetscCheck(rows <= (double)PETSC_MAX_INT, comm, PETSC_ERR_USER_INPUT,
             "-cells: %lld atoms x %d rows per atom = %.0f rows, beyond the 32-bit indices of this PETSc build (%" PetscInt_FMT " rows): use fewer cells or the 64-bit-index build (cmake -DTBPETA_INDEX64=ON)",
             sys->lattice.totalAtoms(), sys->model.blockSize(), rows, PETSC_MAX_INT);
  sys->a_nm = sys->model.materials[0].a_lattice / 10.0;
  std::vector<std::string> names;
  for (const auto &m : sys->model.materials) names.push_back(m.material);
  PetscCall(Nanostructure::Create(comm, sys->nano_spec, names, sys->lattice, sys->a_nm, &sys->nano));
  PetscCall(PlanePartitionFromOptions(comm, sys->lattice.planes(), &sys->partition, &sys->partition_kind));
  if (build_structure) PetscCall(Structure::Create(comm, sys->lattice, sys->partition, sys->nano, &sys->structure));
  PetscFunctionReturn(0);
}

PetscErrorCode BulkCellSpectrum(const TightBindingModel &model, int material, std::array<double, 3> k, std::vector<double> *values) {
  TightBindingModel bulk = model;
  bulk.materials = {model.materials[material]};
  bulk.vbo = {model.vbo[material]};
  const ZincblendeLattice lattice({1, 1, 1}, {true, true, true});
  const PlanePartition partition(lattice.planes(), {1, 1, 1});
  Nanostructure nano;
  Structure s;
  Mat H;
  PetscFunctionBeginUser;
  PetscCall(Nanostructure::Create(PETSC_COMM_SELF, NanostructureSpec{}, {bulk.materials[0].material}, lattice, bulk.materials[0].a_lattice / 10, &nano));
  PetscCall(Structure::Create(PETSC_COMM_SELF, lattice, partition, nano, &s));
  const SameOnEveryRank redundant; // every rank computes this cell from the same parameters
  PetscCall(CreateHamiltonian(PETSC_COMM_SELF, s, bulk, k, HamiltonianOptions{}, &H, nullptr)); // stored AIJ, checked finite
  PetscCall(AllEigenvalues(H, values));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

PetscErrorCode BulkBandEdges(const TightBindingModel &model, int material, double *vbm, double *cbm) {
  std::vector<double> e;
  PetscFunctionBeginUser;
  PetscCall(BulkCellSpectrum(model, material, {0, 0, 0}, &e));
  // 8 atoms with 4 valence electron pairs per atom pair: 16 valence bands, doubled with spin.
  const size_t nval = 16 * (model.spin_orbit ? 2 : 1);
  *vbm = e[nval - 1];
  *cbm = e[nval];
  PetscFunctionReturn(0);
}

} // namespace tbpeta
