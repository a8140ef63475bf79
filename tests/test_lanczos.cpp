// The NEMO 3-D-style Lanczos as the EPS type nemo: ghost filter on a known spectrum, two levels closer than the copy
// tolerance kept apart (by the filter and in the Ritz vectors), agreement with dense LAPACK on a small dot (with
// Kramers multiplicity), the same run on any rank count, a second pass that reproduces the first, a step cap that
// reports what did not converge, SLEPc's interface (prefix, -eps_view, EPSGetEigenpair), the memory it holds
// (measured), and one-line errors for bad options.
#include <gtest/gtest.h>
#include <petscsys.h>
#include <petscviewerhdf5.h>

#include <petscblaslapack.h> // after PETSc's own headers, which it needs

#include <algorithm>
#include <set>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>

#include "bulk/CellSpectrum.hpp"
#include "solvers/lanczos/LanczosRecurrence.hpp"
#include "solvers/lanczos/NemoLanczos.hpp"
#include "solvers/lanczos/TridiagonalAnalysis.hpp"
#include "study/AllocationTracker.hpp"
#include "support/CollectiveError.hpp"
#include "study/SolveMemory.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::lanczos::LanczosReport;
using tbpeta::lanczos::LogChristoffel;
using tbpeta::lanczos::StatesRecord;
using tbpeta::test::Quietly;

namespace {

// A diagonal matrix with a known spectrum: 400 distinct values in [-10, -0.5] and [0.5, 10] (a gap), with a few
// clusters near the gap.
std::vector<double> KnownSpectrum() {
  std::vector<double> e;
  for (int k = 0; k < 196; ++k) e.push_back(-10 + 9.5 * k / 195.0 + 0.003 * std::sin(7.0 * k));
  for (int k = 0; k < 196; ++k) e.push_back(0.5 + 9.5 * k / 195.0 + 0.003 * std::cos(5.0 * k));
  for (double c : {-0.8, -0.6, 0.7, 0.9}) e.push_back(c + 1e-4); // in the gap region near the window's edge
  e.push_back(-0.3), e.push_back(-0.3 + 2e-5);                   // a tight pair inside the gap
  e.push_back(0.2), e.push_back(0.2 + 3e-4);
  std::sort(e.begin(), e.end());
  return e;
}

using tbpeta::test::DiagonalMatrix;

// Tracking on for one test (the vectors held are measured), off again after it.
struct Tracking {
  Tracking() { EXPECT_EQ(StartAllocationTracking(), 0); }
  ~Tracking() { EXPECT_EQ(StopAllocationTracking(), 0); }
};

// A nemo solve of A (the EPS kept for its vectors and report until the run goes).
struct NemoRun {
  EPS eps = nullptr;
  EigenStates states;
  LanczosReport report;
  NemoRun() = default;
  NemoRun(const NemoRun &) = delete;
  NemoRun &operator=(const NemoRun &) = delete;
  ~NemoRun() { EPSDestroy(&eps); }
};

PetscErrorCode SolveNemo(Mat A, double target, const std::string &options, NemoRun *run, SolveMeter *meter = nullptr) {
  const LanczosReport *report;
  PetscFunctionBeginUser;
  PetscCall(EPSDestroy(&run->eps));
  PetscCall(tbpeta::test::SolveWith(A, target, "-eps_type nemo " + options, &run->states, meter, &run->eps));
  PetscCall(EPSNemoGetReport(run->eps, &report));
  run->report = *report;
  PetscFunctionReturn(0);
}

// The small dot of the tests: only Kramers degeneracy (the alloyed host breaks the dot's symmetry).
const std::string kDot = "-params klimeck2000 -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 "
                         "-host_alloy AlAs,0.3 -vbo_InAs 0.2 ";

struct DotRun : NemoRun {
  std::vector<double> dense; // all eigenvalues (when asked)
  double gap_center = 0;
  Mat H = nullptr;
  ~DotRun() { MatDestroy(&H); }
};

// The test dot on all ranks and the gap centre of its host.
void BuildDot(TightBindingSystem *sys, double *gap_center) {
  double vbm, cbm;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, kDot, sys), 0);
  ASSERT_EQ(BulkBandEdges(sys->model, 0, &vbm, &cbm), 0);
  *gap_center = 0.5 * (vbm + cbm);
}

// Builds the dot on comm with the structure options `structure`, solves with nemo and `solver` options around the
// gap centre (and densely when `dense`).
PetscErrorCode SolveDot(MPI_Comm comm, const std::string &structure, const std::string &solver, bool dense,
                        DotRun *run) {
  TightBindingSystem sys;
  double vbm, cbm;
  PetscFunctionBeginUser;
  PetscCall(tbpeta::test::BuildFromOptions(comm, kDot + structure, &sys));
  PetscCall(MatDestroy(&run->H));
  PetscCall(CreateHamiltonian(comm, sys.structure, sys.model, sys.spec.cell.k, HamiltonianOptions{}, &run->H));
  PetscCall(BulkBandEdges(sys.model, 0, &vbm, &cbm));
  run->gap_center = 0.5 * (vbm + cbm);
  PetscCall(SolveNemo(run->H, run->gap_center, solver, run));
  if (dense) PetscCall(AllEigenvalues(run->H, &run->dense));
  PetscFunctionReturn(0);
}

// The nv states just below and nc just above the gap centre of a full spectrum.
std::vector<double> AroundGap(const std::vector<double> &all, double gc, int nv, int nc) {
  const auto it = std::lower_bound(all.begin(), all.end(), gc);
  std::vector<double> out(it - nv, it + nc);
  return out;
}

// The inner products of the states' vectors: max |<x_i, x_j> - delta_ij|.
double Orthonormality(Mat A, const NemoRun &run) {
  std::vector<Vec> x(run.states.values.size());
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    MatCreateVecs(A, &x[i], nullptr);
    StateVector(run.eps, run.states, i, x[i]);
  }
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t j = 0; j < x.size(); ++j) {
      PetscScalar d;
      VecDot(x[i], x[j], &d);
      worst = std::max(worst, std::fabs(PetscAbsScalar(d) - (i == j ? 1.0 : 0.0)));
    }
  for (Vec &v : x) VecDestroy(&v);
  return worst;
}

// T_m of Lanczos on diag(e) from the start b in exact arithmetic (each new vector orthogonalised twice against all
// before it): each eigenvalue of T_m then appears once, as a simple value.
void ExactLanczos(const std::vector<double> &e, std::vector<double> b, int m, std::vector<double> *alpha,
                  std::vector<double> *beta) {
  const size_t n = e.size();
  std::vector<std::vector<double>> V;
  const auto dot = [](const std::vector<double> &x, const std::vector<double> &y) {
    double s = 0;
    for (size_t i = 0; i < x.size(); ++i) s += x[i] * y[i];
    return s;
  };
  double nb = std::sqrt(dot(b, b));
  for (double &x : b) x /= nb;
  alpha->clear(), beta->assign(1, 0.0);
  for (int j = 0; j < m; ++j) {
    V.push_back(b);
    std::vector<double> w(n);
    for (size_t i = 0; i < n; ++i) w[i] = e[i] * b[i];
    alpha->push_back(dot(w, b));
    for (int pass = 0; pass < 2; ++pass)
      for (const auto &v : V) {
        const double c = dot(w, v);
        for (size_t i = 0; i < n; ++i) w[i] -= c * v[i];
      }
    nb = std::sqrt(dot(w, w));
    beta->push_back(nb);
    for (size_t i = 0; i < n; ++i) b[i] = w[i] / nb;
  }
}

} // namespace

// Two levels closer than a few copy tolerances (a fourfold level split by a box that is not quite symmetric) are two
// levels: T^ has a value between them, within the tolerance of both, but the start vector reaches both, so neither
// is a ghost; and each gets its own Ritz vector.
TEST(Lanczos, LevelsCloserThanTheCopyToleranceAreTwoLevels) {
  std::vector<double> e;
  for (int k = 0; k < 120; ++k) e.push_back(-10 + 9 * k / 119.0 + 0.01 * std::sin(3.0 * k));
  for (int k = 0; k < 120; ++k) e.push_back(1 + 9 * k / 119.0 + 0.01 * std::cos(2.0 * k));
  e.push_back(0.6);
  const double pair = -0.4;
  e.push_back(pair), e.push_back(pair + 1e-9); // the second moved to 1.5 copy tolerances below, once T's scale is known
  std::vector<double> b(e.size());
  for (size_t i = 0; i < b.size(); ++i) b[i] = 1 + 0.5 * std::sin(3.0 * i);
  std::vector<double> alpha, beta;
  tbpeta::lanczos::Wanted want;
  want.levels_v = 2, want.levels_c = 1, want.rows = (double)b.size();
  tbpeta::lanczos::Check chk;
  const int m = (int)e.size(); // the whole space: T_m has exactly the values of e, and every value has converged
  ExactLanczos(e, b, m, &alpha, &beta);
  ASSERT_EQ(tbpeta::lanczos::AnalyseT(alpha, beta, want, 1e-10, &chk), 0);
  const double delta = 1.5 * tbpeta::lanczos::kLanczosCopyTolerance * chk.scale; // 1.5 copy tolerances apart
  e.pop_back(), e.push_back(pair + delta);
  ExactLanczos(e, b, m, &alpha, &beta);
  ASSERT_EQ(tbpeta::lanczos::AnalyseT(alpha, beta, want, 1e-10, &chk), 0);
  ASSERT_EQ(chk.wanted.size(), 3u);
  EXPECT_NEAR(chk.wanted[0].value, pair, 1e-13);
  EXPECT_NEAR(chk.wanted[1].value, pair + delta, 1e-13);
  EXPECT_NEAR(chk.wanted[2].value, 0.6, 1e-13);
  for (const auto &l : chk.wanted) EXPECT_TRUE(l.converged) << l.value;
  EXPECT_EQ(chk.spurious, 0);
  // The same value asked twice, the second time with the first's value taken: two orthogonal vectors of T.
  const double same = tbpeta::lanczos::CopyTolerance(chk.scale);
  std::vector<double> s0, s1;
  double c0, c1;
  ASSERT_EQ(tbpeta::lanczos::RitzCoefficients(alpha, beta, m, pair, same, {}, &s0, &c0), 0);
  ASSERT_EQ(tbpeta::lanczos::RitzCoefficients(alpha, beta, m, pair, same, {c0}, &s1, &c1), 0);
  EXPECT_NEAR(c0, pair, 1e-13);
  EXPECT_NEAR(c1, pair + delta, 1e-13);
  double overlap = 0;
  for (int j = 0; j < m; ++j) overlap += s0[j] * s1[j];
  EXPECT_LT(std::fabs(overlap), 1e-6);
}

