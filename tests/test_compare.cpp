// -compare: on a small dot every run finds the states dense LAPACK finds and agrees with the reference; the user's
// options of the single solve (unprefixed -eps_*) do not reach the runs, and each run's own prefixed options do; the
// product cap stops a run without dropping its row; levels are compared with their multiplicities (edge cuts, missing
// and extra levels); bad options are one-line user errors naming the option.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "system_fixture.hpp"
#include "bulk/CellSpectrum.hpp"
#include "study/ComparisonReport.hpp"
#include "study/LevelComparison.hpp"
#include "study/SolverComparison.hpp"
#include "study/AllocationTracker.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::test::Quietly;

namespace {

// The dot of test_lanczos (only Kramers degeneracy: the alloyed host breaks the dot's symmetry; 640 rows), with a
// passivation shift of 8 eV instead of 30 (the gap stays empty above 5 eV): the narrower spectrum takes the SLEPc
// runs a few thousand products instead of ten thousand, which keeps the test short on 3 oversubscribed ranks.
const std::string kDot = "-params klimeck2000 -cells 2,2,2 -periodic 0,0,0 -passivation_shift 8 -dot_material InAs "
                         "-dot_radius 0.4 -host_alloy AlAs,0.3 -vbo_InAs 0.2 ";

struct Dot {
  Mat H = nullptr;
  double midgap = 0;
  ~Dot() { MatDestroy(&H); }
};

// Builds the dot, then leaves only `options` in the database.
void BuildDot(const std::string &options, Dot *dot) {
  TightBindingSystem sys;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, kDot, &sys), 0);
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &dot->H), 0);
  double vbm, cbm;
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  dot->midgap = 0.5 * (vbm + cbm);
  PetscOptionsClear(nullptr);
  PetscOptionsInsertString(nullptr, options.c_str());
}

PetscErrorCode Compare(const Dot &dot, std::vector<ComparisonRow> *rows) {
  CompareOptions defaults, opts;
  PetscFunctionBeginUser;
  defaults.gap_center = dot.midgap;
  PetscCall(CompareOptionsFromOptions(PETSC_COMM_WORLD, defaults, &opts));
  PetscCall(CompareSolvers(dot.H, opts, rows));
  PetscCall(PrintComparison(PETSC_COMM_WORLD, *rows));
  PetscFunctionReturn(0);
}

const ComparisonRow *Find(const std::vector<ComparisonRow> &rows, const std::string &run) {
  for (const ComparisonRow &r : rows)
    if (r.run == run) return &r;
  return nullptr;
}

std::string LabelOf(const std::string &run) {
  for (const ComparisonRun &r : ComparisonRuns())
    if (r.name == run) return r.label;
  return "";
}

bool Used(const char *name) {
  PetscBool used = PETSC_FALSE;
  PetscOptionsUsed(nullptr, name + 1, &used); // the database stores names without the dash
  return used;
}

// The first message of an error, and how many errors were raised.
struct Captured {
  std::string message;
  int count = 0;
};
PetscErrorCode Capture(MPI_Comm, int, const char *, const char *, PetscErrorCode, PetscErrorType p, const char *mess,
                       void *ctx) {
  auto *c = static_cast<Captured *>(ctx);
  if (p == PETSC_ERROR_INITIAL && c->count++ == 0) c->message = mess ? mess : "";
  return PETSC_ERR_USER_INPUT;
}

ComparisonRow Row(const char *run, std::vector<double> values, double residual, bool converged = true) {
  ComparisonRow r;
  r.run = r.solver = run;
  r.values = values;
  r.residuals.assign(values.size(), residual);
  r.requested = (PetscInt)values.size();
  r.max_residual = residual;
  r.converged = converged;
  return r;
}

} // namespace

