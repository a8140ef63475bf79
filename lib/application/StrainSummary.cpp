#include "application/StrainSummary.hpp"

namespace tbpeta {

PetscErrorCode PrintStrainSummary(MPI_Comm comm, const TightBindingSystem &sys, const RelaxationReport &r,
                                  const std::vector<Voigt> &tensors) {
  StrainRange dot;
  PetscFunctionBeginUser;
  if (!r.relaxed) PetscFunctionReturn(0);
  PetscCall(HydrostaticInDot(comm, sys.structure, sys.nano, tensors, &dot));
  PetscCall(PetscPrintf(comm,
                        "  strain         %s%s, SNES %s: %" PetscInt_FMT " iterations (%" PetscInt_FMT
                        " energy evaluations), %.6g eV/atom over %" PetscInt_FMT
                        " atoms, largest force %.2e eV/nm, %s, %.2f s",
                        r.model.c_str(), sys.spec.strain.lateral_periodic ? " (strain domain periodic along x, y)" : "",
                        r.snes_type.c_str(), r.iterations, r.evaluations, r.energyPerAtom(), r.atoms, r.max_force,
                        r.converged ? "converged" : "NOT converged", r.seconds));
  if (dot.atoms)
    PetscCall(
        PetscPrintf(comm, "; hydrostatic strain in the dot min/mean/max %.4f/%.4f/%.4f", dot.min, dot.mean, dot.max));
  PetscCall(PetscPrintf(comm, "\n"));
  if (!r.converged)
    PetscCall(PetscPrintf(comm,
                          "tbpeta: warning: the relaxation stopped before its tolerance (%s, largest force %.2e "
                          "eV/nm); going on as -strain_allow_unconverged asks\n",
                          r.reason.c_str(), r.max_force));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
