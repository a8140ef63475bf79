// A box of extents x, y, z centred on its anchor (its faces are crystal planes).
#include "geometry/DotShapeKind.hpp"

namespace tbpeta {

namespace {
constexpr ShapeParameter kBoxSize{"size", "-dot_size", 3, 3, {4, 4, 4}, true, "Size x,y,z", ""};

std::string BoxCheck(const ShapeValues &s, const ShapeSizeNames &names) {
  std::string err;
  for (int a = 0; a < 3 && err.empty(); ++a)
    err = ShapePositive(names(kBoxSize) + " along " + "xyz"[a], s(kBoxSize, a));
  return err;
}
bool BoxContains(const ShapeValues &s, const std::array<double, 3> &r) {
  return std::fabs(r[0]) <= s(kBoxSize, 0) / 2 + kShapeTolerance &&
         std::fabs(r[1]) <= s(kBoxSize, 1) / 2 + kShapeTolerance &&
         std::fabs(r[2]) <= s(kBoxSize, 2) / 2 + kShapeTolerance;
}
std::array<double, 3> BoxUpper(const ShapeValues &s) {
  return {s(kBoxSize, 0) / 2, s(kBoxSize, 1) / 2, s(kBoxSize, 2) / 2};
}
double BoxVolume(const ShapeValues &s) { return s(kBoxSize, 0) * s(kBoxSize, 1) * s(kBoxSize, 2); }
std::string BoxDescribe(const ShapeValues &s) {
  return FormatText("box %g x %g x %g nm", s(kBoxSize, 0), s(kBoxSize, 1), s(kBoxSize, 2));
}
} // namespace

DotShapeKind BoxShape() { return {"box", false, {&kBoxSize}, BoxCheck, BoxContains, BoxUpper, BoxVolume, BoxDescribe}; }

} // namespace tbpeta
