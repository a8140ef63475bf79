#include "support/CollectiveError.hpp"

#include <algorithm>

namespace tbpeta {

std::string OneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

PetscErrorCode BcastString(MPI_Comm comm, std::string &s) {
  unsigned long long n = s.size();

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  PetscCheck(n <= static_cast<unsigned long long>(PETSC_MPI_INT_MAX), comm, PETSC_ERR_ARG_SIZ,
             "String of %llu characters is too long to broadcast", n);
  s.resize(n);
  if (n) PetscCallMPI(MPI_Bcast(s.data(), static_cast<PetscMPIInt>(n), MPI_CHAR, 0, comm));
  PetscFunctionReturn(0);
}

PetscErrorCode BcastStrings(MPI_Comm comm, std::vector<std::string> &v) {
  unsigned long long n = v.size();

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  v.resize(n);
  for (auto &s : v) PetscCall(BcastString(comm, s));
  PetscFunctionReturn(0);
}

// Every rank passes its own (code, message); an empty message means "no problem here". If any rank has a problem,
// every rank raises the error of the lowest such rank, so the failure is collective and identical everywhere.
PetscErrorCode AgreeOnError(MPI_Comm comm, PetscErrorCode code, std::string message) {
  PetscMPIInt rank, size, mine, first;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  message = OneLine(message);
  mine = message.empty() ? size : rank;
  PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) PetscFunctionReturn(0);
  int c = static_cast<int>(code);
  PetscCallMPI(MPI_Bcast(&c, 1, MPI_INT, first, comm));
  unsigned long long n = message.size();
  PetscCallMPI(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, first, comm));
  message.resize(n);
  PetscCallMPI(MPI_Bcast(message.data(), static_cast<PetscMPIInt>(n), MPI_CHAR, first, comm));
  SETERRQ(comm, static_cast<PetscErrorCode>(c), "%s", message.c_str());
}

// Runs f (this rank alone) with PETSc's error handler replaced by one that only returns the code, so that nothing is
// printed, and returns (code, message) for AgreeOnError.
std::pair<PetscErrorCode, std::string> Quietly(const std::function<PetscErrorCode()> &f) {
  if (PetscPushErrorHandler(PetscReturnErrorHandler, nullptr)) return {PETSC_ERR_LIB, "cannot push an error handler"};
  const PetscErrorCode code = f();
  (void)PetscPopErrorHandler();
  const char *text = nullptr;
  char *specific = nullptr;
  if (!code) return {0, ""};
  if (PetscErrorMessage(0, &text, &specific) || !specific || !*specific) return {code, "error " + std::to_string(code)};
  return {code, specific};
}

} // namespace tbpeta
