#include "solvers/LanczosSolver.hpp"
#include "support/InterruptSignal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include <unistd.h>

#include "support/LogEvents.hpp"

extern "C" {
// LAPACK: eigenvalues of a real symmetric tridiagonal matrix by bisection, and eigenvectors by inverse iteration.
void dstebz_(const char *range, const char *order, const PetscBLASInt *n, const double *vl, const double *vu, const PetscBLASInt *il, const PetscBLASInt *iu,
             const double *abstol, const double *d, const double *e, PetscBLASInt *m, PetscBLASInt *nsplit, double *w, PetscBLASInt *iblock, PetscBLASInt *isplit,
             double *work, PetscBLASInt *iwork, PetscBLASInt *info, size_t range_len, size_t order_len);
void dstein_(const PetscBLASInt *n, const double *d, const double *e, const PetscBLASInt *m, const double *w, const PetscBLASInt *iblock, const PetscBLASInt *isplit,
             double *z, const PetscBLASInt *ldz, double *work, PetscBLASInt *iwork, PetscBLASInt *ifail, PetscBLASInt *info);
}

namespace tbpeta {

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
  std::vector<double> w;           // ascending
  std::vector<PetscBLASInt> iblock, isplit;
};

// Eigenvalues with 1-based indices [il, iu] (range 'I') or inside (vl, vu] (range 'V').
PetscErrorCode Eigenvalues(const double *d, const double *e, int m, char range, double vl, double vu, int il, int iu, TridiagEigs *out) {
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
  dstebz_(&range, &order, &n, &vl, &vu, &bil, &biu, &abstol, d, e, &found, &nsplit, out->w.data(), out->iblock.data(), out->isplit.data(), work.data(), iwork.data(),
          &info, 1, 1);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dstebz failed on the Lanczos tridiagonal (info %d)", (int)info);
  out->w.resize(found);
  out->iblock.resize(found);
  PetscFunctionReturn(0);
}

