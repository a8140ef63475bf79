// The registry of dot shapes: the built-in ones, one line each, and those added by RegisterDotShape.
#include <algorithm>
#include <cstring>

#include "geometry/DotShapeKind.hpp"
#include "support/Registry.hpp"

namespace tbpeta {

// Each shape's file defines its DotShapeKind; registering it is one line of the table below.
DotShapeKind SphereShape();    // shapes/Sphere.cpp
DotShapeKind DomeShape();      // shapes/Dome.cpp
DotShapeKind BoxShape();       // shapes/Box.cpp
DotShapeKind LensShape();      // shapes/Lens.cpp
DotShapeKind ConeShape();      // shapes/Cone.cpp
DotShapeKind PyramidShape();   // shapes/Pyramid.cpp
DotShapeKind CylinderShape();  // shapes/Cylinder.cpp
DotShapeKind EllipsoidShape(); // shapes/Ellipsoid.cpp

namespace {
Registry<DotShapeKind> &ShapeRegistry() {
  // clang-format off
  static Registry<DotShapeKind> shapes = {
      SphereShape(),
      DomeShape(),
      BoxShape(),
      LensShape(),
      ConeShape(),
      PyramidShape(),
      CylinderShape(),
      EllipsoidShape(),
  };
  // clang-format on
  return shapes;
}

// The keys of a structure-file line that are not sizes (StructureFile.cpp): no size may be called so.
const char *const kRegionKeys[] = {"material", "center", "wetting", "alloy", "composition"};

// "" or why parameter p of shape `name` cannot be registered.
std::string ParameterClash(const char *name, const ShapeParameter &p) {
  const std::string who = std::string("RegisterDotShape ") + name + ": size " + p.key;
  if (p.min_count < 1 || p.max_count < p.min_count || p.max_count > 3) return who + ": takes 1 to 3 numbers";
  for (const char *k : kRegionKeys)
    if (!std::strcmp(p.key, k)) return who + ": a structure file's key of its own (" + k + "=)";
  for (const ShapeParameter *q : DotShapeParameters())
    if (q != &p && (!std::strcmp(q->key, p.key) || !std::strcmp(q->option, p.option)))
      return who + " (" + p.option + ") clashes with the size " + q->key + " (" + q->option +
             ") of another shape: share that parameter or name it apart";
  return "";
}
} // namespace

const std::deque<DotShapeKind> &DotShapes() { return ShapeRegistry().all(); }

const DotShapeKind *FindDotShape(const std::string &name) { return ShapeRegistry().Find(name); }

PetscErrorCode RegisterDotShape(const DotShapeKind &kind) {
  PetscFunctionBeginUser;
  PetscCheck(kind.name && *kind.name && std::strcmp(kind.name, "none") && !std::strchr(kind.name, ' '), PETSC_COMM_SELF,
             PETSC_ERR_ARG_WRONG, "RegisterDotShape: '%s' cannot name a shape", kind.name ? kind.name : "");
  PetscCheck(kind.check && kind.contains && kind.upper && kind.volume && kind.describe, PETSC_COMM_SELF,
             PETSC_ERR_ARG_WRONG, "RegisterDotShape %s: every function must be given", kind.name);
  PetscCheck(kind.parameters.size() <= (size_t)ShapeValues::kMax, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "RegisterDotShape %s: at most %d sizes", kind.name, ShapeValues::kMax);
  for (const ShapeParameter *p : kind.parameters) {
    const std::string clash = ParameterClash(kind.name, *p);
    PetscCheck(clash.empty(), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s", clash.c_str());
  }
  ShapeRegistry().Add(kind); // a shape registered again is replaced in place: the regions that point to it stay valid
  PetscFunctionReturn(0);
}

std::vector<const ShapeParameter *> DotShapeParameters() {
  std::vector<const ShapeParameter *> out;
  for (const DotShapeKind &k : ShapeRegistry().all())
    for (const ShapeParameter *p : k.parameters)
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  return out;
}

const ShapeParameter *FindShapeParameter(const std::string &key) {
  for (const ShapeParameter *p : DotShapeParameters())
    if (key == p->key) return p;
  return nullptr;
}

std::string DotShapeNames(bool only_on_plane) {
  std::string out;
  for (const DotShapeKind &k : ShapeRegistry().all())
    if (!only_on_plane || k.sits_on_plane) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

std::string ShapesTaking(const ShapeParameter &p) {
  std::vector<std::string> names;
  for (const DotShapeKind &k : ShapeRegistry().all())
    if (std::find(k.parameters.begin(), k.parameters.end(), &p) != k.parameters.end()) names.push_back(k.name);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

} // namespace tbpeta
