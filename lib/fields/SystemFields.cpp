#include "fields/SystemFields.hpp"

#include <algorithm>

#include "fields/PolarizationPoisson.hpp"
#include "support/CrashReport.hpp"
#include "support/LargeArrays.hpp"
#include "support/LogEvents.hpp"

namespace tbpeta {

PetscErrorCode ComputeSystemFields(MPI_Comm comm, TightBindingSystem *sys, SystemStrain *strain, SystemFields *fields) {
  Structure &s = sys->structure;
  const LogEvents *ev;
  PetscFunctionBeginUser;
  *fields = SystemFields{};
  PetscCall(OnsiteTermsFromOptions(comm, sys->spec.fields, &fields->terms));
  if (!fields->on()) PetscFunctionReturn(0);
  CrashPhase phase("the potentials on the atoms");
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->fields, 0, 0, 0, 0));
  const double start = MPI_Wtime();
  fields->potential.assign((size_t)s.owned, 0.0);
  std::vector<double> energy((size_t)s.owned);
  for (const auto &term : fields->terms) {
    if (!term->on()) continue;
    std::fill(energy.begin(), energy.end(), 0.0);
    PetscCall(term->Compute(comm, *sys, *strain, energy));
    for (PetscInt i = 0; i < s.owned; ++i) fields->potential[i] += -energy[i]; // phi = -energy / e
  }
  strain->ReleaseDomain();
  TrimFreedHeap(); // the Poisson solve's grid, operator and multigrid, not left resident under H and the vectors
  s.potential.resize((size_t)s.owned);
  for (PetscInt i = 0; i < s.owned; ++i) s.potential[i] = -fields->potential[i]; // an electron's energy -e phi, in eV
  fields->seconds = MPI_Wtime() - start;
  PetscCall(PetscLogEventEnd(ev->fields, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode PotentialRange(MPI_Comm comm, const SystemFields &fields, double *min, double *max) {
  double lo = PETSC_MAX_REAL, hi = -PETSC_MAX_REAL;
  PetscFunctionBeginUser;
  for (double v : fields.potential) lo = std::min(lo, v), hi = std::max(hi, v);
  PetscCall(MPIU_Allreduce(&lo, min, 1, MPI_DOUBLE, MPI_MIN, comm));
  PetscCall(MPIU_Allreduce(&hi, max, 1, MPI_DOUBLE, MPI_MAX, comm));
  PetscFunctionReturn(0);
}

PetscErrorCode EstimateSystemFields(MPI_Comm comm, const TightBindingSystem &sys, FieldsEstimate *estimate) {
  std::vector<std::unique_ptr<OnsiteTerm>> terms;
  PetscFunctionBeginUser;
  *estimate = FieldsEstimate{};
  PetscCall(OnsiteTermsFromOptions(comm, sys.spec.fields, &terms));
  for (const auto &term : terms) {
    double bytes = 0;
    if (!term->on()) continue;
    PetscCall(term->EstimateBytes(comm, sys, &bytes));
    estimate->on = true;
    if (bytes <= estimate->compute_bytes) continue;
    estimate->compute_bytes = bytes;
    estimate->compute = term->ComputeDescription();
  }
  PetscFunctionReturn(0);
}

ResultsPart FieldsOutput(const SystemFields &fields) {
  ResultsPart part;
  AtomGroup g{"fields", {{"potential", 1, fields.potential}}, {}, {}};
  for (const auto &term : fields.terms) term->Output(&g, &part);
  g.values.push_back({"seconds", fields.seconds});
  if (fields.on()) part.groups.insert(part.groups.begin(), std::move(g));
  return part;
}

PetscErrorCode ListFieldOptions(MPI_Comm comm) {
  std::vector<std::unique_ptr<OnsiteTerm>> terms;
  PetscFunctionBeginUser;
  PetscCall(ListPoissonOptions(comm));
  PetscCall(OnsiteTermsFromOptions(comm, FieldSpec{}, &terms));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
