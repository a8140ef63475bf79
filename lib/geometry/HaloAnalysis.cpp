#include "geometry/HaloAnalysis.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace tbpeta {

std::array<int, 3> AnalysisGrid(PartitionKind kind, int domains, std::array<int, 3> planes) {
  std::array<int, 3> grid{domains, 1, 1};
  if (!PlanePartition::chooseGrid(kind, domains, planes, &grid))
    PlanePartition::chooseGrid(kind, domains, planes, &grid, true);
  return grid;
}

long long HaloCounts::ownedMin() const { return owned.empty() ? 0 : *std::min_element(owned.begin(), owned.end()); }
long long HaloCounts::ownedMax() const { return owned.empty() ? 0 : *std::max_element(owned.begin(), owned.end()); }
long long HaloCounts::haloMax() const { return halo.empty() ? 0 : *std::max_element(halo.begin(), halo.end()); }
int HaloCounts::emptyDomains() const { return (int)std::count(owned.begin(), owned.end(), 0LL); }

HaloCounts CountHalo(const ZincblendeLattice &lattice, const PlanePartition &partition) {
  HaloCounts out;
  out.grid = partition.grid();
  out.owned.assign(partition.size(), 0);
  out.halo.assign(partition.size(), 0);
  const auto &n = lattice.planes();
  for (int x = 0; x < n[0]; ++x)
    for (int y = 0; y < n[1]; ++y) {
      const int r = ZincblendeLattice::lineResidue(x, y);
      if (r < 0) continue;
      for (int z = r; z < n[2]; z += 4) {
        const PlaneIndex q{x, y, z};
        const int own = partition.ownerOf(q);
        ++out.owned[own];
        // q is a halo atom of every other domain that owns one of its neighbours (each domain once).
        int seen[4], nseen = 0;
        for (int b = 0; b < 4; ++b) {
          PlaneIndex p;
          std::array<int, 3> wrap;
          if (!lattice.neighbour(q, b, &p, &wrap)) continue;
          const int d = partition.ownerOf(p);
          if (d == own || std::find(seen, seen + nseen, d) != seen + nseen) continue;
          seen[nseen++] = d;
          ++out.halo[d];
        }
      }
    }
  return out;
}

DomainHalo CountDomainHalo(const ZincblendeLattice &lattice, const PlanePartition &partition, int domain) {
  DomainHalo out;
  const PlaneBox box = partition.box(domain);
  const auto &n = lattice.planes();
  const auto &periodic = lattice.periodic();
  out.owned = box.countAtoms();
  // The planes one step around the box (wrapped on periodic axes; the whole axis when that covers it).
  std::array<int, 3> lo, hi;
  for (int a = 0; a < 3; ++a) {
    lo[a] = box.lo[a] - 1, hi[a] = box.hi[a] + 1;
    if (periodic[a] && hi[a] - lo[a] >= n[a]) lo[a] = 0, hi[a] = n[a];
    if (!periodic[a]) lo[a] = std::max(lo[a], 0), hi[a] = std::min(hi[a], n[a]);
  }
  auto wrap = [&](int v, int a) { return ((v % n[a]) + n[a]) % n[a]; };
  for (int x = lo[0]; x < hi[0]; ++x)
    for (int y = lo[1]; y < hi[1]; ++y) {
      // Over the box's own x and y, the box's z planes hold no halo site: the loop steps over them (a count over the
      // surface, not the volume: seconds at 10^8 atoms).
      const bool over_box = x >= box.lo[0] && x < box.hi[0] && y >= box.lo[1] && y < box.hi[1];
      for (int z = lo[2]; z < hi[2]; ++z) {
        if (over_box && z == box.lo[2]) {
          z = box.hi[2] - 1;
          continue;
        }
        const PlaneIndex q{wrap(x, 0), wrap(y, 1), wrap(z, 2)};
        if (!ZincblendeLattice::isSite(q) || box.contains(q)) continue;
        for (int b = 0; b < 4; ++b) {
          PlaneIndex p;
          std::array<int, 3> w;
          if (lattice.neighbour(q, b, &p, &w) && box.contains(p)) {
            ++out.halo;
            break;
          }
        }
      }
    }
  return out;
}

DomainBonds CountDomainBonds(const ZincblendeLattice &lattice, const PlanePartition &partition, int domain) {
  DomainBonds out;
  const PlaneBox box = partition.box(domain);
  const auto &n = lattice.planes();
  const auto &periodic = lattice.periodic();
  // Bonds step one plane along every axis: only an atom on the first or last plane of an open axis has a dangling one.
  auto on_face = [&](int v, int a) { return !periodic[a] && (v == 0 || v == n[a] - 1); };
  long long dangling_bonds = 0;
  std::uint32_t kinds = 0; // bit 16 s + mask: sublattice s, bonds `mask` dangling
  auto visit = [&](PlaneIndex q) {
    PlaneIndex p;
    std::array<int, 3> w;
    int mask = 0;
    for (int b = 0; b < 4; ++b) mask |= !lattice.neighbour(q, b, &p, &w) << b;
    dangling_bonds += std::popcount((unsigned)mask), out.dangling_atoms += mask != 0;
    if (mask) kinds |= 1u << (16 * (int)ZincblendeLattice::sublatticeOf(q) + mask);
  };
  for (int x = box.lo[0]; x < box.hi[0]; ++x)
    for (int y = box.lo[1]; y < box.hi[1]; ++y) {
      const int r = ZincblendeLattice::lineResidue(x, y);
      if (r < 0) continue;
      if (on_face(x, 0) || on_face(y, 1)) { // the whole line lies on an open face
        for (int z = box.lo[2] + ((r - box.lo[2]) % 4 + 4) % 4; z < box.hi[2]; z += 4) visit({x, y, z});
        continue;
      }
      for (int z : {0, n[2] - 1}) // the line's ends on the open z faces (4 planes per cell: two planes)
        if (on_face(z, 2) && z >= box.lo[2] && z < box.hi[2] && z % 4 == r) visit({x, y, z});
    }
  out.bonds = 4 * box.countAtoms() - dangling_bonds;
  out.dangling_kinds = std::popcount(kinds);
  return out;
}

} // namespace tbpeta
