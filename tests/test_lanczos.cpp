// The NEMO 3-D-style Lanczos: ghost filter on a known spectrum, agreement with dense LAPACK on a small dot (with
// Kramers multiplicity), the same run on any rank count, a second pass that reproduces the first, a step cap that
// reports what did not converge, and one-line errors for bad options.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "system_fixture.hpp"
#include "solvers/LanczosSolver.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::test::Quietly;

namespace {

// A diagonal matrix with a known spectrum: 400 distinct values in [-10, -0.5] and [0.5, 10] (a gap), with a few
// clusters near the gap.
std::vector<double> KnownSpectrum() {
  std::vector<double> e;
  for (int k = 0; k < 196; ++k) e.push_back(-10 + 9.5 * k / 195.0 + 0.003 * std::sin(7.0 * k));
  for (int k = 0; k < 196; ++k) e.push_back(0.5 + 9.5 * k / 195.0 + 0.003 * std::cos(5.0 * k));
  for (double c : {-0.8, -0.6, 0.7, 0.9}) e.push_back(c + 1e-4); // in the gap region near the window's edge
  e.push_back(-0.3), e.push_back(-0.3 + 2e-5);                     // a tight pair inside the gap
  e.push_back(0.2), e.push_back(0.2 + 3e-4);
  std::sort(e.begin(), e.end());
  return e;
}

using tbpeta::test::DiagonalMatrix;

// The small dot of the tests: only Kramers degeneracy (the alloyed host breaks the dot's symmetry).
const std::string kDot = "-params klimeck2000 -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 -host_alloy AlAs,0.3 -vbo_InAs 0.2 ";

struct DotRun {
  EigenStates states;
  LanczosReport report;
  std::vector<double> dense; // all eigenvalues (when asked)
  double gap_center = 0;
};

// Builds the dot on comm with `extra` options, solves with the Lanczos (and densely when `dense`).
PetscErrorCode SolveDot(MPI_Comm comm, const std::string &extra, bool vectors, bool dense, DotRun *run, Mat *keep = nullptr) {
  TightBindingSystem sys;
  Mat H;
  double vbm, cbm;
  LanczosOptions opts;
  PetscFunctionBeginUser;
  PetscCall(tbpeta::test::BuildFromOptions(comm, kDot + extra, &sys));
  PetscCall(AssembleHamiltonian(comm, sys.structure, sys.model, sys.cell.k, MatrixFormat::aij, &H, nullptr));
  PetscCall(BulkBandEdges(sys.model, 0, &vbm, &cbm));
  run->gap_center = 0.5 * (vbm + cbm);
  opts.kramers_block = sys.model.spin_orbit ? sys.model.blockSize() : 0;
  PetscCall(LanczosOptionsFromOptions(comm, run->gap_center, &opts));
  const std::vector<PetscInt> rows = sys.structure.canonicalRows(sys.model.blockSize());
  PetscCall(LanczosSolve(H, opts, rows, vectors, &run->states, &run->report));
  if (dense) PetscCall(AllEigenvalues(H, &run->dense));
  if (keep) *keep = H;
  else PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

// The nv states just below and nc just above the gap centre of a full spectrum.
std::vector<double> AroundGap(const std::vector<double> &all, double gc, int nv, int nc) {
  const auto it = std::lower_bound(all.begin(), all.end(), gc);
  std::vector<double> out(it - nv, it + nc);
  return out;
}

} // namespace

// No spurious and no duplicated value after many more steps than the dimension.
TEST(Lanczos, GhostFilterOnAKnownSpectrum) {
  TBPETA_ASSERT_RANKS();
  const std::vector<double> e = KnownSpectrum();
  ASSERT_EQ(e.size(), 400u);
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, e, &A), 0);
  const double a = -2.0, b = 1.6;
  std::vector<double> inside;
  for (double x : e)
    if (x >= a && x <= b) inside.push_back(x);
  for (PetscInt check : {100, 2000}) { // 2000: a single check after 5 x the dimension
    LanczosOptions o;
    o.window_set = true, o.window[0] = a, o.window[1] = b;
    o.max_steps = 2000, o.check_every = check;
    EigenStates st;
    LanczosReport rep;
    ASSERT_EQ(LanczosSolve(A, o, {}, false, &st, &rep), 0);
    if (st.values.size() != inside.size())
      for (double x : inside) {
        double d = 1e9;
        for (double y : st.values) d = std::min(d, std::fabs(x - y));
        if (d > 1e-10) std::printf("missing %.12f (nearest found %.3g away)\n", x, d);
      }
    ASSERT_EQ(st.values.size(), inside.size()) << "check every " << check << ", steps " << rep.steps;
    for (size_t i = 0; i < inside.size(); ++i) EXPECT_NEAR(st.values[i], inside[i], 1e-10) << i;
    EXPECT_TRUE(rep.converged);
    if (check == 2000) EXPECT_EQ(rep.steps, 2000);
    if (check == 2000) EXPECT_GT(rep.copies + rep.spurious, 0); // the filter had work to do
    EXPECT_EQ(st.vectors_held, 3);
  }
  // nev mode on the same matrix, with vectors: 3 below and 2 above 0.
  LanczosOptions o;
  o.nev_valence = 3, o.nev_conduction = 2, o.gap_center = 0.1;
  EigenStates st;
  ASSERT_EQ(LanczosSolve(A, o, {}, true, &st), 0);
  const std::vector<double> want = AroundGap(e, 0.1, 3, 2);
  ASSERT_EQ(st.values.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(st.values[i], want[i], 1e-10);
    EXPECT_LT(st.residuals[i], 1e-8);
  }
  EXPECT_EQ(st.vectors_held, 3 + 5);
  st.DestroyVectors();
  MatDestroy(&A);
}

