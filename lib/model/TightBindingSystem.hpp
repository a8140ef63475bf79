#pragma once
#include <string>
// Everything that defines one calculation's structure and model, in the data-flow order of the architecture:
// supercell -> nanostructure -> model -> lattice -> partition -> structure. What the user asked for is a value
// (SystemSpec), read from the options in one place; programs that build systems of their own (benchmarks, tests)
// make the value instead. The atoms themselves are built last (BuildStructure), after the memory preflight.
#include <petscsys.h>

#include "geometry/Nanostructure.hpp"
#include "geometry/PlanePartition.hpp"
#include "geometry/Structure.hpp"
#include "geometry/SupercellSpec.hpp"
#include "model/FieldParameters.hpp"
#include "model/FieldSpec.hpp"
#include "model/StrainSpec.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

struct SystemSpec {
  SupercellSpec cell;
  NanostructureSpec nano;
  ModelSpec model;
  PartitionSpec partition;
  StrainSpec strain;
  FieldSpec fields;

  // Materials besides the host, each with the option that named it: dot, alloys, and a substrate of its own.
  std::vector<std::pair<std::string, std::string>> extraMaterials() const;
};

// Reads every structure, model and decomposition option; options that are not given keep `defaults` (which -help
// shows). Collective.
PetscErrorCode SystemSpecFromOptions(MPI_Comm comm, const SystemSpec &defaults, SystemSpec *spec);

struct TightBindingSystem {
  SystemSpec spec;
  TightBindingModel model;
  ZincblendeLattice lattice;
  Nanostructure nano;
  PlanePartition partition;
  Structure structure;                           // empty until BuildStructure
  std::vector<FieldParameters> field_parameters; // per material of the model, when -piezo asks for them
  double a_nm = 0; // lattice constant of the lattice (nm): the substrate's (-strain_substrate; default the host)
};

// "strain keating, H on the <bonds>" or "unstrained": how the run's atoms and H are strained (the summaries' words).
std::string StrainDescription(const TightBindingSystem &sys);

// The model, lattice, nanostructure and partition of `spec` on comm, without the atoms. Collective; one-line errors for
// a structure beyond the indices of this PETSc build, a dot outside the supercell, an impossible process grid.
PetscErrorCode CreateTightBindingSystem(MPI_Comm comm, const SystemSpec &spec, TightBindingSystem *sys);
// This rank's atoms, halo and bonds. Collective.
PetscErrorCode BuildStructure(MPI_Comm comm, TightBindingSystem *sys);

// The default spec, read from the options, created and (with build_structure) built: for tools and tests.
PetscErrorCode TightBindingSystemFromOptions(MPI_Comm comm, bool build_structure, TightBindingSystem *sys);

} // namespace tbpeta
