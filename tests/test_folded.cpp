// The folded-spectrum method (-eps_type folded): the MatShell applies (H - sigma)^2 exactly, two products of H each;
// on a small dot the states nearest midgap agree with dense LAPACK with Krylov-Schur, ARPACK and tbpeta's nemo
// Lanczos on F (-folded_eps_type nemo, with Kramers partners) on any number of ranks; a vector mixing the levels
// sigma -/+ d (one level of F) is flagged, not passed off as a state; the SLEPc combinations that would answer
// another question are refused; bad options are one-line user errors. The Chebyshev filter (-eps_folded_filter
// chebyshev) is a positive peak at its centre, and the Lanczos and Krylov-Schur on it find the dense states.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "system_fixture.hpp"
#include "bulk/CellSpectrum.hpp"
#include "operator/OperatorProperties.hpp"
#include "solvers/folded/ChebyshevFilter.hpp"
#include "solvers/folded/FoldedOperator.hpp"
#include "solvers/folded/FoldedSpectrum.hpp"
#include "study/AllocationTracker.hpp"
#include "study/SolveMemory.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::test::Quietly;

namespace {

const char *kDot = "-params klimeck2000 -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 -vbo_InAs 0.2";

// The dot's H and the host's midgap. Leaves the options database cleared of the structure options.
void BuildDot(Mat *H, double *midgap) {
  TightBindingSystem sys;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, kDot, &sys), 0);
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", H), 0);
  double vbm, cbm;
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  *midgap = 0.5 * (vbm + cbm);
  PetscOptionsClear(nullptr);
}

// The dot in an alloyed host: only Kramers degeneracy (the alloy breaks the dot's symmetry), as the Lanczos needs.
const char *kAlloyedDot = "-params klimeck2000 -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 "
                          "-host_alloy AlAs,0.3 -vbo_InAs 0.2";

using tbpeta::test::DiagonalMatrix;

// The nev eigenvalues nearest sigma, ascending; also the distance gap between the nev-th and the next one.
std::vector<double> Nearest(std::vector<double> all, double sigma, size_t nev, double *boundary_gap) {
  std::sort(all.begin(), all.end(), [&](double a, double b) { return std::fabs(a - sigma) < std::fabs(b - sigma); });
  *boundary_gap = all.size() > nev ? std::fabs(all[nev] - sigma) - std::fabs(all[nev - 1] - sigma) : 1.0;
  std::vector<double> out(all.begin(), all.begin() + nev);
  std::sort(out.begin(), out.end());
  return out;
}

// The alloyed dot's H (with spin-orbit, small enough for dense LAPACK), the host's midgap, H's rows, and the
// dense-LAPACK states nearest midgap; H is destroyed with it.
struct AlloyedDot {
  Mat H = nullptr;
  double midgap = 0;
  PetscInt rows = 0;
  std::vector<double> ref;
  AlloyedDot() = default;
  AlloyedDot(const AlloyedDot &) = delete;
  AlloyedDot &operator=(const AlloyedDot &) = delete;
  ~AlloyedDot() { MatDestroy(&H); }
};

// Builds the dot with its nev reference states, well separated from the next.
void AlloyedDotWithReference(size_t nev, AlloyedDot *dot) {
  TightBindingSystem sys;
  double vbm, cbm, boundary_gap;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, kAlloyedDot, &sys), 0);
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &dot->H), 0);
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  dot->midgap = 0.5 * (vbm + cbm);
  ASSERT_TRUE(sys.model.spin_orbit);
  MatGetSize(dot->H, &dot->rows, nullptr);
  ASSERT_LE(dot->rows, 800); // dense LAPACK stays quick
  std::vector<double> all;
  ASSERT_EQ(AllEigenvalues(dot->H, &all), 0);
  dot->ref = Nearest(all, dot->midgap, nev, &boundary_gap);
  ASSERT_GT(boundary_gap, 1e-3) << "the " << nev << " states nearest midgap are not well separated from the next";
}

} // namespace

