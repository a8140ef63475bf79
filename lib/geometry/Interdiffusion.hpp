#pragma once
// The composition of interdiffused regions: each material's sharp fraction field (the regions' indicators times
// their graded compositions, a later region winning) smoothed as Fick's law smooths it after a time t with
// diffusion coefficient D, the diffusion length being L = sqrt(D t): a Gaussian of variance 2 L^2 along each axis
// (so an interface becomes x = erfc(z / 2L) / 2; J. Crank, The Mathematics of Diffusion, 2nd ed. 1975, eq. 2.14).
//
// The fields live on the simple cubic grid of the cation planes (spacing a/2, through every cation site), each
// voxel's value spread by the exact integral of the Gaussian over it (differences of erf), so a length far below a/2
// keeps the sharp field bit for bit. Periodic axes wrap; beyond an open face of the supercell the structure is
// continued as at the face (a wetting layer does not fade there), and a site outside the supercell (the strain
// domain's padding) takes the value at the face. Every rank computes the same fields over the whole supercell
// (8 bytes per material and grid point, 2 points per cation; an open axis only as far as the regions reach), so the
// species drawn do not depend on the ranks.
#include <array>
#include <vector>

#include "geometry/DotRegion.hpp"
#include "geometry/ZincblendeLattice.hpp"

namespace tbpeta {

class Interdiffusion {
public:
  Interdiffusion() = default;
  // The fields of the materials of `regions` other than the host (index 0), smoothed over `length` nm (> 0).
  Interdiffusion(const std::vector<DotRegion> &regions, const ZincblendeLattice &lattice, double length);

  // The materials with a field, in the order of fractions().
  const std::vector<int> &materials() const { return materials_; }
  // The fraction of each material at the cation site p (plane coordinates of the supercell).
  void fractions(PlaneIndex p, double *c) const;
  // Grid points held (per material).
  long long points() const { return (long long)n_[0] * n_[1] * n_[2]; }

private:
  void Blur(int axis, const std::vector<double> &weights);
  int GridIndex(int axis, int plane) const; // -1: outside the held range (the value is 0)

  ZincblendeLattice lattice_;
  std::vector<int> materials_;
  std::array<int, 3> lo_{0, 0, 0}, n_{0, 0, 0}; // held range of grid indices per axis
  std::vector<double> field_;                   // [material][x][y][z]
};

} // namespace tbpeta