namespace {

// The first pass's T of the 10^6-atom dot (options/dot-1M.opts on 2 ranks, -eps_nev 16 -eps_nemo_valence 8 so that
// it ran past the default stop, saved with -eps_nemo_checkpoint; its first 5,950 steps): alpha[0..5950) then
// beta[0..5950], little-endian doubles. Its highest hole level, the Td sphere's fourfold 0.17539769 eV, is two Kramers
// pairs 4.5e-10 eV apart, less than what convergence tells apart (tol * scale = 4.2e-9 eV); the second pair is a
// value of T of its own from step 4,550 on, and converges at step 5,950.
PetscErrorCode ReadDot1MT(int m, std::vector<double> *alpha, std::vector<double> *beta) {
  constexpr int kSaved = 5950;
  PetscFunctionBeginUser;
  std::ifstream in(TBPETA_TEST_INPUTS_DIR "/dot-1M-lanczos-T.bin", std::ios::binary);
  std::vector<double> all(2 * kSaved + 1);
  in.read(reinterpret_cast<char *>(all.data()), (std::streamsize)(all.size() * sizeof(double)));
  PetscCheck(in.gcount() == (std::streamsize)(all.size() * sizeof(double)), PETSC_COMM_SELF, PETSC_ERR_FILE_READ,
             "tests/inputs/dot-1M-lanczos-T.bin: missing or short");
  PetscCheck(m <= kSaved, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the saved T has %d steps, %d asked", kSaved, m);
  alpha->assign(all.begin(), all.begin() + m);
  beta->assign(all.begin() + kSaved, all.begin() + kSaved + m); // beta[0..m)
  beta->push_back(all[kSaved + m]);                             // beta[m]: the next off-diagonal
  PetscFunctionReturn(0);
}

// Every eigenvalue of T (alpha[0..m), beta[1..m)) by LAPACK (dsteqr), ascending.
std::vector<double> TEigenvalues(const std::vector<double> &alpha, const std::vector<double> &beta) {
  PetscBLASInt n = (PetscBLASInt)alpha.size(), one = 1, info;
  std::vector<double> d(alpha), e(beta.begin() + 1, beta.begin() + 1 + std::max<size_t>(1, alpha.size()) - 1), work(1);
  LAPACKREALsteqr_("N", &n, d.data(), e.data(), nullptr, &one, work.data(), &info);
  EXPECT_EQ(info, 0);
  return d;
}

// The eigenvalues of T in [lo, hi], copies (values closer than 1e-11 eV, the ghosts of a converged level) merged.
std::vector<double> DistinctIn(const std::vector<double> &values, double lo, double hi) {
  std::vector<double> out;
  for (double v : values)
    if (v >= lo && v <= hi && (out.empty() || v - out.back() > 1e-11)) out.push_back(v);
  return out;
}

// The eigenvalue of T nearest `guess` (the guess only selects; the value is LAPACK's).
double NearestEigenvalue(const std::vector<double> &values, double guess) {
  return *std::min_element(values.begin(), values.end(),
                           [&](double a, double b) { return std::fabs(a - guess) < std::fabs(b - guess); });
}

} // namespace

// The pass must not stop on a converged level while that level's partner, a value of T of its own that the start
// vector reaches and closer to it than the convergence tolerance, is still converging. At step 5,800 of the 10^6-atom
// dot's T the first pair of 0.17539769 eV had converged (error 3.0e-9 eV), its partner had not (8.9e-9 eV), and the
// next hole level 0.17258275 eV had: the partner, inside its error bound of the converged pair, was dropped as no
// evidence of another level, and the pass returned 0.17258275 as the second hole level. Replayed on the saved T.
TEST(Lanczos, PartnerCloserThanTheToleranceIsWaitedFor) {
  tbpeta::lanczos::Wanted want; // 4 + 4 states around the GaAs midgap, Kramers pairs: 2 levels each side
  want.gap_center = 0.7091, want.levels_v = 2, want.levels_c = 2, want.rows = 2e7;
  std::vector<double> alpha, beta;
  tbpeta::lanczos::Check chk;
  ASSERT_EQ(ReadDot1MT(5800, &alpha, &beta), 0);
  // The levels from T itself by LAPACK: the fourfold level's two pairs (4.5e-10 eV apart: the only values of T in
  // [0.1753, 0.1755] eV) and the next hole level.
  const std::vector<double> spectrum = TEigenvalues(alpha, beta), four = DistinctIn(spectrum, 0.1753, 0.1755);
  ASSERT_EQ(four.size(), 2u);
  const double partner = four[0], high = four[1], next = NearestEigenvalue(spectrum, 0.17258);
  EXPECT_NEAR(high - partner, 4.5e-10, 0.1e-10);
  ASSERT_EQ(tbpeta::lanczos::AnalyseT(alpha, beta, want, 1e-10, &chk), 0);
  ASSERT_EQ(chk.wanted.size(), 4u);
  EXPECT_NEAR(chk.wanted[0].value, partner, 1e-11);
  EXPECT_FALSE(chk.wanted[0].converged); // the pass goes on
  EXPECT_NEAR(chk.wanted[1].value, high, 1e-11);
  EXPECT_TRUE(chk.wanted[1].converged);
  for (const auto &l : chk.wanted) EXPECT_GT(std::fabs(l.value - next), 1e-6) << l.value;
  ASSERT_EQ(ReadDot1MT(5950, &alpha, &beta), 0);
  ASSERT_EQ(tbpeta::lanczos::AnalyseT(alpha, beta, want, 1e-10, &chk), 0);
  ASSERT_EQ(chk.wanted.size(), 4u);
  EXPECT_NEAR(chk.wanted[0].value, partner, 1e-11);
  EXPECT_NEAR(chk.wanted[1].value, high, 1e-11);
  const std::vector<double> all = TEigenvalues(alpha, beta); // the two conduction levels: LAPACK's values of T_5950
  EXPECT_NEAR(chk.wanted[2].value, NearestEigenvalue(all, 0.8133), 1e-11);
  EXPECT_NEAR(chk.wanted[3].value, NearestEigenvalue(all, 0.9667), 1e-11);
  for (const auto &l : chk.wanted) EXPECT_TRUE(l.converged) << l.value; // the pass stops here, the level whole
  EXPECT_TRUE(chk.neighbours_converged);
}

// The weight |<e_k, x>|^2 of state i of a run on a diagonal matrix on its k-th unit vector (the k-th eigenvector).
PetscErrorCode WeightOn(Mat A, const NemoRun &run, size_t i, PetscInt k, double *weight) {
  Vec x, u;
  PetscScalar d;
  PetscInt lo, hi;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &u));
  PetscCall(StateVector(run.eps, run.states, i, x));
  PetscCall(VecSet(u, 0));
  PetscCall(VecGetOwnershipRange(u, &lo, &hi));
  if (k >= lo && k < hi) PetscCall(VecSetValue(u, k, 1, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(u));
  PetscCall(VecAssemblyEnd(u));
  PetscCall(VecDot(x, u, &d));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&u));
  *weight = PetscRealPart(d * PetscConj(d));
  PetscFunctionReturn(0);
}

// An isolated pair 5e-10 apart converges early as one value of T, a mixture of the two levels (at step 100 on one
// rank), long before the slow conduction level; T holds a value for each level only later (step 180). Each state must
// be its own level's vector then, not the early mixture's (the code before that case was handled gave both states the
// mixture's vector: weights 0.96 and 0.04, overlap 1).
TEST(Lanczos, ClosePairGetsTwoVectorsAfterAnEarlyMixture) {
  TBPETA_ASSERT_RANKS();
  std::vector<double> e;
  for (int k = 0; k < 150; ++k) e.push_back(-10 + 6 * k / 149.0 + 0.003 * std::sin(7.0 * k));
  for (int k = 0; k < 150; ++k) e.push_back(1 + 9 * std::pow(k / 149.0, 1.5) + 0.001 * std::cos(5.0 * k));
  const double pair = -2, delta = 5e-10;
  e.push_back(pair), e.push_back(pair + delta);
  std::sort(e.begin(), e.end());
  const PetscInt k0 = std::lower_bound(e.begin(), e.end(), pair) - e.begin(); // pair + delta is the next one
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, e, &A), 0);
  NemoRun run;
  ASSERT_EQ(SolveNemo(A, 0.0, "-eps_nev 3 -eps_nemo_valence 2 -eps_nemo_check_every 10 -eps_nemo_multiplicity_passes 0",
                      &run),
            0);
  const EigenStates &st = run.states;
  ASSERT_EQ(st.values.size(), 3u) << "steps " << run.report.steps;
  EXPECT_NEAR(st.values[0], pair, 1e-11);
  EXPECT_NEAR(st.values[1], pair + delta, 1e-11);
  EXPECT_NEAR(st.values[2], 1.001, 1e-11);
  for (size_t i = 0; i < 3; ++i) EXPECT_LT(st.residuals[i], 1e-9) << i;
  for (size_t i = 0; i < 2; ++i) { // each state of the pair is its own level's eigenvector
    double weight;
    ASSERT_EQ(WeightOn(A, run, i, k0 + (PetscInt)i, &weight), 0);
    EXPECT_GT(weight, 0.99) << i;
  }
  EXPECT_LT(Orthonormality(A, run), 1e-3);
  MatDestroy(&A);
}

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
    NemoRun run;
    const std::string options =
        "-eps_interval -2,1.6 -eps_max_it 2000 -eps_nemo_vectors false -eps_nemo_check_every " + std::to_string(check);
    ASSERT_EQ(SolveNemo(A, 0.0, options, &run), 0);
    const EigenStates &st = run.states;
    if (st.values.size() != inside.size())
      for (double x : inside) {
        double d = 1e9;
        for (double y : st.values) d = std::min(d, std::fabs(x - y));
        if (d > 1e-10) std::printf("missing %.12f (nearest found %.3g away)\n", x, d);
      }
    ASSERT_EQ(st.values.size(), inside.size()) << "check every " << check << ", steps " << run.report.steps;
    for (size_t i = 0; i < inside.size(); ++i) EXPECT_NEAR(st.values[i], inside[i], 1e-10) << i;
    EXPECT_TRUE(run.report.converged);
    EXPECT_FALSE(st.vectors);
    if (check == 2000) EXPECT_EQ(run.report.steps, 2000);
    if (check == 2000) EXPECT_GT(run.report.copies + run.report.spurious, 0); // the filter had work to do
  }
  // Around a target on the same matrix, with vectors: 3 below and 2 above 0.1.
  NemoRun run;
  ASSERT_EQ(SolveNemo(A, 0.1, "-eps_nev 5 -eps_nemo_valence 3", &run), 0);
  const std::vector<double> want = AroundGap(e, 0.1, 3, 2);
  ASSERT_EQ(run.states.values.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(run.states.values[i], want[i], 1e-10);
    EXPECT_LT(run.states.residuals[i], 1e-8);
  }
  MatDestroy(&A);
}

