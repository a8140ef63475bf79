// A dome: the half sphere of radius R on its base (the lens with h = D/2).
#include "geometry/DotShapeKind.hpp"

namespace tbpeta {

namespace {
std::string DomeCheck(const ShapeValues &s, const ShapeSizeNames &names) {
  return ShapePositive(names(kDotRadius), s(kDotRadius));
}
bool DomeContains(const ShapeValues &s, const std::array<double, 3> &r) {
  const double R = s(kDotRadius), z = r[2], rho2 = r[0] * r[0] + r[1] * r[1];
  return z >= -kShapeTolerance && rho2 + z * z <= R * R + kShapeTolerance;
}
std::array<double, 3> DomeUpper(const ShapeValues &s) { return {s(kDotRadius), s(kDotRadius), s(kDotRadius)}; }
double DomeVolume(const ShapeValues &s) { return 2 * M_PI * std::pow(s(kDotRadius), 3) / 3; }
std::string DomeDescribe(const ShapeValues &s) { return FormatText("dome of radius %g nm", s(kDotRadius)); }
} // namespace

DotShapeKind DomeShape() {
  return {"dome", true, {&kDotRadius}, DomeCheck, DomeContains, DomeUpper, DomeVolume, DomeDescribe};
}

} // namespace tbpeta