TEST(Folded, ShellAppliesTheSquareExactly) {
  TBPETA_ASSERT_RANKS();
  Mat H = nullptr, F = nullptr;
  double midgap = 0;
  ASSERT_NO_FATAL_FAILURE(BuildDot(&H, &midgap));
  ASSERT_EQ(CreateFoldedOperator(H, midgap, &F), 0);
  PetscInt before = -1, after = -1;
  ASSERT_EQ(OperatorProductCount(H, &before), 0);
  Vec x, y, w, z;
  ASSERT_EQ(MatCreateVecs(F, &x, &y), 0);
  ASSERT_EQ(MatCreateVecs(H, &w, &z), 0);
  PetscInt rows, frows;
  MatGetSize(H, &rows, nullptr);
  VecGetSize(x, &frows);
  EXPECT_EQ(frows, rows);
  PetscRandom rnd;
  PetscRandomCreate(PETSC_COMM_WORLD, &rnd);
  PetscRandomSetSeed(rnd, 7);
  PetscRandomSeed(rnd);
  const int trials = 3;
  for (int t = 0; t < trials; ++t) {
    VecSetRandom(x, rnd);
    ASSERT_EQ(MatMult(F, x, y), 0);
    // z = (H - sigma)((H - sigma) x) by hand
    MatMult(H, x, w);
    VecAXPY(w, -midgap, x);
    MatMult(H, w, z);
    VecAXPY(z, -midgap, w);
    PetscReal nz, diff;
    VecNorm(z, NORM_2, &nz);
    VecAXPY(z, -1.0, y);
    VecNorm(z, NORM_2, &diff);
    EXPECT_LT(diff, 1e-12 * nz) << "trial " << t;
  }
  // F is Hermitian: the Hermitian-transpose product is the product.
  Vec yt;
  VecDuplicate(y, &yt);
  ASSERT_EQ(MatMultHermitianTranspose(F, x, yt), 0);
  PetscReal d;
  VecAXPY(yt, -1.0, y);
  VecNorm(yt, NORM_2, &d);
  EXPECT_EQ(d, 0.0);
  // Every application of F is two products of H, counted on H (and 2 by hand per trial).
  ASSERT_EQ(OperatorProductCount(H, &after), 0);
  EXPECT_EQ(after - before, 2 * (trials + 1) + 2 * trials);
  // F says what it is: no entries (no factorisation), H's numbering and Kramers block.
  const OperatorProperties *fp = nullptr, *hp = nullptr;
  ASSERT_EQ(OperatorGetProperties(F, &fp), 0);
  ASSERT_EQ(OperatorGetProperties(H, &hp), 0);
  ASSERT_TRUE(fp && hp);
  EXPECT_EQ(fp->kind, "folded");
  EXPECT_FALSE(fp->has_entries);
  EXPECT_EQ(fp->kramers_block, hp->kramers_block);
  EXPECT_EQ(fp->canonical_atoms, hp->canonical_atoms);
  PetscRandomDestroy(&rnd);
  VecDestroy(&x), VecDestroy(&y), VecDestroy(&w), VecDestroy(&z), VecDestroy(&yt);
  MatDestroy(&F); // frees the work vector and the reference to H
  MatDestroy(&H);
}