TEST(Lanczos, AgreesWithDenseLapackOnADotWithKramersPairs) {
  TBPETA_ASSERT_RANKS();
  DotRun run;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "", "", true, &run), 0);
  const std::vector<double> ref = AroundGap(run.dense, run.gap_center, 4, 4);
  ASSERT_EQ(run.states.values.size(), 8u) << run.states.solver;
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_NEAR(run.states.values[i], ref[i], 1e-8) << i;
    EXPECT_LT(run.states.residuals[i], 1e-6) << i;
  }
  for (size_t i = 0; i < 8; i += 2) EXPECT_EQ(run.states.values[i], run.states.values[i + 1]); // each level twice
  EXPECT_TRUE(run.report.converged);
  EXPECT_TRUE(run.report.kramers);
  EXPECT_EQ(run.states.requested, 8);
  EXPECT_EQ(run.states.iterations, run.report.steps);
  EXPECT_GE(run.states.products, run.report.steps);
  if (tbpeta::test::commRank() == 0)
    std::printf("dot: %d steps, %d products, %d reductions (%d recomputed betas), %.3f s, %s\n", (int)run.report.steps,
                (int)run.states.products, (int)run.report.reductions, (int)run.report.recomputed_betas,
                run.states.seconds, run.states.solver.c_str());
  PetscOptionsClear(nullptr);
}

// SLEPc's interface works for the type: an options prefix, EPSGetConverged/EPSGetEigenpair in tbpeta's order,
// -eps_view, -eps_monitor.
TEST(Lanczos, WorksThroughSlepcsInterface) {
  TBPETA_ASSERT_RANKS();
  DotRun run;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "", "-eps_nev 6 -eps_nemo_valence 2", false, &run), 0);
  ASSERT_EQ(run.states.values.size(), 6u);
  PetscOptionsClear(nullptr);
  PetscOptionsInsertString(nullptr,
                           "-dot_eps_nev 6 -dot_eps_nemo_valence 2 -dot_eps_monitor ascii:/dev/null -eps_nev 2");
  EPS eps;
  ASSERT_EQ(CreateEigenSolver(PETSC_COMM_WORLD, "dot_", run.gap_center, &eps), 0);
  EPSType type;
  EPSGetType(eps, &type);
  EXPECT_STREQ(type, EPSNEMO);
  ASSERT_EQ(EPSSetOperators(eps, run.H, nullptr), 0);
  ASSERT_EQ(EPSSolve(eps), 0);
  PetscInt nconv = 0;
  EPSGetConverged(eps, &nconv);
  ASSERT_EQ(nconv, 6);
  Vec x, r;
  MatCreateVecs(run.H, &x, &r);
  std::vector<double> values;
  for (PetscInt i = 0; i < nconv; ++i) {
    PetscScalar lambda;
    ASSERT_EQ(EPSGetEigenpair(eps, i, &lambda, nullptr, x, nullptr), 0);
    values.push_back(PetscRealPart(lambda));
    PetscReal res;
    MatMult(run.H, x, r);
    VecAXPY(r, -lambda, x);
    VecNorm(r, NORM_2, &res);
    EXPECT_LT(res, 1e-6) << i;
  }
  std::sort(values.begin(), values.end());
  for (size_t i = 0; i < 6; ++i) EXPECT_NEAR(values[i], run.states.values[i], 1e-12) << i;
  // -eps_view names the type and its settings.
  PetscViewer viewer;
  const std::string file = "nemo-view-np" + std::to_string(tbpeta::test::commSize()) + ".txt";
  PetscViewerASCIIOpen(PETSC_COMM_WORLD, file.c_str(), &viewer);
  EXPECT_EQ(EPSView(eps, viewer), 0);
  PetscViewerDestroy(&viewer);
  if (tbpeta::test::commRank() == 0) {
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("type: nemo"), std::string::npos) << text;
    EXPECT_NE(text.find("states below the target: 2"), std::string::npos) << text;
    std::remove(file.c_str());
  }
  VecDestroy(&x), VecDestroy(&r);
  EPSDestroy(&eps);
  PetscOptionsClear(nullptr);
}

TEST(Lanczos, SameRunOnAnyRankCount) {
  TBPETA_ASSERT_RANKS();
  DotRun self, world;
  ASSERT_EQ(SolveDot(PETSC_COMM_SELF, "", "-eps_nemo_vectors false", false, &self), 0);
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "", "-eps_nemo_vectors false", false, &world), 0);
  ASSERT_EQ(self.states.values.size(), world.states.values.size());
  double diff = 0;
  for (size_t i = 0; i < self.states.values.size(); ++i) {
    EXPECT_NEAR(self.states.values[i], world.states.values[i], 1e-12) << i;
    diff = std::max(diff, std::fabs(self.states.values[i] - world.states.values[i]));
  }
  if (tbpeta::test::commRank() == 0)
    std::printf("rank-count independence: max |dE| %.3g eV, steps %d and %d\n", diff, (int)self.report.steps,
                (int)world.report.steps);
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
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "", "-eps_nev 6 -eps_nemo_valence 2", false, &run), 0);
  EXPECT_TRUE(run.report.second_pass_identical);
  EXPECT_GT(run.report.passes.second_pass_steps, 0);
  ASSERT_EQ(run.states.values.size(), 6u);
  ASSERT_TRUE(run.states.vectors);
  EXPECT_EQ(
      std::count_if(run.states.values.begin(), run.states.values.end(), [&](double v) { return v < run.gap_center; }),
      2);
  Vec x, y;
  ASSERT_EQ(MatCreateVecs(run.H, &x, &y), 0);
  for (size_t i = 0; i < run.states.values.size(); ++i) {
    PetscScalar rq;
    StateVector(run.eps, run.states, i, x);
    MatMult(run.H, x, y);
    VecDot(y, x, &rq);
    EXPECT_NEAR(PetscRealPart(rq), run.states.values[i], 1e-9) << i;
    EXPECT_LT(run.states.residuals[i], 1e-6) << i;
  }
  // Unit vectors, orthogonal (a Kramers pair's partners included).
  EXPECT_LT(Orthonormality(run.H, run), 1e-10);
  VecDestroy(&x), VecDestroy(&y);
  PetscOptionsClear(nullptr);
}

// The second pass adds its Lanczos vectors to the eigenvectors in batches (-eps_nemo_ritz_batch). An even batch adds
// them in the pairs a batch of 2 makes, so the vectors are the same bit for bit; an odd one pairs them differently
// (rounding). On the plain path (stored AIJ) and on the lazy one (the on-the-fly operator), whose window of kept
// vectors rotates with the recurrence's own; a batch longer than the pass (64) adds everything at its end.
TEST(Lanczos, SecondPassBatchesGiveTheSameVectors) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  double gc;
  ASSERT_NO_FATAL_FAILURE(BuildDot(&sys, &gc));
  const std::string question = "-eps_nev 6 -eps_nemo_valence 2 -eps_nemo_ritz_batch ";
  for (const char *kind : {"aij", "shell"}) {
    Mat H;
    HamiltonianOptions hopts;
    hopts.kind = kind;
    ASSERT_EQ(CreateHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.spec.cell.k, hopts, &H), 0);
    NemoRun pairs;
    ASSERT_EQ(SolveNemo(H, gc, question + "2", &pairs), 0);
    ASSERT_EQ(pairs.states.values.size(), 6u);
    ASSERT_GT(pairs.report.passes.second_pass_steps, 64);
    Vec x, y;
    ASSERT_EQ(MatCreateVecs(H, &x, &y), 0);
    for (int batch : {4, 6, 1, 3, 64}) {
      NemoRun run;
      ASSERT_EQ(SolveNemo(H, gc, question + std::to_string(batch), &run), 0) << kind << " " << batch;
      ASSERT_EQ(run.states.values, pairs.states.values) << kind << " " << batch; // the same passes
      double worst = 0;
      for (size_t i = 0; i < run.states.values.size(); ++i) {
        PetscReal d;
        StateVector(run.eps, run.states, i, x);
        StateVector(pairs.eps, pairs.states, i, y);
        VecAXPY(x, -1.0, y);
        VecNorm(x, NORM_INFINITY, &d);
        worst = std::max(worst, (double)d);
      }
      if (batch % 2 == 0) EXPECT_EQ(worst, 0.0) << kind << " " << batch;
      else EXPECT_LT(worst, 1e-12) << kind << " " << batch;
      if (tbpeta::test::commRank() == 0) std::printf("  %s, batch %d: max |x - x(batch 2)| %.3g\n", kind, batch, worst);
    }
    VecDestroy(&x), VecDestroy(&y);
    MatDestroy(&H);
  }
  PetscOptionsClear(nullptr);
}

