#include "bulk/KaneEnergy.hpp"

#include <cmath>
#include <complex>

#include "operator/BondCommutator.hpp"
#include "operator/Hamiltonian.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

namespace {

// Levels closer than this (eV) are one degenerate level: the sets are never cut inside one.
constexpr double kSameLevel = 1e-6;

// The state indices [lo, hi) of the band-edge sets at k: `count` states from `first` on, widened to whole levels.
std::array<int, 2> WholeLevels(const std::vector<double> &e, int first, int count) {
  int lo = first, hi = first + count;
  while (lo > 0 && e[lo] - e[lo - 1] < kSameLevel) --lo;
  while (hi < (int)e.size() && e[hi] - e[hi - 1] < kSameLevel) ++hi;
  return {lo, hi};
}

} // namespace

PetscErrorCode BandEdgeMomentumAt(const BulkBands &bands, KPoint k, BandEdgeMomentum *out) {
  BulkBands::PrimitiveStates st;
  OwnedMat H;
  OwnedVec x, y;
  BondCommutator C;
  const BulkCell &cell = bands.cell();
  PetscFunctionBeginUser;
  PetscCall(bands.States(k, &st));
  PetscCall(CreateHamiltonian(PETSC_COMM_SELF, cell.structure, cell.model, k, HamiltonianOptions{}, H.out()));
  PetscCall(BondCommutator::Create(PETSC_COMM_SELF, cell.structure, cell.model, k, H, &C));
  PetscCall(MatCreateVecs(H, x.out(), y.out()));
  const int top = bands.valenceBands(), spin = bands.model().spin_orbit ? 2 : 1;
  const auto v = WholeLevels(st.energies, top - 3 * spin, 3 * spin);
  const auto c = WholeLevels(st.energies, top, spin);
  PetscCheck(v[1] == top && c[0] == top, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "k = (%g, %g, %g): the valence and conduction bands touch; no band edges", k[0], k[1], k[2]);
  const PetscInt n = st.rows;
  const auto column = [&](int j) { return st.vectors.data() + (size_t)j * n; };
  *out = BandEdgeMomentum{};
  out->valence = v[1] - v[0];
  out->conduction = c[1] - c[0];
  for (int a = 0; a < 3; ++a)
    for (int ci = c[0]; ci < c[1]; ++ci) {
      PetscScalar *px;
      PetscCall(VecGetArray(x, &px));
      std::copy(column(ci), column(ci) + n, px);
      PetscCall(VecRestoreArray(x, &px));
      PetscCall(C.Apply(a, x, y)); // C_a |c>; <v|C_a|c> = conj(<c|C_a|v>)
      const PetscScalar *py;
      PetscCall(VecGetArrayRead(y, &py));
      for (int vi = v[0]; vi < v[1]; ++vi) {
        std::complex<double> m = 0;
        for (PetscInt r = 0; r < n; ++r) m += std::conj(column(vi)[r]) * py[r];
        out->p[a] += std::norm(m) / (2 * kHbar2Over2m0 / 100); // hbar^2/2m0 in eV nm^2, M in eV nm
      }
      PetscCall(VecRestoreArrayRead(y, &py));
    }
  PetscFunctionReturn(0);
}

PetscErrorCode BandEdgeMomentaAlongPath(MPI_Comm comm, const BulkBands &bands, const std::vector<PathSample> &samples,
                                        std::vector<BandEdgeMomentum> *out) {
  PetscMPIInt rank, size;
  constexpr int kWidth = 5;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  std::vector<double> all(samples.size() * kWidth, 0.0);
  for (size_t i = rank; i < samples.size(); i += size) {
    BandEdgeMomentum m;
    PetscCall(BandEdgeMomentumAt(bands, samples[i].k, &m));
    const double row[kWidth] = {m.p[0], m.p[1], m.p[2], (double)m.valence, (double)m.conduction};
    std::copy(row, row + kWidth, all.begin() + i * kWidth);
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, all.data(), (PetscMPIInt)all.size(), MPI_DOUBLE, MPI_SUM, comm));
  out->assign(samples.size(), BandEdgeMomentum{});
  for (size_t i = 0; i < samples.size(); ++i) {
    const double *row = &all[i * kWidth];
    (*out)[i] = {{row[0], row[1], row[2]}, (int)row[3], (int)row[4]};
  }
  PetscFunctionReturn(0);
}

PetscErrorCode KaneEnergy(const BulkBands &bands, double *ep, bool *defined) {
  const TightBindingModel &model = bands.model();
  const MaterialParameters &p = model.materials[0];
  BandEdgeMomentum m;
  PetscFunctionBeginUser;
  PetscCheck(model.spin_orbit, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT,
             "-kane: the Kane energy sums over the six states of the p manifold, which needs spin-orbit (set %s has "
             "none)",
             model.set.c_str());
  *ep = 0, *defined = false;
  if (p.anion == p.cation) PetscFunctionReturn(0); // diamond: the lowest conduction level at Gamma is p-like
  PetscCall(BandEdgeMomentumAt(bands, {0, 0, 0}, &m));
  if (m.conduction != 2 || m.valence != 6) PetscFunctionReturn(0);
  *ep = m.p[0], *defined = true;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