TEST(Folded, StatesNearMidgapAgreeWithLapack) {
  TBPETA_ASSERT_RANKS();
  Mat H = nullptr;
  double midgap = 0;
  ASSERT_NO_FATAL_FAILURE(BuildDot(&H, &midgap));
  std::vector<double> all;
  ASSERT_EQ(AllEigenvalues(H, &all), 0);
  const size_t nev = 8;
  double boundary_gap;
  const std::vector<double> ref = Nearest(all, midgap, nev, &boundary_gap);
  ASSERT_GT(boundary_gap, 1e-3) << "the 8 states nearest midgap are not well separated from the 9th";
  ASSERT_EQ(StartAllocationTracking(), 0); // the vectors held are measured
  for (const char *type : {"krylovschur", "arpack"}) {
    EigenStates st;
    MemoryMeter meter;
    EPS eps = nullptr;
    const std::string options = std::string("-eps_type folded -folded_eps_tol 1e-14 -folded_eps_type ") + type;
    ASSERT_EQ(tbpeta::test::SolveWith(H, midgap, options, &st, &meter, &eps), 0) << type;
    ASSERT_EQ(st.values.size(), nev) << type;
    ASSERT_EQ(st.residuals.size(), nev) << type;
    EXPECT_TRUE(st.vectors);
    double worst = 0, worst_res = 0;
    for (size_t i = 0; i < nev; ++i) {
      worst = std::max(worst, std::fabs(st.values[i] - ref[i]));
      worst_res = std::max(worst_res, st.residuals[i]);
    }
    EXPECT_LT(worst, 1e-8) << type;
    EXPECT_LT(worst_res, 1e-6) << type;
    EXPECT_TRUE(std::is_sorted(st.values.begin(), st.values.end()));
    EXPECT_EQ(st.solver, std::string("folded (") + type + " + shift)");
    EXPECT_EQ(st.requested, 8);
    EXPECT_GT(st.iterations, 0);
    EXPECT_GE(st.products, 2 * 8 + 8); // at least one application per basis vector plus the Rayleigh quotients
    EXPECT_EQ(st.products % 2, 0);     // 2 per application + 8 Rayleigh products
    EXPECT_GE(st.vectors_held, 8 + 1); // at least a basis of nev and F's work vector (the states are its columns)
    EXPECT_TRUE(st.unresolved.empty()) << st.solver;
    EXPECT_GT(st.seconds, 0);
    // The returned vectors are unit eigenvectors of H, with the residuals reported.
    double residual, norm_error;
    ASSERT_EQ(tbpeta::test::CheckVectors(H, eps, st, &residual, &norm_error), 0);
    EXPECT_LT(norm_error, 1e-12);
    EXPECT_NEAR(residual, worst_res, 1e-12);
    if (tbpeta::test::commRank() == 0)
      std::printf(
          "  %s: %d ranks, %d iterations, %d H products, %d vectors, max |dE| %.2e eV, max residual %.2e, %.3f s\n",
          st.solver.c_str(), tbpeta::test::commSize(), (int)st.iterations, (int)st.products, (int)st.vectors_held,
          worst, worst_res, st.seconds);
    EPSDestroy(&eps);
  }
  ASSERT_EQ(StopAllocationTracking(), 0);
  PetscOptionsClear(nullptr);
  MatDestroy(&H);
}

// -folded_eps_type nemo, as the application runs it: the same states as Krylov-Schur on F and as dense LAPACK, with
// Kramers partners, H products counted.
TEST(Folded, NemoOnTheFoldedOperatorAgreesWithKrylovSchurAndLapack) {
  TBPETA_ASSERT_RANKS();
  const size_t nev = 8;
  AlloyedDot dot;
  ASSERT_NO_FATAL_FAILURE(AlloyedDotWithReference(nev, &dot));
  const auto &[H, midgap, n, ref] = dot;

  EigenStates by[2];
  const char *inner[2] = {"krylovschur", "nemo"};
  for (int s = 0; s < 2; ++s) {
    EigenStates &st = by[s];
    ASSERT_EQ(tbpeta::test::SolveWith(H, midgap, std::string("-eps_type folded -folded_eps_type ") + inner[s], &st), 0)
        << inner[s];
    ASSERT_EQ(st.values.size(), nev) << st.solver;
    double worst = 0, worst_res = 0;
    for (size_t i = 0; i < nev; ++i) {
      EXPECT_NEAR(st.values[i], ref[i], 1e-8) << st.solver << ", state " << i;
      worst = std::max(worst, std::fabs(st.values[i] - ref[i]));
      worst_res = std::max(worst_res, st.residuals[i]);
    }
    EXPECT_LT(worst_res, 1e-6) << st.solver;
    EXPECT_EQ(st.requested, 8);
    EXPECT_GT(st.iterations, 0);
    if (s == 1) {
      EXPECT_EQ(st.solver.rfind("folded (nemo", 0), 0u) << st.solver;
      EXPECT_EQ(st.products % 2, 0); // 2 per application of F (and 20 for the centring), 8 Rayleigh quotients
      EXPECT_GE(st.products, 2 * st.iterations + (PetscInt)nev); // both Lanczos passes apply F
      for (size_t i = 0; i < nev; i += 2) EXPECT_NEAR(st.values[i], st.values[i + 1], 1e-10); // Kramers partners
    } else {
      EXPECT_EQ(st.solver, "folded (krylovschur + shift)");
      EXPECT_EQ((st.products - (PetscInt)nev) % 2, 0);
    }
    if (tbpeta::test::commRank() == 0)
      std::printf(
          "  %s: %d rows, %d ranks, %d iterations, %d H products, max |dE| %.2e eV, max residual %.2e, %.3f s\n",
          st.solver.c_str(), (int)n, tbpeta::test::commSize(), (int)st.iterations, (int)st.products, worst, worst_res,
          st.seconds);
  }
  for (size_t i = 0; i < nev; ++i) EXPECT_NEAR(by[0].values[i], by[1].values[i], 1e-8) << i;
  PetscOptionsClear(nullptr);
}