TEST(Compare, EveryRunAgreesWithLapackOnASmallDot) {
  TBPETA_ASSERT_RANKS();
  Dot dot;
  // The options of a single solve must not reach the runs; each run's own (with its prefix) must.
  ASSERT_NO_FATAL_FAILURE(
      BuildDot("-compare_max_products 30000 -eps_type lapack -st_type sinvert -eps_nev 3 -eps_nemo_valence 1 "
               "-eps_interval -9,9 -lanczos_eps_nemo_seed 5 -folded_ks_folded_eps_tol 1e-13",
               &dot));
  std::vector<double> all;
  ASSERT_EQ(AllEigenvalues(dot.H, &all), 0);
  // The 4 states below and 4 above the host's midgap; the 8 nearest it are all conduction states (a small dot's
  // valence levels lie deeper), so this tests the recentring too.
  const size_t homo = std::lower_bound(all.begin(), all.end(), dot.midgap) - all.begin() - 1;
  std::vector<ComparisonRow> rows;
  ASSERT_EQ(Compare(dot, &rows), 0);

  ASSERT_EQ(rows.size(), 6u); // every run, in order
  const std::vector<double> want(all.begin() + (homo - 3), all.begin() + (homo + 5));
  int references = 0;
  for (const ComparisonRow &r : rows) {
    SCOPED_TRACE(r.solver + ": " + r.note);
    EXPECT_FALSE(r.skipped);
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.states(), 8);
    EXPECT_EQ(r.requested, 8);
    ASSERT_EQ(r.values.size(), 8u);
    // States of H; the same as dense LAPACK's, or the comparison says how they differ. (A Krylov solver from one
    // start vector sees a second state of a degenerate level only through rounding: SLEPc may stop with one state of
    // a Kramers pair and a farther state instead.)
    bool same = true;
    for (size_t i = 0; i < 8; ++i) {
      same = same && std::fabs(r.values[i] - want[i]) <= 1e-8;
      const auto it = std::lower_bound(all.begin(), all.end(), r.values[i]);
      double d = 1e9;
      if (it != all.end()) d = *it - r.values[i];
      if (it != all.begin()) d = std::min(d, r.values[i] - *(it - 1));
      EXPECT_LT(d, 1e-8) << r.values[i];
    }
    if (same) {
      EXPECT_EQ(r.levels_compared, 4); // four Kramers pairs, all compared
      EXPECT_EQ(r.note.find("compared on"), std::string::npos);
      EXPECT_EQ(r.note.find("MULTIPLICITY"), std::string::npos);
    } else {
      EXPECT_TRUE(r.note.find("MULTIPLICITY") != std::string::npos || r.note.find("INCOMPLETE") != std::string::npos);
      EXPECT_GE(r.levels_compared, 2);
    }
    if (r.run == "lanczos" || r.reference) EXPECT_TRUE(same); // Kramers partners by construction; the reference
    EXPECT_LE(r.max_deviation, 1e-8);
    EXPECT_LT(r.max_residual, 1e-6);
    if (r.run != "sinvert") EXPECT_GT(r.products, 0); // shift-and-invert applies LU solves, not H
    EXPECT_GT(r.iterations, 0);
    EXPECT_GT(r.seconds, 0);
    EXPECT_GT(r.peak_rss_mb, 0);
    EXPECT_GT(r.vectors_held, 0); // measured: tracking is on during the comparison
    EXPECT_EQ(r.note.find("MISSING"), std::string::npos);
    EXPECT_EQ(r.note.find("EXTRA"), std::string::npos);
    references += r.reference;
  }
  EXPECT_EQ(references, 1);
  const ComparisonRow *lz = Find(rows, "lanczos");
  ASSERT_TRUE(lz);
  EXPECT_EQ(lz->values[0], lz->values[1]); // a Kramers pair
  EXPECT_EQ(lz->center, dot.midgap);
  for (const ComparisonRow &r : rows)
    if (&r != lz)
      EXPECT_NEAR(r.center, 0.5 * (want.front() + want.back()), 1e-5 * (want.back() - want.front())) << r.solver;
  const auto ratios = RatiosToLanczos(rows);
  EXPECT_EQ(ratios.size(), 5u);
  for (const auto &q : ratios) {
    if (q.solver == LabelOf("sinvert")) EXPECT_TRUE(std::isnan(q.products)); // LU solves, no products of H
    else EXPECT_GT(q.products, 0) << q.solver;
    EXPECT_GT(q.seconds, 0) << q.solver;
    EXPECT_FALSE(q.lower_bound) << q.solver;
  }

  // The single solve's options were never read (PETSc warns that they were not used), the runs' own were; tracking
  // is off again.
  EXPECT_FALSE(Used("-eps_type"));
  EXPECT_FALSE(Used("-st_type"));
  EXPECT_FALSE(Used("-eps_nev"));
  EXPECT_FALSE(Used("-eps_nemo_valence"));
  EXPECT_FALSE(Used("-eps_interval"));
  EXPECT_TRUE(Used("-lanczos_eps_nemo_seed"));
  EXPECT_TRUE(Used("-folded_ks_folded_eps_tol"));
  EXPECT_FALSE(AllocationTrackerActive());
  PetscOptionsClear(nullptr);
}

