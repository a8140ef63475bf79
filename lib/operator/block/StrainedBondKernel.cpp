#include "operator/block/StrainedBondKernel.hpp"

#include <algorithm>
#include <cmath>

namespace tbpeta {

RowIntegrals MakeRowIntegrals(const MaterialParameters &m, bool anion_row, bool harrison, double d0sq) {
  const TwoCentreIntegrals &b = m.bond;
  const StrainedBondParameters &e = m.strained;
  RowIntegrals R;
  R.d0sq = d0sq, R.harrison = harrison, R.q0 = m.a_lattice / 10.0 / 4;
  // (row-first value, its exponent); "a" and "c" swap roles for the cation's rows.
  auto set = [&](int k, double anion_first, double cation_first, double eta) {
    R.v[k] = anion_row ? anion_first : cation_first;
    R.half_eta[k] = 0.5 * eta;
    R.max_half_eta = std::max(R.max_half_eta, std::fabs(0.5 * eta));
  };
  set(kRss, b.ss_sigma, b.ss_sigma, e.ss_sigma);
  set(kRsS, b.s_a_sstar_c_sigma, b.sstar_a_s_c_sigma, e.s_sstar_sigma);
  set(kRSs, b.sstar_a_s_c_sigma, b.s_a_sstar_c_sigma, e.s_sstar_sigma);
  set(kRSS, b.sstar_sstar_sigma, b.sstar_sstar_sigma, e.sstar_sstar_sigma);
  set(kRsp, b.s_a_p_c_sigma, b.s_c_p_a_sigma, e.sp_sigma);
  set(kRps, b.s_c_p_a_sigma, b.s_a_p_c_sigma, e.sp_sigma);
  set(kRSp, b.sstar_a_p_c_sigma, b.sstar_c_p_a_sigma, e.sstar_p_sigma);
  set(kRpS, b.sstar_c_p_a_sigma, b.sstar_a_p_c_sigma, e.sstar_p_sigma);
  set(kRsd, b.s_a_d_c_sigma, b.s_c_d_a_sigma, e.sd_sigma);
  set(kRds, b.s_c_d_a_sigma, b.s_a_d_c_sigma, e.sd_sigma);
  set(kRSd, b.sstar_a_d_c_sigma, b.sstar_c_d_a_sigma, e.sstar_d_sigma);
  set(kRdS, b.sstar_c_d_a_sigma, b.sstar_a_d_c_sigma, e.sstar_d_sigma);
  set(kRppS, b.pp_sigma, b.pp_sigma, e.pp_sigma);
  set(kRppP, b.pp_pi, b.pp_pi, e.pp_pi);
  set(kRpdS, b.p_a_d_c_sigma, b.p_c_d_a_sigma, e.pd_sigma);
  set(kRpdP, b.p_a_d_c_pi, b.p_c_d_a_pi, e.pd_pi);
  set(kRdpS, b.p_c_d_a_sigma, b.p_a_d_c_sigma, e.pd_sigma);
  set(kRdpP, b.p_c_d_a_pi, b.p_a_d_c_pi, e.pd_pi);
  set(kRddS, b.dd_sigma, b.dd_sigma, e.dd_sigma);
  set(kRddP, b.dd_pi, b.dd_pi, e.dd_pi);
  set(kRddD, b.dd_delta, b.dd_delta, e.dd_delta);
  return R;
}

} // namespace tbpeta
