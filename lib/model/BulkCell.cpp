#include "model/BulkCell.hpp"

#include "geometry/Nanostructure.hpp"
#include "geometry/PlanePartition.hpp"

namespace tbpeta {

PetscErrorCode CreateBulkCell(const TightBindingModel &model, int material, int cells, BulkCell *out) {
  const ZincblendeLattice lattice({cells, cells, cells}, {true, true, true});
  const PlanePartition partition(lattice.planes(), {1, 1, 1});
  Nanostructure nano;
  PetscFunctionBeginUser;
  PetscCheck(material >= 0 && material < (int)model.materials.size(), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "material index %d out of range", material);
  PetscCheck(cells >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a bulk cell needs at least 1 cubic cell, got %d",
             cells);
  out->model = model;
  out->model.materials = {model.materials[material]};
  out->model.vbo = {model.vbo[material]};
  const MaterialParameters &m = out->model.materials[0];
  PetscCall(
      Nanostructure::Create(PETSC_COMM_SELF, NanostructureSpec{}, {m.material}, lattice, m.a_lattice / 10, &nano));
  PetscCall(Structure::Create(PETSC_COMM_SELF, lattice, partition, nano, &out->structure));
  out->structure.a_nm = m.a_lattice / 10; // unstrained: the ideal bonds of the material itself
  PetscFunctionReturn(0);
}

} // namespace tbpeta
