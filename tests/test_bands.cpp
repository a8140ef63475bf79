// Bulk band structure by unfolding the periodic 8-atom cubic cell: the primitive (fcc) levels at Gamma, X and L of
// every shipped set against the check values, a general k, the band count at every k, effective masses, the
// indirect gap of Si, the gap of GaAs, -path errors, and the tbpeta-bands executable writing its CSV and PNG.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bulk_check_values.hpp"
#include "system_fixture.hpp"
#include "bulk/BandAnalysis.hpp"
#include "bulk/BandUnfolding.hpp"
#include "bulk/KPath.hpp"
#include "bulk/DeformationPotentials.hpp"
#include "bulk/KaneEnergy.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::test::Quietly;
namespace fs = std::filesystem;

namespace {

// The model of `options` (-params, -material, ...), read as tbpeta-bands reads it.
PetscErrorCode ModelFromOptions(const std::string &options, TightBindingModel *model) {
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsClear(nullptr));
  PetscCall(PetscOptionsInsertString(nullptr, options.c_str()));
  ModelSpec spec;
  PetscCall(ModelSpecFromOptions(PETSC_COMM_WORLD, ModelSpec{}, {ModelSpec{}.host}, &spec));
  PetscCall(LoadTightBindingModel(PETSC_COMM_WORLD, spec, {}, model));
  PetscFunctionReturn(0);
}

PetscErrorCode Bands(const std::string &options, BulkBands *bands) {
  TightBindingModel model;
  PetscFunctionBeginUser;
  PetscCall(ModelFromOptions(options, &model));
  PetscCall(BulkBands::Create(model, 0, bands));
  PetscFunctionReturn(0);
}

PetscErrorCode Analyze(const std::string &options, const std::string &path_spec, int points, BandAnalysis *a) {
  BulkBands bands;
  BandPath path;
  std::vector<std::vector<double>> e;
  PetscFunctionBeginUser;
  PetscCall(Bands(options, &bands));
  PetscCall(ParseBandPath(PETSC_COMM_WORLD, path_spec, points, &path));
  const auto samples = SamplePath(path);
  PetscCall(BandsAlongPath(PETSC_COMM_WORLD, bands, samples, &e));
  PetscCall(AnalyzeBands(bands, path, samples, e, a));
  PetscFunctionReturn(0);
}

// The lowest primitive bands at k, relative to `vbm`, are exactly the check levels (each repeated by its degeneracy).
void ExpectLowestLevels(const std::vector<double> &e, double vbm, const std::vector<std::pair<double, int>> &levels,
                        const std::string &what) {
  std::vector<double> want;
  for (const auto &[v, m] : levels)
    for (int i = 0; i < m; ++i) want.push_back(v);
  ASSERT_GE(e.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(e[i] - vbm, want[i], 1e-4) << what << ": band " << i;
}

} // namespace

// Every shipped set and material: the unfolded bands at Gamma, X and L are the check values, level by level with
// their degeneracies (the cubic-cell spectra hold them too, but mixed with the folded points).
TEST(Bands, UnfoldedLevelsAtGammaXLMatchTheCheckValues) {
  TBPETA_ASSERT_RANKS();
  int checked = 0;
  bool gaas_nemo = false, gaas_vogl = false, si_jancu = false;
  for (const auto &ref : tbpeta::test::bulkCheckValues()) {
    const std::string what = std::string(ref.set) + " " + ref.material;
    BulkBands bands;
    ASSERT_EQ(Bands(std::string("-params ") + ref.set + " -material " + ref.material, &bands), 0) << what;
    std::vector<double> g, x, l;
    ASSERT_EQ(bands.At({0, 0, 0}, &g), 0) << what;
    ASSERT_EQ(bands.At({1, 0, 0}, &x), 0) << what;
    ASSERT_EQ(bands.At({0.5, 0.5, 0.5}, &l), 0) << what;
    for (const auto *e : {&g, &x, &l}) ASSERT_EQ((int)e->size(), bands.bandCount()) << what;
    const double vbm = g[bands.valenceBands() - 1];
    ExpectLowestLevels(g, vbm, ref.gamma, what + " G");
    ExpectLowestLevels(x, vbm, ref.x, what + " X");
    ExpectLowestLevels(l, vbm, ref.l, what + " L");
    ++checked;
    gaas_nemo = gaas_nemo || what == "nemo3d GaAs";
    gaas_vogl = gaas_vogl || what == "vogl1983 GaAs";
    si_jancu = si_jancu || what == "jancu1998 Si";
  }
  EXPECT_TRUE(gaas_nemo && gaas_vogl && si_jancu);
  EXPECT_EQ(checked, 15);
}

