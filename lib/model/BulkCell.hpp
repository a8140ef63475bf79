#pragma once
// The periodic bulk crystal of one material of a model, n x n x n conventional cells (8 n^3 atoms) on
// PETSC_COMM_SELF: the reference on which the host's band edges, the bulk band structure and the memory estimate per
// atom are computed, built by the same code as any structure.
#include <petscsys.h>

#include "geometry/Structure.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

struct BulkCell {
  TightBindingModel model; // the one material (with its valence-band offset)
  Structure structure;
};

// Not collective (every rank may build its own copy).
PetscErrorCode CreateBulkCell(const TightBindingModel &model, int material, int cells, BulkCell *out);

} // namespace tbpeta
