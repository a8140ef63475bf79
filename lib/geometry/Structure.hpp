#pragma once
// This rank's part of the structure: its owned atoms (the atom sites inside its plane box), the halo (atoms of
// other ranks bonded to an owned atom), each atom's material, the bonds of the owned atoms and the global
// numbering (rank by rank; inside a rank plane by plane, lexicographic in x, y, z). No rank holds more than its
// own atoms and halo. Each atom keeps a displacement (zero: unstrained) so strain can come without a redesign.
#include <petscsys.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "geometry/CanonicalRuns.hpp"
#include "geometry/Nanostructure.hpp"
#include "geometry/PlanePartition.hpp"
#include "geometry/ZincblendeLattice.hpp"
#include "support/LargeArrays.hpp"
#include "support/SharedArray.hpp"

namespace tbpeta {

// Local index of an atom site inside one plane box, in the box's lexicographic (x, y, z) order.
class BoxIndexer {
public:
  BoxIndexer() = default;
  explicit BoxIndexer(const PlaneBox &box);
  int count() const { return total_; }
  int localIndex(PlaneIndex p) const; // p must be an atom site inside the box
  int lineStart(int x, int y) const {
    return line_start_[(size_t)(x - box_.lo[0]) * box_.extent(1) + (y - box_.lo[1])];
  } // (x, y) inside the box
  const PlaneBox &box() const { return box_; }

private:
  PlaneBox box_;
  std::vector<int> line_start_; // atoms before line (x, y), lexicographic
  int total_ = 0;
};

// The global index of any atom site of the supercell, from its owner's box and the ranks' offsets (each owner's box
// indexed once, when first asked).
class SiteNumbering {
public:
  SiteNumbering(const PlanePartition &partition, const std::vector<PetscInt> &offsets)
      : partition_(partition), offsets_(offsets) {}
  PetscInt operator()(PlaneIndex q) { // inline: the bond search asks it for every halo bond
    const int owner = partition_.ownerOf(q);
    auto it = indexers_.find(owner);
    if (it == indexers_.end()) it = indexers_.emplace(owner, BoxIndexer(partition_.box(owner))).first;
    return offsets_[owner] + it->second.localIndex(q);
  }

private:
  const PlanePartition &partition_;
  const std::vector<PetscInt> &offsets_;
  std::unordered_map<int, BoxIndexer> indexers_;
};

inline constexpr std::uint8_t kNoMaterial = 255;

struct Structure {
  ZincblendeLattice lattice;
  PlanePartition partition;
  int rank = 0;
  PlaneBox box;
  PetscInt owned = 0;            // atoms owned by this rank
  std::vector<PetscInt> offsets; // global index of each rank's first atom, and the atoms of all ranks after the last
  PetscInt globalOffset() const { return offsets.empty() ? 0 : offsets[rank]; } // of the first owned atom
  PetscInt total() const { return offsets.empty() ? 0 : offsets.back(); }       // atoms over all ranks
  // The rank that owns the atom of global index g.
  int ownerOf(PetscInt g) const {
    return (int)(std::upper_bound(offsets.begin(), offsets.end(), g) - offsets.begin()) - 1;
  }
  double a_nm = 0; // lattice constant of the ideal sites (nm); set by whoever knows the materials
  // A homogeneous strain of the whole box (Voigt xx, yy, zz, yz, xz, xy; tensor components; zero unless set: strained
  // bulk): every ideal bond d is (1 + strain) d, the periodic lengths with it; displacements come on top.
  std::array<double, 6> strain{0, 0, 0, 0, 0, 0};
  bool homogeneouslyStrained() const { return strain != std::array<double, 6>{0, 0, 0, 0, 0, 0}; }

  LargeVector<PlaneIndex> sites;      // owned atoms [0, owned), then halo atoms
  LargeVector<std::uint8_t> material; // per site; kNoMaterial for halo anions (never needed)
  LargeVector<std::array<double, 3>>
      displacement; // nm per site, or empty: every atom at its ideal site (no relaxation)
  // The potential energy on each owned atom (eV), added to every orbital and spin of its on-site block by every
  // operator kind (HamiltonianBlocks::onsiteTerms): the one place for potentials on the atoms (electrostatic,
  // piezoelectric, applied fields). Empty: none.
  LargeVector<double> potential;
  SharedArray<std::array<int, 4>> bonds; // owned atoms: site index of bond b's neighbour, -1 = dangling
  LargeVector<std::uint32_t> wraps;      // owned atoms: per bond b and axis a, the wrap sign + 1 in bits 2 (3b + a)
  std::vector<PetscInt> halo_global;     // global index of each halo atom (ascending)

  PetscInt halo() const { return (PetscInt)halo_global.size(); }
  PetscInt globalIndex(PetscInt site) const { return site < owned ? globalOffset() + site : halo_global[site - owned]; }
  Sublattice sublattice(PetscInt site) const { return ZincblendeLattice::sublatticeOf(sites[site]); }
  // The wrap sign (-1, 0, +1) of bond b of owned atom i along axis a: which periodic face the bond crosses, if any.
  int wrap(PetscInt i, int b, int a) const { return (int)((wraps[i] >> (2 * (3 * b + a))) & 3u) - 1; }
  // The bits of `wraps` that hold bond b's signs along x, y, z (sign: -1, 0, +1).
  static std::uint32_t BondWraps(int b, int x, int y, int z) {
    return ((std::uint32_t)(x + 1) | (std::uint32_t)(y + 1) << 2 | (std::uint32_t)(z + 1) << 4) << (6 * b);
  }
  static std::uint32_t BondWrapMask(int b) { return 0x3Fu << (6 * b); }
  // The displacement of a site in nm (zero when none is stored).
  std::array<double, 3> displacementOf(PetscInt site) const {
    return displacement.empty() ? std::array<double, 3>{0, 0, 0} : displacement[site];
  }
  // Sets every displacement to zero, storing them (for code that writes them).
  void StoreDisplacements() { displacement.assign(sites.size(), {0.0, 0.0, 0.0}); }
  // Position in nm (ideal site + displacement); a_nm is the lattice constant.
  std::array<double, 3> position(PetscInt site, double a_nm) const;

  // The owned atoms of the box's z line through owned atom i: they are consecutive, 4 planes apart (i first: i + n
  // starts the next line).
  PetscInt lineLength(PetscInt i) const {
    return ZincblendeLattice::lineCount(sites[i].x, sites[i].y, box.lo[2], box.hi[2]);
  }

  // The canonical (rank-independent, lexicographic) index of each owned atom, as runs and atom by atom.
  CanonicalRuns canonicalRuns() const;
  std::vector<PetscInt> canonicalAtoms() const;

  // The bytes this rank's arrays hold (their capacities).
  double bytes() const;
  // The bytes a rank's Structure will hold, from its counts of owned and halo atoms before it is built: per owned atom
  // its site, material, bonds and wraps, per halo atom its site, material and global index; every atom's displacement
  // when a relaxation sets them, every owned atom's potential when fields set one. Not collective.
  static double EstimateBytes(long long owned, long long halo, bool displacements, bool potential);

  // Builds this rank's atoms, halo and bonds. Collective.
  static PetscErrorCode Create(MPI_Comm comm, const ZincblendeLattice &lattice, const PlanePartition &partition,
                               const Nanostructure &nano, Structure *out);
};

} // namespace tbpeta
