#include "optics/BoundStates.hpp"

#include "bulk/BandAnalysis.hpp"
#include "bulk/BandUnfolding.hpp"
#include "bulk/KPath.hpp"
#include "solvers/EigenSolve.hpp"
#include "support/LogEvents.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

namespace {

// Points per segment of L-G-X: the minimum is then refined by a golden-section search (FindBandEdges).
constexpr int kGapPointsPerSegment = 8;

// |x|^2 summed over the rows of the owned atoms in the dot regions, and over all owned rows. Not collective.
PetscErrorCode DotWeight(const Structure &s, const Nanostructure &nano, int rows_per_atom, Vec x, double local[2]) {
  const PetscScalar *px;
  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &px));
  local[0] = 0;
  local[1] = 0;
  for (PetscInt i = 0; i < s.owned; ++i) {
    double w = 0;
    for (int o = 0; o < rows_per_atom; ++o)
      w += PetscRealPart(px[i * rows_per_atom + o] * PetscConj(px[i * rows_per_atom + o]));
    local[1] += w;
    if (nano.inDot(s.sites[i])) local[0] += w;
  }
  PetscCall(VecRestoreArrayRead(x, &px));
  PetscFunctionReturn(0);
}

} // namespace

Voigt HostStrain(const TightBindingSystem &sys) {
  Voigt eps = sys.structure.strain;
  const MaterialParameters &host = sys.model.materials[0];
  const StrainSpec &spec = sys.spec.strain;
  if (!spec.on() || !host.keating.given()) return eps;
  const double e = 10 * sys.a_nm / host.a_lattice - 1; // the lattice's constant against the host's own (Angstrom)
  if (e == 0) return eps;
  const std::array<bool, 3> held = spec.domainPeriodic(sys.lattice.periodic());
  const int n = (int)held[0] + (int)held[1] + (int)held[2];
  const double c11 = host.keating.alpha + 3 * host.keating.beta, c12 = host.keating.alpha - host.keating.beta;
  const double open = n == 3 ? e : n == 2 ? -2 * c12 / c11 * e : n == 1 ? -c12 / (c11 + c12) * e : 0;
  for (int a = 0; a < 3; ++a) eps[a] = n == 0 ? 0 : held[a] ? e : open;
  return eps;
}

PetscErrorCode ComputeHostGap(MPI_Comm comm, const TightBindingSystem &sys, HostGap *gap) {
  BulkBands bands;
  BandPath path;
  std::vector<std::vector<double>> energies;
  const LogEvents *ev;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->binding, 0, 0, 0, 0));
  PetscCall(BulkBands::Create(sys.model, 0, &bands, HostStrain(sys)));
  PetscCall(ParseBandPath(comm, "L,G,X", kGapPointsPerSegment, &path));
  const std::vector<PathSample> samples = SamplePath(path);
  PetscCall(BandsAlongPath(comm, bands, samples, &energies));
  PetscCall(FindBandEdges(bands, path, samples, energies, &gap->vbm, &gap->cbm, &gap->cbm_where));
  PetscCall(PetscLogEventEnd(ev->binding, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode BindStates(MPI_Comm comm, const TightBindingSystem &sys, EPS eps, const EigenStates &states,
                          const HostGap &gap, StateBinding *binding) {
  PetscFunctionBeginUser;
  *binding = StateBinding{};
  for (double e : states.values) {
    const bool electron = e > gap.centre();
    const bool bound = electron ? e < gap.cbm : e > gap.vbm;
    binding->bound.push_back(bound ? 1 : 0);
    (electron ? binding->electrons : binding->holes) += 1;
    (electron ? binding->bound_electrons : binding->bound_holes) += bound;
  }
  if (!states.vectors || !eps || sys.nano.regions().empty()) PetscFunctionReturn(0);
  Mat H;
  OwnedVec x;
  const LogEvents *ev;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->binding, 0, 0, 0, 0));
  PetscCall(EPSGetOperators(eps, &H, nullptr));
  PetscCall(MatCreateVecs(H, x.out(), nullptr));
  for (size_t k = 0; k < states.values.size(); ++k) {
    double local[2], global[2];
    PetscCall(StateVector(eps, states, k, x));
    PetscCall(DotWeight(sys.structure, sys.nano, sys.model.blockSize(), x, local));
    PetscCallMPI(MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, comm));
    binding->dot_fraction.push_back(global[1] > 0 ? global[0] / global[1] : 0);
  }
  PetscCall(PetscLogEventEnd(ev->binding, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