// A solve stopped by an error (an interrupt, a NaN) returns before it destroys its recurrence: the recurrence's
// destructor frees its three vectors and the second pass's window, wherever the steps had rotated them.
TEST(Lanczos, RecurrenceFreesItsVectorsWhenDropped) {
  TBPETA_ASSERT_RANKS();
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, {-1, -0.5, 0.5, 1, 2, 3}, &A), 0);
  Tracking on;
  if (!AllocationTrackerActive())
    GTEST_SKIP() << "PETSc's debugging allocator is on (-malloc_debug): nothing is measured";
  {
    tbpeta::lanczos::Recurrence first; // one-time allocations of PETSc's first vectors are not the recurrence's
    ASSERT_EQ(first.Create(A, 0), 0);
  }
  const size_t before = AllocationCurrentBytes();
  {
    tbpeta::lanczos::Recurrence r;
    ASSERT_EQ(r.Create(A, 0), 0);
    ASSERT_EQ(r.OpenWindow(2), 0);
    r.kept.push_back(r.spare.back()), r.spare.pop_back(); // as a step leaves them: one kept, one spare
    EXPECT_GT(AllocationCurrentBytes(), before);
  }
  EXPECT_EQ(AllocationCurrentBytes(), before);
  MatDestroy(&A);
}

TEST(Lanczos, StepCapReportsUnconvergedValues) {
  TBPETA_ASSERT_RANKS();
  DotRun run;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "", "-eps_max_it 60 -eps_nemo_check_every 50", false, &run), 0);
  EXPECT_EQ(run.report.steps, 60);
  EXPECT_FALSE(run.report.converged);
  EXPECT_FALSE(run.states.complete);
  EXPECT_FALSE(run.report.unconverged.empty());
  EXPECT_EQ(run.report.unconverged.size(), run.report.unconverged_errors.size());
  EXPECT_NE(run.states.solver.find("not converged within 60 steps"), std::string::npos) << run.states.solver;
  EXPECT_LT(run.states.values.size(), 8u);
  EPSConvergedReason reason;
  EPSGetConvergedReason(run.eps, &reason);
  EXPECT_EQ(reason, EPS_DIVERGED_ITS);
  PetscOptionsClear(nullptr);
}

// A NaN in H stops the recurrence at the product that made it, with one line, instead of filling T with NaN.
TEST(Lanczos, NaNInHIsReportedWhereItAppears) {
  TBPETA_ASSERT_RANKS();
  std::vector<double> e = KnownSpectrum();
  e[e.size() / 3] = std::nan("");
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, e, &A), 0);
  NemoRun run;
  std::string message;
  EXPECT_EQ(tbpeta::test::FirstMessage([&] { return SolveNemo(A, 0.0, "-eps_nev 4", &run); }, &message), PETSC_ERR_FP);
  EXPECT_EQ(message.rfind("Lanczos: product 1 of H gave a NaN or Inf", 0), 0u) << message;
  MatDestroy(&A);
  PetscOptionsClear(nullptr);
}

// At k != 0 (periodic axis) H is not time-reversal symmetric: no Kramers pairs are assumed.
TEST(Lanczos, NoKramersPairsWithoutTimeReversal) {
  TBPETA_ASSERT_RANKS();
  DotRun run;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "-periodic 0,1,0 -k 0,0.23,0", "-eps_nev 2 -eps_nemo_valence 1", false, &run),
            0);
  EXPECT_FALSE(run.report.kramers);
  ASSERT_EQ(run.states.values.size(), 2u) << run.states.solver; // one level each side
  EXPECT_GT(run.states.values[1] - run.states.values[0], 0.1);
  for (double r : run.states.residuals) EXPECT_LT(r, 1e-6);
  PetscOptionsClear(nullptr);
}

TEST(Lanczos, BadOptionsAreUserInputErrors) {
  TBPETA_ASSERT_RANKS();
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, {-1, -0.5, 0.5, 1, 2, 3}, &A), 0);
  NemoRun run;
  for (const char *bad :
       {"-eps_nemo_valence -1", "-eps_nev 4 -eps_nemo_valence 5", "-eps_nemo_check_every 0", "-eps_tol 2",
        "-eps_nemo_seed -3", "-eps_nemo_multiplicity_passes -1", "-eps_nemo_checkpoint_every 0",
        "-eps_nemo_ritz_batch 0", "-eps_nemo_ritz_batch 65", "-eps_largest_magnitude", "-st_type sinvert",
        "-eps_target nan",
        // solve-time: more states below the target than exist, a window outside the spectrum, an empty window
        "-eps_nev 6", "-eps_interval 100,200", "-eps_interval -0.2,0.2 -eps_nemo_check_every 5"}) {
    std::string message;
    EXPECT_EQ(tbpeta::test::FirstMessage([&] { return SolveNemo(A, 0.0, bad, &run); }, &message), PETSC_ERR_USER_INPUT)
        << bad;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    if (tbpeta::test::commRank() == 0) std::printf("  %s: %s\n", bad, message.c_str());
  }
  MatDestroy(&A);
  PetscOptionsClear(nullptr);
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
  NemoRun run;
  ASSERT_EQ(SolveNemo(A, 0.1, "-eps_nev 5 -eps_nemo_valence 3", &run), 0);
  const EigenStates &st = run.states;
  ASSERT_EQ(st.values.size(), 5u) << st.solver;
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(st.values[i], i < 3 ? -0.4 : 0.6, 1e-10) << i;
    EXPECT_LT(st.residuals[i], 1e-8) << i;
  }
  EXPECT_LT(Orthonormality(A, run), 1e-10); // the states of a level are orthonormal
  EXPECT_EQ(run.report.passes.extra_states, 3);
  EXPECT_GE(run.report.passes.multiplicity_passes, 3); // two that add, one that adds nothing
  EXPECT_TRUE(run.report.passes.multiplicity_complete);
  // Each level once without the restarted passes: the 3 levels below and the 2 above the gap centre.
  ASSERT_EQ(SolveNemo(A, 0.1, "-eps_nev 5 -eps_nemo_valence 3 -eps_nemo_multiplicity_passes 0", &run), 0);
  ASSERT_EQ(run.states.values.size(), 5u);
  EXPECT_EQ(std::count_if(run.states.values.begin(), run.states.values.end(),
                          [](double x) { return std::fabs(x + 0.4) < 1e-9; }),
            1);
  EXPECT_EQ(run.report.passes.multiplicity_passes, 0);
  MatDestroy(&A);
  PetscOptionsClear(nullptr);
}

// The memory of the method, measured (the peak of what PETSc allocated during the solve): three vectors of H's size
// for the recurrence and one per state, nothing else (but for the moment the states move into the EPS's columns).
// The spectrum of RestartedPassesFindTheMultiplicity with each band level 64-fold: 19,205 rows per rank, so that the
// O(steps) tridiagonal is a small fraction of a vector, and the same few hundred steps (the recurrence sees each band
// level once).
TEST(Lanczos, HoldsThreeVectorsAndTheStates) {
  TBPETA_ASSERT_RANKS();
  Tracking on;
  if (!AllocationTrackerActive())
    GTEST_SKIP() << "PETSc's debugging allocator is on (-malloc_debug): nothing is measured";
  const int copies = 64 * tbpeta::test::commSize();
  std::vector<double> e;
  for (int k = 0; k < 150; ++k)
    for (int c = 0; c < copies; ++c)
      e.push_back(-10 + 9 * k / 149.0 + 0.002 * std::sin(3.0 * k)),
          e.push_back(1 + 9 * k / 149.0 + 0.002 * std::cos(2.0 * k));
  for (int i = 0; i < 3; ++i) e.push_back(-0.4); // 3-fold, the highest valence level
  for (int i = 0; i < 2; ++i) e.push_back(0.6);  // 2-fold, the lowest conduction level
  std::sort(e.begin(), e.end());
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, e, &A), 0);
  struct Case {
    const char *options;
    size_t states;
    PetscInt held, estimate;
  };
  // The level just below 0.1 (3-fold) and the one just above (2-fold). Values only: the recurrence. With vectors: + the
  // 2 states of the first pass (a second pass), in the EPS's 2 columns, + the second pass's window of 2 (batches of 4;
  // none with batches of 2). With the multiplicity: restarted pass 1 adds
  // one state of each level (2 Vecs of their own, 7 vectors), pass 2 the third of the 3-fold level (8), pass 3
  // nothing; no state is ever copied to make room. At the end the 5 states move into the EPS's columns, grown from 2
  // to 5 (its 2 old and 5 new columns and the 3 own Vecs at once, 10 vectors; the recurrence's 3 are freed by then).
  // The estimate counts nev more for the restarted passes, and the window; 5 states for nev = 2 (whole levels) exceed
  // it.
  for (const Case &c :
       {Case{"-eps_nev 2 -eps_nemo_valence 1 -eps_nemo_vectors false", 2, 3, 3},
        Case{"-eps_nev 2 -eps_nemo_valence 1 -eps_nemo_multiplicity_passes 0", 2, 3 + 2 + 2, 3 + 2 + 2},
        Case{"-eps_nev 2 -eps_nemo_valence 1 -eps_nemo_multiplicity_passes 0 -eps_nemo_ritz_batch 2", 2, 3 + 2, 3 + 2},
        Case{"-eps_nev 2 -eps_nemo_valence 1", 5, 10, 3 + 2 + 2 + 2}}) {
    NemoRun run;
    MemoryMeter meter;
    ASSERT_EQ(SolveNemo(A, 0.1, c.options, &run, &meter), 0) << c.options;
    EXPECT_EQ(run.states.values.size(), c.states) << c.options;
    EXPECT_EQ(run.states.vectors_held, c.held) << c.options;
    PetscInt estimate = -1;
    ASSERT_EQ(EstimateVectorsHeld(run.eps, OperatorProperties{}, &estimate), 0); // A carries none: no Kramers pairs
    EXPECT_EQ(estimate, c.estimate) << c.options;
    if (tbpeta::test::commRank() == 0)
      std::printf("  %s: %zu states, %d vectors held, %d steps\n", c.options, run.states.values.size(),
                  (int)run.states.vectors_held, (int)run.report.steps);
  }
  MatDestroy(&A);
  PetscOptionsClear(nullptr);
}