TEST(Lanczos, AgreesWithDenseLapackOnADotWithKramersPairs) {
  TBPETA_ASSERT_RANKS();
  DotRun run;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "", true, true, &run), 0);
  const std::vector<double> ref = AroundGap(run.dense, run.gap_center, 4, 4);
  ASSERT_EQ(run.states.values.size(), 8u) << run.states.solver;
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_NEAR(run.states.values[i], ref[i], 1e-8) << i;
    EXPECT_LT(run.states.residuals[i], 1e-6) << i;
  }
  for (size_t i = 0; i < 8; i += 2) EXPECT_EQ(run.states.values[i], run.states.values[i + 1]); // each level twice
  EXPECT_TRUE(run.report.converged);
  EXPECT_EQ(run.states.requested, 8);
  EXPECT_EQ(run.states.vectors_held, 3 + 8); // the restarted pass holds no candidate it throws away
  EXPECT_EQ(run.states.iterations, run.report.steps);
  EXPECT_GE(run.states.products, run.report.steps);
  if (tbpeta::test::commRank() == 0)
    std::printf("dot: %d steps, %d products, %d reductions (%d recomputed betas), %.3f s, %s\n", (int)run.report.steps, (int)run.states.products,
                (int)run.report.reductions, (int)run.report.recomputed_betas, run.states.seconds, run.states.solver.c_str());
  run.states.DestroyVectors();
  PetscOptionsClear(nullptr);
}

TEST(Lanczos, SameRunOnAnyRankCount) {
  TBPETA_ASSERT_RANKS();
  DotRun self, world;
  ASSERT_EQ(SolveDot(PETSC_COMM_SELF, "", false, false, &self), 0);
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "", false, false, &world), 0);
  ASSERT_EQ(self.states.values.size(), world.states.values.size());
  double diff = 0;
  for (size_t i = 0; i < self.states.values.size(); ++i) {
    EXPECT_NEAR(self.states.values[i], world.states.values[i], 1e-12) << i;
    diff = std::max(diff, std::fabs(self.states.values[i] - world.states.values[i]));
  }
  if (tbpeta::test::commRank() == 0) std::printf("rank-count independence: max |dE| %.3g eV, steps %d and %d\n", diff, (int)self.report.steps, (int)world.report.steps);
  // The same recurrence to rounding; the reduction order differs, so a level at the tolerance may be declared
  // converged one check later.
  EXPECT_LE(std::abs(self.report.steps - world.report.steps), 50);
  // The first steps of T agree to rounding (the start vector is the same in the canonical order).
  ASSERT_GE(self.report.alpha.size(), 20u);
  for (size_t j = 0; j < 20; ++j) EXPECT_NEAR(self.report.alpha[j], world.report.alpha[j], 1e-11) << j;
  PetscOptionsClear(nullptr);
}

