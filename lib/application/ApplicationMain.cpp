#include "application/ApplicationMain.hpp"

#include <slepcsys.h>

#include <cstdio>
#include <new>

#include "study/AllocationTracker.hpp"
#include "support/ErrorReporting.hpp"
#include "support/InterruptSignal.hpp"

namespace tbpeta {

namespace {
PetscErrorCode ReportUnusedOptions(MPI_Comm comm, const char *program) {
  PetscInt n;
  char **names, **values;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsLeftGet(nullptr, &n, &names, &values));
  for (PetscInt i = 0; i < n; ++i) PetscCall(PetscPrintf(comm, "%s: warning: option -%s was given but not used\n", program, names[i]));
  PetscCall(PetscOptionsLeftRestore(nullptr, &n, &names, &values));
  PetscFunctionReturn(0);
}
} // namespace

int ApplicationMain(int argc, char **argv, const char *help, const char *program, ApplicationRun run) {
  // Before SlepcInitialize: PETSc's allocator can only be replaced before its first allocation.
  PetscErrorCode ierr = InstallAllocationTracker(argc, argv);
  if (!ierr) ierr = SlepcInitialize(&argc, &argv, nullptr, help);
  if (ierr) return 1;
  PushOneLineErrorHandler(program);
  InstallInterruptHandlers();
  int exit_code = 0;
  try {
    ierr = run(PETSC_COMM_WORLD, &exit_code);
  } catch (const std::bad_alloc &) {
    // A C++ container could not grow: one line, then stop every rank (the others may be in a collective).
    std::fprintf(stderr, "%s: error: out of memory while building the structure (use more ranks, fewer -cells, or check the memory estimate)\n", program);
    std::fflush(stderr);
    MPI_Abort(PETSC_COMM_WORLD, 1);
  }
  if (ierr && !ErrorIsCollective(ierr)) {
    int size = 1;
    MPI_Comm_size(PETSC_COMM_WORLD, &size);
    if (size > 1) MPI_Abort(PETSC_COMM_WORLD, 1); // a rank may be waiting in a collective
  }
  if (!ierr && !exit_code) ierr = ReportUnusedOptions(PETSC_COMM_WORLD, program);
  PetscPopErrorHandler(); // its entry is PETSc memory (-malloc_dump reported it)
  SlepcFinalize();
  // Interrupted: the shell's convention, 128 + the signal (130 for Ctrl-C, 143 for SIGTERM).
  if (ierr == PETSC_ERR_SIG && InterruptSignal()) return 128 + InterruptSignal();
  return ierr || exit_code ? 1 : 0;
}

} // namespace tbpeta