// Eigenvectors of T for the values of `eigs` (column k: z[k * m .. (k+1) * m)); failed[k] when inverse iteration did
// not converge.
PetscErrorCode Eigenvectors(const double *d, const double *e, int m, const TridiagEigs &eigs, std::vector<double> *z, std::vector<bool> *failed) {
  PetscFunctionBeginUser;
  const PetscBLASInt n = m, k = (PetscBLASInt)eigs.w.size(), ldz = std::max(1, m);
  z->assign((size_t)m * std::max<PetscBLASInt>(k, 1), 0);
  failed->assign(k, false);
  if (k == 0) PetscFunctionReturn(0);
  std::vector<double> work(5 * (size_t)m);
  std::vector<PetscBLASInt> iwork(m), ifail(k);
  PetscBLASInt info = 0;
  dstein_(&n, d, e, &k, eigs.w.data(), eigs.iblock.data(), eigs.isplit.data(), z->data(), &ldz, work.data(), iwork.data(), ifail.data(), &info);
  PetscCheck(info >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dstein failed on the Lanczos tridiagonal (info %d)", (int)info);
  for (PetscBLASInt i = 0; i < info; ++i) (*failed)[ifail[i] - 1] = true;
  PetscFunctionReturn(0);
}

// ---------------------------------------------------------------------------------------------------------------
// One convergence check on T_m.

struct Level {
  double value = 0;
  double error = 0; // beta_{m+1} |s_m| (0 for a value with copies)
  bool converged = false;
};

struct Check {
  double scale = 0;
  std::vector<Level> wanted; // ascending
  bool neighbours_converged = true;
  PetscInt spurious = 0, copies = 0;
};

// What one pass wants: nev mode (levels below/above a gap centre) or a window.
struct Wanted {
  bool window_set = false;
  double window[2] = {0, 0};
  double gap_center = 0;
  int levels_v = 0, levels_c = 0;
};

// The distinct values of T_m met by walking its spectrum one index at a time. A cluster of copies (values within
// eq) costs one bisection and two Sturm counts, however many copies it has, so a check costs O(m) per distinct
// level examined and not O(m) per copy: on a long run over a degenerate spectrum the copies outnumber the levels.
class SpectrumWalker {
public:
  SpectrumWalker(const std::vector<double> &alpha, const std::vector<double> &beta, double tol) : m_((int)alpha.size()), d_(alpha.data()), e_(beta.data() + 1), bnext_(beta[m_]) {
    double scale = 0;
    for (int j = 0; j < m_; ++j) scale = std::max(scale, std::fabs(d_[j]) + beta[j] + (j + 1 < m_ ? beta[j + 1] : 0.0));
    scale_ = std::max(scale, std::numeric_limits<double>::min());
    eq_ = kLanczosCopyTolerance * scale_, ctol_ = tol * scale_;
  }
  int size() const { return m_; }
  double scale() const { return scale_; }
  double eq() const { return eq_; }
  int below(double x) const { return SturmCount(d_, e_, m_, x); } // values < x

  // The cluster containing the value of 1-based index i: [*first, *last] (1-based), and its level; *ghost when it
  // is a simple value that is also a value of T^ (Cullum-Willoughby).
  PetscErrorCode Examine(int i, int *first, int *last, bool *ghost, Level *level) {
    TridiagEigs t;
    PetscFunctionBeginUser;
    PetscCall(Eigenvalues(d_, e_, m_, 'I', 0, 0, i, i, &t));
    PetscCheck(t.w.size() == 1, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dstebz returned no value of index %d of the Lanczos tridiagonal", i);
    const double w = t.w[0];
    *first = std::min(i, below(w - eq_) + 1), *last = std::max(i, below(w + eq_ * (1 + 1e-6)));
    level->value = w;
    *ghost = false;
    if (*last > *first) {
      // A copy of a value appears only after it has converged (Paige): T-multiple values are converged; the last
      // components of copies' eigenvectors say nothing (their Ritz vectors are not normalised).
      level->error = 0, level->converged = true;
      PetscFunctionReturn(0);
    }
    if (m_ > 1) *ghost = SturmCount(d_ + 1, e_ + 1, m_ - 1, w + eq_) - SturmCount(d_ + 1, e_ + 1, m_ - 1, w - eq_) > 0;
    if (*ghost) PetscFunctionReturn(0);
    std::vector<double> z;
    std::vector<bool> failed;
    PetscCall(Eigenvectors(d_, e_, m_, t, &z, &failed));
    level->error = failed[0] ? std::numeric_limits<double>::infinity() : bnext_ * std::fabs(z[m_ - 1]);
    level->converged = level->error <= ctol_;
    PetscFunctionReturn(0);
  }

private:
  int m_;
  const double *d_, *e_;
  double bnext_, scale_, eq_, ctol_;
};

// The wanted levels of T_m (ghosts removed, copies merged) and whether the run may stop on them.
PetscErrorCode AnalyseT(const std::vector<double> &alpha, const std::vector<double> &beta, const Wanted &want, double tol, Check *out) {
  PetscFunctionBeginUser;
  SpectrumWalker t(alpha, beta, tol);
  const int m = t.size();
  out->scale = t.scale();
  out->wanted.clear();
  out->spurious = 0, out->copies = 0;
  // Walks from index i in direction dir (+1/-1) collecting up to `count` levels while `inside(value)`. Without
  // reorthogonalisation an unconverged value may never converge: a value in a gap of H's spectrum wanders there
  // (its polynomial has a root in the gap), and a converged level keeps growing further copies, each an
  // unconverged value on its way. An unconverged value with a converged level within its own error bound is no
  // evidence of another eigenvalue (the bound is explained by that level), so it is not a level; otherwise it
  // would stand in the wanted list for ever (e.g. next to a dense valence band). A genuine level near a converged
  // one counts again once its bound has shrunk below their distance.
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
      if (ghost) ++out->spurious;
      else seq.push_back(l), converged += l.converged, out->copies += last - first;
      i = dir > 0 ? last + 1 : first - 1;
    }
    for (const Level &l : seq) {
      if ((int)kept->size() >= count) break;
      bool explained = false;
      if (!l.converged)
        for (const Level &c : seq) explained = explained || (c.converged && std::fabs(c.value - l.value) <= l.error);
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
    PetscCall(walk(start + 1, +1, std::numeric_limits<int>::max(), [&](double x) { return x <= want.window[1]; }, &in));
    int next = start + 1;
    for (const Level &l : in) next = std::max(next, t.below(l.value + t.eq() * (1 + 1e-6)) + 1);
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

// ---------------------------------------------------------------------------------------------------------------
// The recurrence.

struct Counters {
  PetscInt products = 0, reductions = 0, recomputed = 0;
};

std::uint64_t Mix(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// v = the normalised start vector: a hash of (seed, canonical row) per entry.
PetscErrorCode StartVector(MPI_Comm comm, Vec v, unsigned long long seed, std::span<const PetscInt> rows, Counters *c) {
  PetscScalar *x;
  PetscInt n, rstart;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetOwnershipRange(v, &rstart, nullptr));
  PetscCall(VecGetArray(v, &x));
  double local = 0, global = 0;
  for (PetscInt i = 0; i < n; ++i) {
    const std::uint64_t row = (std::uint64_t)(rows.empty() ? rstart + i : rows[i]);
    const std::uint64_t h1 = Mix(Mix(seed) ^ (row * 0x100000001B3ULL + 0x51ED27ULL)), h2 = Mix(h1);
    const double re = (double)(h1 >> 11) * 0x1.0p-53 * 2 - 1, im = (double)(h2 >> 11) * 0x1.0p-53 * 2 - 1;
    x[i] = PetscScalar(re, im);
    local += re * re + im * im;
  }
  PetscCallMPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm));
  ++c->reductions;
  const double s = 1 / std::sqrt(global);
  for (PetscInt i = 0; i < n; ++i) x[i] *= s;
  PetscCall(VecRestoreArray(v, &x));
  PetscFunctionReturn(0);
}

// One step: on entry *v = v_j, *vprev = v_{j-1} (ignored when beta_j = 0); on exit *v = v_{j+1}, *vprev = v_j and
// *w is free. One MPI_Allreduce of four sums (Re and Im v^H w, w^H w, v^H v); two when cancellation in
// beta^2 = ||w||^2 - 2 alpha^2 + alpha^2 ||v||^2 would cost accuracy. The ||v||^2 term matters: v is normalised only
// to rounding, and with the shorter ||w||^2 - alpha^2 (which assumes ||v|| = 1) that error is amplified by
// (alpha/beta)^2 at every step, so on a spectrum not centred on 0 (passivated structures, folded operators) the
// vectors' norms drift away from 1 and T stops describing H (values wander in the gaps and never converge).
PetscErrorCode Step(MPI_Comm comm, Mat H, Vec *vprev, Vec *v, Vec *w, double beta_j, Counters *c, double *alpha, double *beta_next) {
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(MatMult(H, *v, *w));
  ++c->products;
  PetscCall(VecGetLocalSize(*v, &n));
  const PetscScalar *pv, *pp = nullptr;
  PetscScalar *pw;
  PetscCall(VecGetArrayRead(*v, &pv));
  PetscCall(VecGetArray(*w, &pw));
  if (beta_j != 0) PetscCall(VecGetArrayRead(*vprev, &pp));
  // The fifth sum carries SIGINT/SIGTERM (InterruptSignal), so every rank stops at the same step at no extra cost.
  double local[5] = {0, 0, 0, 0, (double)InterruptSignal()}, global[5];
  for (PetscInt i = 0; i < n; ++i) {
    if (pp) pw[i] -= beta_j * pp[i];
    const double vr = PetscRealPart(pv[i]), vi = PetscImaginaryPart(pv[i]), wr = PetscRealPart(pw[i]), wi = PetscImaginaryPart(pw[i]);
    local[0] += vr * wr + vi * wi; // Re conj(v) w
    local[1] += vr * wi - vi * wr; // Im conj(v) w
    local[2] += wr * wr + wi * wi;
    local[3] += vr * vr + vi * vi;
  }
  if (pp) PetscCall(VecRestoreArrayRead(*vprev, &pp));
  PetscCallMPI(MPI_Allreduce(local, global, 5, MPI_DOUBLE, MPI_SUM, comm));
  ++c->reductions;
  if (global[4] != 0) {
    char what[96];
    std::snprintf(what, sizeof what, "the Lanczos recurrence (product %lld of H)", (long long)c->products);
    PetscCall(CheckInterrupted(comm, what));
  }
  // A NaN or Inf would propagate silently into T and every value after it: stop at the product that made it.
  PetscCheck(std::isfinite(global[0]) && std::isfinite(global[2]) && std::isfinite(global[3]), comm, PETSC_ERR_FP,
             "Lanczos: product %lld of H gave a NaN or Inf (v^H H v = %g, ||H v||^2 = %g, ||v||^2 = %g): H or the start vector holds a non-finite entry",
             (long long)c->products, global[0], global[2], global[3]);
  const double a = global[0];
  double b2 = global[2] - 2 * a * a + a * a * global[3]; // ||w - alpha v||^2
  for (PetscInt i = 0; i < n; ++i) pw[i] -= a * pv[i];
  if (!(b2 > 0.01 * global[2])) { // cancellation (or negative): the norm of w - alpha v directly
    double l = 0, g = 0;
    for (PetscInt i = 0; i < n; ++i) l += PetscRealPart(pw[i]) * PetscRealPart(pw[i]) + PetscImaginaryPart(pw[i]) * PetscImaginaryPart(pw[i]);
    PetscCallMPI(MPI_Allreduce(&l, &g, 1, MPI_DOUBLE, MPI_SUM, comm));
    ++c->reductions, ++c->recomputed;
    b2 = g;
  }
  const double b = std::sqrt(std::max(b2, 0.0));
  if (b > 0) {
    const double s = 1 / b;
    for (PetscInt i = 0; i < n; ++i) pw[i] *= s;
  }
  PetscCall(VecRestoreArray(*w, &pw));
  PetscCall(VecRestoreArrayRead(*v, &pv));
  Vec t = *vprev;
  *vprev = *v, *v = *w, *w = t;
  *alpha = a, *beta_next = b;
  PetscFunctionReturn(0);
}

// y = Theta x: per atom block of kb rows (kb/2 spin-up orbitals, then kb/2 spin-down), y_up = -conj(x_down),
// y_down = conj(x_up).
PetscErrorCode KramersPartner(Vec x, Vec y, PetscInt kb) {
  const PetscScalar *px;
  PetscScalar *py;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &px));
  PetscCall(VecGetArray(y, &py));
  const PetscInt half = kb / 2;
  for (PetscInt a = 0; a < n; a += kb)
    for (PetscInt o = 0; o < half; ++o) {
      py[a + o] = -PetscConj(px[a + half + o]);
      py[a + half + o] = PetscConj(px[a + o]);
    }
  PetscCall(VecRestoreArray(y, &py));
  PetscCall(VecRestoreArrayRead(x, &px));
  PetscFunctionReturn(0);
}

