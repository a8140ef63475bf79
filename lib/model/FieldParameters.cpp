#include "model/FieldParameters.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>

#include "model/ParameterSet.hpp"
#include "support/InstallLayout.hpp"

namespace tbpeta {

namespace {

const char *const kFieldKeys[] = {"material", "eps_static", "e14_experimental", "e14_calculated", "B114",
                                  "B124",     "B156",       "piezo_origin",     "citation",       "status"};

bool KnownFieldKey(const std::string &key) {
  for (const char *k : kFieldKeys)
    if (key == k) return true;
  return false;
}

std::string Trimmed(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t\r"), last = s.find_last_not_of(" \t\r");
  return first == std::string_view::npos ? "" : std::string(s.substr(first, last - first + 1));
}

// The key = value lines of the text; false with *error at the first malformed, unknown or repeated key.
bool ReadFieldEntries(std::string_view text, const std::string &where, std::map<std::string, std::string> *entries,
                      std::map<std::string, int> *lines, std::string *error) {
  int number = 0;
  for (size_t start = 0; start <= text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1, ++number;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    if (Trimmed(line).empty()) continue;
    const size_t eq = line.find('=');
    const std::string key = Trimmed(line.substr(0, eq == std::string_view::npos ? 0 : eq));
    if (eq == std::string_view::npos || key.empty())
      return *error = where + " line " + std::to_string(number) + ": expected 'key = value'", false;
    if (!KnownFieldKey(key))
      return *error = where + " line " + std::to_string(number) + ": unknown key '" + key +
                      "' (allowed: material, eps_static, e14_experimental, e14_calculated, B114, B124, B156, "
                      "piezo_origin, citation, status)",
             false;
    if (entries->count(key))
      return *error = where + " line " + std::to_string(number) + ": key '" + key + "' given twice", false;
    (*entries)[key] = Trimmed(line.substr(eq + 1));
    (*lines)[key] = number;
  }
  return true;
}

// The number of key (when given) into *value and *given; false with *error for a value that is not a finite number.
bool FieldNumber(const std::map<std::string, std::string> &entries, const std::map<std::string, int> &lines,
                 const std::string &where, const std::string &key, double *value, bool *given, std::string *error) {
  const auto it = entries.find(key);
  *given = it != entries.end();
  if (!*given) return true;
  char *end = nullptr;
  errno = 0;
  *value = std::strtod(it->second.c_str(), &end);
  if (it->second.empty() || *end != '\0' || errno || !std::isfinite(*value))
    return *error = where + " line " + std::to_string(lines.at(key)) + ": key '" + key + "': '" + it->second +
                    "' is not a finite number",
           false;
  return true;
}

} // namespace

PiezoCoefficients FieldParameters::coefficients(PiezoOrder order, E14Choice e14_choice) const {
  PiezoCoefficients c;
  c.e14 = e14[(int)ResolvedE14(order, e14_choice)];
  if (order == PiezoOrder::second) c.B114 = B114, c.B124 = B124, c.B156 = B156;
  return c;
}

std::string FieldParameters::missingKeys(PiezoOrder order, E14Choice e14_choice) const {
  std::string missing;
  if (eps_static <= 0) missing = "eps_static";
  if (order == PiezoOrder::none) return missing;
  e14_choice = ResolvedE14(order, e14_choice);
  if (!has_e14[(int)e14_choice])
    missing += std::string(missing.empty() ? "" : ", ") + "e14_" + E14ChoiceName(e14_choice);
  if (order == PiezoOrder::second && !has_second)
    missing += std::string(missing.empty() ? "" : ", ") + "B114, B124, B156";
  return missing;
}

bool ParseFieldText(std::string_view text, const std::string &path, FieldParameters *out, std::string *error) {
  const std::string where = "field data file '" + path + "'";
  std::map<std::string, std::string> entries;
  std::map<std::string, int> lines;
  FieldParameters p;
  bool given, b[3];
  if (!ReadFieldEntries(text, where, &entries, &lines, error)) return false;
  if (!entries.count("material")) return *error = where + ": key 'material' is missing", false;
  p.material = entries["material"];
  const std::string origin = entries.count("piezo_origin") ? entries["piezo_origin"] : "";
  if (origin != "anion" && origin != "cation")
    return *error =
               where + ": key 'piezo_origin' must be anion or cation (the sublattice the source puts at the origin)",
           false;
  if (!FieldNumber(entries, lines, where, "eps_static", &p.eps_static, &given, error)) return false;
  if (given && p.eps_static <= 0)
    return *error = where + " line " + std::to_string(lines["eps_static"]) + ": eps_static must be positive", false;
  if (!FieldNumber(entries, lines, where, "e14_experimental", &p.e14[0], &p.has_e14[0], error) ||
      !FieldNumber(entries, lines, where, "e14_calculated", &p.e14[1], &p.has_e14[1], error) ||
      !FieldNumber(entries, lines, where, "B114", &p.B114, &b[0], error) ||
      !FieldNumber(entries, lines, where, "B124", &p.B124, &b[1], error) ||
      !FieldNumber(entries, lines, where, "B156", &p.B156, &b[2], error))
    return false;
  if (b[0] != b[1] || b[1] != b[2]) return *error = where + ": give B114, B124 and B156 together, or none", false;
  p.has_second = b[0];
  const double sign = origin == "cation" ? -1.0 : 1.0; // to tbpeta's anion-at-origin convention
  for (double *c : {&p.e14[0], &p.e14[1], &p.B114, &p.B124, &p.B156}) *c *= sign;
  p.citation = entries.count("citation") ? entries["citation"] : "";
  p.status = entries.count("status") ? entries["status"] : "";
  p.source = path;
  *out = p;
  return true;
}

PetscErrorCode LoadFieldParameters(MPI_Comm comm, const std::vector<std::string> &materials, const FieldSpec &spec,
                                   std::vector<FieldParameters> *out) {
  PetscFunctionBeginUser;
  out->clear();
  for (const std::string &m : materials) {
    const std::string path = FindDataFile("fields/" + m + ".txt");
    std::string text, error;
    FieldParameters p;
    PetscCall(ReadDataFileOnRankZero(comm, "field data file", path, &text));
    PetscCheck(ParseFieldText(text, path, &p, &error), comm, PETSC_ERR_USER_INPUT, "%s", error.c_str());
    PetscCheck(p.material == m, comm, PETSC_ERR_USER_INPUT, "field data file '%s': material is '%s', expected '%s'",
               path.c_str(), p.material.c_str(), m.c_str());
    const std::string missing = p.missingKeys(spec.piezo, spec.e14);
    PetscCheck(missing.empty(), comm, PETSC_ERR_USER_INPUT,
               "-piezo %s -piezo_e14 %s: material %s has no %s in '%s' (give them there, or choose another -piezo or "
               "-piezo_e14)",
               PiezoOrderName(spec.piezo), E14ChoiceName(spec.e14), m.c_str(), missing.c_str(), path.c_str());
    out->push_back(p);
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
