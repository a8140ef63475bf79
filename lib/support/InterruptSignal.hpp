#pragma once
// SIGINT and SIGTERM (Ctrl-C, a batch system's time limit, mpiexec forwarding either) during a long run: the handler
// only records the signal; the solvers and the phases between them check it collectively (fused into reductions they
// make anyway) and stop with one line naming what was interrupted, so that every rank stops at the same place,
// temporary output files are removed and no partial file is left. A second signal takes the default action.
#include <petscsys.h>

namespace tbpeta {

// Installs the handlers (after PetscInitialize, replacing PETSc's for these two signals).
void InstallInterruptHandlers();
// The signal received (SIGINT, SIGTERM) or 0.
int InterruptSignal();
// Name of a signal for messages ("SIGTERM").
const char *SignalName(int signal);
// Collective: stops with PETSC_ERR_SIG and "interrupted by SIGTERM during <what>; no output written" when any rank
// of comm received a signal.
PetscErrorCode CheckInterrupted(MPI_Comm comm, const char *what);

} // namespace tbpeta