// The eigenvector s of T_m (m = alpha.size() here given as argument) for the value nearest `value` among those
// within `near` of it, the best converged (smallest last component) of its copies.
PetscErrorCode RitzCoefficients(const std::vector<double> &alpha, const std::vector<double> &beta, int m, double value, double near, std::vector<double> *s) {
  PetscFunctionBeginUser;
  const double *d = alpha.data(), *e = beta.data() + 1;
  const int c = SturmCount(d, e, m, value);
  TridiagEigs t;
  std::vector<double> z;
  std::vector<bool> failed;
  PetscCall(Eigenvalues(d, e, m, 'I', 0, 0, std::max(1, c - 2), std::min(m, c + 3), &t));
  PetscCall(Eigenvectors(d, e, m, t, &z, &failed));
  int pick = -1;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < (int)t.w.size(); ++i) // the best converged copy within `near`
    if (!failed[i] && std::fabs(t.w[i] - value) <= near && std::fabs(z[(size_t)i * m + m - 1]) < best) pick = i, best = std::fabs(z[(size_t)i * m + m - 1]);
  if (pick < 0) // else the nearest
    for (int i = 0; i < (int)t.w.size(); ++i)
      if (!failed[i] && (pick < 0 || std::fabs(t.w[i] - value) < std::fabs(t.w[pick] - value))) pick = i;
  PetscCheck(pick >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "no eigenvector of the Lanczos tridiagonal for %g eV", value);
  s->assign(z.begin() + (size_t)pick * m, z.begin() + (size_t)(pick + 1) * m);
  PetscFunctionReturn(0);
}

// The squared weight of the start vector in the eigenspace of T_m at `value`: the sum of the squared first
// components of T's eigenvectors for all copies within `near` (the projection of v_0 on the eigenspace, whatever
// the number of copies the lost orthogonality has made of it).
PetscErrorCode StartWeight(const std::vector<double> &alpha, const std::vector<double> &beta, int m, double value, double near, double *weight) {
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

// A level of a restarted pass is a new direction when the start vector's squared weight in it is at least this / N
// (a random start has about 1/N per direction; below 1e-6 / N with probability 1e-6).
constexpr double kNewDirectionWeight = 1e-6;

struct Record {
  double value;
  int step; // first check at which the value had converged
};

// What runs through all passes: the operator, the three recurrence vectors and the counters.
struct Recurrence {
  MPI_Comm comm = MPI_COMM_NULL;
  Mat H = nullptr;
  std::span<const PetscInt> rows;
  Vec vprev = nullptr, v = nullptr, w = nullptr;
  Counters cnt;
  PetscInt held = 0;      // Vecs of matrix size alive now
  PetscInt peak_held = 0; // and at most
  void Hold(PetscInt k) { held += k, peak_held = std::max(peak_held, held); }
};

// One pass: the start vector (seeded, orthogonal to `deflate`), what it wants and how long it runs.
struct PassSpec {
  unsigned long long seed = 1;
  const std::vector<Vec> *deflate = nullptr;
  Wanted want;
  PetscInt min_steps = 0, max_steps = 0, check_every = 1;
  double tol = 1e-10;
  bool monitor = false;
  const char *label = "lanczos";
  const LanczosOptions *checkpoint = nullptr; // the first pass only
};

struct PassResult {
  std::vector<double> alpha, beta{0.0};
  std::vector<Record> records;
  Check chk;
  bool converged = false, invariant = false;
  std::vector<Level> found, unconverged;
  PetscInt resumed_from = 0;
  bool loaded_done = false; // the checkpoint was written when the first pass had stopped converged
};

// The start vector of a pass: seeded, then (twice, classical Gram-Schmidt) orthogonal to the found states.
PetscErrorCode PassStart(Recurrence &r, const PassSpec &spec) {
  PetscFunctionBeginUser;
  PetscCall(StartVector(r.comm, r.v, spec.seed, r.rows, &r.cnt));
  if (!spec.deflate || spec.deflate->empty()) PetscFunctionReturn(0);
  const std::vector<Vec> &X = *spec.deflate;
  std::vector<PetscScalar> c(X.size());
  for (int twice = 0; twice < 2; ++twice) {
    PetscCall(VecMDot(r.v, (PetscInt)X.size(), X.data(), c.data()));
    for (PetscScalar &x : c) x = -x;
    PetscCall(VecMAXPY(r.v, (PetscInt)X.size(), c.data(), const_cast<Vec *>(X.data()))); // 3.18 takes Vec *
    ++r.cnt.reductions;
  }
  PetscCall(VecNormalize(r.v, nullptr));
  ++r.cnt.reductions;
  PetscFunctionReturn(0);
}

// ||H x - value x|| (x of unit norm), with w as scratch.
PetscErrorCode Residual(Recurrence &r, Vec x, double value, double *res) {
  PetscReal nrm;
  PetscFunctionBeginUser;
  PetscCall(MatMult(r.H, x, r.w));
  ++r.cnt.products;
  PetscCall(VecAXPY(r.w, -value, x));
  PetscCall(VecNorm(r.w, NORM_2, &nrm));
  ++r.cnt.reductions;
  *res = nrm;
  PetscFunctionReturn(0);
}

// ---------------------------------------------------------------------------------------------------------------
// Checkpoint of the first pass.

constexpr PetscInt kCheckpointMagic = 0x7bc1a2c0, kCheckpointVersion = 1;

PetscErrorCode CheckCheckpointPath(MPI_Comm comm, const std::string &path, bool *exists) {
  PetscMPIInt rank;
  int state[2] = {0, 0}; // exists, problem (1: not readable, 2: directory not writable)
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    state[0] = access(path.c_str(), F_OK) == 0;
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    if (state[0] && access(path.c_str(), R_OK) != 0) state[1] = 1;
    else if (access(dir.c_str(), W_OK) != 0) state[1] = 2;
  }
  PetscCallMPI(MPI_Bcast(state, 2, MPI_INT, 0, comm));
  PetscCheck(state[1] != 1, comm, PETSC_ERR_USER_INPUT, "-lanczos_checkpoint %s: the file exists but cannot be read", path.c_str());
  PetscCheck(state[1] != 2, comm, PETSC_ERR_USER_INPUT, "-lanczos_checkpoint %s: its directory does not exist or is not writable", path.c_str());
  *exists = state[0];
  PetscFunctionReturn(0);
}

