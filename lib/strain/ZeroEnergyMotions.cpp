#include "strain/ZeroEnergyMotions.hpp"

#include <cmath>
#include <utility>

namespace tbpeta {

namespace {

using Gram = std::array<std::array<double, 6>, 6>;

Vec3 Cross(const Vec3 &a, const Vec3 &b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

Vec3 ToVec3(const std::array<int, 3> &v) { return {(double)v[0], (double)v[1], (double)v[2]}; }

// The inverse of the leading n x n block of a symmetric positive definite matrix (Gauss-Jordan, n <= 6).
Gram Inverse(int n, Gram m) {
  Gram inv{};
  for (int i = 0; i < n; ++i) inv[i][i] = 1;
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(m[r][c]) > std::fabs(m[p][c])) p = r;
    std::swap(m[c], m[p]);
    std::swap(inv[c], inv[p]);
    const double d = m[c][c];
    for (int k = 0; k < n; ++k) m[c][k] /= d, inv[c][k] /= d;
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = m[r][c];
      for (int k = 0; k < n; ++k) m[r][k] -= f * m[c][k], inv[r][k] -= f * inv[c][k];
    }
  }
  return inv;
}

} // namespace

Vec3 ZeroEnergyMotions::Arm(PetscInt i) const {
  const double q = a_nm_ / 4;
  const PlaneIndex &p = s_->sites[i];
  return {p.x * q - centroid_[0], p.y * q - centroid_[1], p.z * q - centroid_[2]};
}

// The rigid modes at atom i, in the order of modes_: a translation along an axis, or a rotation about one.
void ZeroEnergyMotions::RigidModes(PetscInt i, Vec3 *r) const {
  const Vec3 arm = Arm(i);
  for (size_t k = 0; k < modes_.size(); ++k) {
    Vec3 e{0, 0, 0};
    e[modes_[k] % 3] = 1;
    r[k] = modes_[k] < 3 ? e : Cross(e, arm);
  }
}

// From the ideal lattice alone: the neighbour B of a singly bonded atom A and B's bonds (which exist does not depend
// on the partition, nor on whether B is owned here).
void ZeroEnergyMotions::FindFloppyAtoms(const KeatingEnergy &energy) {
  const Structure &s = *s_;
  for (PetscInt i = 0; i < s.owned; ++i) {
    int bonds = 0, bond = -1;
    for (int b = 0; b < 4; ++b)
      if (s.bonds[i][b] >= 0) ++bonds, bond = b;
    if (bonds != 1 || energy.holds(i)) continue;
    const Vec3 back = ToVec3(ZincblendeLattice::bondVector(s.sites[i], bond)); // A -> B; B's bond to A is -back
    PlaneIndex B, C;
    std::array<int, 3> wrap;
    s.lattice.neighbour(s.sites[i], bond, &B, &wrap);
    int b_bonds = 0;
    Vec3 axis{0, 0, 0};
    for (int b = 0; b < 4; ++b) {
      if (!s.lattice.neighbour(B, b, &C, &wrap)) continue;
      ++b_bonds;
      const Vec3 d = ToVec3(ZincblendeLattice::bondVector(B, b));
      if (d[0] != -back[0] || d[1] != -back[1] || d[2] != -back[2]) axis = d;
    }
    if (b_bonds != 2) continue;
    Vec3 t = Cross(axis, {-back[0], -back[1], -back[2]});
    const double norm = std::sqrt(Dot(t, t));
    for (double &x : t) x /= norm;
    floppy_.push_back({i, t});
  }
}

// The Gram matrix of the rigid modes with their components along the floppy atoms' tangents removed.
PetscErrorCode ZeroEnergyMotions::InvertGram(MPI_Comm comm) {
  Gram g{};
  double sums[36] = {0};
  Vec3 r[6];
  const int m = (int)modes_.size();
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < s_->owned; ++i) {
    RigidModes(i, r);
    for (int k = 0; k < m; ++k)
      for (int l = 0; l < m; ++l) sums[6 * k + l] += Dot(r[k], r[l]);
  }
  for (const Floppy &f : floppy_) {
    double v[6];
    RigidModes(f.atom, r);
    for (int k = 0; k < m; ++k) v[k] = Dot(r[k], f.tangent);
    for (int k = 0; k < m; ++k)
      for (int l = 0; l < m; ++l) sums[6 * k + l] -= v[k] * v[l];
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, sums, 36, MPI_DOUBLE, MPI_SUM, comm));
  for (int k = 0; k < 6; ++k)
    for (int l = 0; l < 6; ++l) g[k][l] = sums[6 * k + l];
  inverse_gram_ = Inverse(m, g);
  PetscFunctionReturn(0);
}

