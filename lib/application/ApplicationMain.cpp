#include "application/ApplicationMain.hpp"

#include <slepcsys.h>

#include <cstdio>
#include <new>
#include <string>

#include "application/OptionsCheck.hpp"
#include "application/OptionsFiles.hpp"
#include "application/RenamedOptions.hpp"
#include "application/VersionReport.hpp"
#include "solvers/RegisterSolvers.hpp"
#include "support/CrashReport.hpp"
#include "support/ErrorReporting.hpp"
#include "support/InterruptSignal.hpp"
#include "support/LargeArrays.hpp"
#include "support/Progress.hpp"

namespace tbpeta {

namespace {

// The options nothing read, at exit: warnings, or with -options_strict one error line (for the programs that do not
// check before their work, OptionsCheck.hpp).
PetscErrorCode ReportUnusedOptions(MPI_Comm comm, const char *program) {
  PetscInt n;
  char **names, **values;
  std::string list;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsLeftGet(nullptr, &n, &names, &values));
  for (PetscInt i = 0; i < n; ++i) {
    list += std::string(list.empty() ? "-" : ", -") + names[i];
    if (!OptionsStrict())
      PetscCall(PetscPrintf(comm, "%s: warning: option -%s was given but not used\n", program, names[i]));
  }
  PetscCall(PetscOptionsLeftRestore(nullptr, &n, &names, &values));
  PetscCheck(!OptionsStrict() || n == 0, comm, PETSC_ERR_USER_INPUT, "-options_strict: %s given but not used",
             list.c_str());
  PetscFunctionReturn(0);
}

// MPI first, so that a bad -options_file is refused in one line from rank 0 before PETSc reads it; 0 or an exit code.
int StartUp(int *argc, char ***argv, const char *help, const char *program) {
  int rank = 0;
  ReturnFreedMemory();
  if (MPI_Init(argc, argv) != MPI_SUCCESS) return 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::string problem = rank == 0 ? OptionsFileProblem(*argc, *argv) : "";
  int length = (int)problem.size();
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (length) {
    if (rank == 0) std::fprintf(stderr, "%s: error: %s\n", program, problem.c_str());
    MPI_Finalize();
    return 1;
  }
  HoldStartUpBanners(*argc, *argv);
  if (SlepcInitialize(argc, argv, nullptr, help) || ReleaseStartUpBanners(PETSC_COMM_WORLD)) {
    MPI_Finalize();
    return 1;
  }
  return 0;
}

// The work between start-up and finalisation (none after -version, *version_shown); the error of the run, or 0.
PetscErrorCode RunApplication(const char *program, ApplicationRun run, int *exit_code, bool *version_shown) {
  PetscFunctionBeginUser;
  PetscCall(PushOneLineErrorHandler(program));
  PetscCall(VersionFromOptions(PETSC_COMM_WORLD, program, version_shown));
  if (*version_shown) PetscFunctionReturn(0);
  InstallInterruptHandlers();
  PetscCall(InstallCrashHandlers(program));
  PetscCall(RegisterEigenSolvers());
  PetscCall(RefuseRenamedOptions(PETSC_COMM_WORLD));
  PetscCall(ProgressFromOptions(PETSC_COMM_WORLD));
  PetscCall(OptionsStrictFromOptions(PETSC_COMM_WORLD));
  // PETSc's own communicator of PETSC_COMM_WORLD, held for the run: otherwise a PETSc object created while no other
  // is alive (H after the structure, the bench_build's operators one after another) duplicates the communicator
  // again, an MPI_Comm_dup that agrees a context id between the ranks and selects MPI's collective components (in a
  // stand-alone test an empty MatShell took 5 us instead of 1.4, and 73-108 us instead of 29-34 on flushed caches:
  // more than two products of 1,000 sp3s* atoms).
  MPI_Comm inner;
  PetscCall(PetscCommDuplicate(PETSC_COMM_WORLD, &inner, nullptr));
  const PetscErrorCode ierr = run(PETSC_COMM_WORLD, exit_code);
  PetscCall(PetscCommDestroy(&inner));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

} // namespace

int ApplicationMain(int argc, char **argv, const char *help, const char *program, ApplicationRun run) {
  if (int code = StartUp(&argc, &argv, help, program)) return code;
  int exit_code = 0;
  bool version_shown = false;
  PetscErrorCode ierr = 0;
  try {
    ierr = RunApplication(program, run, &exit_code, &version_shown);
  } catch (const std::bad_alloc &) {
    // A C++ container could not grow: one line, then stop every rank (the others may be in a collective).
    std::fprintf(stderr,
                 "%s: error: out of memory while building the structure (use more ranks, fewer -cells, or check the "
                 "memory estimate)\n",
                 program);
    std::fflush(stderr);
    MPI_Abort(PETSC_COMM_WORLD, 1);
  }
  if (ierr && !ErrorIsCollective(ierr)) {
    int size = 1;
    MPI_Comm_size(PETSC_COMM_WORLD, &size);
    if (size > 1) MPI_Abort(PETSC_COMM_WORLD, 1); // a rank may be waiting in a collective
  }
  if (!ierr && !exit_code && !version_shown) ierr = ReportUnusedOptions(PETSC_COMM_WORLD, program);
  PetscPopErrorHandler(); // its entry is PETSc memory (-malloc_dump reported it)
  SlepcFinalize();
  MPI_Finalize(); // started here, so finished here (PETSc leaves an MPI it did not start)
  // Interrupted: the shell's convention, 128 + the signal (130 for Ctrl-C, 143 for SIGTERM).
  if (ierr == PETSC_ERR_SIG && InterruptSignal()) return 128 + InterruptSignal();
  return ierr || exit_code ? 1 : 0;
}

} // namespace tbpeta