PetscErrorCode OpenBinary(MPI_Comm comm, const std::string &path, PetscFileMode mode, PetscViewer *viewer) {
  PetscFunctionBeginUser;
  PetscCall(PetscViewerCreate(comm, viewer));
  PetscCall(PetscViewerSetType(*viewer, PETSCVIEWERBINARY));
  PetscCall(PetscViewerBinarySetSkipInfo(*viewer, PETSC_TRUE));
  PetscCall(PetscViewerFileSetMode(*viewer, mode));
  PetscCall(PetscViewerFileSetName(*viewer, path.c_str()));
  PetscFunctionReturn(0);
}

// Writes T, v_{m-1} and v_m to path + ".partial" and renames it to path; a failed write leaves no .partial behind
// (and the previous checkpoint in place).
PetscErrorCode WriteCheckpointFile(Recurrence &r, const std::string &tmp, unsigned long long seed, const PassResult &res, bool done) {
  PetscViewer vw;
  PetscMPIInt size;
  PetscInt N;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(r.comm, &size));
  PetscCall(VecGetSize(r.v, &N));
  const PetscInt m = (PetscInt)res.alpha.size();
  const PetscInt header[7] = {kCheckpointMagic, kCheckpointVersion, (PetscInt)size, N, (PetscInt)seed, m, done};
  PetscCall(OpenBinary(r.comm, tmp, FILE_MODE_WRITE, &vw));
  PetscCall(PetscViewerBinaryWrite(vw, header, 7, PETSC_INT));
  PetscCall(PetscViewerBinaryWrite(vw, res.alpha.data(), m, PETSC_DOUBLE));
  PetscCall(PetscViewerBinaryWrite(vw, res.beta.data(), m + 1, PETSC_DOUBLE));
  PetscCall(VecView(r.vprev, vw));
  PetscCall(VecView(r.v, vw));
  PetscCall(PetscViewerDestroy(&vw));
  PetscFunctionReturn(0);
}

PetscErrorCode SaveCheckpoint(Recurrence &r, const std::string &path, unsigned long long seed, const PassResult &res, bool done) {
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(r.comm, &rank));
  const std::string tmp = path + ".partial";
  const PetscErrorCode ierr = WriteCheckpointFile(r, tmp, seed, res, done);
  int ok = ierr == 0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, r.comm));
  if (ok && rank == 0) ok = std::rename(tmp.c_str(), path.c_str()) == 0;
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, r.comm));
  if (!ok && rank == 0) std::remove(tmp.c_str());
  PetscCall(ierr);
  PetscCheck(ok, r.comm, PETSC_ERR_FILE_WRITE, "-lanczos_checkpoint %s: could not write the checkpoint (disk full?)", path.c_str());
  PetscFunctionReturn(0);
}

// Loads a checkpoint into r (v, vprev) and res (T), refusing one made for another run.
PetscErrorCode LoadCheckpoint(Recurrence &r, const std::string &path, unsigned long long seed, PassResult *res) {
  PetscViewer vw;
  PetscMPIInt size;
  PetscInt N, header[7], got;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(r.comm, &size));
  PetscCall(VecGetSize(r.v, &N));
  PetscCall(OpenBinary(r.comm, path, FILE_MODE_READ, &vw));
  PetscCall(PetscViewerBinaryRead(vw, header, 7, &got, PETSC_INT));
  const char *p = path.c_str();
  PetscCheck(got == 7 && header[0] == kCheckpointMagic && header[1] == kCheckpointVersion, r.comm, PETSC_ERR_USER_INPUT,
             "-lanczos_checkpoint %s is not a tbpeta Lanczos checkpoint (version %" PetscInt_FMT ")", p, kCheckpointVersion);
  PetscCheck(header[2] == size, r.comm, PETSC_ERR_USER_INPUT, "-lanczos_checkpoint %s was made on %" PetscInt_FMT " ranks; this run has %d (continue it on the same rank count)", p, header[2],
             (int)size);
  PetscCheck(header[3] == N, r.comm, PETSC_ERR_USER_INPUT, "-lanczos_checkpoint %s was made for a matrix of %" PetscInt_FMT " rows; this H has %" PetscInt_FMT " (another structure)", p, header[3], N);
  PetscCheck(header[4] == (PetscInt)seed, r.comm, PETSC_ERR_USER_INPUT, "-lanczos_checkpoint %s was made with -lanczos_seed %" PetscInt_FMT "; this run uses %llu", p, header[4], seed);
  const PetscInt m = header[5];
  res->loaded_done = header[6] == 1;
  PetscCheck(m >= 1, r.comm, PETSC_ERR_USER_INPUT, "-lanczos_checkpoint %s holds no step", p);
  res->alpha.assign(m, 0), res->beta.assign(m + 1, 0);
  PetscCall(PetscViewerBinaryRead(vw, res->alpha.data(), m, &got, PETSC_DOUBLE));
  PetscCheck(got == m, r.comm, PETSC_ERR_USER_INPUT, "-lanczos_checkpoint %s is truncated", p);
  PetscCall(PetscViewerBinaryRead(vw, res->beta.data(), m + 1, &got, PETSC_DOUBLE));
  PetscCheck(got == m + 1, r.comm, PETSC_ERR_USER_INPUT, "-lanczos_checkpoint %s is truncated", p);
  // The same H: the first step from the same start vector must agree bit for bit (the three vectors are free yet).
  double a, b;
  PetscCall(StartVector(r.comm, r.v, seed, r.rows, &r.cnt));
  PetscCall(Step(r.comm, r.H, &r.vprev, &r.v, &r.w, 0.0, &r.cnt, &a, &b));
  PetscCheck(a == res->alpha[0] && (m < 2 || b == res->beta[1]), r.comm, PETSC_ERR_USER_INPUT,
             "-lanczos_checkpoint %s was made for another Hamiltonian (its first Lanczos step differs from this H's)", p);
  PetscCall(VecLoad(r.vprev, vw));
  PetscCall(VecLoad(r.v, vw));
  PetscCall(PetscViewerDestroy(&vw));
  PetscFunctionReturn(0);
}

// ---------------------------------------------------------------------------------------------------------------
// The passes.

