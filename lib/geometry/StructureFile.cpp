#include "geometry/StructureFile.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "support/OptionLists.hpp"

namespace tbpeta {

namespace {
// The sizes each shape requires, besides material, center, alloy and composition (and wetting when it sits on a plane).
const std::map<DotShape, std::set<std::string>> kSizes = {{DotShape::sphere, {"radius"}},
                                                          {DotShape::dome, {"radius"}},
                                                          {DotShape::box, {"size"}},
                                                          {DotShape::lens, {"diameter", "height"}},
                                                          {DotShape::cone, {"diameter", "height"}},
                                                          {DotShape::pyramid, {"base", "height"}},
                                                          {DotShape::cylinder, {"diameter", "height"}},
                                                          {DotShape::ellipsoid, {"diameter", "height"}}};

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

// The keys a shape takes, for the errors.
std::string Allowed(DotShape shape) {
  std::string keys = "material, center";
  for (const std::string &k : kSizes.at(shape)) keys += ", " + k;
  if (shape == DotShape::cone) keys += ", top";
  if (SitsOnPlane(shape)) keys += ", wetting";
  return keys + ", alloy, composition";
}

// One field key=value into r; "" or what is wrong.
std::string Field(const std::string &key, const std::string &value, RegionSpec *r) {
  std::vector<double> v;
  std::string err;
  ShapeSize &s = r->size;
  if (key == "material") r->material = value, err = value.empty() ? "material= is empty" : "";
  else if (key == "alloy") err = ParseAlloyText(value, &r->alloy_material, &r->alloy_x);
  else if (key == "center" && (err = Numbers(value, 3, 3, &v)).empty())
    r->center = {v[0], v[1], v[2]}, r->center_set = true;
  else if (key == "size" && (err = Numbers(value, 3, 3, &v)).empty()) s.size = {v[0], v[1], v[2]};
  else if (key == "diameter" && (err = Numbers(value, 1, 2, &v)).empty()) s.diameter = {v[0], v.back()};
  else if (key == "composition" && (err = Numbers(value, 1, 2, &v)).empty()) {
    r->composition = {v[0], v.back()};
    if (v[0] < 0 || v[0] > 1 || v.back() < 0 || v.back() > 1) err = "a composition outside [0, 1]";
  } else if (key == "wetting") {
    char *end = nullptr;
    const long n = std::strtol(value.c_str(), &end, 10);
    err = value.empty() || *end != '\0' || n < 0 || n > 1000
              ? "'" + value + "' is not a number of monolayers (0 or more)"
              : "";
    r->wetting_layers = (int)n;
  } else if (key == "radius" || key == "height" || key == "top" || key == "base") {
    if ((err = Numbers(value, 1, 1, &v)).empty())
      (key == "radius" ? s.radius : key == "height" ? s.height : key == "top" ? s.top_diameter : s.base) = v[0];
  } else if (key != "center" && key != "size" && key != "diameter" && key != "composition")
    return "unknown key '" + key + "'";
  return err.empty() ? "" : key + "=" + value + ": " + err;
}

// One line (without its comment) into a region; "" or what is wrong.
std::string Line(const std::string &text, RegionSpec *r) {
  std::istringstream in(text);
  std::string word;
  in >> word;
  if (!DotShapeFromName(word, &r->shape) || r->shape == DotShape::none)
    return "unknown shape '" + word + "' (expected one of " + DotShapeNames() + ")";
  std::set<std::string> seen;
  while (in >> word) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0) return "'" + word + "' is not key=value";
    const std::string key = word.substr(0, eq);
    if (!seen.insert(key).second) return key + " is given twice";
    const bool shape_key = key != "material" && key != "center" && key != "alloy" && key != "composition";
    const bool takes = kSizes.at(r->shape).count(key) || (key == "top" && r->shape == DotShape::cone) ||
                       (key == "wetting" && SitsOnPlane(r->shape));
    if (shape_key && !takes)
      return "a " + std::string(DotShapeName(r->shape)) + " takes " + Allowed(r->shape) + " (not " + key + ")";
    if (std::string err = Field(key, word.substr(eq + 1), r); !err.empty()) return err;
  }
  if (!seen.count("material"))
    return "no material= (a " + std::string(DotShapeName(r->shape)) + " takes " + Allowed(r->shape) + ")";
  for (const std::string &k : kSizes.at(r->shape))
    if (!seen.count(k)) return "a " + std::string(DotShapeName(r->shape)) + " needs " + k + "=";
  if (r->shape == DotShape::cone && !seen.count("top")) r->size.top_diameter = 0;
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
