#pragma once
// The lines a run prints about what it built: the structure, the model, H (matrix or operator, its size), the
// process grid with the owned and halo atoms per rank, and the host's band edges.
#include <petscmat.h>

#include "model/TightBindingSystem.hpp"

namespace tbpeta {

// Collective (rank 0 prints). H: the operator, or nullptr when none is built (-solve false).
PetscErrorCode PrintSystemSummary(MPI_Comm comm, const TightBindingSystem &sys, Mat H, double vbm, double cbm);

} // namespace tbpeta
