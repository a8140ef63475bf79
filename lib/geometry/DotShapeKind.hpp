#pragma once
// A kind of dot shape, as -dot_shape and a structure file's first word name it: the size parameters it takes, the
// check of their values, and the closed solid they make. The kinds are registered in DotShapes.cpp, one line each
// (RegisterDotShape adds one at run time, before the options are read); a new shape is one file that defines its
// DotShapeKind, plus that line.
//
// A shape is a closed solid in nm, placed by an anchor: the centre of its base on a (001) plane for a shape that sits
// on one, the centre of the solid otherwise. A point belongs to the shape when it lies inside the closed solid, within
// kShapeTolerance (so a site exactly on a face counts whatever the rounding). [110] and [1-10] are the in-plane axes
// u = (x + y)/sqrt(2) and v = (x - y)/sqrt(2): real dots are elongated along [1-10].
#include <petscsys.h>

#include <array>
#include <cmath>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "support/TextFormat.hpp"

namespace tbpeta {

// How far outside a shape's faces a site still belongs to it (nm; nm^2 where squared lengths are compared).
inline constexpr double kShapeTolerance = 1e-9;

// A size of the dot shapes (nm): one -dot_* option and one structure-file key, declared once and shared by every
// shape that takes it (one option, read once).
struct ShapeParameter {
  const char *key;                // its structure-file key: "radius"
  const char *option;             // its option: "-dot_radius"
  int min_count, max_count;       // how many numbers it takes; a shorter list repeats its last number (D is D,D)
  std::array<double, 3> defaults; // max_count numbers: the option's default, and a file's when not required
  bool required;                  // a structure-file line of a shape that takes it must give it
  const char *what;               // -help: WHAT of a SHAPE, SHAPE or SHAPE TAIL
  const char *tail;
};

// The sizes several built-in shapes share.
inline constexpr ShapeParameter kDotRadius{"radius", "-dot_radius", 1, 1, {2, 0, 0}, true, "Radius", ""};
inline constexpr ShapeParameter kDotDiameter{"diameter",      "-dot_diameter",         1, 2, {10, 10, 0}, true,
                                             "Base diameter", ": D, or D[110],D[1-10]"};
inline constexpr ShapeParameter kDotHeight{"height", "-dot_height", 1, 1, {3, 0, 0}, true, "Height", ""};

// The sizes of a shape, checked and complete: every parameter it takes with max_count numbers. Its functions read
// them as s(kDotHeight) or s(kDotDiameter, 1).
class ShapeValues {
public:
  double operator()(const ShapeParameter &p, int i = 0) const {
    for (int k = 0; k < n_; ++k)
      if (params_[k] == &p) return values_[k][i];
    return std::numeric_limits<double>::quiet_NaN(); // not a parameter of the shape
  }
  void add(const ShapeParameter &p, const std::array<double, 3> &v) {
    if (n_ < kMax) params_[n_] = &p, values_[n_++] = v;
  }
  static constexpr int kMax = 8;

private:
  std::array<const ShapeParameter *, kMax> params_{};
  std::array<std::array<double, 3>, kMax> values_{};
  int n_ = 0;
};

// How a region's errors name its sizes: by their options (-dot_height), or "FILE:line: height" in a structure file.
struct ShapeSizeNames {
  std::string file_line; // empty: the options
  std::string operator()(const ShapeParameter &p) const {
    return file_line.empty() ? std::string(p.option) : file_line + ": " + p.key;
  }
};

struct DotShapeKind {
  const char *name;   // -dot_shape NAME, the first word of a structure-file line
  bool sits_on_plane; // its anchor is the centre of its base on a (001) plane (a wetting layer may lie under it)
  std::vector<const ShapeParameter *> parameters; // the sizes it takes, in the order its errors list them
  // "" or what is wrong with the sizes: one line that names the size by names(parameter).
  std::string (*check)(const ShapeValues &s, const ShapeSizeNames &names);
  // Whether the point r (nm, relative to the anchor) lies inside the closed shape (within kShapeTolerance).
  bool (*contains)(const ShapeValues &s, const std::array<double, 3> &r);
  // The upper corner of the bounding box relative to the anchor (nm); the lower is its mirror image, with z = 0 for a
  // shape that sits on a plane.
  std::array<double, 3> (*upper)(const ShapeValues &s);
  double (*volume)(const ShapeValues &s); // analytic (nm^3)
  // A short description for the run's summary and errors ("lens 16 x 16 nm, 3.5 nm tall").
  std::string (*describe)(const ShapeValues &s);
};

// The registry (DotShapes.cpp). Every shape, in the order -help lists them; a reference stays valid when another
// shape is registered.
const std::deque<DotShapeKind> &DotShapes();
// The shape called `name`, or nullptr ("none" is the -dot_shape value that removes a dot, not a shape).
const DotShapeKind *FindDotShape(const std::string &name);
// Adds a shape (or replaces the one of the same name). Its parameters may be new or the very objects another shape
// declared; a key or option that another parameter has, or a key a structure file uses for something else, is
// refused.
PetscErrorCode RegisterDotShape(const DotShapeKind &kind);
// Every size parameter of the registered shapes, each once, in the order they were first declared; and by key.
std::vector<const ShapeParameter *> DotShapeParameters();
const ShapeParameter *FindShapeParameter(const std::string &key);
// The names of the shapes (all, or those that sit on a plane), comma-separated: "sphere, dome, box, ...".
std::string DotShapeNames(bool only_on_plane = false);
// The names of the shapes that take p: "a lens, cone or cylinder" is "lens, cone or cylinder".
std::string ShapesTaking(const ShapeParameter &p);

// For the shapes' files (with FormatText): "" or "NAME: V nm; must be positive"; the in-plane coordinates.
std::string ShapePositive(const std::string &name, double value);
inline double AlongU(const std::array<double, 3> &r) { return (r[0] + r[1]) * M_SQRT1_2; } // along [110]
inline double AlongV(const std::array<double, 3> &r) { return (r[0] - r[1]) * M_SQRT1_2; } // along [1-10]
// The bounding box of a solid of height h on an ellipse of diameters du along [110] and dv along [1-10] (a circle when
// they are equal): its half-extent along x (and y) is sqrt(a^2 + b^2)/sqrt(2).
inline std::array<double, 3> EllipticBaseUpper(double du, double dv, double h) {
  const double a = du / 2, b = dv / 2, half = std::sqrt((a * a + b * b) / 2);
  return {half, half, h};
}

} // namespace tbpeta
