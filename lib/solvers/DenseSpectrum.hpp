#pragma once
// Every eigenvalue of a small H by dense LAPACK through SLEPc's EPSLAPACK: the reference that tests compare the
// iterative solvers against.
#include <slepceps.h>

#include <vector>

namespace tbpeta {

// Ascending. Refused (one line) for an operator without entries or more rows than kDenseMaxRows. Collective.
PetscErrorCode AllEigenvalues(Mat H, std::vector<double> *values);

} // namespace tbpeta
