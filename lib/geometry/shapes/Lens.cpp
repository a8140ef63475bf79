// A lens: the spherical cap of base diameter D and height h <= D/2 on its base (A. J. Williamson, L.-W. Wang and
// A. Zunger, Phys. Rev. B 62, 12963 (2000)); with two diameters, the cap on the smaller one stretched along the other.
#include <algorithm>

#include "geometry/DotShapeKind.hpp"

namespace tbpeta {

namespace {
// The radius of the sphere the cap is cut from, for the smaller diameter.
double LensSphereRadius(const ShapeValues &s) {
  const double r = std::min(s(kDotDiameter, 0), s(kDotDiameter, 1)) / 2, h = s(kDotHeight);
  return (r * r + h * h) / (2 * h);
}
std::string LensCheck(const ShapeValues &s, const ShapeSizeNames &names) {
  const double dmin = std::min(s(kDotDiameter, 0), s(kDotDiameter, 1)), h = s(kDotHeight);
  std::string err = ShapePositive(names(kDotDiameter), dmin);
  if (err.empty()) err = ShapePositive(names(kDotHeight), h);
  if (err.empty() && h > dmin / 2 + kShapeTolerance)
    err = names(kDotHeight) + FormatText(": %g nm is above half the lens's (smaller) base diameter %g nm: a lens is a "
                                         "spherical cap no taller than a half sphere (a dome)",
                                         h, dmin);
  return err;
}
bool LensContains(const ShapeValues &s, const std::array<double, 3> &r) {
  const double du = s(kDotDiameter, 0), dv = s(kDotDiameter, 1), h = s(kDotHeight), R = LensSphereRadius(s);
  const double dmin = std::min(du, dv), z = r[2];
  const double u = AlongU(r) * dmin / du, v = AlongV(r) * dmin / dv, dz = z - (h - R);
  return z >= -kShapeTolerance && z <= h + kShapeTolerance && u * u + v * v + dz * dz <= R * R + kShapeTolerance;
}
std::array<double, 3> LensUpper(const ShapeValues &s) {
  return EllipticBaseUpper(s(kDotDiameter, 0), s(kDotDiameter, 1), s(kDotHeight));
}
double LensVolume(const ShapeValues &s) { // pi h (3 r^2 + h^2) / 6, stretched by the ratio of the diameters
  const double du = s(kDotDiameter, 0), dv = s(kDotDiameter, 1), h = s(kDotHeight), r = std::min(du, dv) / 2;
  return M_PI * h * (3 * r * r + h * h) / 6 * std::max(du, dv) / (2 * r);
}
std::string LensDescribe(const ShapeValues &s) {
  const double du = s(kDotDiameter, 0), dv = s(kDotDiameter, 1), h = s(kDotHeight);
  return du == dv ? FormatText("lens %g nm wide, %g nm tall", du, h)
                  : FormatText("lens %g x %g nm ([110] x [1-10]), %g nm tall", du, dv, h);
}
} // namespace

DotShapeKind LensShape() {
  return {"lens", true, {&kDotDiameter, &kDotHeight}, LensCheck, LensContains, LensUpper, LensVolume, LensDescribe};
}

} // namespace tbpeta
