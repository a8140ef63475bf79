#pragma once
// The spectrum of a periodic bulk cell: H(k) assembled by the same code as any structure, diagonalised densely on
// PETSC_COMM_SELF (eigenvalues by SLEPc's dense solver, eigenpairs by LAPACK heevd). The host's band edges give every
// solver its default target (the midgap).
#include <petscsys.h>

#include <array>
#include <vector>

#include "model/BulkCell.hpp"

namespace tbpeta {

// All eigenvalues of the cell's H(k) (k in 2 pi / a), ascending (SLEPc's EPSLAPACK). Not collective.
PetscErrorCode CellEigenvalues(const BulkCell &cell, std::array<double, 3> k, std::vector<double> *values);
// The same with the eigenvectors (LAPACK heevd; column j of the row-count x row-count column-major array belongs to
// value j). Not collective.
PetscErrorCode CellEigenpairs(const BulkCell &cell, std::array<double, 3> k, std::vector<double> *values,
                              std::vector<PetscScalar> *vectors);

// Valence-band top and conduction-band bottom of one material of a model, from the periodic 8-atom cubic cell at
// Gamma (which holds the fcc Gamma and X points). Every rank computes the same; an error is printed once.
PetscErrorCode BulkBandEdges(const TightBindingModel &model, int material, double *vbm, double *cbm);

} // namespace tbpeta
