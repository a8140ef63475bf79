#pragma once
// The line a run prints about its relaxation: model, minimiser, iterations, energy per atom, largest force,
// converged or not, time, and the hydrostatic strain inside the dot.
#include <petscsys.h>

#include <vector>

#include "model/TightBindingSystem.hpp"
#include "strain/Relaxation.hpp"
#include "strain/StrainTensor.hpp"

namespace tbpeta {

// Nothing without a relaxation; a warning line when it stopped before its tolerance. Collective (rank 0 prints).
PetscErrorCode PrintStrainSummary(MPI_Comm comm, const TightBindingSystem &sys, const RelaxationReport &report,
                                  const std::vector<Voigt> &tensors);

} // namespace tbpeta
