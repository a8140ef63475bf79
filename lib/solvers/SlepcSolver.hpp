#pragma once
// Eigenvalues of H with SLEPc. The -eps_* and -st_* options pass through to SLEPc; tbpeta only sets what SLEPc
// cannot know: the problem is Hermitian, and by default the wanted states are those nearest a target energy
// (the host's midgap unless -eps_target is given).
#include <slepceps.h>

#include <algorithm>

#include <vector>

#include "solvers/EigenStates.hpp"

namespace tbpeta {

// Solves for the states of H nearest `default_target` (eV) unless the options say otherwise; with want_vectors the
// unit eigenvectors too (owned by the caller). Collective.
PetscErrorCode SolveWithSlepc(Mat H, double default_target, EigenStates *states, bool want_vectors = false);

// SLEPc's default basis size ncv for nev values: Krylov-Schur's max(2 nev, nev + 15), ARPACK's max(20, 2 nev + 1).
inline PetscInt SlepcDefaultBasis(PetscInt nev, bool arpack) { return arpack ? std::max<PetscInt>(20, 2 * nev + 1) : std::max<PetscInt>(2 * nev, nev + 15); }

// Dense LAPACK (EPSLAPACK, also AllEigenvalues) on more rows than this is refused: it densifies H on every rank
// (16 n^2 bytes) and costs O(n^3) (2,000 rows with vectors: ~40 s here). -dense_max_rows overrides.
inline constexpr PetscInt kDenseMaxRows = 8000;
// Refuses (PETSC_ERR_USER_INPUT, one line) an EPS of type lapack on an H larger than -dense_max_rows. Collective.
PetscErrorCode CheckDenseSize(EPS eps, Mat H);
// PETSC_ERR_USER_INPUT when eps would densify an H that is an operator (-hamiltonian stored_blocks or shell):
// -eps_type lapack. (Shift-and-invert on an operator is refused by CheckSlepcCombination.)
PetscErrorCode CheckEntriesAvailable(EPS eps, Mat H);

// Adds a monitor that stops the solve (PETSC_ERR_SIG, one line naming `what` and the iteration) once SIGINT or
// SIGTERM arrived on any rank (InterruptSignal.hpp). Call after EPSSetFromOptions (-eps_monitor_cancel clears it).
PetscErrorCode StopOnInterrupt(EPS eps, const char *what);

// Every eigenvalue of a small H (dense LAPACK through SLEPc's EPSLAPACK), ascending. Collective.
PetscErrorCode AllEigenvalues(Mat H, std::vector<double> *values);

} // namespace tbpeta
