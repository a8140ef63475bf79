#pragma once
// What a caller hands to WriteResults (ResultsFile.hpp): this rank's atoms and their per-atom groups, the states, the
// solver and tables. The atoms and states are views (spans, a callback for the vectors), so nothing large is copied
// before it is checked; the groups and tables own their arrays (support/ResultsPart.hpp).
#include <petscvec.h>

#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "support/ResultsPart.hpp"

namespace tbpeta {

// This rank's OWNED atoms only (no rank holds the whole structure).
struct AtomsForOutput {
  std::span<const PetscInt> canonical_index; // position of each owned atom in the canonical order (0..total_atoms-1)
  std::span<const double> positions_nm;      // 3 per atom (x,y,z in nm)
  std::span<const int> species;              // index into species_names
  std::span<const int> material;             // index into material_names
  PetscInt total_atoms = 0;                  // over all ranks
  std::vector<std::string> species_names, material_names;
  std::vector<AtomGroup> groups; // further per-atom data, in AtomsForOutput order
};

// The states. Eigenvalues and residuals are rank 0's (identical on every rank); the writer sorts the eigenvalues and
// keeps residuals, densities and vectors in step with them. The eigenvectors are read one at a time: vector(k, x)
// fills x (local rows: the owned atoms in AtomsForOutput order, block_size rows each) with state k's unit vector; it is
// called on every rank alike (collective) and its error ends the writing (no file is left).
struct StatesForOutput {
  std::span<const double> eigenvalues;
  std::span<const double> residuals;
  std::span<const double> dot_fraction;              // empty: not written; else one per state (states/dot_fraction)
  std::span<const signed char> bound;                // empty: not written; else one per state, 0 or 1 (states/bound)
  std::function<PetscErrorCode(size_t, Vec)> vector; // empty: no eigenvectors (no density either)
  PetscInt block_size = 0;
  bool write_vectors = false; // also write states/vectors (n x rows x 16 bytes)
};

// The solver of the run: group solver/ (written when name or counters are given).
struct SolverForOutput {
  std::string name;     // e.g. "krylovschur + sinvert"
  NamedValues counters; // e.g. {"products", 412}, {"seconds", 1.5}
};

} // namespace tbpeta
