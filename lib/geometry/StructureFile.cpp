#include "geometry/StructureFile.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "support/OptionLists.hpp"

namespace tbpeta {

namespace {
// n to m comma-separated finite numbers; "" or what is wrong.
std::string Numbers(const std::string &text, size_t n, size_t m, std::vector<double> *out) {
  out->clear();
  for (const std::string &f : SplitList(text)) {
    char *end = nullptr;
    errno = 0;
    const double v = std::strtod(f.c_str(), &end);
    if (f.empty() || *end != '\0' || errno != 0 || !std::isfinite(v)) return "'" + f + "' is not a number";
    out->push_back(v);
  }
  if (out->size() < n || out->size() > m)
    return n == m ? "expected " + std::to_string(n) + " comma-separated numbers"
                  : "expected " + std::to_string(n) + " to " + std::to_string(m) + " comma-separated numbers";
  return "";
}

// The keys a shape takes, for the errors: its sizes, and wetting when it sits on a plane.
std::string Allowed(const DotShapeKind &shape) {
  std::string keys = "material, center";
  for (const ShapeParameter *p : shape.parameters) keys += ", " + std::string(p->key);
  if (shape.sits_on_plane) keys += ", wetting";
  return keys + ", alloy, composition";
}

// The size `key` of the shape (nullptr: it takes none of that name).
const ShapeParameter *SizeOf(const DotShapeKind &shape, const std::string &key) {
  for (const ShapeParameter *p : shape.parameters)
    if (key == p->key) return p;
  return nullptr;
}

// One field key=value into r, whose shape takes it; "" or what is wrong.
std::string Field(const std::string &key, const std::string &value, const DotShapeKind &shape, RegionSpec *r) {
  std::vector<double> v;
  std::string err;
  if (key == "material") {
    r->material = value;
    if (value.empty()) err = "material= is empty";
  } else if (key == "alloy") err = ParseAlloyText(value, &r->alloy_material, &r->alloy_x);
  else if (key == "center") {
    if ((err = Numbers(value, 3, 3, &v)).empty()) {
      r->center = {v[0], v[1], v[2]};
      r->center_set = true;
    }
  } else if (key == "composition") {
    if ((err = Numbers(value, 1, 2, &v)).empty()) r->composition = {v[0], v.back()};
    if (err.empty() && (v[0] < 0 || v[0] > 1 || v.back() < 0 || v.back() > 1)) err = "a composition outside [0, 1]";
  } else if (key == "wetting") {
    char *end = nullptr;
    const long n = std::strtol(value.c_str(), &end, 10);
    err = value.empty() || *end != '\0' || n < 0 || n > 1000
              ? "'" + value + "' is not a number of monolayers (0 or more)"
              : "";
    r->wetting_layers = (int)n;
  } else if (const ShapeParameter *p = SizeOf(shape, key)) {
    if ((err = Numbers(value, p->min_count, p->max_count, &v)).empty()) r->size.set(key, v);
  } else return "unknown key '" + key + "'";
  return err.empty() ? "" : key + "=" + value + ": " + err;
}

// One line (without its comment) into a region; "" or what is wrong.
std::string Line(const std::string &text, RegionSpec *r) {
  std::istringstream in(text);
  std::string word;
  in >> word;
  const DotShapeKind *shape = FindDotShape(word);
  if (!shape) return "unknown shape '" + word + "' (expected one of " + DotShapeNames() + ")";
  r->shape = shape->name;
  const std::string a = "a " + r->shape;
  std::set<std::string> seen;
  while (in >> word) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0) return "'" + word + "' is not key=value";
    const std::string key = word.substr(0, eq);
    if (!seen.insert(key).second) return key + " is given twice";
    const bool shape_key = key != "material" && key != "center" && key != "alloy" && key != "composition";
    const bool takes = SizeOf(*shape, key) || (key == "wetting" && shape->sits_on_plane);
    if (shape_key && !takes) return a + " takes " + Allowed(*shape) + " (not " + key + ")";
    if (std::string err = Field(key, word.substr(eq + 1), *shape, r); !err.empty()) return err;
  }
  if (!seen.count("material")) return "no material= (" + a + " takes " + Allowed(*shape) + ")";
  for (const ShapeParameter *p : shape->parameters)
    if (p->required && !seen.count(p->key)) return a + " needs " + p->key + "=";
  return "";
}
} // namespace

std::string ParseAlloyText(const std::string &value, std::string *material, double *x) {
  const size_t comma = value.find(',');
  if (comma == std::string::npos || comma == 0) return "expected MATERIAL,x (e.g. InAs,0.3), got '" + value + "'";
  const std::string number = value.substr(comma + 1);
  char *end = nullptr;
  const double v = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0') return "'" + number + "' is not a number (expected MATERIAL,x with 0 <= x <= 1)";
  if (!(v >= 0 && v <= 1)) return "fraction " + number + " is outside [0,1]";
  *material = value.substr(0, comma), *x = v;
  return "";
}

std::string ParseStructureText(const std::string &name, const std::string &text, std::vector<RegionSpec> *regions) {
  std::istringstream in(text);
  std::string line;
  regions->clear();
  for (int number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    RegionSpec r;
    r.where = name + ":" + std::to_string(number);
    if (std::string err = Line(line, &r); !err.empty()) return r.where + ": " + err;
    regions->push_back(r);
  }
  return regions->empty() ? name + ": no region (one line per region: SHAPE material=M sizes...)" : "";
}

PetscErrorCode ReadStructureFile(MPI_Comm comm, const std::string &path, std::vector<RegionSpec> *regions) {
  PetscFunctionBeginUser;
  std::ifstream file(path);
  PetscCheck(file, comm, PETSC_ERR_FILE_OPEN, "-structure_file %s: cannot read it (%s)", path.c_str(),
             std::strerror(errno));
  std::stringstream text;
  text << file.rdbuf();
  const std::string err = ParseStructureText(path, text.str(), regions);
  PetscCheck(err.empty(), comm, PETSC_ERR_USER_INPUT, "%s", err.c_str());
  PetscFunctionReturn(0);
}

} // namespace tbpeta