// Without the recentring, "4 below and 4 above the midgap" and "the 8 nearest it" are different states here: compared
// on the levels both found, without false alarms.
TEST(Compare, WithoutRecentringTheRunsAreComparedOnCommonLevels) {
  TBPETA_ASSERT_RANKS();
  Dot dot;
  ASSERT_NO_FATAL_FAILURE(BuildDot("-compare_recenter 0 -compare_runs lanczos,folded_arpack", &dot));
  std::vector<ComparisonRow> rows;
  ASSERT_EQ(Compare(dot, &rows), 0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].center, dot.midgap);
  const ComparisonRow &other = rows[0].reference ? rows[1] : rows[0];
  EXPECT_LT(other.levels_compared, 4) << other.note;
  EXPECT_GT(other.levels_compared, 0) << other.note;
  EXPECT_NE(other.note.find("compared on"), std::string::npos) << other.note;
  for (const ComparisonRow &r : rows) {
    EXPECT_TRUE(r.converged) << r.solver;
    EXPECT_LE(r.max_deviation, 1e-8) << r.solver;
    EXPECT_EQ(r.note.find("MISSING"), std::string::npos) << r.note;
    EXPECT_EQ(r.note.find("EXTRA"), std::string::npos) << r.note;
    EXPECT_EQ(r.note.find("MULTIPLICITY"), std::string::npos) << r.note;
  }
  PetscOptionsClear(nullptr);
}

TEST(Compare, ProductCapStopsARunAndKeepsItsRow) {
  TBPETA_ASSERT_RANKS();
  Dot dot;
  const PetscInt cap = 40;
  ASSERT_NO_FATAL_FAILURE(BuildDot("-compare_max_products 40 -compare_sinvert_max_rows 100 -compare_runs "
                                   "lanczos,ks_harmonic,sinvert,folded_ks,folded_arpack,folded_lanczos",
                                   &dot));
  std::vector<ComparisonRow> rows;
  ASSERT_EQ(Compare(dot, &rows), 0);
  ASSERT_EQ(rows.size(), 6u);
  for (const ComparisonRow &r : rows) {
    SCOPED_TRACE(r.solver + ": " + r.note);
    EXPECT_FALSE(r.converged);
    if (r.run == "sinvert") {
      EXPECT_TRUE(r.skipped);
      EXPECT_NE(r.note.find("skipped"), std::string::npos);
      EXPECT_NE(r.note.find("-compare_sinvert_max_rows"), std::string::npos);
      continue;
    }
    EXPECT_NE(r.note.find("not converged within 40 products"), std::string::npos);
    EXPECT_LT(r.states(), 8);
    // The search stays within the cap; the eigenvector pass of the Lanczos runs and the Rayleigh quotients come on top.
    EXPECT_LE(r.products, 2 * cap + 2 * 8);
    EXPECT_GT(r.products, 0);
  }
  PetscOptionsClear(nullptr);
}

