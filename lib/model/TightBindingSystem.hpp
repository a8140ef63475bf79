#pragma once
// Everything that defines one calculation's structure and model, built from the options in the data-flow order
// of the architecture: supercell -> nanostructure spec -> model -> lattice -> partition -> structure.
#include <petscsys.h>

#include "geometry/Nanostructure.hpp"
#include "geometry/PlanePartition.hpp"
#include "geometry/Structure.hpp"
#include "geometry/SupercellSpec.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

struct TightBindingSystem {
  SupercellSpec cell;
  NanostructureSpec nano_spec;
  TightBindingModel model;
  ZincblendeLattice lattice;
  Nanostructure nano;
  PartitionKind partition_kind = PartitionKind::cube;
  PlanePartition partition;
  Structure structure;
  double a_nm = 0; // lattice constant of the host (unstrained)
};

// Reads every structure and model option; with build_structure false stops before the atoms are made (for -help).
PetscErrorCode TightBindingSystemFromOptions(MPI_Comm comm, bool build_structure, TightBindingSystem *sys);

// Bulk reference of one material of a model: all eigenvalues of the periodic 8-atom cubic cell at Bloch vector k
// (2 pi / a), assembled by the same code as any structure, on PETSC_COMM_SELF.
PetscErrorCode BulkCellSpectrum(const TightBindingModel &model, int material, std::array<double, 3> k, std::vector<double> *values);
// Valence-band top and conduction-band bottom of the cubic cell at Gamma (which holds the fcc Gamma and X points).
PetscErrorCode BulkBandEdges(const TightBindingModel &model, int material, double *vbm, double *cbm);

} // namespace tbpeta
