#include "solvers/lanczos/TridiagonalAnalysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

extern "C" {
// LAPACK: eigenvalues of a real symmetric tridiagonal matrix by bisection, and eigenvectors by inverse iteration.
void dstebz_(const char *range, const char *order, const PetscBLASInt *n, const double *vl, const double *vu,
             const PetscBLASInt *il, const PetscBLASInt *iu, const double *abstol, const double *d, const double *e,
             PetscBLASInt *m, PetscBLASInt *nsplit, double *w, PetscBLASInt *iblock, PetscBLASInt *isplit, double *work,
             PetscBLASInt *iwork, PetscBLASInt *info, size_t range_len, size_t order_len);
void dstein_(const PetscBLASInt *n, const double *d, const double *e, const PetscBLASInt *m, const double *w,
             const PetscBLASInt *iblock, const PetscBLASInt *isplit, double *z, const PetscBLASInt *ldz, double *work,
             PetscBLASInt *iwork, PetscBLASInt *ifail, PetscBLASInt *info);
}

namespace tbpeta::lanczos {

namespace {

// ---------------------------------------------------------------------------------------------------------------
// The tridiagonal T_m: diagonal d[0..m), off-diagonal e[0..m-1).

// Number of eigenvalues of T smaller than x (Sturm count of the LDL^T pivots).
int SturmCount(const double *d, const double *e, int m, double x) {
  const double tiny = std::numeric_limits<double>::min() * 1e10;
  int count = 0;
  double q = d[0] - x;
  if (q < 0) ++count;
  for (int j = 1; j < m; ++j) {
    if (std::fabs(q) < tiny) q = -tiny;
    q = d[j] - x - e[j - 1] * e[j - 1] / q;
    if (q < 0) ++count;
  }
  return count;
}

struct TridiagEigs {
  std::vector<double> w; // ascending
  std::vector<PetscBLASInt> iblock, isplit;
};

// Eigenvalues with 1-based indices [il, iu] (range 'I') or inside (vl, vu] (range 'V').
PetscErrorCode Eigenvalues(const double *d, const double *e, int m, char range, double vl, double vu, int il, int iu,
                           TridiagEigs *out) {
  PetscFunctionBeginUser;
  out->w.assign(m, 0);
  out->iblock.assign(m, 0);
  out->isplit.assign(m, 0);
  if (m == 0) {
    out->w.clear();
    PetscFunctionReturn(0);
  }
  std::vector<double> work(4 * (size_t)m);
  std::vector<PetscBLASInt> iwork(3 * (size_t)m);
  PetscBLASInt n = m, bil = il, biu = iu, found = 0, nsplit = 0, info = 0;
  const double abstol = 0;
  const char order = 'E';
  dstebz_(&range, &order, &n, &vl, &vu, &bil, &biu, &abstol, d, e, &found, &nsplit, out->w.data(), out->iblock.data(),
          out->isplit.data(), work.data(), iwork.data(), &info, 1, 1);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dstebz failed on the Lanczos tridiagonal (info %d)",
             (int)info);
  out->w.resize(found);
  out->iblock.resize(found);
  PetscFunctionReturn(0);
}

// Eigenvectors of T for the values of `eigs` (column k: z[k * m .. (k+1) * m)); failed[k] when inverse iteration did
// not converge.
PetscErrorCode Eigenvectors(const double *d, const double *e, int m, const TridiagEigs &eigs, std::vector<double> *z,
                            std::vector<bool> *failed) {
  PetscFunctionBeginUser;
  const PetscBLASInt n = m, k = (PetscBLASInt)eigs.w.size(), ldz = std::max(1, m);
  z->assign((size_t)m * std::max<PetscBLASInt>(k, 1), 0);
  failed->assign(k, false);
  if (k == 0) PetscFunctionReturn(0);
  std::vector<double> work(5 * (size_t)m);
  std::vector<PetscBLASInt> iwork(m), ifail(k);
  PetscBLASInt info = 0;
  dstein_(&n, d, e, &k, eigs.w.data(), eigs.iblock.data(), eigs.isplit.data(), z->data(), &ldz, work.data(),
          iwork.data(), ifail.data(), &info);
  PetscCheck(info >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dstein failed on the Lanczos tridiagonal (info %d)",
             (int)info);
  for (PetscBLASInt i = 0; i < info; ++i) (*failed)[ifail[i] - 1] = true;
  PetscFunctionReturn(0);
}

// The distinct values of T_m met by walking its spectrum one index at a time. A cluster of copies (values within
// eq) costs one bisection and two Sturm counts, however many copies it has, so a check costs O(m) per distinct
// level examined and not O(m) per copy: on a long run over a degenerate spectrum the copies outnumber the levels.
class SpectrumWalker {
public:
  SpectrumWalker(const std::vector<double> &alpha, const std::vector<double> &beta, double tol, double rows)
      : m_((int)alpha.size()), d_(alpha.data()), e_(beta.data() + 1), bnext_(beta[m_]),
        reached_(kStartWeightFloor / rows) {
    double scale = 0;
    for (int j = 0; j < m_; ++j) scale = std::max(scale, std::fabs(d_[j]) + beta[j] + (j + 1 < m_ ? beta[j + 1] : 0.0));
    scale_ = std::max(scale, std::numeric_limits<double>::min());
    eq_ = CopyTolerance(scale_);
    ctol_ = tol * scale_;
  }
  int size() const { return m_; }
  double scale() const { return scale_; }
  double eq() const { return eq_; }
  double ctol() const {
    return ctol_;
  } // a kept value has converged when its error is at most this (any tol, see LevelResolution)
  int below(double x) const { return SturmCount(d_, e_, m_, x); } // values < x