PetscErrorCode ZeroEnergyMotions::Create(MPI_Comm comm, const KeatingEnergy &energy, ZeroEnergyMotions *out) {
  ZeroEnergyMotions z;
  const Structure &s = energy.structure();
  double sums[4] = {0, 0, 0, (double)s.owned}; // arms from the origin (the centroid is still zero), atoms
  PetscFunctionBeginUser;
  z.s_ = &s, z.comm_ = comm, z.a_nm_ = energy.latticeConstant();
  const std::array<bool, 3> &periodic = s.lattice.periodic();
  if (!energy.holdsAtoms()) {
    z.modes_ = {0, 1, 2};
    for (int k = 0; k < 3; ++k)
      if (!periodic[(k + 1) % 3] && !periodic[(k + 2) % 3]) z.modes_.push_back(3 + k);
  }
  for (PetscInt i = 0; i < s.owned; ++i) {
    const Vec3 x = z.Arm(i);
    for (int c = 0; c < 3; ++c) sums[c] += x[c];
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_DOUBLE, MPI_SUM, comm));
  for (int c = 0; c < 3; ++c) z.centroid_[c] = sums[c] / sums[3];
  z.FindFloppyAtoms(energy);
  z.floppy_total_ = (PetscInt)z.floppy_.size();
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &z.floppy_total_, 1, MPIU_INT, MPI_SUM, comm));
  if (!z.modes_.empty()) PetscCall(z.InvertGram(comm));
  *out = std::move(z);
  PetscFunctionReturn(0);
}

// First the floppy tangents (orthonormal: one atom each), then the rigid modes with those components removed:
// c = G^-1 (R^T y), y -= R c, and at each floppy atom the tangent part of R c given back.
PetscErrorCode ZeroEnergyMotions::Remove(Vec y) const {
  PetscScalar *a;
  double b[6] = {0}, c[6] = {0};
  Vec3 r[6];
  const int m = (int)modes_.size();
  PetscFunctionBeginUser;
  PetscCall(VecGetArray(y, &a));
  auto at = [&](PetscInt i) {
    return Vec3{PetscRealPart(a[3 * i]), PetscRealPart(a[3 * i + 1]), PetscRealPart(a[3 * i + 2])};
  };
  auto subtract = [&](PetscInt i, const Vec3 &v, double s) {
    for (int k = 0; k < 3; ++k) a[3 * i + k] -= s * v[k];
  };
  for (const Floppy &f : floppy_) subtract(f.atom, f.tangent, Dot(at(f.atom), f.tangent));
  if (m) {
    for (PetscInt i = 0; i < s_->owned; ++i) {
      RigidModes(i, r);
      for (int k = 0; k < m; ++k) b[k] += Dot(r[k], at(i));
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, b, m, MPI_DOUBLE, MPI_SUM, comm_));
    for (int k = 0; k < m; ++k)
      for (int l = 0; l < m; ++l) c[k] += inverse_gram_[k][l] * b[l];
    auto motion = [&](PetscInt i) {
      Vec3 w{0, 0, 0};
      RigidModes(i, r);
      for (int k = 0; k < m; ++k)
        for (int d = 0; d < 3; ++d) w[d] += c[k] * r[k][d];
      return w;
    };
    for (PetscInt i = 0; i < s_->owned; ++i) subtract(i, motion(i), 1.0);
    for (const Floppy &f : floppy_) subtract(f.atom, f.tangent, -Dot(motion(f.atom), f.tangent));
  }
  PetscCall(VecRestoreArray(y, &a));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
