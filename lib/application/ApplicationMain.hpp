#pragma once
// The main() shared by tbpeta's executables: SLEPc/PETSc/MPI start-up, the one-line error handler, the exit
// policy (input errors raised on every rank finalise cleanly with exit 1; any other error aborts the job so that
// no rank waits in a collective), and the report of options that were given but not used.
#include <petscsys.h>

namespace tbpeta {

// run() does the work; it may set *exit_code (e.g. 1 after an error it reported itself).
using ApplicationRun = PetscErrorCode (*)(MPI_Comm comm, int *exit_code);

int ApplicationMain(int argc, char **argv, const char *help, const char *program, ApplicationRun run);

} // namespace tbpeta
