#pragma once
// The benchmarks' structure: an InAs dome (radius a quarter of the box's edge, on 2 wetting layers, its centre at
// 0.3 of the height) in an open nemo3d GaAs box of n x n x n cells, so that strain and fields have a dot to act on at
// every size the benchmarks sweep.
#include "model/TightBindingSystem.hpp"

namespace tbpeta::bench {

inline SystemSpec DomeInABox(int n) {
  SystemSpec spec;
  spec.model.set = "nemo3d", spec.model.host = "GaAs";
  spec.cell.cells = {n, n, n};
  spec.cell.periodic = {false, false, false};
  const double edge = n * 0.56532; // nm
  RegionSpec &dot = spec.nano.dot;
  dot.material = "InAs", dot.shape = "dome", dot.wetting_layers = 2;
  dot.size.set("radius", 0.25 * edge);
  dot.center = {0.5 * edge, 0.5 * edge, 0.3 * edge}, dot.center_set = true;
  return spec;
}

} // namespace tbpeta::bench
