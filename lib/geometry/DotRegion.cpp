#include "geometry/DotRegion.hpp"

#include <algorithm>
#include <limits>

namespace tbpeta {

bool DotRegion::contains(PlaneIndex p) const {
  const std::array<double, 3> r = relative(p);
  if (wetting_layers > 0 && r[2] < 0 && r[2] >= -wetting_layers * a_nm / 2 - kShapeTolerance) return true;
  return shape.contains(r);
}

double DotRegion::fraction(PlaneIndex p) const {
  if (pure()) return 1;
  const double z = relative(p)[2], lo = shape.lower()[2], hi = shape.upper()[2];
  const double t = std::clamp((z - lo) / (hi - lo), 0.0, 1.0);
  return composition[0] + (composition[1] - composition[0]) * t;
}

std::array<double, 3> DotRegion::lower() const {
  std::array<double, 3> lo = shape.lower();
  for (int a = 0; a < 3; ++a) lo[a] += anchor[a];
  if (wetting_layers > 0) {
    lo[0] = lo[1] = -std::numeric_limits<double>::infinity();
    lo[2] = std::min(lo[2], anchor[2] - wetting_layers * a_nm / 2);
  }
  return lo;
}

std::array<double, 3> DotRegion::upper() const {
  std::array<double, 3> hi = shape.upper();
  for (int a = 0; a < 3; ++a) hi[a] += anchor[a];
  if (wetting_layers > 0) hi[0] = hi[1] = std::numeric_limits<double>::infinity();
  return hi;
}

} // namespace tbpeta
