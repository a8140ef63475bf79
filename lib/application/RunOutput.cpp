#include "application/RunOutput.hpp"

#include <cstdio>
#include <map>
#include <vector>

#include "io/OutputPath.hpp"
#include "io/XdmfFile.hpp"
#include "solvers/EigenSolve.hpp"
#include "support/LogEvents.hpp"
#include "support/Progress.hpp"
#include "support/CrashReport.hpp"

namespace tbpeta {

PetscErrorCode RunOutputOptionsFromOptions(MPI_Comm comm, RunOutputOptions *opts) {
  char output[PETSC_MAX_PATH_LEN] = "";
  PetscBool has_output = PETSC_FALSE, vectors = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Output", "tbpeta");
  PetscCall(PetscOptionsString("-output",
                               "Write eigenvalues, residuals, densities |psi|^2 per atom, the structure and the "
                               "solver's counters to this HDF5 file (.h5), with FILE.xmf for ParaView; none by default",
                               "tbpeta", output, output, sizeof(output), &has_output));
  // Off by default: the vectors take n x rows x 16 bytes, as much as the solver's own copies of them.
  PetscCall(PetscOptionsBool("-output_vectors",
                             "Also write the eigenvectors (states/vectors: n x rows x 16 bytes) to the -output file",
                             "tbpeta", vectors, &vectors, nullptr));
  PetscOptionsEnd();
  opts->path = has_output ? output : "";
  opts->write_vectors = vectors;
  if (has_output) PetscCall(CheckOutputPath(comm, opts->path));
  PetscFunctionReturn(0);
}

namespace {

// This rank's owned atoms for the file: canonical index, position, species and material.
struct AtomTables {
  std::vector<PetscInt> canonical;
  std::vector<double> positions;
  std::vector<int> species, material;
  std::vector<std::string> species_names, material_names;
};

AtomTables Atoms(const TightBindingSystem &sys) {
  const Structure &s = sys.structure;
  const auto &mats = sys.model.materials;
  AtomTables t;
  std::map<std::string, int> species_index{{mats[0].anion, 0}};
  std::vector<int> cation_species;
  t.species_names = {mats[0].anion};
  for (const auto &m : mats) {
    t.material_names.push_back(m.material);
    if (!species_index.count(m.cation))
      species_index[m.cation] = (int)t.species_names.size(), t.species_names.push_back(m.cation);
    cation_species.push_back(species_index[m.cation]);
  }
  t.canonical = s.canonicalAtoms();
  for (PetscInt i = 0; i < s.owned; ++i) {
    const auto r = s.position(i, sys.a_nm);
    t.positions.insert(t.positions.end(), r.begin(), r.end());
    t.material.push_back(s.material[i]);
    t.species.push_back(s.sublattice(i) == Sublattice::anion ? 0 : cation_species[s.material[i]]);
  }
  return t;
}

// The strain/ group: displacement (N,3) nm, tensor (N,6) Voigt, hydrostatic, biaxial, energy (eV per atom), and
// the relaxation's model, minimiser, iterations, largest force and convergence. `storage` keeps the arrays alive.
AtomGroupForOutput StrainGroup(const TightBindingSystem &sys, const SystemStrain &strain,
                               std::vector<std::vector<double>> *storage) {
  const Structure &s = sys.structure;
  const RelaxationReport &r = strain.report;
  storage->assign(4, {});
  std::vector<double> &u = (*storage)[0], &tensor = (*storage)[1], &hydrostatic = (*storage)[2],
                      &biaxial = (*storage)[3];
  for (PetscInt i = 0; i < s.owned; ++i) {
    const std::array<double, 3> ui = s.displacementOf(i);
    u.insert(u.end(), ui.begin(), ui.end());
    tensor.insert(tensor.end(), strain.tensors[i].begin(), strain.tensors[i].end());
    hydrostatic.push_back(Hydrostatic(strain.tensors[i]));
    biaxial.push_back(Biaxial(strain.tensors[i]));
  }
  AtomGroupForOutput g;
  g.name = "strain";
  g.fields = {{"displacement", 3, u},
              {"tensor", 6, tensor},
              {"hydrostatic", 1, hydrostatic},
              {"biaxial", 1, biaxial},
              {"energy", 1, strain.energy}};
  g.text = {{"model", r.model}, {"minimiser", "SNES " + r.snes_type}, {"converged_reason", r.reason}};
  g.values = {{"iterations", (double)r.iterations},
              {"max_force", r.max_force},
              {"converged", r.converged ? 1.0 : 0.0},
              {"energy_per_atom", r.energyPerAtom()},
              {"seconds", r.seconds}};
  return g;
}

// The composition/ group: per atom, the local fraction x of the regions' materials that its species was drawn with (an
// anion: the mean over its bonded cations) and the region that holds its site (-1: none).
AtomGroupForOutput CompositionGroup(const TightBindingSystem &sys, std::vector<std::vector<double>> *storage) {
  const Structure &s = sys.structure;
  const Nanostructure &nano = sys.nano;
  storage->assign(2, {});
  std::vector<double> &x = (*storage)[0], &region = (*storage)[1];
  for (PetscInt i = 0; i < s.owned; ++i) {
    double xi = 0;
    if (s.sublattice(i) == Sublattice::cation) xi = nano.composition(s.sites[i]);
    else {
      int n = 0;
      for (int b = 0; b < 4; ++b)
        if (s.bonds[i][b] >= 0) xi += nano.composition(s.sites[s.bonds[i][b]]), ++n;
      xi = n ? xi / n : 0;
    }
    x.push_back(xi);
    region.push_back(nano.regionOf(s.sites[i]));
  }
  AtomGroupForOutput g;
  g.name = "composition";
  g.fields = {{"x", 1, x}, {"region", 1, region}};
  g.values = {{"regions", (double)nano.regions().size()},
              {"interdiffusion_length", nano.spec().interdiffusion},
              {"alloy_seed", (double)nano.spec().seed}};
  return g;
}

// The fields/ group: per atom the potential phi (V: piezoelectric + applied; an electron's on-site energy is -e phi)
// and with -piezo the polarisation (C/m^2); the Poisson solve's grid and counters, the field and its origin.
AtomGroupForOutput FieldsGroup(const TightBindingSystem &sys, const SystemFields &f,
                               std::vector<std::vector<double>> *storage) {
  const FieldSpec &spec = sys.spec.fields;
  storage->assign(2, {});
  (*storage)[0].assign(f.potential.begin(), f.potential.end());
  for (const auto &p : f.polarization) (*storage)[1].insert((*storage)[1].end(), p.begin(), p.end());
  AtomGroupForOutput g;
  g.name = "fields";
  g.fields = {{"potential", 1, (*storage)[0]}};
  if (f.piezo) g.fields.push_back({"polarization", 3, (*storage)[1]});
  g.text = {{"piezo", PiezoOrderName(spec.piezo)}, {"piezo_e14", E14ChoiceName(spec.e14)}};
  g.values = {{"efield_x", spec.efield[0]},
              {"efield_y", spec.efield[1]},
              {"efield_z", spec.efield[2]},
              {"efield_origin_x", f.origin[0]},
              {"efield_origin_y", f.origin[1]},
              {"efield_origin_z", f.origin[2]},
              {"seconds", f.seconds}};
  if (f.piezo) {
    g.text.push_back({"poisson_solver", f.poisson.ksp_type + " + " + f.poisson.pc_type});
    g.values.insert(g.values.end(), {{"poisson_nodes", (double)f.poisson.nodes},
                                     {"poisson_spacing_nm", f.poisson.spacing_nm},
                                     {"poisson_iterations", (double)f.poisson.iterations},
                                     {"poisson_seconds", f.poisson.seconds}});
  }
  return g;
}

SolverForOutput Solver(const EigenStates &states) {
  SolverForOutput solver{states.solver,
                         {{"products", (double)states.products},
                          {"iterations", (double)states.iterations},
                          {"requested", (double)states.requested},
                          {"found", (double)states.values.size()},
                          {"complete", states.complete ? 1.0 : 0.0},
                          {"seconds", states.seconds}}};
  if (states.vectors_held >= 0) solver.counters.emplace_back("vectors_held", (double)states.vectors_held);
  if (states.peak_rss_mb >= 0) solver.counters.emplace_back("peak_rss_mb", states.peak_rss_mb);
  return solver;
}

} // namespace

PetscErrorCode WriteRunOutput(MPI_Comm comm, const RunOutputOptions &opts, const TightBindingSystem &sys,
                              const EigenStates &states, EPS eps, double gap_center, const SystemStrain &strain,
                              const SystemFields &fields, std::span<const TableForOutput> tables) {
  std::vector<std::vector<double>> strain_arrays, composition_arrays, field_arrays;
  const LogEvents *ev;
  char *all = nullptr;
  PetscFunctionBeginUser;
  const AtomTables t = Atoms(sys);
  AtomsForOutput atoms{t.canonical,           t.positions,     t.species,        t.material,
                       sys.structure.total(), t.species_names, t.material_names, {}};
  if (strain.report.relaxed) atoms.groups.push_back(StrainGroup(sys, strain, &strain_arrays));
  if (!sys.nano.regions().empty()) atoms.groups.push_back(CompositionGroup(sys, &composition_arrays));
  if (fields.on()) atoms.groups.push_back(FieldsGroup(sys, fields, &field_arrays));
  PetscCall(PetscOptionsGetAll(nullptr, &all));
  const std::string options = all ? all : "";
  PetscCall(PetscFree(all));
  if (opts.write_vectors && (!eps || !states.vectors) && !states.values.empty())
    PetscCall(PetscPrintf(
        comm, "tbpeta: warning: -output_vectors: the solver returned no eigenvectors, so %s has no states/vectors\n",
        opts.path.c_str()));
  StatesForOutput out;
  out.eigenvalues = states.values, out.residuals = states.residuals, out.block_size = sys.model.blockSize(),
  out.write_vectors = opts.write_vectors;
  Progress progress("output");
  CrashPhase phase("writing " + opts.path);
  if (eps && states.vectors)
    out.vector = [&](size_t k, Vec x) -> PetscErrorCode {
      PetscFunctionBeginUser;
      PetscCall(progress.Report("state %zu of %zu", k, states.values.size()));
      PetscCall(StateVector(eps, states, k, x));
      PetscFunctionReturn(0);
    };
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->output, 0, 0, 0, 0));
  PetscCall(WriteResults(comm, opts.path, out, atoms, options,
                         {{"program", "tbpeta"},
                          {"strain", strain.report.relaxed ? strain.report.model : "unstrained"},
                          {"hamiltonian_strain", sys.model.strained.describe()},
                          {"parameter_set", sys.model.set},
                          {"piezo", PiezoOrderName(sys.spec.fields.piezo)},
                          {"piezo_e14", E14ChoiceName(sys.spec.fields.e14)},
                          {"efield", AppliedFieldText(sys.spec.fields.efield)},
                          {"solver", states.solver},
                          {"energy_unit", "eV"}},
                         {{"gap_center", gap_center}}, Solver(states), tables));
  PetscCall(PetscLogEventEnd(ev->output, 0, 0, 0, 0));
  PetscCall(PetscPrintf(comm, "wrote %s and %s\n", opts.path.c_str(), XdmfPath(opts.path).c_str()));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
