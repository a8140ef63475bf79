#include "model/StrainedBonds.hpp"

#include <cmath>

namespace tbpeta {

std::string StrainedHamiltonian::describe() const {
  if (!on) return "ideal bonds";
  if (scaling == BondScaling::harrison)
    return "relaxed bonds (Harrison d^-2 scaling of every integral, no on-site correction: an approximation)";
  return std::string("relaxed bonds (eta of the parameter set, on-site correction ") + (onsite ? "boykin)" : "none)");
}

std::array<double, 3> StrainedIdealBond(const std::array<int, 3> &signs, double q, const std::array<double, 6> &eps) {
  const double d[3] = {signs[0] * q, signs[1] * q, signs[2] * q};
  const double e[3][3] = {{eps[0], eps[5], eps[4]}, {eps[5], eps[1], eps[3]}, {eps[4], eps[3], eps[2]}};
  std::array<double, 3> r;
  for (int a = 0; a < 3; ++a) r[a] = d[a] + (e[a][0] * d[0] + e[a][1] * d[1] + e[a][2] * d[2]);
  return r;
}

BondVector MakeBondVector(const std::array<int, 3> &signs, double q, const std::array<double, 6> &eps,
                          const std::array<double, 3> &du) {
  const std::array<double, 3> d = StrainedIdealBond(signs, q, eps);
  const double r[3] = {d[0] + du[0], d[1] + du[1], d[2] + du[2]};
  BondVector v;
  v.length2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const bool box_strained = eps != std::array<double, 6>{0, 0, 0, 0, 0, 0};
  if (!box_strained && du[0] == 0 && du[1] == 0 &&
      du[2] == 0) { // the ideal direction, with the unstrained block's own numbers
    const double inv = 1.0 / std::sqrt(3.0);
    v.l = signs[0] * inv, v.m = signs[1] * inv, v.n = signs[2] * inv;
    return v;
  }
  const double inv = 1.0 / std::sqrt(v.length2);
  v.l = r[0] * inv, v.m = r[1] * inv, v.n = r[2] * inv;
  return v;
}

double UnstrainedBondLength2(const MaterialParameters &m) {
  const double q = m.a_lattice / 10.0 / 4;
  return q * q + q * q + q * q;
}

TwoCentreIntegrals ScaledIntegrals(const MaterialParameters &m, BondScaling scaling, double length2) {
  const double ratio2 = UnstrainedBondLength2(m) / length2; // (d0/d)^2
  TwoCentreIntegrals v = m.bond;
  if (ratio2 == 1) return v;
  const StrainedBondParameters &e = m.strained;
  const bool harrison = scaling == BondScaling::harrison;
  auto f = [&](double eta) { return harrison ? ratio2 : std::pow(ratio2, 0.5 * eta); };
  const double ss = f(e.ss_sigma), xx = f(e.sstar_sstar_sigma), sx = f(e.s_sstar_sigma), sp = f(e.sp_sigma),
               xp = f(e.sstar_p_sigma);
  const double sd = f(e.sd_sigma), xd = f(e.sstar_d_sigma), pps = f(e.pp_sigma), ppp = f(e.pp_pi), pds = f(e.pd_sigma),
               pdp = f(e.pd_pi);
  v.ss_sigma *= ss, v.sstar_sstar_sigma *= xx, v.s_a_sstar_c_sigma *= sx, v.sstar_a_s_c_sigma *= sx;
  v.s_a_p_c_sigma *= sp, v.s_c_p_a_sigma *= sp, v.sstar_a_p_c_sigma *= xp, v.sstar_c_p_a_sigma *= xp;
  v.s_a_d_c_sigma *= sd, v.s_c_d_a_sigma *= sd, v.sstar_a_d_c_sigma *= xd, v.sstar_c_d_a_sigma *= xd;
  v.pp_sigma *= pps, v.pp_pi *= ppp;
  v.p_a_d_c_sigma *= pds, v.p_c_d_a_sigma *= pds, v.p_a_d_c_pi *= pdp, v.p_c_d_a_pi *= pdp;
  v.dd_sigma *= f(e.dd_sigma), v.dd_pi *= f(e.dd_pi), v.dd_delta *= f(e.dd_delta);
  return v;
}

OrbitalBlock StrainedBondBlock(const MaterialParameters &m, BondScaling scaling, const BondVector &v) {
  return anionCationBlock(ScaledIntegrals(m, scaling, v.length2), v.l, v.m, v.n);
}

namespace {

OrbitalKind KindOf(int orbital) {
  if (orbital == kS) return kKindS;
  if (orbital == kSstar) return kKindSstar;
  return orbital <= kPz ? kKindP : kKindD;
}

double Energy(const OnSiteEnergies &e, int orbital) {
  switch (KindOf(orbital)) {
  case kKindS: return e.s;
  case kKindP: return e.p;
  case kKindD: return e.d;
  default: return e.sstar;
  }
}

} // namespace

void AddOnsiteCorrection(const MaterialParameters &m, double vbo, const OrbitalBlock &H0, const OrbitalBlock &H,
                         const int *orbs, int norb, bool anion_side, std::array<double, kFullOrbitals> *diag) {
  const StrainedBondParameters &p = m.strained;
  if (!p.has_onsite) return;
  for (int x = 0; x < norb; ++x) { // the orbital of the corrected atom
    double sum = 0;
    for (int y = 0; y < norb; ++y) { // every orbital of the other atom, in basis order
      const int a = anion_side ? orbs[x] : orbs[y], c = anion_side ? orbs[y] : orbs[x];
      const double h0 = H0[a][c], h = H[a][c];
      const double denominator =
          (Energy(m.anion_onsite, a) + vbo - p.shift_anion) + (Energy(m.cation_onsite, c) + vbo - p.shift_cation);
      sum += p.C[KindOf(a)][KindOf(c)] * (h0 * h0 - h * h) / denominator;
    }
    (*diag)[orbs[x]] += p.onsite_scale * sum;
  }
}

} // namespace tbpeta
