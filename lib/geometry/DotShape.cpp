#include "geometry/DotShape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tbpeta {

namespace {
const char *const kNames[] = {"none", "sphere", "dome", "box", "lens", "cone", "pyramid", "cylinder", "ellipsoid"};

std::string Format(const char *fmt, double a, double b = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, fmt, a, b);
  return buf;
}

// The in-plane coordinates along [110] and [1-10].
inline double AlongU(const std::array<double, 3> &r) { return (r[0] + r[1]) * M_SQRT1_2; }
inline double AlongV(const std::array<double, 3> &r) { return (r[0] - r[1]) * M_SQRT1_2; }
} // namespace

const char *DotShapeName(DotShape shape) { return kNames[(int)shape]; }

bool DotShapeFromName(const std::string &name, DotShape *shape) {
  for (int i = 0; i < (int)(sizeof kNames / sizeof *kNames); ++i)
    if (name == kNames[i]) return *shape = (DotShape)i, true;
  return false;
}

const char *DotShapeNames() { return "sphere, dome, box, lens, cone, pyramid, cylinder, ellipsoid"; }

bool SitsOnPlane(DotShape shape) { return shape != DotShape::sphere && shape != DotShape::box; }

std::string ShapeGeometry::Make(DotShape shape, const ShapeSize &s, const ShapeSizeNames &n, ShapeGeometry *out) {
  const auto positive = [](const std::string &name, double v) {
    return v > 0 ? std::string() : name + Format(": %g nm; must be positive", v);
  };
  std::string err;
  switch (shape) {
  case DotShape::none: break;
  case DotShape::sphere:
  case DotShape::dome: err = positive(n.radius, s.radius); break;
  case DotShape::box:
    for (int a = 0; a < 3 && err.empty(); ++a) err = positive(n.size + " along " + "xyz"[a], s.size[a]);
    break;
  case DotShape::pyramid:
    err = positive(n.base, s.base);
    if (err.empty()) err = positive(n.height, s.height);
    if (err.empty() && s.height > s.base / 2 + kShapeTolerance)
      err = n.height + Format(": %g nm is above half the base (%g nm): the {101} facets meet at b/2", s.height, s.base);
    break;
  default: // lens, cone, cylinder, ellipsoid
    err = positive(n.diameter, std::min(s.diameter[0], s.diameter[1]));
    if (err.empty()) err = positive(n.height, s.height);
    if (err.empty() && shape == DotShape::lens &&
        s.height > std::min(s.diameter[0], s.diameter[1]) / 2 + kShapeTolerance)
      err = n.height + Format(": %g nm is above half the lens's (smaller) base diameter %g nm: a lens is a spherical "
                              "cap no taller than a half sphere (a dome)",
                              s.height, std::min(s.diameter[0], s.diameter[1]));
    if (err.empty() && (shape == DotShape::cone || shape == DotShape::cylinder) && s.diameter[0] != s.diameter[1])
      err = n.diameter + ": a " + DotShapeName(shape) + " takes one diameter (only the lens and the ellipsoid two)";
    if (err.empty() && shape == DotShape::cone && (s.top_diameter < 0 || s.top_diameter >= s.diameter[0]))
      err = n.top_diameter +
            Format(": %g nm; must be 0 (a full cone) or below the base diameter %g nm", s.top_diameter, s.diameter[0]);
  }
  if (!err.empty()) return err;
  out->shape_ = shape;
  out->size_ = s;
  const double r = std::min(s.diameter[0], s.diameter[1]) / 2;
  out->lens_radius_ = shape == DotShape::lens ? (r * r + s.height * s.height) / (2 * s.height) : 0;
  return "";
}

bool ShapeGeometry::contains(const std::array<double, 3> &r) const {
  const ShapeSize &s = size_;
  const double z = r[2], rho2 = r[0] * r[0] + r[1] * r[1];
  const bool in_height = z >= -kShapeTolerance && z <= s.height + kShapeTolerance;
  switch (shape_) {
  case DotShape::none: return false;
  case DotShape::sphere: return rho2 + z * z <= s.radius * s.radius + kShapeTolerance;
  case DotShape::dome: return z >= -kShapeTolerance && rho2 + z * z <= s.radius * s.radius + kShapeTolerance;
  case DotShape::box:
    return std::fabs(r[0]) <= s.size[0] / 2 + kShapeTolerance && std::fabs(r[1]) <= s.size[1] / 2 + kShapeTolerance &&
           std::fabs(z) <= s.size[2] / 2 + kShapeTolerance;
  case DotShape::lens: { // the cap of the sphere of radius R on the smaller diameter, stretched along the other
    const double dmin = std::min(s.diameter[0], s.diameter[1]);
    const double u = AlongU(r) * dmin / s.diameter[0], v = AlongV(r) * dmin / s.diameter[1];
    const double dz = z - (s.height - lens_radius_);
    return in_height && u * u + v * v + dz * dz <= lens_radius_ * lens_radius_ + kShapeTolerance;
  }
  case DotShape::cone: {
    const double rb = s.diameter[0] / 2, rz = rb + (s.top_diameter / 2 - rb) * z / s.height;
    return in_height && rho2 <= rz * rz + kShapeTolerance;
  }
  case DotShape::pyramid: {
    const double half = s.base / 2 - z + kShapeTolerance;
    return in_height && std::fabs(r[0]) <= half && std::fabs(r[1]) <= half;
  }
  case DotShape::cylinder: return in_height && rho2 <= s.diameter[0] * s.diameter[0] / 4 + kShapeTolerance;
  case DotShape::ellipsoid: {
    const double u = AlongU(r) / (s.diameter[0] / 2), v = AlongV(r) / (s.diameter[1] / 2), w = z / s.height;
    return z >= -kShapeTolerance && u * u + v * v + w * w <= 1 + kShapeTolerance;
  }
  }
  return false;
}

