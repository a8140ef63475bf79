#pragma once
// The materials of one structure in one parameter set: which basis (sp3s* / sp3d5s*), spin-orbit on or off,
// each material's parameters with its valence-band offset, and the passivation shift of dangling bonds.
// What the user asked for (ModelSpec, from the options -params, -params_file, -material, -tb_spin_orbit,
// -vbo_<MATERIAL>, -passivation_shift) is kept apart from the loaded parameters (TightBindingModel), so that programs
// can build models from values as well as from the options.
#include <petscsys.h>

#include <string>
#include <utility>
#include <vector>

#include "model/MaterialParameters.hpp"
#include "model/StrainedBonds.hpp"

namespace tbpeta {

// The default -passivation_shift in eV.
inline constexpr double kDefaultPassivationShift = 30.0;

struct ModelSpec {
  std::string set = "nemo3d";     // -params
  std::string host = "GaAs";      // -material
  std::vector<std::string> files; // -params_file: materials of the user's own
  int spin_orbit = -1;            // -tb_spin_orbit: 1, 0, or -1 = where every material has it
  double passivation_shift = kDefaultPassivationShift;
  std::vector<std::pair<std::string, double>> vbo; // -vbo_<MATERIAL> E given by the user
};

// Reads the model options; `materials` are the structure's materials (host first, then dot and alloys), whose
// -vbo_<MATERIAL> are read (with -help: those of every material of the set). Options not given keep `defaults`.
// Collective; one-line PETSC_ERR_USER_INPUT for a bad number.
PetscErrorCode ModelSpecFromOptions(MPI_Comm comm, const ModelSpec &defaults, const std::vector<std::string> &materials,
                                    ModelSpec *spec);

struct TightBindingModel {
  std::string set;                           // -params (or "params_file:<set>" for -params_file)
  BasisModel basis = BasisModel::sp3d5sstar; // shared by all materials
  bool spin_orbit = true;                    // spin doubles the basis
  double passivation_shift = 0;              // eV, per dangling bond (Lee et al. 2004)
  std::vector<MaterialParameters> materials; // [0] is the host
  std::vector<double> vbo;                   // eV, added to every on-site energy of the material
  std::vector<std::string> warnings;         // for the application to print (the library does not print)
  StrainedHamiltonian strained;              // whether and how H follows the atoms' displacements

  int orbitals() const { return orbitalsPerAtom(basis); }
  int blockSize() const { return orbitals() * (spin_orbit ? 2 : 1); } // matrix rows per atom
  int indexOf(const std::string &material) const;                     // -1 if absent
};

// Loads the model of `spec` for a structure whose other materials are `extra_materials` (dot, alloys), each with the
// option that named it, from the same set. Collective; one-line PETSC_ERR_USER_INPUT errors for an unknown set or
// material, materials that do not share the anion or the basis, a -params_file that cannot be read or defines no
// material of the structure. Adds a warning when a heterostructure of a vbm_zero set has no -vbo_<MATERIAL>.
PetscErrorCode LoadTightBindingModel(MPI_Comm comm, const ModelSpec &spec,
                                     const std::vector<std::pair<std::string, std::string>> &extra_materials,
                                     TightBindingModel *model);

// A strained H needs every material's strain data (eta_* keys) unless -strain_tb_scaling harrison: a one-line
// PETSC_ERR_USER_INPUT naming the set, the material and the missing keys. Nothing to check for an ideal H. Collective.
PetscErrorCode CheckStrainedModel(MPI_Comm comm, const TightBindingModel &model);

} // namespace tbpeta