TEST(Bands, GeneralKOfGaAsVogl) {
  TBPETA_ASSERT_RANKS();
  BulkBands bands;
  ASSERT_EQ(Bands("-params vogl1983 -material GaAs", &bands), 0);
  ASSERT_EQ(bands.bandCount(), 10);
  ASSERT_EQ(bands.valenceBands(), 4);
  std::vector<double> g, e;
  ASSERT_EQ(bands.At({0, 0, 0}, &g), 0);
  ASSERT_EQ(bands.At({0.3, 0.2, 0.1}, &e), 0);
  EXPECT_NEAR(e[4] - g[3], 2.4125, 1e-3);
}

// Exactly 2 atoms x rows per atom bands at any k (the unfolding checks it and fails otherwise), and the same bands
// at k and k + an fcc reciprocal-lattice vector: the projection picks k itself, not one of its folded partners.
TEST(Bands, EveryKGivesTheRightBandsPeriodicInTheFccReciprocalLattice) {
  TBPETA_ASSERT_RANKS();
  const KPoint ks[] = {{0, 0, 0},       {0.3, 0.2, 0.1},        {1, 0.5, 0}, {0.75, 0.75, 0}, {1, 0.25, 0.25},
                       {0.5, 0.5, 0.5}, {0.123, -0.456, 0.789}, {0.5, 0, 0}, {1.3, 0.7, -0.4}};
  for (const char *o : {"-params nemo3d -material InAs", "-params klimeck2000 -material AlAs",
                        "-params vogl1983 -material Si", "-params jancu1998 -material Si -tb_spin_orbit 0"}) {
    BulkBands bands;
    ASSERT_EQ(Bands(o, &bands), 0) << o;
    const int want = 2 * bands.model().blockSize();
    EXPECT_EQ(bands.bandCount(), want);
    for (const auto &k : ks) {
      std::vector<double> e, f, h;
      ASSERT_EQ(bands.At(k, &e), 0) << o;
      EXPECT_EQ((int)e.size(), want) << o;
      ASSERT_EQ(bands.At({k[0] + 1, k[1] + 1, k[2] + 1}, &f), 0) << o; // (1,1,1): fcc reciprocal lattice
      ASSERT_EQ(bands.At({k[0] + 2, k[1], k[2]}, &h), 0) << o;         // (2,0,0): fcc reciprocal lattice
      ASSERT_EQ(f.size(), e.size());
      ASSERT_EQ(h.size(), e.size());
      for (size_t i = 0; i < e.size(); ++i) {
        EXPECT_NEAR(f[i], e[i], 1e-9) << o << " band " << i;
        EXPECT_NEAR(h[i], e[i], 1e-9) << o << " band " << i;
      }
    }
  }
  // X and (0,0,1) are the same point, but k and k + (1,0,0) are not: (0.3,0.2,0.1) and (1.3,0.2,0.1) differ.
  BulkBands bands;
  ASSERT_EQ(Bands("-params vogl1983 -material GaAs", &bands), 0);
  std::vector<double> a, b;
  ASSERT_EQ(bands.At({0.3, 0.2, 0.1}, &a), 0);
  ASSERT_EQ(bands.At({1.3, 0.2, 0.1}, &b), 0);
  double diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff = std::max(diff, std::fabs(a[i] - b[i]));
  EXPECT_GT(diff, 0.1);
  // Along a whole path (with its band window) through every allowed letter.
  BandPath path;
  ASSERT_EQ(ParseBandPath(PETSC_COMM_WORLD, "G,X,W,L,G,K,U,X", 7, &path), 0);
  const auto samples = SamplePath(path);
  EXPECT_EQ(samples.size(), 7u * 7 + 1);
  std::vector<std::vector<double>> e;
  ASSERT_EQ(BandsAlongPath(PETSC_COMM_WORLD, bands, samples, &e), 0);
  for (const auto &row : e) EXPECT_EQ((int)row.size(), bands.bandCount());
}

