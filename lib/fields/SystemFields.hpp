#pragma once
// The potentials on the atoms of a run, after the relaxation and before H: the piezoelectric potential of the relaxed
// strain (-piezo: the polarisation of every atom of the strain domain, PolarizationPoisson on a grid over it and a
// host padding) and an applied field (-efield: phi = -F.(r - r0) at each atom's relaxed position). Their sum phi (V)
// enters H as the potential energy -e phi of an electron on every orbital of the atom (Structure::potential), in every
// operator kind. Logged as TbFields.
#include <petscsys.h>

#include <array>
#include <vector>

#include "fields/PolarizationPoisson.hpp"
#include "model/TightBindingSystem.hpp"
#include "strain/SystemRelaxation.hpp"

namespace tbpeta {

struct SystemFields {
  bool piezo = false, field = false;
  PoissonReport poisson;
  std::array<double, 3> origin{0, 0, 0};           // nm, where the applied field's potential is zero
  std::vector<double> potential;                   // V per owned atom of the electronic box: piezo + applied
  std::vector<std::array<double, 3>> polarization; // C/m^2 per owned atom (-piezo), else empty
  double seconds = 0;
  bool on() const { return piezo || field; }
};

// The Poisson grid of a run with -piezo: the electronic box, its strain padding and -piezo_pad_cells on each open face,
// -piezo_grid nodes per lattice constant (the memory preflight counts its nodes).
PoissonGridGeometry SystemPoissonGrid(const TightBindingSystem &sys);

// Computes the fields sys->spec.fields asks for and sets sys->structure.potential (eV); frees the strain domain kept
// for them. Nothing happens without -piezo or -efield. Collective.
PetscErrorCode ComputeSystemFields(MPI_Comm comm, TightBindingSystem *sys, SystemStrain *strain, SystemFields *fields);

// The minimum and maximum of the potential over all ranks (V). Collective.
PetscErrorCode PotentialRange(MPI_Comm comm, const SystemFields &fields, double *min, double *max);

// -help: the Poisson solver's options. Collective.
PetscErrorCode ListFieldOptions(MPI_Comm comm);

} // namespace tbpeta
