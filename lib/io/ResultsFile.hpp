#pragma once
// A run's results in one HDF5 file (parallel, MPI-IO, collective on the communicator) and an XDMF file beside it
// (XdmfFile) with which ParaView opens the atoms as a point cloud. Layout of the HDF5 file:
//   /eigenvalues           float64 (n,)     eV, ascending
//   /states/residuals      float64 (n,)     ||Hx - lambda x|| of each state, same order as the eigenvalues
//   /states/density        float64 (n,N)    |psi|^2 summed over the rows of each atom (rows of unit vectors sum to 1);
//                                           whenever the solver returned eigenvectors
//   /states/vectors        float64 (n,R,2)  the eigenvectors (real, imaginary part), R = N * block_size rows in the
//                                           canonical row order (canonical atom * block_size + orbital); on request,
//                                           written by PETSc's HDF5 viewer (VecView, one time step per state)
//   /structure/positions   float64 (N,3)    nm, rows in the canonical (rank-independent) atom order
//   /structure/species     int32   (N,)     attribute `names`: the species names, comma-separated
//   /structure/material    int32   (N,)     attribute `names`: the material names, comma-separated
//   /structure/index       int32   (N,)     0..N-1: the connectivity of the XDMF point cloud
//   /<group>/<field>       float64 (N,) or (N,c)  per-atom fields of the caller (e.g. strain/displacement), canonical
//                                           atom order, with the group's attributes; also node attributes in XDMF
//   /solver                group            attribute `name` (string) and one float64 attribute per counter
//   /<table>/<column>      (rows,)          tables of the caller (e.g. compare/, the comparison of solvers)
//   root attributes        `options` and the caller's key/value pairs (variable-length UTF-8 strings), and the
//                          caller's numeric values (float64, e.g. gap_center)
// Both files are written under temporary names in the same directory and renamed when complete, so a failed or
// interrupted run leaves neither behind.
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
  std::vector<AtomGroupForOutput> groups;     // further per-atom data
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
// variable-length strings.
struct TableColumn {
  std::string name;
  std::variant<std::vector<long long>, std::vector<double>, std::vector<signed char>, std::vector<std::string>> values;
};
struct TableForOutput {
  std::string group;
  std::vector<TableColumn> columns;
};

// Writes PATH and its XDMF file (collective on comm). Strings and numbers other than the per-atom data are taken from
// rank 0. Inconsistent input (sizes, indices out of range, names containing a comma, duplicate or reserved attribute
// or counter names) is refused before anything is created; any failure removes the temporaries (and a file already
// renamed), so neither file is left. One-line PETSc errors.
PetscErrorCode WriteResults(MPI_Comm comm, const std::string &path, const StatesForOutput &states, const AtomsForOutput &atoms, const std::string &options,
                            const std::vector<std::pair<std::string, std::string>> &root_attributes, const NamedValues &root_values = {},
                            const SolverForOutput &solver = {}, std::span<const TableForOutput> tables = {});

} // namespace tbpeta