namespace {

double RelativeGap(const BandEdgeMomentum &a, const BandEdgeMomentum &b, std::array<int, 3> axes = {0, 1, 2}) {
  double d = 0, scale = 1e-30;
  for (int i = 0; i < 3; ++i) {
    d = std::max(d, std::fabs(a.p[i] - b.p[axes[i]]));
    scale = std::max(scale, std::fabs(a.p[i]));
  }
  return d / scale;
}

} // namespace

// The band edges' momentum elements are a property of the primitive k, not of the cubic cell's basis: the same at
// k, at k + an fcc reciprocal-lattice vector and at -k (time reversal); the mirror x <-> y of Td swaps P_x and P_y;
// at Gamma they are the Kane energy along every axis, over the 6 + 2 states of the p manifold and Gamma6.
TEST(Bands, BandEdgeMomentaAreOfThePrimitiveK) {
  TBPETA_ASSERT_RANKS();
  for (const char *o : {"-params nemo3d -material GaAs", "-params jancu1998 -material Si"}) {
    BulkBands bands;
    ASSERT_EQ(Bands(o, &bands), 0) << o;
    for (const KPoint &k : {KPoint{0.3, 0.2, 0.1}, KPoint{1, 0.5, 0}, KPoint{0.5, 0.5, 0.5}, KPoint{0.62, -0.1, 0.2}}) {
      BandEdgeMomentum m, shifted, reversed, mirrored;
      ASSERT_EQ(BandEdgeMomentumAt(bands, k, &m), 0) << o;
      ASSERT_EQ(BandEdgeMomentumAt(bands, {k[0] + 1, k[1] + 1, k[2] + 1}, &shifted), 0) << o;
      ASSERT_EQ(BandEdgeMomentumAt(bands, {-k[0], -k[1], -k[2]}, &reversed), 0) << o;
      ASSERT_EQ(BandEdgeMomentumAt(bands, {k[1], k[0], k[2]}, &mirrored), 0) << o;
      EXPECT_GT(m.p[0] + m.p[1] + m.p[2], 0.01) << o;
      EXPECT_LT(RelativeGap(m, shifted), 1e-8) << o << " k " << k[0] << "," << k[1] << "," << k[2];
      EXPECT_LT(RelativeGap(m, reversed), 1e-8) << o << " k " << k[0] << "," << k[1] << "," << k[2];
      EXPECT_LT(RelativeGap(m, mirrored, {1, 0, 2}), 1e-8) << o << " k " << k[0] << "," << k[1] << "," << k[2];
      EXPECT_EQ(m.valence, shifted.valence) << o;
      EXPECT_EQ(m.conduction, shifted.conduction) << o;
    }
  }
  TightBindingModel model;
  BulkBands bands;
  BandEdgeMomentum g;
  double ep = 0;
  ASSERT_EQ(ModelFromOptions("-params nemo3d -material GaAs", &model), 0);
  ASSERT_EQ(BulkBands::Create(model, 0, &bands), 0);
  ASSERT_EQ(BandEdgeMomentumAt(bands, {0, 0, 0}, &g), 0);
  bool defined = false;
  ASSERT_EQ(KaneEnergy(bands, &ep, &defined), 0);
  EXPECT_TRUE(defined);
  EXPECT_EQ(g.valence, 6);
  EXPECT_EQ(g.conduction, 2);
  for (double p : g.p) EXPECT_NEAR(p / ep, 1, 1e-10);
  EXPECT_NEAR(ep, 23.639, 1e-3); // docs/optics.md's table
  BulkBands si;
  ASSERT_EQ(Bands("-params jancu1998 -material Si", &si), 0);
  ASSERT_EQ(KaneEnergy(si, &ep, &defined), 0);
  EXPECT_FALSE(defined); // silicon's lowest conduction level at Gamma is p-like
  PetscOptionsClear(nullptr);
}

