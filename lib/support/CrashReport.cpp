#include "support/CrashReport.hpp"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>

namespace tbpeta {

namespace crash { // (a named namespace: the unity build joins this file with others)

// Fixed buffers: the handler may not allocate. Longer names are cut, never overrun.
constexpr int kPhases = 8, kFiles = 8;
constexpr size_t kText = 160, kPath = 4096, kLine = 2048;
char program[64] = "tbpeta";
char phases[kPhases][kText];
int phase_depth = 0;
char files[kFiles][kPath];
volatile std::sig_atomic_t file_used[kFiles];
char note[kPath + kText];
int world_rank = 0, world_size = 1;
char alternate_stack[64 * 1024];

void Copy(char *to, size_t room, const char *from) {
  size_t n = 0;
  for (; from[n] && n + 1 < room; ++n) to[n] = from[n];
  to[n] = 0;
}

// Appends text to line[*n] (bounded): strlen and memcpy only, both async-signal-safe.
void Append(char *line, size_t *n, const char *text) {
  const size_t k = std::min(std::strlen(text), kLine - 1 - *n);
  std::memcpy(line + *n, text, k);
  *n += k;
  line[*n] = 0;
}

void AppendInt(char *line, size_t *n, int v) {
  char digits[16];
  int k = 0;
  do digits[k++] = (char)('0' + v % 10), v /= 10;
  while (v > 0 && k < 15);
  char text[16];
  for (int i = 0; i < k; ++i) text[i] = digits[k - 1 - i];
  text[k] = 0;
  Append(line, n, text);
}

const char *Describe(int sig) {
  switch (sig) {
  case SIGSEGV: return "SIGSEGV, invalid memory access";
  case SIGBUS: return "SIGBUS, bus error";
  case SIGFPE: return "SIGFPE, arithmetic exception";
  case SIGILL: return "SIGILL, illegal instruction";
  case SIGABRT: return "SIGABRT, aborted";
  default: return "a fatal signal";
  }
}

size_t FormatLine(int sig, char *line) {
  size_t n = 0;
  line[0] = 0;
  Append(line, &n, program);
  Append(line, &n, ": error: ");
  if (world_size > 1) {
    Append(line, &n, "[rank ");
    AppendInt(line, &n, world_rank);
    Append(line, &n, "] ");
  }
  Append(line, &n, "crashed (");
  Append(line, &n, Describe(sig));
  Append(line, &n, ") during ");
  if (phase_depth == 0) Append(line, &n, "the set-up");
  for (int i = 0; i < phase_depth && i < kPhases; ++i) {
    if (i) Append(line, &n, ": ");
    Append(line, &n, phases[i]);
  }
  Append(line, &n, "; no output written");
  if (note[0]) {
    Append(line, &n, "; ");
    Append(line, &n, note);
  }
  Append(line, &n, " (a bug: please report it with the command line)");
  return n;
}

extern "C" void OnCrash(int sig) {
  static char line[kLine];
  size_t n = FormatLine(sig, line);
  line[n++] = '\n';
  (void)!write(STDERR_FILENO, line, n);
  for (int i = 0; i < kFiles; ++i)
    if (file_used[i]) (void)unlink(files[i]);
  std::signal(sig, SIG_DFL); // the default action: the exit status of the signal, a core dump where allowed
  std::raise(sig);
}

} // namespace crash

using namespace crash;

PetscErrorCode InstallCrashHandlers(const char *name) {
  PetscBool none = PETSC_FALSE;
  PetscFunctionBeginUser;
  Copy(crash::program, sizeof crash::program, name);
  PetscCallMPI(MPI_Comm_rank(MPI_COMM_WORLD, &world_rank));
  PetscCallMPI(MPI_Comm_size(MPI_COMM_WORLD, &world_size));
  PetscCall(PetscOptionsHasName(nullptr, nullptr, "-no_signal_handler", &none));
#if defined(__SANITIZE_ADDRESS__)
  none = PETSC_TRUE; // AddressSanitizer reports a crash itself, with the stack
#endif
  if (none) PetscFunctionReturn(0);
  stack_t ss = {};
  ss.ss_sp = alternate_stack, ss.ss_size = sizeof alternate_stack;
  PetscCheck(sigaltstack(&ss, nullptr) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "could not set the crash handler's stack");
  struct sigaction sa = {};
  sa.sa_handler = OnCrash;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND; // a crash inside the handler takes the default action
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    PetscCheck(sigaction(sig, &sa, nullptr) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS,
               "could not install the crash handler");
  PetscFunctionReturn(0);
}

CrashPhase::CrashPhase(const std::string &name) : level_(phase_depth) {
  if (level_ < kPhases) Copy(phases[level_], kText, name.c_str());
  phase_depth = level_ + 1;
}

CrashPhase::~CrashPhase() { phase_depth = level_; }

RemovedOnCrash::RemovedOnCrash(const std::string &path) : slot_(-1) {
  for (int i = 0; i < kFiles && slot_ < 0; ++i)
    if (!file_used[i]) {
      Copy(files[i], kPath, path.c_str());
      file_used[i] = 1, slot_ = i;
    }
}

RemovedOnCrash::~RemovedOnCrash() {
  if (slot_ >= 0) file_used[slot_] = 0;
}

void SetCrashNote(const std::string &text) { Copy(note, sizeof note, text.c_str()); }

std::string CrashLine(int sig) {
  char line[kLine];
  const size_t n = FormatLine(sig, line);
  return std::string(line, n);
}

} // namespace tbpeta
