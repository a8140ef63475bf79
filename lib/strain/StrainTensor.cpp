#include "strain/StrainTensor.hpp"

#include <cmath>
#include <limits>

namespace tbpeta {

namespace {

using Mat3 = std::array<std::array<double, 3>, 3>;

// Columns c of a, b: solves F a = b for F (a invertible), i.e. F = b a^-1.
bool RightDivide(const Mat3 &b, const Mat3 &a, Mat3 *f) {
  const double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                     a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                     a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  if (std::fabs(det) < 1e-30) return false;
  Mat3 inv;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      const int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
      inv[r][c] = (a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1]) / det;
    }
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) (*f)[r][c] = b[r][0] * inv[0][c] + b[r][1] * inv[1][c] + b[r][2] * inv[2][c];
  return true;
}

Voigt AtomStrain(const Structure &s, const TightBindingModel &model, double a_nm, PetscInt i) {
  std::array<double, 3> r[4], d[4];
  int n = 0;
  const bool cation = s.sublattice(i) == Sublattice::cation;
  const std::array<double, 3> ui = s.displacementOf(i);
  for (int b = 0; b < 4; ++b) {
    const int j = s.bonds[i][b];
    if (j < 0) continue;
    const std::array<double, 3> uj = s.displacementOf(j);
    const std::array<int, 3> v = ZincblendeLattice::bondVector(s.sites[i], b);
    const double d0 = std::sqrt(3.0) / 4.0 * model.materials[cation ? s.material[i] : s.material[j]].a_lattice / 10.0;
    for (int c = 0; c < 3; ++c) {
      r[n][c] = v[c] * a_nm / 4.0 + uj[c] - ui[c];
      d[n][c] = v[c] / std::sqrt(3.0) * d0;
    }
    ++n;
  }
  Voigt e{0, 0, 0, 0, 0, 0};
  if (n < 3) return e;
  Mat3 R, D, F;
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 3; ++c) {
      R[c][k] = n == 4 ? r[k + 1][c] - r[0][c] : r[k][c];
      D[c][k] = n == 4 ? d[k + 1][c] - d[0][c] : d[k][c];
    }
  if (!RightDivide(R, D, &F)) return e;
  return {F[0][0] - 1,
          F[1][1] - 1,
          F[2][2] - 1,
          0.5 * (F[1][2] + F[2][1]),
          0.5 * (F[0][2] + F[2][0]),
          0.5 * (F[0][1] + F[1][0])};
}

} // namespace

std::vector<Voigt> StrainTensors(const Structure &s, const TightBindingModel &model, double a_nm) {
  std::vector<Voigt> e(s.owned);
  for (PetscInt i = 0; i < s.owned; ++i) e[i] = AtomStrain(s, model, a_nm, i);
  return e;
}

PetscErrorCode HydrostaticInDot(MPI_Comm comm, const Structure &s, const Nanostructure &nano,
                                const std::vector<Voigt> &tensors, StrainRange *range) {
  double lo = std::numeric_limits<double>::max(), hi = -lo, sum = 0;
  long long count = 0;
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < s.owned; ++i) {
    bool in = s.sublattice(i) == Sublattice::cation && nano.inDot(s.sites[i]);
    for (int b = 0; b < 4 && !in && s.sublattice(i) == Sublattice::anion; ++b)
      in = s.bonds[i][b] >= 0 && nano.inDot(s.sites[s.bonds[i][b]]);
    if (!in) continue;
    const double h = Hydrostatic(tensors[i]);
    lo = std::min(lo, h), hi = std::max(hi, h), sum += h, ++count;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_DOUBLE, MPI_MIN, comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_DOUBLE, MPI_MAX, comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_LONG_LONG, MPI_SUM, comm));
  *range = count ? StrainRange{lo, sum / count, hi, count} : StrainRange{};
  PetscFunctionReturn(0);
}

} // namespace tbpeta
