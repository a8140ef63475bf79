#include "geometry/DotShapeKind.hpp"

namespace tbpeta {

std::string ShapePositive(const std::string &name, double value) {
  return value > 0 ? std::string() : name + FormatText(": %g nm; must be positive", value);
}

} // namespace tbpeta
