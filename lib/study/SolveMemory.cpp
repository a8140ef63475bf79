#include "study/SolveMemory.hpp"

#include <malloc.h>

#include "study/AllocationTracker.hpp"
#include "support/ResidentMemory.hpp"

namespace tbpeta {

PetscErrorCode MemoryMeter::Begin(Mat) {
  PetscFunctionBeginUser;
  malloc_trim(0);
  base_kb_ = ProcStatusKb("VmRSS");
  ResetPeakResident();
  PetscCall(BeginVectorCount(&baseline_));
  PetscFunctionReturn(0);
}

PetscErrorCode MemoryMeter::End(Mat H, EigenStates *states) {
  PetscFunctionBeginUser;
  PetscCall(VectorsHeld(H, baseline_, &states->vectors_held));
  PetscCall(PeakResidentMb(PetscObjectComm((PetscObject)H), &states->peak_rss_mb, nullptr));
  solver_mb = (ProcStatusKb("VmHWM") - base_kb_) / 1024.0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &solver_mb, 1, MPI_DOUBLE, MPI_MAX, PetscObjectComm((PetscObject)H)));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
