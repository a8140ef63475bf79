#pragma once
// The Lanczos tridiagonal T_m (diagonal alpha, off-diagonal beta) and what a check learns from it: the eigenvalues of
// T_m near the wanted energies (LAPACK dstebz bisection on the needed index range only, dstein for the first and
// last components of their eigenvectors), with the Cullum-Willoughby filter of spurious values (a simple value of
// T_m that is also a value of T^_m, T_m without its first row and column, and that the start vector does not reach,
// is a ghost) and copies of one value (closer than kLanczosCopyTolerance times the spectral scale) merged into one
// level. A kept value has converged when beta_{m+1} |s_m| <= tol * scale (s_m: last component of its eigenvector,
// the best of its copies; scale: the Gershgorin bound of T_m).
#include <petscsys.h>

#include <vector>

namespace tbpeta::lanczos {

// Copies of one Ritz value and a T_m / T^_m coincidence in the Cullum-Willoughby test: values closer than this
// times the spectral scale of T are the same.
inline constexpr double kLanczosCopyTolerance = 1e-11;

// Values of T closer than this are copies of one level (scale: the spectral scale of T).
inline double CopyTolerance(double scale) { return kLanczosCopyTolerance * scale * (1 + 1e-6); }

// What a run converged to -eps_tol tol can tell apart, in eV of T: values closer are one value when the passes match
// levels (they use 10 and 100 times this for "near" and for one level). Never below the copy tolerance, whereas the
// convergence test itself (error <= tol * scale) honours any tol.
inline double LevelResolution(double tol, double scale) {
  return (tol > kLanczosCopyTolerance ? tol : kLanczosCopyTolerance) * scale;
}

// A direction the start vector reached: its squared weight in the start vector is at least this / N (N: rows of H).
// A random start has about 1/N per direction, below 1e-6 / N with probability 1e-6; a ghost, or a level that a
// restarted pass's deflated start does not contain, has far less (measured: at most 2e-8 / N for the ghosts of a
// run at N = 2e7; below 1e-23 / N for deflated levels at N = 160..640).
inline constexpr double kStartWeightFloor = 1e-6;

struct Level {
  double value = 0;
  double error = 0; // beta_{m+1} |s_m| (0 for a value with copies)
  bool converged = false;
  bool reached = false; // the start vector's squared weight in it is at least kStartWeightFloor / N
};

// What one pass wants: nev mode (levels below/above a gap centre) or a window.
struct Wanted {
  bool window_set = false;
  double window[2] = {0, 0};
  double gap_center = 0;
  int levels_v = 0, levels_c = 0;
  double rows = 0; // N, the rows of H (>= 1; kStartWeightFloor / N: the weight of a direction the start reached)
};

// One convergence check on T_m.
struct Check {
  double scale = 0;
  std::vector<Level> wanted; // ascending
  bool neighbours_converged = true;
  PetscInt spurious = 0, copies = 0;
};

// alpha[0..m), beta[0..m] (beta[0] = 0, beta[m] the next off-diagonal): the wanted levels of T_m (ghosts removed,
// copies merged) and whether the run may stop on them (in window mode also the nearest values outside the window
// must have converged, so that an empty window is recognised).
PetscErrorCode AnalyseT(const std::vector<double> &alpha, const std::vector<double> &beta, const Wanted &want,
                        double tol, Check *out);

// The eigenvector s of T_m for `value`: the nearest value of T not within `same` of one in `taken` (the values
// chosen for other levels: two levels closer than the convergence tolerance must not get one vector), and of its
// copies (within `same` of it) the best converged, the one with the smallest last component; *chosen: that value.
PetscErrorCode RitzCoefficients(const std::vector<double> &alpha, const std::vector<double> &beta, int m, double value,
                                double same, const std::vector<double> &taken, std::vector<double> *s, double *chosen);

// The squared weight of the start vector in the eigenspace of T_m at `value`: the sum of the squared first
// components of T's eigenvectors for all copies within `near` (the projection of v_0 on the eigenspace, whatever
// the number of copies the lost orthogonality has made of it).
PetscErrorCode StartWeight(const std::vector<double> &alpha, const std::vector<double> &beta, int m, double value,
                           double near, double *weight);

// log of the Christoffel function of T_m at x: -log sum_{j<=m} p_j(x)^2, p_j the orthonormal polynomials of the start
// vector's spectral measure (the Lanczos recurrence in x: beta_{j+1} p_j = (x - alpha_j) p_{j-1} - beta_j p_{j-2}).
// Whatever m, the start vector's squared weight in the eigenspace of H at x is at most exp(this) (the Christoffel
// function's extremal property: min over polynomials q of degree <= m with q(x) = 1 of the integral of q^2).
double LogChristoffel(const std::vector<double> &alpha, const std::vector<double> &beta, int m, double x);

} // namespace tbpeta::lanczos
