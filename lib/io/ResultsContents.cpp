// The contents of a results file, gathered and checked before anything is written (ResultsContents.hpp).
#include "io/ResultsContents.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>

#include "support/CollectiveError.hpp"

namespace tbpeta {
namespace {

std::string Join(const std::vector<std::string> &names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) s += (i ? "," : "") + names[i];
  return s;
}

// A group's or table's name: a plain HDF5 name that is none of the file's own groups and not given twice.
std::string GroupNameProblem(const std::string &name, std::set<std::string> *taken) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name.find(',') != std::string::npos)
    return "WriteResults: group name '" + name + "' is empty or contains '/' or ','";
  if (!taken->insert(name).second)
    return "WriteResults: group '" + name + "' is given twice or is one of the file's own";
  return "";
}

// The caller's per-atom groups in file order (order[k]: the caller's index of file row k).
std::pair<PetscErrorCode, std::string> PrepareGroups(const AtomsForOutput &atoms, const std::vector<std::size_t> &order,
                                                     ResultsContents *d) {
  std::set<std::string> taken{"eigenvalues", "states", "structure", "solver"};
  for (const AtomGroup &g : atoms.groups) {
    if (std::string problem = GroupNameProblem(g.name, &taken); !problem.empty()) return {PETSC_ERR_ARG_WRONG, problem};
    ResultsContents::Group pg{{g.name, {}, g.values, g.text}, {}};
    std::set<std::string> names;
    for (const AtomField &f : g.fields) {
      const std::size_t c = f.components;
      if (f.name.empty() || f.name.find('/') != std::string::npos || !names.insert(f.name).second)
        return {PETSC_ERR_ARG_WRONG, "WriteResults: " + g.name + "/" + f.name + ": empty, containing '/' or twice"};
      if (f.components < 1 || f.values.size() != c * order.size())
        return {PETSC_ERR_ARG_SIZ, "WriteResults: " + g.name + "/" + f.name + ": " + std::to_string(f.values.size()) +
                                       " values for " + std::to_string(order.size()) + " owned atoms x " +
                                       std::to_string(f.components)};
      std::vector<double> v(c * order.size());
      for (std::size_t k = 0; k < order.size(); ++k)
        for (std::size_t j = 0; j < c; ++j) v[c * k + j] = f.values[c * order[k] + j];
      pg.meta.fields.push_back({f.name, f.components, {}});
      pg.data.push_back(std::move(v));
    }
    d->groups.push_back(std::move(pg));
  }
  return {0, ""};
}

// Checks this rank's atoms and puts them in file order. Returns (code, message); an empty message when all is well.
std::pair<PetscErrorCode, std::string> Prepare(const AtomsForOutput &atoms,
                                               const std::vector<std::string> &species_names,
                                               const std::vector<std::string> &material_names, ResultsContents *d) {
  const std::size_t n = atoms.canonical_index.size();
  if (atoms.total_atoms < 0)
    return {PETSC_ERR_ARG_OUTOFRANGE,
            "WriteResults: total_atoms is negative (" + std::to_string(atoms.total_atoms) + ")"};
  if (atoms.positions_nm.size() != 3 * n)
    return {PETSC_ERR_ARG_SIZ, "WriteResults: " + std::to_string(n) + " owned atoms but " +
                                   std::to_string(atoms.positions_nm.size()) +
                                   " position values (3 per atom expected)"};
  if (atoms.species.size() != n)
    return {PETSC_ERR_ARG_SIZ, "WriteResults: " + std::to_string(n) + " owned atoms but " +
                                   std::to_string(atoms.species.size()) + " species values"};
  if (atoms.material.size() != n)
    return {PETSC_ERR_ARG_SIZ, "WriteResults: " + std::to_string(n) + " owned atoms but " +
                                   std::to_string(atoms.material.size()) + " material values"};

  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return atoms.canonical_index[a] < atoms.canonical_index[b]; });
  d->sel.rows.resize(n);
  d->positions.resize(3 * n);
  d->species.resize(n);
  d->material.resize(n);
  d->index.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order[k];
    const PetscInt idx = atoms.canonical_index[i];
    if (idx < 0 || idx >= atoms.total_atoms)
      return {PETSC_ERR_ARG_OUTOFRANGE, "WriteResults: canonical index " + std::to_string(idx) + " is outside 0.." +
                                            std::to_string(atoms.total_atoms - 1)};
    if (k && d->sel.rows[k - 1] == static_cast<hsize_t>(idx))
      return {PETSC_ERR_ARG_WRONG, "WriteResults: canonical index " + std::to_string(idx) + " is given twice"};
    if (atoms.species[i] < 0 || static_cast<std::size_t>(atoms.species[i]) >= species_names.size())
      return {PETSC_ERR_ARG_OUTOFRANGE, "WriteResults: species " + std::to_string(atoms.species[i]) + " of atom " +
                                            std::to_string(idx) + " is not an index into the " +
                                            std::to_string(species_names.size()) + " species names"};
    if (atoms.material[i] < 0 || static_cast<std::size_t>(atoms.material[i]) >= material_names.size())
      return {PETSC_ERR_ARG_OUTOFRANGE, "WriteResults: material " + std::to_string(atoms.material[i]) + " of atom " +
                                            std::to_string(idx) + " is not an index into the " +
                                            std::to_string(material_names.size()) + " material names"};
    d->sel.rows[k] = static_cast<hsize_t>(idx);
    for (int c = 0; c < 3; ++c) d->positions[3 * k + c] = atoms.positions_nm[3 * i + c];
    d->species[k] = static_cast<int32_t>(atoms.species[i]);
    d->material[k] = static_cast<int32_t>(atoms.material[i]);
    d->index[k] = static_cast<int32_t>(idx);
    if (k && d->sel.rows[k - 1] + 1 == d->sel.rows[k]) d->sel.runs.back().second++;
    else d->sel.runs.emplace_back(d->sel.rows[k], 1);
  }
  d->total_atoms = static_cast<hsize_t>(atoms.total_atoms);
  return PrepareGroups(atoms, order, d);
}