// The Chebyshev filter's polynomial: 1 at its centre, inside [0, 1] over the whole interval (the Jackson kernel is
// positive), falling off monotonically from its centre over its main peak, small far from it.
TEST(Folded, ChebyshevFilterIsAPositivePeakAtItsCentre) {
  ChebyshevFilterSpec spec;
  spec.sigma = 0.7, spec.degree = 40, spec.lo = -12, spec.hi = 18;
  EXPECT_NEAR(ChebyshevFilterValue(spec, spec.sigma), 1.0, 1e-14);
  double lowest = 1, highest = 0;
  for (int i = 0; i <= 3000; ++i) {
    const double p = ChebyshevFilterValue(spec, spec.lo + (spec.hi - spec.lo) * i / 3000.0);
    lowest = std::min(lowest, p), highest = std::max(highest, p);
  }
  EXPECT_GT(lowest, -1e-12);
  EXPECT_LT(highest, 1.0 + 1e-12);
  for (double d = 0.05; d < 1.0; d += 0.05) { // the peak's half-width is about pi * 15 / 41 = 1.1 eV here
    EXPECT_LT(ChebyshevFilterValue(spec, spec.sigma + d), ChebyshevFilterValue(spec, spec.sigma + d - 0.05)) << d;
    EXPECT_LT(ChebyshevFilterValue(spec, spec.sigma - d), ChebyshevFilterValue(spec, spec.sigma - d + 0.05)) << d;
  }
  EXPECT_LT(ChebyshevFilterValue(spec, spec.sigma + 5), 5e-3);
  EXPECT_LT(ChebyshevFilterValue(spec, spec.sigma - 5), 5e-3);
}

// -eps_folded_filter chebyshev: the Lanczos (nemo, with Kramers partners) and Krylov-Schur on F = 1 - p(H) find the
// states of dense LAPACK nearest the centre, on any number of ranks, with d products of H per application of F.
TEST(Folded, ChebyshevFilteredLanczosFindsTheDenseStates) {
  TBPETA_ASSERT_RANKS();
  const size_t nev = 8;
  AlloyedDot dot;
  ASSERT_NO_FATAL_FAILURE(AlloyedDotWithReference(nev, &dot));
  const auto &[H, midgap, n, ref] = dot;
  const PetscInt degree = 12;
  for (const char *inner : {"nemo", "krylovschur"}) {
    EigenStates st;
    const std::string options =
        std::string("-eps_type folded -eps_folded_filter chebyshev -eps_folded_filter_degree ") +
        std::to_string(degree) + " -folded_eps_type " + inner;
    ASSERT_EQ(tbpeta::test::SolveWith(H, midgap, options, &st), 0) << inner;
    ASSERT_EQ(st.values.size(), nev) << st.solver;
    double worst = 0;
    for (size_t i = 0; i < nev; ++i) {
      EXPECT_NEAR(st.values[i], ref[i], 1e-8) << st.solver << ", state " << i;
      EXPECT_LT(st.residuals[i], 1e-6) << st.solver << ", state " << i;
      worst = std::max(worst, std::fabs(st.values[i] - ref[i]));
    }
    EXPECT_TRUE(st.unresolved.empty()) << st.solver;
    // 30 Lanczos steps for H's spectrum, `degree` products per application of F, one per Rayleigh quotient.
    EXPECT_EQ((st.products - 30 - (PetscInt)nev) % degree, 0) << st.products;
    EXPECT_GE(st.products, 30 + degree * st.iterations + (PetscInt)nev);
    if (std::string(inner) == "nemo")
      for (size_t i = 0; i < nev; i += 2) EXPECT_NEAR(st.values[i], st.values[i + 1], 1e-10); // Kramers partners
    if (tbpeta::test::commRank() == 0)
      std::printf(
          "  %s, Chebyshev filter of degree %d: %d ranks, %d iterations, %d H products, max |dE| %.2e eV, %.3f s\n",
          st.solver.c_str(), (int)degree, tbpeta::test::commSize(), (int)st.iterations, (int)st.products, worst,
          st.seconds);
  }
  PetscOptionsClear(nullptr);
}

