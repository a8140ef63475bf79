#pragma once
// A dot shape with its sizes: the sizes as a user gives them (ShapeSizes, by the parameter's structure-file key) and
// the shape they make once checked (ShapeGeometry: a registered DotShapeKind and its complete sizes), the geometry of
// one region of a nanostructure.
#include <array>
#include <map>
#include <string>
#include <vector>

#include "geometry/DotShapeKind.hpp"

namespace tbpeta {

// The sizes of a region (nm), by parameter key ("radius", "diameter", ...): those the options or a structure-file line
// gave, or a program set (dot.size.set("radius", 3)). A size not given takes its parameter's default.
class ShapeSizes {
public:
  void set(const std::string &key, std::vector<double> values) { values_[key] = std::move(values); }
  void set(const std::string &key, double value) { values_[key] = {value}; }
  bool has(const std::string &key) const { return values_.count(key) > 0; }
  // Number i of the size (a shorter list repeats its last number), or the registered parameter's default (NaN for a
  // key no shape takes).
  double get(const std::string &key, int i = 0) const;
  // The numbers given (empty: none).
  std::vector<double> given(const std::string &key) const;

private:
  std::map<std::string, std::vector<double>> values_;
};

// A shape with its sizes, checked. The geometry of one region of a nanostructure.
class ShapeGeometry {
public:
  ShapeGeometry() = default;
  // Checks the sizes `size` of `kind` (how many numbers each takes, then the shape's own check). Returns "" or the
  // one-line error, naming the sizes by `names`.
  static std::string Make(const DotShapeKind &kind, const ShapeSizes &size, const ShapeSizeNames &names,
                          ShapeGeometry *out);

  const DotShapeKind *kind() const { return kind_; }
  const ShapeValues &values() const { return values_; }
  bool contains(const std::array<double, 3> &r) const { return kind_ && kind_->contains(values_, r); }
  // The bounding box relative to the anchor (nm).
  std::array<double, 3> lower() const;
  std::array<double, 3> upper() const { return kind_ ? kind_->upper(values_) : std::array<double, 3>{0, 0, 0}; }
  double volume() const { return kind_ ? kind_->volume(values_) : 0; } // analytic (nm^3)
  // A short description of the sizes ("lens 16 x 16 nm, 3.5 nm tall").
  std::string describe() const { return kind_ ? kind_->describe(values_) : "none"; }

private:
  const DotShapeKind *kind_ = nullptr;
  ShapeValues values_;
};

} // namespace tbpeta
