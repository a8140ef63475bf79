#pragma once
// The tight-binding Hamiltonian as a stored, distributed PETSc matrix. Each rank computes only the rows of its
// own atoms from the Slater-Koster blocks: on-site energies (an anion takes the average over its bonded cations'
// materials, NEMO 3-D's convention), spin-orbit, dangling-bond passivation on open faces, and the bond blocks with
// the Bloch phase exp(i k.T) on bonds that wrap around a periodic face. The cation rows use the exact conjugate
// transpose of the anion rows' numbers, so H is Hermitian to the last bit.
//  - MATMPIAIJ (default): exact zeros (a zero integral, or zero by symmetry for the bond direction) are not stored;
//    built straight into CSR arrays that the matrix uses without a copy.
//  - MATMPIBAIJ: one dense block per atom pair (block size = rows per atom), for comparison.
#include <petscmat.h>

#include <array>

#include "geometry/Structure.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

enum class MatrixFormat { aij, baij };

struct HamiltonianInfo {
  PetscInt rows = 0;          // global
  double nonzeros = 0;        // global stored entries (BAIJ: whole blocks); may exceed a 32-bit PetscInt
  double bytes = 0;           // global bytes of the stored matrix (values + indices)
  int block_size = 0;         // rows per atom
};

// Reads -mat_type aij|baij (default aij).
PetscErrorCode MatrixFormatFromOptions(MPI_Comm comm, MatrixFormat *format);

// Builds H for the structure at Bloch vector k (units of 2 pi / a; only wrapped bonds carry a phase). Collective.
PetscErrorCode AssembleHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k, MatrixFormat format, Mat *H,
                                   HamiltonianInfo *info);

// Wraps H's product so that each y = Hx is counted and shows in -log_view as TbProduct (done by every builder of H).
PetscErrorCode CountProducts(Mat H);

// Products y = Hx done with H so far (every solver's product counter reads it before and after its solve).
PetscErrorCode HamiltonianProductCount(Mat H, PetscInt *count);

} // namespace tbpeta
