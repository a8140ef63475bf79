#pragma once
// The contents of a results file (ResultsFile.hpp), gathered and validated on every rank before anything is created:
// rank 0's strings, numbers and tables, the eigenvalues in ascending order, this rank's atoms in file order, and the
// counts every rank must agree on. A problem raises the same one-line error on every rank.
#include <hdf5.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "io/Hdf5File.hpp"
#include "io/ResultsForOutput.hpp"

namespace tbpeta {

// The data to write, validated and in file order.
struct ResultsContents {
  std::string path;                                 // final name (for messages)
  std::string h5_name;                              // its last component (the XDMF file refers to it)
  std::vector<double> eigenvalues, residuals;       // sorted; rank 0 only
  std::vector<double> dot_fraction;                 // sorted; rank 0 only
  std::vector<signed char> bound;                   // sorted; rank 0 only
  bool has_dot_fraction = false, has_bound = false; // on every rank
  std::vector<unsigned long long> order;            // file position -> caller's index of each state
  hsize_t n_eigenvalues = 0, total_atoms = 0;
  RowSelection sel;              // owned canonical indices, ascending
  std::vector<double> positions; // 3 per row, in `sel.rows` order
  std::vector<int32_t> species, material, index;
  std::string options, species_names, material_names;
  std::vector<std::pair<std::string, std::string>> attributes;
  NamedValues values; // numeric root attributes
  bool has_vectors = false, write_vectors = false, has_solver = false;
  PetscInt block_size = 0;
  SolverForOutput solver;
  std::vector<TableForOutput> tables; // rank 0 only
  struct Group {
    AtomGroup meta;                        // names and attributes (its fields without their values)
    std::vector<std::vector<double>> data; // per field, in `sel.rows` order
  };
  std::vector<Group> groups;
};

// Fills *d from the caller's states, atoms and metadata (collective). d->path and d->h5_name are the caller's.
PetscErrorCode GatherResultsContents(MPI_Comm comm, const StatesForOutput &states, const AtomsForOutput &atoms,
                                     const std::string &options,
                                     const std::vector<std::pair<std::string, std::string>> &root_attributes,
                                     const NamedValues &root_values, const SolverForOutput &solver,
                                     std::span<const TableForOutput> tables, ResultsContents *d);

} // namespace tbpeta
