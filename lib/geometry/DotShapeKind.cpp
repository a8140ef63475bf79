#include "geometry/DotShapeKind.hpp"

#include <cstdarg>
#include <cstdio>

namespace tbpeta {

std::string ShapeFormat(const char *format, ...) {
  char buf[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

std::string ShapePositive(const std::string &name, double value) {
  return value > 0 ? std::string() : name + ShapeFormat(": %g nm; must be positive", value);
}

} // namespace tbpeta
