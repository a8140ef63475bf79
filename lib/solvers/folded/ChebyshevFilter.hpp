#pragma once
// F = 1 - p(H) / p(sigma), p a damped Chebyshev filter centred on sigma, as a MatShell on H's communicator and
// layout (H is referenced, not copied): p is the degree-d Chebyshev expansion of a delta function at sigma with the
// Jackson damping (Weisse, Wellein, Alvermann & Fehske, Rev. Mod. Phys. 78, 275 (2006), Eq. 71), whose kernel is
// positive, so 0 <= p <= p(sigma) up to rounding and F's spectrum lies in [0, 1]; the smallest eigenvalues of F belong
// to the states of H nearest sigma (a peak of width about pi w / d, w the half-width of H's spectrum). One
// application is d products of H (counted on H) and three work vectors. H's spectrum is mapped to [-1, 1] through
// bounds from a short Lanczos run (SpectrumBoundsEstimate). F carries H's numbering and Kramers block
// (OperatorProperties, kind "chebyshev_filter"); it has no entries.
#include <petscmat.h>

namespace tbpeta {

struct ChebyshevFilterSpec {
  double sigma = 0;      // the centre (eV)
  PetscInt degree = 20;  // d >= 2
  double lo = 0, hi = 0; // an interval holding H's spectrum (eV)
};

// The Jackson-damped coefficients c_0..c_d of p in the Chebyshev basis of the interval, normalised so that p(sigma)
// = 1.
void ChebyshevFilterCoefficients(const ChebyshevFilterSpec &spec, double *coefficients);
// p(x) of the filter for an energy x inside the interval (the scalar the operator applies to H's eigenvalue x).
double ChebyshevFilterValue(const ChebyshevFilterSpec &spec, double x);
PetscErrorCode CreateChebyshevFilterOperator(Mat H, const ChebyshevFilterSpec &spec, Mat *F);

} // namespace tbpeta
