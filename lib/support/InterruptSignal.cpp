#include "support/InterruptSignal.hpp"

#include <csignal>

namespace tbpeta {

namespace {
volatile std::sig_atomic_t received = 0;

extern "C" void RecordSignal(int sig) { received = sig; }
} // namespace

void InstallInterruptHandlers() {
  struct sigaction sa = {};
  sa.sa_handler = RecordSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_RESTART; // a second signal: the default action (the user insists)
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int InterruptSignal() { return (int)received; }

const char *SignalName(int signal) {
  switch (signal) {
  case SIGINT: return "SIGINT";
  case SIGTERM: return "SIGTERM";
  default: return "a signal";
  }
}

PetscErrorCode CheckInterrupted(MPI_Comm comm, const char *what) {
  int sig = InterruptSignal();
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &sig, 1, MPI_INT, MPI_MAX, comm));
  PetscCheck(sig == 0, comm, PETSC_ERR_SIG, "interrupted by %s during %s; no output written", SignalName(sig), what);
  PetscFunctionReturn(0);
}

} // namespace tbpeta
