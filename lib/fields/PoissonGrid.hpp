#pragma once
// The regular grid of the polarisation's Poisson problem: a PETSc DMDA over the strain domain and a padding of host
// beyond it, in the ideal lattice's frame (positions in planes, a/4, of the electronic box; an atom's ideal site, so a
// node of a/4 or a/2 sits on atoms). On a periodic axis the grid has grid * cells nodes and wraps; on an open axis it
// spans the box, its strain padding and the Poisson padding, with one node more on each side where the potential is
// given (0, or a boundary function).
// An atom's polarisation and permittivity reach the nodes through a tent of half-width max(a/2, h) per axis (an
// atom's share of the crystal at any grid), normalised per node: a uniform field stays exactly uniform. The potential
// comes back to a site by trilinear interpolation.
#include <petscdmda.h>

#include <array>
#include <vector>

#include "support/PetscHandle.hpp"

namespace tbpeta {

using OwnedDM = Owned<DM, DMDestroy>;

struct PoissonGridGeometry {
  std::array<PetscInt, 3> nodes{0, 0, 0};
  std::array<bool, 3> periodic{true, true, true};
  std::array<double, 3> first_plane{0, 0, 0}; // plane coordinate (a/4) of node 0 along each axis
  double planes_per_node = 2;                 // 4 / nodes per lattice constant
  double a_nm = 0;
  double spacingNm() const { return 0.25 * a_nm * planes_per_node; }
  double nodeCoordinate(int a, double plane) const { return (plane - first_plane[a]) / planes_per_node; }
  double positionNm(int a, PetscInt node) const { return 0.25 * a_nm * (first_plane[a] + node * planes_per_node); }
  bool boundaryNode(int a, PetscInt k) const { return !periodic[a] && (k == 0 || k == nodes[a] - 1); }
  long long totalNodes() const { return (long long)nodes[0] * nodes[1] * nodes[2]; }
};

// The grid over a box of `cells` padded by `pad` cells on each side, with `per_cell` nodes per lattice constant (1, 2
// or 4): a periodic axis repeats the padded box (pad 0: the box itself), an open one ends in a boundary node beyond
// each side.
PoissonGridGeometry MakePoissonGrid(const std::array<int, 3> &cells, const std::array<bool, 3> &periodic,
                                    const std::array<int, 3> &pad, int per_cell, double a_nm);

// What one atom gives the grid: its ideal site (planes, electronic frame), polarisation (C/m^2) and permittivity.
struct PolarizationSource {
  std::array<int, 3> plane;
  std::array<double, 3> P;
  double eps;
};

// The PETSc global index of each node of a DMDA, from its ownership ranges (no scatter needed).
class NodeNumbering {
public:
  PetscErrorCode Setup(DM da);
  PetscInt operator()(PetscInt i, PetscInt j, PetscInt k) const;

private:
  std::array<std::vector<PetscInt>, 3> starts_; // first node of each process slab, and the total after the last
  std::vector<PetscInt> offsets_;               // first global index of each rank
};

// The DMDA of the potential (dof 1) and its companion of the node fields (dof 5: Px, Py, Pz, eps and the atoms'
// weight), star stencil of width 1. Collective.
PetscErrorCode CreatePoissonDMs(MPI_Comm comm, const PoissonGridGeometry &g, OwnedDM *potential, OwnedDM *fields);

// The node fields (a global vector of `fields`) from this rank's sources: the tent-weighted means, and at a node no
// atom reaches P = 0 and eps = host_eps. Collective.
PetscErrorCode DepositSources(const PoissonGridGeometry &g, DM fields, const std::vector<PolarizationSource> &sources,
                              double host_eps, Vec node_fields);

// phi (a global vector of the potential's DMDA) at each plane position (electronic frame), trilinear. Collective.
PetscErrorCode InterpolateAtSites(const PoissonGridGeometry &g, DM potential, Vec phi,
                                  const std::vector<std::array<double, 3>> &planes, std::vector<double> *values);

} // namespace tbpeta
