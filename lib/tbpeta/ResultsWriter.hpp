#pragma once
// Writing a run's results to one HDF5 file (MPI-IO, collective on the communicator). Layout of the file:
//   /eigenvalues           float64 (n,)   eV, ascending
//   /structure/positions   float64 (N,3)  nm, rows in the canonical (rank-independent) atom order
//   /structure/species     int32   (N,)   attribute `names`: the species names, comma-separated
//   /structure/material    int32   (N,)   attribute `names`: the material names, comma-separated
//   root attributes        `options` and the caller's key/value pairs, all variable-length UTF-8 strings
// The file is written under a temporary name in the same directory and renamed when complete, so a failed run
// leaves no (partial) file behind.
#include <petscsys.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tbpeta {

// This rank's OWNED atoms only (no rank holds the whole structure).
struct AtomsForOutput {
  std::span<const PetscInt> canonical_index; // position of each owned atom in the canonical, rank-independent order (0..total_atoms-1)
  std::span<const double> positions_nm;      // 3 per atom (x,y,z in nm)
  std::span<const int> species;              // index into species_names
  std::span<const int> material;             // index into material_names
  PetscInt total_atoms = 0;                  // over all ranks
  std::vector<std::string> species_names, material_names;
};

// Fails with PETSC_ERR_USER_INPUT and a one-line message "-output PATH: ..." when the path's directory does not
// exist or is not writable, or PATH is a directory, or PATH does not end in .h5. Collective (rank 0 tests, the
// result is broadcast). Called before any work so that a bad path is refused up front.
PetscErrorCode CheckOutputPath(MPI_Comm comm, const std::string &path);

// Writes PATH (collective on comm):
//  - dataset `eigenvalues`: rank 0's values, sorted ascending (the values are identical on every rank);
//  - group `structure` with `positions`, `species` and `material`, each rank writing the rows of its owned atoms;
//  - root string attributes `options` and every key/value of root_attributes.
// Strings (options, attributes, species and material names) are taken from rank 0. The file is written to
// PATH + ".tmp-<random>", closed, then renamed to PATH by rank 0 (replacing an existing PATH); on any failure the
// temporary is removed and no file is left. Inconsistent input (sizes, indices out of range, names containing a
// comma, duplicate or reserved attribute names) is refused before anything is created.
PetscErrorCode WriteResults(MPI_Comm comm, const std::string &path, std::span<const double> eigenvalues,
                            const AtomsForOutput &atoms, const std::string &options,
                            const std::vector<std::pair<std::string, std::string>> &root_attributes);

} // namespace tbpeta