// First pass: the recurrence with checks until every wanted level has converged and the wanted list is stable
// (never before spec.min_steps), or spec.max_steps.
PetscErrorCode FirstPass(Recurrence &r, const PassSpec &spec, PassResult *res) {
  PetscFunctionBeginUser;
  const LanczosOptions *ck = spec.checkpoint;
  const bool checkpointing = ck && !ck->checkpoint.empty();
  bool resume = false;
  if (checkpointing) PetscCall(CheckCheckpointPath(r.comm, ck->checkpoint, &resume));
  if (resume) {
    PetscCall(LoadCheckpoint(r, ck->checkpoint, spec.seed, res));
    res->resumed_from = (PetscInt)res->alpha.size();
    PetscCall(PetscPrintf(r.comm, "lanczos: continuing from checkpoint %s at step %" PetscInt_FMT "\n", ck->checkpoint.c_str(), res->resumed_from));
  } else PetscCall(PassStart(r, spec));
  std::vector<double> &alpha = res->alpha, &beta = res->beta;
  std::vector<double> prev;
  bool have_prev = false, done = false;
  double running_scale = 0;
  for (size_t j = 0; j < alpha.size(); ++j) running_scale = std::max(running_scale, std::fabs(alpha[j]) + beta[j] + beta[j + 1]);
  PetscInt last_saved = res->resumed_from;
  for (bool loaded = resume; !done; loaded = false) {
    if (!loaded) { // a resumed run checks its loaded T first
      const PetscInt j = (PetscInt)alpha.size();
      if (j >= spec.max_steps) break;
      double a, b;
      PetscCall(Step(r.comm, r.H, &r.vprev, &r.v, &r.w, beta[j], &r.cnt, &a, &b));
      alpha.push_back(a), beta.push_back(b);
      running_scale = std::max(running_scale, std::fabs(a) + beta[j] + b);
    }
    const PetscInt m = (PetscInt)alpha.size();
    res->invariant = beta[m] <= 1e-14 * running_scale; // T_m is exact: the Krylov space is an invariant subspace
    const bool last = m >= spec.max_steps;
    if (m % spec.check_every != 0 && !last && !res->invariant && !loaded) continue;
    PetscCall(AnalyseT(alpha, beta, spec.want, spec.tol, &res->chk));
    const Check &chk = res->chk;
    const double match = std::max(kLanczosCopyTolerance, spec.tol) * chk.scale;
    bool all = chk.neighbours_converged;
    for (const Level &l : chk.wanted) {
      all = all && l.converged;
      if (!l.converged) continue;
      auto rec = std::find_if(res->records.begin(), res->records.end(), [&](const Record &x) { return std::fabs(x.value - l.value) <= match; });
      if (rec == res->records.end()) res->records.push_back({l.value, (int)m});
      else rec->value = l.value;
    }
    bool stable = (have_prev && prev.size() == chk.wanted.size()) || (loaded && res->loaded_done);
    for (size_t i = 0; stable && i < prev.size(); ++i) stable = std::fabs(prev[i] - chk.wanted[i].value) <= match;
    if (spec.monitor) {
      int nc = 0;
      std::string line;
      char buf[64];
      for (const Level &l : chk.wanted) {
        nc += l.converged;
        std::snprintf(buf, sizeof buf, " %.10f%s", l.value, l.converged ? "" : "*");
        line += buf;
      }
      PetscCall(PetscPrintf(r.comm, "%s step %" PetscInt_FMT ": %d of %d wanted levels converged (%d ghosts, %d copies in range), values (* unconverged)%s\n", spec.label, m, nc,
                            (int)chk.wanted.size(), (int)chk.spurious, (int)chk.copies, line.c_str()));
    }
    done = ((all && stable) || res->invariant) && m >= spec.min_steps;
    prev.clear();
    for (const Level &l : chk.wanted) prev.push_back(l.value);
    have_prev = true;
    if (checkpointing && (done || last || m - last_saved >= ck->checkpoint_every)) {
      PetscCall(SaveCheckpoint(r, ck->checkpoint, spec.seed, *res, done));
      last_saved = m;
    }
    if (last) break;
  }
  res->converged = res->chk.neighbours_converged;
  res->found.clear(), res->unconverged.clear();
  for (const Level &l : res->chk.wanted) {
    res->converged = res->converged && l.converged;
    (l.converged ? res->found : res->unconverged).push_back(l);
  }
  PetscFunctionReturn(0);
}

// Second pass: the recurrence again from the same start vector, accumulating x_i = sum_j s_ij v_j for the found
// values (s_i: T's eigenvector at the check where value i first converged); the unit vectors and their residuals.
PetscErrorCode SecondPass(Recurrence &r, const PassSpec &spec, const PassResult &res, std::vector<Vec> *xs, std::vector<double> *residuals, PetscInt *steps, bool *identical) {
  PetscFunctionBeginUser;
  const std::vector<Level> &found = res.found;
  const double near = std::max(kLanczosCopyTolerance, spec.tol) * res.chk.scale * 10;
  const int total = (int)res.alpha.size();
  std::vector<int> len(found.size(), total);
  std::vector<std::vector<double>> s(found.size());
  int M = 0;
  for (size_t i = 0; i < found.size(); ++i) {
    for (const Record &rec : res.records)
      if (std::fabs(rec.value - found[i].value) <= near) len[i] = std::min(len[i], rec.step);
    PetscCall(RitzCoefficients(res.alpha, res.beta, len[i], found[i].value, near, &s[i]));
    M = std::max(M, len[i]);
  }
  xs->assign(found.size(), nullptr);
  for (Vec &x : *xs) {
    PetscCall(VecDuplicate(r.v, &x));
    PetscCall(VecSet(x, 0.0));
  }
  r.Hold((PetscInt)xs->size());
  PetscCall(PassStart(r, spec));
  double bj = 0;
  *identical = true;
  PetscInt first_diff = -1;
  for (int j = 0; j < M; ++j) {
    for (size_t i = 0; i < xs->size(); ++i)
      if (j < len[i]) PetscCall(VecAXPY((*xs)[i], s[i][j], r.v));
    if (j + 1 == M) break; // v_M is the last vector needed
    double a, b;
    PetscCall(Step(r.comm, r.H, &r.vprev, &r.v, &r.w, bj, &r.cnt, &a, &b));
    if ((a != res.alpha[j] || b != res.beta[j + 1]) && *identical) *identical = false, first_diff = j;
    bj = b;
  }
  *steps = M;
  PetscCheck(*identical, r.comm, PETSC_ERR_PLIB, "Lanczos second pass differs from the first at step %" PetscInt_FMT " (the recurrence is not reproducible)", first_diff);
  residuals->assign(found.size(), 0.0);
  for (size_t i = 0; i < xs->size(); ++i) {
    PetscCall(VecNormalize((*xs)[i], nullptr));
    PetscCall(Residual(r, (*xs)[i], found[i].value, &(*residuals)[i]));
  }
  PetscFunctionReturn(0);
}

} // namespace

