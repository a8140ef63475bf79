#pragma once
// A DMDA-style partition of the atomic planes over a px x py x pz process grid (x fastest, as PETSc's DMDA
// numbers its ranks). Each axis is split into contiguous plane ranges of N/p or N/p+1 planes (PetscSplitOwnership
// style, the larger ones first). Any rank can ask for any other rank's box: nothing is gathered.
#include <petscsys.h>

#include <array>
#include <string>

#include "geometry/ZincblendeLattice.hpp"

namespace tbpeta {

enum class PartitionKind { slab, column, cube };
const char *partitionName(PartitionKind k);

struct PlaneBox {
  std::array<int, 3> lo{0, 0, 0}, hi{0, 0, 0}; // [lo, hi) planes per axis
  int extent(int a) const { return hi[a] - lo[a]; }
  bool contains(PlaneIndex p) const {
    return p.x >= lo[0] && p.x < hi[0] && p.y >= lo[1] && p.y < hi[1] && p.z >= lo[2] && p.z < hi[2];
  }
  long long countAtoms() const; // atoms inside the box, from the lattice's closed form
};

class PlanePartition {
public:
  PlanePartition() = default;
  // grid must multiply to `ranks` and give every rank at least one plane on each axis (checked by Choose/Check).
  PlanePartition(std::array<int, 3> planes, std::array<int, 3> grid);

  // The grid tbpeta uses for `ranks` ranks: slab = P x 1 x 1, column = px x py x 1 and cube = px x py x pz, the
  // column and cube grids chosen (like DMDA) to minimise the subdomain surface for the given planes. Returns false
  // when no such grid gives every rank a plane; with allow_empty, grids with more ranks than planes on an axis
  // take part too (the halo analysis of any P), and slabs always succeed.
  static bool chooseGrid(PartitionKind kind, int ranks, std::array<int, 3> planes, std::array<int, 3> *grid,
                         bool allow_empty = false);

  const std::array<int, 3> &grid() const { return grid_; }
  int size() const { return grid_[0] * grid_[1] * grid_[2]; }
  int rankOf(std::array<int, 3> coord) const { return coord[0] + grid_[0] * (coord[1] + grid_[1] * coord[2]); }
  std::array<int, 3> coordOf(int rank) const;
  PlaneBox box(int rank) const;
  // The rank owning plane triple p (p inside the supercell).
  int ownerOf(PlaneIndex p) const;

private:
  int splitStart(int axis, int c) const; // first plane of grid coordinate c on axis
  int ownerOnAxis(int axis, int plane) const;
  std::array<int, 3> planes_{0, 0, 0}, grid_{1, 1, 1};
};

// How the ranks are laid over the planes: a kind (-partition) or an explicit grid (-da_processors_x/y/z, 0 = chosen).
struct PartitionSpec {
  PartitionKind kind = PartitionKind::cube;
  std::array<int, 3> grid{0, 0, 0};
};

// Reads -partition slab|column|cube (default cube) and -da_processors_x/y/z (which win over -partition). Collective.
PetscErrorCode PartitionSpecFromOptions(MPI_Comm comm, PartitionSpec *spec);

// The partition of `planes` over the ranks of comm, or a one-line PETSC_ERR_USER_INPUT error naming the option when
// the grid does not multiply to the ranks or leaves a rank without a plane. Collective.
PetscErrorCode CreatePlanePartition(MPI_Comm comm, std::array<int, 3> planes, const PartitionSpec &spec,
                                    PlanePartition *partition);

} // namespace tbpeta