TEST(Bands, ElectronMassAtGammaOfGaAs) {
  TBPETA_ASSERT_RANKS();
  for (const auto &[set, mass] : {std::pair<const char *, double>{"nemo3d", 0.0663}, {"jancu1998", 0.0670}}) {
    BulkBands bands;
    ASSERT_EQ(Bands(std::string("-params ") + set + " -material GaAs", &bands), 0);
    double m = 0;
    ASSERT_EQ(BandMass(bands, bands.valenceBands(), {0, 0, 0}, {1, 0, 0}, &m), 0);
    EXPECT_NEAR(m, mass, 0.001) << set;
  }
}

TEST(Bands, SiliconIndirectGapAlongGammaX) {
  TBPETA_ASSERT_RANKS();
  BandAnalysis a;
  ASSERT_EQ(Analyze("-params nemo3d -material Si", "G,X", 20, &a), 0);
  EXPECT_FALSE(a.direct);
  EXPECT_NEAR(a.cbm_k[0], 0.81, 0.01);
  EXPECT_NEAR(a.cbm_k[1], 0, 1e-12);
  EXPECT_NEAR(a.cbm_k[2], 0, 1e-12);
  EXPECT_NEAR(a.gap, 1.1312, 1e-3);
  EXPECT_NEAR(a.delta_so, 0.0472, 1e-4);
  ASSERT_EQ(a.electron.size(), 1u);
  EXPECT_EQ(a.electron[0].name, "[100]");
  EXPECT_GT(a.electron[0].mass, 0.5); // the heavy longitudinal mass of the Delta valley
  EXPECT_GT(a.m_hh_100, 0);
  EXPECT_GT(a.m_lh_100, 0);
}

TEST(Bands, GapOfGaAsJancuIsDirect) {
  TBPETA_ASSERT_RANKS();
  BandAnalysis a;
  ASSERT_EQ(Analyze("-params jancu1998 -material GaAs", kDefaultBandPath, 8, &a), 0);
  EXPECT_TRUE(a.direct);
  EXPECT_NEAR(a.gap, 1.519, 5e-4);
  EXPECT_NEAR(a.gamma_gap, a.gap, 1e-12);
  EXPECT_NEAR(a.delta_so, 0.3399, 1e-4);
  EXPECT_EQ(a.cbm_where, "G");
  // The CBM at G: masses along the three directions of the path through G; all close to the [100] mass.
  ASSERT_EQ(a.electron.size(), 3u);
  EXPECT_EQ(a.electron[0].name, "[100]");
  for (const auto &m : a.electron) EXPECT_NEAR(m.mass, 0.067, 0.002) << m.name;
  EXPECT_GT(a.m_hh_100, a.m_lh_100);
  EXPECT_GT(a.m_hh_111, a.m_hh_100);
}

TEST(Bands, BadPathIsAUserInputError) {
  TBPETA_ASSERT_RANKS();
  BandPath path;
  for (const char *bad : {"G,Q", "G", "", "G,X,,L", "G,G,X", "Gamma,X", "g,x"})
    EXPECT_EQ(Quietly([&] { return ParseBandPath(PETSC_COMM_WORLD, bad, 10, &path); }), PETSC_ERR_USER_INPUT) << bad;
  EXPECT_EQ(Quietly([&] { return ParseBandPath(PETSC_COMM_WORLD, "G,X", 0, &path); }), PETSC_ERR_USER_INPUT);
  ASSERT_EQ(ParseBandPath(PETSC_COMM_WORLD, " G, X ,U", 3, &path), 0);
  EXPECT_EQ(path.labels, (std::vector<std::string>{"G", "X", "U"}));
  // Through the options, as the executable reads them: the default, and a bad letter.
  ASSERT_EQ(PetscOptionsClear(nullptr), 0);
  ASSERT_EQ(BandPathFromOptions(PETSC_COMM_WORLD, &path), 0);
  EXPECT_EQ(path.labels, (std::vector<std::string>{"G", "X", "W", "L", "G", "K"}));
  EXPECT_EQ(path.points_per_segment, 40);
  ASSERT_EQ(PetscOptionsInsertString(nullptr, "-path G,X,Z"), 0);
  EXPECT_EQ(Quietly([&] { return BandPathFromOptions(PETSC_COMM_WORLD, &path); }), PETSC_ERR_USER_INPUT);
  ASSERT_EQ(PetscOptionsClear(nullptr), 0);
}

