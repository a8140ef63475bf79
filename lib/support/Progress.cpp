#include "support/Progress.hpp"

#include <cstdarg>
#include <cstdio>

#include "support/ErrorReporting.hpp"

namespace tbpeta {

namespace {
double interval_seconds = 30;
} // namespace

PetscErrorCode ProgressFromOptions(MPI_Comm comm) {
  PetscReal seconds = interval_seconds;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Progress of long phases", "tbpeta");
  PetscCall(PetscOptionsReal(
      "-progress",
      "Seconds between progress lines of a long phase (structure, H, each solver pass, output) on rank 0; 0: none",
      "tbpeta", seconds, &seconds, nullptr));
  PetscOptionsEnd();
  PetscCheck(seconds >= 0 && seconds < 1e9, comm, PETSC_ERR_USER_INPUT,
             "-progress: %g is not a number of seconds >= 0 (0 turns progress lines off)", (double)seconds);
  interval_seconds = seconds;
  PetscFunctionReturn(0);
}

double ProgressInterval() { return interval_seconds; }

void SetProgressInterval(double seconds) { interval_seconds = seconds; }

Progress::Progress(std::string phase) : phase_(std::move(phase)) {
  int rank = 0, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  printer_ = rank == 0 && interval_seconds > 0;
  start_ = last_ = MPI_Wtime();
}

bool Progress::Due() const { return printer_ && MPI_Wtime() - last_ >= interval_seconds; }

double Progress::Elapsed() const { return MPI_Wtime() - start_; }

PetscErrorCode Progress::Print(const char *format, va_list ap) {
  char text[512];
  PetscFunctionBeginUser;
  std::vsnprintf(text, sizeof text, format, ap);
  last_ = MPI_Wtime();
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %s: %.0f s, %s\n", ProgramName(), phase_.c_str(), last_ - start_, text));
  PetscFunctionReturn(0);
}

PetscErrorCode Progress::Report(const char *format, ...) {
  va_list ap;
  PetscFunctionBeginUser;
  if (!Due()) PetscFunctionReturn(0);
  va_start(ap, format);
  const PetscErrorCode ierr = Print(format, ap);
  va_end(ap);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode Progress::Done(const char *format, ...) {
  va_list ap;
  PetscFunctionBeginUser;
  if (!printer_ || Elapsed() < interval_seconds) PetscFunctionReturn(0);
  va_start(ap, format);
  const PetscErrorCode ierr = Print(format, ap);
  va_end(ap);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode Progress::LoopLine(long long i, long long n, const char *what) {
  const std::string left = TimeLeft(Elapsed(), (double)i / (double)n);
  return Report("%s %lld of %lld (rank 0)%s%s", what, i, n, left.empty() ? "" : ", ", left.c_str());
}

std::string TimeLeft(double elapsed, double fraction_done) {
  if (!(fraction_done > 0.02) || fraction_done >= 1) return "";
  const double left = elapsed * (1 - fraction_done) / fraction_done;
  char text[64];
  if (left < 120) std::snprintf(text, sizeof text, "about %.0f s left", left);
  else if (left < 7200) std::snprintf(text, sizeof text, "about %.0f min left", left / 60);
  else std::snprintf(text, sizeof text, "about %.1f h left", left / 3600);
  return text;
}

} // namespace tbpeta