// With Kramers pairs a pair holds one vector: its partner Θx is formed when it is read. An operator of "atoms" of 2
// rows (up, down) with e_a on both, time-reversal symmetric (Kramers block 2): the bands of
// HoldsThreeVectorsAndTheStates, and near the gap three atoms at -0.4 (a 6-fold level), one at -0.5 and at -0.6, two
// at 0.6 (4-fold) and one at 0.7. The first pass finds the 5 levels once (10 states with their partners, 5 vectors,
// in the EPS's 10 columns), the restarted passes the other two pairs of -0.4 and the other pair of 0.6 (3 more
// columns), and the whole levels asked for are -0.4 and 0.6: no vector beyond the 3 + 10 + the window of 2, the
// estimate. Before, each new direction and its partner held a vector of its own beyond the columns.
TEST(Lanczos, HoldsOneVectorPerKramersPair) {
  TBPETA_ASSERT_RANKS();
  Tracking on;
  if (!AllocationTrackerActive())
    GTEST_SKIP() << "PETSc's debugging allocator is on (-malloc_debug): nothing is measured";
  const int size = tbpeta::test::commSize(), rank = tbpeta::test::commRank(), copies = 64;
  std::vector<double> atoms; // per atom, on every rank the same list
  for (int k = 0; k < 150; ++k)
    for (int c = 0; c < copies; ++c)
      atoms.push_back(-10 + 9 * k / 149.0 + 0.002 * std::sin(3.0 * k)),
          atoms.push_back(1 + 9 * k / 149.0 + 0.002 * std::cos(2.0 * k));
  std::vector<double> mine = atoms; // this rank's atoms: the bands, and on rank 0 the degenerate levels
  if (rank == 0)
    for (double x : {-0.4, -0.4, -0.4, -0.5, -0.6, 0.6, 0.6, 0.7}) mine.push_back(x);
  Mat A;
  const PetscInt n = 2 * (PetscInt)mine.size();
  PetscInt rstart;
  ASSERT_EQ(MatCreateAIJ(PETSC_COMM_WORLD, n, n, PETSC_DETERMINE, PETSC_DETERMINE, 1, nullptr, 0, nullptr, &A), 0);
  ASSERT_EQ(MatGetOwnershipRange(A, &rstart, nullptr), 0);
  for (PetscInt i = 0; i < n; ++i) ASSERT_EQ(MatSetValue(A, rstart + i, rstart + i, mine[i / 2], INSERT_VALUES), 0);
  ASSERT_EQ(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY), 0);
  ASSERT_EQ(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY), 0);
  OperatorProperties props;
  props.rows_per_atom = props.kramers_block = 2;
  props.has_entries = true;
  ASSERT_EQ(MatGetSize(A, &props.rows, nullptr), 0);
  ASSERT_EQ(OperatorSetProperties(A, props, false), 0);
  NemoRun run;
  MemoryMeter meter;
  ASSERT_EQ(SolveNemo(A, 0.1, "-eps_nev 10 -eps_nemo_valence 6", &run, &meter), 0);
  ASSERT_EQ(run.states.values.size(), 10u) << run.states.solver;
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_NEAR(run.states.values[i], i < 6 ? -0.4 : 0.6, 1e-10) << i;
    EXPECT_LT(run.states.residuals[i], 1e-8) << i;
  }
  EXPECT_LT(Orthonormality(A, run), 1e-10);
  EXPECT_EQ(run.report.passes.extra_states, 6);
  EXPECT_EQ(run.states.vectors_held, 3 + 10 + 2);
  PetscInt estimate = -1;
  ASSERT_EQ(EstimateVectorsHeld(run.eps, props, &estimate), 0); // the properties A carries: Kramers pairs
  EXPECT_EQ(estimate, 3 + 10 + 2);
  if (rank == 0) std::printf("  %d vectors held, %d ranks\n", (int)run.states.vectors_held, size);
  MatDestroy(&A);
  PetscOptionsClear(nullptr);
}

// Whether two runs' state vectors are the same bit for bit (the states in the same order).
bool SameVectors(Mat H, const NemoRun &a, const NemoRun &b) {
  Vec x, y;
  bool all = a.states.values.size() == b.states.values.size();
  MatCreateVecs(H, &x, &y);
  for (size_t i = 0; all && i < a.states.values.size(); ++i) {
    PetscBool same;
    StateVector(a.eps, a.states, i, x);
    StateVector(b.eps, b.states, i, y);
    VecEqual(x, y, &same);
    all = same;
  }
  VecDestroy(&x), VecDestroy(&y);
  return all;
}

