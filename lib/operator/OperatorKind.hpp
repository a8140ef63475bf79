#pragma once
// A kind of operator for H, as -hamiltonian names it: how to build it, whether it has entries, and what it costs.
// The kinds are registered in OperatorKinds.cpp, one line each; a new kind is one file that defines its
// OperatorKind, plus that line.
#include <petscmat.h>

#include <array>
#include <string>
#include <vector>

#include "geometry/Structure.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

// What the options choose (read by HamiltonianOptionsFromOptions).
struct HamiltonianOptions {
  std::string kind = "aij"; // an OperatorKind's name
  bool block_cache = true;  // -shell_block_cache
};

// This rank's share of H, counted from the structure before anything is built (for the memory estimates).
struct OperatorCounts {
  double owned = 0, halo = 0;    // atoms
  double entries = 0, bonds = 0; // non-zero entries of the owned rows, bonds of owned atoms
  double dangling_atoms = 0;     // owned atoms with a passivated bond
  int rows_per_atom = 0, orbitals = 0;
  bool strained = false; // a strained H: every atom its own diagonal, every bond its own block
};
OperatorCounts CountOperator(const Structure &s, const TightBindingModel &model);

struct OperatorKind {
  const char *name; // -hamiltonian NAME
  bool has_entries; // a PETSc matrix whose entries can be factored or densified
  // A short description for the run's summary, e.g. "stored (aij)".
  std::string (*describe)(const HamiltonianOptions &opts);
  // Builds H at Bloch vector k (2 pi / a); *bytes: the operator's own memory on this rank (0: PETSc's MatGetInfo
  // counts it). Collective.
  PetscErrorCode (*create)(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k,
                           const HamiltonianOptions &opts, Mat *H, double *bytes);
  // The bytes H of this kind will take on this rank.
  double (*estimate_bytes)(const OperatorCounts &c, const HamiltonianOptions &opts);
};

// Every kind, in the order -help lists them.
const std::vector<OperatorKind> &OperatorKinds();
// The kind called `name`, or nullptr.
const OperatorKind *FindOperatorKind(const std::string &name);

} // namespace tbpeta
