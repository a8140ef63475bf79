#pragma once
// A crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: a bug in tbpeta or a library, or memory the system took back)
// ends the run with one line per crashing rank instead of PETSc's dump:
//   tbpeta: error: [rank 1] crashed (SIGSEGV, invalid memory access) during the solve: Lanczos second pass; ...
// naming the phase the rank was in, and what survives it (a checkpoint). The handler then removes the temporary
// files being written (no partial file is left) and takes the signal's default action: the exit status is
// 128 + the signal, a core dump is written where the system allows one, and mpiexec stops the other ranks.
// Only async-signal-safe calls run in the handler: the phases and files are kept in fixed buffers.
#include <petscsys.h>

#include <string>

namespace tbpeta {

// Installs the handlers for the crash signals on an alternate stack (a stack overflow is reported too), after
// PetscInitialize (replacing PETSc's own); none with -no_signal_handler, so that a debugger or a core dump sees the
// crash untouched. Collective (reads the option).
PetscErrorCode InstallCrashHandlers(const char *program);

// Names a phase while it lives ("building H", "the solve", "Lanczos second pass"); phases nest, and a crash names
// them from the outermost in. Not collective.
class CrashPhase {
public:
  explicit CrashPhase(const std::string &name);
  ~CrashPhase();
  CrashPhase(const CrashPhase &) = delete;
  CrashPhase &operator=(const CrashPhase &) = delete;

private:
  int level_;
};

// A file being written under a temporary name: removed by the crash handler while the guard lives. Not collective.
class RemovedOnCrash {
public:
  explicit RemovedOnCrash(const std::string &path);
  ~RemovedOnCrash();
  RemovedOnCrash(const RemovedOnCrash &) = delete;
  RemovedOnCrash &operator=(const RemovedOnCrash &) = delete;

private:
  int slot_;
};

// What a crash does not lose, said at the end of its line ("the checkpoint ck.bin holds the finished passes: run the
// same command again to continue from it"); empty: nothing. Not collective.
void SetCrashNote(const std::string &note);

// The line the handler writes for signal `sig` (without the newline), for the tests.
std::string CrashLine(int sig);

} // namespace tbpeta