TEST(Lanczos, SecondPassReproducesTheFirst) {
  TBPETA_ASSERT_RANKS();
  DotRun run;
  Mat H;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "-lanczos_nev_valence 2 -lanczos_nev_conduction 4", true, false, &run, &H), 0);
  EXPECT_TRUE(run.report.second_pass_identical);
  EXPECT_GT(run.report.second_pass_steps, 0);
  ASSERT_EQ(run.states.vectors.size(), run.states.values.size());
  ASSERT_EQ(run.states.values.size(), 6u);
  Vec y;
  ASSERT_EQ(MatCreateVecs(H, &y, nullptr), 0);
  for (size_t i = 0; i < run.states.values.size(); ++i) {
    PetscScalar rq, nn;
    MatMult(H, run.states.vectors[i], y);
    VecDot(y, run.states.vectors[i], &rq);
    VecDot(run.states.vectors[i], run.states.vectors[i], &nn);
    EXPECT_NEAR(PetscRealPart(rq) / PetscRealPart(nn), run.states.values[i], 1e-9) << i;
    EXPECT_LT(run.states.residuals[i], 1e-6) << i;
  }
  // A Kramers pair: orthogonal partners.
  for (size_t i = 0; i < run.states.values.size(); i += 2) {
    PetscScalar d;
    VecDot(run.states.vectors[i], run.states.vectors[i + 1], &d);
    EXPECT_LT(PetscAbsScalar(d), 1e-12) << i;
  }
  VecDestroy(&y);
  run.states.DestroyVectors();
  MatDestroy(&H);
  PetscOptionsClear(nullptr);
}

TEST(Lanczos, StepCapReportsUnconvergedValues) {
  TBPETA_ASSERT_RANKS();
  DotRun run;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "-lanczos_max_steps 60 -lanczos_check_every 50 -lanczos_monitor", true, false, &run), 0);
  EXPECT_EQ(run.report.steps, 60);
  EXPECT_FALSE(run.report.converged);
  EXPECT_FALSE(run.report.unconverged.empty());
  EXPECT_EQ(run.report.unconverged.size(), run.report.unconverged_errors.size());
  EXPECT_NE(run.states.solver.find("not converged within 60 steps"), std::string::npos) << run.states.solver;
  EXPECT_LT(run.states.values.size(), 8u);
  run.states.DestroyVectors();
  PetscOptionsClear(nullptr);
}

// A NaN in H stops the recurrence at the product that made it, with one line, instead of filling T with NaN.
TEST(Lanczos, NaNInHIsReportedWhereItAppears) {
  TBPETA_ASSERT_RANKS();
  std::vector<double> e = KnownSpectrum();
  e[e.size() / 3] = std::nan("");
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, e, &A), 0);
  EigenStates st;
  LanczosOptions o;
  o.nev_valence = 2, o.nev_conduction = 2, o.gap_center = 0;
  PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  const PetscErrorCode code = LanczosSolve(A, o, {}, false, &st);
  PetscPopErrorHandler();
  EXPECT_EQ(code, PETSC_ERR_FP);
  char *message = nullptr;
  PetscErrorMessage(code, nullptr, &message);
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message).find("Lanczos: product 1 of H gave a NaN or Inf"), std::string::npos) << message;
  MatDestroy(&A);
}

