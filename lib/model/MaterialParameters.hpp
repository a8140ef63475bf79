#pragma once
// The tight-binding parameters of one material in one published set, in two-centre (Slater-Koster) form.
// Naming follows the project's data files: X_a_Y_c = (X Y sigma) with X on the anion and Y on the cation.
#include <string>

namespace tbpeta {

// Basis of one atom. Orbital order everywhere in tbpeta: s, px, py, pz, dxy, dyz, dzx, dx2-y2, d3z2-r2, s*.
// sp3s* uses the subset s, px, py, pz, s* (indices 0,1,2,3,9 of the full order).
enum class BasisModel { sp3sstar, sp3d5sstar };

inline constexpr int kFullOrbitals = 10;
enum Orbital : int { kS = 0, kPx, kPy, kPz, kDxy, kDyz, kDzx, kDx2y2, kDz2, kSstar };

inline int orbitalsPerAtom(BasisModel m) { return m == BasisModel::sp3sstar ? 5 : 10; }

struct OnSiteEnergies {
  double s = 0, p = 0, d = 0, sstar = 0; // eV
  double lambda_so = 0;                  // eV, spin-orbit lambda = Delta/3 on the p orbitals
};

struct TwoCentreIntegrals { // eV; anion-first labels as in the data files
  double ss_sigma = 0, sstar_sstar_sigma = 0, s_a_sstar_c_sigma = 0, sstar_a_s_c_sigma = 0;
  double s_a_p_c_sigma = 0, s_c_p_a_sigma = 0, sstar_a_p_c_sigma = 0, sstar_c_p_a_sigma = 0;
  double s_a_d_c_sigma = 0, s_c_d_a_sigma = 0, sstar_a_d_c_sigma = 0, sstar_c_d_a_sigma = 0;
  double pp_sigma = 0, pp_pi = 0;
  double p_a_d_c_sigma = 0, p_c_d_a_sigma = 0, p_a_d_c_pi = 0, p_c_d_a_pi = 0;
  double dd_sigma = 0, dd_pi = 0, dd_delta = 0;
};

// Keating valence-force-field constants of the binary (N/m), for the relaxation of strained structures; zero when
// the file has none (strain is then refused for the material).
struct KeatingConstants {
  double alpha = 0; // bond stretching
  double beta = 0;  // bond bending
  bool given() const { return alpha > 0; }
};

// How the two-centre integrals and the on-site energies follow a strained bond (Boykin et al., PRB 66, 125207 (2002),
// as NEMO 3-D evaluates them): V(d) = V(d0) (d0/d)^eta per integral type, and the diagonal correction
// scale * C[anion orbital kind][cation orbital kind] * (H0^2 - H^2) / (E'_anion + E'_cation) per bond, where E' is the
// bond's binary's on-site energy minus shift. Absent (given() false) in sets without strain data.
enum OrbitalKind : int { kKindS = 0, kKindP, kKindD, kKindSstar };
struct StrainedBondParameters {
  // Exponents; "s_sstar" applies to both s*_a-s_c and s_a-s*_c, "sp" to s_a-p_c and s_c-p_a, and so on.
  double ss_sigma = 0, sstar_sstar_sigma = 0, s_sstar_sigma = 0, sp_sigma = 0, sstar_p_sigma = 0, sd_sigma = 0,
         sstar_d_sigma = 0;
  double pp_sigma = 0, pp_pi = 0, pd_sigma = 0, pd_pi = 0, dd_sigma = 0, dd_pi = 0, dd_delta = 0;
  bool has_onsite = false;                  // the on-site correction constants below are given
  double onsite_scale = 0;                  // multiplies every on-site correction
  double shift_anion = 0, shift_cation = 0; // eV, the reference energy subtracted from the on-site energies
  double C[4][4] = {};                      // [anion orbital kind][cation orbital kind] (OrbitalKind)
  bool given = false;
  std::string citation;
};

// How the set places its energies: "absolute" sets (the nemo3d family) carry consistent valence-band offsets
// between their materials; "vbm_zero" sets put each material's valence-band top at 0.
enum class EnergyScale { absolute, vbm_zero };

struct MaterialParameters {
  std::string set;      // e.g. "nemo3d"
  std::string material; // e.g. "GaAs"
  std::string anion;    // species on the anion sublattice, e.g. "As" ("Si" for diamond Si)
  std::string cation;   // species on the cation sublattice, e.g. "Ga"
  BasisModel model = BasisModel::sp3d5sstar;
  bool has_spin_orbit = false; // the set carries spin-orbit values
  EnergyScale energy_scale = EnergyScale::vbm_zero;
  double a_lattice = 0; // Angstrom
  OnSiteEnergies anion_onsite, cation_onsite;
  TwoCentreIntegrals bond;
  KeatingConstants keating;        // optional keys keating_alpha, keating_beta
  std::string keating_citation;    // where the Keating numbers come from
  StrainedBondParameters strained; // optional keys eta_*, onsite_*, strain_tb_citation
  std::string citation;            // the paper (and table) the numbers come from
  std::string status;              // cross-check status of the transcription
  std::string source;              // the data file it was read from
};

} // namespace tbpeta
