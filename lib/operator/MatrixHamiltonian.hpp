#pragma once
// The tight-binding Hamiltonian as a distributed PETSc matrix with its entries (-hamiltonian aij|baij). Each rank
// computes only the rows of its own atoms from the blocks of HamiltonianBlocks; the cation rows use the exact
// conjugate transpose of the anion rows' numbers, so H is Hermitian to the last bit.
//  - MATMPIAIJ (aij, default): exact zeros (a zero integral, or zero by symmetry for the bond direction) are not
//    stored; built straight into CSR arrays that the matrix uses without a copy.
//  - MATMPIBAIJ (baij): one dense block per atom pair (block size = rows per atom), for comparison.
#include <petscmat.h>

#include <array>

#include "geometry/Structure.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

enum class MatrixFormat { aij, baij };

// H at Bloch vector k (units of 2 pi / a; only wrapped bonds carry a phase), MAT_HERMITIAN set. Collective;
// PETSC_ERR_USER_INPUT when a rank's entries exceed the indices of this PETSc build.
PetscErrorCode AssembleMatrixHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                                         std::array<double, 3> k, MatrixFormat format, Mat *H);

} // namespace tbpeta
