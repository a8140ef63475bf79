#pragma once
// Which operator stands for H, chosen at run time: the stored PETSc matrix (-hamiltonian stored, -mat_type aij|baij),
// tbpeta's stored bond blocks (-hamiltonian stored_blocks) or the on-the-fly operator (-hamiltonian shell, with
// -shell_block_cache 0|1). All have the same rows, partition and numbering, so every solver that needs only
// products runs on any of them; a solver that needs the matrix's entries (shift-and-invert, dense LAPACK) asks
// HamiltonianIsStored and refuses the others in one line.
#include <petscmat.h>

#include <array>

#include "operator/BlockHamiltonian.hpp"
#include "operator/StoredHamiltonian.hpp"

namespace tbpeta {

enum class HamiltonianKind { stored, stored_blocks, shell };
const char *HamiltonianKindName(HamiltonianKind kind);

struct HamiltonianOptions {
  HamiltonianKind kind = HamiltonianKind::stored;
  MatrixFormat format = MatrixFormat::aij; // the stored kind's
  bool block_cache = true;                 // the shell's
};

// Reads -hamiltonian stored|stored_blocks|shell (default stored), -mat_type aij|baij (default aij; only with
// stored) and -shell_block_cache (default 1; only with shell); one-line PETSC_ERR_USER_INPUT for a value that does
// not exist or an option that does not apply to the chosen kind. Collective.
PetscErrorCode HamiltonianOptionsFromOptions(MPI_Comm comm, HamiltonianOptions *opts);

// A short description, e.g. "stored (aij)", "shell (block cache)".
std::string HamiltonianDescription(const HamiltonianOptions &opts);

// Builds H of the chosen kind and checks it finite with one product H 1 (two vectors of H's size, freed again): a
// row that is not finite is a one-line error naming its atom and orbital. check_finite = false skips the check
// (bench_operators, which measures the operator alone). Collective.
PetscErrorCode CreateHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k, const HamiltonianOptions &opts, Mat *H,
                                 HamiltonianInfo *info, bool check_finite = true);

// The bytes H of this kind will take on this rank (stored entries and indices, blocks, the operator's arrays and
// halo buffers), counted from the structure before building it; the application prints it next to the measured
// peak. Local (no communication).
double EstimateHamiltonianBytes(const Structure &s, const TightBindingModel &model, const HamiltonianOptions &opts);

// Whether H is a PETSc matrix with its entries (it can be factored or densified), not an operator.
PetscErrorCode HamiltonianIsStored(Mat H, bool *stored);

} // namespace tbpeta
