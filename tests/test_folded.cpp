// The folded-spectrum method: the MatShell applies (H - sigma)^2 exactly and counts its products; on a small dot
// the states nearest midgap agree with dense LAPACK with Krylov-Schur, ARPACK and tbpeta's Lanczos on F
// (-folded_solver lanczos, with Kramers partners) on any number of ranks; a vector mixing the levels sigma -/+ d
// (one level of F) is flagged, not passed off as a state; the SLEPc combinations that would answer another
// question are refused; bad options are one-line user errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "system_fixture.hpp"
#include "study/AllocationTracker.hpp"
#include "solvers/EigenSolver.hpp"
#include "solvers/FoldedSpectrum.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::test::Quietly;

namespace {

const char *kDot = "-params klimeck2000 -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 -vbo_InAs 0.2";

// The dot's H and the host's midgap. Leaves the options database cleared of the structure options.
void BuildDot(Mat *H, double *midgap) {
  TightBindingSystem sys;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, kDot, &sys), 0);
  ASSERT_EQ(AssembleHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.cell.k, MatrixFormat::aij, H, nullptr), 0);
  double vbm, cbm;
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  *midgap = 0.5 * (vbm + cbm);
  PetscOptionsClear(nullptr);
}

// The dot in an alloyed host: only Kramers degeneracy (the alloy breaks the dot's symmetry), as the Lanczos needs.
const char *kAlloyedDot = "-params klimeck2000 -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 -host_alloy AlAs,0.3 -vbo_InAs 0.2";

using tbpeta::test::DiagonalMatrix;

