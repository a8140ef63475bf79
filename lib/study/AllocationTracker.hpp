#pragma once
// Bytes allocated through PETSc (PetscMalloc/PetscCalloc/PetscRealloc/PetscFree: Vec arrays, SLEPc bases (BV), work
// vectors, the small dense matrices of SLEPc's DS, communication buffers), counted while tracking is on: the current
// total and its peak since a reset. This is how the comparison of solvers and the benchmarks measure each solver's
// "vectors held": the peak of the bytes allocated during the solve, in vectors of H's size. Tracking is opt-in (the
// application's own runs do not pay for it).
//
// The counting routines wrap PETSc's default ones (PetscMallocAlign & co., so PETSc's alignment and error handling are
// kept) and keep each block's size in a table rather than in a header, so they can be installed and removed at any
// time after PetscInitialize: a block they did not allocate is passed on uncounted. PETSc's own debugging allocator
// (-malloc_debug, -malloc_dump, -malloc_view, -malloc_test, -log_view_memory) takes precedence: with it nothing is
// measured (vectors held -1).
#include <petscmat.h>

#include <cstddef>

namespace tbpeta {

// Installs the counting routines (no effect when another allocator than PETSc's default is installed). Not collective.
PetscErrorCode StartAllocationTracking();
// Restores PETSc's default routines (when the tracker was installed). Not collective.
PetscErrorCode StopAllocationTracking();

// True while the counting routines are PETSc's allocator on this rank.
bool AllocationTrackerActive();
// Bytes allocated through PETSc since tracking started and not yet freed, on this rank.
size_t AllocationCurrentBytes();
// Sets the peak to the current bytes.
void ResetAllocationPeak();
// The largest AllocationCurrentBytes() since the last ResetAllocationPeak().
size_t AllocationPeakBytesSinceReset();

// Starts a measurement of vectors held: initialises the packages of a solve (SLEPc's, KSP, PC: their first use
// registers classes, log events and stages, a one-time growth of PETSc's tables that would otherwise be charged to
// the first solve), resets the peak and gives the baseline for VectorsHeld. Not collective.
PetscErrorCode BeginVectorCount(size_t *baseline_bytes);

// Vectors held: (peak since the last reset - baseline_bytes) / (local rows of H * sizeof(PetscScalar)), rounded to the
// nearest whole vector (each PETSc object also allocates a few hundred bytes of header), maximum over the ranks of H;
// -1 when the tracker is not active on some rank. fraction (optional): the unrounded maximum. Collective on H.
PetscErrorCode VectorsHeld(Mat H, size_t baseline_bytes, PetscInt *vectors, double *fraction = nullptr);

} // namespace tbpeta
