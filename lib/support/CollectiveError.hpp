#pragma once
// Errors that every rank raises alike, when the failure happened on some of them only: after a step that can fail on
// one rank (a file call, a check of local data), the ranks agree (one small allreduce) on whether any failed, and
// all raise the error of the lowest such rank, so that none is left waiting in the next collective call. Also the
// broadcasts of rank 0's strings and named values that the agreement and the writers need.
#include <petscsys.h>

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tbpeta {

// The message on one line (newlines become blanks, trailing blanks removed).
std::string OneLine(std::string text);

// Rank 0's string (or strings) on every rank. Collective.
PetscErrorCode BcastString(MPI_Comm comm, std::string &text);
PetscErrorCode BcastStrings(MPI_Comm comm, std::vector<std::string> &texts);

// Rank 0's named values (T = double or std::string) on every rank. Collective.
template <typename T>
PetscErrorCode BcastPairs(MPI_Comm comm, std::vector<std::pair<std::string, T>> &pairs) {
  std::vector<std::string> keys;
  std::vector<T> values;
  PetscFunctionBeginUser;
  for (const auto &[k, v] : pairs) keys.push_back(k), values.push_back(v);
  PetscCall(BcastStrings(comm, keys));
  values.resize(keys.size());
  if constexpr (std::is_same_v<T, std::string>) PetscCall(BcastStrings(comm, values));
  else if (!values.empty()) PetscCallMPI(MPI_Bcast(values.data(), (PetscMPIInt)values.size(), MPI_DOUBLE, 0, comm));
  pairs.clear();
  for (size_t i = 0; i < keys.size(); ++i) pairs.emplace_back(keys[i], values[i]);
  PetscFunctionReturn(0);
}

// Every rank passes its own (code, message); an empty message means no problem on this rank. When any rank has one,
// every rank raises the error of the lowest such rank. Collective.
PetscErrorCode AgreeOnError(MPI_Comm comm, PetscErrorCode code, std::string message);

// Runs f on this rank alone with PETSc's error handler replaced by one that only returns the code (nothing printed),
// and gives (code, message) for AgreeOnError.
std::pair<PetscErrorCode, std::string> Quietly(const std::function<PetscErrorCode()> &f);

} // namespace tbpeta
