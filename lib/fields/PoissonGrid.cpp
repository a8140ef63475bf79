#include "fields/PoissonGrid.hpp"

#include <algorithm>
#include <cmath>

namespace tbpeta {

PoissonGridGeometry MakePoissonGrid(const std::array<int, 3> &cells, const std::array<bool, 3> &periodic,
                                    const std::array<int, 3> &pad, int per_cell, double a_nm) {
  PoissonGridGeometry g;
  g.periodic = periodic, g.a_nm = a_nm, g.planes_per_node = 4.0 / per_cell;
  for (int a = 0; a < 3; ++a) {
    if (periodic[a]) { // the box and its padding on this axis, repeated
      g.nodes[a] = (PetscInt)per_cell * (cells[a] + 2 * pad[a]);
      g.first_plane[a] = -4.0 * pad[a];
    } else { // the padded box's planes, one boundary node beyond each side
      g.nodes[a] = (PetscInt)per_cell * (cells[a] + 2 * pad[a]) + 3;
      g.first_plane[a] = -4.0 * pad[a] - g.planes_per_node;
    }
  }
  return g;
}

PetscErrorCode NodeNumbering::Setup(DM da) {
  PetscInt m[3];
  const PetscInt *l[3];
  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, nullptr, nullptr, nullptr, nullptr, &m[0], &m[1], &m[2], nullptr, nullptr, nullptr, nullptr,
                        nullptr, nullptr));
  PetscCall(DMDAGetOwnershipRanges(da, &l[0], &l[1], &l[2]));
  for (int a = 0; a < 3; ++a) {
    starts_[a].assign(1, 0);
    for (PetscInt r = 0; r < m[a]; ++r) starts_[a].push_back(starts_[a].back() + l[a][r]);
  }
  offsets_.assign(1, 0);
  for (PetscInt rk = 0; rk < m[2]; ++rk) // DMDA ranks run x fastest, then y, then z
    for (PetscInt rj = 0; rj < m[1]; ++rj)
      for (PetscInt ri = 0; ri < m[0]; ++ri) offsets_.push_back(offsets_.back() + l[0][ri] * l[1][rj] * l[2][rk]);
  PetscFunctionReturn(0);
}

PetscInt NodeNumbering::operator()(PetscInt i, PetscInt j, PetscInt k) const {
  const PetscInt n[3] = {i, j, k};
  PetscInt r[3], lo[3], len[3];
  for (int a = 0; a < 3; ++a) {
    r[a] = (PetscInt)(std::upper_bound(starts_[a].begin(), starts_[a].end(), n[a]) - starts_[a].begin()) - 1;
    lo[a] = starts_[a][r[a]], len[a] = starts_[a][r[a] + 1] - lo[a];
  }
  const PetscInt px = (PetscInt)starts_[0].size() - 1, py = (PetscInt)starts_[1].size() - 1;
  return offsets_[r[0] + px * (r[1] + py * r[2])] + (i - lo[0]) + len[0] * ((j - lo[1]) + len[1] * (k - lo[2]));
}

PetscErrorCode CreatePoissonDMs(MPI_Comm comm, const PoissonGridGeometry &g, OwnedDM *potential, OwnedDM *fields) {
  DMBoundaryType b[3];
  PetscFunctionBeginUser;
  for (int a = 0; a < 3; ++a) b[a] = g.periodic[a] ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;
  PetscCall(DMDACreate3d(comm, b[0], b[1], b[2], DMDA_STENCIL_STAR, g.nodes[0], g.nodes[1], g.nodes[2], PETSC_DECIDE,
                         PETSC_DECIDE, PETSC_DECIDE, 1, 1, nullptr, nullptr, nullptr, potential->out()));
  PetscCall(DMSetUp(*potential));
  PetscCall(DMDASetUniformCoordinates(*potential, 0, g.spacingNm() * (g.nodes[0] - 1), 0,
                                      g.spacingNm() * (g.nodes[1] - 1), 0, g.spacingNm() * (g.nodes[2] - 1)));
  PetscCall(DMDACreateCompatibleDMDA(*potential, 5, fields->out()));
  PetscFunctionReturn(0);
}

