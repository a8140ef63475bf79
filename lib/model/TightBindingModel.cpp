#include "model/TightBindingModel.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "model/ParameterSet.hpp"

namespace tbpeta {

int TightBindingModel::indexOf(const std::string &material) const {
  for (size_t i = 0; i < materials.size(); ++i)
    if (materials[i].material == material) return (int)i;
  return -1;
}

namespace {
std::vector<std::string> splitCommas(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}
} // namespace

PetscErrorCode TightBindingModelFromOptions(MPI_Comm comm, const std::vector<std::pair<std::string, std::string>> &extra_materials, TightBindingModel *model) {
  char set[256] = "nemo3d", material[256] = "GaAs", files[4096] = "";
  PetscBool so = PETSC_TRUE, so_set = PETSC_FALSE, files_set = PETSC_FALSE;
  PetscReal shift = kDefaultPassivationShift;

  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Tight-binding model", "tbpeta");
  PetscCall(PetscOptionsString("-params", "Parameter set: vogl1983 (sp3s*), klimeck2000 (sp3s*+SO), jancu1998 (sp3d5s*+SO), nemo3d (sp3d5s*+SO)", "tbpeta", set, set, sizeof(set), nullptr));
  PetscCall(PetscOptionsString("-params_file", "Comma-separated parameter files (project format) that define materials instead of the set", "tbpeta", files, files, sizeof(files), &files_set));
  PetscCall(PetscOptionsString("-material", "Host material: GaAs, AlAs, InAs, Si", "tbpeta", material, material, sizeof(material), nullptr));
  PetscCall(PetscOptionsBool("-tb_spin_orbit", "Spin-orbit coupling (default: on where the set has spin-orbit values)", "tbpeta", so, &so, &so_set));
  PetscCall(PetscOptionsReal("-passivation_shift", "Dangling-bond sp3-hybrid energy shift on open surfaces (eV)", "tbpeta", shift, &shift, nullptr));
  PetscOptionsEnd();

  PetscCheck(std::isfinite(shift) && shift >= 0, comm, PETSC_ERR_USER_INPUT, "-passivation_shift: %g eV; give a finite shift >= 0 (0 = unpassivated)", (double)shift);
  TightBindingModel m;
  m.set = set;
  m.passivation_shift = shift;

  // Materials defined by the user's files win over the shipped set.
  std::vector<MaterialParameters> from_files;
  std::vector<std::pair<std::string, std::string>> names{{material, "-material"}};
  for (const auto &e : extra_materials)
    if (std::find_if(names.begin(), names.end(), [&](const auto &n) { return n.first == e.first; }) == names.end()) names.push_back(e);
  std::string used;
  for (const auto &n : names) used += (used.empty() ? "" : ", ") + n.first;
  if (files_set) {
    const auto list = splitCommas(files);
    PetscCheck(!list.empty(), comm, PETSC_ERR_USER_INPUT, "-params_file: give one or more comma-separated parameter files");
    for (const auto &f : list) {
      MaterialParameters p;
      PetscCall(LoadParameterFile(comm, f, &p));
      // A file that defines no material of this structure would be silently ignored: refuse it.
      PetscCheck(std::any_of(names.begin(), names.end(), [&](const auto &n) { return n.first == p.material; }), comm, PETSC_ERR_USER_INPUT,
                 "-params_file %s: defines material '%s', which this structure does not use (its materials: %s; set -material or -dot_material)", f.c_str(), p.material.c_str(),
                 used.c_str());
      PetscCheck(std::none_of(from_files.begin(), from_files.end(), [&](const MaterialParameters &q) { return q.material == p.material; }), comm, PETSC_ERR_USER_INPUT,
                 "-params_file: two files define material '%s'", p.material.c_str());
      from_files.push_back(p);
    }
  }
  for (const auto &[name, option] : names) {
    auto it = std::find_if(from_files.begin(), from_files.end(), [&](const MaterialParameters &p) { return p.material == name; });
    if (it != from_files.end()) m.materials.push_back(*it);
    else {
      MaterialParameters p;
      PetscCall(LoadShippedMaterial(comm, m.set, name, option.c_str(), &p));
      m.materials.push_back(p);
    }
  }

  // Name what was used: the set, or the files (with the set their header names) for the materials they define.
  if (!from_files.empty()) {
    const bool all_files = from_files.size() == m.materials.size();
    m.set = (all_files ? std::string("params_file:") : m.set + "+params_file:") + from_files[0].set;
  }
  const MaterialParameters &host = m.materials[0];
  for (const auto &p : m.materials) {
    PetscCheck(p.anion == host.anion, comm, PETSC_ERR_USER_INPUT,
               "materials %s and %s do not share the anion (%s vs %s): tbpeta has no parameters for a %s-%s bond", host.material.c_str(), p.material.c_str(), host.anion.c_str(),
               p.anion.c_str(), p.cation.c_str(), host.anion.c_str());
    PetscCheck(p.model == host.model, comm, PETSC_ERR_USER_INPUT, "materials %s and %s use different bases (sp3s* vs sp3d5s*): use one parameter set", host.material.c_str(),
               p.material.c_str());
  }
  m.basis = host.model;
  bool all_so = std::all_of(m.materials.begin(), m.materials.end(), [](const MaterialParameters &p) { return p.has_spin_orbit; });
  if (so_set) {
    PetscCheck(!so || all_so, comm, PETSC_ERR_USER_INPUT, "-tb_spin_orbit 1: parameter set '%s' has no spin-orbit values (use -tb_spin_orbit 0 or a set with spin-orbit)", m.set.c_str());
    m.spin_orbit = so;
  } else m.spin_orbit = all_so;

  // Valence-band offsets: -vbo_<MATERIAL> E (eV) shifts every on-site energy of that material.
  bool any_vbo = false;
  m.vbo.clear();
  PetscOptionsBegin(comm, nullptr, "Valence-band offsets", "tbpeta");
  for (const auto &p : m.materials) {
    PetscReal v = 0;
    PetscBool given = PETSC_FALSE;
    std::string opt = "-vbo_" + p.material;
    PetscCall(PetscOptionsReal(opt.c_str(), "Valence-band offset of this material (eV), added to its on-site energies", "tbpeta", v, &v, &given));
    PetscCheck(std::isfinite(v), comm, PETSC_ERR_USER_INPUT, "%s: %g is not a finite energy (eV)", opt.c_str(), (double)v);
    m.vbo.push_back(v);
    any_vbo = any_vbo || given;
  }
  // -help lists the offset option of every material of the set, not only those of this structure.
  PetscBool help = PETSC_FALSE;
  PetscCall(PetscOptionsHasHelp(nullptr, &help));
  if (help)
    for (const auto &name : materialsInSet(m.set)) {
      if (m.indexOf(name) >= 0) continue;
      PetscReal v = 0;
      const std::string opt = "-vbo_" + name;
      PetscCall(PetscOptionsReal(opt.c_str(), "Valence-band offset of this material (eV), added to its on-site energies", "tbpeta", v, &v, nullptr));
    }
  PetscOptionsEnd();
  if (m.materials.size() > 1 && !any_vbo) {
    for (const auto &p : m.materials)
      if (p.energy_scale == EnergyScale::vbm_zero) {
        m.warnings.push_back("parameter set '" + p.set + "' puts every material's valence-band top at 0: this heterostructure has no band offset (give -vbo_" +
                             m.materials.back().material + " E in eV)");
        break;
      }
  }
  *model = m;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
