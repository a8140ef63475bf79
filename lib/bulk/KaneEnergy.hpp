#pragma once
// The Kane energy of a material from its tight-binding set, gauge-free: at Gamma of the periodic 8-atom cell,
//   E_P = (1/m0) sum_{c, v} |<c|p_x|v>|^2 = sum |M_x(c, v)|^2 / (2 hbar^2 / 2m0),
// over the two states of the lowest conduction level that couples to the valence band's p manifold (Gamma6: the
// states folded in from X couple to nothing, p conserving k) and the six states of that manifold (the top of the
// valence band: heavy, light and split-off holes), with M_x = <c|[H, x]|v> of the bonds (operator/BondCommutator;
// no intra-atomic terms). Not collective (every rank computes the same).
#include <petscsys.h>

#include "model/TightBindingModel.hpp"

namespace tbpeta {

PetscErrorCode KaneEnergy(const TightBindingModel &model, int material, double *ep);

} // namespace tbpeta
