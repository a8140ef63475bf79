#include "bulk/BandStructure.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <sstream>

#include "bulk/CellSpectrum.hpp"
#include "bulk/StrainedBulk.hpp"

namespace tbpeta {

namespace {

using Complex = std::complex<double>;

// fcc lattice translations in planes (a/4) that are not translations of the cubic cell, with the identity.
constexpr std::array<std::array<int, 3>, 4> kFccTranslations = {{{0, 0, 0}, {0, 2, 2}, {2, 0, 2}, {2, 2, 0}}};
// Eigenvalues closer than this (eV) form one degenerate group.
constexpr double kDegenerate = 1e-8;

std::string allowedLetters() {
  std::string s;
  for (const auto &p : HighSymmetryPoints()) s += std::string(s.empty() ? "" : ", ") + p.letter;
  return s;
}

double dot(const KPoint &a, const KPoint &b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double norm(const KPoint &a) { return std::sqrt(dot(a, a)); }
KPoint along(const KPoint &a, const KPoint &b, double f) {
  return {a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2])};
}
KPoint unit(const KPoint &a) {
  const double n = norm(a);
  return {a[0] / n, a[1] / n, a[2] / n};
}

// Position on the path from the continuous sample coordinate s in [0, segments * n].
struct PathPosition {
  int segment;
  double fraction;
  KPoint k;
  double distance;
};
PathPosition positionAt(const BandPath &path, double s) {
  const int n = path.points_per_segment, segs = path.segments();
  int seg = std::clamp((int)std::floor(s / n), 0, segs - 1);
  const double f = std::clamp((s - seg * n) / n, 0.0, 1.0);
  double d = 0;
  for (int i = 0; i < seg; ++i)
    d += norm({path.corners[i + 1][0] - path.corners[i][0], path.corners[i + 1][1] - path.corners[i][1],
               path.corners[i + 1][2] - path.corners[i][2]});
  const KPoint &a = path.corners[seg], &b = path.corners[seg + 1];
  d += f * norm({b[0] - a[0], b[1] - a[1], b[2] - a[2]});
  return {seg, f, along(a, b, f), d};
}

} // namespace

const std::vector<SymmetryPoint> &HighSymmetryPoints() {
  static const std::vector<SymmetryPoint> points = {{'G', {0, 0, 0}},       {'X', {1, 0, 0}},
                                                    {'W', {1, 0.5, 0}},     {'L', {0.5, 0.5, 0.5}},
                                                    {'K', {0.75, 0.75, 0}}, {'U', {1, 0.25, 0.25}}};
  return points;
}

PetscErrorCode ParseBandPath(MPI_Comm comm, const std::string &spec, int points_per_segment, BandPath *path) {
  BandPath p;
  PetscFunctionBeginUser;
  PetscCheck(points_per_segment >= 1, comm, PETSC_ERR_USER_INPUT, "-points_per_segment %d: must be at least 1",
             points_per_segment);
  p.points_per_segment = points_per_segment;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    item = b == std::string::npos ? "" : item.substr(b, e - b + 1);
    const auto &pts = HighSymmetryPoints();
    auto it = std::find_if(pts.begin(), pts.end(),
                           [&](const SymmetryPoint &q) { return item.size() == 1 && item[0] == q.letter; });
    PetscCheck(it != pts.end(), comm, PETSC_ERR_USER_INPUT,
               "-path %s: unknown point '%s' (allowed letters: %s, comma-separated, e.g. %s)", spec.c_str(),
               item.c_str(), allowedLetters().c_str(), kDefaultBandPath);
    PetscCheck(p.labels.empty() || p.labels.back() != item, comm, PETSC_ERR_USER_INPUT,
               "-path %s: point %s follows itself (allowed letters: %s, e.g. %s)", spec.c_str(), item.c_str(),
               allowedLetters().c_str(), kDefaultBandPath);
    p.labels.push_back(item);
    p.corners.push_back(it->k);
  }
  PetscCheck(p.corners.size() >= 2, comm, PETSC_ERR_USER_INPUT,
             "-path %s: needs at least 2 points (allowed letters: %s, comma-separated, e.g. %s)", spec.c_str(),
             allowedLetters().c_str(), kDefaultBandPath);
  *path = p;
  PetscFunctionReturn(0);
}

