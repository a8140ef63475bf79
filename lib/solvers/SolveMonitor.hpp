#pragma once
// What watches a SLEPc solve from inside: a monitor (EPSMonitorSet) that stops it on SIGINT or SIGTERM (one line
// naming `what` and the iteration, PETSC_ERR_SIG, the same on every rank) and prints a progress line at most every
// -progress seconds. A solver that prints its own progress (nemo) says so in its traits (SolverTraits.hpp).
#include <slepceps.h>

namespace tbpeta {

// Installs the monitor on eps (after EPSSetFromOptions: -eps_monitor_cancel clears every monitor). Collective.
PetscErrorCode InstallSolveMonitor(EPS eps, const char *what);

} // namespace tbpeta