std::array<double, 3> ShapeGeometry::upper() const {
  const ShapeSize &s = size_;
  switch (shape_) {
  case DotShape::none: return {0, 0, 0};
  case DotShape::sphere: return {s.radius, s.radius, s.radius};
  case DotShape::dome: return {s.radius, s.radius, s.radius};
  case DotShape::box: return {s.size[0] / 2, s.size[1] / 2, s.size[2] / 2};
  case DotShape::pyramid: return {s.base / 2, s.base / 2, s.height};
  default: { // a circle or an ellipse in the plane: its half-extent along x (and y) is sqrt(a^2 + b^2)/sqrt(2)
    const double a = s.diameter[0] / 2, b = s.diameter[1] / 2, half = std::sqrt((a * a + b * b) / 2);
    return {half, half, s.height};
  }
  }
}

std::array<double, 3> ShapeGeometry::lower() const {
  const std::array<double, 3> up = upper();
  return {-up[0], -up[1], SitsOnPlane(shape_) ? 0.0 : -up[2]};
}

double ShapeGeometry::volume() const {
  const ShapeSize &s = size_;
  const double h = s.height, r = std::min(s.diameter[0], s.diameter[1]) / 2;
  switch (shape_) {
  case DotShape::none: return 0;
  case DotShape::sphere: return 4 * M_PI * std::pow(s.radius, 3) / 3;
  case DotShape::dome: return 2 * M_PI * std::pow(s.radius, 3) / 3;
  case DotShape::box: return s.size[0] * s.size[1] * s.size[2];
  case DotShape::lens: // pi h (3 r^2 + h^2) / 6, stretched by the ratio of the diameters
    return M_PI * h * (3 * r * r + h * h) / 6 * std::max(s.diameter[0], s.diameter[1]) / (2 * r);
  case DotShape::cone: {
    const double rb = s.diameter[0] / 2, rt = s.top_diameter / 2;
    return M_PI * h * (rb * rb + rb * rt + rt * rt) / 3;
  }
  case DotShape::pyramid: { // a frustum of base b and top t = b - 2h
    const double b = s.base, t = s.base - 2 * h;
    return h * (b * b + b * t + t * t) / 3;
  }
  case DotShape::cylinder: return M_PI * r * r * h;
  case DotShape::ellipsoid: return 2 * M_PI * (s.diameter[0] / 2) * (s.diameter[1] / 2) * h / 3;
  }
  return 0;
}

std::string ShapeGeometry::describe() const {
  const ShapeSize &s = size_;
  char buf[200];
  switch (shape_) {
  case DotShape::sphere: std::snprintf(buf, sizeof buf, "sphere of radius %g nm", s.radius); break;
  case DotShape::dome: std::snprintf(buf, sizeof buf, "dome of radius %g nm", s.radius); break;
  case DotShape::box: std::snprintf(buf, sizeof buf, "box %g x %g x %g nm", s.size[0], s.size[1], s.size[2]); break;
  case DotShape::pyramid:
    std::snprintf(buf, sizeof buf, "pyramid, base %g nm, %g nm tall%s", s.base, s.height,
                  s.height < s.base / 2 - kShapeTolerance ? " (truncated)" : "");
    break;
  case DotShape::cone:
    std::snprintf(buf, sizeof buf, "cone, base %g nm, top %g nm, %g nm tall", s.diameter[0], s.top_diameter, s.height);
    break;
  case DotShape::cylinder:
    std::snprintf(buf, sizeof buf, "cylinder %g nm wide, %g nm tall", s.diameter[0], s.height);
    break;
  default:
    if (s.diameter[0] == s.diameter[1])
      std::snprintf(buf, sizeof buf, "%s %g nm wide, %g nm tall", DotShapeName(shape_), s.diameter[0], s.height);
    else
      std::snprintf(buf, sizeof buf, "%s %g x %g nm ([110] x [1-10]), %g nm tall", DotShapeName(shape_), s.diameter[0],
                    s.diameter[1], s.height);
  }
  return shape_ == DotShape::none ? "none" : buf;
}

} // namespace tbpeta
