#include "geometry/PlanePartition.hpp"

#include <limits>

namespace tbpeta {

const char *partitionName(PartitionKind k) {
  switch (k) {
  case PartitionKind::slab: return "slab";
  case PartitionKind::column: return "column";
  default: return "cube";
  }
}

long long PlaneBox::countAtoms() const {
  // A line's atoms depend on (x mod 4, y mod 4) alone: the lines of each of the 16 classes times their atoms.
  long long n = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const int r = ZincblendeLattice::lineResidue(a, b);
      if (r >= 0)
        n += (long long)ZincblendeLattice::residueCount(a, lo[0], hi[0]) *
             ZincblendeLattice::residueCount(b, lo[1], hi[1]) * ZincblendeLattice::residueCount(r, lo[2], hi[2]);
    }
  return n;
}

PlanePartition::PlanePartition(std::array<int, 3> planes, std::array<int, 3> grid) : planes_(planes), grid_(grid) {}

bool PlanePartition::chooseGrid(PartitionKind kind, int ranks, std::array<int, 3> planes, std::array<int, 3> *grid,
                                bool allow_empty) {
  if (kind == PartitionKind::slab) {
    *grid = {ranks, 1, 1};
    return allow_empty || ranks <= planes[0];
  }
  double best = std::numeric_limits<double>::max();
  bool found = false;
  for (int px = 1; px <= ranks; ++px) {
    if (ranks % px) continue;
    for (int py = 1; py <= ranks / px; ++py) {
      if ((ranks / px) % py) continue;
      const int pz = ranks / px / py;
      if (kind == PartitionKind::column && pz != 1) continue;
      if (!allow_empty && (px > planes[0] || py > planes[1] || pz > planes[2])) continue;
      const double lx = double(planes[0]) / px, ly = double(planes[1]) / py, lz = double(planes[2]) / pz;
      const double surface = lx * ly + ly * lz + lx * lz;
      // Strictly smaller wins, so ties keep the earlier grid: the one with fewer cuts along x.
      if (surface < best * (1 - 1e-12)) {
        best = surface;
        *grid = {px, py, pz};
        found = true;
      }
    }
  }
  return found;
}

std::array<int, 3> PlanePartition::coordOf(int rank) const {
  return {rank % grid_[0], (rank / grid_[0]) % grid_[1], rank / (grid_[0] * grid_[1])};
}

int PlanePartition::splitStart(int axis, int c) const {
  const int n = planes_[axis], p = grid_[axis], base = n / p, extra = n % p;
  return c * base + (c < extra ? c : extra);
}

int PlanePartition::ownerOnAxis(int axis, int plane) const {
  const int n = planes_[axis], p = grid_[axis], base = n / p, extra = n % p;
  const int cut = extra * (base + 1); // planes held by the first `extra` (larger) ranges
  return plane < cut ? plane / (base + 1) : extra + (plane - cut) / base;
}

PlaneBox PlanePartition::box(int rank) const {
  const auto c = coordOf(rank);
  PlaneBox b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = splitStart(a, c[a]);
    b.hi[a] = splitStart(a, c[a] + 1);
  }
  return b;
}

int PlanePartition::ownerOf(PlaneIndex p) const {
  return rankOf({ownerOnAxis(0, p.x), ownerOnAxis(1, p.y), ownerOnAxis(2, p.z)});
}

PetscErrorCode PartitionSpecFromOptions(MPI_Comm comm, PartitionSpec *spec) {
  const char *kinds[] = {"slab", "column", "cube", "PartitionKind", "PARTITION_", nullptr};
  PetscEnum k = (PetscEnum)PartitionKind::cube;
  PetscInt g[3] = {PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE};
  PetscBool set[3] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Domain decomposition of the atomic planes", "tbpeta");
  PetscCall(PetscOptionsEnum("-partition",
                             "Process grid over the atomic planes: slab (x only), column (x,y), cube (x,y,z)", "tbpeta",
                             kinds, k, &k, nullptr));
  PetscCall(PetscOptionsInt("-da_processors_x",
                            "Ranks along x (with -da_processors_y/z: an explicit grid that wins over -partition)",
                            "tbpeta", g[0], &g[0], &set[0]));
  PetscCall(PetscOptionsInt("-da_processors_y", "Ranks along y", "tbpeta", g[1], &g[1], &set[1]));
  PetscCall(PetscOptionsInt("-da_processors_z", "Ranks along z", "tbpeta", g[2], &g[2], &set[2]));
  PetscOptionsEnd();
  spec->kind = (PartitionKind)k;
  for (int a = 0; a < 3; ++a) {
    PetscCheck(!set[a] || g[a] >= 1, comm, PETSC_ERR_USER_INPUT,
               "-da_processors_%c: %" PetscInt_FMT " is not a positive rank count", "xyz"[a], g[a]);
    spec->grid[a] = set[a] ? (int)g[a] : 0;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode CreatePlanePartition(MPI_Comm comm, std::array<int, 3> planes, const PartitionSpec &spec,
                                    PlanePartition *partition) {
  PetscMPIInt size;
  std::array<int, 3> grid{1, 1, 1};
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  const auto &g = spec.grid;
  if (g[0] || g[1] || g[2]) {
    // Unset axes share the remaining ranks, filled from x (like DMDA's PETSC_DECIDE, simplified).
    int known = 1;
    for (int a = 0; a < 3; ++a)
      if (g[a]) known *= g[a];
    const auto shown = [&](int a) { return g[a] ? std::to_string(g[a]) : std::string("?"); };
    PetscCheck(size % known == 0, comm, PETSC_ERR_USER_INPUT,
               "-da_processors_x/y/z: the grid (%s x %s x %s) does not multiply to the %d ranks", shown(0).c_str(),
               shown(1).c_str(), shown(2).c_str(), size);
    int rest = size / known;
    for (int a = 0; a < 3; ++a) {
      grid[a] = g[a] ? g[a] : rest;
      if (!g[a]) rest = 1;
    }
    PetscCheck(grid[0] * grid[1] * grid[2] == size, comm, PETSC_ERR_USER_INPUT,
               "-da_processors_x/y/z: the grid %d x %d x %d does not multiply to the %d ranks", grid[0], grid[1],
               grid[2], size);
    for (int a = 0; a < 3; ++a)
      PetscCheck(grid[a] <= planes[a], comm, PETSC_ERR_USER_INPUT,
                 "-da_processors_%c: %d ranks along %c but the supercell has only %d atomic planes there (4 per cell "
                 "of -cells)",
                 "xyz"[a], grid[a], "xyz"[a], planes[a]);
  } else {
    PetscCheck(PlanePartition::chooseGrid(spec.kind, size, planes, &grid), comm, PETSC_ERR_USER_INPUT,
               "-partition %s: no %s grid of %d ranks gives every rank a plane of the %d x %d x %d atomic planes (use "
               "more -cells or fewer ranks)",
               partitionName(spec.kind), partitionName(spec.kind), size, planes[0], planes[1], planes[2]);
  }
  *partition = PlanePartition(planes, grid);
  PetscFunctionReturn(0);
}

} // namespace tbpeta