PetscErrorCode BandPathFromOptions(MPI_Comm comm, BandPath *path) {
  char spec[1024];
  PetscInt n = kDefaultPointsPerSegment;
  PetscFunctionBeginUser;
  std::snprintf(spec, sizeof(spec), "%s", kDefaultBandPath);
  const std::string help =
      std::string("Path of high-symmetry points, comma-separated letters of ") + allowedLetters() + " (fcc, 2pi/a)";
  PetscOptionsBegin(comm, nullptr, "Band path", "tbpeta-bands");
  PetscCall(PetscOptionsString("-path", help.c_str(), "tbpeta-bands", spec, spec, sizeof(spec), nullptr));
  PetscCall(PetscOptionsInt("-points_per_segment", "k points per segment of the path (>= 1)", "tbpeta-bands", n, &n,
                            nullptr));
  PetscOptionsEnd();
  PetscCall(ParseBandPath(comm, spec, (int)n, path));
  PetscFunctionReturn(0);
}

std::vector<PathSample> SamplePath(const BandPath &path) {
  std::vector<PathSample> out;
  const int n = path.points_per_segment;
  double d0 = 0;
  for (int seg = 0; seg < path.segments(); ++seg) {
    const KPoint &a = path.corners[seg], &b = path.corners[seg + 1];
    const double len = norm({b[0] - a[0], b[1] - a[1], b[2] - a[2]});
    for (int j = (seg == 0 ? 0 : 1); j <= n; ++j) {
      PathSample s;
      s.k = along(a, b, (double)j / n);
      s.distance = d0 + len * j / n;
      s.segment = j == n && seg + 1 < path.segments() ? seg + 1 : seg;
      if (j == 0) s.label = path.labels[seg];
      if (j == n) s.label = path.labels[seg + 1];
      out.push_back(s);
    }
    d0 += len;
  }
  return out;
}

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

namespace {

Complex Dot(const PetscScalar *a, const PetscScalar *b, size_t n) { // a^H b
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
      const double nj = used[j] ? -1 : Dot(&cols[j * n], &cols[j * n], n).real();
      if (nj > bestNorm) best = j, bestNorm = nj;
    }
    used[best] = true;
    const PetscScalar *q = &cols[best * n];
    const double scale = 1 / std::sqrt(bestNorm);
    for (size_t r = 0; r < n; ++r) basis.push_back(q[r] * scale);
    const PetscScalar *e = &basis[basis.size() - n];
    for (size_t j = 0; j < g; ++j) {
      if (used[j]) continue;
      const Complex c = Dot(e, &cols[j * n], n);
      for (size_t r = 0; r < n; ++r) cols[j * n + r] -= c * Complex(e[r]);
    }
  }
  return basis;
}

} // namespace

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
      const auto &W = images_[t][i].wrap;
      const auto &T = kFccTranslations[t];
      const double th = M_PI / 2 * (k[0] * (W[0] - T[0]) + k[1] * (W[1] - T[1]) + k[2] * (W[2] - T[2]));
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
      m += Dot(&A[j * n], &projected[(j - g0) * n], n).real();
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

