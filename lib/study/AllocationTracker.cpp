#include "study/AllocationTracker.hpp"

#include <slepceps.h>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

namespace tbpeta {

namespace {

// The header in front of each block holds its size; it is a whole number of PETSC_MEMALIGN units, so the block
// handed to PETSc keeps the alignment of the block PetscMallocAlign returned.
constexpr size_t kHeader = (sizeof(size_t) + PETSC_MEMALIGN - 1) / PETSC_MEMALIGN * PETSC_MEMALIGN;
static_assert(kHeader % PETSC_MEMALIGN == 0 && kHeader >= sizeof(size_t));

// PETSc's routines when the tracker was installed (PetscMallocAlign, PetscFreeAlign, PetscReallocAlign).
PetscErrorCode (*inner_malloc)(size_t, PetscBool, int, const char[], const char[], void **) = nullptr;
PetscErrorCode (*inner_free)(void *, int, const char[], const char[]) = nullptr;
PetscErrorCode (*inner_realloc)(size_t, int, const char[], const char[], void **) = nullptr;

size_t current_bytes = 0, peak_bytes = 0;

void Count(size_t freed, size_t allocated) {
  current_bytes = current_bytes - freed + allocated;
  if (current_bytes > peak_bytes) peak_bytes = current_bytes;
}

// The three routines follow PETSc's PetscMallocAlign & co.: no PetscFunctionBegin (they run for every allocation,
// also while an error is being handled), NULL for 0 bytes, freeing NULL is allowed.
PetscErrorCode TrackedMalloc(size_t bytes, PetscBool clear, int line, const char func[], const char file[], void **result) {
  char *block;
  if (!bytes) {
    *result = nullptr;
    return 0;
  }
  PetscCall(inner_malloc(bytes + kHeader, clear, line, func, file, (void **)&block));
  *(size_t *)block = bytes;
  Count(0, bytes);
  *result = block + kHeader;
  return 0;
}

PetscErrorCode TrackedFree(void *ptr, int line, const char func[], const char file[]) {
  if (!ptr) return 0;
  char *block = (char *)ptr - kHeader;
  Count(*(size_t *)block, 0);
  PetscCall(inner_free(block, line, func, file));
  return 0;
}

PetscErrorCode TrackedRealloc(size_t bytes, int line, const char func[], const char file[], void **result) {
  if (!*result) return TrackedMalloc(bytes, PETSC_FALSE, line, func, file, result);
  if (!bytes) {
    PetscCall(TrackedFree(*result, line, func, file));
    *result = nullptr;
    return 0;
  }
  void *block = (char *)*result - kHeader;
  const size_t old = *(size_t *)block;
  PetscCall(inner_realloc(bytes + kHeader, line, func, file, &block)); // moves the header with the data
  *(size_t *)block = bytes;
  Count(old, bytes);
  *result = (char *)block + kHeader;
  return 0;
}

// Options with which PetscInitialize installs PETSc's debugging allocator (PetscMallocSetDebug, see the header);
// PETSc's option names ignore case.
bool AsksForPetscDebugAllocator(const char *word) {
  for (const char *name : {"-malloc_debug", "-malloc_dump", "-malloc_view", "-malloc_test", "-malloc", "-log_view_memory"}) {
    PetscBool same = PETSC_FALSE;
    if (!PetscStrcasecmp(word, name, &same) && same) return true;
  }
  return false;
}

} // namespace

PetscErrorCode InstallAllocationTracker(int argc, char **argv) {
  PetscFunctionBeginUser;
  for (int i = 1; i < argc; ++i)
    if (argv[i] && AsksForPetscDebugAllocator(argv[i])) PetscFunctionReturn(0);
  if (const char *env = std::getenv("PETSC_OPTIONS")) {
    std::istringstream words(env);
    for (std::string w; words >> w;)
      if (AsksForPetscDebugAllocator(w.c_str())) PetscFunctionReturn(0);
  }
  inner_malloc = PetscTrMalloc, inner_free = PetscTrFree, inner_realloc = PetscTrRealloc;
  PetscCall(PetscMallocSet(TrackedMalloc, TrackedFree, TrackedRealloc));
  PetscFunctionReturn(0);
}

bool AllocationTrackerActive() { return PetscTrMalloc == TrackedMalloc; }

size_t AllocationCurrentBytes() { return current_bytes; }

void ResetAllocationPeak() { peak_bytes = current_bytes; }

size_t AllocationPeakBytesSinceReset() { return peak_bytes; }

PetscErrorCode BeginVectorCount(size_t *baseline_bytes) {
  PetscFunctionBeginUser;
  // The packages of a solve (SLEPc's, and KSP/PC for the ST) register their classes, log events and stages at
  // their first use, which grows PETSc's logging tables by some 100 kB for good: do it now, so that it is not
  // charged to the first solve.
  for (auto initialize : {EPSInitializePackage, STInitializePackage, BVInitializePackage, DSInitializePackage, FNInitializePackage, RGInitializePackage, KSPInitializePackage,
                          PCInitializePackage})
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
  if (AllocationTrackerActive() && rows > 0 && peak_bytes > baseline_bytes) local[0] = (double)(peak_bytes - baseline_bytes) / ((double)rows * sizeof(PetscScalar));
  PetscCallMPI(MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, comm));
  const bool measured = global[1] == 0;
  *vectors = measured ? (PetscInt)std::llround(global[0]) : -1;
  if (fraction) *fraction = measured ? global[0] : -1;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
