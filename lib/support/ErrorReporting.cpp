#include "support/ErrorReporting.hpp"
#include "support/InterruptSignal.hpp"

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

namespace tbpeta {

namespace {
std::string program_name = "tbpeta";
int same_on_every_rank_depth = 0; // SameOnEveryRank scopes alive

constexpr const char kBadLogical[] = "Unknown logical value: ";

// PETSc's "Unknown logical value: X" names the value, not the option: the option given X is looked up in the options
// database and named (the first such option; the options are the same on every rank).
std::string NameTheLogicalOption(const char *mess) {
  const std::string value = mess + sizeof(kBadLogical) - 1;
  char *all = nullptr;
  std::string option, previous, token;
  if (PetscOptionsGetAll(nullptr, &all) == 0 && all) { // "-name value -name value ..."
    for (std::istringstream words(all); option.empty() && words >> token; previous = token)
      if (token == value && previous.size() > 1 && previous[0] == '-') option = previous;
    PetscFree(all);
  }
  const std::string expected = ": expected true or false (also yes/no, on/off, 1/0)";
  return option.empty() ? "'" + value + "' is not a logical value" + expected : option + " " + value + expected;
}

PetscErrorCode OneLineHandler(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n,
                              PetscErrorType p, const char *mess, void *ctx) {
  if (p != PETSC_ERROR_INITIAL) return n; // only where the error was raised, not at every level of the stack
  int rank = 0, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int comm_size = 1;
  if (init && comm != MPI_COMM_NULL) MPI_Comm_size(comm, &comm_size);
  const bool bad_logical = mess && std::strncmp(mess, kBadLogical, sizeof(kBadLogical) - 1) == 0;
  // PETSc rejects an unknown value of an enum or logical option on PETSC_COMM_SELF; the options are the same on every
  // rank, so every rank raises it: one line from rank 0 is the whole story.
  const bool same_on_every_rank =
      same_on_every_rank_depth > 0 || (mess && std::strncmp(mess, "Unknown option ", 15) == 0) || bad_logical;
  const bool collective = comm_size > 1 || same_on_every_rank;
  if (collective && rank != 0) return n;
  const std::string named = bad_logical ? NameTheLogicalOption(mess) : "";
  const char *msg = bad_logical ? named.c_str() : (mess && *mess) ? mess : "PETSc error";
  if (collective || comm_size == 1) {
    int world = 1;
    if (init) MPI_Comm_size(MPI_COMM_WORLD, &world);
    if (world > 1 && !collective) std::fprintf(stderr, "%s: error: [rank %d] %s\n", program_name.c_str(), rank, msg);
    else std::fprintf(stderr, "%s: error: %s\n", program_name.c_str(), msg);
  }
  std::fflush(stderr);
  (void)line, (void)fun, (void)file, (void)ctx;
  return n;
}
} // namespace

PetscErrorCode PushOneLineErrorHandler(const char *program) {
  PetscFunctionBeginUser;
  program_name = program;
  PetscCall(PetscPushErrorHandler(OneLineHandler, nullptr));
  PetscFunctionReturn(0);
}

const char *ProgramName() { return program_name.c_str(); }

SameOnEveryRank::SameOnEveryRank() { ++same_on_every_rank_depth; }
SameOnEveryRank::~SameOnEveryRank() { --same_on_every_rank_depth; }

// Codes that tbpeta and SLEPc raise on the whole communicator after checking input or options.
bool ErrorIsCollective(PetscErrorCode code) {
  switch (code) {
  case PETSC_ERR_USER_INPUT:
  case PETSC_ERR_USER: // PETSc's option readers (e.g. a value not in a list), raised alike by every rank
  case PETSC_ERR_FILE_OPEN:
  case PETSC_ERR_FILE_WRITE:
  case PETSC_ERR_ARG_WRONG:
  case PETSC_ERR_ARG_OUTOFRANGE:
  case PETSC_ERR_ARG_INCOMP:
  case PETSC_ERR_ARG_WRONGSTATE:
  case PETSC_ERR_ARG_UNKNOWN_TYPE:
  case PETSC_ERR_SUP:
  case PETSC_ERR_NOT_CONVERGED:   // a solver that found nothing (raised by tbpeta after a collective count)
  case PETSC_ERR_FP: return true; // a NaN/Inf found after a reduction (PETSc's own -fp_trap aborts by itself)
  case PETSC_ERR_SIG: return InterruptSignal() != 0; // SIGINT/SIGTERM, checked collectively; else a crash
  default: return false;
  }
}

} // namespace tbpeta