  // The cluster containing the value of 1-based index i: [*first, *last] (1-based), and its level; *ghost when it
  // is a simple value that is also a value of T^ (Cullum-Willoughby) and the start vector has no weight in it.
  PetscErrorCode Examine(int i, int *first, int *last, bool *ghost, Level *level) {
    TridiagEigs t;
    PetscFunctionBeginUser;
    PetscCall(Eigenvalues(d_, e_, m_, 'I', 0, 0, i, i, &t));
    PetscCheck(t.w.size() == 1, PETSC_COMM_SELF, PETSC_ERR_LIB,
               "LAPACK dstebz returned no value of index %d of the Lanczos tridiagonal", i);
    const double w = t.w[0];
    *first = std::min(i, below(w - eq_) + 1);
    *last = std::max(i, below(w + eq_));
    level->value = w;
    *ghost = false;
    if (*last > *first) {
      // A copy of a value appears only after it has converged (Paige): T-multiple values are converged; the last
      // components of copies' eigenvectors say nothing (their Ritz vectors are not normalised).
      level->error = 0;
      level->converged = true;
      PetscFunctionReturn(0);
    }
    const bool in_hat =
        m_ > 1 && SturmCount(d_ + 1, e_ + 1, m_ - 1, w + eq_) - SturmCount(d_ + 1, e_ + 1, m_ - 1, w - eq_) > 0;
    std::vector<double> z;
    std::vector<bool> failed;
    PetscCall(Eigenvectors(d_, e_, m_, t, &z, &failed));
    // T^ is the surrogate for a first component too small to compute. A value that the start vector reaches is
    // genuine even when T^ has a value within eq: two levels closer than a few eq (a fourfold level of the
    // double group split by a box that is not quite symmetric, 4.5e-10 eV at N = 2e7) have T^'s interlacing value
    // between them, within eq of both.
    level->reached = !failed[0] && z[0] * z[0] >= reached_;
    *ghost = in_hat && !level->reached;
    if (*ghost) PetscFunctionReturn(0);
    level->error = failed[0] ? std::numeric_limits<double>::infinity() : bnext_ * std::fabs(z[m_ - 1]);
    level->converged = level->error <= ctol_;
    PetscFunctionReturn(0);
  }

private:
  int m_;
  const double *d_, *e_;
  double bnext_, reached_, scale_, eq_, ctol_;
};

// The wanted levels of T_m (ghosts removed, copies merged) and whether the run may stop on them.
} // namespace

