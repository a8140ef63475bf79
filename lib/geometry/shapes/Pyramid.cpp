// A square-based pyramid with {101} facets on its base, full (h = b/2) or truncated (h < b/2) (M. Grundmann, O. Stier
// and D. Bimberg, Phys. Rev. B 52, 11969 (1995)).
#include "geometry/DotShapeKind.hpp"

namespace tbpeta {

namespace {
constexpr ShapeParameter kPyramidBase{"base",     "-dot_base", 1,           1,
                                      {10, 0, 0}, true,        "Base edge", " (along [100] and [010])"};

std::string PyramidCheck(const ShapeValues &s, const ShapeSizeNames &names) {
  const double b = s(kPyramidBase), h = s(kDotHeight);
  std::string err = ShapePositive(names(kPyramidBase), b);
  if (err.empty()) err = ShapePositive(names(kDotHeight), h);
  if (err.empty() && h > b / 2 + kShapeTolerance)
    err = names(kDotHeight) + FormatText(": %g nm is above half the base (%g nm): the {101} facets meet at b/2", h, b);
  return err;
}
bool PyramidContains(const ShapeValues &s, const std::array<double, 3> &r) {
  const double h = s(kDotHeight), z = r[2], half = s(kPyramidBase) / 2 - z + kShapeTolerance;
  return z >= -kShapeTolerance && z <= h + kShapeTolerance && std::fabs(r[0]) <= half && std::fabs(r[1]) <= half;
}
std::array<double, 3> PyramidUpper(const ShapeValues &s) {
  return {s(kPyramidBase) / 2, s(kPyramidBase) / 2, s(kDotHeight)};
}
double PyramidVolume(const ShapeValues &s) { // a frustum of base b and top t = b - 2h
  const double h = s(kDotHeight), b = s(kPyramidBase), t = b - 2 * h;
  return h * (b * b + b * t + t * t) / 3;
}
std::string PyramidDescribe(const ShapeValues &s) {
  const double b = s(kPyramidBase), h = s(kDotHeight);
  return FormatText("pyramid, base %g nm, %g nm tall%s", b, h, h < b / 2 - kShapeTolerance ? " (truncated)" : "");
}
} // namespace

DotShapeKind PyramidShape() {
  return {"pyramid",     true,           {&kPyramidBase, &kDotHeight}, PyramidCheck, PyramidContains, PyramidUpper,
          PyramidVolume, PyramidDescribe};
}

} // namespace tbpeta
