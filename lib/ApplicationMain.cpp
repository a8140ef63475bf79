#include "tbpeta/ApplicationMain.hpp"

#include <slepcsys.h>

#include "tbpeta/ErrorReporting.hpp"

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
  PetscErrorCode ierr = SlepcInitialize(&argc, &argv, nullptr, help);
  if (ierr) return 1;
  PushOneLineErrorHandler(program);
  int exit_code = 0;
  ierr = run(PETSC_COMM_WORLD, &exit_code);
  if (ierr && !ErrorIsCollective(ierr)) {
    int size = 1;
    MPI_Comm_size(PETSC_COMM_WORLD, &size);
    if (size > 1) MPI_Abort(PETSC_COMM_WORLD, 1); // a rank may be waiting in a collective
  }
  if (!ierr && !exit_code) ierr = ReportUnusedOptions(PETSC_COMM_WORLD, program);
  SlepcFinalize();
  return ierr || exit_code ? 1 : 0;
}

} // namespace tbpeta
