#include "fields/PiezoTerm.hpp"

#include "fields/Polarization.hpp"
#include "strain/SystemRelaxation.hpp"

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
std::vector<PolarizationSource> PiezoSources(const Structure &s, const std::vector<Voigt> &tensors,
                                             const MaterialFields &m, const std::array<int, 3> &origin) {
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

PetscErrorCode PiezoFromOptions(MPI_Comm, const FieldSpec &spec, std::unique_ptr<OnsiteTerm> *term) {
  *term = std::make_unique<PiezoTerm>(spec);
  return 0;
}

} // namespace

OnsiteTermKind PiezoTermKind() { return {"piezo", PiezoFromOptions}; }

PoissonGridGeometry SystemPoissonGrid(const TightBindingSystem &sys) {
  // Periodic where the strain domain is (over the box and its lateral padding there); elsewhere the strain domain and
  // -piezo_pad_cells of host beyond it.
  const std::array<bool, 3> box = sys.lattice.periodic(), domain = sys.spec.strain.domainPeriodic(box);
  std::array<int, 3> pad;
  for (int a = 0; a < 3; ++a)
    pad[a] = box[a] ? 0 : domain[a] ? sys.spec.strain.pad[a] : sys.spec.strain.pad[a] + sys.spec.fields.pad;
  return MakePoissonGrid(sys.lattice.cells(), domain, pad, sys.spec.fields.grid, sys.a_nm);
}

// The piezoelectric potential phi at the electronic box's owned atoms (an electron's energy -e phi), and their
// polarisation.
PetscErrorCode PiezoTerm::Compute(MPI_Comm comm, const TightBindingSystem &sys, const SystemStrain &strain,
                                  std::span<double> energy) {
  const Structure &s = sys.structure;
  const MaterialFields m = RunMaterialFields(sys);
  std::vector<std::array<double, 3>> targets((size_t)s.owned);
  std::vector<double> phi;
  PetscFunctionBeginUser;
  PoissonProblem problem;
  problem.grid = SystemPoissonGrid(sys);
  problem.host_eps = m.eps[0];
  const std::vector<PolarizationSource> sources =
      strain.padded ? PiezoSources(strain.domain, strain.domain_tensors, m, strain.origin)
                    : PiezoSources(s, strain.tensors, m, {0, 0, 0});
  for (PetscInt i = 0; i < s.owned; ++i)
    targets[i] = {(double)s.sites[i].x, (double)s.sites[i].y, (double)s.sites[i].z};
  PetscCall(SolvePolarizationPotential(comm, problem, sources, targets, &phi, &poisson_));
  polarization_.resize((size_t)s.owned);
  for (PetscInt i = 0; i < s.owned; ++i) {
    PiezoCoefficients c;
    double eps;
    AtomFields(s, m, i, &c, &eps);
    polarization_[i] = Polarization(strain.tensors[i], c);
    energy[i] = -phi[i];
  }
  PetscFunctionReturn(0);
}

PetscErrorCode PiezoTerm::PrintSummary(MPI_Comm comm) const {
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(
      comm, "piezo %s (e14 %s): Poisson on %lld nodes of %.4f nm, %s + %s %" PetscInt_FMT " iterations (%s), %.2f s; ",
      PiezoOrderName(spec_.piezo), E14ChoiceName(spec_.e14), poisson_.nodes, poisson_.spacing_nm,
      poisson_.ksp_type.c_str(), poisson_.pc_type.c_str(), poisson_.iterations, poisson_.reason.c_str(),
      poisson_.seconds));
  PetscFunctionReturn(0);
}

// The order and e14 choice always (root and fields/); with -piezo the polarisation and the Poisson solve.
void PiezoTerm::Output(AtomGroup *fields, ResultsPart *part) const {
  part->attributes.insert(part->attributes.end(),
                          {{"piezo", PiezoOrderName(spec_.piezo)}, {"piezo_e14", E14ChoiceName(spec_.e14)}});
  fields->text.insert(fields->text.end(),
                      {{"piezo", PiezoOrderName(spec_.piezo)}, {"piezo_e14", E14ChoiceName(spec_.e14)}});
  if (!on()) return;
  std::vector<double> p;
  for (const auto &pi : polarization_) p.insert(p.end(), pi.begin(), pi.end());
  fields->fields.push_back({"polarization", 3, std::move(p)});
  fields->text.push_back({"poisson_solver", poisson_.ksp_type + " + " + poisson_.pc_type});
  fields->values.insert(fields->values.end(), {{"poisson_nodes", (double)poisson_.nodes},
                                               {"poisson_spacing_nm", poisson_.spacing_nm},
                                               {"poisson_iterations", (double)poisson_.iterations},
                                               {"poisson_seconds", poisson_.seconds}});
}

// The Poisson solve's share of one rank (EstimatePoissonBytes).
PetscErrorCode PiezoTerm::EstimateBytes(MPI_Comm comm, const TightBindingSystem &sys, double *bytes) const {
  PetscMPIInt size;
  PetscFunctionBeginUser;
  *bytes = 0;
  if (!on()) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  *bytes = EstimatePoissonBytes(SystemPoissonGrid(sys), size);
  if (sys.spec.strain.padded()) { // the padded strain domain and its tensors stay for the polarisation
    DomainHalo d;
    PetscCall(CountStrainDomain(comm, sys, &d));
    *bytes += Structure::EstimateBytes(d.owned, d.halo, true, false) + (double)d.owned * sizeof(Voigt);
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