PetscErrorCode AnalyseT(const std::vector<double> &alpha, const std::vector<double> &beta, const Wanted &want,
                        double tol, Check *out) {
  PetscFunctionBeginUser;
  PetscCheck(want.rows >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "AnalyseT needs the rows of H (Wanted::rows), got %g", want.rows);
  SpectrumWalker t(alpha, beta, tol, want.rows);
  const int m = t.size();
  const double ctol = t.ctol();
  out->scale = t.scale();
  out->wanted.clear();
  out->spurious = 0;
  out->copies = 0;
  // Walks from index i in direction dir (+1/-1) collecting up to `count` levels while `inside(value)`. Without
  // reorthogonalisation an unconverged value may never converge: a value in a gap of H's spectrum wanders there
  // (its polynomial has a root in the gap), and a converged level keeps growing further copies, each an
  // unconverged value on its way. An unconverged value with a converged level within its own error bound is no
  // evidence of another eigenvalue (the bound is explained by that level), so it is not a level; otherwise it
  // would stand in the wanted list for ever (e.g. next to a dense valence band). A genuine level near a converged
  // one counts again once its bound has shrunk below their distance. Except when the start vector reaches it and it
  // lies within what convergence tells apart (tol * scale) of the converged level: then it is that level's partner,
  // not yet converged (a fourfold level split by less than the tolerance), and the run must wait for it. Dropped,
  // the pass stopped with the next level in its place whenever rounding let the partner converge a check later
  // (10^6-atom dot: 0.17258275 eV returned for the second pair of 0.17539769, 4.5e-10 eV from the first).
  auto walk = [&](int i, int dir, int count, auto inside, std::vector<Level> *kept) -> PetscErrorCode {
    std::vector<Level> seq; // kept values in walk order
    int converged = 0;
    const long long limit = 4LL * count + 8; // values examined, to find the converged levels beyond the wanted ones
    PetscFunctionBeginUser;
    while (i >= 1 && i <= m && converged < count && (long long)seq.size() < limit) {
      int first, last;
      bool ghost;
      Level l;
      PetscCall(t.Examine(i, &first, &last, &ghost, &l));
      if (!inside(l.value)) break;
      if (ghost) {
        ++out->spurious;
      } else {
        seq.push_back(l);
        converged += l.converged;
        out->copies += last - first;
      }
      i = dir > 0 ? last + 1 : first - 1;
    }
    for (const Level &l : seq) {
      if ((int)kept->size() >= count) break;
      bool explained = false;
      if (!l.converged)
        for (const Level &c : seq) {
          const double d = std::fabs(c.value - l.value);
          explained = explained || (c.converged && d <= l.error && !(l.reached && d <= ctol));
        }
      if (explained) ++out->copies;
      else kept->push_back(l);
    }
    PetscFunctionReturn(0);
  };
  const auto any = [](double) { return true; };
  if (want.window_set) {
    const int start = t.below(want.window[0]); // values < a: the last of them is the neighbour below
    std::vector<Level> lo, in, hi;
    PetscCall(walk(start, -1, 1, any, &lo));
    PetscCall(walk(
        start + 1, +1, std::numeric_limits<int>::max(), [&](double x) { return x <= want.window[1]; }, &in));
    int next = start + 1;
    for (const Level &l : in) next = std::max(next, t.below(l.value + t.eq()) + 1);
    PetscCall(walk(next, +1, 1, any, &hi));
    // `in` may have stopped at a value above b: that is the neighbour above
    out->wanted = in;
    out->neighbours_converged = (lo.empty() || lo[0].converged) && (hi.empty() || hi[0].converged);
  } else {
    const int n0 = t.below(want.gap_center);
    std::vector<Level> below, above;
    PetscCall(walk(n0, -1, want.levels_v, any, &below));
    PetscCall(walk(n0 + 1, +1, want.levels_c, any, &above));
    out->wanted.assign(below.rbegin(), below.rend());
    out->wanted.insert(out->wanted.end(), above.begin(), above.end());
    out->neighbours_converged = (int)below.size() == want.levels_v && (int)above.size() == want.levels_c;
  }
  PetscFunctionReturn(0);
}

