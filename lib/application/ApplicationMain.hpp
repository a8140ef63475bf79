#pragma once
// The main() shared by tbpeta's executables: MPI, SLEPc and PETSc start-up (an -options_file that cannot be read is
// one line, not PETSc's traceback), tbpeta's eigen-solver types registered, the one-line error handler, the exit
// policy (input errors raised on every rank finalise cleanly with exit 1; any other error aborts the job so that no
// rank waits in a collective), renamed options named in one line, and the report of options given but not used.
#include <petscsys.h>

#include "support/Help.hpp" // HelpRequested, for the programs

namespace tbpeta {

// run() does the work; it may set *exit_code (e.g. 1 after an error it reported itself).
using ApplicationRun = PetscErrorCode (*)(MPI_Comm comm, int *exit_code);

int ApplicationMain(int argc, char **argv, const char *help, const char *program, ApplicationRun run);

} // namespace tbpeta