// At k != 0 (periodic axis) H is not time-reversal symmetric: Theta x is no eigenvector and is not counted.
TEST(Lanczos, NoKramersPartnerWithoutTimeReversal) {
  TBPETA_ASSERT_RANKS();
  DotRun run;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "-periodic 0,1,0 -k 0,0.23,0 -lanczos_nev_valence 1 -lanczos_nev_conduction 1", true, false, &run), 0);
  EXPECT_EQ(run.states.values.size(), 2u) << run.states.solver; // one level each side, no partner
  EXPECT_NE(run.states.solver.find("dropped"), std::string::npos) << run.states.solver;
  for (double r : run.states.residuals) EXPECT_LT(r, 1e-6);
  run.states.DestroyVectors();
  PetscOptionsClear(nullptr);
}

TEST(Lanczos, BadOptionsAreUserInputErrors) {
  TBPETA_ASSERT_RANKS();
  for (const char *bad : {"-lanczos_nev_valence -1", "-lanczos_nev_conduction -2", "-lanczos_nev_valence 0 -lanczos_nev_conduction 0", "-lanczos_window 1,0",
                          "-lanczos_window 1", "-lanczos_check_every 0", "-lanczos_max_steps 0", "-lanczos_tol 0", "-lanczos_tol 2", "-lanczos_seed -3"}) {
    PetscOptionsClear(nullptr);
    PetscOptionsInsertString(nullptr, bad);
    LanczosOptions o;
    EXPECT_EQ(Quietly([&] { return LanczosOptionsFromOptions(PETSC_COMM_WORLD, 0.5, &o); }), PETSC_ERR_USER_INPUT) << bad;
  }
  PetscOptionsClear(nullptr);
  PetscOptionsInsertString(nullptr, "-lanczos_window -1,2 -lanczos_seed 7 -lanczos_gap_center 0.3");
  LanczosOptions o;
  o.kramers_block = 20;
  ASSERT_EQ(LanczosOptionsFromOptions(PETSC_COMM_WORLD, 0.5, &o), 0);
  EXPECT_TRUE(o.window_set);
  EXPECT_EQ(o.window[0], -1.0);
  EXPECT_EQ(o.window[1], 2.0);
  EXPECT_EQ(o.seed, 7ull);
  EXPECT_EQ(o.gap_center, 0.3);
  EXPECT_EQ(o.kramers_block, 20);
  PetscOptionsClear(nullptr);
  ASSERT_EQ(LanczosOptionsFromOptions(PETSC_COMM_WORLD, 0.5, &o), 0);
  EXPECT_EQ(o.gap_center, 0.5);
  EXPECT_FALSE(o.window_set);
  // Solve-time input errors: more states than rows, a window outside the spectrum, an empty window.
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, {-1, -0.5, 0.5, 1, 2, 3}, &A), 0);
  EigenStates st;
  LanczosOptions many;
  many.nev_valence = 4, many.nev_conduction = 4;
  EXPECT_EQ(Quietly([&] { return LanczosSolve(A, many, {}, false, &st); }), PETSC_ERR_USER_INPUT);
  LanczosOptions far;
  far.window_set = true, far.window[0] = 100, far.window[1] = 200;
  EXPECT_EQ(Quietly([&] { return LanczosSolve(A, far, {}, false, &st); }), PETSC_ERR_USER_INPUT);
  LanczosOptions empty;
  empty.window_set = true, empty.window[0] = -0.2, empty.window[1] = 0.2, empty.check_every = 5;
  EXPECT_EQ(Quietly([&] { return LanczosSolve(A, empty, {}, false, &st); }), PETSC_ERR_USER_INPUT);
  MatDestroy(&A);
}

