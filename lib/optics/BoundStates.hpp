#pragma once
// Whether the states of a solve are the dot's: the fraction of each state's density on the atoms of the dot regions
// (inside a region's shape or on its wetting layer, Nanostructure::regionOf), and whether its energy lies in the
// host's gap: below the host's conduction-band minimum for an electron, above its valence-band maximum for a hole,
// from the host's bulk bands along L-G-X (direct and indirect minima alike) at the host's strain (a homogeneously
// strained box's strain; none for a relaxed dot, whose host far from the dot is unstrained).
#include <slepceps.h>

#include <string>
#include <vector>

#include "model/TightBindingSystem.hpp"
#include "solvers/EigenStates.hpp"

namespace tbpeta {

// The host's bulk band edges (absolute eV) and where its conduction-band minimum lies.
struct HostGap {
  double vbm = 0, cbm = 0;
  std::string cbm_where; // e.g. "G", "0.813 of the way G-X"
  double centre() const { return 0.5 * (vbm + cbm); }
};

// The band edges of material 0 of sys's model at the structure's homogeneous strain. Collective (the k points are
// shared over the ranks).
PetscErrorCode ComputeHostGap(MPI_Comm comm, const TightBindingSystem &sys, HostGap *gap);

struct StateBinding {
  std::vector<double> dot_fraction; // per state (ascending, as EigenStates): sum of |psi|^2 on the dot's atoms; empty
                                    // without eigenvectors or without dot regions
  std::vector<signed char> bound;   // per state: 1 when its energy lies in the host's gap on its side of the centre
  int electrons = 0, holes = 0;     // states above and below the gap's centre
  int bound_electrons = 0, bound_holes = 0;
};

// Each state's dot fraction (from the eigenvectors eps holds, when it holds them and sys has dot regions) and whether
// it is bound. Collective.
PetscErrorCode BindStates(MPI_Comm comm, const TightBindingSystem &sys, EPS eps, const EigenStates &states,
                          const HostGap &gap, StateBinding *binding);

} // namespace tbpeta
