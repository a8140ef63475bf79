// GoogleTest main for tbpeta: initialises SLEPc/PETSc/MPI once, checks that the test runs on the number of ranks
// ctest asked for (--expected-ranks=N), prints the full report on rank 0 and only failures on the others, and
// fails on every rank when any rank failed.
#include <gtest/gtest.h>
#include <slepcsys.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

extern char **environ;

#include "solvers/RegisterSolvers.hpp"
#include "support/LargeArrays.hpp"
#include "support/Progress.hpp"
#include "test_support.hpp"

namespace {
int expected_ranks = -1;

class FailurePrinter : public testing::EmptyTestEventListener {
public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const testing::TestPartResult &r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.summary());
  }

private:
  int rank_;
};
} // namespace

namespace tbpeta::test {
int expectedRanks() { return expected_ranks; }
int commSize() {
  int size = 0;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  return size;
}
std::string EditedParameterText(const std::string &path, const std::string &key, const std::string &line) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string body = text.str();
  const size_t at = body.find("\n" + key) + 1;
  body.replace(at, body.find('\n', at) - at, line);
  return body;
}

PetscErrorCode HashedVector(Mat H, Vec *x) {
  PetscInt lo, hi;
  PetscScalar *a;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(H, x, nullptr));
  PetscCall(VecGetOwnershipRange(*x, &lo, &hi));
  PetscCall(VecGetArray(*x, &a));
  for (PetscInt r = lo; r < hi; ++r) {
    unsigned long long z = 0x9e3779b97f4a7c15ULL * (unsigned long long)(r + 1);
    z ^= z >> 31, z *= 0xbf58476d1ce4e5b9ULL, z ^= z >> 29;
    a[r - lo] = PetscScalar((double)(z & 0xffff) / 65536.0 - 0.5, (double)((z >> 16) & 0xffff) / 65536.0 - 0.5);
  }
  PetscCall(VecRestoreArray(*x, &a));
  PetscFunctionReturn(0);
}

std::string CleanMpiEnvironment() {
  std::string unset = "env";
  for (char **e = environ; *e; ++e) {
    const std::string v(*e), n = v.substr(0, v.find('='));
    const bool mpi =
        n.rfind("OMPI_", 0) == 0 || n.rfind("PMIX_", 0) == 0 || n.rfind("ORTE_", 0) == 0 || n.rfind("OPAL_", 0) == 0;
    // kept: running as root, and the transport and yielding the caller chose (ci/env.sh)
    const bool chosen = n.find("ALLOW_RUN_AS_ROOT") != std::string::npos || n == "OMPI_MCA_pml" ||
                        n == "OMPI_MCA_btl" || n == "OMPI_MCA_mpi_yield_when_idle";
    if (mpi && !chosen) unset += " -u " + n;
  }
  // A job whose rank exits with an error is ended at once (OpenMPI waits a second before its SIGKILL by default):
  // the tests of bad input run hundreds of such jobs.
  return unset + " OMPI_MCA_odls_base_sigkill_timeout=0";
}
int commRank() {
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  return rank;
}

namespace {
std::string *printed_into = nullptr;                                       // CapturePrinted's text
PetscErrorCode (*petsc_vfprintf)(FILE *, const char[], va_list) = nullptr; // PETSc's own, for the other streams

PetscErrorCode KeepPrinted(FILE *fd, const char format[], va_list args) {
  if (fd && fd != PETSC_STDOUT) return petsc_vfprintf(fd, format, args);
  char text[4096];
  std::vsnprintf(text, sizeof text, format, args);
  *printed_into += text;
  return 0;
}
PetscErrorCode KeepHelp(MPI_Comm, const char format[], ...) {
  va_list args;
  va_start(args, format);
  KeepPrinted(nullptr, format, args);
  va_end(args);
  return 0;
}
} // namespace

std::string CapturePrinted(const std::function<PetscErrorCode()> &f, PetscErrorCode *ierr) {
  std::string text;
  auto *help = PetscHelpPrintf;
  PetscOptionsHelpPrinted listed = PetscOptionsHelpPrintedSingleton;
  PetscOptionsHelpPrintedSingleton = nullptr;
  printed_into = &text;
  petsc_vfprintf = PetscVFPrintf;
  PetscVFPrintf = KeepPrinted;
  PetscHelpPrintf = KeepHelp;
  const PetscErrorCode e = f();
  PetscVFPrintf = petsc_vfprintf;
  PetscHelpPrintf = help;
  printed_into = nullptr;
  PetscOptionsHelpPrintedDestroy(&PetscOptionsHelpPrintedSingleton);
  PetscOptionsHelpPrintedSingleton = listed;
  if (ierr) *ierr = e;
  else EXPECT_EQ(e, 0) << text;
  return text;
}
} // namespace tbpeta::test

int main(int argc, char **argv) {
  tbpeta::ReturnFreedMemory();
  testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--expected-ranks=", 17) == 0) expected_ranks = std::atoi(argv[i] + 17);
  // PETSc must not see the gtest/ctest arguments.
  int pargc = 1;
  if (SlepcInitialize(&pargc, &argv, nullptr, nullptr) || tbpeta::RegisterEigenSolvers()) return 1;
  tbpeta::SetProgressInterval(0); // no progress lines in the tests' output
  int rank = tbpeta::test::commRank();
  if (rank != 0) {
    auto &listeners = testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(rank));
  }
  int failed = RUN_ALL_TESTS() != 0;
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  if (SlepcFinalize()) return 1;
  return any_failed;
}
