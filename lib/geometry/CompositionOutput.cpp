#include "geometry/CompositionOutput.hpp"

namespace tbpeta {

ResultsPart CompositionOutput(const Structure &s, const Nanostructure &nano) {
  ResultsPart part;
  if (nano.regions().empty()) return part;
  std::vector<double> x, region;
  for (PetscInt i = 0; i < s.owned; ++i) {
    double xi = 0;
    if (s.sublattice(i) == Sublattice::cation) xi = nano.composition(s.sites[i]);
    else {
      int n = 0;
      for (int b = 0; b < 4; ++b)
        if (s.bonds[i][b] >= 0) xi += nano.composition(s.sites[s.bonds[i][b]]), ++n;
      xi = n ? xi / n : 0;
    }
    x.push_back(xi);
    region.push_back(nano.regionOf(s.sites[i]));
  }
  AtomGroup g;
  g.name = "composition";
  g.fields = {{"x", 1, std::move(x)}, {"region", 1, std::move(region)}};
  g.values = {{"regions", (double)nano.regions().size()},
              {"interdiffusion_length", nano.spec().interdiffusion},
              {"alloy_seed", (double)nano.spec().seed}};
  part.groups.push_back(std::move(g));
  return part;
}

} // namespace tbpeta
