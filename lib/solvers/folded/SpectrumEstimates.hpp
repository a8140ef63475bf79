#pragma once
// Cheap estimates of an operator's spectrum that the folded operators need: the largest eigenvalue of F >= 0 (power
// iterations) and an interval holding the whole spectrum of a Hermitian H (a short Lanczos run). Both start from a
// vector fixed by the operator's canonical rows, so their results do not depend on the rank count (to rounding).
#include <petscmat.h>

namespace tbpeta {

// About the largest eigenvalue of F >= 0: the Rayleigh quotient after `steps` power iterations (from below).
PetscErrorCode LargestEigenvalueEstimate(Mat F, PetscInt steps, double *rho);
// [lo, hi] around the spectrum of the Hermitian H: the extreme eigenvalues of the tridiagonal of `steps` Lanczos steps
// (no reorthogonalisation: extreme Ritz values converge first), widened by the last off-diagonal element and by
// `margin` times the width. `steps` products of H.
PetscErrorCode SpectrumBoundsEstimate(Mat H, PetscInt steps, double margin, double *lo, double *hi);

} // namespace tbpeta