// The same on every rank (all strings come from rank 0).
std::pair<PetscErrorCode, std::string> CheckNames(const std::vector<std::string> &species_names,
                                                  const std::vector<std::string> &material_names,
                                                  const ResultsContents &d) {
  for (const auto *names : {&species_names, &material_names})
    for (const auto &name : *names)
      if (name.empty() || name.find(',') != std::string::npos)
        return {PETSC_ERR_ARG_WRONG, "WriteResults: " + std::string(names == &species_names ? "species" : "material") +
                                         " name '" + name + "' is empty or contains a comma"};
  std::set<std::string> keys{"options"};
  std::vector<std::string> all;
  for (const auto &[key, value] : d.attributes) all.push_back(key);
  for (const auto &[key, value] : d.values) all.push_back(key);
  for (const auto &key : all) {
    if (key.empty()) return {PETSC_ERR_ARG_WRONG, "WriteResults: a root attribute has an empty name"};
    if (!keys.insert(key).second)
      return {PETSC_ERR_ARG_WRONG, "WriteResults: root attribute '" + key + "' is given twice or is reserved"};
  }
  std::set<std::string> counters{"name"};
  for (const auto &[key, value] : d.solver.counters) {
    if (key.empty()) return {PETSC_ERR_ARG_WRONG, "WriteResults: a solver counter has an empty name"};
    if (!counters.insert(key).second)
      return {PETSC_ERR_ARG_WRONG, "WriteResults: solver counter '" + key + "' is given twice or is reserved"};
  }
  return {0, ""};
}

