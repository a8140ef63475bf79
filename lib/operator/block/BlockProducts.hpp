#pragma once
// The block operator's products, each one sweep over the owned atoms (interior atoms while the halo arrives, then
// the boundary ones, in a fixed order whatever the ranks): y = H x (MATOP_MULT), the product fused with a Lanczos
// step's first vector pass, and the lazy product that also forms the step's next vector (FusedLanczosProduct.hpp);
// and H's norms. Compiled with the product kernels' flags.
#include <petscmat.h>

namespace tbpeta::block {

PetscErrorCode MultBlockOperator(Mat H, Vec x, Vec y);
PetscErrorCode FusedMultBlockOperator(Mat H, Vec x, Vec p, double b, double c, Vec y, double sums[3]);
PetscErrorCode LazyMultBlockOperator(Mat H, Vec v, Vec w, double a, double s, double b, double c, Vec y,
                                     double sums[3]);
// MATOP_NORM: NORM_1, NORM_INFINITY (equal: H is Hermitian) and NORM_FROBENIUS, exact. Collective.
PetscErrorCode NormBlockOperator(Mat H, NormType type, PetscReal *norm);

} // namespace tbpeta::block
