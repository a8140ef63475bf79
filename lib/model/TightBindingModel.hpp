#pragma once
// The materials of one structure in one parameter set: which basis (sp3s* / sp3d5s*), spin-orbit on or off,
// each material's parameters with its valence-band offset, and the passivation shift of dangling bonds.
// Options: -params, -params_file, -material, -tb_spin_orbit, -vbo_<MATERIAL>, -passivation_shift.
#include <petscsys.h>

#include <string>
#include <vector>

#include "model/MaterialParameters.hpp"

namespace tbpeta {

struct TightBindingModel {
  std::string set;                           // -params (or "file" for -params_file)
  BasisModel basis = BasisModel::sp3d5sstar; // shared by all materials
  bool spin_orbit = true;                    // spin doubles the basis
  double passivation_shift = 0;              // eV, per dangling bond (Lee et al. 2004)
  std::vector<MaterialParameters> materials; // [0] is the host
  std::vector<double> vbo;                   // eV, added to every on-site energy of the material
  std::vector<std::string> warnings;         // for the application to print (the library does not print)

  int orbitals() const { return orbitalsPerAtom(basis); }
  int blockSize() const { return orbitals() * (spin_orbit ? 2 : 1); } // matrix rows per atom
  int indexOf(const std::string &material) const;                      // -1 if absent
};

// Reads the model options; `extra_materials` are the other materials the structure needs (dot, alloys), each with
// the option that named it, loaded from the same set. Collective; one-line PETSC_ERR_USER_INPUT errors for an unknown set or material, materials
// that do not share the anion or the basis, a -params_file that cannot be read. Adds a warning when a
// heterostructure of a vbm_zero set has no -vbo_<MATERIAL>.
PetscErrorCode TightBindingModelFromOptions(MPI_Comm comm, const std::vector<std::pair<std::string, std::string>> &extra_materials, TightBindingModel *model);
// The default -passivation_shift in eV.
inline constexpr double kDefaultPassivationShift = 30.0;

} // namespace tbpeta