// sigma exactly midway between two levels: they are one level d^2 of F, which the single-vector Lanczos sees once,
// as a mix of both. The mix is flagged (unresolved), never passed off as a state of H.
TEST(Folded, AMixOfSigmaMinusAndPlusDIsFlagged) {
  TBPETA_ASSERT_RANKS();
  std::vector<double> e;
  for (int k = 0; k < 100; ++k) e.push_back(-10 + 8.5 * k / 99.0 + 0.01 * std::sin(3.0 * k)); // [-10, -1.5]
  for (int k = 0; k < 100; ++k) e.push_back(1.5 + 8.5 * k / 99.0 + 0.01 * std::cos(2.0 * k)); // [1.5, 10]
  const double sigma = 0.1, d = 0.3;
  e.push_back(sigma - d), e.push_back(sigma + d);
  std::sort(e.begin(), e.end());
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, e, &A), 0);
  EigenStates st;
  ASSERT_EQ(tbpeta::test::SolveWith(A, sigma, "-eps_type folded -eps_nev 2 -folded_eps_type nemo", &st), 0);
  ASSERT_FALSE(st.unresolved.empty()) << st.solver;
  for (double v : st.unresolved)
    EXPECT_GT(std::fabs(v - (sigma - d)) + std::fabs(v - (sigma + d)), 0.6 - 1e-9); // between them
  // Every value is either a level of H (to 1e-8 eV) or flagged, with either inner solver.
  for (const char *inner : {"nemo", "krylovschur"}) {
    ASSERT_EQ(
        tbpeta::test::SolveWith(A, sigma, std::string("-eps_type folded -eps_nev 2 -folded_eps_type ") + inner, &st),
        0);
    for (size_t i = 0; i < st.values.size(); ++i) {
      double nearest = 1e9;
      for (double x : e) nearest = std::min(nearest, std::fabs(x - st.values[i]));
      const bool flagged = st.residuals[i] > st.residual_limit;
      EXPECT_TRUE(nearest < 1e-8 || flagged)
          << st.solver << ": " << st.values[i] << " is " << nearest << " eV from a level, residual " << st.residuals[i];
      EXPECT_EQ(flagged, std::count(st.unresolved.begin(), st.unresolved.end(), st.values[i]) > 0);
    }
    if (tbpeta::test::commRank() == 0)
      std::printf("  %s: %zu states, %zu flagged (limit %.1e eV)\n", st.solver.c_str(), st.values.size(),
                  st.unresolved.size(), st.residual_limit);
  }
  PetscOptionsClear(nullptr);
  MatDestroy(&A);
}

