#pragma once
// The line a run prints about the potentials on its atoms: each on-site term that is on in its own words (the
// piezoelectric order with the Poisson solve, the applied field and its origin), then the range of the potential.
#include <petscsys.h>

#include "fields/SystemFields.hpp"

namespace tbpeta {

// Nothing without -piezo or -efield. Collective (rank 0 prints).
PetscErrorCode PrintFieldsSummary(MPI_Comm comm, const TightBindingSystem &sys, const SystemFields &fields);

} // namespace tbpeta
