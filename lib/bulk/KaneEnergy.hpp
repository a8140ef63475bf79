#pragma once
// The momentum matrix elements between the bulk band edges, gauge-free: at a k of the primitive (fcc) zone,
//   P_a(k) = (1/m0) sum_{c, v} |<c|p_a|v>|^2 = sum |M_a(c, v)|^2 / (2 hbar^2 / 2m0)  (eV, a = x, y, z),
// with M_a = <c|[H, r_a]|v> of the bonds (operator/BondCommutator; no intra-atomic terms) between the primitive
// states at k (BulkBands::States), c over the lowest conduction band (two states with spin) and v over the top
// three valence bands (six with spin: the heavy, light and split-off holes at Gamma), each set completed to whole
// degenerate groups so that the sums do not depend on the basis inside a level.
// At Gamma, where the lowest conduction level of a zincblende crystal is Gamma6, P_x = P_y = P_z is the Kane
// energy E_P. Not collective (every rank computes the same), except BandEdgeMomentaAlongPath.
#include <petscsys.h>

#include <array>
#include <vector>

#include "bulk/BandUnfolding.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

struct BandEdgeMomentum {
  std::array<double, 3> p{0, 0, 0}; // (1/m0) sum |<c|p_a|v>|^2, eV
  int valence = 0;                  // states in the valence set
  int conduction = 0;               // states in the conduction set
};

PetscErrorCode BandEdgeMomentumAt(const BulkBands &bands, KPoint k, BandEdgeMomentum *out);
// At every sample, the samples shared round-robin over the ranks of comm and gathered on all. Collective.
PetscErrorCode BandEdgeMomentaAlongPath(MPI_Comm comm, const BulkBands &bands, const std::vector<PathSample> &samples,
                                        std::vector<BandEdgeMomentum> *out);
// E_P of the crystal of `bands` (under its strain, if any): P_x at Gamma. Needs spin-orbit (refused otherwise).
// *defined is false, and *ep 0, where no s-like conduction pair faces the p manifold: a diamond crystal (silicon's
// lowest conduction level at Gamma is the p-like Gamma15), or sets of other sizes than 6 + 2 states.
PetscErrorCode KaneEnergy(const BulkBands &bands, double *ep, bool *defined);

} // namespace tbpeta
