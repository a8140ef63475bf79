#pragma once
// Bad input gets one line, not PETSc's traceback: an error handler that prints the message of the error where it
// was raised ("tbpeta: error: ..."), once (on rank 0 for errors raised collectively), and the exit policy of the
// executables: input errors (raised identically on every rank) finalise cleanly with exit code 1; anything else
// aborts all ranks so that none is left waiting in a collective.
#include <petscsys.h>

namespace tbpeta {

PetscErrorCode PushOneLineErrorHandler(const char *program);
// The program name every line of tbpeta starts with ("tbpeta", "bench_solvers", ...).
const char *ProgramName();
// Whether an error code comes from a check made identically on every rank (input, options, files): then main()
// finalises and exits 1 on every rank; otherwise it aborts the job so that no rank waits in a collective.
bool ErrorIsCollective(PetscErrorCode code);

// While an instance lives, an error raised on PETSC_COMM_SELF is raised identically on every rank (a computation
// each rank repeats on the same data, such as the bulk cell's band edges): it is printed once, by rank 0.
class SameOnEveryRank {
public:
  SameOnEveryRank();
  ~SameOnEveryRank();
  SameOnEveryRank(const SameOnEveryRank &) = delete;
  SameOnEveryRank &operator=(const SameOnEveryRank &) = delete;
};

} // namespace tbpeta
