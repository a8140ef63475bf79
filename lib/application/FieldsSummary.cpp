#include "application/FieldsSummary.hpp"

namespace tbpeta {

PetscErrorCode PrintFieldsSummary(MPI_Comm comm, const TightBindingSystem &, const SystemFields &f) {
  double lo, hi;
  PetscFunctionBeginUser;
  if (!f.on()) PetscFunctionReturn(0);
  PetscCall(PotentialRange(comm, f, &lo, &hi));
  PetscCall(PetscPrintf(comm, "  fields         "));
  for (const auto &term : f.terms)
    if (term->on()) PetscCall(term->PrintSummary(comm));
  PetscCall(PetscPrintf(comm, "potential on the atoms min/max %.5f/%.5f V, %.2f s\n", lo, hi, f.seconds));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
