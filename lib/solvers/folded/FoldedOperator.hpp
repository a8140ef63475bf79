#pragma once
// F = (H - sigma I)^2 as a MatShell on H's communicator and layout (H is referenced, not copied): Hermitian positive
// semi-definite, its smallest eigenvalues belong to the states of H nearest sigma (Wang & Zunger 1994). One
// application is two products of H (counted on H) and one work vector of H's size, freed with F. F carries H's
// numbering and Kramers block (OperatorProperties, kind "folded"); it has no entries (no factorisation).
#include <petscmat.h>

namespace tbpeta {

PetscErrorCode CreateFoldedOperator(Mat H, double sigma, Mat *F);

} // namespace tbpeta
