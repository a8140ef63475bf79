#include "bulk/DeformationPotentials.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

#include "bulk/BandUnfolding.hpp"
#include "bulk/CellSpectrum.hpp"
#include "bulk/StrainedBulk.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

namespace {

// The top valence quartet at G of a strained cell (its 4 states, ascending), each with its p weight along `axis`.
struct Quartet {
  double energy[4] = {}, weight[4] = {};
  // E(upper doublet of weight) - E(the doublet without weight along the axis): E_lh - E_hh, E(+-1/2) - E(+-3/2).
  double Splitting() const {
    const double low = 0.5 * (energy[0] + energy[1]), high = 0.5 * (energy[2] + energy[3]);
    const double w_low = weight[0] + weight[1], w_high = weight[2] + weight[3];
    return w_low < w_high ? high - low : low - high;
  }
};

PetscErrorCode ValenceQuartet(const BulkCell &cell, const std::array<double, 3> &axis, Quartet *q) {
  std::vector<double> values;
  std::vector<PetscScalar> vectors;
  PetscFunctionBeginUser;
  PetscCall(CellEigenpairs(cell, {0, 0, 0}, &values, &vectors));
  const int bs = cell.model.blockSize(), norb = cell.model.orbitals(), rows = (int)values.size();
  const int top = 4 * 4 * (cell.model.spin_orbit ? 2 : 1) - 1; // 4 valence bands per atom pair (x2 with spin), 4 pairs
  const double norm = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  for (int s = 0; s < 4; ++s) {
    const int state = top - 3 + s;
    const PetscScalar *v = vectors.data() + (size_t)state * rows;
    double w = 0;
    for (int atom = 0; atom < 8; ++atom)
      for (int spin = 0; spin < (cell.model.spin_orbit ? 2 : 1); ++spin) {
        const PetscScalar *p = v + atom * bs + spin * norb + kPx;
        w += std::norm((axis[0] * p[0] + axis[1] * p[1] + axis[2] * p[2]) / norm);
      }
    q->energy[s] = values[state], q->weight[s] = w;
  }
  PetscFunctionReturn(0);
}

// Eg at G, E(VBM) and the lowest conduction band at G, X, L of the material under eps.
struct Edges {
  double vbm = 0, c[3] = {0, 0, 0};
};
PetscErrorCode EdgesUnder(const TightBindingModel &model, int material, const Voigt &eps, Edges *e) {
  BulkBands bands;
  std::vector<double> energies;
  PetscFunctionBeginUser;
  PetscCall(BulkBands::Create(model, material, &bands, eps));
  const KPoint points[3] = {{0, 0, 0}, {1, 0, 0}, {0.5, 0.5, 0.5}};
  for (int p = 0; p < 3; ++p) {
    PetscCall(bands.At(points[p], &energies));
    if (p == 0) e->vbm = energies[bands.valenceBands() - 1];
    e->c[p] = energies[bands.valenceBands()];
  }
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode ComputeDeformationPotentials(const TightBindingModel &model, int material, double delta,
                                            DeformationPotentials *out) {
  DeformationPotentials dp;
  PetscFunctionBeginUser;
  dp.delta = delta;
  // Hydrostatic: tr eps = +-3 delta.
  Edges h[2];
  for (int s = 0; s < 2; ++s)
    PetscCall(
        EdgesUnder(model, material, {s ? -delta : delta, s ? -delta : delta, s ? -delta : delta, 0, 0, 0}, &h[s]));
  const double dtr = 6 * delta;
  dp.a_v = (h[0].vbm - h[1].vbm) / dtr;
  for (int p = 0; p < 3; ++p) dp.a_c[p] = (h[0].c[p] - h[1].c[p]) / dtr;
  dp.a_gap = dp.a_c[0] - dp.a_v, dp.a_gap_x = dp.a_c[1] - dp.a_v, dp.a_gap_l = dp.a_c[2] - dp.a_v;
  // [001]: eps_zz - eps_xx = +-1.5 delta; [111]: eps_yz = eps_xz = eps_xy = +-delta.
  double split001[2], split111[2];
  for (int s = 0; s < 2; ++s) {
    const double x = s ? -delta : delta;
    BulkCell cell;
    Quartet q;
    PetscCall(CreateStrainedBulkCell(model, material, {-x / 2, -x / 2, x, 0, 0, 0}, &cell));
    PetscCall(ValenceQuartet(cell, {0, 0, 1}, &q));
    split001[s] = q.Splitting();
    PetscCall(CreateStrainedBulkCell(model, material, {0, 0, 0, x, x, x}, &cell));
    PetscCall(ValenceQuartet(cell, {1, 1, 1}, &q));
    split111[s] = q.Splitting();
  }
  dp.b = (split001[0] - split001[1]) / (2 * 2 * 1.5 * delta);
  dp.d = (split111[0] - split111[1]) / (2 * 2 * std::sqrt(3.0) * delta);
  *out = dp;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
