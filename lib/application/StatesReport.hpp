#pragma once
// The table of a run's states: energy, residual and, for a structure with dot regions, the fraction of each state's
// density on the dot's atoms and whether it is bound (optics/BoundStates); one warning line when requested states
// are not bound to the dot.
#include <slepceps.h>

#include "model/TightBindingSystem.hpp"
#include "optics/BoundStates.hpp"
#include "solvers/EigenStates.hpp"

namespace tbpeta {

// With dot regions: classifies the states against the host's gap (BindStates), prints the table with its two columns
// and the warning. Without: the table of energies and residuals, and an empty binding. Collective (rank 0 prints).
PetscErrorCode ReportStates(MPI_Comm comm, const TightBindingSystem &sys, EPS eps, const EigenStates &states,
                            const HostGap &gap, StateBinding *binding);

} // namespace tbpeta
