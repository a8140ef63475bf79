#include "study/AllocationTracker.hpp"

#include <slepceps.h>

#include <cmath>
#include <unordered_map>

PETSC_EXTERN PetscErrorCode PetscMallocAlign(size_t, PetscBool, int, const char[], const char[], void **);
PETSC_EXTERN PetscErrorCode PetscFreeAlign(void *, int, const char[], const char[]);
PETSC_EXTERN PetscErrorCode PetscReallocAlign(size_t, int, const char[], const char[], void **);

namespace tbpeta {

namespace {

std::unordered_map<void *, size_t> *blocks = nullptr; // the live blocks allocated while tracking, with their sizes
size_t current_bytes = 0, peak_bytes = 0;

void Count(size_t freed, size_t allocated) {
  current_bytes = current_bytes - freed + allocated;
  if (current_bytes > peak_bytes) peak_bytes = current_bytes;
}

// The three routines follow PETSc's PetscMallocAlign & co.: no PetscFunctionBegin (they run for every allocation,
// also while an error is being handled), NULL for 0 bytes, freeing NULL is allowed.
PetscErrorCode TrackedMalloc(size_t bytes, PetscBool clear, int line, const char func[], const char file[],
                             void **result) {
  PetscCall(PetscMallocAlign(bytes, clear, line, func, file, result));
  if (*result) {
    (*blocks)[*result] = bytes;
    Count(0, bytes);
  }
  return 0;
}

PetscErrorCode TrackedFree(void *ptr, int line, const char func[], const char file[]) {
  if (!ptr) return 0;
  const auto it = blocks->find(ptr);
  if (it != blocks->end()) {
    Count(it->second, 0);
    blocks->erase(it);
  }
  PetscCall(PetscFreeAlign(ptr, line, func, file));
  return 0;
}

PetscErrorCode TrackedRealloc(size_t bytes, int line, const char func[], const char file[], void **result) {
  size_t old = 0;
  if (*result) {
    const auto it = blocks->find(*result);
    if (it != blocks->end()) old = it->second, blocks->erase(it);
  }
  PetscCall(PetscReallocAlign(bytes, line, func, file, result));
  Count(old, *result ? bytes : 0);
  if (*result) (*blocks)[*result] = bytes;
  return 0;
}

} // namespace

PetscErrorCode StartAllocationTracking() {
  PetscFunctionBeginUser;
  if (PetscTrMalloc != PetscMallocAlign) PetscFunctionReturn(0); // PETSc's debugging allocator, or already tracking
  if (!blocks) blocks = new std::unordered_map<void *, size_t>;
  PetscCall(PetscMallocSet(TrackedMalloc, TrackedFree, TrackedRealloc));
  PetscFunctionReturn(0);
}

PetscErrorCode StopAllocationTracking() {
  PetscFunctionBeginUser;
  if (!AllocationTrackerActive()) PetscFunctionReturn(0);
  PetscCall(PetscMallocClear());
  blocks->clear(); // later frees of these blocks go straight to PetscFreeAlign
  current_bytes = peak_bytes = 0;
  PetscFunctionReturn(0);
}

bool AllocationTrackerActive() { return PetscTrMalloc == TrackedMalloc; }

size_t AllocationCurrentBytes() { return current_bytes; }

void ResetAllocationPeak() { peak_bytes = current_bytes; }

size_t AllocationPeakBytesSinceReset() { return peak_bytes; }

PetscErrorCode BeginVectorCount(size_t *baseline_bytes) {
  PetscFunctionBeginUser;
  for (auto initialize : {EPSInitializePackage, STInitializePackage, BVInitializePackage, DSInitializePackage,
                          FNInitializePackage, RGInitializePackage, KSPInitializePackage, PCInitializePackage})
    PetscCall(initialize());
  ResetAllocationPeak();
  *baseline_bytes = AllocationCurrentBytes();
  PetscFunctionReturn(0);
}

PetscErrorCode VectorsHeld(Mat H, size_t baseline_bytes, PetscInt *vectors, double *fraction) {
  PetscInt rows;
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetLocalSize(H, &rows, nullptr));
  // local[1] = 1 on a rank that measures nothing; one reduction for both.
  double local[2] = {0, AllocationTrackerActive() ? 0.0 : 1.0}, global[2];
  if (AllocationTrackerActive() && rows > 0 && peak_bytes > baseline_bytes)
    local[0] = (double)(peak_bytes - baseline_bytes) / ((double)rows * sizeof(PetscScalar));
  PetscCallMPI(MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, comm));
  const bool measured = global[1] == 0;
  *vectors = measured ? (PetscInt)std::llround(global[0]) : -1;
  if (fraction) *fraction = measured ? global[0] : -1;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
