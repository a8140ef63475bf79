#pragma once
// The interband momentum matrix elements of the states a solve found: M_a(c, v) = <c| C_a |v> (eV nm), C_a the
// bond-weighted commutator [H, r_a] (operator/BondCommutator), so that <c|p_a|v> = (i m0 / hbar) M_a(c, v).
// Each valence state takes C_x, C_y and C_z once (6 products of H), one at a time, and every conduction state's vector
// is read once per valence state and axis: the states stay in the solver, and kMomentumVectors vectors of H's size
// are held besides: one more than the Lanczos recurrence, which has freed its three by then.
#include <petscmat.h>

#include <array>
#include <complex>
#include <functional>
#include <vector>

#include "operator/BondCommutator.hpp"

namespace tbpeta {

// Vectors of H's size held while the elements are computed: a valence and a conduction state, C_a of the valence
// state, and the commutator's work vector.
inline constexpr PetscInt kMomentumVectors = 4;

// Writes state k's vector (normalised) into x. Collective.
using StateReader = std::function<PetscErrorCode(size_t k, Vec x)>;

struct MomentumElements {
  std::vector<size_t> conduction, valence;                // the states, as StateReader indices
  std::vector<std::array<std::complex<double>, 3>> value; // M(c, v) at [ic * valence.size() + iv], eV nm
  const std::array<std::complex<double>, 3> &at(size_t ic, size_t iv) const { return value[ic * valence.size() + iv]; }
};

// Collective; shown in -log_view as TbMomentum.
PetscErrorCode ComputeMomentumElements(const BondCommutator &C, Mat H, const std::vector<size_t> &conduction,
                                       const std::vector<size_t> &valence, const StateReader &read,
                                       MomentumElements *out);

} // namespace tbpeta
