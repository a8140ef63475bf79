#pragma once
// The benchmarks' targets, judged so that a verdict can fail: "met" only when something was measured, every value is
// a number, and the worst is within the bound. (A maximum taken with std::max drops a NaN, and a maximum over no row is
// the 0 it started from: both printed "met" before.)
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace tbpeta::bench {

struct Verdict {
  bool met = false;
  double worst = std::nan("");
  std::string where; // the row of the worst value (or of the first that is not a number)
  // "max 2.79 (vogl1983 5^3 cells) -> NOT met", "no row measured -> NOT met", ...
  std::string text(const char *what = "max ratio") const {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", worst);
    if (where.empty() && std::isnan(worst)) return std::string("nothing measured -> NOT met");
    if (std::isnan(worst)) return std::string("not a number (") + where + ") -> NOT met";
    return std::string(what) + " " + buf + " (" + where + ") -> " + (met ? "met" : "NOT met");
  }
};

// The largest of the values (each with the row it belongs to) against `bound`.
inline Verdict AtMost(const std::vector<std::pair<double, std::string>> &values, double bound) {
  Verdict v;
  for (const auto &[x, where] : values) {
    if (std::isnan(x)) return Verdict{false, x, where};
    if (std::isnan(v.worst) || x > v.worst) v.worst = x, v.where = where;
  }
  v.met = !values.empty() && v.worst <= bound;
  return v;
}

} // namespace tbpeta::bench
