#pragma once
// Bulk band structure of one material of a model, from the same periodic 8-atom cubic cell and stored Hamiltonian
// as any structure (no separate small code). H(k) of the cubic cell holds the fcc (primitive) bands at k + G for the
// four G in {0, (1,0,0), (0,1,0), (0,0,1)} (2 pi / a). Projecting its eigenvectors onto the fcc translations
//   P(k) = 1/4 sum_t exp(-i k.t) T_t,  t in {0, (0,2,2), (2,0,2), (2,2,0)} (planes, a/4),
// with (T_t c)(atom r) = c(atom r') exp(i k.W) for r + t = r' + W (r' in the cell, W the wrap removed: the phase
// convention of AssembleHamiltonian), unfolds them: the multiplicity of the primitive band at k in a degenerate
// group of eigenvalues is Re tr(V^H P V). Every k gives exactly 2 atoms x rows per atom primitive bands (checked).
// Also: band paths through the fcc high-symmetry points, and an analysis of a path (band edges, gap, spin-orbit
// splitting, effective masses).
#include <petscsys.h>

#include <array>
#include <string>
#include <vector>

#include "model/BulkCell.hpp"

namespace tbpeta {

using KPoint = std::array<double, 3>; // units of 2 pi / a

// hbar^2 / (2 m0) in eV Angstrom^2.
inline constexpr double kHbar2Over2m0 = 3.80998;
// Finite-difference step of the effective masses, 2 pi / a.
inline constexpr double kMassStep = 0.002;

// The high-symmetry points of the fcc Brillouin zone that a path may use (2 pi / a):
// G = (0,0,0), X = (1,0,0), W = (1,1/2,0), L = (1/2,1/2,1/2), K = (3/4,3/4,0), U = (1,1/4,1/4).
struct SymmetryPoint {
  char letter;
  KPoint k;
};
const std::vector<SymmetryPoint> &HighSymmetryPoints();
inline constexpr const char *kDefaultBandPath = "G,X,W,L,G,K";
inline constexpr int kDefaultPointsPerSegment = 40;

struct BandPath {
  std::vector<std::string> labels; // one letter per corner
  std::vector<KPoint> corners;
  int points_per_segment = kDefaultPointsPerSegment;
  int segments() const { return (int)corners.size() - 1; }
};

// Parses a comma-separated list of point letters (e.g. "G,X,W,L,G,K"). One-line PETSC_ERR_USER_INPUT naming -path
// (and listing the allowed letters) for an unknown letter, fewer than 2 points or two equal consecutive points.
PetscErrorCode ParseBandPath(MPI_Comm comm, const std::string &spec, int points_per_segment, BandPath *path);
// Reads -path (default kDefaultBandPath) and -points_per_segment (default 40, >= 1). Collective.
PetscErrorCode BandPathFromOptions(MPI_Comm comm, BandPath *path);

struct PathSample {
  KPoint k;
  double distance = 0; // cumulative path length, 2 pi / a
  int segment = 0;   // segment the sample belongs to (a corner belongs to the segment it starts; the last to the last)
  std::string label; // the corner's letter, empty between corners
};
// points_per_segment samples per segment, corners shared: segments * points_per_segment + 1 samples.
std::vector<PathSample> SamplePath(const BandPath &path);

// The primitive (fcc) bands of one material of a model. Holds the periodic 1x1x1 cubic cell; every evaluation
// assembles H(k) on PETSC_COMM_SELF and diagonalises it densely (not collective).
class BulkBands {
public:
  // eps: a homogeneous strain (Voigt, tensor components) of the crystal, its atoms relaxed inside (StrainedBulk.hpp);
  // k is then in units of the strained cell's reciprocal vectors (the same fractions: X stays X).
  static PetscErrorCode Create(const TightBindingModel &model, int material, BulkBands *out,
                               const std::array<double, 6> &eps = {0, 0, 0, 0, 0, 0});
  // All primitive band energies at k (eV, absolute, ascending); exactly bandCount() of them.
  PetscErrorCode At(KPoint k, std::vector<double> *energies) const;
  // The primitive states at k: each degenerate group of the cubic cell's eigenvectors V projected by P(k), its range
  // (of dimension the group's multiplicity) orthonormalised; in the cubic cell's basis at k, as cell() builds H(k).
  struct PrimitiveStates {
    std::vector<double> energies;     // bandCount() of them, eV, absolute, ascending
    std::vector<PetscScalar> vectors; // column j (rows entries) belongs to energies[j]
    PetscInt rows = 0;                // rows of the cubic cell's H
  };
  PetscErrorCode States(KPoint k, PrimitiveStates *states) const;
  const BulkCell &cell() const { return cell_; }
  int bandCount() const { return 2 * model().blockSize(); }
  int valenceBands() const { return 4 * (model().spin_orbit ? 2 : 1); }     // 4 per atom pair, x2 with spin
  double latticeConstant() const { return model().materials[0].a_lattice; } // Angstrom
  const TightBindingModel &model() const { return cell_.model; }

private:
  BulkCell cell_; // the one material's cubic cell
  struct Image {
    int atom;                // site index of r' = r + t wrapped into the cell
    std::array<int, 3> wrap; // W in planes
  };
  std::array<std::array<Image, 8>, 4> images_; // per fcc translation t, per atom r
};

// m*/m0 of band `band` at k along `direction` (any length; normalised), from a central second difference with step
// kMassStep: m*/m0 = 2 hbar^2/(2 m0) / (d2E/dk2). Negative for a band curving down (a hole has -m).
PetscErrorCode BandMass(const BulkBands &bands, int band, KPoint k, KPoint direction, double *mass);

// The bands at every sample (rows: samples; columns: bands, absolute eV), the samples shared round-robin over the
// ranks of comm and gathered on all. Collective.
PetscErrorCode BandsAlongPath(MPI_Comm comm, const BulkBands &bands, const std::vector<PathSample> &samples,
                              std::vector<std::vector<double>> *energies);

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

// "[100]"-style name of a direction when it is a small-integer direction, else "(x, y, z)".
std::string DirectionName(KPoint direction);

} // namespace tbpeta