// ---------------------------------------------------------------------------------------------------------------

PetscErrorCode LanczosOptionsFromOptions(MPI_Comm comm, double default_gap_center, LanczosOptions *opts) {
  LanczosOptions o;
  o.gap_center = default_gap_center;
  PetscInt seed = (PetscInt)o.seed, nwin = 2;
  PetscReal gap = o.gap_center, tol = o.tol, win[2] = {0, 0};
  PetscBool monitor = PETSC_FALSE, winset = PETSC_FALSE, vectors = PETSC_TRUE, has_ck = PETSC_FALSE;
  char ck[PETSC_MAX_PATH_LEN] = "";
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Lanczos eigen-solver (NEMO 3-D style)", nullptr);
  PetscCall(PetscOptionsInt("-lanczos_nev_valence", "States (with multiplicity) just below the gap centre", "LanczosSolve", o.nev_valence, &o.nev_valence, nullptr));
  PetscCall(PetscOptionsInt("-lanczos_nev_conduction", "States (with multiplicity) just above the gap centre", "LanczosSolve", o.nev_conduction, &o.nev_conduction, nullptr));
  PetscCall(PetscOptionsReal("-lanczos_gap_center", "Energy (eV) separating valence and conduction states (default: host midgap)", "LanczosSolve", gap, &gap, nullptr));
  PetscCall(PetscOptionsRealArray("-lanczos_window", "a,b: all states in [a, b] eV instead of nev below/above the gap centre", "LanczosSolve", win, &nwin, &winset));
  PetscCall(PetscOptionsInt("-lanczos_check_every", "Steps between convergence checks", "LanczosSolve", o.check_every, &o.check_every, nullptr));
  PetscCall(PetscOptionsInt("-lanczos_max_steps", "Maximum Lanczos steps of the first pass", "LanczosSolve", o.max_steps, &o.max_steps, nullptr));
  PetscCall(PetscOptionsInt("-lanczos_seed", "Seed of the start vector (>= 0)", "LanczosSolve", seed, &seed, nullptr));
  PetscCall(PetscOptionsReal("-lanczos_tol", "Relative convergence tolerance on beta_{m+1} |s_m|", "LanczosSolve", tol, &tol, nullptr));
  PetscCall(PetscOptionsBool("-lanczos_monitor", "Print progress at every convergence check", "LanczosSolve", monitor, &monitor, nullptr));
  PetscCall(PetscOptionsInt("-lanczos_multiplicity_passes", "Restarted passes for degeneracy beyond Kramers (0: Kramers pairs only)", "LanczosSolve", o.multiplicity_passes,
                            &o.multiplicity_passes, nullptr));
  PetscCall(PetscOptionsBool("-lanczos_vectors", "Eigenvectors by a second pass (false: eigenvalues only, Kramers multiplicity only)", "LanczosSolve", vectors, &vectors, nullptr));
  PetscCall(PetscOptionsString("-lanczos_checkpoint", "File: save the first pass there and continue from it when it exists; none by default", "LanczosSolve", ck, ck, sizeof ck, &has_ck));
  PetscCall(PetscOptionsInt("-lanczos_checkpoint_every", "Steps between checkpoint writes", "LanczosSolve", o.checkpoint_every, &o.checkpoint_every, nullptr));
  PetscOptionsEnd();
  PetscCheck(o.nev_valence >= 0, comm, PETSC_ERR_USER_INPUT, "-lanczos_nev_valence must be >= 0, got %" PetscInt_FMT, o.nev_valence);
  PetscCheck(o.nev_conduction >= 0, comm, PETSC_ERR_USER_INPUT, "-lanczos_nev_conduction must be >= 0, got %" PetscInt_FMT, o.nev_conduction);
  PetscCheck(winset || o.nev_valence + o.nev_conduction > 0, comm, PETSC_ERR_USER_INPUT, "-lanczos_nev_valence and -lanczos_nev_conduction are both 0: no state wanted");
  PetscCheck(!winset || nwin == 2, comm, PETSC_ERR_USER_INPUT, "-lanczos_window needs two energies a,b (eV), got %" PetscInt_FMT, nwin);
  PetscCheck(!winset || (std::isfinite((double)win[0]) && std::isfinite((double)win[1])), comm, PETSC_ERR_USER_INPUT, "-lanczos_window a,b needs finite energies (eV)");
  PetscCheck(!winset || win[0] < win[1], comm, PETSC_ERR_USER_INPUT, "-lanczos_window a,b needs a < b, got %g,%g", (double)win[0], (double)win[1]);
  PetscCheck(o.check_every >= 1, comm, PETSC_ERR_USER_INPUT, "-lanczos_check_every must be >= 1, got %" PetscInt_FMT, o.check_every);
  PetscCheck(o.max_steps >= 1, comm, PETSC_ERR_USER_INPUT, "-lanczos_max_steps must be >= 1, got %" PetscInt_FMT, o.max_steps);
  PetscCheck(seed >= 0, comm, PETSC_ERR_USER_INPUT, "-lanczos_seed must be >= 0, got %" PetscInt_FMT, seed);
  PetscCheck(tol > 0 && tol < 1, comm, PETSC_ERR_USER_INPUT, "-lanczos_tol must be in (0, 1), got %g", (double)tol);
  PetscCheck(std::isfinite((double)gap), comm, PETSC_ERR_USER_INPUT, "-lanczos_gap_center must be finite");
  PetscCheck(o.multiplicity_passes >= 0, comm, PETSC_ERR_USER_INPUT, "-lanczos_multiplicity_passes must be >= 0, got %" PetscInt_FMT, o.multiplicity_passes);
  PetscCheck(o.checkpoint_every >= 1, comm, PETSC_ERR_USER_INPUT, "-lanczos_checkpoint_every must be >= 1, got %" PetscInt_FMT, o.checkpoint_every);
  PetscCheck(!has_ck || ck[0], comm, PETSC_ERR_USER_INPUT, "-lanczos_checkpoint needs a file name");
  o.gap_center = gap, o.tol = tol, o.seed = (unsigned long long)seed, o.monitor = monitor, o.vectors = vectors;
  o.window_set = winset;
  if (winset) o.window[0] = win[0], o.window[1] = win[1];
  if (has_ck) o.checkpoint = ck;
  o.kramers_block = opts->kramers_block; // set by the caller, not an option
  *opts = o;
  PetscFunctionReturn(0);
}

