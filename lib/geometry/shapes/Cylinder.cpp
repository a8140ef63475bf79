// A cylinder of diameter D and height h on its base.
#include <algorithm>

#include "geometry/DotShapeKind.hpp"

namespace tbpeta {

namespace {
std::string CylinderCheck(const ShapeValues &s, const ShapeSizeNames &names) {
  const double du = s(kDotDiameter, 0), dv = s(kDotDiameter, 1);
  std::string err = ShapePositive(names(kDotDiameter), std::min(du, dv));
  if (err.empty()) err = ShapePositive(names(kDotHeight), s(kDotHeight));
  if (err.empty() && du != dv)
    err = names(kDotDiameter) + ": a cylinder takes one diameter (only the lens and the ellipsoid two)";
  return err;
}
bool CylinderContains(const ShapeValues &s, const std::array<double, 3> &r) {
  const double d = s(kDotDiameter), h = s(kDotHeight), z = r[2], rho2 = r[0] * r[0] + r[1] * r[1];
  return z >= -kShapeTolerance && z <= h + kShapeTolerance && rho2 <= d * d / 4 + kShapeTolerance;
}
std::array<double, 3> CylinderUpper(const ShapeValues &s) {
  return EllipticBaseUpper(s(kDotDiameter, 0), s(kDotDiameter, 1), s(kDotHeight));
}
double CylinderVolume(const ShapeValues &s) {
  const double r = std::min(s(kDotDiameter, 0), s(kDotDiameter, 1)) / 2;
  return M_PI * r * r * s(kDotHeight);
}
std::string CylinderDescribe(const ShapeValues &s) {
  return FormatText("cylinder %g nm wide, %g nm tall", s(kDotDiameter), s(kDotHeight));
}
} // namespace

DotShapeKind CylinderShape() {
  return {"cylinder",
          true,
          {&kDotDiameter, &kDotHeight},
          CylinderCheck,
          CylinderContains,
          CylinderUpper,
          CylinderVolume,
          CylinderDescribe};
}

} // namespace tbpeta
