#pragma once
// Whether the states of a solve are the dot's: the fraction of each state's density on the atoms of the dot regions
// (inside a region's shape or on its wetting layer, Nanostructure::regionOf), and whether its energy lies in the
// host's gap: below the host's conduction-band minimum for an electron, above its valence-band maximum for a hole,
// from the host's bulk bands along L-G-X (direct and indirect minima alike) at the host's strain (HostStrain: the
// strain the lattice imposes on the host far from the dot). The host is its pure material: a -host_alloy is not in
// its bands (the report says so).
#include <slepceps.h>

#include <string>
#include <vector>

#include "model/TightBindingSystem.hpp"
#include "strain/StrainTensor.hpp"
#include "solvers/EigenStates.hpp"

namespace tbpeta {

// The host's bulk band edges (absolute eV) and where its conduction-band minimum lies.
struct HostGap {
  double vbm = 0, cbm = 0;
  std::string cbm_where; // e.g. "G", "0.813 of the way G-X"
  double centre() const { return 0.5 * (vbm + cbm); }
};

// The strain of the host far from the dot: a homogeneously strained box's strain; with a relaxation whose lattice
// takes another material's lattice constant (-strain_substrate), the host held to it along the strain domain's
// periodic axes and relaxed along its open ones (Keating's C11 = (alpha + 3 beta)/a, C12 = (alpha - beta)/a: biaxial
// e_zz = -2 C12/C11 e, uniaxial e_open = -C12/(C11 + C12) e); none otherwise (the host of a relaxed dot in an open box
// is unstrained far from the dot).
Voigt HostStrain(const TightBindingSystem &sys);

// The band edges of material 0 of sys's model at HostStrain. Collective (the k points are shared over the ranks).
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