TEST(Folded, RefusesCombinationsThatAnswerAnotherQuestion) {
  TBPETA_ASSERT_RANKS();
  Mat H = nullptr, F = nullptr;
  double midgap = 0;
  ASSERT_NO_FATAL_FAILURE(BuildDot(&H, &midgap));
  ASSERT_EQ(CreateFoldedOperator(H, midgap, &F), 0);
  auto make = [&](Mat A, EPSType type, EPSWhich which, STType sttype, EPS *eps) {
    ST st;
    EPSCreate(PETSC_COMM_WORLD, eps);
    EPSSetOperators(*eps, A, nullptr);
    EPSSetProblemType(*eps, EPS_HEP);
    EPSSetType(*eps, type);
    EPSSetTarget(*eps, midgap);
    EPSSetWhichEigenpairs(*eps, which);
    if (sttype) {
      EPSGetST(*eps, &st);
      STSetType(st, sttype);
    }
  };
  auto check = [&](Mat A, EPSType type, EPSWhich which, STType sttype) {
    EPS eps;
    make(A, type, which, sttype, &eps);
    const PetscErrorCode ierr = Quietly([&] { return CheckEigenSolver(eps, A, SolverPolicy{}); });
    EPSDestroy(&eps);
    return ierr;
  };
  // (a) ARPACK with a target and no spectral transformation: it would return the largest eigenvalues.
  EXPECT_EQ(check(H, EPSARPACK, EPS_TARGET_MAGNITUDE, nullptr), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(check(H, EPSARPACK, EPS_TARGET_REAL, STSHIFT), PETSC_ERR_USER_INPUT);
  // ... accepted with sinvert on the stored matrix, and on the folded operator (smallest real).
  EXPECT_EQ(check(H, EPSARPACK, EPS_TARGET_MAGNITUDE, STSINVERT), 0);
  EXPECT_EQ(check(F, EPSARPACK, EPS_SMALLEST_REAL, nullptr), 0);
  // Krylov-Schur with a target and no ST is fine (harmonic or not: it answers the question asked).
  EXPECT_EQ(check(H, EPSKRYLOVSCHUR, EPS_TARGET_MAGNITUDE, nullptr), 0);
  // (b) shift-and-invert (or Cayley) needs entries: refused on the folded operator and on H computed on the fly.
  EXPECT_EQ(check(F, EPSKRYLOVSCHUR, EPS_TARGET_MAGNITUDE, STSINVERT), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(check(H, EPSKRYLOVSCHUR, EPS_TARGET_MAGNITUDE, STSINVERT), 0);
  TightBindingSystem sys;
  Mat shell;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, kDot, &sys), 0);
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "shell", &shell), 0);
  EXPECT_EQ(check(shell, EPSKRYLOVSCHUR, EPS_TARGET_MAGNITUDE, STCAYLEY), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(check(shell, EPSLAPACK, EPS_TARGET_MAGNITUDE, nullptr), PETSC_ERR_USER_INPUT);
  MatDestroy(&shell);
  // The folded type refuses them through its options: its own ST, and its inner solver's.
  EigenStates st;
  std::string message;
  EXPECT_EQ(tbpeta::test::FirstMessage(
                [&] { return tbpeta::test::SolveWith(H, midgap, "-eps_type folded -st_type sinvert", &st); }, &message),
            PETSC_ERR_USER_INPUT);
  EXPECT_EQ(message,
            "-st_type sinvert: the folded spectrum applies H itself (choose the inner solver with -folded_eps_type)");
  EXPECT_EQ(
      Quietly([&] { return tbpeta::test::SolveWith(H, midgap, "-eps_type folded -folded_st_type sinvert", &st); }),
      PETSC_ERR_USER_INPUT);
  EXPECT_EQ(Quietly([&] {
              return tbpeta::test::SolveWith(
                  H, midgap,
                  "-eps_type folded -folded_eps_type arpack -folded_eps_target_magnitude -folded_eps_target 0", &st);
            }),
            PETSC_ERR_USER_INPUT);
  PetscOptionsClear(nullptr);
  MatDestroy(&F);
  MatDestroy(&H);
}

TEST(Folded, BadOptionsAreUserErrors) {
  TBPETA_ASSERT_RANKS();
  Mat H = nullptr;
  double midgap = 0;
  ASSERT_NO_FATAL_FAILURE(BuildDot(&H, &midgap));
  EigenStates st;
  struct Case {
    const char *options, *message;
  };
  const std::string outside = "-eps_target 10000. eV is outside the spectrum of H (|E| <= ";
  for (const Case &c :
       {Case{"-eps_type folded -eps_target 1e4", outside.c_str()}, Case{"-eps_type folded -eps_target nan", nullptr},
        Case{"-eps_type folded -eps_largest_real", nullptr},
        Case{"-eps_type folded -eps_folded_filter chebyshev -eps_folded_filter_degree 1",
             "-eps_folded_filter_degree must be >= 2, got 1"},
        Case{"-eps_type folded -eps_folded_filter cubic",
             "-eps_folded_filter: 'cubic' is not allowed (allowed: square, chebyshev)"}}) {
    std::string message;
    EXPECT_EQ(tbpeta::test::FirstMessage([&] { return tbpeta::test::SolveWith(H, midgap, c.options, &st); }, &message),
              PETSC_ERR_USER_INPUT)
        << c.options;
    if (c.message) EXPECT_EQ(message.rfind(c.message, 0), 0u) << message;
    else EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind("-eps_", 0), 0u) << c.options << ": " << message; // names the option
  }
  PetscOptionsClear(nullptr);
  MatDestroy(&H);
}
