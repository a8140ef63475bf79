#pragma once
// The choice of eigen-solver (-solver slepc|folded|lanczos) on one Hamiltonian, and the counters every solver
// reports the same way: states, residuals, products of H, iterations, wall time and peak resident memory (VmHWM,
// reset just before the solve).
#include <petscmat.h>

#include <span>

#include "solvers/EigenStates.hpp"

namespace tbpeta {

// compare: every solver on the same question (SolverComparison.hpp); SolveFromOptions does not take it.
enum class SolverKind { slepc, folded, lanczos, compare };
const char *solverName(SolverKind k);

// Reads -solver slepc|folded|lanczos|compare (default lanczos). One-line PETSC_ERR_USER_INPUT for a name that does not exist.
PetscErrorCode SolverKindFromOptions(MPI_Comm comm, SolverKind *kind);

// Reads every solver's options without solving, so that -help lists them all.
PetscErrorCode ListSolverOptions(MPI_Comm comm, double gap_center);

// The vectors of H's size the chosen solver is expected to hold at its peak, from its options (the Lanczos: 3 +
// the wanted states; SLEPc: its basis ncv + the returned vectors; the folded spectrum: that + one work vector of
// the folded operator; compare: the largest of its runs). An estimate printed before the solve, next to the
// measured count after it. Collective.
PetscErrorCode EstimateVectorsHeld(MPI_Comm comm, SolverKind kind, double gap_center, PetscInt *vectors);

// Solves H with the chosen solver for the states near gap_center (eV, the default target/shift/gap centre).
// canonical_rows: each local row's canonical row (Structure::canonicalRows), for rank-independent start vectors.
// kramers_block: rows per atom when H is time-reversal symmetric with spin (spin-orbit, k = 0), else 0; the Lanczos
// solver then counts each level twice (its Kramers partner).
PetscErrorCode SolveFromOptions(Mat H, SolverKind kind, double gap_center, std::span<const PetscInt> canonical_rows, int kramers_block, bool want_vectors,
                                EigenStates *states);

} // namespace tbpeta
