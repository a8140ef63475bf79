#include "support/TextFormat.hpp"

#include <cstdarg>
#include <cstdio>

namespace tbpeta {

std::string FormatText(const char *format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  return text;
}

} // namespace tbpeta