TEST(Compare, LevelsAreComparedWithTheirMultiplicities) {
  TBPETA_ASSERT_RANKS();
  const std::vector<double> ref = {-1, -1, 0.5, 0.5, 1, 1, 1, 1};
  std::vector<ComparisonRow> rows = {
      Row("unconverged", ref, 1e-15, false),                   // smaller residual, but not converged: not the reference
      Row("ref", ref, 1e-12),                                  //
      Row("shifted", {-1 + 3e-9, -1 + 3e-9, 0.5, 0.5}, 1e-10), // a smaller window
      Row("cut", {-1, -1, 0.5, 0.5, 1, 1}, 1e-10),             // the fourfold level cut at the window's edge
      Row("missing", {-1, -1, 1, 1, 1, 1}, 1e-10),             // lacks 0.5 inside its range
      Row("multiplicity", {-1, -1, 0.5, 1, 1, 1, 1}, 1e-10),   // 0.5 once, inside its range
      Row("extra", {-1, -1, 0.2, 0.2, 0.5, 0.5, 1, 1, 1, 1}, 1e-10), // 0.2 is not in the reference
      Row("far", {-7, -7}, 1e-10),                                   // nothing in common
      Row("wider", {-1, -1, -1, -1, 0.5, 0.5}, 1e-10), // more states of -1 than the reference, at its edge
  };
  CompareWithReference(rows, 1e-6);
  EXPECT_FALSE(rows[0].reference);
  EXPECT_TRUE(rows[1].reference);
  EXPECT_NE(rows[1].note.find("reference"), std::string::npos);
  EXPECT_EQ(rows[1].max_deviation, 0.0);
  EXPECT_EQ(rows[1].levels_compared, 3);
  EXPECT_EQ(rows[0].max_deviation, 0.0);
  EXPECT_NEAR(rows[2].max_deviation, 3e-9, 1e-15);
  EXPECT_EQ(rows[2].levels_compared, 2);
  EXPECT_EQ(rows[2].note.find("MISSING"), std::string::npos) << rows[2].note; // 1 eV lies outside its range
  EXPECT_EQ(rows[3].levels_compared, 2);
  EXPECT_NE(rows[3].note.find("edge level cut at 1.000000"), std::string::npos) << rows[3].note;
  EXPECT_EQ(rows[3].note.find("MULTIPLICITY"), std::string::npos) << rows[3].note;
  EXPECT_NE(rows[4].note.find("MISSING levels of the reference at 0.500000"), std::string::npos) << rows[4].note;
  EXPECT_NE(rows[5].note.find("MULTIPLICITY differs from the reference at 0.500000"), std::string::npos)
      << rows[5].note;
  EXPECT_EQ(rows[5].levels_compared, 2);
  EXPECT_NE(rows[6].note.find("EXTRA levels, not in the reference, at 0.200000"), std::string::npos) << rows[6].note;
  EXPECT_EQ(rows[6].levels_compared, 3);
  EXPECT_TRUE(std::isnan(rows[7].max_deviation));
  EXPECT_EQ(rows[7].levels_compared, 0);
  EXPECT_NE(rows[7].note.find("compared on 0 of 1 levels"), std::string::npos) << rows[7].note;
  EXPECT_NE(rows[8].note.find("edge level cut at -1.000000"), std::string::npos) << rows[8].note;
  EXPECT_EQ(rows[8].note.find("MULTIPLICITY"), std::string::npos) << rows[8].note;
  EXPECT_EQ(rows[8].levels_compared, 1);
  // Kramers pairs: a level with one state is incomplete, and such a row is no reference even with the smallest
  // residual.
  std::vector<ComparisonRow> pairs = {Row("one of a pair", {-1, 0.5, 0.5, 1, 1, 1.2}, 1e-14),
                                      Row("pairs", {-1, -1, 0.5, 0.5, 1, 1}, 1e-12)};
  CompareWithReference(pairs, 1e-6, 2);
  EXPECT_TRUE(pairs[1].reference);
  EXPECT_NE(pairs[0].note.find("INCOMPLETE levels (multiplicity not a multiple of 2) at -1.000000, 1.200000 eV"),
            std::string::npos)
      << pairs[0].note;
  EXPECT_EQ(pairs[0].note.find("edge level cut"), std::string::npos) << pairs[0].note;
  EXPECT_EQ(pairs[0].levels_compared, 2);
  EXPECT_EQ(pairs[1].note.find("INCOMPLETE"), std::string::npos) << pairs[1].note;
  // Runs asked for the states nearest 0.5: the first ends its window at 1.25 (0.75 away), so two states of -0.2 (0.7
  // away, the lowest level) is no cut but a different multiplicity; the second ends at 0 and 1, and cuts 1.
  std::vector<ComparisonRow> near = {Row("ref", {-0.2, -0.2, -0.2, -0.2, 0, 0, 1, 1}, 1e-12),
                                     Row("nearest", {-0.2, -0.2, 0, 0, 1, 1, 1.25, 1.25}, 1e-10),
                                     Row("nearest, cut", {0, 0, 1}, 1e-10)};
  near[1].center = near[2].center = 0.5;
  CompareWithReference(near, 1e-6);
  EXPECT_NE(near[1].note.find("MULTIPLICITY differs from the reference at -0.200000"), std::string::npos)
      << near[1].note;
  EXPECT_NE(near[2].note.find("edge level cut at 1.000000"), std::string::npos) << near[2].note;
  // Without a converged row, the best residual among the others is the reference.
  std::vector<ComparisonRow> none = {Row("a", ref, 1e-9, false), Row("b", ref, 1e-11, false)};
  CompareWithReference(none, 1e-6);
  EXPECT_TRUE(none[1].reference);
}

