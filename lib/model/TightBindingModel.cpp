#include "model/TightBindingModel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/ParameterSet.hpp"
#include "support/OptionLists.hpp"
#include "support/Help.hpp"

namespace tbpeta {

int TightBindingModel::indexOf(const std::string &material) const {
  for (size_t i = 0; i < materials.size(); ++i)
    if (materials[i].material == material) return (int)i;
  return -1;
}

namespace {

// -vbo_<MATERIAL> of each material of the structure; with -help also those of the set's other materials.
PetscErrorCode ReadValenceBandOffsets(MPI_Comm comm, const ModelSpec &defaults,
                                      const std::vector<std::string> &materials, ModelSpec *spec) {
  PetscFunctionBeginUser;
  std::vector<std::string> names = materials;
  if (HelpRequested())
    for (const auto &name : materialsInSet(spec->set))
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  spec->vbo.clear();
  PetscOptionsBegin(comm, nullptr, "Valence-band offsets", "tbpeta");
  for (const std::string &name : names) {
    PetscReal v = 0;
    PetscBool given = PETSC_FALSE;
    for (const auto &[m, e] : defaults.vbo)
      if (m == name) v = e, given = PETSC_TRUE;
    const std::string opt = "-vbo_" + name;
    PetscCall(PetscOptionsReal(opt.c_str(), "Valence-band offset of this material (eV), added to its on-site energies",
                               "tbpeta", v, &v, given ? nullptr : &given));
    PetscCheck(std::isfinite(v), comm, PETSC_ERR_USER_INPUT, "%s: %g is not a finite energy (eV)", opt.c_str(),
               (double)v);
    if (given) spec->vbo.emplace_back(name, v);
  }
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode ModelSpecFromOptions(MPI_Comm comm, const ModelSpec &defaults, const std::vector<std::string> &materials,
                                    ModelSpec *spec) {
  char set[256], material[256], files[4096] = "";
  PetscBool so = defaults.spin_orbit != 0 ? PETSC_TRUE : PETSC_FALSE, so_set = PETSC_FALSE, files_set = PETSC_FALSE,
            material_set = PETSC_FALSE;
  PetscReal shift = defaults.passivation_shift;
  ModelSpec s = defaults;
  PetscFunctionBeginUser;
  std::snprintf(set, sizeof set, "%s", defaults.set.c_str());
  std::snprintf(material, sizeof material, "%s", defaults.host.c_str());
  // The sets are the folders of the data directories, each described by its own files (read only for -help).
  const std::string sets = HelpRequested()
                               ? "Parameter set (params/<set>/ of the data directories): " + DescribeParameterSets()
                               : std::string("Parameter set");
  PetscOptionsBegin(comm, nullptr, "Tight-binding model", "tbpeta");
  PetscCall(PetscOptionsString("-params", sets.c_str(), "tbpeta", set, set, sizeof(set), nullptr));
  PetscCall(PetscOptionsString(
      "-params_file", "Comma-separated parameter files (project format) that define materials instead of the set",
      "tbpeta", files, files, sizeof(files), &files_set));
  std::string materials = "Host material";
  if (HelpRequested()) { // the materials of the set, its .tbp files
    const std::vector<std::string> names = materialsInSet(set);
    for (size_t i = 0; i < names.size(); ++i) materials += (i ? ", " : ": ") + names[i];
  }
  PetscCall(PetscOptionsString("-material", materials.c_str(), "tbpeta", material, material, sizeof(material),
                               &material_set));
  PetscCall(PetscOptionsBool("-tb_spin_orbit", "Spin-orbit coupling (default: on where the set has spin-orbit values)",
                             "tbpeta", so, &so, &so_set));
  PetscCall(PetscOptionsReal("-passivation_shift", "Dangling-bond sp3-hybrid energy shift on open surfaces (eV)",
                             "tbpeta", shift, &shift, nullptr));
  PetscOptionsEnd();
  PetscCheck(std::isfinite(shift) && shift >= 0, comm, PETSC_ERR_USER_INPUT,
             "-passivation_shift: %g eV; give a finite shift >= 0 (0 = unpassivated)", (double)shift);
  s.set = set, s.host = material, s.passivation_shift = shift;
  if (so_set) s.spin_orbit = so ? 1 : 0;
  if (files_set) {
    s.files.clear();
    for (const std::string &f : SplitList(files))
      if (!f.empty()) s.files.push_back(f);
    PetscCheck(!s.files.empty(), comm, PETSC_ERR_USER_INPUT,
               "-params_file: give one or more comma-separated parameter files");
  }
  std::vector<std::string> names = materials;
  if (!names.empty()) names[0] = s.host;
  PetscCall(ReadValenceBandOffsets(comm, defaults, names, &s));
  *spec = s;
  PetscFunctionReturn(0);
}

namespace {

// The user's files, each of which must define a material of this structure (`names`), none twice.
PetscErrorCode LoadUserFiles(MPI_Comm comm, const ModelSpec &spec,
                             const std::vector<std::pair<std::string, std::string>> &names,
                             std::vector<MaterialParameters> *out) {
  std::string used;
  PetscFunctionBeginUser;
  for (const auto &n : names) used += (used.empty() ? "" : ", ") + n.first;
  for (const std::string &f : spec.files) {
    MaterialParameters p;
    PetscCall(LoadParameterFile(comm, f, &p));
    // A file that defines no material of this structure would be silently ignored: refuse it.
    PetscCheck(std::any_of(names.begin(), names.end(), [&](const auto &n) { return n.first == p.material; }), comm,
               PETSC_ERR_USER_INPUT,
               "-params_file %s: defines material '%s', which this structure does not use (its materials: %s; set "
               "-material or -dot_material)",
               f.c_str(), p.material.c_str(), used.c_str());
    PetscCheck(
        std::none_of(out->begin(), out->end(), [&](const MaterialParameters &q) { return q.material == p.material; }),
        comm, PETSC_ERR_USER_INPUT, "-params_file: two files define material '%s'", p.material.c_str());
    out->push_back(p);
  }
  PetscFunctionReturn(0);
}

// One anion, one basis and (unless switched off) spin-orbit for all materials.
PetscErrorCode CheckCompatible(MPI_Comm comm, const ModelSpec &spec, TightBindingModel *m) {
  const MaterialParameters &host = m->materials[0];
  PetscFunctionBeginUser;
  for (const auto &p : m->materials) {
    PetscCheck(p.anion == host.anion, comm, PETSC_ERR_USER_INPUT,
               "materials %s and %s do not share the anion (%s vs %s): tbpeta has no parameters for a %s-%s bond",
               host.material.c_str(), p.material.c_str(), host.anion.c_str(), p.anion.c_str(), p.cation.c_str(),
               host.anion.c_str());
    PetscCheck(p.model == host.model, comm, PETSC_ERR_USER_INPUT,
               "materials %s and %s use different bases (sp3s* vs sp3d5s*): use one parameter set",
               host.material.c_str(), p.material.c_str());
  }
  m->basis = host.model;
  const bool all_so = std::all_of(m->materials.begin(), m->materials.end(),
                                  [](const MaterialParameters &p) { return p.has_spin_orbit; });
  PetscCheck(
      spec.spin_orbit != 1 || all_so, comm, PETSC_ERR_USER_INPUT,
      "-tb_spin_orbit 1: parameter set '%s' has no spin-orbit values (use -tb_spin_orbit 0 or a set with spin-orbit)",
      m->set.c_str());
  m->spin_orbit = spec.spin_orbit < 0 ? all_so : spec.spin_orbit == 1;
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode LoadTightBindingModel(MPI_Comm comm, const ModelSpec &spec,
                                     const std::vector<std::pair<std::string, std::string>> &extra_materials,
                                     TightBindingModel *model) {
  TightBindingModel m;
  std::vector<MaterialParameters> from_files;
  std::vector<std::pair<std::string, std::string>> names{{spec.host, "-material"}};
  PetscFunctionBeginUser;
  m.set = spec.set;
  m.passivation_shift = spec.passivation_shift;
  for (const auto &e : extra_materials)
    if (std::find_if(names.begin(), names.end(), [&](const auto &n) { return n.first == e.first; }) == names.end())
      names.push_back(e);
  // Materials defined by the user's files win over the shipped set.
  PetscCall(LoadUserFiles(comm, spec, names, &from_files));
  for (const auto &[name, option] : names) {
    auto it = std::find_if(from_files.begin(), from_files.end(),
                           [&](const MaterialParameters &p) { return p.material == name; });
    if (it != from_files.end()) m.materials.push_back(*it);
    else {
      MaterialParameters p;
      PetscCall(LoadShippedMaterial(comm, m.set, name, option.c_str(), &p));
      m.materials.push_back(p);
    }
  }
  // Name what was used: the set, or the files (with the set their header names) for the materials they define.
  if (!from_files.empty())
    m.set = (from_files.size() == m.materials.size() ? std::string("params_file:") : m.set + "+params_file:") +
            from_files[0].set;
  PetscCall(CheckCompatible(comm, spec, &m));
  bool any_vbo = false;
  for (const auto &p : m.materials) {
    double v = 0;
    for (const auto &[name, e] : spec.vbo)
      if (name == p.material) v = e, any_vbo = true;
    m.vbo.push_back(v);
  }
  if (m.materials.size() > 1 && !any_vbo)
    for (const auto &p : m.materials)
      if (p.energy_scale == EnergyScale::vbm_zero) {
        m.warnings.push_back(
            "parameter set '" + p.set +
            "' puts every material's valence-band top at 0: this heterostructure has no band offset (give -vbo_" +
            m.materials.back().material + " E in eV)");
        break;
      }
  *model = m;
  PetscFunctionReturn(0);
}

PetscErrorCode CheckStrainedModel(MPI_Comm comm, const TightBindingModel &model) {
  PetscFunctionBeginUser;
  if (!model.strained.on || model.strained.scaling == BondScaling::harrison) PetscFunctionReturn(0);
  for (const auto &p : model.materials)
    PetscCheck(
        p.strained.given, comm, PETSC_ERR_USER_INPUT,
        "strained H (-strain keating, -strain_tensor): parameter set '%s', material %s has no strained tight-binding "
        "data (keys eta_*, and onsite_* for the on-site correction; file %s), so H cannot follow the relaxed bonds: "
        "add the eta_* keys to its file (-params_file), use a set with strain data (nemo3d: GaAs, InAs, Si), or give "
        "-strain_tb_scaling harrison (eta = 2 for every integral, no on-site correction)",
        p.set.c_str(), p.material.c_str(), p.source.c_str());
  PetscFunctionReturn(0);
}

} // namespace tbpeta
