// A sphere of radius R centred on its anchor.
#include "geometry/DotShapeKind.hpp"

namespace tbpeta {

namespace {
std::string SphereCheck(const ShapeValues &s, const ShapeSizeNames &names) {
  return ShapePositive(names(kDotRadius), s(kDotRadius));
}
bool SphereContains(const ShapeValues &s, const std::array<double, 3> &r) {
  const double R = s(kDotRadius), z = r[2], rho2 = r[0] * r[0] + r[1] * r[1];
  return rho2 + z * z <= R * R + kShapeTolerance;
}
std::array<double, 3> SphereUpper(const ShapeValues &s) { return {s(kDotRadius), s(kDotRadius), s(kDotRadius)}; }
double SphereVolume(const ShapeValues &s) { return 4 * M_PI * std::pow(s(kDotRadius), 3) / 3; }
std::string SphereDescribe(const ShapeValues &s) { return FormatText("sphere of radius %g nm", s(kDotRadius)); }
} // namespace

DotShapeKind SphereShape() {
  return {"sphere", false, {&kDotRadius}, SphereCheck, SphereContains, SphereUpper, SphereVolume, SphereDescribe};
}

} // namespace tbpeta
