#pragma once
// Products fused with the vector work of a Lanczos step, for operators that apply H atom by atom.
//  - The fused product: in the same sweep over the atoms that computes H x, y = (H - c) x - b p and the local sums of
//    Re x^H y, y^H y and x^H x, each atom's terms in one fixed order.
//  - The lazy product: the same, where x is the next Lanczos vector not yet formed, x = (w - a v) s from the previous
//    step's w and v: the sweep forms each atom's x as it reaches it (in place in w), and a neighbour's x not formed yet
//    on the fly. The previous step's last pass over memory (w = (w - a v) / beta) thus joins the product, and a step
//    reads and writes two vectors once each.
// An operator offers them by composing the functions on its Mat; any other Mat takes the plain path.
#include <petscmat.h>

#include <cmath>
#include <cstddef>
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace tbpeta {

// sums[0..2] += Re x^H y, y^H y, x^H x (this rank's rows); p may be null (b ignored). Collective (the halo).
using FusedLanczosProduct = PetscErrorCode (*)(Mat H, Vec x, Vec p, double b, double c, Vec y, double sums[3]);

// x = (w - a v) s formed in place in w (every owned entry, by LanczosNextEntry), y = (H - c) x - b v, and the sums of
// FusedLanczosProduct with this x. y may be v (each atom's v is read before its y is written). Collective.
using LazyLanczosProduct = PetscErrorCode (*)(Mat H, Vec v, Vec w, double a, double s, double b, double c, Vec y,
                                              double sums[3]);

// One real or imaginary part of the next Lanczos vector, (w - a v) s: one fused multiply-add (correctly rounded, so the
// same bits whether the operator's sweep or the recurrence forms it, whatever the compiler flags), then the scaling.
inline double LanczosNextEntry(double w, double v, double a, double s) { return std::fma(-a, v, w) * s; }

// w[k] = LanczosNextEntry(w[k], v[k], a, s) for k < n: four at a time where the target has vector fused
// multiply-adds (each correctly rounded once, so the same bits as the scalar form; the compiler leaves std::fma
// scalar here).
inline void LanczosNextEntries(std::ptrdiff_t n, double *w, const double *v, double a, double s) {
  std::ptrdiff_t k = 0;
#if defined(__AVX2__) && defined(__FMA__)
  const __m256d ma = _mm256_set1_pd(-a), ms = _mm256_set1_pd(s);
  for (; k + 4 <= n; k += 4)
    _mm256_storeu_pd(w + k, _mm256_mul_pd(_mm256_fmadd_pd(ma, _mm256_loadu_pd(v + k), _mm256_loadu_pd(w + k)), ms));
#endif
  for (; k < n; ++k) w[k] = LanczosNextEntry(w[k], v[k], a, s);
}

// Attaches f to H. Not collective.
PetscErrorCode MatSetFusedLanczosProduct(Mat H, FusedLanczosProduct f);
// The fused product of H, or nullptr. Not collective.
PetscErrorCode MatGetFusedLanczosProduct(Mat H, FusedLanczosProduct *f);
// Attaches f to H. Not collective.
PetscErrorCode MatSetLazyLanczosProduct(Mat H, LazyLanczosProduct f);
// The lazy product of H, or nullptr. Not collective.
PetscErrorCode MatGetLazyLanczosProduct(Mat H, LazyLanczosProduct *f);

} // namespace tbpeta