TEST(Compare, BadOptionsAreOneLineUserErrors) {
  TBPETA_ASSERT_RANKS();
  CompareOptions defaults;
  defaults.gap_center = 0.7;
  const std::pair<const char *, const char *> bad[] = {
      {"-compare_max_products 0", "-compare_max_products"},
      {"-compare_max_products -5", "-compare_max_products"},
      {"-compare_nev_valence -1", "-compare_nev_valence"},
      {"-compare_nev_conduction -2", "-compare_nev_conduction"},
      {"-compare_nev_valence 0 -compare_nev_conduction 0", "-compare_nev_valence"},
      {"-compare_sinvert_max_rows -1", "-compare_sinvert_max_rows"},
      {"-compare_level_tol 0", "-compare_level_tol"},
      {"-compare_level_tol nan", "-compare_level_tol"},
      {"-compare_gap_center inf", "-compare_gap_center"},
      {"-compare_runs lanczos,nosuchrun", "nosuchrun"},
      {"-compare_runs lanczos,sinvert,lanczos", "given twice"},
  };
  for (const auto &[options, mentions] : bad) {
    SCOPED_TRACE(options);
    PetscOptionsClear(nullptr);
    PetscOptionsInsertString(nullptr, options);
    CompareOptions o;
    Captured c;
    PetscPushErrorHandler(Capture, &c);
    const PetscErrorCode ierr = CompareOptionsFromOptions(PETSC_COMM_WORLD, defaults, &o);
    PetscPopErrorHandler();
    if (std::string(options).find("nan") != std::string::npos || std::string(options).find("inf") != std::string::npos)
      EXPECT_NE(ierr, 0); // PETSc may refuse the number itself
    else EXPECT_EQ(ierr, PETSC_ERR_USER_INPUT);
    EXPECT_NE(c.message.find(mentions), std::string::npos) << c.message;
    EXPECT_EQ(c.message.find('\n'), std::string::npos) << c.message;
  }
  // Defaults, and a valid list.
  PetscOptionsClear(nullptr);
  CompareOptions o;
  ASSERT_EQ(CompareOptionsFromOptions(PETSC_COMM_WORLD, defaults, &o), 0);
  EXPECT_EQ(o.nev_valence, 4);
  EXPECT_EQ(o.nev_conduction, 4);
  EXPECT_EQ(o.gap_center, 0.7);
  EXPECT_EQ(o.max_products, 200000);
  EXPECT_EQ(o.runs.size(), 6u);
  PetscOptionsInsertString(nullptr, "-compare_runs folded_arpack,lanczos -compare_gap_center 0.3");
  ASSERT_EQ(CompareOptionsFromOptions(PETSC_COMM_WORLD, defaults, &o), 0);
  ASSERT_EQ(o.runs.size(), 2u);
  EXPECT_EQ(o.runs[0].name, "folded_arpack");
  EXPECT_EQ(o.runs[1].name, "lanczos");
  EXPECT_EQ(o.gap_center, 0.3);
  // More states than H has rows: refused before any run.
  Dot dot;
  ASSERT_NO_FATAL_FAILURE(BuildDot("-compare_nev_valence 400 -compare_nev_conduction 400", &dot));
  std::vector<ComparisonRow> rows;
  EXPECT_EQ(Quietly([&] { return Compare(dot, &rows); }), PETSC_ERR_USER_INPUT);
  PetscOptionsClear(nullptr);
}
