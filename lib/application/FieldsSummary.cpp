#include "application/FieldsSummary.hpp"

namespace tbpeta {

PetscErrorCode PrintFieldsSummary(MPI_Comm comm, const TightBindingSystem &sys, const SystemFields &f) {
  const FieldSpec &spec = sys.spec.fields;
  double lo, hi;
  PetscFunctionBeginUser;
  if (!f.on()) PetscFunctionReturn(0);
  PetscCall(PotentialRange(comm, f, &lo, &hi));
  PetscCall(PetscPrintf(comm, "  fields         "));
  if (f.piezo)
    PetscCall(PetscPrintf(comm,
                          "piezo %s (e14 %s): Poisson on %lld nodes of %.4f nm, %s + %s %" PetscInt_FMT
                          " iterations (%s), %.2f s; ",
                          PiezoOrderName(spec.piezo), E14ChoiceName(spec.e14), f.poisson.nodes, f.poisson.spacing_nm,
                          f.poisson.ksp_type.c_str(), f.poisson.pc_type.c_str(), f.poisson.iterations,
                          f.poisson.reason.c_str(), f.poisson.seconds));
  if (f.field)
    PetscCall(PetscPrintf(comm, "applied field %s, zero at %.4f,%.4f,%.4f nm; ", AppliedFieldText(spec.efield).c_str(),
                          f.origin[0], f.origin[1], f.origin[2]));
  PetscCall(PetscPrintf(comm, "potential on the atoms min/max %.5f/%.5f V, %.2f s\n", lo, hi, f.seconds));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
