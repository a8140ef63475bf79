#include "application/RunOutput.hpp"

#include <cstdio>
#include <map>
#include <vector>

#include "io/OutputPath.hpp"
#include "io/ResultsFile.hpp"
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

const EigenStates &RunResults::states() const {
  static const EigenStates none;
  return states_ ? *states_ : none;
}

std::vector<ResultsPart> RunResults::MakeParts() const {
  std::vector<ResultsPart> parts;
  for (const auto &p : parts_)
    parts.push_back(std::holds_alternative<ResultsPart>(p) ? std::get<ResultsPart>(p)
                                                           : std::get<std::function<ResultsPart()>>(p)());
  return parts;
}

PetscErrorCode WriteRunOutput(MPI_Comm comm, const RunOutputOptions &opts, const RunResults &results) {
  const TightBindingSystem &sys = results.system();
  const EigenStates &states = results.states();
  const EPS eps = results.eps();
  const LogEvents *ev;
  char *all = nullptr;
  PetscFunctionBeginUser;
  if (opts.path.empty()) PetscFunctionReturn(0);
  const AtomTables t = Atoms(sys);
  AtomsForOutput atoms{t.canonical,           t.positions,     t.species,        t.material,
                       sys.structure.total(), t.species_names, t.material_names, {}};
  NamedTexts attributes{{"program", "tbpeta"}};
  NamedValues values;
  std::vector<TableForOutput> tables;
  for (ResultsPart &p : results.MakeParts()) {
    for (AtomGroup &g : p.groups) atoms.groups.push_back(std::move(g));
    for (TableForOutput &table : p.tables) tables.push_back(std::move(table));
    attributes.insert(attributes.end(), p.attributes.begin(), p.attributes.end());
    values.insert(values.end(), p.values.begin(), p.values.end());
  }
  attributes.insert(attributes.end(),
                    {{"parameter_set", sys.model.set}, {"solver", states.solver}, {"energy_unit", "eV"}});
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
  if (const StateBinding *binding = results.binding()) {
    out.dot_fraction = binding->dot_fraction;
    out.bound = binding->bound;
  }
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
  PetscCall(WriteResults(comm, opts.path, out, atoms, options, attributes, values, Solver(states), tables));
  PetscCall(PetscLogEventEnd(ev->output, 0, 0, 0, 0));
  PetscCall(PetscPrintf(comm, "wrote %s and %s\n", opts.path.c_str(), XdmfPath(opts.path).c_str()));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