// Degeneracy beyond Kramers: a known spectrum with a 3-fold and a 2-fold level next to the gap. The first pass sees
// each level once; the restarted passes add the missing states; with 0 passes only the first pass's are returned.
TEST(Lanczos, RestartedPassesFindTheMultiplicity) {
  TBPETA_ASSERT_RANKS();
  std::vector<double> e;
  for (int k = 0; k < 150; ++k) e.push_back(-10 + 9 * k / 149.0 + 0.002 * std::sin(3.0 * k));
  for (int k = 0; k < 150; ++k) e.push_back(1 + 9 * k / 149.0 + 0.002 * std::cos(2.0 * k));
  for (int i = 0; i < 3; ++i) e.push_back(-0.4); // 3-fold, the highest valence level
  for (int i = 0; i < 2; ++i) e.push_back(0.6);  // 2-fold, the lowest conduction level
  std::sort(e.begin(), e.end());
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, e, &A), 0);
  LanczosOptions o;
  o.nev_valence = 3, o.nev_conduction = 2, o.gap_center = 0.1;
  EigenStates st;
  LanczosReport rep;
  ASSERT_EQ(LanczosSolve(A, o, {}, true, &st, &rep), 0);
  ASSERT_EQ(st.values.size(), 5u) << st.solver;
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(st.values[i], i < 3 ? -0.4 : 0.6, 1e-10) << i;
    EXPECT_LT(st.residuals[i], 1e-8) << i;
  }
  // The states of a level are orthonormal.
  for (size_t i = 0; i < 5; ++i)
    for (size_t j = 0; j < 5; ++j) {
      PetscScalar d;
      VecDot(st.vectors[i], st.vectors[j], &d);
      EXPECT_NEAR(PetscAbsScalar(d), i == j ? 1.0 : 0.0, 1e-10) << i << "," << j;
    }
  EXPECT_EQ(rep.extra_states, 3);
  EXPECT_GE(rep.multiplicity_passes, 3); // two that add, one that adds nothing
  // 3 recurrence vectors + the 5 levels of the first pass + the 3 new states; nothing else (the levels above and
  // below the 5 wanted states go after the trimming to whole levels).
  EXPECT_EQ(st.vectors_held, 3 + 5 + 3);
  EXPECT_TRUE(rep.multiplicity_complete);
  st.DestroyVectors();
  o.multiplicity_passes = 0; // each level once: the 3 levels below and the 2 above the gap centre
  ASSERT_EQ(LanczosSolve(A, o, {}, true, &st, &rep), 0);
  ASSERT_EQ(st.values.size(), 5u);
  EXPECT_EQ(std::count_if(st.values.begin(), st.values.end(), [](double x) { return std::fabs(x + 0.4) < 1e-9; }), 1);
  EXPECT_EQ(rep.multiplicity_passes, 0);
  st.DestroyVectors();
  MatDestroy(&A);
}

