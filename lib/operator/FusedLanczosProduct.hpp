#pragma once
// A product fused with the vector work of a Lanczos step, for operators that apply H atom by atom: in the same sweep
// over the atoms that computes H x, y = (H - c) x - b p and the local sums of Re and Im x^H y, y^H y and x^H x, each
// atom's terms in one fixed order. The Lanczos recurrence then needs one more pass over memory per step (w = (w -
// alpha v) / beta) instead of three. An operator offers it by composing the function on its Mat; any other Mat takes
// the plain path.
#include <petscmat.h>

namespace tbpeta {

// sums[0..3] += Re x^H y, Im x^H y, y^H y, x^H x (this rank's rows); p may be null (b ignored). Collective (the halo).
using FusedLanczosProduct = PetscErrorCode (*)(Mat H, Vec x, Vec p, double b, double c, Vec y, double sums[4]);

// Attaches f to H. Not collective.
PetscErrorCode MatSetFusedLanczosProduct(Mat H, FusedLanczosProduct f);
// The fused product of H, or nullptr. Not collective.
PetscErrorCode MatGetFusedLanczosProduct(Mat H, FusedLanczosProduct *f);

} // namespace tbpeta