// The nev eigenvalues nearest sigma, ascending; also the distance gap between the nev-th and the next one.
std::vector<double> Nearest(std::vector<double> all, double sigma, size_t nev, double *boundary_gap) {
  std::sort(all.begin(), all.end(), [&](double a, double b) { return std::fabs(a - sigma) < std::fabs(b - sigma); });
  *boundary_gap = all.size() > nev ? std::fabs(all[nev] - sigma) - std::fabs(all[nev - 1] - sigma) : 1.0;
  std::vector<double> out(all.begin(), all.begin() + nev);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST(Folded, ShellAppliesTheSquareExactly) {
  TBPETA_ASSERT_RANKS();
  Mat H = nullptr, F = nullptr;
  double midgap = 0;
  ASSERT_NO_FATAL_FAILURE(BuildDot(&H, &midgap));
  ASSERT_EQ(CreateFoldedOperator(H, midgap, &F), 0);
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
  PetscInt products = -1;
  ASSERT_EQ(FoldedOperatorProducts(F, &products), 0);
  EXPECT_EQ(products, 2 * (trials + 1));
  // A stored matrix is not a folded operator.
  EXPECT_EQ(Quietly([&] { return FoldedOperatorProducts(H, &products); }), PETSC_ERR_ARG_WRONG);
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
  for (const char *type : {"krylovschur", "arpack"}) {
    PetscOptionsClear(nullptr);
    PetscOptionsSetValue(nullptr, "-folded_eps_type", type);
    PetscOptionsSetValue(nullptr, "-folded_eps_tol", "1e-14");
    PetscOptionsSetValue(nullptr, "-folded_eps_max_it", "100000");
    FoldedOptions opt;
    ASSERT_EQ(FoldedOptionsFromOptions(PETSC_COMM_WORLD, midgap, &opt), 0);
    EXPECT_EQ(opt.shift, midgap);
    EXPECT_EQ(opt.nev, 8);
    EigenStates st;
    FoldedReport report;
    size_t baseline;
    ASSERT_EQ(BeginVectorCount(&baseline), 0);
    const double t0 = MPI_Wtime();
    ASSERT_EQ(FoldedSolveWithSlepc(H, opt, true, &st, &report), 0) << type;
    const double seconds = MPI_Wtime() - t0;
    PetscInt held;
    ASSERT_EQ(VectorsHeld(H, baseline, &held), 0);
    ASSERT_EQ(st.values.size(), nev) << type;
    ASSERT_EQ(st.vectors.size(), nev) << type;
    ASSERT_EQ(st.residuals.size(), nev) << type;
    double worst = 0, worst_res = 0;
    for (size_t i = 0; i < nev; ++i) {
      worst = std::max(worst, std::fabs(st.values[i] - ref[i]));
      worst_res = std::max(worst_res, st.residuals[i]);
    }
    EXPECT_LT(worst, 1e-8) << type;
    EXPECT_LT(worst_res, 1e-6) << type;
    EXPECT_TRUE(std::is_sorted(st.values.begin(), st.values.end()));
    EXPECT_EQ(st.solver, std::string("folded (") + type + ")");
    EXPECT_EQ(st.requested, 8);
    EXPECT_GT(st.iterations, 0);
    EXPECT_GE(st.products, 2 * 8 + 8); // at least one application per basis vector plus the Rayleigh quotients
    EXPECT_EQ(st.products % 2, 0);     // 2 per application + 8 Rayleigh products
    EXPECT_GE(held, 8 + 1 + 8); // at least a basis of nev, F's work vector and the returned vectors
    EXPECT_TRUE(report.unresolved.empty()) << st.solver;
    EXPECT_GT(st.seconds, 0);
    // The returned vectors are unit eigenvectors of H.
    Vec r;
    VecDuplicate(st.vectors[0], &r);
    for (size_t i = 0; i < nev; ++i) {
      PetscReal nrm, res;
      VecNorm(st.vectors[i], NORM_2, &nrm);
      EXPECT_NEAR(nrm, 1.0, 1e-12);
      MatMult(H, st.vectors[i], r);
      VecAXPY(r, -st.values[i], st.vectors[i]);
      VecNorm(r, NORM_2, &res);
      EXPECT_NEAR(res, st.residuals[i], 1e-12);
    }
    VecDestroy(&r);
    if (tbpeta::test::commRank() == 0)
      std::printf("  folded (%s): %d ranks, %d iterations, %d H products, %d vectors, max |dE| %.2e eV, max residual %.2e, %.3f s\n", type,
                  tbpeta::test::commSize(), (int)st.iterations, (int)st.products, (int)held, worst, worst_res, seconds);
    st.DestroyVectors();
  }
  PetscOptionsClear(nullptr);
  MatDestroy(&H);
}

// -folded_solver lanczos through SolveFromOptions, as the application runs it: the same states as -folded_solver
// slepc and as dense LAPACK, with Kramers partners, H products counted, the vectors held measured.
TEST(Folded, LanczosOnTheFoldedOperatorAgreesWithSlepcAndLapack) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  Mat H;
  double vbm, cbm;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, kAlloyedDot, &sys), 0);
  ASSERT_EQ(AssembleHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.cell.k, MatrixFormat::aij, &H, nullptr), 0);
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  const double midgap = 0.5 * (vbm + cbm);
  ASSERT_TRUE(sys.model.spin_orbit);
  const PetscInt kb = sys.model.blockSize();
  const std::vector<PetscInt> rows = sys.structure.canonicalRows(kb);
  PetscInt n;
  MatGetSize(H, &n, nullptr);
  ASSERT_LE(n, 800); // dense LAPACK stays quick
  std::vector<double> all;
  ASSERT_EQ(AllEigenvalues(H, &all), 0);
  const size_t nev = 8;
  double boundary_gap;
  const std::vector<double> ref = Nearest(all, midgap, nev, &boundary_gap);
  ASSERT_GT(boundary_gap, 1e-3) << "the 8 states nearest midgap are not well separated from the 9th";

  EigenStates by[2];
  for (FoldedSolver solver : {FoldedSolver::slepc, FoldedSolver::lanczos}) {
    EigenStates &st = by[(int)solver];
    PetscOptionsClear(nullptr);
    PetscOptionsSetValue(nullptr, "-folded_solver", FoldedSolverName(solver));
    const double t0 = MPI_Wtime();
    ASSERT_EQ(SolveFromOptions(H, SolverKind::folded, midgap, rows, (int)kb, true, &st), 0) << FoldedSolverName(solver);
    const double seconds = MPI_Wtime() - t0;
    ASSERT_EQ(st.values.size(), nev) << st.solver;
    ASSERT_EQ(st.vectors.size(), nev) << st.solver;
    double worst = 0, worst_res = 0;
    for (size_t i = 0; i < nev; ++i) {
      EXPECT_NEAR(st.values[i], ref[i], 1e-8) << st.solver << ", state " << i;
      worst = std::max(worst, std::fabs(st.values[i] - ref[i]));
      worst_res = std::max(worst_res, st.residuals[i]);
    }
    EXPECT_LT(worst_res, 1e-6) << st.solver;
    EXPECT_EQ(st.requested, 8);
    EXPECT_GT(st.iterations, 0);
    EXPECT_EQ((st.products - (PetscInt)nev) % 2, 0); // 2 per application of F, 1 per Rayleigh quotient
    if (solver == FoldedSolver::lanczos) {
      EXPECT_EQ(st.solver, "folded (lanczos)");
      EXPECT_GE(st.products, 2 * st.iterations + (PetscInt)nev); // both Lanczos passes apply F
      for (size_t i = 0; i < nev; i += 2) EXPECT_NEAR(st.values[i], st.values[i + 1], 1e-10); // Kramers partners
      EXPECT_GE(st.vectors_held, 3 + 1 + 8); // the Lanczos' 3, F's work vector, the 8 returned
    } else {
      EXPECT_EQ(st.solver, "folded (krylovschur)");
      EXPECT_GE(st.vectors_held, 8 + 1 + 8); // a basis of at least nev, F's work vector, the 8 returned
    }
    if (tbpeta::test::commRank() == 0)
      std::printf("  %s: %d rows, %d ranks, %d iterations, %d H products, %d vectors held, max |dE| %.2e eV, max residual %.2e, %.3f s\n", st.solver.c_str(), (int)n,
                  tbpeta::test::commSize(), (int)st.iterations, (int)st.products, (int)st.vectors_held, worst, worst_res, seconds);
  }
  for (size_t i = 0; i < nev; ++i) EXPECT_NEAR(by[0].values[i], by[1].values[i], 1e-8) << i;
  for (EigenStates &st : by) st.DestroyVectors();
  PetscOptionsClear(nullptr);
  MatDestroy(&H);
}

