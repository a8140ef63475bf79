// A cone of base diameter D and height h on its base, full or truncated at a top diameter t < D.
#include <algorithm>

#include "geometry/DotShapeKind.hpp"

namespace tbpeta {

namespace {
constexpr ShapeParameter kConeTop{"top",          "-dot_top_diameter", 1, 1, {0, 0, 0}, false,
                                  "Top diameter", " (0: a full cone)"};

std::string ConeCheck(const ShapeValues &s, const ShapeSizeNames &names) {
  const double du = s(kDotDiameter, 0), dv = s(kDotDiameter, 1), top = s(kConeTop);
  std::string err = ShapePositive(names(kDotDiameter), std::min(du, dv));
  if (err.empty()) err = ShapePositive(names(kDotHeight), s(kDotHeight));
  if (err.empty() && du != dv)
    err = names(kDotDiameter) + ": a cone takes one diameter (only the lens and the ellipsoid two)";
  if (err.empty() && (top < 0 || top >= du))
    err = names(kConeTop) + FormatText(": %g nm; must be 0 (a full cone) or below the base diameter %g nm", top, du);
  return err;
}
bool ConeContains(const ShapeValues &s, const std::array<double, 3> &r) {
  const double h = s(kDotHeight), z = r[2], rho2 = r[0] * r[0] + r[1] * r[1];
  const double rb = s(kDotDiameter) / 2, rz = rb + (s(kConeTop) / 2 - rb) * z / h;
  return z >= -kShapeTolerance && z <= h + kShapeTolerance && rho2 <= rz * rz + kShapeTolerance;
}
std::array<double, 3> ConeUpper(const ShapeValues &s) {
  return EllipticBaseUpper(s(kDotDiameter, 0), s(kDotDiameter, 1), s(kDotHeight));
}
double ConeVolume(const ShapeValues &s) {
  const double rb = s(kDotDiameter) / 2, rt = s(kConeTop) / 2;
  return M_PI * s(kDotHeight) * (rb * rb + rb * rt + rt * rt) / 3;
}
std::string ConeDescribe(const ShapeValues &s) {
  return FormatText("cone, base %g nm, top %g nm, %g nm tall", s(kDotDiameter), s(kConeTop), s(kDotHeight));
}
} // namespace

DotShapeKind ConeShape() {
  return {"cone",     true,        {&kDotDiameter, &kDotHeight, &kConeTop}, ConeCheck, ConeContains, ConeUpper,
          ConeVolume, ConeDescribe};
}

} // namespace tbpeta
