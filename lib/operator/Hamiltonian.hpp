#pragma once
// Which operator stands for H, chosen at run time (-hamiltonian NAME, one of the registered OperatorKinds):
//   aij, baij      a PETSc matrix with its entries (MatrixHamiltonian): the only kinds that can be factored
//                  (shift-and-invert) or densified (dense LAPACK);
//   stored_blocks  tbpeta's operator with one stored real block per bond (BlockHamiltonian);
//   shell          tbpeta's operator that recomputes H in every product from the distinct blocks
//                  (-shell_block_cache 1) or from the Slater-Koster integrals (-shell_block_cache 0);
//   a kind a program registers itself (RegisterOperatorKind).
// Each kind reads options of its own (OperatorKind::from_options), carried in HamiltonianOptions::settings.
// All have the same rows, partition and numbering, so every solver that needs only products runs on any of them.
// The Mat carries what it is (OperatorProperties): solvers ask it instead of guessing from the Mat type.
#include <petscmat.h>

#include <array>
#include <string>

#include "geometry/Structure.hpp"
#include "model/TightBindingModel.hpp"
#include "operator/OperatorKind.hpp"
#include "operator/OperatorProperties.hpp"

namespace tbpeta {

// Reads -hamiltonian (a registered kind; default aij), then every kind's own options (-help lists them all; the
// chosen kind's settings are kept); one-line PETSC_ERR_USER_INPUT for a value that does not exist, or an option of
// another kind than the chosen one. Collective.
PetscErrorCode HamiltonianOptionsFromOptions(MPI_Comm comm, HamiltonianOptions *opts);

// The options of kind `kind` with its own options given as on the command line (e.g. "shell", "-shell_block_cache 0"),
// read and checked as HamiltonianOptionsFromOptions does, from these options alone: for programs and tests that choose
// H in code. Not collective.
PetscErrorCode HamiltonianOptionsOf(const std::string &kind, const std::string &options, HamiltonianOptions *opts);

// A short description, e.g. "stored (aij)", "shell (on the fly, block cache)".
std::string HamiltonianDescription(const HamiltonianOptions &opts);

// The rows per atom of time reversal Θ when H at Bloch vector k is time-reversal symmetric with spin (spin-orbit,
// k time-reversal invariant on the lattice): every level is a Kramers pair. 0 otherwise. Known before H is built.
PetscInt KramersBlock(const TightBindingModel &model, const ZincblendeLattice &lattice, std::array<double, 3> k);

// The OperatorProperties H of these options will carry, known before it is built: its kind, description, whether it
// has entries, rows per atom, Kramers block and rows. CreateHamiltonian attaches exactly these, with what only the
// built Mat knows (the canonical numbering, the stored entries, the bytes); solvers that estimate before H exists
// (TbEPSEstimateVectors) read the same. PETSC_ERR_ARG_WRONG for a kind that is not registered. Not collective.
PetscErrorCode PlannedOperatorProperties(MPI_Comm comm, const TightBindingModel &model,
                                         const ZincblendeLattice &lattice, std::array<double, 3> k,
                                         const HamiltonianOptions &opts, OperatorProperties *planned);

// Builds H of the chosen kind at Bloch vector k (2 pi / a) with its OperatorProperties (kind, entries, rows per atom,
// Kramers block when the lattice and k are time-reversal symmetric with spin-orbit, canonical numbering, size,
// counted products), and checks it finite with one product H 1 (two vectors of H's size, freed again): a row that
// is not finite is a one-line error naming its atom and orbital. check_finite = false skips the check
// (bench_operators measures the operator alone). Shown in -log_view as TbAssembly. Collective.
PetscErrorCode CreateHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                                 std::array<double, 3> k, const HamiltonianOptions &opts, Mat *H,
                                 bool check_finite = true);

// The bytes H of this kind will take on this rank (stored entries and indices, blocks, the operator's arrays and
// halo buffers, what it copies of the structure): from this rank's counts (CountOperator, before anything is built),
// or counted from a built structure. 0 for a kind that is not registered. Local (no communication).
double EstimateHamiltonianBytes(const OperatorCounts &counts, const HamiltonianOptions &opts);
double EstimateHamiltonianBytes(const Structure &s, const TightBindingModel &model, const HamiltonianOptions &opts);

} // namespace tbpeta