// A first pass stopped by its step cap and continued from the checkpoint gives the uninterrupted run, bit for bit;
// checkpoints of another run are refused in one line.
TEST(Lanczos, CheckpointContinuesTheRunAndRefusesAnotherOne) {
  TBPETA_ASSERT_RANKS();
  const std::string file = "lanczos-checkpoint-np" + std::to_string(tbpeta::test::commSize()) + ".bin";
  const std::string ck = " -eps_nemo_checkpoint " + file;
  std::remove(file.c_str());
  DotRun whole, part, rest;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "", "-eps_nemo_multiplicity_passes 0", false, &whole), 0);
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "",
                     "-eps_nemo_multiplicity_passes 0 -eps_max_it 230 -eps_nemo_checkpoint_every 100" + ck, false,
                     &part),
            0);
  EXPECT_FALSE(part.report.converged);
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "", "-eps_nemo_multiplicity_passes 0" + ck, false, &rest), 0);
  EXPECT_EQ(rest.report.resumed_from, 230);
  EXPECT_TRUE(rest.report.converged);
  EXPECT_EQ(rest.report.steps, whole.report.steps);
  EXPECT_EQ(rest.report.alpha, whole.report.alpha); // bit for bit
  EXPECT_EQ(rest.report.beta, whole.report.beta);
  EXPECT_TRUE(rest.report.second_pass_identical);
  ASSERT_EQ(rest.states.values, whole.states.values);
  EXPECT_EQ(rest.states.residuals, whole.states.residuals); // the second pass's vectors from the same steps of T
  EXPECT_TRUE(SameVectors(whole.H, rest, whole));
  // A converged checkpoint: straight to the second pass.
  DotRun again;
  ASSERT_EQ(SolveDot(PETSC_COMM_WORLD, "", "-eps_nemo_multiplicity_passes 0" + ck, false, &again), 0);
  EXPECT_EQ(again.report.resumed_from, whole.report.steps);
  EXPECT_EQ(again.report.steps, whole.report.steps);
  EXPECT_EQ(again.states.values, whole.states.values);
  // Refused: another seed, another structure (size), another H of the same size, another rank count, not a checkpoint.
  DotRun bad;
  EXPECT_EQ(Quietly([&] { return SolveDot(PETSC_COMM_WORLD, "", "-eps_nemo_seed 9" + ck, false, &bad); }),
            PETSC_ERR_USER_INPUT);
  EXPECT_EQ(Quietly([&] { return SolveDot(PETSC_COMM_WORLD, "-cells 3,2,2", ck, false, &bad); }), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(Quietly([&] { return SolveDot(PETSC_COMM_WORLD, "-vbo_InAs 0.25", ck, false, &bad); }),
            PETSC_ERR_USER_INPUT);
  if (tbpeta::test::commSize() > 1) {
    const std::string mine = file + ".self" + std::to_string(tbpeta::test::commRank());
    std::remove(mine.c_str());
    DotRun one;
    ASSERT_EQ(SolveDot(PETSC_COMM_SELF, "", "-eps_nemo_vectors false -eps_max_it 50 -eps_nemo_checkpoint " + mine,
                       false, &one),
              0);
    EXPECT_EQ(Quietly([&] {
                return SolveDot(PETSC_COMM_WORLD, "", "-eps_nemo_vectors false -eps_nemo_checkpoint " + file + ".self0",
                                false, &bad);
              }),
              PETSC_ERR_USER_INPUT);
    MPI_Barrier(PETSC_COMM_WORLD);
    std::remove(mine.c_str());
  }
  if (tbpeta::test::commRank() == 0) {
    FILE *f = std::fopen(file.c_str(), "wb");
    std::fputs("not a checkpoint at all, just some text", f);
    std::fclose(f);
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  const auto refusal = [&] {
    return tbpeta::Quietly([&] { return SolveDot(PETSC_COMM_WORLD, "", "-eps_nemo_vectors false" + ck, false, &bad); });
  };
  auto [code, message] = refusal();
  EXPECT_EQ(code, PETSC_ERR_USER_INPUT);
  EXPECT_NE(message.find("is not a tbpeta Lanczos checkpoint"), std::string::npos) << message;
  // A checkpoint of the positional format of earlier versions (its magic number first): refused in one line that
  // says so, not misread.
  if (tbpeta::test::commRank() == 0) {
    const unsigned char positional[] = {0x7b, 0xc1, 0xa2, 0xc0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0x60};
    FILE *f = std::fopen(file.c_str(), "wb");
    std::fwrite(positional, 1, sizeof positional, f);
    std::fclose(f);
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  std::tie(code, message) = refusal();
  EXPECT_EQ(code, PETSC_ERR_USER_INPUT);
  EXPECT_NE(message.find("positional format"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(Quietly([&] {
              return SolveDot(PETSC_COMM_WORLD, "",
                              "-eps_nemo_vectors false -eps_nemo_checkpoint /nonexistent-dir/ck.bin", false, &bad);
            }),
            PETSC_ERR_USER_INPUT);
  MPI_Barrier(PETSC_COMM_WORLD);
  if (tbpeta::test::commRank() == 0) std::remove(file.c_str());
  PetscOptionsClear(nullptr);
}

// The checkpoint after each pass: a run that stopped after its second pass, or after any restarted pass, continues
// from the states saved there without repeating those passes, and ends with the uninterrupted run's states, bit for
// bit (values, residuals and vectors). States saved for another question are refused in one line.
TEST(Lanczos, CheckpointKeepsTheStatesOfEveryPass) {
  TBPETA_ASSERT_RANKS();
  std::vector<double> e; // RestartedPassesFindTheMultiplicity's spectrum: a 3-fold and a 2-fold level at the gap
  for (int k = 0; k < 150; ++k) e.push_back(-10 + 9 * k / 149.0 + 0.002 * std::sin(3.0 * k));
  for (int k = 0; k < 150; ++k) e.push_back(1 + 9 * k / 149.0 + 0.002 * std::cos(2.0 * k));
  for (int i = 0; i < 3; ++i) e.push_back(-0.4);
  for (int i = 0; i < 2; ++i) e.push_back(0.6);
  std::sort(e.begin(), e.end());
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, e, &A), 0);
  const std::string file = "lanczos-states-np" + std::to_string(tbpeta::test::commSize()) + ".bin",
                    question = "-eps_nev 5 -eps_nemo_valence 3";
  const auto fresh = [&] {
    MPI_Barrier(PETSC_COMM_WORLD);
    if (tbpeta::test::commRank() == 0) std::remove(file.c_str());
    MPI_Barrier(PETSC_COMM_WORLD);
  };
  const auto vectors = [&](const NemoRun &run) {
    std::vector<PetscScalar> all;
    for (size_t i = 0; i < run.states.values.size(); ++i) {
      Vec x;
      const PetscScalar *a;
      PetscInt n;
      MatCreateVecs(A, &x, nullptr);
      StateVector(run.eps, run.states, i, x);
      VecGetLocalSize(x, &n);
      VecGetArrayRead(x, &a);
      all.insert(all.end(), a, a + n);
      VecRestoreArrayRead(x, &a);
      VecDestroy(&x);
    }
    return all;
  };
  NemoRun whole;
  ASSERT_EQ(SolveNemo(A, 0.1, question, &whole), 0);
  ASSERT_EQ(whole.report.passes.multiplicity_passes, 3); // two that add a state, one that adds nothing
  for (int stopped_after : {0, 1, 2}) {                  // restarted passes done when the run "crashed"
    SCOPED_TRACE("stopped after " + std::to_string(stopped_after) + " restarted passes");
    fresh();
    NemoRun part, rest;
    const std::string ck = question + " -eps_nemo_checkpoint " + file;
    ASSERT_EQ(SolveNemo(A, 0.1, ck + " -eps_nemo_multiplicity_passes " + std::to_string(stopped_after), &part), 0);
    ASSERT_EQ(SolveNemo(A, 0.1, ck, &rest), 0);
    EXPECT_TRUE(rest.report.resumed_states);
    EXPECT_EQ(rest.report.resumed_from, whole.report.steps);
    EXPECT_EQ(rest.report.passes.multiplicity_passes, 3);
    EXPECT_EQ(rest.report.passes.extra_states, whole.report.passes.extra_states);
    EXPECT_EQ(rest.report.passes.second_pass_steps, whole.report.passes.second_pass_steps);
    EXPECT_EQ(rest.report.passes.multiplicity_steps, whole.report.passes.multiplicity_steps);
    EXPECT_EQ(rest.states.values, whole.states.values);
    EXPECT_EQ(rest.states.residuals, whole.states.residuals);
    EXPECT_EQ(vectors(rest), vectors(whole));
    // The passes before the stop were not repeated: fewer products than the whole run.
    EXPECT_LT(rest.report.products, whole.report.products);
  }
  NemoRun bad;
  EXPECT_EQ(
      Quietly([&] { return SolveNemo(A, 0.1, "-eps_nev 4 -eps_nemo_valence 3 -eps_nemo_checkpoint " + file, &bad); }),
      PETSC_ERR_USER_INPUT);
  EXPECT_EQ(Quietly([&] { return SolveNemo(A, 0.1, question + " -eps_tol 1e-9 -eps_nemo_checkpoint " + file, &bad); }),
            PETSC_ERR_USER_INPUT);
  fresh();
  MatDestroy(&A);
  PetscOptionsClear(nullptr);
}

// The stage a checkpoint file holds (its attribute "stage"): 0 the first pass, 1 states, 2 a second pass under way.
int CheckpointStage(const std::string &file) {
  PetscViewer vw;
  char *stage = nullptr;
  if (PetscViewerHDF5Open(PETSC_COMM_WORLD, file.c_str(), FILE_MODE_READ, &vw)) return -1;
  PetscViewerHDF5ReadAttribute(vw, "/", "stage", PETSC_STRING, nullptr, &stage);
  PetscViewerDestroy(&vw);
  const std::string s = stage ? stage : "";
  PetscFree(stage);
  return s == "first pass" ? 0 : s == "states" ? 1 : s == "second pass" ? 2 : -1;
}

// A run stopped again and again (-eps_nemo_stop_after) and continued each time from its checkpoint, in its first pass,
// inside its second pass and after it, ends with the uninterrupted run's states bit for bit (values,
// residuals and vectors), on an operator whose steps leave their last vector pending (shell) and one that forms it.
TEST(Lanczos, StoppedAndContinuedGivesTheUninterruptedRun) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  double gc;
  ASSERT_NO_FATAL_FAILURE(BuildDot(&sys, &gc));
  const std::string file = "lanczos-slices-np" + std::to_string(tbpeta::test::commSize()) + ".bin",
                    question = "-eps_nev 6 -eps_nemo_valence 2 -eps_nemo_multiplicity_passes 1 ",
                    slices =
                        " -eps_nemo_checkpoint " + file + " -eps_nemo_checkpoint_every 40 -eps_nemo_stop_after 150";
  for (const char *kind : {"shell", "aij"}) {
    SCOPED_TRACE(kind);
    Mat H;
    HamiltonianOptions hopts;
    hopts.kind = kind;
    ASSERT_EQ(CreateHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.spec.cell.k, hopts, &H), 0);
    NemoRun whole;
    ASSERT_EQ(SolveNemo(H, gc, question, &whole), 0);
    ASSERT_GT(whole.report.passes.second_pass_steps, 200); // several checkpoints inside it
    MPI_Barrier(PETSC_COMM_WORLD);
    if (tbpeta::test::commRank() == 0) std::remove(file.c_str());
    std::set<int> stages; // where the stopped runs left the checkpoint
    int stops = 0;
    for (;; ++stops) {
      ASSERT_LT(stops, 60);
      NemoRun part;
      const PetscErrorCode e = Quietly([&] { return SolveNemo(H, gc, question + slices, &part); });
      if (e == 0) {
        EXPECT_EQ(part.states.values, whole.states.values);
        EXPECT_EQ(part.states.residuals, whole.states.residuals);
        EXPECT_TRUE(SameVectors(H, part, whole));
        break;
      }
      ASSERT_EQ(e, PETSC_ERR_NOT_CONVERGED);
      stages.insert(CheckpointStage(file));
    }
    EXPECT_EQ(stages, (std::set<int>{0, 2})); // stopped in the first pass and inside the second (file stages)
    EXPECT_GT(stops, 4);
    MPI_Barrier(PETSC_COMM_WORLD);
    if (tbpeta::test::commRank() == 0) std::remove(file.c_str());
    MatDestroy(&H);
  }
  // After the second pass a slice ends when a restarted pass is still due (the checkpoint then holds the states), and
  // a run with nothing left to do finishes instead of stopping.
  Mat H;
  HamiltonianOptions hopts;
  hopts.kind = "shell";
  ASSERT_EQ(CreateHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.spec.cell.k, hopts, &H), 0);
  for (int passes : {1, 0}) {
    SCOPED_TRACE(passes);
    const std::string q = "-eps_nev 6 -eps_nemo_valence 2 -eps_nemo_multiplicity_passes " + std::to_string(passes);
    NemoRun whole, sliced, rest;
    ASSERT_EQ(SolveNemo(H, gc, q, &whole), 0);
    // No checkpoint inside the passes: the first stop can only come after the second pass.
    const std::string stop = " -eps_nemo_checkpoint " + file +
                             " -eps_nemo_checkpoint_every 100000 -eps_nemo_stop_after " +
                             std::to_string(whole.report.steps + 1);
    const PetscErrorCode e = Quietly([&] { return SolveNemo(H, gc, q + stop, &sliced); });
    if (passes > 0) {
      ASSERT_EQ(e, PETSC_ERR_NOT_CONVERGED);
      EXPECT_EQ(CheckpointStage(file), 1); // the states
      ASSERT_EQ(Quietly([&] { return SolveNemo(H, gc, q + stop, &rest); }), 0);
    } else {
      ASSERT_EQ(e, 0);
    }
    const NemoRun &done = passes > 0 ? rest : sliced;
    EXPECT_EQ(done.states.values, whole.states.values);
    EXPECT_EQ(done.states.residuals, whole.states.residuals);
    MPI_Barrier(PETSC_COMM_WORLD);
    if (tbpeta::test::commRank() == 0) std::remove(file.c_str());
  }
  MatDestroy(&H);
  // Without a checkpoint to continue from, a stop is refused in one line.
  Mat A;
  ASSERT_EQ(DiagonalMatrix(PETSC_COMM_WORLD, {-1, 0.5, 1, 2}, &A), 0);
  NemoRun bad;
  EXPECT_EQ(Quietly([&] { return SolveNemo(A, 0.1, "-eps_nev 2 -eps_nemo_stop_after 10", &bad); }),
            PETSC_ERR_USER_INPUT);
  MatDestroy(&A);
  PetscOptionsClear(nullptr);
}

