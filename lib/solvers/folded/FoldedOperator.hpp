#pragma once
// Operators that stand for a function of H, as MatShells on H's communicator and layout (H is referenced, not
// copied), Hermitian, carrying H's numbering and Kramers block (OperatorProperties) and no entries (no
// factorisation); their products of H are counted on H.
//
// F = (H - sigma I)^2: Hermitian positive semi-definite, its smallest eigenvalues belong to the states of H nearest
// sigma (Wang & Zunger 1994). One application is two products of H and one work vector of H's size, freed with F
// (kind "folded").
#include <petscmat.h>

#include "support/PetscHandle.hpp"

namespace tbpeta {

// The context of an operator of H; the shell owns it and deletes it (dropping its reference to H) when destroyed.
struct OperatorOfH {
  OwnedMat H;
  virtual ~OperatorOfH() = default;
};

// The MatShell of `ctx` (which takes a reference to H) with product `mult` (also its Hermitian-transpose product),
// H's vectors, and H's properties under `kind` and `description`. Collective.
PetscErrorCode CreateOperatorOfH(Mat H, OperatorOfH *ctx, PetscErrorCode (*mult)(Mat, Vec, Vec), const char *name,
                                 const char *kind, const char *description, Mat *F);

PetscErrorCode CreateFoldedOperator(Mat H, double sigma, Mat *F);

} // namespace tbpeta
