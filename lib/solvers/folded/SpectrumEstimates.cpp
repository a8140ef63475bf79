#include "solvers/folded/SpectrumEstimates.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "operator/OperatorProperties.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

namespace {

// A unit vector from the golden-ratio sequence in (-1/2, 1/2) over the canonical rows: spread over every eigenvector,
// the same on any number of ranks.
PetscErrorCode SpreadUnitVector(Mat A, Vec x) {
  PetscScalar *a;
  PetscInt n, rstart;
  const OperatorProperties *numbering;
  PetscFunctionBeginUser;
  PetscCall(OperatorGetProperties(A, &numbering));
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetOwnershipRange(x, &rstart, nullptr));
  PetscCall(VecGetArray(x, &a));
  ForEachCanonicalRow(numbering, n, rstart, [&](PetscInt i, PetscInt canonical_row) {
    const double row = (double)canonical_row;
    a[i] = row * 0.6180339887498949 - std::floor(row * 0.6180339887498949) - 0.5;
  });
  PetscCall(VecRestoreArray(x, &a));
  PetscCall(VecNormalize(x, nullptr));
  PetscFunctionReturn(0);
}

// The number of eigenvalues below x of the symmetric tridiagonal (alpha, beta) (Sturm sequence).
int CountBelow(const std::vector<double> &alpha, const std::vector<double> &beta, double x) {
  int count = 0;
  double d = 1;
  for (size_t i = 0; i < alpha.size(); ++i) {
    const double b2 = i ? beta[i - 1] * beta[i - 1] : 0.0;
    d = alpha[i] - x - (i ? b2 / d : 0.0);
    if (d == 0) d = -1e-300;
    count += d < 0;
  }
  return count;
}

// The k-th smallest eigenvalue (0-based) of the tridiagonal in [lo, hi], by bisection.
double TridiagonalEigenvalue(const std::vector<double> &alpha, const std::vector<double> &beta, int k, double lo,
                             double hi) {
  for (int it = 0; it < 200 && hi - lo > 1e-13 * std::max(1.0, std::fabs(lo) + std::fabs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    (CountBelow(alpha, beta, mid) > k ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

} // namespace

PetscErrorCode LargestEigenvalueEstimate(Mat F, PetscInt steps, double *rho) {
  OwnedVec x, y;
  PetscScalar rq = 0;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(F, x.out(), y.out()));
  PetscCall(SpreadUnitVector(F, x));
  for (PetscInt k = 0; k < steps; ++k) {
    PetscCall(MatMult(F, x, y));
    PetscCall(VecDot(y, x, &rq)); // x^H F x
    PetscCall(VecNormalize(y, nullptr));
    std::swap(x, y);
  }
  *rho = std::max(PetscRealPart(rq), 0.0);
  PetscFunctionReturn(0);
}

PetscErrorCode SpectrumBoundsEstimate(Mat H, PetscInt steps, double margin, double *lo, double *hi) {
  OwnedVec v, w, prev;
  PetscScalar a;
  PetscReal b = 0;
  std::vector<double> alpha, beta;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(H, v.out(), w.out()));
  PetscCall(VecDuplicate(v, prev.out()));
  PetscCall(SpreadUnitVector(H, v));
  PetscCall(VecZeroEntries(prev));
  for (PetscInt j = 0; j < steps; ++j) {
    PetscCall(MatMult(H, v, w));
    PetscCall(VecAXPY(w, -b, prev)); // w = Hv - beta_{j-1} v_{j-1}
    PetscCall(VecDot(w, v, &a));
    PetscCall(VecAXPY(w, -PetscRealPart(a), v));
    PetscCall(VecNorm(w, NORM_2, &b));
    alpha.push_back(PetscRealPart(a));
    if (b == 0) break; // an invariant subspace: its values are exact
    beta.push_back(b);
    std::swap(prev, v);
    PetscCall(VecCopy(w, v));
    PetscCall(VecScale(v, 1.0 / b));
  }
  if (beta.size() == alpha.size()) beta.pop_back(); // the last beta couples to the next step, not inside T
  double bound = 0;                                 // Gershgorin: every eigenvalue of T in [-bound, bound]
  for (size_t i = 0; i < alpha.size(); ++i)
    bound = std::max(bound, std::fabs(alpha[i]) + (i ? beta[i - 1] : 0.0) + (i < beta.size() ? beta[i] : 0.0));
  const double low = TridiagonalEigenvalue(alpha, beta, 0, -bound, bound);
  const double high = TridiagonalEigenvalue(alpha, beta, (int)alpha.size() - 1, -bound, bound);
  const double widen = b + margin * (high - low);
  *lo = low - widen;
  *hi = high + widen;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
