#pragma once
// Every eigenvalue of a small H by dense LAPACK (zheev, values only, on a copy of H on every rank): the reference
// that tests compare the iterative solvers against.
#include <petscmat.h>

#include <vector>

namespace tbpeta {

// Ascending, the same on every rank. Refused (one line) for an operator without entries or more rows than
// kDenseMaxRows. Collective.
PetscErrorCode AllEigenvalues(Mat H, std::vector<double> *values);

} // namespace tbpeta
