#pragma once
// What a caller hands to WriteResults (ResultsFile.hpp): this rank's atoms and their per-atom groups, the states, the
// solver and tables. Views (spans, a callback for the vectors), so nothing is copied before it is checked.
#include <petscvec.h>

#include <functional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tbpeta {

// Named numbers: solver counters, numeric root attributes.
using NamedValues = std::vector<std::pair<std::string, double>>;

// A per-atom field: `components` numbers per owned atom, in AtomsForOutput order (1: dataset (N,), else (N,c)).
struct AtomField {
  std::string name;
  int components = 1;
  std::span<const double> values;
};
// A group of per-atom fields with its attributes (e.g. strain/).
struct AtomGroupForOutput {
  std::string name;
  std::vector<AtomField> fields;
  NamedValues values;                                    // float64 attributes
  std::vector<std::pair<std::string, std::string>> text; // string attributes
};

// This rank's OWNED atoms only (no rank holds the whole structure).
struct AtomsForOutput {
  std::span<const PetscInt> canonical_index; // position of each owned atom in the canonical order (0..total_atoms-1)
  std::span<const double> positions_nm;      // 3 per atom (x,y,z in nm)
  std::span<const int> species;              // index into species_names
  std::span<const int> material;             // index into material_names
  PetscInt total_atoms = 0;                  // over all ranks
  std::vector<std::string> species_names, material_names;
  std::vector<AtomGroupForOutput> groups; // further per-atom data
};

// The states. Eigenvalues and residuals are rank 0's (identical on every rank); the writer sorts the eigenvalues and
// keeps residuals, densities and vectors in step with them. The eigenvectors are read one at a time: vector(k, x)
// fills x (local rows: the owned atoms in AtomsForOutput order, block_size rows each) with state k's unit vector; it is
// called on every rank alike (collective) and its error ends the writing (no file is left).
struct StatesForOutput {
  std::span<const double> eigenvalues;
  std::span<const double> residuals;
  std::function<PetscErrorCode(size_t, Vec)> vector; // empty: no eigenvectors (no density either)
  PetscInt block_size = 0;
  bool write_vectors = false; // also write states/vectors (n x rows x 16 bytes)
};

// The solver of the run: group solver/ (written when name or counters are given).
struct SolverForOutput {
  std::string name;     // e.g. "krylovschur + sinvert"
  NamedValues counters; // e.g. {"products", 412}, {"seconds", 1.5}
};

// A table of one entry per row (rank 0's): group `group` with one dataset per column, int64, float64, int8 or
// variable-length strings; a column of numbers may hold several values per row (width).
struct TableColumn {
  std::string name;
  std::variant<std::vector<long long>, std::vector<double>, std::vector<signed char>, std::vector<std::string>> values;
  size_t width = 0; // numbers only: 0, a dataset (rows,); w > 0, (rows, w) from row-major values
};
struct TableForOutput {
  std::string group;
  std::vector<TableColumn> columns;
};

} // namespace tbpeta
