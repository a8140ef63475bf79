#pragma once
// Writing a run's results to one HDF5 file (MPI-IO, collective on the communicator) and an XDMF file beside it
// (FILE.xmf for FILE.h5) with which ParaView opens the atoms as a point cloud. Layout of the HDF5 file:
//   /eigenvalues           float64 (n,)     eV, ascending
//   /states/residuals      float64 (n,)     ||Hx - lambda x|| of each state, same order as the eigenvalues
//   /states/density        float64 (n,N)    |psi|^2 summed over the rows of each atom (rows of unit vectors sum to 1);
//                                           only when eigenvectors are given
//   /states/vectors        float64 (n,R,2)  the eigenvectors (real, imaginary part), R = N * block_size rows in the
//                                           canonical row order (canonical atom * block_size + orbital); on request
//   /structure/positions   float64 (N,3)    nm, rows in the canonical (rank-independent) atom order
//   /structure/species     int32   (N,)     attribute `names`: the species names, comma-separated
//   /structure/material    int32   (N,)     attribute `names`: the material names, comma-separated
//   /structure/index       int32   (N,)     0..N-1: the connectivity of the XDMF point cloud
//   /solver                group            attribute `name` (string) and one float64 attribute per counter
//   /compare/<column>      (rows,)          one entry per compared solver (see ComparisonRow); only when given
//   root attributes        `options` and the caller's key/value pairs (variable-length UTF-8 strings), and the
//                          caller's numeric values (float64, e.g. gap_center)
// Both files are written under temporary names in the same directory and renamed when complete, so a failed run
// leaves neither behind.
#include <petscvec.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "study/SolverComparison.hpp"

namespace tbpeta {

// Named numbers: solver counters, numeric root attributes.
using NamedValues = std::vector<std::pair<std::string, double>>;

// This rank's OWNED atoms only (no rank holds the whole structure).
struct AtomsForOutput {
  std::span<const PetscInt> canonical_index; // position of each owned atom in the canonical, rank-independent order (0..total_atoms-1)
  std::span<const double> positions_nm;      // 3 per atom (x,y,z in nm)
  std::span<const int> species;              // index into species_names
  std::span<const int> material;             // index into material_names
  PetscInt total_atoms = 0;                  // over all ranks
  std::vector<std::string> species_names, material_names;
};

// The states. Eigenvalues and residuals are rank 0's (they are identical on every rank); the writer sorts the
// eigenvalues and keeps residuals, densities and vectors in step with them.
struct StatesForOutput {
  std::span<const double> eigenvalues; // eV
  std::span<const double> residuals;   // one per eigenvalue
  std::span<const Vec> vectors;        // none, or one per eigenvalue: local rows = the owned atoms in AtomsForOutput order, block_size rows each
  PetscInt block_size = 0;             // rows per atom of the vectors
  bool write_vectors = false;          // also write states/vectors (n x rows x 16 bytes); ignored without vectors
};

// The solver of the run: group solver/ (written when name or counters are given). Solvers add their own counters.
struct SolverForOutput {
  std::string name;     // e.g. "krylovschur + sinvert"
  NamedValues counters; // e.g. {"products", 412}, {"seconds", 1.5}
};

// Fails with PETSC_ERR_USER_INPUT and a one-line message "-output PATH: ..." when the path's directory does not
// exist or is not writable, or PATH (or the XDMF file beside it) is a directory, or PATH does not end in .h5.
// Collective (rank 0 tests, the result is broadcast). Called before any work so that a bad path is refused up front.
PetscErrorCode CheckOutputPath(MPI_Comm comm, const std::string &path);

// The XDMF file written beside an HDF5 file: FILE.h5 -> FILE.xmf (any other name gets .xmf appended).
std::string XdmfPath(const std::string &h5_path);

// Writes PATH and its XDMF file (collective on comm):
//  - dataset `eigenvalues` and group `states`: rank 0's values sorted ascending, residuals in the same order;
//    densities and (with write_vectors) vectors, each rank contributing its atoms;
//  - group `structure` with `positions`, `species`, `material` and `index`, each rank writing the rows of its owned
//    atoms;
//  - root string attributes `options` and every key/value of root_attributes, float64 attributes root_values;
//  - group `solver`, and group `compare` when compare is not empty (rank 0's rows).
// Strings and numbers other than the per-atom data are taken from rank 0. The files are written to
// PATH + ".tmp-<random>" and XdmfPath(PATH) + ".tmp-<random>", closed, then renamed by rank 0 (replacing existing
// files); on any failure the temporaries (and a file already renamed) are removed and neither file is left.
// Inconsistent input (sizes, indices out of range, vectors of the wrong size, names containing a comma, duplicate or
// reserved attribute or counter names) is refused before anything is created.
PetscErrorCode WriteResults(MPI_Comm comm, const std::string &path, const StatesForOutput &states, const AtomsForOutput &atoms, const std::string &options,
                            const std::vector<std::pair<std::string, std::string>> &root_attributes, const NamedValues &root_values = {},
                            const SolverForOutput &solver = {}, std::span<const ComparisonRow> compare = {});

} // namespace tbpeta
