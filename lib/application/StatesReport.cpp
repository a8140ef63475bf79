#include "application/StatesReport.hpp"

#include <cstdio>
#include <string>

namespace tbpeta {

namespace {

// One line when a dot's requested electrons or holes lie outside the host's gap: states of the box, not the dot's.
PetscErrorCode WarnUnbound(MPI_Comm comm, const StateBinding &b, const HostGap &gap) {
  PetscFunctionBeginUser;
  if (b.bound_electrons == b.electrons && b.bound_holes == b.holes) PetscFunctionReturn(0);
  PetscCall(PetscPrintf(comm,
                        "tbpeta: warning: not bound to the dot: %d of %d electron states at or above the host's "
                        "conduction-band minimum %.4f eV (%s), %d of %d hole states at or below its valence-band "
                        "maximum %.4f eV (states/bound = 0)\n",
                        b.electrons - b.bound_electrons, b.electrons, gap.cbm, gap.cbm_where.c_str(),
                        b.holes - b.bound_holes, b.holes, gap.vbm));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode ReportStates(MPI_Comm comm, const TightBindingSystem &sys, EPS eps, const EigenStates &states,
                            const HostGap &gap, StateBinding *binding) {
  PetscFunctionBeginUser;
  const bool dot = !sys.nano.regions().empty();
  *binding = StateBinding{};
  if (dot) PetscCall(BindStates(comm, sys, eps, states, gap, binding));
  const bool fraction = !binding->dot_fraction.empty();
  PetscCall(PetscPrintf(comm, "  %5s  %14s  %12s%s%s\n", "state", "E (eV)", "||Hx-Ex||", fraction ? "  in dot" : "",
                        dot ? "  bound" : ""));
  for (size_t i = 0; i < states.values.size(); ++i) {
    char in_dot[16] = "";
    if (fraction) std::snprintf(in_dot, sizeof in_dot, "  %6.3f", binding->dot_fraction[i]);
    PetscCall(PetscPrintf(comm, "  %5zu  %14.8f  %12.3e%s%s\n", i, states.values[i], states.residuals[i], in_dot,
                          dot ? (binding->bound[i] ? "    yes" : "     no") : ""));
  }
  if (dot) PetscCall(WarnUnbound(comm, *binding, gap));
  if (dot && !sys.nano.spec().host_alloy_material.empty())
    PetscCall(PetscPrintf(comm,
                          "tbpeta: warning: bound: the host's gap is that of pure %s; the -host_alloy %s,%g alloy's "
                          "edges are not computed\n",
                          sys.model.materials[0].material.c_str(), sys.nano.spec().host_alloy_material.c_str(),
                          sys.nano.spec().host_alloy_x));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
