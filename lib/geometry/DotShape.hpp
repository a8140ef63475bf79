#pragma once
// The shapes of an embedded dot and the one inclusion rule they share. A shape is a closed solid in nm, placed by
// an anchor: the centre of its base on a (001) plane for the shapes that sit on one (dome, lens, cone, pyramid,
// cylinder, ellipsoid), the centre of the solid for a sphere and a box. A point belongs to the shape when it lies
// inside the closed solid, within 1e-9 nm (so a site exactly on a face counts whatever the rounding).
//
// [110] and [1-10] are the in-plane axes u = (x + y)/sqrt(2) and v = (x - y)/sqrt(2): real dots are elongated
// along [1-10], so the lens and the ellipsoid take a base diameter along each.
#include <array>
#include <string>

namespace tbpeta {

// How far outside a shape's faces a site still belongs to it (nm; nm^2 where squared lengths are compared).
inline constexpr double kShapeTolerance = 1e-9;

enum class DotShape { none, sphere, dome, box, lens, cone, pyramid, cylinder, ellipsoid };

// The shape's name as the options and structure files spell it ("none" ... "ellipsoid"), and back (false: unknown).
const char *DotShapeName(DotShape shape);
bool DotShapeFromName(const std::string &name, DotShape *shape);
// The names of every shape but none, comma-separated (for errors and -help).
const char *DotShapeNames();
// Whether the shape sits on a (001) plane (its anchor is the centre of its base, a wetting layer may lie under it).
bool SitsOnPlane(DotShape shape);

// The sizes of a shape (nm); each shape reads its own.
struct ShapeSize {
  double radius = 2;                      // sphere, dome
  std::array<double, 3> size{4, 4, 4};    // box: extents along x, y, z
  std::array<double, 2> diameter{10, 10}; // base diameter along [110] and [1-10]: lens, ellipsoid (both may
                                          // differ); cone, cylinder (equal)
  double height = 3;                      // lens, cone, pyramid, cylinder, ellipsoid
  double top_diameter = 0;                // cone: 0 a full cone, otherwise truncated at this diameter
  double base = 10;                       // pyramid: edge of the square base, along [100] and [010]
};

// How the sizes are named to the user, for the errors: option names (-dot_height) or a structure file's keys.
struct ShapeSizeNames {
  std::string radius, size, diameter, height, top_diameter, base;
};

// A shape with its sizes, checked. The geometry of one region of a nanostructure.
class ShapeGeometry {
public:
  ShapeGeometry() = default;
  // Checks the sizes of `shape`: every size positive, a lens no taller than half its smaller diameter, a pyramid no
  // taller than half its base, a cone's top narrower than its base. Returns "" or the one-line error, naming the
  // sizes by `names`.
  static std::string Make(DotShape shape, const ShapeSize &size, const ShapeSizeNames &names, ShapeGeometry *out);

  DotShape shape() const { return shape_; }
  const ShapeSize &size() const { return size_; }
  // Whether the point r (nm, relative to the anchor) lies inside the closed shape.
  bool contains(const std::array<double, 3> &r) const;
  // The bounding box relative to the anchor (nm).
  std::array<double, 3> lower() const;
  std::array<double, 3> upper() const;
  // The analytic volume (nm^3).
  double volume() const;
  // A short description of the sizes ("lens 16 x 16 nm, 3.5 nm tall").
  std::string describe() const;

private:
  DotShape shape_ = DotShape::none;
  ShapeSize size_;
  double lens_radius_ = 0; // lens: radius of the sphere the cap is cut from, for the smaller diameter
};

} // namespace tbpeta
