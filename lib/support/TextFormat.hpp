#pragma once
// printf into a std::string: the one-line messages and descriptions built before they are raised or printed.
#include <string>

namespace tbpeta {

// The text printf would print (at most 1023 characters).
std::string FormatText(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace tbpeta
