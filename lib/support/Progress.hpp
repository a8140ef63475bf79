#pragma once
// A phase that lasts long (building the structure or H, each solver pass, the output) says what it is doing, at most
// every -progress seconds (default 30; 0: never), on rank 0 only: "<program>: <phase>: <elapsed> s, <its counts>,
// <estimate of what is left>". Rank 0 alone looks at the clock and prints, so a phase may ask as often as it likes
// and nothing is collective.
#include <petscsys.h>

#include <cstdarg>
#include <string>

namespace tbpeta {

// Reads -progress SECONDS (default 30, 0 = off) for every Progress made afterwards. Collective.
PetscErrorCode ProgressFromOptions(MPI_Comm comm);
// The interval in seconds (0: off), and a program's own choice of it (the tests: 0).
double ProgressInterval();
void SetProgressInterval(double seconds);

class Progress {
public:
  explicit Progress(std::string phase);
  // Whether a line is due on this rank (rank 0, the interval passed since the start or the last line).
  bool Due() const;
  // Prints "<program>: <phase>: <elapsed> s, <text>" on rank 0 when due, and restarts the interval.
  PetscErrorCode Report(const char *format, ...) PETSC_ATTRIBUTE_FORMAT(2, 3);
  // At the end of a phase that lasted at least one interval: "<program>: <phase>: <elapsed> s, <text>" on rank 0, so
  // that a long run's log says what each long phase found. Not collective.
  PetscErrorCode Done(const char *format, ...) PETSC_ATTRIBUTE_FORMAT(2, 3);
  double Elapsed() const;
  // In a loop over this rank's n items: at item i (looked at every 4096 items, so the loop stays cheap) a line
  // "<what> i of n (rank 0), about ... left" when due. Not collective.
  PetscErrorCode Loop(long long i, long long n, const char *what) {
    return (i & 4095) == 0 && Due() ? LoopLine(i, n, what) : 0;
  }

private:
  PetscErrorCode Print(const char *format, va_list ap);
  PetscErrorCode LoopLine(long long i, long long n, const char *what);
  std::string phase_;
  double start_ = 0, last_ = 0;
  bool printer_ = false; // rank 0 of PETSC_COMM_WORLD
};

// "about 3 min left" from the fraction done (0..1) and the elapsed seconds; "" when it cannot be told yet.
std::string TimeLeft(double elapsed, double fraction_done);

} // namespace tbpeta