namespace {

// A vector of the layout of V with entries from a hash of (seed, global row): the same on any number of ranks.
void HashedVec(BV V, unsigned seed, Vec *x) {
  PetscInt lo, hi;
  PetscScalar *p;
  BVCreateVec(V, x);
  VecGetOwnershipRange(*x, &lo, &hi);
  VecGetArray(*x, &p);
  for (PetscInt i = lo; i < hi; ++i) p[i - lo] = PetscScalar(std::sin(1.3 * i + seed), std::cos(0.7 * i * seed + 1));
  VecRestoreArray(*x, &p);
}

// Whether x and y are equal bit for bit on every rank.
bool SameBits(Vec x, Vec y) {
  const PetscScalar *a, *b;
  PetscInt n;
  int same = 1;
  VecGetLocalSize(x, &n);
  VecGetArrayRead(x, &a), VecGetArrayRead(y, &b);
  for (PetscInt i = 0; i < n; ++i) same = same && a[i] == b[i];
  VecRestoreArrayRead(x, &a), VecRestoreArrayRead(y, &b);
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, PETSC_COMM_WORLD);
  return same;
}

} // namespace

// The store holds no vector for a Kramers partner: it forms Θx when read, projects it out from x's entries, takes a
// saved partner back as a partner (AppendCopy), lets a kept partner of a dropped state take over its slot, and at
// the end moves every state into its column (here a cycle of three columns, and a grown BV), bit for bit.
TEST(Lanczos, StoreHoldsNoVectorForAPartner) {
  TBPETA_ASSERT_RANKS();
  const PetscInt kb = 4, nloc = 64 * kb; // atoms of 4 rows (2 up, 2 down)
  BV V;
  ASSERT_EQ(BVCreate(PETSC_COMM_WORLD, &V), 0);
  ASSERT_EQ(BVSetSizes(V, nloc, PETSC_DECIDE, 4), 0);
  ASSERT_EQ(BVSetFromOptions(V), 0);
  Vec x[3], tx[3], v, t;
  for (unsigned i = 0; i < 3; ++i) { // orthonormal states with their partners, as eigenstates are
    HashedVec(V, i + 1, &x[i]);
    for (int twice = 0; twice < 2; ++twice)
      for (unsigned k = 0; k < i; ++k)
        for (Vec y : {x[k], tx[k]}) {
          PetscScalar d;
          VecDot(x[i], y, &d);
          VecAXPY(x[i], -d, y);
        }
    VecNormalize(x[i], nullptr);
    BVCreateVec(V, &tx[i]);
    lanczos::KramersPartner(x[i], tx[i], kb);
  }
  BVCreateVec(V, &t);
  {
    lanczos::StateColumns st(V, true, kb);
    PetscInt first, k;
    ASSERT_EQ(st.Append(3, &first), 0);
    for (PetscInt j = 0; j < 3; ++j) {
      lanczos::Column c(st, j);
      VecCopy(x[j], c.vec());
      st.values[j] = 0.1 * j;
    }
    ASSERT_EQ(st.AppendPartner(0, &k), 0);
    ASSERT_EQ(st.AppendPartner(2, &k), 0);
    ASSERT_EQ(st.AppendCopy(tx[1], 0.1, 0.0), 0); // the partner of state 1, as a checkpoint gives it back
    EXPECT_EQ(st.count(), 6);
    EXPECT_EQ(st.Stored(), 3);
    EXPECT_TRUE(st.IsPartner(5));
    {
      lanczos::Column c(st, 3);
      EXPECT_TRUE(SameBits(c.vec(), tx[0]));
    }
    // Orthogonal to every state and partner after the projection.
    HashedVec(V, 9, &v);
    PetscReal left;
    ASSERT_EQ(st.Orthogonalise(v, {{0, 6}}, &left), 0);
    for (Vec y : {x[0], x[1], x[2], tx[0], tx[1], tx[2]}) {
      PetscScalar d;
      VecDot(v, y, &d);
      EXPECT_LT(PetscAbsScalar(d), 1e-13 * left);
    }
    // Drop state 0 and keep its partner: the partner takes its slot. Then [x1, x2, Θx0, Θx2, Θx1]: stored in slots
    // 1, 2, 0 (a cycle into columns 0, 1, 2), partners formed in columns 3 and 4 of a BV grown from 4 to 5.
    ASSERT_EQ(st.Keep({false, true, true, true, true, true}), 0);
    EXPECT_EQ(st.count(), 5);
    EXPECT_EQ(st.Stored(), 3);
    EXPECT_FALSE(st.IsPartner(2));
    ASSERT_EQ(st.MoveIntoBV(), 0);
    const Vec want[5] = {x[1], x[2], tx[0], tx[2], tx[1]};
    for (PetscInt j = 0; j < 5; ++j) {
      ASSERT_EQ(BVCopyVec(V, j, t), 0);
      EXPECT_TRUE(SameBits(t, want[j])) << "column " << j;
    }
  }
  for (int i = 0; i < 3; ++i) VecDestroy(&x[i]), VecDestroy(&tx[i]);
  VecDestroy(&v), VecDestroy(&t);
  BVDestroy(&V);
}

// The 10^6-atom dot's crash, at its smallest: deflating a start vector against the states with 10^7 rows per rank
// (the first restarted pass) called SLEPc's BVMultVec, whose zgemv in OpenBLAS's Prescott kernels (the fallback on
// this machine's CPU, and forced for this test by tests.cmake) writes past its 128 MiB buffer from 2^23 rows on.
// The store projects with its own loops: the vector left is orthogonal to the states, with the norm that remains.
TEST(Lanczos, DeflatesBeyondTheBlasBuffer) {
  TBPETA_ASSERT_RANKS();
  const PetscInt nloc = (PetscInt(1) << 23) + 1024; // rows per rank, just past the buffer
  BV V;
  Vec v;
  ASSERT_EQ(BVCreate(PETSC_COMM_WORLD, &V), 0);
  ASSERT_EQ(BVSetSizes(V, nloc, PETSC_DECIDE, 2), 0);
  ASSERT_EQ(BVSetFromOptions(V), 0);
  {
    lanczos::StateColumns st(V, true);
    PetscInt first;
    ASSERT_EQ(st.Append(2, &first), 0);
    // Column 0: e_0 of every rank's block, normalised; column 1: e_1 likewise; v: all ones.
    for (PetscInt j = 0; j < 2; ++j) {
      lanczos::Column c(st, j);
      ASSERT_EQ(c.error(), 0);
      PetscInt lo;
      VecGetOwnershipRange(c.vec(), &lo, nullptr);
      VecSetValue(c.vec(), lo + j, PetscScalar(1.0 / std::sqrt((double)tbpeta::test::commSize()), 0.5 * j),
                  INSERT_VALUES);
      VecAssemblyBegin(c.vec()), VecAssemblyEnd(c.vec());
      PetscReal nrm;
      VecNormalize(c.vec(), &nrm);
    }
    ASSERT_EQ(BVCreateVec(V, &v), 0);
    VecSet(v, 1.0);
    PetscReal left;
    ASSERT_EQ(st.Orthogonalise(v, {{0, 2}}, &left), 0);
    const double N = (double)nloc * tbpeta::test::commSize();
    EXPECT_NEAR(left, std::sqrt(N - 2 * tbpeta::test::commSize()), 1e-6 * std::sqrt(N)); // two entries per rank removed
    for (PetscInt j = 0; j < 2; ++j) {
      lanczos::Column c(st, j);
      PetscScalar d;
      VecDot(v, c.vec(), &d);
      EXPECT_LT(PetscAbsScalar(d), 1e-9) << j;
    }
  }
  VecDestroy(&v);
  BVDestroy(&V);
}

// The physical case: bulk GaAs at Gamma with spin-orbit (nemo3d sp3d5s*), whose valence-band top is the fourfold
// Gamma8 level: the first pass and its Kramers partner give two states, a restarted pass the other two.
TEST(Lanczos, BulkGamma8IsFourfold) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  Mat H;
  double vbm, cbm;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD,
                                           "-params nemo3d -material GaAs -cells 1,1,1 -periodic 1,1,1", &sys),
            0);
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H), 0);
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  NemoRun run;
  ASSERT_EQ(SolveNemo(H, 0.5 * (vbm + cbm), "-eps_nev 6 -eps_nemo_valence 4", &run), 0);
  ASSERT_EQ(run.states.values.size(), 6u) << run.states.solver;
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_NEAR(run.states.values[i], i < 4 ? vbm : cbm, 1e-8) << i;
    EXPECT_LT(run.states.residuals[i], 1e-8) << i;
  }
  EXPECT_EQ(run.report.passes.extra_states, 2);
  EXPECT_TRUE(run.report.passes.multiplicity_complete);
  MatDestroy(&H);
  PetscOptionsClear(nullptr);
}

namespace {

// The levels of a sorted list as (value, states): states closer than `tol` are one level.
std::vector<std::pair<double, int>> Levels(const std::vector<double> &v, double tol) {
  std::vector<std::pair<double, int>> out;
  for (double x : v)
    if (!out.empty() && x - out.back().first < tol) ++out.back().second;
    else out.push_back({x, 1});
  return out;
}

} // namespace

