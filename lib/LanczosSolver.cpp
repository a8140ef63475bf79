#include "tbpeta/LanczosSolver.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "tbpeta/LogEvents.hpp"

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
  double error = 0; // beta_{m+1} |s_m|, best copy
  bool converged = false;
};

struct Check {
  double scale = 0;
  std::vector<Level> wanted; // ascending
  bool neighbours_converged = true;
  PetscInt spurious = 0, copies = 0;
};

PetscErrorCode AnalyseT(const std::vector<double> &alpha, const std::vector<double> &beta, const LanczosOptions &opts, int levels_v, int levels_c, Check *out) {
  PetscFunctionBeginUser;
  const int m = (int)alpha.size();
  const double *d = alpha.data(), *e = beta.data() + 1, bnext = beta[m];
  double scale = 0;
  for (int j = 0; j < m; ++j) scale = std::max(scale, std::fabs(d[j]) + beta[j] + (j + 1 < m ? beta[j + 1] : 0.0));
  scale = std::max(scale, std::numeric_limits<double>::min());
  const double eq = kLanczosCopyTolerance * scale, ctol = opts.tol * scale;
  out->scale = scale;

  int below_extra = 4, above_extra = 4;
  for (;;) {
    int il, iu;
    if (opts.window_set) {
      const int ia = SturmCount(d, e, m, opts.window[0] - eq), ib = SturmCount(d, e, m, opts.window[1] + eq);
      il = std::max(1, ia + 1 - below_extra), iu = std::min(m, ib + above_extra);
    } else {
      const int n0 = SturmCount(d, e, m, opts.gap_center);
      il = std::max(1, n0 + 1 - (2 * levels_v + below_extra)), iu = std::min(m, n0 + 2 * levels_c + above_extra);
    }
    TridiagEigs t, that;
    std::vector<double> z;
    std::vector<bool> failed;
    if (iu >= il) {
      PetscCall(Eigenvalues(d, e, m, 'I', 0, 0, il, iu, &t));
      PetscCall(Eigenvectors(d, e, m, t, &z, &failed));
      if (m > 1 && !t.w.empty()) PetscCall(Eigenvalues(d + 1, e + 1, m - 1, 'V', t.w.front() - 2 * eq, t.w.back() + 2 * eq, 0, 0, &that));
    }
    // Cullum-Willoughby: group copies, drop simple values that are also values of T^.
    std::vector<Level> kept;
    PetscInt spurious = 0, copies = 0;
    const size_t k = t.w.size();
    for (size_t g = 0; g < k;) {
      size_t h = g + 1;
      while (h < k && t.w[h] - t.w[h - 1] <= eq) ++h;
      bool ghost = false;
      if (h - g == 1)
        for (double x : that.w)
          if (std::fabs(x - t.w[g]) <= eq) ghost = true;
      if (ghost) ++spurious;
      else {
        Level l;
        double best = std::numeric_limits<double>::infinity();
        for (size_t i = g; i < h; ++i) {
          const double s = failed[i] ? std::numeric_limits<double>::infinity() : std::fabs(z[i * m + m - 1]);
          if (s < best || i == g) best = std::min(best, s), l.value = t.w[i];
        }
        l.error = bnext * best;
        // A copy of a value appears only after it has converged (Paige): T-multiple values are converged; the last
        // components of copies' eigenvectors say nothing (their Ritz vectors are not normalised).
        l.converged = l.error <= ctol || h - g > 1;
        kept.push_back(l);
        copies += (PetscInt)(h - g - 1);
      }
      g = h;
    }
    out->wanted.clear();
    out->spurious = spurious, out->copies = copies;
    if (opts.window_set) {
      const Level *lo = nullptr, *hi = nullptr;
      for (const Level &l : kept) {
        if (l.value < opts.window[0]) lo = &l;
        else if (l.value <= opts.window[1]) out->wanted.push_back(l);
        else if (!hi) hi = &l;
      }
      const bool more_below = !lo && il > 1, more_above = !hi && iu < m;
      if (more_below) below_extra *= 2;
      if (more_above) above_extra *= 2;
      if (more_below || more_above) continue;
      out->neighbours_converged = (!lo || lo->converged) && (!hi || hi->converged);
    } else {
      std::vector<Level> below, above;
      for (const Level &l : kept) (l.value < opts.gap_center ? below : above).push_back(l);
      const bool more_below = (int)below.size() < levels_v && il > 1, more_above = (int)above.size() < levels_c && iu < m;
      if (more_below) below_extra = 2 * below_extra + 2 * levels_v;
      if (more_above) above_extra = 2 * above_extra + 2 * levels_c;
      if (more_below || more_above) continue;
      const size_t nb = std::min<size_t>(below.size(), levels_v), na = std::min<size_t>(above.size(), levels_c);
      out->wanted.assign(below.end() - nb, below.end());
      out->wanted.insert(out->wanted.end(), above.begin(), above.begin() + na);
      out->neighbours_converged = (int)nb == levels_v && (int)na == levels_c;
    }
    break;
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
// *w is free. One MPI_Allreduce (two when cancellation in w^H w - alpha^2 would cost accuracy).
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
  double local[3] = {0, 0, 0}, global[3];
  for (PetscInt i = 0; i < n; ++i) {
    if (pp) pw[i] -= beta_j * pp[i];
    const double vr = PetscRealPart(pv[i]), vi = PetscImaginaryPart(pv[i]), wr = PetscRealPart(pw[i]), wi = PetscImaginaryPart(pw[i]);
    local[0] += vr * wr + vi * wi; // Re conj(v) w
    local[1] += vr * wi - vi * wr; // Im conj(v) w
    local[2] += wr * wr + wi * wi;
  }
  if (pp) PetscCall(VecRestoreArrayRead(*vprev, &pp));
  PetscCallMPI(MPI_Allreduce(local, global, 3, MPI_DOUBLE, MPI_SUM, comm));
  ++c->reductions;
  const double a = global[0];
  double b2 = global[2] - a * a;
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

struct Record {
  double value;
  int step; // first check at which the value had converged
};

} // namespace

// ---------------------------------------------------------------------------------------------------------------

PetscErrorCode LanczosOptionsFromOptions(MPI_Comm comm, double default_gap_center, LanczosOptions *opts) {
  LanczosOptions o;
  o.gap_center = default_gap_center;
  PetscInt seed = (PetscInt)o.seed, nwin = 2;
  PetscReal gap = o.gap_center, tol = o.tol, win[2] = {0, 0};
  PetscBool monitor = PETSC_FALSE, winset = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Lanczos eigen-solver (NEMO 3-D style)", nullptr);
  PetscCall(PetscOptionsInt("-lanczos_nev_valence", "States (with multiplicity) just below the gap centre", "LanczosSolve", o.nev_valence, &o.nev_valence, nullptr));
  PetscCall(PetscOptionsInt("-lanczos_nev_conduction", "States (with multiplicity) just above the gap centre", "LanczosSolve", o.nev_conduction, &o.nev_conduction, nullptr));
  PetscCall(PetscOptionsReal("-lanczos_gap_center", "Energy (eV) separating valence and conduction states (default: host midgap)", "LanczosSolve", gap, &gap, nullptr));
  PetscCall(PetscOptionsRealArray("-lanczos_window", "a,b: all states in [a, b] eV instead of nev below/above the gap centre", "LanczosSolve", win, &nwin, &winset));
  PetscCall(PetscOptionsInt("-lanczos_check_every", "Steps between convergence checks", "LanczosSolve", o.check_every, &o.check_every, nullptr));
  PetscCall(PetscOptionsInt("-lanczos_max_steps", "Maximum Lanczos steps", "LanczosSolve", o.max_steps, &o.max_steps, nullptr));
  PetscCall(PetscOptionsInt("-lanczos_seed", "Seed of the start vector (>= 0)", "LanczosSolve", seed, &seed, nullptr));
  PetscCall(PetscOptionsReal("-lanczos_tol", "Relative convergence tolerance on beta_{m+1} |s_m|", "LanczosSolve", tol, &tol, nullptr));
  PetscCall(PetscOptionsBool("-lanczos_monitor", "Print progress at every convergence check", "LanczosSolve", monitor, &monitor, nullptr));
  PetscOptionsEnd();
  PetscCheck(o.nev_valence >= 0, comm, PETSC_ERR_USER_INPUT, "-lanczos_nev_valence must be >= 0, got %" PetscInt_FMT, o.nev_valence);
  PetscCheck(o.nev_conduction >= 0, comm, PETSC_ERR_USER_INPUT, "-lanczos_nev_conduction must be >= 0, got %" PetscInt_FMT, o.nev_conduction);
  PetscCheck(winset || o.nev_valence + o.nev_conduction > 0, comm, PETSC_ERR_USER_INPUT, "-lanczos_nev_valence and -lanczos_nev_conduction are both 0: no state wanted");
  PetscCheck(!winset || nwin == 2, comm, PETSC_ERR_USER_INPUT, "-lanczos_window needs two energies a,b (eV), got %" PetscInt_FMT, nwin);
  PetscCheck(!winset || win[0] < win[1], comm, PETSC_ERR_USER_INPUT, "-lanczos_window a,b needs a < b, got %g,%g", (double)win[0], (double)win[1]);
  PetscCheck(o.check_every >= 1, comm, PETSC_ERR_USER_INPUT, "-lanczos_check_every must be >= 1, got %" PetscInt_FMT, o.check_every);
  PetscCheck(o.max_steps >= 1, comm, PETSC_ERR_USER_INPUT, "-lanczos_max_steps must be >= 1, got %" PetscInt_FMT, o.max_steps);
  PetscCheck(seed >= 0, comm, PETSC_ERR_USER_INPUT, "-lanczos_seed must be >= 0, got %" PetscInt_FMT, seed);
  PetscCheck(tol > 0 && tol < 1, comm, PETSC_ERR_USER_INPUT, "-lanczos_tol must be in (0, 1), got %g", (double)tol);
  PetscCheck(std::isfinite((double)gap), comm, PETSC_ERR_USER_INPUT, "-lanczos_gap_center must be finite");
  o.gap_center = gap, o.tol = tol, o.seed = (unsigned long long)seed, o.monitor = monitor;
  o.window_set = winset;
  if (winset) o.window[0] = win[0], o.window[1] = win[1];
  o.kramers_block = opts->kramers_block; // set by the caller, not an option
  *opts = o;
  PetscFunctionReturn(0);
}

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
  const int levels_v = kb ? (int)(opts.nev_valence + 1) / 2 : (int)opts.nev_valence;
  const int levels_c = kb ? (int)(opts.nev_conduction + 1) / 2 : (int)opts.nev_conduction;
  if (opts.window_set) {
    PetscCheck(opts.window[0] < opts.window[1], comm, PETSC_ERR_USER_INPUT, "-lanczos_window a,b needs a < b, got %g,%g", opts.window[0], opts.window[1]);
    PetscReal bound;
    PetscCall(MatNorm(H, NORM_INFINITY, &bound));
    PetscCheck(opts.window[1] >= -bound && opts.window[0] <= bound, comm, PETSC_ERR_USER_INPUT,
               "-lanczos_window [%g, %g] eV lies outside the spectrum of H (inside [%g, %g])", opts.window[0], opts.window[1], -(double)bound, (double)bound);
  } else {
    PetscCheck(opts.nev_valence >= 0 && opts.nev_conduction >= 0 && opts.nev_valence + opts.nev_conduction > 0, comm, PETSC_ERR_USER_INPUT,
               "Lanczos: no state wanted (nev valence %" PetscInt_FMT ", conduction %" PetscInt_FMT ")", opts.nev_valence, opts.nev_conduction);
    PetscCheck(opts.nev_valence + opts.nev_conduction <= N, comm, PETSC_ERR_USER_INPUT,
               "Lanczos: %" PetscInt_FMT " states wanted, but H has only %" PetscInt_FMT " rows", opts.nev_valence + opts.nev_conduction, N);
  }

  LanczosReport local_report;
  LanczosReport &rep = report ? *report : local_report;
  rep = LanczosReport();
  PetscCall(PetscLogEventBegin(ev->solve, 0, 0, 0, 0));
  const double t0 = MPI_Wtime();
  Counters cnt;
  PetscInt held = 0;
  Vec vprev, v, w;
  PetscCall(MatCreateVecs(H, &v, nullptr));
  PetscCall(VecDuplicate(v, &vprev));
  PetscCall(VecDuplicate(v, &w));
  held += 3;

  // First pass.
  std::vector<double> &alpha = rep.alpha, &beta = rep.beta;
  alpha.clear(), beta.assign(1, 0.0);
  PetscCall(StartVector(comm, v, opts.seed, canonical_rows, &cnt));
  std::vector<Record> records;
  std::vector<double> prev;
  bool have_prev = false, done = false, invariant = false;
  double running_scale = 0;
  Check chk;
  for (PetscInt j = 0; j < opts.max_steps && !done; ++j) {
    double a, b;
    PetscCall(Step(comm, H, &vprev, &v, &w, beta[j], &cnt, &a, &b));
    alpha.push_back(a), beta.push_back(b);
    const PetscInt m = j + 1;
    running_scale = std::max(running_scale, std::fabs(a) + beta[j] + b);
    invariant = b <= 1e-14 * running_scale; // T_m is exact: the Krylov space is an invariant subspace
    if (m % opts.check_every != 0 && m != opts.max_steps && !invariant) continue;
    PetscCall(AnalyseT(alpha, beta, opts, levels_v, levels_c, &chk));
    ++rep.checks;
    const double match = std::max(kLanczosCopyTolerance, opts.tol) * chk.scale;
    bool all = chk.neighbours_converged;
    for (const Level &l : chk.wanted) {
      all = all && l.converged;
      if (!l.converged) continue;
      auto r = std::find_if(records.begin(), records.end(), [&](const Record &x) { return std::fabs(x.value - l.value) <= match; });
      if (r == records.end()) records.push_back({l.value, (int)m});
      else r->value = l.value;
    }
    bool stable = have_prev && prev.size() == chk.wanted.size();
    for (size_t i = 0; stable && i < prev.size(); ++i) stable = std::fabs(prev[i] - chk.wanted[i].value) <= match;
    if (opts.monitor) {
      int nc = 0;
      for (const Level &l : chk.wanted) nc += l.converged;
      std::string line;
      char buf[64];
      for (const Level &l : chk.wanted) {
        std::snprintf(buf, sizeof buf, " %.10f%s", l.value, l.converged ? "" : "*");
        line += buf;
      }
      PetscCall(PetscPrintf(comm, "lanczos step %" PetscInt_FMT ": %d of %d wanted levels converged (%d ghosts, %d copies in range), values (* unconverged)%s\n", m, nc, (int)chk.wanted.size(),
                            (int)chk.spurious, (int)chk.copies, line.c_str()));
    }
    done = (all && stable) || invariant;
    prev.clear();
    for (const Level &l : chk.wanted) prev.push_back(l.value);
    have_prev = true;
  }
  const PetscInt steps = (PetscInt)alpha.size();
  rep.steps = steps, rep.spurious = chk.spurious, rep.copies = chk.copies;
  bool all_converged = chk.neighbours_converged;
  std::vector<Level> found;
  for (const Level &l : chk.wanted) {
    all_converged = all_converged && l.converged;
    if (l.converged) found.push_back(l);
    else rep.unconverged.push_back(l.value), rep.unconverged_errors.push_back(l.error);
  }
  rep.converged = all_converged;

  // Second pass: the wanted eigenvectors.
  std::vector<Vec> xs;
  std::vector<double> res(found.size(), 0.0);
  if (want_vectors && !found.empty()) {
    const double near = std::max(kLanczosCopyTolerance, opts.tol) * chk.scale * 10;
    std::vector<int> len(found.size(), (int)steps);
    std::vector<std::vector<double>> s(found.size());
    int M = 0;
    for (size_t i = 0; i < found.size(); ++i) {
      for (const Record &r : records)
        if (std::fabs(r.value - found[i].value) <= near) len[i] = std::min(len[i], r.step);
      PetscCall(RitzCoefficients(alpha, beta, len[i], found[i].value, near, &s[i]));
      M = std::max(M, len[i]);
    }
    xs.resize(found.size());
    for (Vec &x : xs) {
      PetscCall(VecDuplicate(v, &x));
      PetscCall(VecSet(x, 0.0));
      ++held;
    }
    PetscCall(StartVector(comm, v, opts.seed, canonical_rows, &cnt));
    double bj = 0;
    bool identical = true;
    PetscInt first_diff = -1;
    for (int j = 0; j < M; ++j) {
      for (size_t i = 0; i < xs.size(); ++i)
        if (j < len[i]) PetscCall(VecAXPY(xs[i], s[i][j], v));
      if (j + 1 == M) break; // v_M is the last vector needed
      double a, b;
      PetscCall(Step(comm, H, &vprev, &v, &w, bj, &cnt, &a, &b));
      if ((a != alpha[j] || b != beta[j + 1]) && identical) identical = false, first_diff = j;
      bj = b;
    }
    rep.second_pass_steps = M;
    rep.second_pass_identical = identical;
    if (!identical) {
      for (Vec &x : xs) PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&v));
      PetscCall(VecDestroy(&vprev));
      PetscCall(VecDestroy(&w));
      PetscCall(PetscLogEventEnd(ev->solve, 0, 0, 0, 0));
      SETERRQ(comm, PETSC_ERR_PLIB, "Lanczos second pass differs from the first at step %" PetscInt_FMT " (the recurrence is not reproducible)", first_diff);
    }
    for (size_t i = 0; i < xs.size(); ++i) {
      PetscReal nrm;
      PetscCall(VecNormalize(xs[i], nullptr));
      PetscCall(MatMult(H, xs[i], w));
      ++cnt.products;
      PetscCall(VecAXPY(w, -found[i].value, xs[i]));
      PetscCall(VecNorm(w, NORM_2, &nrm));
      cnt.reductions += 2;
      res[i] = nrm;
    }
  }

  // The states, with Kramers partners.
  struct Out {
    double value, residual;
    Vec x;
  };
  std::vector<Out> out;
  int dropped = 0;
  for (size_t i = 0; i < found.size(); ++i) {
    out.push_back({found[i].value, res[i], xs.empty() ? nullptr : xs[i]});
    if (!kb) continue;
    if (xs.empty()) {
      out.push_back({found[i].value, 0.0, nullptr});
      continue;
    }
    Vec y;
    PetscReal nrm;
    PetscCall(VecDuplicate(v, &y));
    ++held;
    PetscCall(KramersPartner(xs[i], y, kb));
    PetscCall(MatMult(H, y, w));
    ++cnt.products;
    PetscCall(VecAXPY(w, -found[i].value, y));
    PetscCall(VecNorm(w, NORM_2, &nrm));
    ++cnt.reductions;
    if (nrm <= std::max(100 * res[i], 1e-6 * chk.scale)) out.push_back({found[i].value, nrm, y});
    else {
      PetscCall(VecDestroy(&y));
      ++dropped;
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Out &a, const Out &b) { return a.value < b.value; });
  states->values.clear(), states->residuals.clear(), states->vectors.clear();
  for (const Out &o : out) {
    states->values.push_back(o.value), states->residuals.push_back(o.residual);
    if (o.x) states->vectors.push_back(o.x);
  }
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&vprev));
  PetscCall(VecDestroy(&w));
  const double seconds = MPI_Wtime() - t0;
  PetscCall(PetscLogEventEnd(ev->solve, 0, 0, 0, 0));

  rep.reductions = cnt.reductions, rep.recomputed_betas = cnt.recomputed;
  states->iterations = steps;
  states->products = cnt.products;
  states->vectors_held = held;
  states->seconds = seconds;
  states->requested = opts.window_set ? (PetscInt)states->values.size() : opts.nev_valence + opts.nev_conduction;
  states->solver = "lanczos (NEMO 3-D style, 3 vectors, no reorthogonalisation";
  if (kb) states->solver += dropped ? ", Kramers partners dropped: H not time-reversal symmetric" : ", Kramers pairs by time reversal";
  states->solver += ")";
  if (!rep.converged) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "; not converged within %d steps: %d wanted levels unconverged", (int)steps, (int)rep.unconverged.size());
    states->solver += buf;
  }
  if (invariant) states->solver += "; invariant subspace reached";
  if (opts.window_set && rep.converged && states->values.empty())
    SETERRQ(comm, PETSC_ERR_USER_INPUT, "-lanczos_window [%g, %g] eV contains no eigenvalue of H", opts.window[0], opts.window[1]);
  PetscFunctionReturn(0);
}

} // namespace tbpeta
