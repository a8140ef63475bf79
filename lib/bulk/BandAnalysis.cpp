#include "bulk/BandAnalysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tbpeta {

PetscErrorCode BandMass(const BulkBands &bands, int band, KPoint k, KPoint direction, double *mass) {
  const KPoint u = unit(direction);
  std::vector<double> em, e0, ep;
  PetscFunctionBeginUser;
  PetscCheck(band >= 0 && band < bands.bandCount(), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "band %d out of range",
             band);
  PetscCall(bands.At(k - kMassStep * u, &em));
  PetscCall(bands.At(k, &e0));
  PetscCall(bands.At(k + kMassStep * u, &ep));
  const double dk = kMassStep * 2 * M_PI / bands.latticeConstant();   // 1/Angstrom
  const double d2 = (em[band] - 2 * e0[band] + ep[band]) / (dk * dk); // eV Angstrom^2
  *mass = 2 * kHbar2Over2m0 / d2;
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
// (within the search tolerance) is reported at the corner. A lowest sample at a corner with both neighbours above it
// is the minimum the search would end at (a direct gap): no search then. *s: the path coordinate (in samples), found
// to `tolerance`.
PetscErrorCode FindConductionMinimum(const BulkBands &bands, const BandPath &path,
                                     const std::vector<PathSample> &samples,
                                     const std::vector<std::vector<double>> &energies, double tolerance, double *s,
                                     double *ec, bool *at_corner) {
  const int nval = bands.valenceBands(), n = path.points_per_segment;
  PetscFunctionBeginUser;
  size_t jmin = 0;
  for (size_t j = 1; j < samples.size(); ++j)
    if (energies[j][nval] < energies[jmin][nval]) jmin = j;
  const double lowest = energies[jmin][nval];
  if (jmin % n == 0 && (jmin == 0 || energies[jmin - 1][nval] > lowest) &&
      (jmin + 1 == samples.size() || energies[jmin + 1][nval] > lowest)) {
    *s = (double)jmin, *ec = lowest, *at_corner = true;
    PetscFunctionReturn(0);
  }
  auto conduction = [&](double x, double *e) -> PetscErrorCode {
    std::vector<double> v;
    PetscFunctionBeginUser;
    PetscCall(bands.At(PositionOnPath(path, x).k, &v));
    *e = v[nval];
    PetscFunctionReturn(0);
  };
  double lo = std::max(0.0, (double)jmin - 1), hi = std::min((double)(samples.size() - 1), (double)jmin + 1);
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo), f1 = 0, f2 = 0;
  PetscCall(conduction(x1, &f1));
  PetscCall(conduction(x2, &f2));
  while (hi - lo > tolerance) {
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
      if (norm(path.corners[i] - k) > 1e-9) continue;
      for (int nb : {i - 1, i + 1})
        if (nb >= 0 && nb < (int)path.corners.size()) dirs.push_back(unit(path.corners[nb] - k));
    }
    return dirs;
  }
  const PathPosition pos = PositionOnPath(path, s);
  char buf[128];
  std::snprintf(buf, sizeof(buf), "%.3f of the way %s-%s", pos.fraction, path.labels[pos.segment].c_str(),
                path.labels[pos.segment + 1].c_str());
  *where = buf;
  dirs.push_back(unit(path.step(pos.segment)));
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
        if (x < 0) dn = -d;
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
  PetscCall(FindConductionMinimum(bands, path, samples, energies, 1e-7, &s_best, &e_best, &at_corner));
  const PathPosition pos = PositionOnPath(path, s_best);
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

PetscErrorCode FindBandEdges(const BulkBands &bands, const BandPath &path, const std::vector<PathSample> &samples,
                             const std::vector<std::vector<double>> &energies, double *vbm, double *cbm,
                             std::string *cbm_where) {
  std::vector<double> e;
  double s = 0;
  bool at_corner = false;
  PetscFunctionBeginUser;
  PetscCheck(!samples.empty() && samples.size() == energies.size(), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "bands and samples do not match");
  const int nval = bands.valenceBands();
  size_t gamma = samples.size();
  for (size_t j = 0; j < samples.size() && gamma == samples.size(); ++j)
    if (norm(samples[j].k) < 1e-12) gamma = j;
  if (gamma < samples.size()) *vbm = energies[gamma][nval - 1];
  else {
    PetscCall(bands.At({0, 0, 0}, &e));
    *vbm = e[nval - 1];
  }
  PetscCall(FindConductionMinimum(bands, path, samples, energies, 1e-4, &s, cbm, &at_corner));
  (void)CbmDirections(path, s, at_corner, PositionOnPath(path, s).k, cbm_where);
  PetscFunctionReturn(0);
}

} // namespace tbpeta
