#include "fields/SystemFields.hpp"

#include <algorithm>

#include "fields/Polarization.hpp"
#include "support/CrashReport.hpp"
#include "support/LargeArrays.hpp"
#include "support/LogEvents.hpp"

namespace tbpeta {

namespace {

MaterialFields RunMaterialFields(const TightBindingSystem &sys) {
  MaterialFields m;
  for (const FieldParameters &p : sys.field_parameters) {
    m.coefficients.push_back(p.coefficients(sys.spec.fields.piezo, sys.spec.fields.e14));
    m.eps.push_back(p.eps_static);
  }
  return m;
}

// Each owned atom of s as a source (planes shifted by -origin into the electronic frame), its polarisation from its
// tensor.
std::vector<PolarizationSource> Sources(const Structure &s, const std::vector<Voigt> &tensors, const MaterialFields &m,
                                        const std::array<int, 3> &origin) {
  std::vector<PolarizationSource> sources((size_t)s.owned);
  for (PetscInt i = 0; i < s.owned; ++i) {
    PiezoCoefficients c;
    PolarizationSource &src = sources[i];
    AtomFields(s, m, i, &c, &src.eps);
    src.P = Polarization(tensors[i], c);
    src.plane = {s.sites[i].x - origin[0], s.sites[i].y - origin[1], s.sites[i].z - origin[2]};
  }
  return sources;
}

// The piezoelectric potential at the electronic box's owned atoms, and their polarisation.
PetscErrorCode PiezoPotential(MPI_Comm comm, const TightBindingSystem &sys, const SystemStrain &strain,
                              SystemFields *f) {
  const Structure &s = sys.structure;
  const MaterialFields m = RunMaterialFields(sys);
  std::vector<std::array<double, 3>> targets((size_t)s.owned);
  std::vector<double> phi;
  PetscFunctionBeginUser;
  PoissonProblem problem;
  problem.grid = SystemPoissonGrid(sys);
  problem.host_eps = m.eps[0];
  const std::vector<PolarizationSource> sources = strain.padded
                                                      ? Sources(strain.domain, strain.domain_tensors, m, strain.origin)
                                                      : Sources(s, strain.tensors, m, {0, 0, 0});
  for (PetscInt i = 0; i < s.owned; ++i)
    targets[i] = {(double)s.sites[i].x, (double)s.sites[i].y, (double)s.sites[i].z};
  PetscCall(SolvePolarizationPotential(comm, problem, sources, targets, &phi, &f->poisson));
  f->polarization.resize((size_t)s.owned);
  for (PetscInt i = 0; i < s.owned; ++i) {
    PiezoCoefficients c;
    double eps;
    AtomFields(s, m, i, &c, &eps);
    f->polarization[i] = Polarization(strain.tensors[i], c);
    f->potential[i] += phi[i];
  }
  PetscFunctionReturn(0);
}

// phi = -F.(r - r0) at each owned atom's position, F in kV/cm (1e-4 V/nm).
void AppliedPotential(const TightBindingSystem &sys, SystemFields *f) {
  const Structure &s = sys.structure;
  const FieldSpec &spec = sys.spec.fields;
  for (int a = 0; a < 3; ++a)
    f->origin[a] = spec.origin_given ? spec.efield_origin[a] : 0.125 * sys.a_nm * (sys.lattice.planes()[a] - 1);
  for (PetscInt i = 0; i < s.owned; ++i) {
    const std::array<double, 3> r = s.position(i, sys.a_nm);
    double phi = 0;
    for (int a = 0; a < 3; ++a) phi -= 1e-4 * spec.efield[a] * (r[a] - f->origin[a]);
    f->potential[i] += phi;
  }
}

} // namespace

PoissonGridGeometry SystemPoissonGrid(const TightBindingSystem &sys) {
  std::array<int, 3> pad;
  for (int a = 0; a < 3; ++a) pad[a] = sys.lattice.periodic()[a] ? 0 : sys.spec.strain.pad[a] + sys.spec.fields.pad;
  return MakePoissonGrid(sys.lattice.cells(), sys.lattice.periodic(), pad, sys.spec.fields.grid, sys.a_nm);
}

PetscErrorCode ComputeSystemFields(MPI_Comm comm, TightBindingSystem *sys, SystemStrain *strain, SystemFields *fields) {
  const FieldSpec &spec = sys->spec.fields;
  Structure &s = sys->structure;
  const LogEvents *ev;
  PetscFunctionBeginUser;
  *fields = SystemFields{};
  if (!spec.any()) PetscFunctionReturn(0);
  CrashPhase phase("the potentials on the atoms");
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->fields, 0, 0, 0, 0));
  const double start = MPI_Wtime();
  fields->piezo = spec.piezoOn(), fields->field = spec.fieldOn();
  fields->potential.assign((size_t)s.owned, 0.0);
  if (fields->piezo) PetscCall(PiezoPotential(comm, *sys, *strain, fields));
  if (fields->field) AppliedPotential(*sys, fields);
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

PetscErrorCode ListFieldOptions(MPI_Comm comm) {
  PetscFunctionBeginUser;
  PetscCall(ListPoissonOptions(comm));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