PetscErrorCode BandMass(const BulkBands &bands, int band, KPoint k, KPoint direction, double *mass) {
  const KPoint u = unit(direction);
  std::vector<double> em, e0, ep;
  PetscFunctionBeginUser;
  PetscCheck(band >= 0 && band < bands.bandCount(), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "band %d out of range",
             band);
  PetscCall(bands.At({k[0] - kMassStep * u[0], k[1] - kMassStep * u[1], k[2] - kMassStep * u[2]}, &em));
  PetscCall(bands.At(k, &e0));
  PetscCall(bands.At({k[0] + kMassStep * u[0], k[1] + kMassStep * u[1], k[2] + kMassStep * u[2]}, &ep));
  const double dk = kMassStep * 2 * M_PI / bands.latticeConstant();   // 1/Angstrom
  const double d2 = (em[band] - 2 * e0[band] + ep[band]) / (dk * dk); // eV Angstrom^2
  *mass = 2 * kHbar2Over2m0 / d2;
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

std::string DirectionName(KPoint d) {
  double smallest = 0;
  for (double x : d)
    if (std::fabs(x) > 1e-9 && (smallest == 0 || std::fabs(x) < smallest)) smallest = std::fabs(x);
  char buf[96];
  if (smallest > 0) {
    for (int scale = 1; scale <= 4; ++scale) {
      std::string name = "[";
      bool ok = true;
      for (double x : d) {
        const double v = x / smallest * scale;
        if (std::fabs(v - std::round(v)) > 1e-6 || std::fabs(v) > 9.5) ok = false;
        name += std::to_string((int)std::lround(v));
      }
      if (ok) return name + "]";
    }
  }
  std::snprintf(buf, sizeof(buf), "(%.4f, %.4f, %.4f)", d[0], d[1], d[2]);
  return buf;
}

namespace {

// The lowest conduction sample, then a golden-section search over its neighbours along the path; a minimum at a corner
// (within the search tolerance) is reported at the corner. *s: the path coordinate (in samples).
PetscErrorCode FindConductionMinimum(const BulkBands &bands, const BandPath &path,
                                     const std::vector<PathSample> &samples,
                                     const std::vector<std::vector<double>> &energies, double *s, double *ec,
                                     bool *at_corner) {
  const int nval = bands.valenceBands(), n = path.points_per_segment;
  PetscFunctionBeginUser;
  size_t jmin = 0;
  for (size_t j = 1; j < samples.size(); ++j)
    if (energies[j][nval] < energies[jmin][nval]) jmin = j;
  auto conduction = [&](double x, double *e) -> PetscErrorCode {
    std::vector<double> v;
    PetscFunctionBeginUser;
    PetscCall(bands.At(positionAt(path, x).k, &v));
    *e = v[nval];
    PetscFunctionReturn(0);
  };
  double lo = std::max(0.0, (double)jmin - 1), hi = std::min((double)(samples.size() - 1), (double)jmin + 1);
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo), f1 = 0, f2 = 0;
  PetscCall(conduction(x1, &f1));
  PetscCall(conduction(x2, &f2));
  while (hi - lo > 1e-7) {
    if (f1 < f2) {
      hi = x2, x2 = x1, f2 = f1;
      x1 = hi - phi * (hi - lo);
      PetscCall(conduction(x1, &f1));
    } else {
      lo = x1, x1 = x2, f1 = f2;
      x2 = lo + phi * (hi - lo);
      PetscCall(conduction(x2, &f2));
    }
  }
  double s_best = f1 < f2 ? x1 : x2, e_best = std::min(f1, f2);
  if (energies[jmin][nval] <= e_best) s_best = (double)jmin, e_best = energies[jmin][nval];
  const double corner = std::round(s_best / n) * n;
  *at_corner = false;
  if (std::fabs(s_best - corner) < 1e-5) {
    double e = 0;
    PetscCall(conduction(corner, &e));
    if (e <= e_best + 1e-9) s_best = corner, e_best = e, *at_corner = true;
  }
  *s = s_best, *ec = e_best;
  PetscFunctionReturn(0);
}

// Directions of the path through the CBM: every segment that starts or ends at the CBM's point when it is a corner
// (all occurrences of that point), else the CBM's segment; *where names the place.
std::vector<KPoint> CbmDirections(const BandPath &path, double s, bool at_corner, const KPoint &k, std::string *where) {
  std::vector<KPoint> dirs;
  if (at_corner) {
    const int c = (int)std::lround(s / path.points_per_segment);
    *where = path.labels[c];
    for (int i = 0; i < (int)path.corners.size(); ++i) {
      if (norm({path.corners[i][0] - k[0], path.corners[i][1] - k[1], path.corners[i][2] - k[2]}) > 1e-9) continue;
      for (int nb : {i - 1, i + 1})
        if (nb >= 0 && nb < (int)path.corners.size())
          dirs.push_back(unit({path.corners[nb][0] - k[0], path.corners[nb][1] - k[1], path.corners[nb][2] - k[2]}));
    }
    return dirs;
  }
  const PathPosition pos = positionAt(path, s);
  char buf[128];
  std::snprintf(buf, sizeof(buf), "%.3f of the way %s-%s", pos.fraction, path.labels[pos.segment].c_str(),
                path.labels[pos.segment + 1].c_str());
  *where = buf;
  const KPoint &p0 = path.corners[pos.segment], &p1 = path.corners[pos.segment + 1];
  dirs.push_back(unit({p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]}));
  return dirs;
}