// The eigenvector s of T_m for `value`: the nearest value of T not within `same` of one in `taken`, and of its
// copies (within `same` of it) the best converged, the one with the smallest last component.
PetscErrorCode RitzCoefficients(const std::vector<double> &alpha, const std::vector<double> &beta, int m, double value,
                                double same, const std::vector<double> &taken, std::vector<double> *s, double *chosen) {
  PetscFunctionBeginUser;
  const double *d = alpha.data(), *e = beta.data() + 1;
  const int c = SturmCount(d, e, m, value);
  const int spread = 3 + (int)taken.size(); // enough values on each side to pass over the taken ones
  TridiagEigs t;
  std::vector<double> z;
  std::vector<bool> failed;
  PetscCall(Eigenvalues(d, e, m, 'I', 0, 0, std::max(1, c - spread), std::min(m, c + spread + 1), &t));
  PetscCall(Eigenvectors(d, e, m, t, &z, &failed));
  const auto free = [&](int i) {
    if (failed[i]) return false;
    for (double x : taken)
      if (std::fabs(t.w[i] - x) <= same) return false;
    return true;
  };
  int nearest = -1, pick = -1;
  for (int i = 0; i < (int)t.w.size(); ++i)
    if (free(i) && (nearest < 0 || std::fabs(t.w[i] - value) < std::fabs(t.w[nearest] - value))) nearest = i;
  PetscCheck(nearest >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "no eigenvector of the Lanczos tridiagonal for %g eV",
             value);
  for (int i = 0; i < (int)t.w.size(); ++i) // the best converged copy of the nearest
    if (free(i) && std::fabs(t.w[i] - t.w[nearest]) <= same &&
        (pick < 0 || std::fabs(z[(size_t)i * m + m - 1]) < std::fabs(z[(size_t)pick * m + m - 1])))
      pick = i;
  s->assign(z.begin() + (size_t)pick * m, z.begin() + (size_t)(pick + 1) * m);
  *chosen = t.w[pick];
  PetscFunctionReturn(0);
}

// The squared weight of the start vector in the eigenspace of T_m at `value`: the sum of the squared first
// components of T's eigenvectors for all copies within `near` (the projection of v_0 on the eigenspace, whatever
// the number of copies the lost orthogonality has made of it).
PetscErrorCode StartWeight(const std::vector<double> &alpha, const std::vector<double> &beta, int m, double value,
                           double near, double *weight) {
  PetscFunctionBeginUser;
  const double *d = alpha.data(), *e = beta.data() + 1;
  const int lo = SturmCount(d, e, m, value - near), hi = SturmCount(d, e, m, value + near);
  *weight = 0;
  if (hi <= lo) PetscFunctionReturn(0);
  TridiagEigs t;
  std::vector<double> z;
  std::vector<bool> failed;
  PetscCall(Eigenvalues(d, e, m, 'I', 0, 0, lo + 1, hi, &t));
  PetscCall(Eigenvectors(d, e, m, t, &z, &failed));
  for (int i = 0; i < (int)t.w.size(); ++i)
    if (!failed[i]) *weight += z[(size_t)i * m] * z[(size_t)i * m];
  PetscFunctionReturn(0);
}

double LogChristoffel(const std::vector<double> &alpha, const std::vector<double> &beta, int m, double x) {
  // The polynomials grow geometrically where x lies in a gap of the measure: they are kept divided by exp(log_scale),
  // and the sum with them.
  double prev = 0, cur = 1, sum = 1, log_scale = 0;
  for (int j = 0; j < m && beta[j + 1] > 0; ++j) {
    const double next = ((x - alpha[j]) * cur - beta[j] * prev) / beta[j + 1];
    prev = cur;
    cur = next;
    sum += cur * cur;
    if (std::fabs(cur) > 1e100) {
      prev *= 1e-100;
      cur *= 1e-100;
      sum *= 1e-200;
      log_scale += 100 * std::log(10.0);
    }
  }
  return -(std::log(sum) + 2 * log_scale);
}

} // namespace tbpeta::lanczos
