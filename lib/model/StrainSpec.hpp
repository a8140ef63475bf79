#pragma once
// What the user asked of the relaxation (NEMO 3-D's first phase): the strain model, the substrate whose lattice
// constant the lattice takes, the atoms held in place, the padding of the strain domain and whether an unconverged
// relaxation may go on. A value read from the options in one place (-strain, -strain_substrate, -strain_fix,
// -strain_pad_cells, -strain_lateral, -strain_allow_unconverged, and for the strained H -strain_onsite,
// -strain_tb_scaling); the minimiser's own options are SNES options with the prefix strain_ (read by the strain layer).
#include <petscsys.h>

#include <array>
#include <string>

namespace tbpeta {

enum class StrainModel { none, keating };
enum class StrainFix { none, zmin };

struct StrainSpec {
  StrainModel model = StrainModel::none;
  std::string substrate;           // material whose lattice constant the lattice takes; empty: the host
  StrainFix fix = StrainFix::none; // zmin: the bottom atomic plane stays in place
  std::array<int, 3> pad{0, 0, 0}; // host cells added on each open face of the strain domain
  bool lateral_periodic = false;   // -strain_lateral periodic (or auto, padded along x and y): periodic along x, y
  bool allow_unconverged = false;
  bool tb_onsite = true;    // -strain_onsite boykin (true) or none: the strained H's diagonal correction
  bool tb_harrison = false; // -strain_tb_scaling harrison: eta = 2 for every integral, no on-site correction

  bool on() const { return model != StrainModel::none; }
  bool padded() const { return pad[0] + pad[1] + pad[2] > 0; }
  // The strain domain's periodic axes: the electronic box's (box_periodic), and x and y with -strain_lateral periodic
  // (the open electronic box then sits inside a laterally periodic domain, as a dot in a crystal that continues).
  std::array<bool, 3> domainPeriodic(const std::array<bool, 3> &box_periodic) const {
    return {box_periodic[0] || lateral_periodic, box_periodic[1] || lateral_periodic, box_periodic[2]};
  }
};

const char *StrainModelName(StrainModel m);

// Reads -strain_onsite (boykin | none) and -strain_tb_scaling (parameters | harrison) into *onsite and *harrison,
// which hold the defaults on entry. Collective; one-line PETSC_ERR_USER_INPUT for a value not allowed.
PetscErrorCode StrainedHamiltonianOptions(MPI_Comm comm, bool *onsite, bool *harrison);

// Reads the strain options; `periodic` (-periodic) decides which padding and fixing are possible. Collective;
// one-line PETSC_ERR_USER_INPUT for an unknown model, a negative padding or one on a periodic axis, zmin with a
// periodic z, an unknown -strain_lateral or a periodic one without lateral padding around an open box.
PetscErrorCode StrainSpecFromOptions(MPI_Comm comm, const StrainSpec &defaults, const std::array<bool, 3> &periodic,
                                     StrainSpec *spec);

} // namespace tbpeta