// Symmetric structures get the multiplicities of a dense solve, level by level, around the gap: a superlattice of
// InAs spheres centred on a cation (periodic, k = 0: point group Td, whose double group has fourfold levels) and an
// open GaAs box of whole cells (C3v: Kramers pairs only). Every level of the dense spectrum between the lowest and the
// highest state returned is there, with its multiplicity.
TEST(Lanczos, SymmetricStructuresHaveTheDenseMultiplicities) {
  TBPETA_ASSERT_RANKS();
  struct Case {
    const char *structure;
    int largest; // the largest multiplicity among the levels around the gap
  };
  for (const Case &c : {Case{"-cells 2,2,2 -periodic 1,1,1 -material GaAs -dot_material InAs -dot_radius 0.5", 4},
                        Case{"-cells 2,2,2 -periodic 0,0,0 -material GaAs", 2}}) {
    SCOPED_TRACE(c.structure);
    TightBindingSystem sys;
    Mat H;
    double vbm, cbm;
    std::vector<double> dense;
    ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, std::string("-params klimeck2000 ") + c.structure, &sys),
              0);
    ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H), 0);
    ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
    NemoRun run;
    ASSERT_EQ(SolveNemo(H, 0.5 * (vbm + cbm), "-eps_nev 8 -eps_nemo_valence 4", &run), 0);
    ASSERT_EQ(AllEigenvalues(H, &dense), 0);
    std::vector<double> found = run.states.values;
    std::sort(found.begin(), found.end());
    ASSERT_GE(found.size(), 8u) << run.states.solver;
    std::vector<double> window;
    for (double e : dense)
      if (e > found.front() - 1e-7 && e < found.back() + 1e-7) window.push_back(e);
    const auto want = Levels(window, 1e-7), got = Levels(found, 1e-7);
    ASSERT_EQ(got.size(), want.size());
    int largest = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_NEAR(got[i].first, want[i].first, 1e-8) << i;
      EXPECT_EQ(got[i].second, want[i].second) << "level " << want[i].first << " eV";
      largest = std::max(largest, want[i].second);
    }
    EXPECT_EQ(largest, c.largest);
    for (double r : run.states.residuals) EXPECT_LT(r, 1e-8);
    EXPECT_TRUE(run.report.passes.multiplicity_complete);
    MatDestroy(&H);
    PetscOptionsClear(nullptr);
  }
}

// The Christoffel function of T bounds the start vector's weight at any energy whatever the step, and is that weight
// once the Krylov space is the whole space: on diag(e) with exact Lanczos (full reorthogonalisation), at every
// eigenvalue it decreases with the steps towards b_k^2 and equals it at the last.
TEST(Lanczos, ChristoffelFunctionBoundsTheStartWeight) {
  const int n = 40;
  std::vector<double> e(n), b(n), alpha, beta;
  double norm2 = 0;
  for (int k = 0; k < n; ++k)
    e[k] = -1 + 2.0 * k / (n - 1) + 0.01 * std::sin(7.0 * k), b[k] = 1 + 0.5 * std::cos(3.0 * k);
  for (double x : b) norm2 += x * x;
  ExactLanczos(e, b, n, &alpha, &beta);
  for (int k = 0; k < n; k += 3) {
    const double weight = b[k] * b[k] / norm2;
    double before = 1;
    for (int m : {5, 10, 20, 30, n - 1}) {
      const double bound = std::exp(LogChristoffel(alpha, beta, m, e[k]));
      EXPECT_GE(bound, weight * (1 - 1e-8)) << "level " << k << ", step " << m;
      EXPECT_LE(bound, before * (1 + 1e-9)) << "level " << k << ", step " << m;
      before = bound;
    }
    EXPECT_NEAR(before / weight, 1.0, 1e-8) << "level " << k;
  }
}

// A restarted pass stops once the Christoffel bound has decided every level (-eps_nemo_multiplicity_bound, the
// default) and returns what the pass of fixed length returns: the small dot and an open GaAs cube (Kramers pairs
// only: the pass adds nothing, and the states are the same bit for bit) and the Td superlattice (a fourfold level
// completed by the pass).
TEST(Lanczos, RestartedPassStopsOnTheChristoffelBound) {
  TBPETA_ASSERT_RANKS();
  for (const char *structure :
       {"", "-periodic 0,0,0 -material GaAs", "-periodic 1,1,1 -material GaAs -dot_material InAs -dot_radius 0.5"}) {
    SCOPED_TRACE(structure);
    TightBindingSystem sys;
    Mat H;
    double vbm, cbm;
    const std::string options = *structure ? std::string("-params klimeck2000 -cells 2,2,2 ") + structure : kDot;
    ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
    ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H), 0);
    ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
    NemoRun bound, fixed;
    ASSERT_EQ(SolveNemo(H, 0.5 * (vbm + cbm), "-eps_nev 8 -eps_nemo_valence 4", &bound), 0);
    ASSERT_EQ(
        SolveNemo(H, 0.5 * (vbm + cbm), "-eps_nev 8 -eps_nemo_valence 4 -eps_nemo_multiplicity_bound false", &fixed),
        0);
    const StatesRecord &pb = bound.report.passes, &pf = fixed.report.passes;
    ASSERT_EQ(bound.states.values.size(), fixed.states.values.size());
    for (size_t i = 0; i < bound.states.values.size(); ++i) {
      EXPECT_NEAR(bound.states.values[i], fixed.states.values[i], 1e-10) << i;
      EXPECT_LT(bound.states.residuals[i], 1e-8) << i;
      if (pf.extra_states == 0) EXPECT_EQ(bound.states.residuals[i], fixed.states.residuals[i]) << i;
    }
    EXPECT_EQ(pb.extra_states, pf.extra_states);
    EXPECT_EQ(pb.multiplicity_passes, pf.multiplicity_passes);
    EXPECT_LT(pb.multiplicity_steps, pf.multiplicity_steps);
    EXPECT_TRUE(pb.multiplicity_complete);
    if (std::string(structure).find("dot") != std::string::npos) EXPECT_GT(pb.extra_states, 0); // fourfold levels
    if (tbpeta::test::commRank() == 0)
      std::printf("restarted passes: %d steps with the bound, %d of fixed length\n", (int)pb.multiplicity_steps,
                  (int)pf.multiplicity_steps);
    MatDestroy(&H);
    PetscOptionsClear(nullptr);
  }
}

// The fused step (the product with the step's first vector pass, -hamiltonian shell and stored_blocks) and the lazy
// step (the product forming the vector the previous step left pending) against the plain step on the same operator:
// fused and lazy give the same T bit for bit, with two vectors or three, and with the pending vector formed midway (as
// a checkpoint does); the plain step the same T to rounding; on 1, 2 and 3 ranks; and the plain path on a stored
// matrix. The open dot, the same split along y (each x plane's interior atoms a run of their own), and a periodic cell
// at a general k (complex blocks, bonds that wrap around: the lazy sweep's forming then runs far ahead).
TEST(Lanczos, FusedStepGivesThePlainStepsT) {
  TBPETA_ASSERT_RANKS();
  const std::string dot = "-cells 3,3,3 -periodic 0,0,0 -dot_material InAs -dot_radius 0.6";
  const std::string by_y =
      " -da_processors_x 1 -da_processors_y " + std::to_string(tbpeta::test::commSize()) + " -da_processors_z 1";
  for (const std::string &structure :
       {dot, dot + by_y, std::string("-params nemo3d -material GaAs -cells 2,2,3 -periodic 1,1,1 -k 0.13,0.27,0.41")})
    for (const char *kind : {"shell", "stored_blocks"}) {
      SCOPED_TRACE(std::string(kind) + " " + structure);
      TightBindingSystem sys;
      ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, structure, &sys), 0);
      Mat H;
      ASSERT_EQ(tbpeta::test::MakeOperator(sys, kind, &H), 0);
      tbpeta::lanczos::Recurrence r[4]; // lazy (two vectors), lazy (three, formed at step 20), fused, plain
      for (auto &x : r) ASSERT_EQ(x.Create(H, 0.7), 0);
      ASSERT_NE(r[0].lazy, nullptr);
      ASSERT_NE(r[2].fused, nullptr);
      r[1].keep_previous = true;
      r[2].lazy = nullptr;
      r[3].fused = nullptr, r[3].lazy = nullptr;
      double beta[4] = {}, worst = 0;
      for (auto &x : r) ASSERT_EQ(tbpeta::lanczos::StartVector(x, 11), 0);
      for (int j = 0; j < 40; ++j) {
        double alpha[4];
        if (j == 20) ASSERT_EQ(tbpeta::lanczos::Materialise(r[1]), 0);
        for (int k = 0; k < 4; ++k) ASSERT_EQ(tbpeta::lanczos::Step(r[k], beta[k], &alpha[k], &beta[k]), 0);
        for (int k = 0; k < 2; ++k) {
          EXPECT_EQ(alpha[k], alpha[2]) << "step " << j << ", lazy recurrence " << k;
          EXPECT_EQ(beta[k], beta[2]) << "step " << j << ", lazy recurrence " << k;
        }
        worst = std::max({worst, std::fabs(alpha[2] - alpha[3]), std::fabs(beta[2] - beta[3])});
      }
      EXPECT_LT(worst, 1e-11); // |H| is about 30 eV here: rounding, amplified a little by 40 steps
      EXPECT_TRUE(r[0].pending);
      EXPECT_EQ(r[0].newest, 39); // the vector of the last alpha; the plain path holds the next one
      EXPECT_EQ(r[3].newest, 40);
      // The pending vector, formed, is the plain path's v_40 to rounding.
      ASSERT_EQ(tbpeta::lanczos::Materialise(r[0]), 0);
      ASSERT_EQ(VecAXPY(r[0].v, -1.0, r[3].v), 0);
      PetscReal diff;
      ASSERT_EQ(VecNorm(r[0].v, NORM_2, &diff), 0);
      EXPECT_LT(diff, 1e-9);
      PetscInt counted;
      ASSERT_EQ(OperatorProductCount(H, &counted), 0);
      EXPECT_EQ(counted, 160); // the four recurrences' products (the build checks H through its norm, no product)
      for (auto &x : r) x.Destroy();
      MatDestroy(&H);
      PetscOptionsClear(nullptr);
    }
  TightBindingSystem sys;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, "-cells 3,3,3 -periodic 0,0,0", &sys), 0);
  Mat A;
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &A), 0);
  tbpeta::lanczos::Recurrence r;
  ASSERT_EQ(r.Create(A, 0), 0);
  EXPECT_EQ(r.fused, nullptr);
  EXPECT_EQ(r.lazy, nullptr);
  r.Destroy();
  MatDestroy(&A);
  PetscOptionsClear(nullptr);
}
