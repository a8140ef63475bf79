#include "optics/OpticalTransitions.hpp"

#include <cmath>
#include <complex>

namespace tbpeta {

std::vector<Level> GroupLevels(const std::vector<double> &energies, double tolerance) {
  std::vector<Level> levels;
  for (size_t k = 0; k < energies.size(); ++k) {
    if (!levels.empty() && energies[k] - energies[k - 1] <= tolerance) {
      Level &l = levels.back();
      l.energy = (l.energy * (double)l.count + energies[k]) / (double)(l.count + 1);
      ++l.count;
    } else levels.push_back({k, 1, energies[k]});
  }
  return levels;
}

double RadiativeRate(double energy, double f_sum, double refractive_index) {
  // CODATA 2018
  constexpr double e = 1.602176634e-19, eps0 = 8.8541878128e-12, m0 = 9.1093837015e-31, c = 299792458.0,
                   hbar = 1.054571817e-34;
  const double w = energy * e / hbar;
  return refractive_index * e * e * w * w * f_sum / (6 * M_PI * eps0 * m0 * c * c * c);
}

namespace {

// |e.M|^2 for the five polarisations.
std::array<double, kPolarisations> Projections(const std::array<std::complex<double>, 3> &m) {
  const double s = 1 / std::sqrt(2.0);
  const std::complex<double> p110 = s * (m[0] + m[1]), p1m10 = s * (m[0] - m[1]);
  return {std::norm(m[0]), std::norm(m[1]), std::norm(m[2]), std::norm(p110), std::norm(p1m10)};
}

double Ratio(double a, double b) { return a + b > 0 ? (a - b) / (a + b) : 0.0; }

} // namespace

std::vector<Transition> ComputeTransitions(const MomentumElements &M, const std::vector<double> &energies_c,
                                           const std::vector<double> &energies_v, double tolerance,
                                           double refractive_index, std::vector<Level> *levels_c,
                                           std::vector<Level> *levels_v) {
  *levels_c = GroupLevels(energies_c, tolerance);
  *levels_v = GroupLevels(energies_v, tolerance);
  std::vector<Transition> out;
  for (size_t lc = 0; lc < levels_c->size(); ++lc)
    for (size_t lv = 0; lv < levels_v->size(); ++lv) {
      const Level &C = (*levels_c)[lc], &V = (*levels_v)[lv];
      Transition t;
      t.c_level = lc, t.v_level = lv, t.energy = C.energy - V.energy;
      for (size_t ic = C.first; ic < C.first + C.count; ++ic)
        for (size_t iv = V.first; iv < V.first + V.count; ++iv) {
          const auto p = Projections(M.at(ic, iv));
          for (int e = 0; e < kPolarisations; ++e) t.momentum2[e] += p[e] / kHbar2Over2m0EvNm2;
        }
      for (int e = 0; e < kPolarisations; ++e) t.f[e] = t.energy > 0 ? t.momentum2[e] / t.energy : 0.0;
      t.te = 0.5 * (t.momentum2[0] + t.momentum2[1]), t.tm = t.momentum2[2];
      t.dop = {Ratio(t.momentum2[3], t.tm), Ratio(t.momentum2[4], t.tm)};
      t.anisotropy = Ratio(t.momentum2[3], t.momentum2[4]);
      t.rate = RadiativeRate(t.energy, t.f[0] + t.f[1] + t.f[2], refractive_index) / (double)C.count;
      t.lifetime = t.rate > 0 ? 1 / t.rate : INFINITY;
      out.push_back(t);
    }
  return out;
}

} // namespace tbpeta
