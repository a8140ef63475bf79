#pragma once
// What the relaxation hands to a run's results file: the root attributes strain (its model, or "unstrained") and
// hamiltonian_strain (how H takes the strain), and with -strain keating the group strain/: per atom the displacement
// (N,3) nm, the local strain tensor (N,6) in Voigt form, its hydrostatic and biaxial parts and the Keating energy
// (eV); as attributes the model, minimiser, iterations, largest force, convergence, energy per atom and time.
#include "model/TightBindingSystem.hpp"
#include "strain/SystemRelaxation.hpp"
#include "support/ResultsPart.hpp"

namespace tbpeta {

// Not collective: this rank's owned atoms of sys.structure.
ResultsPart StrainOutput(const TightBindingSystem &sys, const SystemStrain &strain);

} // namespace tbpeta