namespace {

struct State {
  double value, residual;
  Vec x; // null without vectors
};

// Appends the Kramers partner of `s` (when kb > 0): with a vector, Theta x if its residual shows an eigenvector
// (else *dropped); without, the value once more.
PetscErrorCode AddKramersPartner(Recurrence &r, PetscInt kb, const State &s, double scale, std::vector<State> *out, int *dropped) {
  PetscFunctionBeginUser;
  if (!kb) PetscFunctionReturn(0);
  if (!s.x) {
    out->push_back({s.value, 0.0, nullptr});
    PetscFunctionReturn(0);
  }
  Vec y;
  double res;
  PetscCall(VecDuplicate(s.x, &y));
  r.Hold(1);
  PetscCall(KramersPartner(s.x, y, kb));
  PetscCall(Residual(r, y, s.value, &res));
  if (res <= std::max(100 * s.residual, 1e-6 * scale)) out->push_back({s.value, res, y});
  else {
    PetscCall(VecDestroy(&y));
    r.Hold(-1);
    ++*dropped;
  }
  PetscFunctionReturn(0);
}

// Orthogonalises x against X (classical Gram-Schmidt, twice); *norm: what is left of x (unit on entry).
PetscErrorCode Orthogonalise(Recurrence &r, const std::vector<Vec> &X, Vec x, double *norm) {
  PetscReal nrm;
  PetscFunctionBeginUser;
  std::vector<PetscScalar> c(X.size());
  for (int twice = 0; twice < 2 && !X.empty(); ++twice) {
    PetscCall(VecMDot(x, (PetscInt)X.size(), X.data(), c.data()));
    for (PetscScalar &v : c) v = -v;
    PetscCall(VecMAXPY(x, (PetscInt)X.size(), c.data(), const_cast<Vec *>(X.data())));
    ++r.cnt.reductions;
  }
  PetscCall(VecNorm(x, NORM_2, &nrm));
  ++r.cnt.reductions;
  *norm = nrm;
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode LanczosSolve(Mat H, const LanczosOptions &opts, std::span<const PetscInt> canonical_rows, bool want_vectors, EigenStates *states, LanczosReport *report) {
  MPI_Comm comm;
  const LogEvents *ev;
  PetscInt N, nlocal, rstart;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(GetLogEvents(&ev));
  PetscCall(MatGetSize(H, &N, nullptr));
  PetscCall(MatGetLocalSize(H, &nlocal, nullptr));
  PetscCall(MatGetOwnershipRange(H, &rstart, nullptr));
  const PetscInt kb = opts.kramers_block;
  PetscCheck(opts.check_every >= 1 && opts.max_steps >= 1 && opts.tol > 0, comm, PETSC_ERR_USER_INPUT, "Lanczos options: check_every, max_steps and tol must be positive");
  PetscCheck(canonical_rows.empty() || (PetscInt)canonical_rows.size() == nlocal, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "canonical rows: %zu for %" PetscInt_FMT " local rows", canonical_rows.size(), nlocal);
  PetscCheck(kb == 0 || (kb > 0 && kb % 2 == 0 && rstart % kb == 0 && nlocal % kb == 0), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "Kramers block %" PetscInt_FMT " must be even and divide the local rows", kb);
  Wanted want;
  want.gap_center = opts.gap_center;
  want.levels_v = kb ? (int)(opts.nev_valence + 1) / 2 : (int)opts.nev_valence;
  want.levels_c = kb ? (int)(opts.nev_conduction + 1) / 2 : (int)opts.nev_conduction;
  if (opts.window_set) {
    PetscCheck(opts.window[0] < opts.window[1], comm, PETSC_ERR_USER_INPUT, "-lanczos_window a,b needs a < b, got %g,%g", opts.window[0], opts.window[1]);
    PetscReal bound;
    PetscCall(MatNorm(H, NORM_INFINITY, &bound));
    PetscCheck(opts.window[1] >= -bound && opts.window[0] <= bound, comm, PETSC_ERR_USER_INPUT,
               "-lanczos_window [%g, %g] eV lies outside the spectrum of H (inside [%g, %g])", opts.window[0], opts.window[1], -(double)bound, (double)bound);
    want.window_set = true, want.window[0] = opts.window[0], want.window[1] = opts.window[1];
  } else {
    PetscCheck(opts.nev_valence >= 0 && opts.nev_conduction >= 0 && opts.nev_valence + opts.nev_conduction > 0, comm, PETSC_ERR_USER_INPUT,
               "Lanczos: no state wanted (nev valence %" PetscInt_FMT ", conduction %" PetscInt_FMT ")", opts.nev_valence, opts.nev_conduction);
    PetscCheck(opts.nev_valence + opts.nev_conduction <= N, comm, PETSC_ERR_USER_INPUT,
               "Lanczos: %" PetscInt_FMT " states wanted, but H has only %" PetscInt_FMT " rows", opts.nev_valence + opts.nev_conduction, N);
  }
  want_vectors = want_vectors && opts.vectors;

  LanczosReport local_report;
  LanczosReport &rep = report ? *report : local_report;
  rep = LanczosReport();
  PetscCall(PetscLogEventBegin(ev->solve, 0, 0, 0, 0));
  const double t0 = MPI_Wtime();
  Recurrence r;
  r.comm = comm, r.H = H, r.rows = canonical_rows;
  PetscCall(MatCreateVecs(H, &r.v, nullptr));
  PetscCall(VecDuplicate(r.v, &r.vprev));
  PetscCall(VecDuplicate(r.v, &r.w));
  r.Hold(3);

  // First pass, then the vectors of what it found and their Kramers partners.
  PassSpec spec;
  spec.seed = opts.seed, spec.want = want, spec.max_steps = opts.max_steps, spec.check_every = opts.check_every, spec.tol = opts.tol, spec.monitor = opts.monitor;
  spec.checkpoint = &opts;
  PassResult first;
  PetscCall(FirstPass(r, spec, &first));
  const PetscInt steps = (PetscInt)first.alpha.size();
  const double scale = first.chk.scale;
  rep.steps = steps, rep.spurious = first.chk.spurious, rep.copies = first.chk.copies, rep.converged = first.converged, rep.resumed_from = first.resumed_from;
  rep.alpha = first.alpha, rep.beta = first.beta;
  for (const Level &l : first.unconverged) rep.unconverged.push_back(l.value), rep.unconverged_errors.push_back(l.error);
  std::vector<State> out;
  int dropped = 0;
  if (want_vectors && !first.found.empty()) {
    std::vector<Vec> xs;
    std::vector<double> res;
    PetscCall(SecondPass(r, spec, first, &xs, &res, &rep.second_pass_steps, &rep.second_pass_identical));
    for (size_t i = 0; i < xs.size(); ++i) {
      out.push_back({first.found[i].value, res[i], xs[i]});
      PetscCall(AddKramersPartner(r, kb, out.back(), scale, &out, &dropped));
    }
  } else
    for (const Level &l : first.found) {
      out.push_back({l.value, 0.0, nullptr});
      PetscCall(AddKramersPartner(r, kb, out.back(), scale, &out, &dropped));
    }

  // Degeneracy beyond Kramers: restarted passes orthogonal to every state found so far.
  const double level_tol = 100 * std::max(kLanczosCopyTolerance, opts.tol) * scale;
  bool added_any = false;
  if (want_vectors && !out.empty() && opts.multiplicity_passes > 0 && !first.invariant && first.converged) {
    std::vector<Vec> X;
    double lo = out.front().value, hi = out.front().value;
    for (const State &s : out) X.push_back(s.x), lo = std::min(lo, s.value), hi = std::max(hi, s.value);
    for (PetscInt p = 1; p <= opts.multiplicity_passes; ++p) {
      PassSpec sp = spec;
      char label[64];
      std::snprintf(label, sizeof label, "lanczos multiplicity pass %d", (int)p);
      sp.label = label;
      sp.seed = Mix(opts.seed + 0x5bd1e995ULL * (unsigned long long)p) >> 33; // another start vector, reproducible
      sp.deflate = &X;
      sp.checkpoint = nullptr;
      sp.want.window_set = true, sp.want.window[0] = lo - 10 * level_tol, sp.want.window[1] = hi + 10 * level_tol;
      // A further vector of a level has the weight of a random start in its eigenspace, like the first pass's:
      // it converges in about as many steps.
      sp.min_steps = sp.max_steps = steps + std::max(opts.check_every, steps / 4);
      PassResult pass;
      PetscCall(FirstPass(r, sp, &pass));
      rep.multiplicity_passes = p;
      rep.multiplicity_steps += (PetscInt)pass.alpha.size();
      int added = 0;
      // Only levels the start vector reached are accumulated: a level already found comes back through rounding
      // alone (the start was orthogonal to it), with a start weight near eps^2 against about 1/N for a new
      // direction (measured: below 1e-23 against above 1e-3 at N = 160..640). So the pass holds no vector it would
      // throw away, and the Lanczos's peak stays 3 vectors + the states it returns.
      PassResult fresh = pass;
      fresh.found.clear();
      for (const Level &l : pass.found) {
        double weight;
        PetscCall(StartWeight(pass.alpha, pass.beta, (int)pass.alpha.size(), l.value, std::max(kLanczosCopyTolerance, opts.tol) * scale * 10, &weight));
        if (weight >= kNewDirectionWeight / (double)N) fresh.found.push_back(l);
      }
      if (!fresh.found.empty()) {
        std::vector<Vec> cand;
        std::vector<double> cres;
        PetscInt s2;
        bool same;
        PetscCall(SecondPass(r, sp, fresh, &cand, &cres, &s2, &same));
        rep.multiplicity_steps += s2;
        for (size_t i = 0; i < cand.size(); ++i) {
          double left, res;
          PetscCall(Orthogonalise(r, X, cand[i], &left));
          if (left >= 0.5) {
            PetscCall(VecScale(cand[i], 1.0 / left));
            PetscCall(Residual(r, cand[i], fresh.found[i].value, &res));
          }
          if (left < 0.5 || res > std::max(100 * cres[i], 1e-6 * scale)) { // not new after all (kept as a safeguard)
            PetscCall(VecDestroy(&cand[i]));
            r.Hold(-1);
            continue;
          }
          out.push_back({fresh.found[i].value, res, cand[i]});
          X.push_back(cand[i]);
          const size_t before = out.size();
          PetscCall(AddKramersPartner(r, kb, out.back(), scale, &out, &dropped));
          if (out.size() > before) X.push_back(out.back().x);
          added += 1 + (int)(out.size() - before);
        }
      }
      rep.extra_states += added;
      added_any = added_any || added > 0;
      if (!added) break;
      if (p == opts.multiplicity_passes) rep.multiplicity_complete = false;
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const State &a, const State &b) { return a.value < b.value; });

  // In nev mode whole levels: those nearest the gap centre until nev states are reached on each side.
  if (!opts.window_set && added_any) {
    std::vector<bool> keep(out.size(), false);
    auto take = [&](auto begin, auto end, PetscInt nev) {
      PetscInt count = 0;
      double level = 0;
      for (auto it = begin; it != end; ++it) {
        if (count >= nev && std::fabs(out[*it].value - level) > level_tol) break;
        if (count == 0 || std::fabs(out[*it].value - level) > level_tol) level = out[*it].value;
        keep[*it] = true, ++count;
      }
    };
    std::vector<size_t> below, above;
    for (size_t i = 0; i < out.size(); ++i) (out[i].value < opts.gap_center ? below : above).push_back(i);
    take(below.rbegin(), below.rend(), opts.nev_valence);
    take(above.begin(), above.end(), opts.nev_conduction);
    std::vector<State> kept;
    for (size_t i = 0; i < out.size(); ++i) {
      if (keep[i]) kept.push_back(out[i]);
      else if (out[i].x) {
        PetscCall(VecDestroy(&out[i].x));
        r.Hold(-1);
      }
    }
    out = kept;
  }

  states->values.clear(), states->residuals.clear(), states->vectors.clear();
  for (const State &o : out) {
    states->values.push_back(o.value), states->residuals.push_back(o.residual);
    if (o.x) states->vectors.push_back(o.x);
  }
  PetscCall(VecDestroy(&r.v));
  PetscCall(VecDestroy(&r.vprev));
  PetscCall(VecDestroy(&r.w));
  const double seconds = MPI_Wtime() - t0;
  PetscCall(PetscLogEventEnd(ev->solve, 0, 0, 0, 0));

  rep.reductions = r.cnt.reductions, rep.recomputed_betas = r.cnt.recomputed;
  states->iterations = steps;
  states->products = r.cnt.products;
  states->vectors_held = r.peak_held;
  states->seconds = seconds;
  states->requested = opts.window_set ? (PetscInt)states->values.size() : opts.nev_valence + opts.nev_conduction;
  states->solver = "lanczos (NEMO 3-D style, 3 vectors, no reorthogonalisation";
  if (kb) states->solver += dropped ? ", Kramers partners dropped: H not time-reversal symmetric" : ", Kramers pairs by time reversal";
  if (rep.multiplicity_passes) {
    char buf[160];
    std::snprintf(buf, sizeof buf, ", %d restarted pass%s for multiplicity (%d more states)%s", (int)rep.multiplicity_passes, rep.multiplicity_passes > 1 ? "es" : "", (int)rep.extra_states,
                  rep.multiplicity_complete ? "" : ", multiplicity may be incomplete: raise -lanczos_multiplicity_passes");
    states->solver += buf;
  }
  states->solver += ")";
  if (!rep.converged) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "; not converged within %d steps: %d wanted levels unconverged", (int)steps, (int)rep.unconverged.size());
    states->solver += buf;
  }
  if (first.invariant) states->solver += "; invariant subspace reached";
  if (opts.window_set && rep.converged && states->values.empty())
    SETERRQ(comm, PETSC_ERR_USER_INPUT, "-lanczos_window [%g, %g] eV contains no eigenvalue of H", opts.window[0], opts.window[1]);
  PetscFunctionReturn(0);
}

} // namespace tbpeta
