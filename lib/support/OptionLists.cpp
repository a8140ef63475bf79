#include "support/OptionLists.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tbpeta {

std::vector<std::string> SplitList(const std::string &text, char separator) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (;;) {
    const size_t end = text.find(separator, start);
    std::string field = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const size_t first = field.find_first_not_of(" \t"), last = field.find_last_not_of(" \t");
    fields.push_back(first == std::string::npos ? "" : field.substr(first, last - first + 1));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return fields;
}

// Read as text and parsed here: PETSc keeps the first nmax entries of a longer list silently, and its error for a word
// that is not a number does not name the option.
PetscErrorCode OptionsGetRealList(MPI_Comm comm, const char *name, const char *help, int min_n, int max_n,
                                  double *values, int *count, PetscBool *set) {
  std::string defaults;
  for (int i = 0; i < max_n; ++i) {
    char v[32];
    std::snprintf(v, sizeof v, "%g", values[i]);
    defaults += (i ? "," : "") + std::string(v);
  }
  char text[1024];
  PetscFunctionBeginUser;
  std::snprintf(text, sizeof(text), "%s", defaults.c_str());
  // PETSc prints -help once per options-block title, so each list option gets its own block.
  PetscOptionsBegin(comm, nullptr, name, "tbpeta");
  PetscCall(PetscOptionsString(name, help, "tbpeta", text, text, sizeof(text), set));
  PetscOptionsEnd();
  if (!*set) PetscFunctionReturn(0);
  std::vector<double> parsed;
  for (const std::string &item : SplitList(text)) {
    char *end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    PetscCheck(!item.empty() && end && *end == '\0', comm, PETSC_ERR_USER_INPUT,
               "%s: '%s' is not a number (expected comma-separated numbers)", name, item.c_str());
    PetscCheck(std::isfinite(v), comm, PETSC_ERR_USER_INPUT, "%s: '%s' is not a finite number", name, item.c_str());
    parsed.push_back(v);
  }
  const int given = (int)parsed.size();
  if (min_n == max_n)
    PetscCheck(given == min_n, comm, PETSC_ERR_USER_INPUT, "%s: expected %d comma-separated numbers, got %d", name,
               min_n, given);
  else
    PetscCheck(given >= min_n && given <= max_n, comm, PETSC_ERR_USER_INPUT,
               "%s: expected %d to %d comma-separated numbers, got %d", name, min_n, max_n, given);
  for (int i = 0; i < given; ++i) values[i] = parsed[i];
  *count = given;
  PetscFunctionReturn(0);
}

PetscErrorCode ChooseOptionWord(MPI_Comm comm, const char *name, const char *value, const char *const *allowed,
                                int count, int *choice) {
  std::string list;
  int found = -1;
  PetscFunctionBeginUser;
  for (int i = 0; i < count; ++i) {
    list += (i ? ", " : "") + std::string(allowed[i]);
    if (std::string(value) == allowed[i]) found = i;
  }
  PetscCheck(found >= 0, comm, PETSC_ERR_USER_INPUT, "%s: '%s' is not allowed (allowed: %s)", name, value,
             list.c_str());
  *choice = found;
  PetscFunctionReturn(0);
}

PetscErrorCode OptionsGetRealTuple(MPI_Comm comm, const char *name, const char *help, int n, double *values,
                                   PetscBool *set) {
  int count = n;
  PetscFunctionBeginUser;
  PetscCall(OptionsGetRealList(comm, name, help, n, n, values, &count, set));
  PetscFunctionReturn(0);
}

// Read as text and parsed here: PETSc's integer parsing keeps the low 32 bits of a larger number (so 4294967296
// would become 0) and does not name the option in its error.
PetscErrorCode OptionsGetIntTuple(MPI_Comm comm, const char *name, const char *help, int n, PetscInt *values,
                                  PetscBool *set) {
  std::string defaults;
  for (int i = 0; i < n; ++i) defaults += (i ? "," : "") + std::to_string(values[i]);
  char text[1024];
  PetscFunctionBeginUser;
  std::snprintf(text, sizeof(text), "%s", defaults.c_str());
  PetscOptionsBegin(comm, nullptr, name, "tbpeta");
  PetscCall(PetscOptionsString(name, help, "tbpeta", text, text, sizeof(text), set));
  PetscOptionsEnd();
  if (!*set) PetscFunctionReturn(0);
  std::vector<PetscInt> parsed;
  for (const std::string &item : SplitList(text)) {
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    PetscCheck(!item.empty() && end && *end == '\0', comm, PETSC_ERR_USER_INPUT,
               "%s: '%s' is not an integer (expected %d comma-separated integers)", name, item.c_str(), n);
    PetscCheck(errno == 0 && v >= -(long long)PETSC_MAX_INT && v <= (long long)PETSC_MAX_INT, comm,
               PETSC_ERR_USER_INPUT, "%s: %s is out of range", name, item.c_str());
    parsed.push_back((PetscInt)v);
  }
  PetscCheck((int)parsed.size() == n, comm, PETSC_ERR_USER_INPUT, "%s: expected %d comma-separated integers, got %zu",
             name, n, parsed.size());
  for (int i = 0; i < n; ++i) values[i] = parsed[i];
  PetscFunctionReturn(0);
}

} // namespace tbpeta
