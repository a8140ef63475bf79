#pragma once
// Combinations of an eigen-solver and an operator that would silently answer another question, or cannot work,
// refused in one line (PETSC_ERR_USER_INPUT) before the solve:
//  - -eps_type arpack with a target (which = target magnitude, real or imaginary) and an ST other than sinvert or
//    cayley: ARPACK would return the largest eigenvalues, not those nearest the target;
//  - -st_type sinvert or cayley on an operator without entries: shift-and-invert factors H - sigma;
//  - -eps_type lapack on an operator without entries, or on more rows than -dense_max_rows (16 n^2 bytes on every
//    rank, O(n^3) time);
//  - a target that is not a finite energy;
//  - more states (-eps_nev) than H has rows (SLEPc would quietly ask for all of them).
#include <slepceps.h>

namespace tbpeta {

inline constexpr PetscInt kDenseMaxRows = 8000;

struct SolverPolicy {
  PetscInt dense_max_rows = kDenseMaxRows;
};

// Reads -dense_max_rows. Collective.
PetscErrorCode SolverPolicyFromOptions(MPI_Comm comm, SolverPolicy *policy);

// Checks eps (set from options) against the operator A. Collective.
PetscErrorCode CheckEigenSolver(EPS eps, Mat A, const SolverPolicy &policy);

} // namespace tbpeta