// A first pass stopped by its step cap and continued from the checkpoint gives the uninterrupted run, bit for bit;
// checkpoints of another run are refused in one line.
TEST(Lanczos, CheckpointContinuesTheRunAndRefusesAnotherOne) {
  TBPETA_ASSERT_RANKS();
  const std::string file = "lanczos-checkpoint-np" + std::to_string(tbpeta::test::commSize()) + ".bin";
  std::remove(file.c_str());
  DotRun whole, part, rest;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "-lanczos_multiplicity_passes 0", true, false, &whole), 0);
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "-lanczos_multiplicity_passes 0 -lanczos_max_steps 230 -lanczos_checkpoint_every 100 -lanczos_checkpoint " + file, true, false, &part), 0);
  EXPECT_FALSE(part.report.converged);
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "-lanczos_multiplicity_passes 0 -lanczos_checkpoint " + file, true, false, &rest), 0);
  EXPECT_EQ(rest.report.resumed_from, 230);
  EXPECT_TRUE(rest.report.converged);
  EXPECT_EQ(rest.report.steps, whole.report.steps);
  EXPECT_EQ(rest.report.alpha, whole.report.alpha); // bit for bit
  EXPECT_EQ(rest.report.beta, whole.report.beta);
  EXPECT_TRUE(rest.report.second_pass_identical);
  ASSERT_EQ(rest.states.values, whole.states.values);
  // A converged checkpoint: straight to the second pass.
  DotRun again;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "-lanczos_multiplicity_passes 0 -lanczos_checkpoint " + file, true, false, &again), 0);
  EXPECT_EQ(again.report.resumed_from, whole.report.steps);
  EXPECT_EQ(again.report.steps, whole.report.steps);
  EXPECT_EQ(again.states.values, whole.states.values);
  for (DotRun *r : {&whole, &part, &rest, &again}) r->states.DestroyVectors();
  // Refused: another seed, another structure (size), another H of the same size, another rank count, not a checkpoint.
  DotRun bad;
  EXPECT_EQ(Quietly([&] { return SolveDot(PETSC_COMM_WORLD, "-lanczos_seed 9 -lanczos_checkpoint " + file, true, false, &bad); }), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(Quietly([&] { return SolveDot(PETSC_COMM_WORLD, "-cells 3,2,2 -lanczos_checkpoint " + file, true, false, &bad); }), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(Quietly([&] { return SolveDot(PETSC_COMM_WORLD, "-vbo_InAs 0.25 -lanczos_checkpoint " + file, true, false, &bad); }), PETSC_ERR_USER_INPUT);
  if (tbpeta::test::commSize() > 1) {
    const std::string mine = file + ".self" + std::to_string(tbpeta::test::commRank());
    std::remove(mine.c_str());
    DotRun one;
    ASSERT_EQ(SolveDot(PETSC_COMM_SELF, "-lanczos_max_steps 50 -lanczos_checkpoint " + mine, false, false, &one), 0);
    EXPECT_EQ(Quietly([&] { return SolveDot(PETSC_COMM_WORLD, "-lanczos_checkpoint " + file + ".self0", false, false, &bad); }), PETSC_ERR_USER_INPUT);
    MPI_Barrier(PETSC_COMM_WORLD);
    std::remove(mine.c_str());
  }
  if (tbpeta::test::commRank() == 0) {
    FILE *f = std::fopen(file.c_str(), "wb");
    std::fputs("not a checkpoint at all, just some text", f);
    std::fclose(f);
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  EXPECT_EQ(Quietly([&] { return SolveDot(PETSC_COMM_WORLD, "-lanczos_checkpoint " + file, false, false, &bad); }), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(Quietly([&] { return SolveDot(PETSC_COMM_WORLD, "-lanczos_checkpoint /nonexistent-dir/ck.bin", false, false, &bad); }), PETSC_ERR_USER_INPUT);
  MPI_Barrier(PETSC_COMM_WORLD);
  if (tbpeta::test::commRank() == 0) std::remove(file.c_str());
  PetscOptionsClear(nullptr);
}

// The physical case: bulk GaAs at Gamma with spin-orbit (nemo3d sp3d5s*), whose valence-band top is the fourfold
// Gamma8 level: the first pass and its Kramers partner give two states, a restarted pass the other two.
TEST(Lanczos, BulkGamma8IsFourfold) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  Mat H;
  double vbm, cbm;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, "-params nemo3d -material GaAs -cells 1,1,1 -periodic 1,1,1", &sys), 0);
  ASSERT_EQ(AssembleHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.cell.k, MatrixFormat::aij, &H, nullptr), 0);
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  LanczosOptions o;
  o.kramers_block = sys.model.blockSize();
  o.gap_center = 0.5 * (vbm + cbm), o.nev_valence = 4, o.nev_conduction = 2;
  EigenStates st;
  LanczosReport rep;
  ASSERT_EQ(LanczosSolve(H, o, sys.structure.canonicalRows(sys.model.blockSize()), true, &st, &rep), 0);
  ASSERT_EQ(st.values.size(), 6u) << st.solver;
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_NEAR(st.values[i], i < 4 ? vbm : cbm, 1e-8) << i;
    EXPECT_LT(st.residuals[i], 1e-8) << i;
  }
  EXPECT_EQ(rep.extra_states, 2);
  EXPECT_TRUE(rep.multiplicity_complete);
  st.DestroyVectors();
  MatDestroy(&H);
  PetscOptionsClear(nullptr);
}
