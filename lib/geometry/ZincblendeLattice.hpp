#pragma once
// Zincblende / diamond geometry in integer atomic-plane coordinates (plane index = 4x/a on each axis).
// Anions sit on the fcc sites (0,0,0), (0,2,2), (2,0,2), (2,2,0) of each conventional cell, cations at +(1,1,1).
// Neighbours come from the lattice itself: an anion bonds along the four vectors kAnionBonds, a cation along
// their negatives. Nothing here is global: every query is O(1) in the plane coordinates.
#include <array>
#include <cstdint>

namespace tbpeta {

struct PlaneIndex {
  int x = 0, y = 0, z = 0;
  friend bool operator==(const PlaneIndex &, const PlaneIndex &) = default;
};

enum class Sublattice : std::uint8_t { anion = 0, cation = 1 };

class ZincblendeLattice {
public:
  // Anion -> cation bond vectors in plane units (a/4). Bond b of a cation points along -kAnionBonds[b].
  static constexpr std::array<std::array<int, 3>, 4> kAnionBonds = {{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}};

  ZincblendeLattice() = default;
  ZincblendeLattice(std::array<int, 3> cells, std::array<bool, 3> periodic);

  const std::array<int, 3> &cells() const { return cells_; }
  const std::array<int, 3> &planes() const { return planes_; }
  const std::array<bool, 3> &periodic() const { return periodic_; }
  long long totalAtoms() const { return 8LL * cells_[0] * cells_[1] * cells_[2]; }

  // Whether (x,y,z) (any integers) is an atom site, and of which sublattice.
  static bool isSite(PlaneIndex p);
  static Sublattice sublatticeOf(PlaneIndex p) { return (p.x & 1) ? Sublattice::cation : Sublattice::anion; }
  // The z residue (mod 4) of the atoms on the line (x,y,*), or -1 when that line holds no atom.
  static int lineResidue(int x, int y);
  // Number of atoms on the line (x,y,*) with z in [z0, z1).
  static int lineCount(int x, int y, int z0, int z1);
  // Number of z in [z0, z1) with z = r (mod 4): the atoms of any line of residue r (0..3).
  static int residueCount(int r, int z0, int z1);

  // Bond b (0..3) of the atom at p: the neighbour's in-cell coordinates and the wrap (in planes, a multiple of the
  // supercell size per axis) that was removed to bring it into the cell. False when the bond leaves an open face
  // (a dangling bond).
  bool neighbour(PlaneIndex p, int b, PlaneIndex *q, std::array<int, 3> *wrap) const;
  // Plane c on axis a brought into the cell: the wrap removed (0, or +-planes on a periodic axis), false when c lies
  // beyond an open face.
  bool intoCell(int a, int *c, int *wrap) const;
  // The bond vector of bond b of the atom at p, in plane units.
  static std::array<int, 3> bondVector(PlaneIndex p, int b);

  // Position of the canonical (rank-independent) order: lexicographic in (x, y, z).
  long long canonicalIndex(PlaneIndex p) const;

  // Whether the Bloch vector k (2 pi / a) maps to itself under k -> -k modulo the supercell's reciprocal lattice on
  // the periodic axes, so that with spin-orbit every level has a Kramers partner (open axes play no role).
  bool timeReversalInvariant(std::array<double, 3> k) const;

private:
  std::array<int, 3> cells_{0, 0, 0}, planes_{0, 0, 0};
  std::array<bool, 3> periodic_{true, true, true};
};

// In the header: the bond search calls these for every bond it cannot extrapolate along a line, and an out-of-line
// call returned q through memory that the caller then read in wider loads than were stored (a store-forwarding stall
// on each halo bond).
inline std::array<int, 3> ZincblendeLattice::bondVector(PlaneIndex p, int b) {
  const auto &v = kAnionBonds[b];
  return sublatticeOf(p) == Sublattice::anion ? v : std::array<int, 3>{-v[0], -v[1], -v[2]};
}

inline bool ZincblendeLattice::intoCell(int a, int *c, int *wrap) const {
  *wrap = 0;
  if (*c >= 0 && *c < planes_[a]) return true;
  if (!periodic_[a]) return false;
  *wrap = *c < 0 ? -planes_[a] : planes_[a];
  *c -= *wrap;
  return true;
}

inline bool ZincblendeLattice::neighbour(PlaneIndex p, int b, PlaneIndex *q, std::array<int, 3> *wrap) const {
  const auto d = bondVector(p, b);
  int c[3] = {p.x + d[0], p.y + d[1], p.z + d[2]};
  for (int a = 0; a < 3; ++a)
    if (!intoCell(a, &c[a], &(*wrap)[a])) return false;
  *q = {c[0], c[1], c[2]};
  return true;
}

} // namespace tbpeta
