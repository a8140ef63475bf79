#include "application/OptionsCheck.hpp"

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <set>
#include <sstream>

#include "support/Help.hpp"

namespace tbpeta {

namespace {

bool strict = false;

// Everything PETSc prints while the names are collected: the -help listing, read line by line for option names.
std::string captured;

PetscErrorCode CaptureVFPrintf(FILE *, const char format[], va_list args) {
  char text[4096];
  std::vsnprintf(text, sizeof text, format, args);
  captured += text;
  return 0;
}

PetscErrorCode CaptureHelpPrintf(MPI_Comm, const char format[], ...) {
  va_list args;
  va_start(args, format);
  CaptureVFPrintf(nullptr, format, args);
  va_end(args);
  return 0;
}

// The option names of a -help listing: each line "  -name <default>: ...", without the dash.
std::vector<std::string> NamesIn(const std::string &listing) {
  std::set<std::string> names;
  std::istringstream in(listing);
  for (std::string line; std::getline(in, line);) {
    const size_t dash = line.find_first_not_of(' ');
    if (dash == std::string::npos || line[dash] != '-' || dash + 1 >= line.size() ||
        !std::isalpha((unsigned char)line[dash + 1]))
      continue;
    size_t end = dash + 1;
    while (end < line.size() && (std::isalnum((unsigned char)line[end]) || line[end] == '_')) ++end;
    names.insert(line.substr(dash + 1, end - dash - 1));
  }
  return {names.begin(), names.end()};
}

// read_all() with PETSc's printing captured (nothing reaches the terminal: it repeats reads the program made, with
// their warnings); with `help`, under -help, so that its listing names every option it reads.
PetscErrorCode ReadQuietly(const std::function<PetscErrorCode()> &read_all, bool help, std::string *listing) {
  auto *vf = PetscVFPrintf;
  auto *hp = PetscHelpPrintf;
  // PETSc lists each (prefix, title) once per run, and counts the sections already read as listed: a list of its own
  // while this listing runs, so that every section is in it.
  PetscOptionsHelpPrinted printed = PetscOptionsHelpPrintedSingleton;
  PetscFunctionBeginUser;
  captured.clear();
  if (help) PetscCall(PetscOptionsSetValue(nullptr, "-help", nullptr));
  if (help) PetscOptionsHelpPrintedSingleton = nullptr;
  PetscVFPrintf = CaptureVFPrintf, PetscHelpPrintf = CaptureHelpPrintf;
  const PetscErrorCode ierr = read_all();
  PetscVFPrintf = vf, PetscHelpPrintf = hp;
  if (help) PetscCall(PetscOptionsHelpPrintedDestroy(&PetscOptionsHelpPrintedSingleton));
  if (help) PetscOptionsHelpPrintedSingleton = printed;
  if (help) PetscCall(PetscOptionsClearValue(nullptr, "-help"));
  PetscCall(ierr);
  if (listing) *listing = captured;
  PetscFunctionReturn(0);
}

size_t EditDistance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The options given that nothing has read so far and that nothing reads late.
PetscErrorCode UnreadOptions(std::vector<std::string> *names) {
  PetscInt n;
  char **left, **values;
  PetscFunctionBeginUser;
  names->clear();
  PetscCall(PetscOptionsLeftGet(nullptr, &n, &left, &values));
  for (PetscInt i = 0; i < n; ++i)
    if (!ReadLate(left[i])) names->push_back(left[i]);
  PetscCall(PetscOptionsLeftRestore(nullptr, &n, &left, &values));
  PetscFunctionReturn(0);
}

} // namespace

bool ReadLate(const std::string &name) {
  for (const char *prefix : {"log_",
                             "malloc",
                             "memory_view",
                             "options_",
                             "info",
                             "history",
                             "objects_dump",
                             "on_error",
                             "fp_trap",
                             "start_in_debugger",
                             "debugger",
                             "stop_for_debugger",
                             "checkstack",
                             "check_pointer",
                             "viewer_",
                             "saws",
                             "display",
                             "nox",
                             "x_virtual",
                             "petsc",
                             "mpi_",
                             "skip_petscrc",
                             "no_signal_handler",
                             "help",
                             "version"})
    if (name.rfind(prefix, 0) == 0) return true;
  // viewers and monitors of any object and prefix (-eps_view, -strain_snes_monitor), the factorisations' packages
  for (const char *part : {"_view", "view_", "_monitor", "mat_mumps_", "mat_superlu", "mat_strumpack", "mat_mkl_",
                           "_converged_reason", "_error_"})
    if (name.find(part) != std::string::npos) return true;
  return false;
}

std::string NearestOption(const std::string &name, const std::vector<std::string> &known) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, name.size() / 4) + 1;
  for (const std::string &k : known) {
    const size_t d = EditDistance(name, k);
    if (d < best_distance) best = k, best_distance = d;
  }
  return best;
}

PetscErrorCode OptionsStrictFromOptions(MPI_Comm comm) {
  PetscBool value = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Options", "tbpeta");
  PetscCall(PetscOptionsBool("-options_strict",
                             "An option that nothing reads is an error, before the work (else a warning)", "tbpeta",
                             value, &value, nullptr));
  PetscOptionsEnd();
  strict = value;
  PetscFunctionReturn(0);
}

bool OptionsStrict() { return strict; }

PetscErrorCode CheckOptionsBeforeWork(MPI_Comm comm, const char *program,
                                      const std::function<PetscErrorCode()> &read_all) {
  std::vector<std::string> unread;
  PetscFunctionBeginUser;
  std::string listing;
  if (HelpRequested()) PetscFunctionReturn(0);
  PetscCall(ReadQuietly(read_all, false, nullptr)); // the options of the objects made later: read now
  PetscCall(UnreadOptions(&unread));
  if (unread.empty()) PetscFunctionReturn(0);
  PetscCall(ReadQuietly(read_all, true, &listing));
  const std::vector<std::string> known = NamesIn(listing);
  std::string list;
  for (const std::string &name : unread) {
    const std::string near = NearestOption(name, known);
    const std::string hint = near.empty()   ? ""
                             : near == name ? " (not read with these settings)"
                                            : " (did you mean -" + near + "?)";
    const std::string one = "-" + name + hint;
    list += (list.empty() ? "" : ", ") + one;
    if (!strict)
      PetscCall(PetscPrintf(
          comm,
          "%s: warning: option %s is given but nothing reads it; it is ignored (-options_strict makes this an error)\n",
          program, one.c_str()));
    PetscBool marked;
    PetscCall(PetscOptionsHasName(nullptr, nullptr, ("-" + name).c_str(), &marked)); // reported once: not again at exit
  }
  PetscCheck(!strict, comm, PETSC_ERR_USER_INPUT, "-options_strict: %s %s given but nothing reads %s; nothing was run",
             list.c_str(), unread.size() > 1 ? "are" : "is", unread.size() > 1 ? "them" : "it");
  PetscFunctionReturn(0);
}

} // namespace tbpeta