namespace {

// The nodes an atom's tent reaches along one axis (unwrapped) and their weights.
struct TentTaps {
  PetscInt first = 0;
  int count = 0;
  double w[5] = {0, 0, 0, 0, 0};
};

TentTaps Tent(const PoissonGridGeometry &g, int a, int plane) {
  const double t = g.nodeCoordinate(a, plane), half = std::max(2.0, g.planes_per_node) / g.planes_per_node;
  TentTaps taps;
  taps.first = (PetscInt)std::floor(t - half) + 1;
  for (PetscInt k = taps.first; k < t + half && taps.count < 5; ++k)
    taps.w[taps.count++] = 1.0 - std::abs(t - k) / half;
  return taps;
}

PetscInt Wrapped(const PoissonGridGeometry &g, int a, PetscInt k) {
  if (!g.periodic[a]) return std::clamp<PetscInt>(k, 0, g.nodes[a] - 1);
  return ((k % g.nodes[a]) + g.nodes[a]) % g.nodes[a];
}

// This rank's sums over its sources, on the box of nodes they reach: 5 per node (w Px, w Py, w Pz, w eps, w).
struct LocalSums {
  std::array<PetscInt, 3> lo{0, 0, 0}, n{0, 0, 0};
  std::vector<double> s;
  double *at(PetscInt i, PetscInt j, PetscInt k) {
    return &s[5 * ((i - lo[0]) + n[0] * ((j - lo[1]) + n[1] * (k - lo[2])))];
  }
};

LocalSums SumSources(const PoissonGridGeometry &g, const std::vector<PolarizationSource> &sources) {
  LocalSums L;
  if (sources.empty()) return L;
  std::array<PetscInt, 3> hi{};
  for (int a = 0; a < 3; ++a) L.lo[a] = PETSC_MAX_INT, hi[a] = PETSC_MIN_INT;
  for (const PolarizationSource &src : sources)
    for (int a = 0; a < 3; ++a) {
      const TentTaps t = Tent(g, a, src.plane[a]);
      L.lo[a] = std::min(L.lo[a], t.first), hi[a] = std::max(hi[a], t.first + t.count - 1);
    }
  for (int a = 0; a < 3; ++a) L.n[a] = hi[a] - L.lo[a] + 1;
  L.s.assign(5 * (size_t)L.n[0] * L.n[1] * L.n[2], 0.0);
  for (const PolarizationSource &src : sources) {
    const TentTaps tx = Tent(g, 0, src.plane[0]), ty = Tent(g, 1, src.plane[1]), tz = Tent(g, 2, src.plane[2]);
    for (int c = 0; c < tz.count; ++c)
      for (int b = 0; b < ty.count; ++b)
        for (int a = 0; a < tx.count; ++a) {
          const double w = tx.w[a] * ty.w[b] * tz.w[c];
          double *v = L.at(tx.first + a, ty.first + b, tz.first + c);
          v[0] += w * src.P[0], v[1] += w * src.P[1], v[2] += w * src.P[2], v[3] += w * src.eps, v[4] += w;
        }
  }
  return L;
}

} // namespace

PetscErrorCode DepositSources(const PoissonGridGeometry &g, DM fields, const std::vector<PolarizationSource> &sources,
                              double host_eps, Vec node_fields) {
  NodeNumbering number;
  PetscScalar *f;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(number.Setup(fields));
  LocalSums L = SumSources(g, sources);
  PetscCall(VecZeroEntries(node_fields));
  for (PetscInt k = L.lo[2]; k < L.lo[2] + L.n[2]; ++k) // each node this rank's atoms reach, once
    for (PetscInt j = L.lo[1]; j < L.lo[1] + L.n[1]; ++j)
      for (PetscInt i = L.lo[0]; i < L.lo[0] + L.n[0]; ++i) {
        const double *v = L.at(i, j, k);
        if (v[4] == 0) continue;
        const PetscInt node = number(Wrapped(g, 0, i), Wrapped(g, 1, j), Wrapped(g, 2, k));
        const PetscScalar values[5] = {v[0], v[1], v[2], v[3], v[4]};
        PetscCall(VecSetValuesBlocked(node_fields, 1, &node, values, ADD_VALUES));
      }
  PetscCall(VecAssemblyBegin(node_fields));
  PetscCall(VecAssemblyEnd(node_fields));
  PetscCall(VecGetLocalSize(node_fields, &n));
  PetscCall(VecGetArray(node_fields, &f));
  for (PetscInt b = 0; b < n; b += 5) {
    const double w = PetscRealPart(f[b + 4]);
    for (int c = 0; c < 4; ++c) f[b + c] = w > 0 ? f[b + c] / w : (c == 3 ? host_eps : 0.0);
    f[b + 4] = w;
  }
  PetscCall(VecRestoreArray(node_fields, &f));
  PetscFunctionReturn(0);
}

PetscErrorCode InterpolateAtSites(const PoissonGridGeometry &g, DM potential, Vec phi,
                                  const std::vector<std::array<double, 3>> &planes, std::vector<double> *values) {
  NodeNumbering number;
  std::vector<PetscInt> nodes;
  std::vector<double> weights;
  OwnedIS is;
  OwnedVec gathered;
  OwnedScatter scatter;
  const PetscScalar *a;
  PetscFunctionBeginUser;
  PetscCall(number.Setup(potential));
  nodes.reserve(8 * planes.size()), weights.reserve(8 * planes.size());
  for (const auto &p : planes) {
    PetscInt k0[3];
    double f[3];
    for (int a = 0; a < 3; ++a) {
      const double t = g.nodeCoordinate(a, p[a]);
      k0[a] = (PetscInt)std::floor(t), f[a] = t - (double)k0[a];
    }
    for (int c = 0; c < 8; ++c) {
      const int d[3] = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
      nodes.push_back(number(Wrapped(g, 0, k0[0] + d[0]), Wrapped(g, 1, k0[1] + d[1]), Wrapped(g, 2, k0[2] + d[2])));
      weights.push_back((d[0] ? f[0] : 1 - f[0]) * (d[1] ? f[1] : 1 - f[1]) * (d[2] ? f[2] : 1 - f[2]));
    }
  }
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, (PetscInt)nodes.size(), nodes.data(), PETSC_USE_POINTER, is.out()));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, (PetscInt)nodes.size(), gathered.out()));
  PetscCall(VecScatterCreate(phi, is, gathered, nullptr, scatter.out()));
  PetscCall(VecScatterBegin(scatter, phi, gathered, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(scatter, phi, gathered, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(gathered, &a));
  values->assign(planes.size(), 0.0);
  for (size_t s = 0; s < planes.size(); ++s)
    for (int c = 0; c < 8; ++c) (*values)[s] += weights[8 * s + c] * PetscRealPart(a[8 * s + c]);
  PetscCall(VecRestoreArrayRead(gathered, &a));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
