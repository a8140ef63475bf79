#pragma once
// The halo of every domain of a DMDA-style partition of the atomic planes, counted from the actual bonds of the
// lattice for any number of domains P (also far beyond the ranks at hand, serially): owned atoms and halo atoms
// (atoms of other domains bonded to an owned atom), as a rank of tbpeta would hold them.
#include <array>
#include <vector>

#include "geometry/PlanePartition.hpp"
#include "geometry/ZincblendeLattice.hpp"

namespace tbpeta {

// The grid tbpeta uses for P domains (PlanePartition::chooseGrid); when no grid gives every domain a plane (P
// beyond the planes), the same rule without that condition, so the partition has empty domains.
std::array<int, 3> AnalysisGrid(PartitionKind kind, int domains, std::array<int, 3> planes);

struct HaloCounts {
  std::array<int, 3> grid{1, 1, 1};
  std::vector<long long> owned, halo; // per domain (rank order of PlanePartition)
  long long ownedMin() const;
  long long ownedMax() const;
  long long haloMax() const;
  int emptyDomains() const;
};

// Counts every domain's owned and halo atoms: one pass over the atoms and their bonds.
HaloCounts CountHalo(const ZincblendeLattice &lattice, const PlanePartition &partition);

// One domain's owned and halo atoms, from its box and the planes around it only (for structures too large to
// walk whole, e.g. weak scaling to billions of atoms).
struct DomainHalo {
  long long owned = 0, halo = 0;
};
DomainHalo CountDomainHalo(const ZincblendeLattice &lattice, const PlanePartition &partition, int domain);

// One domain's bonds of owned atoms (to any neighbour), its owned atoms with a dangling bond (passivated, on the planes
// of an open face) and how many kinds of them there are (sublattice and which bonds dangle), from the atoms on those
// planes only.
struct DomainBonds {
  long long bonds = 0, dangling_atoms = 0;
  int dangling_kinds = 0;
};
DomainBonds CountDomainBonds(const ZincblendeLattice &lattice, const PlanePartition &partition, int domain);

} // namespace tbpeta