// Rank 0's strings, numbers, eigenvalues (sorted ascending, NaNs last) and tables on every rank, and their checks.
PetscErrorCode PrepareMetadata(MPI_Comm comm, const StatesForOutput &states, const AtomsForOutput &atoms,
                               const std::string &options,
                               const std::vector<std::pair<std::string, std::string>> &root_attributes,
                               const NamedValues &root_values, const SolverForOutput &solver,
                               std::span<const TableForOutput> tables, ResultsContents *d) {
  PetscMPIInt rank;
  std::vector<std::string> species_names = atoms.species_names, material_names = atoms.material_names;
  std::string problem, table_problem;
  unsigned long long n_eigenvalues = states.eigenvalues.size();
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  d->options = options, d->attributes = root_attributes, d->values = root_values, d->solver = solver;
  PetscCall(BcastString(comm, d->options));
  PetscCall(BcastStrings(comm, species_names));
  PetscCall(BcastStrings(comm, material_names));
  PetscCall(BcastPairs(comm, d->attributes));
  PetscCall(BcastPairs(comm, d->values));
  PetscCall(BcastString(comm, d->solver.name));
  PetscCall(BcastPairs(comm, d->solver.counters));
  d->has_solver = !d->solver.name.empty() || !d->solver.counters.empty();
  PetscCallMPI(MPI_Bcast(&n_eigenvalues, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  d->n_eigenvalues = n_eigenvalues;
  d->order.resize(n_eigenvalues);
  int present[2] = {!states.dot_fraction.empty(), !states.bound.empty()}; // rank 0's
  PetscCallMPI(MPI_Bcast(present, 2, MPI_INT, 0, comm));
  d->has_dot_fraction = present[0] && n_eigenvalues;
  d->has_bound = present[1] && n_eigenvalues;
  if (rank == 0) {
    const size_t n = states.eigenvalues.size();
    if (states.residuals.size() != n)
      problem = "WriteResults: " + std::to_string(states.residuals.size()) + " residuals for " + std::to_string(n) +
                " eigenvalues";
    else if (!states.dot_fraction.empty() && states.dot_fraction.size() != n)
      problem = "WriteResults: " + std::to_string(states.dot_fraction.size()) + " dot fractions for " +
                std::to_string(n) + " eigenvalues";
    else if (!states.bound.empty() && states.bound.size() != n)
      problem = "WriteResults: " + std::to_string(states.bound.size()) + " bound flags for " + std::to_string(n) +
                " eigenvalues";
    else {
      std::iota(d->order.begin(), d->order.end(), 0ULL);
      std::stable_sort(d->order.begin(), d->order.end(), [&](auto a, auto b) {
        return std::isnan(states.eigenvalues[b]) ? !std::isnan(states.eigenvalues[a])
                                                 : states.eigenvalues[a] < states.eigenvalues[b];
      });
      for (auto k : d->order) {
        d->eigenvalues.push_back(states.eigenvalues[k]), d->residuals.push_back(states.residuals[k]);
        if (!states.dot_fraction.empty()) d->dot_fraction.push_back(states.dot_fraction[k]);
        if (!states.bound.empty()) d->bound.push_back(states.bound[k]);
      }
    }
    d->tables.assign(tables.begin(), tables.end());
    std::set<std::string> taken{"eigenvalues", "states", "structure", "solver"};
    for (const AtomGroup &g : atoms.groups) taken.insert(g.name);
    for (const TableForOutput &t : tables)
      if (table_problem.empty()) table_problem = GroupNameProblem(t.group, &taken);
  }
  PetscCall(AgreeOnError(comm, PETSC_ERR_ARG_SIZ, problem));
  PetscCall(AgreeOnError(comm, PETSC_ERR_ARG_WRONG, table_problem));
  if (n_eigenvalues)
    PetscCallMPI(MPI_Bcast(d->order.data(), static_cast<PetscMPIInt>(n_eigenvalues), MPI_UNSIGNED_LONG_LONG, 0, comm));
  auto [code, message] = CheckNames(species_names, material_names, *d);
  PetscCheck(message.empty(), comm, code, "%s", OneLine(message).c_str());
  d->species_names = Join(species_names), d->material_names = Join(material_names);
  auto [acode, amessage] = Prepare(atoms, species_names, material_names, d);
  PetscCall(AgreeOnError(comm, acode, amessage));
  PetscFunctionReturn(0);
}

// Every rank agrees on the atom counts and on whether the states come with vectors.
PetscErrorCode CheckCounts(MPI_Comm comm, const StatesForOutput &states, const AtomsForOutput &atoms,
                           ResultsContents *d) {
  PetscMPIInt size;
  unsigned long long counts[3] = {d->sel.rows.size(), static_cast<unsigned long long>(atoms.total_atoms),
                                  states.vector ? 1ULL : 0ULL},
                     sum[3], max[3];
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Allreduce(counts, sum, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm));
  PetscCallMPI(MPI_Allreduce(counts, max, 3, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm));
  PetscCheck(max[1] * static_cast<unsigned long long>(size) == sum[1], comm, PETSC_ERR_ARG_WRONG,
             "WriteResults: total_atoms differs between ranks");
  PetscCheck(sum[0] == max[1], comm, PETSC_ERR_ARG_WRONG,
             "WriteResults: the ranks own %llu atoms in all but total_atoms is %llu", sum[0], max[1]);
  PetscCheck(sum[2] == 0 || sum[2] == static_cast<unsigned long long>(size), comm, PETSC_ERR_ARG_WRONG,
             "WriteResults: vectors are given on %llu of %d ranks", sum[2], size);
  PetscCheck(!states.vector || states.block_size >= 1, comm, PETSC_ERR_ARG_WRONG,
             "WriteResults: block_size %" PetscInt_FMT " is not positive", states.block_size);
  d->has_vectors = states.vector && d->n_eigenvalues > 0;
  d->write_vectors = d->has_vectors && states.write_vectors;
  d->block_size = states.block_size;
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode GatherResultsContents(MPI_Comm comm, const StatesForOutput &states, const AtomsForOutput &atoms,
                                     const std::string &options,
                                     const std::vector<std::pair<std::string, std::string>> &root_attributes,
                                     const NamedValues &root_values, const SolverForOutput &solver,
                                     std::span<const TableForOutput> tables, ResultsContents *d) {
  PetscFunctionBeginUser;
  PetscCall(PrepareMetadata(comm, states, atoms, options, root_attributes, root_values, solver, tables, d));
  PetscCall(CheckCounts(comm, states, atoms, d));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
