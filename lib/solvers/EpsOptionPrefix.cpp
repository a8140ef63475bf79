#include "solvers/EpsOptionPrefix.hpp"

namespace tbpeta {

std::string OptionPrefix(EPS eps) {
  const char *prefix = nullptr;
  (void)EPSGetOptionsPrefix(eps, &prefix);
  return std::string("-") + (prefix ? prefix : "");
}

} // namespace tbpeta
