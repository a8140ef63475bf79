#include "geometry/DotShape.hpp"

#include <algorithm>

namespace tbpeta {

std::vector<double> ShapeSizes::given(const std::string &key) const {
  const auto it = values_.find(key);
  return it == values_.end() ? std::vector<double>() : it->second;
}

double ShapeSizes::get(const std::string &key, int i) const {
  const auto it = values_.find(key);
  if (it != values_.end() && !it->second.empty()) return it->second[std::min<size_t>(i, it->second.size() - 1)];
  const ShapeParameter *p = FindShapeParameter(key);
  return p && i < p->max_count ? p->defaults[i] : std::numeric_limits<double>::quiet_NaN();
}

std::string ShapeGeometry::Make(const DotShapeKind &kind, const ShapeSizes &size, const ShapeSizeNames &names,
                                ShapeGeometry *out) {
  ShapeValues values;
  for (const ShapeParameter *p : kind.parameters) {
    std::vector<double> v = size.given(p->key);
    if (v.empty()) v.assign(p->defaults.begin(), p->defaults.begin() + p->max_count);
    const int n = (int)v.size();
    if (n < p->min_count || n > p->max_count)
      return names(*p) +
             (p->min_count == p->max_count
                  ? FormatText(": expected %d comma-separated numbers, got %d", p->min_count, n)
                  : FormatText(": expected %d to %d comma-separated numbers, got %d", p->min_count, p->max_count, n));
    std::array<double, 3> a{0, 0, 0};
    for (int i = 0; i < p->max_count; ++i) a[i] = v[std::min(i, n - 1)];
    values.add(*p, a);
  }
  if (std::string err = kind.check(values, names); !err.empty()) return err;
  out->kind_ = &kind;
  out->values_ = values;
  return "";
}

std::array<double, 3> ShapeGeometry::lower() const {
  const std::array<double, 3> up = upper();
  return {-up[0], -up[1], kind_ && kind_->sits_on_plane ? 0.0 : -up[2]};
}

} // namespace tbpeta
