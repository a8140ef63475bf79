#include "strain/StrainOutput.hpp"

namespace tbpeta {

ResultsPart StrainOutput(const TightBindingSystem &sys, const SystemStrain &strain) {
  const Structure &s = sys.structure;
  const RelaxationReport &r = strain.report;
  ResultsPart part;
  part.attributes = {{"strain", r.relaxed ? r.model : "unstrained"},
                     {"hamiltonian_strain", sys.model.strained.describe()}};
  if (!r.relaxed) return part;
  std::vector<double> u, tensor, hydrostatic, biaxial;
  for (PetscInt i = 0; i < s.owned; ++i) {
    const std::array<double, 3> ui = s.displacementOf(i);
    u.insert(u.end(), ui.begin(), ui.end());
    tensor.insert(tensor.end(), strain.tensors[i].begin(), strain.tensors[i].end());
    hydrostatic.push_back(Hydrostatic(strain.tensors[i]));
    biaxial.push_back(Biaxial(strain.tensors[i]));
  }
  AtomGroup g;
  g.name = "strain";
  g.fields = {{"displacement", 3, std::move(u)},
              {"tensor", 6, std::move(tensor)},
              {"hydrostatic", 1, std::move(hydrostatic)},
              {"biaxial", 1, std::move(biaxial)},
              {"energy", 1, strain.energy}};
  g.text = {{"model", r.model},
            {"minimiser", "SNES " + r.snes_type},
            {"converged_reason", r.reason},
            {"lateral", sys.spec.strain.lateral_periodic ? "periodic" : "free"}};
  g.values = {{"iterations", (double)r.iterations},
              {"max_force", r.max_force},
              {"converged", r.converged ? 1.0 : 0.0},
              {"energy_per_atom", r.energyPerAtom()},
              {"seconds", r.seconds}};
  part.groups.push_back(std::move(g));
  return part;
}

} // namespace tbpeta
