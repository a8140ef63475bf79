#include "model/TightBindingSystem.hpp"
#include "support/CrashReport.hpp"

#include <cmath>

namespace tbpeta {

std::string StrainDescription(const TightBindingSystem &sys) {
  return sys.spec.strain.on() ? "strain keating, H on the " + sys.model.strained.describe() : "unstrained";
}

std::vector<std::pair<std::string, std::string>> SystemSpec::extraMaterials() const {
  auto extra = nano.extraMaterials();
  bool known = strain.substrate.empty() || strain.substrate == model.host;
  for (const auto &[name, option] : extra) known = known || name == strain.substrate;
  if (!known) extra.emplace_back(strain.substrate, "-strain_substrate");
  return extra;
}

namespace {

// The lattice takes the substrate's lattice constant; a heterostructure of mismatched materials left unrelaxed is
// worth one warning.
void SetLatticeConstant(TightBindingSystem *sys) {
  const std::string &substrate = sys->spec.strain.substrate.empty() ? sys->spec.model.host : sys->spec.strain.substrate;
  sys->a_nm = sys->model.materials[sys->model.indexOf(substrate)].a_lattice / 10.0;
  if (sys->spec.strain.on()) return;
  for (const auto &m : sys->model.materials)
    if (std::fabs(m.a_lattice / 10.0 - sys->a_nm) > 1e-3 * sys->a_nm) {
      sys->model.warnings.push_back(
          "the lattice constants of " + m.material + " and " + substrate +
          " differ by more than 0.1 %: the atoms are unrelaxed (-strain keating relaxes them)");
      return;
    }
}

} // namespace

PetscErrorCode SystemSpecFromOptions(MPI_Comm comm, const SystemSpec &defaults, SystemSpec *spec) {
  SystemSpec s;
  PetscFunctionBeginUser;
  PetscCall(SupercellSpecFromOptions(comm, defaults.cell, &s.cell));
  PetscCall(NanostructureSpecFromOptions(comm, defaults.nano, &s.nano));
  std::vector<std::string> materials{defaults.model.host};
  PetscCall(StrainSpecFromOptions(comm, defaults.strain, s.cell.periodic, &s.strain));
  PetscCall(FieldSpecFromOptions(comm, defaults.fields, s.cell.periodic, s.strain.on(), &s.fields));
  for (const auto &[name, option] : s.extraMaterials()) materials.push_back(name);
  PetscCall(ModelSpecFromOptions(comm, defaults.model, materials, &s.model));
  PetscCall(PartitionSpecFromOptions(comm, &s.partition));
  *spec = s;
  PetscFunctionReturn(0);
}

PetscErrorCode CreateTightBindingSystem(MPI_Comm comm, const SystemSpec &spec, TightBindingSystem *sys) {
  PetscFunctionBeginUser;
  sys->spec = spec;
  PetscCall(LoadTightBindingModel(comm, spec.model, spec.extraMaterials(), &sys->model));
  sys->lattice = ZincblendeLattice(spec.cell.cells, spec.cell.periodic);
  const double rows = (double)sys->lattice.totalAtoms() * sys->model.blockSize();
  PetscCheck(
      rows <= (double)PETSC_MAX_INT, comm, PETSC_ERR_USER_INPUT,
      "-cells: %lld atoms x %d rows per atom = %.0f rows, beyond the 32-bit indices of this PETSc build (%" PetscInt_FMT
      " rows): use fewer cells or the 64-bit-index build (cmake -DTBPETA_INDEX64=ON)",
      sys->lattice.totalAtoms(), sys->model.blockSize(), rows, PETSC_MAX_INT);
  SetLatticeConstant(sys);
  sys->model.strained = {spec.strain.on(), spec.strain.tb_onsite,
                         spec.strain.tb_harrison ? BondScaling::harrison : BondScaling::parameters};
  std::vector<std::string> names;
  for (const auto &m : sys->model.materials) names.push_back(m.material);
  PetscCall(Nanostructure::Create(comm, spec.nano, names, sys->lattice, sys->a_nm, &sys->nano));
  if (spec.fields.piezoOn()) PetscCall(LoadFieldParameters(comm, names, spec.fields, &sys->field_parameters));
  PetscCall(CreatePlanePartition(comm, sys->lattice.planes(), spec.partition, &sys->partition));
  PetscFunctionReturn(0);
}

PetscErrorCode BuildStructure(MPI_Comm comm, TightBindingSystem *sys) {
  CrashPhase phase("building the structure");
  PetscFunctionBeginUser;
  PetscCall(Structure::Create(comm, sys->lattice, sys->partition, sys->nano, &sys->structure));
  sys->structure.a_nm = sys->a_nm;
  PetscFunctionReturn(0);
}

PetscErrorCode TightBindingSystemFromOptions(MPI_Comm comm, bool build_structure, TightBindingSystem *sys) {
  SystemSpec spec;
  PetscFunctionBeginUser;
  PetscCall(SystemSpecFromOptions(comm, SystemSpec{}, &spec));
  PetscCall(CreateTightBindingSystem(comm, spec, sys));
  if (build_structure) PetscCall(BuildStructure(comm, sys));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
