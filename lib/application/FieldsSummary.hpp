#pragma once
// The line a run prints about the potentials on its atoms: the piezoelectric order and e14 choice with the Poisson
// grid, solver, iterations and time; the applied field and its origin; the range of the potential over the atoms.
#include <petscsys.h>

#include "fields/SystemFields.hpp"

namespace tbpeta {

// Nothing without -piezo or -efield. Collective (rank 0 prints).
PetscErrorCode PrintFieldsSummary(MPI_Comm comm, const TightBindingSystem &sys, const SystemFields &fields);

} // namespace tbpeta
