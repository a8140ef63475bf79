#include "geometry/ZincblendeLattice.hpp"

#include <cmath>

namespace tbpeta {

namespace {
inline int mod4(int v) { return ((v % 4) + 4) % 4; }
} // namespace

ZincblendeLattice::ZincblendeLattice(std::array<int, 3> cells, std::array<bool, 3> periodic)
    : cells_(cells), planes_{4 * cells[0], 4 * cells[1], 4 * cells[2]}, periodic_(periodic) {}

bool ZincblendeLattice::isSite(PlaneIndex p) {
  const int r = lineResidue(p.x, p.y);
  return r >= 0 && mod4(p.z) == r;
}

int ZincblendeLattice::lineResidue(int x, int y) {
  if (((x ^ y) & 1) != 0) return -1;       // mixed parity: no atom on this line
  if ((x & 1) == 0) return mod4(-(x + y)); // anions: x+y+z = 0 (mod 4)
  return mod4(3 - x - y);                  // cations: x+y+z = 3 (mod 4)
}

int ZincblendeLattice::lineCount(int x, int y, int z0, int z1) {
  const int r = lineResidue(x, y);
  return r < 0 ? 0 : residueCount(r, z0, z1);
}

int ZincblendeLattice::residueCount(int r, int z0, int z1) {
  if (z1 <= z0) return 0;
  const int first = z0 + mod4(r - z0); // first z >= z0 with z = r (mod 4)
  return first >= z1 ? 0 : (z1 - 1 - first) / 4 + 1;
}

long long ZincblendeLattice::canonicalIndex(PlaneIndex p) const {
  // Every x plane holds planes_y/2 atom lines, each with cells_z atoms (one per 4 z planes).
  return ((long long)p.x * (planes_[1] / 2) + p.y / 2) * cells_[2] + p.z / 4;
}

bool ZincblendeLattice::timeReversalInvariant(std::array<double, 3> k) const {
  for (int a = 0; a < 3; ++a) {
    if (!periodic_[a]) continue;
    const double twice = 2 * k[a] * cells_[a]; // 2k in units of the supercell's reciprocal vector
    if (std::fabs(twice - std::round(twice)) > 1e-12) return false;
  }
  return true;
}

} // namespace tbpeta
