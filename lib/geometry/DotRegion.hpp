#pragma once
// One region of a nanostructure, resolved: a shape placed in the supercell, the wetting layer under it, the
// material that fills it and how (a composition graded from base to apex, a random alloy with a second material).
// Regions are given in order and a later one wins where they overlap.
#include <array>
#include <string>

#include "geometry/DotShape.hpp"
#include "geometry/ZincblendeLattice.hpp"

namespace tbpeta {

// How a user describes a region: the -dot_* options or one line of a structure file.
struct RegionSpec {
  std::string material;                  // empty: no region
  std::string shape = "sphere";          // a registered DotShapeKind's name
  ShapeSizes size;                       // the sizes given (a size not given takes its parameter's default)
  std::array<double, 3> center{0, 0, 0}; // nm; the centre of the base for a shape that sits on a plane
  bool center_set = false;               // false: the supercell's centre
  int wetting_layers = 0;                // monolayers of a/2 under a shape that sits on a plane
  std::string alloy_material;            // a random alloy inside: this material with probability alloy_x
  double alloy_x = 0;
  std::array<double, 2> composition{1, 1}; // fraction of `material` at the base and at the apex (linear in height)
  std::string where;                       // how the errors name it: "-dot_*" options or "FILE:line"
};

struct DotRegion {
  ShapeGeometry shape;
  std::array<double, 3> anchor{0, 0, 0}; // nm
  int wetting_layers = 0;
  double a_nm = 0; // the lattice constant of the sites (nm)
  int material = -1;
  int alloy_material = -1;
  double alloy_x = 0;
  std::array<double, 2> composition{1, 1};
  std::string where;

  // The site's ideal position relative to the anchor (nm).
  std::array<double, 3> relative(PlaneIndex p) const {
    const double q = a_nm / 4;
    return {p.x * q - anchor[0], p.y * q - anchor[1], p.z * q - anchor[2]};
  }
  // Whether the ideal site p lies in the shape or in its wetting layer (a/2 per monolayer under the base).
  bool contains(PlaneIndex p) const;
  // The fraction of `material` at p: linear in height from the bottom of the shape (and the wetting layer) to its top.
  double fraction(PlaneIndex p) const;
  // Whether the composition is 1 everywhere (a pure region: no draw).
  bool pure() const { return composition[0] >= 1 && composition[1] >= 1; }
  // The region's extent with its wetting layer (nm; the wetting layer spans the plane, so x and y are unbounded).
  std::array<double, 3> lower() const;
  std::array<double, 3> upper() const;
};

} // namespace tbpeta