namespace {

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

std::string Slurp(const fs::path &p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs tbpeta-bands as a user would (a process of its own: the variables of the MPI launcher this test runs under
// are removed so that it starts as a singleton).
RunResult RunBands(const fs::path &dir, const std::string &args) {
  const char *bin = std::getenv("TBPETA_BIN");
  std::string cmd = "cd '" + dir.string() + "' && " + tbpeta::test::CleanMpiEnvironment();
  cmd += " " + std::string(bin ? bin : "bin") + "/tbpeta-bands " + args + " >stdout.txt 2>stderr.txt";
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(dir / "stdout.txt");
  r.err = Slurp(dir / "stderr.txt");
  return r;
}

} // namespace

TEST(Bands, ExecutableWritesCsvAndPng) {
  TBPETA_ASSERT_RANKS();
  if (tbpeta::test::commRank() != 0) return;
  const fs::path dir = fs::current_path() / "test_bands_scratch";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const RunResult r = RunBands(dir, "-params vogl1983 -material GaAs -points_per_segment 5 -csv b.csv -png b.png");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("gap            1.5500 eV, direct at G"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("electron mass"), std::string::npos) << r.out;
  std::ifstream csv(dir / "b.csv");
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(csv, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 1u + 5 * 5 + 1); // header + G,X,W,L,G,K at 5 points per segment
  EXPECT_EQ(lines[0].rfind("k_distance_2pi_over_a,kx,ky,kz,label,band_0,", 0), 0u) << lines[0];
  for (const auto &l : lines) EXPECT_EQ(std::count(l.begin(), l.end(), ','), 5 + 10 - 1) << l;
  EXPECT_EQ(lines[1].rfind("0.00000000,0.00000000,0.00000000,0.00000000,G,", 0), 0u) << lines[1];
  EXPECT_NE(lines.back().find(",K,"), std::string::npos) << lines.back();
  const std::string png = Slurp(dir / "b.png");
  ASSERT_GE(png.size(), 8u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  for (const auto &e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();

  // -kane: E_P on one line, and the band edges' elements at every k after the bands (E_P along every axis at G).
  const RunResult kane =
      RunBands(dir, "-params nemo3d -material GaAs -kane -points_per_segment 2 -csv k.csv -png none");
  ASSERT_EQ(kane.exit_code, 0) << kane.out << kane.err;
  EXPECT_NE(kane.out.find("Kane energy E_P = 23.639 eV\n"), std::string::npos) << kane.out;
  std::ifstream kcsv(dir / "k.csv");
  std::string header, gamma;
  std::getline(kcsv, header), std::getline(kcsv, gamma);
  EXPECT_NE(header.find(",band_39,p2_x_eV,p2_y_eV,p2_z_eV,valence_states,conduction_states"), std::string::npos)
      << header;
  EXPECT_NE(gamma.find(",23.6386776"), std::string::npos) << gamma;
  EXPECT_NE(gamma.find(",6,2"), std::string::npos) << gamma;

  // A bad -path: one line naming -path and the allowed letters, non-zero exit, no files.
  const RunResult bad = RunBands(dir, "-path G,Q -csv c.csv -png c.png");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_NE(bad.err.find("tbpeta-bands: error: -path G,Q"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("G, X, W, L, K, U"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(dir / "c.csv"));
  // A plot script that fails: one line, non-zero exit, the CSV kept and no PNG.
  std::ofstream(dir / "broken.py") << "raise SystemExit('no plot today')\n";
  const RunResult noplot =
      RunBands(dir, "-params vogl1983 -material Si -points_per_segment 2 -csv d.csv -png d.png -plot_script broken.py");
  EXPECT_NE(noplot.exit_code, 0);
  EXPECT_EQ(std::count(noplot.err.begin(), noplot.err.end(), '\n'), 1) << noplot.err;
  EXPECT_NE(noplot.err.find("no plot today"), std::string::npos) << noplot.err;
  EXPECT_TRUE(fs::exists(dir / "d.csv"));
  EXPECT_FALSE(fs::exists(dir / "d.png"));
  for (const auto &e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
}

// Deformation potentials of nemo3d GaAs and InAs: the table of docs/strained-hamiltonian.md pinned as a regression (to
// its printed 1e-3 eV), with the on-site correction and without; the correction is diagonal, so d is the same
// without it, and it reduces the magnitude of a_gap. Against Vurgaftman et al., J. Appl. Phys. 89, 5815 (2001), the
// set's own distance is documented there (GaAs a_gap -7 %, b +23 %, d +5 %; InAs +13 %, -34 %, +62 %): the signs are
// asserted, and the GaAs a_gap and d within 10 %.
TEST(Bands, DeformationPotentialsOfGaAsAndInAs) {
  struct Pinned {
    const char *material;
    double a_gap, b, d, a_gap_none, b_none;
  };
  for (const Pinned &p : {Pinned{"GaAs", -7.772, -2.451, -5.053, -9.828, -3.012},
                          Pinned{"InAs", -6.882, -1.190, -5.833, -8.548, -3.397}}) {
    SCOPED_TRACE(p.material);
    TightBindingModel model;
    ASSERT_EQ(ModelFromOptions(std::string("-params nemo3d -material ") + p.material, &model), 0);
    model.strained.on = true;
    DeformationPotentials with, without;
    ASSERT_EQ(ComputeDeformationPotentials(model, 0, 0.002, &with), 0);
    EXPECT_NEAR(with.a_gap, p.a_gap, 5e-4);
    EXPECT_NEAR(with.b, p.b, 5e-4);
    EXPECT_NEAR(with.d, p.d, 5e-4);
    model.strained.onsite = false;
    ASSERT_EQ(ComputeDeformationPotentials(model, 0, 0.002, &without), 0);
    EXPECT_NEAR(without.a_gap, p.a_gap_none, 5e-4);
    EXPECT_NEAR(without.b, p.b_none, 5e-4);
    EXPECT_NEAR(without.d, with.d, 1e-4);       // equal to first order in the strain
    EXPECT_LT(without.a_gap, with.a_gap - 0.5); // the correction reduces the magnitude of a_gap
    EXPECT_LT(with.a_gap, 0);                   // Vurgaftman's signs
    EXPECT_LT(with.b, 0);
    EXPECT_LT(with.d, 0);
    if (std::string(p.material) == "GaAs") {
      EXPECT_NEAR(with.a_gap, -8.33, 0.10 * 8.33);
      EXPECT_NEAR(with.d, -4.8, 0.10 * 4.8);
    }
    PetscOptionsClear(nullptr);
  }
}

// A strained crystal: no strain gives the unstrained bands bit for bit, and a hydrostatic strain moves the direct gap
// by a_gap tr(eps) to first order.
TEST(Bands, StrainTensorMovesTheGapByItsDeformationPotential) {
  TightBindingModel model;
  ASSERT_EQ(ModelFromOptions("-params nemo3d -material InAs", &model), 0);
  model.strained.on = true;
  BulkBands ideal, plain, squeezed;
  ASSERT_EQ(BulkBands::Create(model, 0, &plain), 0);
  std::vector<double> e0, e1, e2;
  ASSERT_EQ(plain.At({0, 0, 0}, &e0), 0);
  model.strained.on = false;
  ASSERT_EQ(BulkBands::Create(model, 0, &ideal), 0);
  ASSERT_EQ(ideal.At({0, 0, 0}, &e1), 0);
  EXPECT_EQ(e0, e1);
  model.strained.on = true;
  const double x = -0.001;
  ASSERT_EQ(BulkBands::Create(model, 0, &squeezed, {x, x, x, 0, 0, 0}), 0);
  ASSERT_EQ(squeezed.At({0, 0, 0}, &e2), 0);
  DeformationPotentials dp;
  ASSERT_EQ(ComputeDeformationPotentials(model, 0, 0.002, &dp), 0);
  const int v = plain.valenceBands();
  const double gap0 = e0[v] - e0[v - 1], gap = e2[v] - e2[v - 1];
  EXPECT_NEAR(gap - gap0, dp.a_gap * 3 * x, 0.02 * std::fabs(dp.a_gap * 3 * x));
  EXPECT_GT(gap, gap0); // compression opens the gap of InAs
  PetscOptionsClear(nullptr);
}