// The electron's mass along each distinct direction (named with a positive leading component).
PetscErrorCode ElectronMasses(const BulkBands &bands, const std::vector<KPoint> &dirs, BandAnalysis *a) {
  PetscFunctionBeginUser;
  for (const auto &d : dirs) {
    bool seen = false;
    for (const auto &m : a->electron) seen = seen || std::fabs(std::fabs(dot(m.direction, d)) - 1) < 1e-9;
    if (seen) continue;
    DirectionalMass m;
    KPoint dn = d;
    for (double x : d)
      if (std::fabs(x) > 1e-9) {
        if (x < 0) dn = {-d[0], -d[1], -d[2]};
        break;
      }
    m.direction = dn;
    m.name = DirectionName(dn);
    PetscCall(BandMass(bands, bands.valenceBands(), a->cbm_k, dn, &m.mass));
    a->electron.push_back(m);
  }
  PetscFunctionReturn(0);
}

// Heavy and light holes at Gamma (the top band, and the band below the heavy-hole pair) along [100] and [111].
PetscErrorCode HoleMasses(const BulkBands &bands, BandAnalysis *a) {
  const int nval = bands.valenceBands();
  double m;
  PetscFunctionBeginUser;
  PetscCall(BandMass(bands, nval - 1, {0, 0, 0}, {1, 0, 0}, &m));
  a->m_hh_100 = -m;
  PetscCall(BandMass(bands, nval - 3, {0, 0, 0}, {1, 0, 0}, &m));
  a->m_lh_100 = -m;
  PetscCall(BandMass(bands, nval - 1, {0, 0, 0}, {1, 1, 1}, &m));
  a->m_hh_111 = -m;
  PetscCall(BandMass(bands, nval - 3, {0, 0, 0}, {1, 1, 1}, &m));
  a->m_lh_111 = -m;
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode AnalyzeBands(const BulkBands &bands, const BandPath &path, const std::vector<PathSample> &samples,
                            const std::vector<std::vector<double>> &energies, BandAnalysis *out) {
  BandAnalysis a;
  const int nval = bands.valenceBands();
  std::vector<double> e;
  double s_best = 0, e_best = 0;
  bool at_corner = false;
  PetscFunctionBeginUser;
  PetscCheck(!samples.empty() && samples.size() == energies.size(), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "bands and samples do not match");
  // Valence top, direct gap and spin-orbit splitting at Gamma (bands: s, split-off pair, heavy/light-hole quartet).
  PetscCall(bands.At({0, 0, 0}, &e));
  a.vbm = e[nval - 1];
  a.gamma_gap = e[nval] - a.vbm;
  a.delta_so = bands.model().spin_orbit ? a.vbm - e[nval - 5] : 0;
  PetscCall(FindConductionMinimum(bands, path, samples, energies, &s_best, &e_best, &at_corner));
  const PathPosition pos = positionAt(path, s_best);
  a.cbm = e_best;
  a.cbm_k = pos.k;
  a.cbm_distance = pos.distance;
  a.gap = a.cbm - a.vbm;
  a.direct = norm(a.cbm_k) < 1e-9;
  PetscCall(ElectronMasses(bands, CbmDirections(path, s_best, at_corner, a.cbm_k, &a.cbm_where), &a));
  PetscCall(HoleMasses(bands, &a));
  *out = a;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
