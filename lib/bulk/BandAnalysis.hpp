#pragma once
// The analysis of a band path: band edges, gap, spin-orbit splitting and effective masses from finite differences
// of the unfolded bands (BandUnfolding.hpp).
#include <petscsys.h>

#include <string>
#include <vector>

#include "bulk/BandUnfolding.hpp"
#include "bulk/KPath.hpp"

namespace tbpeta {

// Finite-difference step of the effective masses, 2 pi / a.
inline constexpr double kMassStep = 0.002;

// m*/m0 of band `band` at k along `direction` (any length; normalised), from a central second difference with step
// kMassStep: m*/m0 = 2 hbar^2/(2 m0) / (d2E/dk2). Negative for a band curving down (a hole has -m).
PetscErrorCode BandMass(const BulkBands &bands, int band, KPoint k, KPoint direction, double *mass);

struct DirectionalMass {
  KPoint direction; // unit vector
  std::string name; // e.g. "[100]"
  double mass = 0;  // m*/m0 (positive for electrons at a minimum and holes at a maximum)
};

struct BandAnalysis {
  double vbm = 0;                        // eV, absolute: top valence band at Gamma
  double cbm = 0;                        // eV, absolute: lowest conduction energy along the path (refined)
  KPoint cbm_k{0, 0, 0};                 // 2 pi / a
  double cbm_distance = 0;               // along the path, 2 pi / a
  std::string cbm_where;                 // e.g. "G", or "0.810 of the way G-X"
  bool direct = false;                   // CBM at Gamma
  double gap = 0;                        // cbm - vbm
  double gamma_gap = 0;                  // direct gap at Gamma
  double delta_so = 0;                   // spin-orbit splitting of the valence top at Gamma (0 without spin-orbit)
  std::vector<DirectionalMass> electron; // at the CBM along the path direction(s) through it
  double m_hh_100 = 0, m_lh_100 = 0, m_hh_111 = 0, m_lh_111 = 0; // holes at Gamma (positive)
};

// Band edges, gap, Delta_so and masses of a path whose bands `energies` (from BandsAlongPath) are given; the CBM is
// refined by a golden-section search around the lowest sample. Not collective (every rank gets the same).
PetscErrorCode AnalyzeBands(const BulkBands &bands, const BandPath &path, const std::vector<PathSample> &samples,
                            const std::vector<std::vector<double>> &energies, BandAnalysis *analysis);

// The band edges alone, without the masses: the VBM at Gamma and the CBM along the path, its position found to 1e-4 of
// a sample's spacing, and where it lies (as BandAnalysis::cbm_where). Not collective.
PetscErrorCode FindBandEdges(const BulkBands &bands, const BandPath &path, const std::vector<PathSample> &samples,
                             const std::vector<std::vector<double>> &energies, double *vbm, double *cbm,
                             std::string *cbm_where);

// "[100]"-style name of a direction when it is a small-integer direction, else "(x, y, z)".
std::string DirectionName(KPoint direction);

} // namespace tbpeta
