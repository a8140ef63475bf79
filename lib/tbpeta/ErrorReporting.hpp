#pragma once
// Bad input gets one line, not PETSc's traceback: an error handler that prints the message of the error where it
// was raised ("tbpeta: error: ..."), once (on rank 0 for errors raised collectively), and the exit policy of the
// executables: input errors (raised identically on every rank) finalise cleanly with exit code 1; anything else
// aborts all ranks so that none is left waiting in a collective.
#include <petscsys.h>

namespace tbpeta {

PetscErrorCode PushOneLineErrorHandler(const char *program);
// To be called by main() with the error code of the run; returns the process exit code (after PetscFinalize /
// SlepcFinalize has been called by the caller when the code says so).
bool ErrorIsCollective(PetscErrorCode code);

} // namespace tbpeta
