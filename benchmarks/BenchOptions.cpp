#include "BenchOptions.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "io/OutputPath.hpp"
#include "support/OptionLists.hpp"

namespace tbpeta::bench {

namespace {

PetscErrorCode ParseInteger(MPI_Comm comm, const std::string &name, const std::string &text, PetscInt *value) {
  char *end = nullptr;
  PetscFunctionBeginUser;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  PetscCheck(!text.empty() && end && *end == '\0', comm, PETSC_ERR_USER_INPUT, "%s: '%s' is not an integer",
             name.c_str(), text.c_str());
  PetscCheck(errno == 0 && v >= -(long long)PETSC_MAX_INT && v <= (long long)PETSC_MAX_INT, comm, PETSC_ERR_USER_INPUT,
             "%s: %s is out of range", name.c_str(), text.c_str());
  *value = (PetscInt)v;
  PetscFunctionReturn(0);
}

PetscErrorCode ParseReal(MPI_Comm comm, const std::string &name, const std::string &text, PetscReal *value) {
  char *end = nullptr;
  PetscFunctionBeginUser;
  const double v = std::strtod(text.c_str(), &end);
  PetscCheck(!text.empty() && end && *end == '\0', comm, PETSC_ERR_USER_INPUT, "%s: '%s' is not a number", name.c_str(),
             text.c_str());
  PetscCheck(std::isfinite(v), comm, PETSC_ERR_USER_INPUT, "%s: '%s' is not a finite number", name.c_str(),
             text.c_str());
  *value = v;
  PetscFunctionReturn(0);
}

std::vector<std::string> ListItems(const std::string &text) {
  std::vector<std::string> items;
  for (const std::string &item : SplitList(text))
    if (!item.empty()) items.push_back(item);
  return items;
}

// The text of an option (its default, or the command line's) into its target.
PetscErrorCode ParseInto(MPI_Comm comm, const BenchOption &o, const std::string &text) {
  PetscFunctionBeginUser;
  if (auto p = std::get_if<PetscInt *>(&o.target)) PetscCall(ParseInteger(comm, o.name, text, *p));
  else if (auto p = std::get_if<PetscReal *>(&o.target)) PetscCall(ParseReal(comm, o.name, text, *p));
  else if (auto p = std::get_if<std::string *>(&o.target)) **p = text;
  else if (auto p = std::get_if<std::vector<std::string> *>(&o.target)) **p = ListItems(text);
  else if (auto p = std::get_if<std::vector<PetscInt> *>(&o.target)) {
    (*p)->clear();
    for (const std::string &item : ListItems(text)) {
      PetscInt v;
      PetscCall(ParseInteger(comm, o.name, item, &v));
      (*p)->push_back(v);
    }
  }
  PetscFunctionReturn(0);
}

// The option's text into *text (the default unless given), or a logical into its target; *empty: given without a
// value. Inside the options block.
PetscErrorCode ReadOne(PetscOptionItems *PetscOptionsObject, const char *program, const BenchOption &o,
                       std::string *text, bool *empty) {
  PetscBool set = PETSC_FALSE;
  PetscFunctionBeginUser;
  if (auto b = std::get_if<PetscBool *>(&o.target)) { // PETSc's own reader: "-flag" alone means true
    PetscCall(PetscOptionsStringToBool(o.fallback.c_str(), *b));
    PetscCall(PetscOptionsBool(o.name.c_str(), o.help.c_str(), program, **b, *b, &set));
  } else {
    char buf[4096];
    std::snprintf(buf, sizeof buf, "%s", o.fallback.c_str());
    PetscCall(PetscOptionsString(o.name.c_str(), o.help.c_str(), program, buf, buf, sizeof buf, &set));
    *text = buf;
    *empty = set && !buf[0];
  }
  if (o.given) *o.given = set;
  PetscFunctionReturn(0);
}

std::string Quoted(const std::string &text) {
  return text.find_first_of(",\"") == std::string::npos ? text : "\"" + text + "\"";
}

std::string ValueText(const OptionTarget &target) {
  char buf[64];
  if (auto p = std::get_if<PetscInt *>(&target)) return std::to_string(**p);
  if (auto p = std::get_if<PetscBool *>(&target)) return **p ? "true" : "false";
  if (auto p = std::get_if<std::string *>(&target)) return **p;
  if (auto p = std::get_if<PetscReal *>(&target)) {
    std::snprintf(buf, sizeof buf, "%.17g", (double)**p);
    return buf;
  }
  std::string list;
  if (auto p = std::get_if<std::vector<PetscInt> *>(&target))
    for (PetscInt v : **p) list += (list.empty() ? "" : ",") + std::to_string(v);
  if (auto p = std::get_if<std::vector<std::string> *>(&target))
    for (const std::string &v : **p) list += (list.empty() ? "" : ",") + v;
  return list;
}

} // namespace

PetscErrorCode ReadBenchOptions(MPI_Comm comm, const char *program, const BenchOptions &options) {
  std::vector<std::string> texts(options.size());
  std::vector<char> empty(options.size(), false);
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, program, "tbpeta");
  for (size_t i = 0; i < options.size(); ++i) {
    bool e = false;
    PetscCall(ReadOne(PetscOptionsObject, program, options[i], &texts[i], &e));
    empty[i] = e;
  }
  PetscOptionsEnd();
  // Checked and parsed after the block, so that an error leaves nothing of it behind.
  for (size_t i = 0; i < options.size(); ++i) {
    if (std::holds_alternative<PetscBool *>(options[i].target)) continue;
    PetscCheck(!empty[i], comm, PETSC_ERR_USER_INPUT, "%s: needs a value (default: %s)", options[i].name.c_str(),
               options[i].fallback.empty() ? "none" : options[i].fallback.c_str());
    PetscCall(ParseInto(comm, options[i], texts[i]));
  }
  for (const BenchOption &o : options) // before the measurements, not after them
    if (auto path = std::get_if<std::string *>(&o.target); path && !o.output.empty() && !(*path)->empty())
      PetscCall(CheckOutputFile(comm, **path, o.name.c_str(), o.output.c_str()));
  PetscFunctionReturn(0);
}

BenchOption CsvFileOption(std::string *path, const std::string &help, const std::string &fallback,
                          const std::string &name) {
  return {name, help, fallback, path, nullptr, ".csv"};
}

std::string SettingsCsvHeader(const BenchOptions &options) {
  std::string header;
  for (const BenchOption &o : options) header += (header.empty() ? "" : ",") + o.name.substr(1);
  return header;
}

std::string SettingsCsvValues(const BenchOptions &options) {
  std::string values;
  for (size_t i = 0; i < options.size(); ++i) values += (i ? "," : "") + Quoted(ValueText(options[i].target));
  return values;
}

} // namespace tbpeta::bench
