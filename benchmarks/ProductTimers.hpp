#pragma once
// Products and Lanczos steps timed side by side: every candidate once per round, rounds repeated, so that a change of
// the machine's load hits all alike; the median of each (the slowest rank of each call).
#include <petscmat.h>

#include <vector>

#include "support/PetscHandle.hpp"

namespace tbpeta::bench {

// The median time of a product y = H x for each operator of `ops` (same layout), after one round of warm-up.
// Collective on the operators' communicator.
PetscErrorCode TimeProducts(MPI_Comm comm, const std::vector<OwnedMat> &ops, PetscInt products,
                            std::vector<double> *median);

// The median times of a step of tbpeta's Lanczos recurrence on H (lazy; fused where H offers it; plain) and of a
// product of H timed between them, `steps` rounds after one of warm-up: the step against the product is the solver's
// vector work.
struct LanczosStepTimes {
  double lazy = 0, fused = 0, plain = 0, product = 0;
};
PetscErrorCode TimeLanczosSteps(Mat H, PetscInt steps, LanczosStepTimes *times);

} // namespace tbpeta::bench