// sigma exactly midway between two levels: they are one level d^2 of F, which the single-vector Lanczos sees once,
// as a mix of both. The mix is flagged (report, solver string), never passed off as a state of H.
TEST(Folded, AMixOfSigmaMinusAndPlusDIsFlagged) {
  TBPETA_ASSERT_RANKS();
  std::vector<double> e;
  for (int k = 0; k < 100; ++k) e.push_back(-10 + 8.5 * k / 99.0 + 0.01 * std::sin(3.0 * k)); // [-10, -1.5]
  for (int k = 0; k < 100; ++k) e.push_back(1.5 + 8.5 * k / 99.0 + 0.01 * std::cos(2.0 * k));  // [1.5, 10]
  const double sigma = 0.1, d = 0.3;
  e.push_back(sigma - d), e.push_back(sigma + d);
  std::sort(e.begin(), e.end());
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, e, &A), 0);
  FoldedOptions opt;
  opt.shift = sigma, opt.nev = 2, opt.solver = FoldedSolver::lanczos;
  PetscOptionsClear(nullptr);
  EigenStates st;
  FoldedReport report;
  ASSERT_EQ(FoldedSolve(A, opt, {}, 0, false, &st, &report), 0);
  EXPECT_TRUE(report.lanczos.converged);
  ASSERT_FALSE(report.unresolved.empty()) << st.solver;
  EXPECT_NE(st.solver.find("mixed levels sigma -/+ d"), std::string::npos) << st.solver;
  for (double v : report.unresolved) EXPECT_GT(std::fabs(v - (sigma - d)) + std::fabs(v - (sigma + d)), 0.6 - 1e-9); // between them
  // Every value is either a level of H (to 1e-8 eV) or flagged, with either solver.
  for (FoldedSolver solver : {FoldedSolver::lanczos, FoldedSolver::slepc}) {
    opt.solver = solver;
    ASSERT_EQ(FoldedSolve(A, opt, {}, 0, false, &st, &report), 0);
    for (size_t i = 0; i < st.values.size(); ++i) {
      double nearest = 1e9;
      for (double x : e) nearest = std::min(nearest, std::fabs(x - st.values[i]));
      const bool flagged = st.residuals[i] > report.residual_limit;
      EXPECT_TRUE(nearest < 1e-8 || flagged) << st.solver << ": " << st.values[i] << " is " << nearest << " eV from a level, residual " << st.residuals[i];
      EXPECT_EQ(flagged, std::count(report.unresolved.begin(), report.unresolved.end(), st.values[i]) > 0);
    }
    if (tbpeta::test::commRank() == 0) std::printf("  %s: %zu states, %zu flagged (limit %.1e eV)\n", st.solver.c_str(), st.values.size(), report.unresolved.size(), report.residual_limit);
  }
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
  EPS eps;
  // (a) ARPACK with a target and no spectral transformation: it would return the largest eigenvalues.
  make(H, EPSARPACK, EPS_TARGET_MAGNITUDE, nullptr, &eps);
  EXPECT_EQ(Quietly([&] { return CheckSlepcCombination(eps, true); }), PETSC_ERR_USER_INPUT);
  EPSDestroy(&eps);
  make(H, EPSARPACK, EPS_TARGET_REAL, STSHIFT, &eps);
  EXPECT_EQ(Quietly([&] { return CheckSlepcCombination(eps, true); }), PETSC_ERR_USER_INPUT);
  EPSDestroy(&eps);
  // ... accepted with sinvert on the stored matrix, and on the folded operator (smallest real).
  make(H, EPSARPACK, EPS_TARGET_MAGNITUDE, STSINVERT, &eps);
  EXPECT_EQ(Quietly([&] { return CheckSlepcCombination(eps, true); }), 0);
  EPSDestroy(&eps);
  make(F, EPSARPACK, EPS_SMALLEST_REAL, nullptr, &eps);
  EXPECT_EQ(Quietly([&] { return CheckSlepcCombination(eps, false); }), 0);
  EPSDestroy(&eps);
  // Krylov-Schur with a target and no ST is fine (harmonic or not: it answers the question asked).
  make(H, EPSKRYLOVSCHUR, EPS_TARGET_MAGNITUDE, nullptr, &eps);
  EXPECT_EQ(Quietly([&] { return CheckSlepcCombination(eps, true); }), 0);
  EPSDestroy(&eps);
  // (b) shift-and-invert (or Cayley) needs the stored matrix: refused on a MatShell, and when the caller says so.
  make(F, EPSKRYLOVSCHUR, EPS_TARGET_MAGNITUDE, STSINVERT, &eps);
  EXPECT_EQ(Quietly([&] { return CheckSlepcCombination(eps, true); }), PETSC_ERR_USER_INPUT);
  EPSDestroy(&eps);
  make(H, EPSKRYLOVSCHUR, EPS_TARGET_MAGNITUDE, STCAYLEY, &eps);
  EXPECT_EQ(Quietly([&] { return CheckSlepcCombination(eps, false); }), PETSC_ERR_USER_INPUT);
  EPSDestroy(&eps);
  make(H, EPSKRYLOVSCHUR, EPS_TARGET_MAGNITUDE, STSINVERT, &eps);
  EXPECT_EQ(Quietly([&] { return CheckSlepcCombination(eps, true); }), 0);
  EPSDestroy(&eps);
  // The folded solve itself refuses these through its options.
  FoldedOptions opt;
  opt.shift = midgap;
  EigenStates st;
  PetscOptionsClear(nullptr);
  PetscOptionsSetValue(nullptr, "-folded_st_type", "sinvert");
  EXPECT_EQ(Quietly([&] { return FoldedSolveWithSlepc(H, opt, false, &st); }), PETSC_ERR_USER_INPUT);
  PetscOptionsClear(nullptr);
  PetscOptionsSetValue(nullptr, "-folded_eps_type", "arpack");
  PetscOptionsSetValue(nullptr, "-folded_eps_target_magnitude", nullptr);
  PetscOptionsSetValue(nullptr, "-folded_eps_target", "0");
  EXPECT_EQ(Quietly([&] { return FoldedSolveWithSlepc(H, opt, false, &st); }), PETSC_ERR_USER_INPUT);
  PetscOptionsClear(nullptr);
  MatDestroy(&F);
  MatDestroy(&H);
}

