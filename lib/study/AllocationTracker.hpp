#pragma once
// Bytes allocated through PETSc (PetscMalloc/PetscCalloc/PetscRealloc/PetscFree: Vec arrays, SLEPc bases (BV),
// work vectors, the small dense matrices of SLEPc's DS, communication buffers), counted by allocation routines
// installed with PetscMallocSet: the current total and its peak since a reset. This is how every solver's "vectors
// held" is measured: the peak of the bytes allocated during the solve in units of one vector of the matrix size.
//
// PetscMallocSet must be called before PetscInitialize/SlepcInitialize (the routines then see every allocation and
// every free: a block freed by them carries the header they wrote) and may be called only once. The tracker wraps
// PETSc's default routines (PetscMallocAlign & co.), so PETSc's alignment and error handling are kept.
//
// PETSc's own debugging allocator (-malloc_debug, -malloc_dump, -malloc_view, -malloc_test, -malloc,
// -log_view_memory) is installed during PetscInitialize by a second PetscMallocSet, which PETSc refuses once the
// tracker is installed ("cannot call multiple times"): InstallAllocationTracker therefore leaves PETSc's allocator
// alone when one of these options is on the command line or in PETSC_OPTIONS, and nothing is measured then. (Given
// only in an options file, they make PetscInitialize fail.) -malloc_hbw is ignored by PETSc once an allocator is
// set; -malloc_coalesce is fine (one counted allocation per group).
#include <petscmat.h>

#include <cstddef>

namespace tbpeta {

// Installs the counting routines, before PetscInitialize/SlepcInitialize; argc/argv: the program's arguments (see
// above; pass 0/nullptr when PETSc gets no arguments). Not collective.
PetscErrorCode InstallAllocationTracker(int argc, char **argv);

// True while the counting routines are PETSc's allocator on this rank.
bool AllocationTrackerActive();

// Bytes allocated through PETSc and not yet freed, on this rank (0 when the tracker is not active).
size_t AllocationCurrentBytes();
// Sets the peak to the current bytes.
void ResetAllocationPeak();
// The largest AllocationCurrentBytes() since the last ResetAllocationPeak() (or since the installation).
size_t AllocationPeakBytesSinceReset();

// Starts a measurement of vectors held: initialises the packages of a solve (SLEPc's, KSP, PC: their first use
// registers classes, log events and stages, a one-time growth of PETSc's tables that would otherwise be charged to
// the first solve), resets the peak and gives the baseline for VectorsHeld. Not collective.
PetscErrorCode BeginVectorCount(size_t *baseline_bytes);

// Vectors held: (peak since the last reset - baseline_bytes) / (local rows of H * sizeof(PetscScalar)), rounded to
// the nearest whole vector (each PETSc object also allocates a few hundred bytes of header: rounding up would
// count every Vec as more than one), maximum over the ranks of H. baseline_bytes: from BeginVectorCount (or
// AllocationCurrentBytes() when the peak was reset), so what existed before the solve is not counted. -1 when the tracker is not active on some rank.
// fraction (optional): the unrounded maximum (-1 when not measured). Collective on H.
PetscErrorCode VectorsHeld(Mat H, size_t baseline_bytes, PetscInt *vectors, double *fraction = nullptr);

} // namespace tbpeta
