#pragma once
// The memory of one solve, measured for the comparison of solvers and the benchmarks (not the application's own
// runs): the vectors held (AllocationTracker: the peak of the bytes PETSc allocated during the solve above what
// existed before it, in vectors of H's local rows, max over the ranks), the peak resident size (VmHWM, reset just
// before the solve) and what the solve added to the resident size before it (the previous solve's freed heap is
// returned to the system first, so that the resident size before is this solve's baseline).
#include "solvers/EigenSolve.hpp"

namespace tbpeta {

class MemoryMeter : public SolveMeter {
public:
  PetscErrorCode Begin(Mat H) override;
  PetscErrorCode End(Mat H, EigenStates *states) override; // states->vectors_held, states->peak_rss_mb
  double solver_mb = 0; // peak during the solve minus the resident size before it, max over the ranks

private:
  size_t baseline_ = 0;
  double base_kb_ = 0;
};

} // namespace tbpeta
