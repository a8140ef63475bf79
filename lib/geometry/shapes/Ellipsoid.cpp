// A half ellipsoid on its base: (2u/D[110])^2 + (2v/D[1-10])^2 + (z/h)^2 <= 1, z >= 0 (G. Bester and A. Zunger,
// Phys. Rev. B 71, 045318 (2005), for the elongation).
#include <algorithm>

#include "geometry/DotShapeKind.hpp"

namespace tbpeta {

namespace {
std::string EllipsoidCheck(const ShapeValues &s, const ShapeSizeNames &names) {
  std::string err = ShapePositive(names(kDotDiameter), std::min(s(kDotDiameter, 0), s(kDotDiameter, 1)));
  return err.empty() ? ShapePositive(names(kDotHeight), s(kDotHeight)) : err;
}
bool EllipsoidContains(const ShapeValues &s, const std::array<double, 3> &r) {
  const double u = AlongU(r) / (s(kDotDiameter, 0) / 2), v = AlongV(r) / (s(kDotDiameter, 1) / 2),
               w = r[2] / s(kDotHeight);
  return r[2] >= -kShapeTolerance && u * u + v * v + w * w <= 1 + kShapeTolerance;
}
std::array<double, 3> EllipsoidUpper(const ShapeValues &s) {
  return EllipticBaseUpper(s(kDotDiameter, 0), s(kDotDiameter, 1), s(kDotHeight));
}
double EllipsoidVolume(const ShapeValues &s) {
  return 2 * M_PI * (s(kDotDiameter, 0) / 2) * (s(kDotDiameter, 1) / 2) * s(kDotHeight) / 3;
}
std::string EllipsoidDescribe(const ShapeValues &s) {
  const double du = s(kDotDiameter, 0), dv = s(kDotDiameter, 1), h = s(kDotHeight);
  return du == dv ? FormatText("ellipsoid %g nm wide, %g nm tall", du, h)
                  : FormatText("ellipsoid %g x %g nm ([110] x [1-10]), %g nm tall", du, dv, h);
}
} // namespace

DotShapeKind EllipsoidShape() {
  return {"ellipsoid",
          true,
          {&kDotDiameter, &kDotHeight},
          EllipsoidCheck,
          EllipsoidContains,
          EllipsoidUpper,
          EllipsoidVolume,
          EllipsoidDescribe};
}

} // namespace tbpeta
