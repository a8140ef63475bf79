#pragma once
// Resident memory of this process as Linux reports it (/proc/self/status), the measurement behind every memory
// number tbpeta prints: PETSc's own maximum-usage counter only samples at object destruction.
#include <petscsys.h>

namespace tbpeta {

// A field of /proc/self/status in kB (e.g. "VmHWM", "VmRSS"), or -1 when absent.
double ProcStatusKb(const char *field);
// MemAvailable of this node (/proc/meminfo) in MB, or -1 when unknown.
double NodeMemAvailableMb();
// Resets the peak (VmHWM) to the current resident size (/proc/self/clear_refs, Linux >= 4.0); false if refused.
bool ResetPeakResident();
// The peak resident size (VmHWM) in MB: the maximum over the ranks of comm, and their sum.
PetscErrorCode PeakResidentMb(MPI_Comm comm, double *max_over_ranks, double *sum_over_ranks);

} // namespace tbpeta