TEST(Folded, BadOptionsAreUserErrors) {
  TBPETA_ASSERT_RANKS();
  Mat H = nullptr;
  double midgap = 0;
  ASSERT_NO_FATAL_FAILURE(BuildDot(&H, &midgap));
  FoldedOptions opt;
  for (const char *nev : {"0", "-3"}) {
    PetscOptionsClear(nullptr);
    PetscOptionsSetValue(nullptr, "-folded_nev", nev);
    EXPECT_EQ(Quietly([&] { return FoldedOptionsFromOptions(PETSC_COMM_WORLD, midgap, &opt); }), PETSC_ERR_USER_INPUT) << nev;
  }
  PetscOptionsClear(nullptr);
  PetscOptionsSetValue(nullptr, "-folded_shift", "nan");
  EXPECT_NE(Quietly([&] { return FoldedOptionsFromOptions(PETSC_COMM_WORLD, midgap, &opt); }), 0);
  // -folded_solver: the two names, and one line naming the option and its values for any other.
  PetscOptionsClear(nullptr);
  ASSERT_EQ(FoldedOptionsFromOptions(PETSC_COMM_WORLD, midgap, &opt), 0);
  EXPECT_EQ(opt.solver, FoldedSolver::slepc);
  PetscOptionsSetValue(nullptr, "-folded_solver", "lanczos");
  ASSERT_EQ(FoldedOptionsFromOptions(PETSC_COMM_WORLD, midgap, &opt), 0);
  EXPECT_EQ(opt.solver, FoldedSolver::lanczos);
  PetscOptionsSetValue(nullptr, "-folded_solver", "arnoldi");
  std::string message;
  PetscPushErrorHandler(
    [](MPI_Comm, int, const char *, const char *, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx) -> PetscErrorCode {
      if (p == PETSC_ERROR_INITIAL) *(std::string *)ctx = mess ? mess : "";
      return n;
    },
    &message);
  EXPECT_EQ(FoldedOptionsFromOptions(PETSC_COMM_WORLD, midgap, &opt), PETSC_ERR_USER_INPUT);
  PetscPopErrorHandler();
  EXPECT_EQ(message, "-folded_solver arnoldi is not a folded-spectrum solver (slepc or lanczos)");
  // Values that read but cannot be solved: more states than H has, a shift outside the spectrum.
  PetscOptionsClear(nullptr);
  PetscOptionsSetValue(nullptr, "-folded_nev", "100000");
  ASSERT_EQ(FoldedOptionsFromOptions(PETSC_COMM_WORLD, midgap, &opt), 0);
  EXPECT_EQ(opt.nev, 100000);
  EigenStates st;
  EXPECT_EQ(Quietly([&] { return FoldedSolveWithSlepc(H, opt, false, &st); }), PETSC_ERR_USER_INPUT);
  PetscOptionsClear(nullptr);
  PetscOptionsSetValue(nullptr, "-folded_shift", "1e4");
  ASSERT_EQ(FoldedOptionsFromOptions(PETSC_COMM_WORLD, midgap, &opt), 0);
  EXPECT_EQ(opt.shift, 1e4);
  EXPECT_EQ(opt.nev, 8);
  EXPECT_EQ(Quietly([&] { return FoldedSolveWithSlepc(H, opt, false, &st); }), PETSC_ERR_USER_INPUT);
  PetscOptionsClear(nullptr);
  MatDestroy(&H);
}
