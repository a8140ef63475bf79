#include "bulk/BandUnfolding.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

#include "bulk/CellSpectrum.hpp"
#include "bulk/StrainedBulk.hpp"

namespace tbpeta {

namespace {

using Complex = std::complex<double>;

// fcc lattice translations in planes (a/4) that are not translations of the cubic cell, with the identity.
constexpr std::array<std::array<int, 3>, 4> kFccTranslations = {{{0, 0, 0}, {0, 2, 2}, {2, 0, 2}, {2, 2, 0}}};
// Eigenvalues closer than this (eV) form one degenerate group.
constexpr double kDegenerate = 1e-8;

Complex ColumnDot(const PetscScalar *a, const PetscScalar *b, size_t n) { // a^H b
  Complex s = 0;
  for (size_t r = 0; r < n; ++r) s += std::conj(Complex(a[r])) * Complex(b[r]);
  return s;
}

// Orthonormal basis of the span of the columns `cols` (n rows each) of rank `rank`: Gram-Schmidt that takes the
// column with the largest remainder next, so that nearly dependent columns are never divided by a small norm.
std::vector<PetscScalar> OrthonormalSpan(std::vector<PetscScalar> cols, size_t n, long rank) {
  const size_t g = cols.size() / n;
  std::vector<PetscScalar> basis;
  std::vector<bool> used(g, false);
  for (long b = 0; b < rank; ++b) {
    size_t best = 0;
    double bestNorm = -1;
    for (size_t j = 0; j < g; ++j) {
      const double nj = used[j] ? -1 : ColumnDot(&cols[j * n], &cols[j * n], n).real();
      if (nj > bestNorm) best = j, bestNorm = nj;
    }
    used[best] = true;
    const PetscScalar *q = &cols[best * n];
    const double scale = 1 / std::sqrt(bestNorm);
    for (size_t r = 0; r < n; ++r) basis.push_back(q[r] * scale);
    const PetscScalar *e = &basis[basis.size() - n];
    for (size_t j = 0; j < g; ++j) {
      if (used[j]) continue;
      const Complex c = ColumnDot(e, &cols[j * n], n);
      for (size_t r = 0; r < n; ++r) cols[j * n + r] -= c * Complex(e[r]);
    }
  }
  return basis;
}

// The phase of an fcc translation t whose image wraps by W (both in planes of a/4; k in 2 pi / a): pi/2 k.(W - t).
double TranslationPhase(const KPoint &k, const std::array<int, 3> &wrap, const std::array<int, 3> &t) {
  const KPoint shift{(double)(wrap[0] - t[0]), (double)(wrap[1] - t[1]), (double)(wrap[2] - t[2])};
  return M_PI / 2 * dot(k, shift);
}

} // namespace

PetscErrorCode BulkBands::Create(const TightBindingModel &model, int material, BulkBands *out,
                                 const std::array<double, 6> &eps) {
  BulkBands b;
  PetscFunctionBeginUser;
  if (eps == std::array<double, 6>{0, 0, 0, 0, 0, 0}) PetscCall(CreateBulkCell(model, material, 1, &b.cell_));
  else PetscCall(CreateStrainedBulkCell(model, material, eps, &b.cell_));
  const Structure &s = b.cell_.structure;
  const auto &planes = s.lattice.planes();
  PetscCheck(s.owned == 8, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cubic cell has %" PetscInt_FMT " atoms, expected 8",
             s.owned);
  // T_t: atom r takes the coefficients of the atom at r + t, wrapped into the cell.
  for (int t = 0; t < 4; ++t)
    for (int i = 0; i < 8; ++i) {
      const PlaneIndex r = s.sites[i];
      const int c[3] = {r.x + kFccTranslations[t][0], r.y + kFccTranslations[t][1], r.z + kFccTranslations[t][2]};
      Image im;
      PlaneIndex q;
      int *qc[3] = {&q.x, &q.y, &q.z};
      for (int a = 0; a < 3; ++a) {
        *qc[a] = ((c[a] % planes[a]) + planes[a]) % planes[a];
        im.wrap[a] = c[a] - *qc[a];
      }
      im.atom = -1;
      for (int j = 0; j < 8; ++j)
        if (s.sites[j] == q) im.atom = j;
      PetscCheck(im.atom >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "fcc translation of atom %d leaves the lattice", i);
      b.images_[t][i] = im;
    }
  *out = std::move(b);
  PetscFunctionReturn(0);
}

PetscErrorCode BulkBands::States(KPoint k, PrimitiveStates *states) const {
  const int bs = model().blockSize();
  const size_t n = 8 * (size_t)bs;
  std::vector<double> w;
  std::vector<PetscScalar> A; // column j: the eigenvector of w[j]
  PetscFunctionBeginUser;
  PetscCall(CellEigenpairs(cell_, k, &w, &A));
  PetscCheck(w.size() == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cubic-cell H has %zu rows, expected %zu", w.size(), n);
  // (P v)(r) = 1/4 sum_t exp(-i k.t) exp(i k.W_t(r)) v(r'_t(r)): the weights per t and r.
  std::array<std::array<Complex, 8>, 4> weight;
  for (int t = 0; t < 4; ++t)
    for (int i = 0; i < 8; ++i) {
      const double th = TranslationPhase(k, images_[t][i].wrap, kFccTranslations[t]);
      weight[t][i] = 0.25 * Complex(std::cos(th), std::sin(th));
    }
  const auto project = [&](const PetscScalar *v, PetscScalar *out) {
    for (int i = 0; i < 8; ++i)
      for (int o = 0; o < bs; ++o) {
        Complex sum = 0;
        for (int t = 0; t < 4; ++t) sum += weight[t][i] * Complex(v[(size_t)images_[t][i].atom * bs + o]);
        out[(size_t)i * bs + o] = sum;
      }
  };

  states->rows = (PetscInt)n;
  states->energies.clear();
  states->vectors.clear();
  std::vector<PetscScalar> projected;
  for (size_t g0 = 0; g0 < n;) {
    size_t g1 = g0 + 1;
    while (g1 < n && w[g1] - w[g1 - 1] < kDegenerate) ++g1;
    projected.assign((g1 - g0) * n, 0.0);
    double m = 0; // tr(V^H P V): how many primitive bands at k the group holds
    for (size_t j = g0; j < g1; ++j) {
      project(&A[j * n], &projected[(j - g0) * n]);
      m += ColumnDot(&A[j * n], &projected[(j - g0) * n], n).real();
    }
    const long mult = std::lround(m);
    const double e = 0.5 * (w[g0] + w[g1 - 1]);
    const auto basis = OrthonormalSpan(projected, n, mult);
    states->vectors.insert(states->vectors.end(), basis.begin(), basis.end());
    for (long j = 0; j < mult; ++j) states->energies.push_back(e);
    g0 = g1;
  }
  PetscCheck((int)states->energies.size() == bandCount(), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "unfolding at k = (%g, %g, %g) gave %zu primitive bands, expected %d", k[0], k[1], k[2],
             states->energies.size(), bandCount());
  PetscFunctionReturn(0);
}

PetscErrorCode BulkBands::At(KPoint k, std::vector<double> *energies) const {
  PrimitiveStates states;
  PetscFunctionBeginUser;
  PetscCall(States(k, &states));
  *energies = std::move(states.energies);
  PetscFunctionReturn(0);
}

PetscErrorCode BandsAlongPath(MPI_Comm comm, const BulkBands &bands, const std::vector<PathSample> &samples,
                              std::vector<std::vector<double>> *energies) {
  PetscMPIInt rank, size;
  const size_t nb = bands.bandCount();
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  std::vector<double> all(samples.size() * nb, 0.0);
  std::vector<double> e;
  for (size_t i = rank; i < samples.size(); i += size) {
    PetscCall(bands.At(samples[i].k, &e));
    std::copy(e.begin(), e.end(), all.begin() + i * nb);
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, all.data(), (PetscMPIInt)all.size(), MPI_DOUBLE, MPI_SUM, comm));
  energies->assign(samples.size(), std::vector<double>(nb));
  for (size_t i = 0; i < samples.size(); ++i)
    std::copy(all.begin() + i * nb, all.begin() + (i + 1) * nb, (*energies)[i].begin());
  PetscFunctionReturn(0);
}

} // namespace tbpeta
