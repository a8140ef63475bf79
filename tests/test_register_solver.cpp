// A new eigen-solver is one file plus one registration line (docs/development.md): this file defines a trivial dense
// solver for tiny H ("dense_test": every eigenvalue by LAPACK on a copy of H on every rank, the nev nearest the
// target kept, refused above -eps_dense_test_max_rows) and registers it with RegisterEigenSolverType. tbpeta's solve
// (SolveEigenproblem) then runs it through -eps_type like SLEPc's own and tbpeta's types: the states, their
// residuals, the products counted on H, the vectors read back, the policy checks, -eps_view; and its answer is dense
// LAPACK's on any number of ranks. It describes itself and estimates its vectors for the properties H will have
// through functions it composes from one table (solvers/SolverTraits.hpp), -help lists its option in a section of its
// own when another type is chosen, and the comparison of solvers runs it as a run of the user's own
// (-compare_runs lanczos,mine -mine_eps_type dense_test).
#include <gtest/gtest.h>
#include <slepc/private/epsimpl.h>

#include <petscblaslapack.h> // after PETSc's own headers, which it needs

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "bulk/CellSpectrum.hpp"
#include "solvers/EpsOptionPrefix.hpp"
#include "solvers/RegisterSolvers.hpp"
#include "solvers/SolverTraits.hpp"
#include "solvers/SortCriterion.hpp"
#include "study/SolverComparison.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;

namespace {

// ---- the solver: all of it ----

// H on every rank as a dense column-major array (tiny H only).
PetscErrorCode DenseCopy(Mat H, std::vector<PetscScalar> *a, PetscInt *n) {
  Mat *red, dense;
  IS all;
  const PetscScalar *v;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(H, n, nullptr));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, *n, 0, 1, &all));
  PetscCall(MatCreateSubMatrices(H, 1, &all, &all, MAT_INITIAL_MATRIX, &red));
  PetscCall(MatConvert(red[0], MATSEQDENSE, MAT_INITIAL_MATRIX, &dense));
  PetscCall(MatDenseGetArrayRead(dense, &v));
  a->assign(v, v + (*n) * (*n));
  PetscCall(MatDenseRestoreArrayRead(dense, &v));
  PetscCall(MatDestroy(&dense));
  PetscCall(MatDestroySubMatrices(1, &red));
  PetscCall(ISDestroy(&all));
  PetscFunctionReturn(0);
}

// Its one option: the largest H it copies onto every rank.
struct DenseTestSettings {
  PetscInt max_rows = 4096;
};
DenseTestSettings *DenseTestCtx(EPS eps) { return static_cast<DenseTestSettings *>(eps->data); }
const char *const kDenseTestTitle = "EPS dense_test: dense LAPACK on every rank (test_register_solver)";

PetscErrorCode ReadDenseTestOptions(PetscOptionItems *PetscOptionsObject, DenseTestSettings *s) {
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsInt("-eps_dense_test_max_rows", "Largest H copied onto every rank", "EPSDENSETEST", s->max_rows,
                            &s->max_rows, nullptr));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSSetFromOptions_DenseTest(EPS eps, PetscOptionItems *PetscOptionsObject) {
  PetscFunctionBeginUser;
  PetscOptionsHeadBegin(PetscOptionsObject, kDenseTestTitle);
  PetscCall(ReadDenseTestOptions(PetscOptionsObject, DenseTestCtx(eps)));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

// Under -help when another type is chosen (EigenSolverType::list_options): a section of its own.
PetscErrorCode ListDenseTestOptions(MPI_Comm comm, double) {
  DenseTestSettings defaults;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, kDenseTestTitle, "EPS");
  PetscCall(ReadDenseTestOptions(PetscOptionsObject, &defaults));
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

PetscErrorCode EPSSetUp_DenseTest(EPS eps) {
  Mat H;
  PetscInt rows;
  PetscFunctionBeginUser;
  EPSCheckHermitian(eps);
  EPSCheckStandard(eps);
  PetscCall(EPSGetOperators(eps, &H, nullptr));
  PetscCall(MatGetSize(H, &rows, nullptr));
  PetscCheck(rows <= DenseTestCtx(eps)->max_rows, PetscObjectComm((PetscObject)eps), PETSC_ERR_USER_INPUT,
             "%seps_dense_test_max_rows %" PetscInt_FMT ": H has %" PetscInt_FMT " rows", OptionPrefix(eps).c_str(),
             DenseTestCtx(eps)->max_rows, rows);
  if (!eps->which) eps->which = EPS_TARGET_MAGNITUDE;
  eps->ncv = eps->mpd = eps->nev;
  if (eps->max_it == PETSC_DEFAULT) eps->max_it = 1;
  if (eps->tol == PETSC_DEFAULT) eps->tol = 1e-12;
  PetscCall(EPSAllocateSolution(eps, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSSolve_DenseTest(EPS eps) {
  Mat H;
  std::vector<PetscScalar> a, work(1);
  PetscInt n, rstart, rend;
  PetscBLASInt bn, lwork = -1, info;
  PetscFunctionBeginUser;
  PetscCall(EPSGetOperators(eps, &H, nullptr));
  PetscCall(DenseCopy(H, &a, &n));
  PetscCall(PetscBLASIntCast(n, &bn));
  std::vector<PetscReal> w(n), rwork(std::max<PetscInt>(1, 3 * n - 2));
  PetscCallBLAS("LAPACKheev",
                LAPACKheev_("V", "L", &bn, a.data(), &bn, w.data(), work.data(), &lwork, rwork.data(), &info));
  lwork = (PetscBLASInt)PetscRealPart(work[0]);
  work.resize(lwork);
  PetscCallBLAS("LAPACKheev",
                LAPACKheev_("V", "L", &bn, a.data(), &bn, w.data(), work.data(), &lwork, rwork.data(), &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "zheev failed: %d", (int)info);
  // The nev eigenvalues nearest the target, and their vectors (this rank's rows) as the columns of the basis.
  std::vector<PetscInt> order(n);
  std::iota(order.begin(), order.end(), 0);
  const PetscReal target = PetscRealPart(eps->target);
  std::stable_sort(order.begin(), order.end(),
                   [&](PetscInt i, PetscInt j) { return std::fabs(w[i] - target) < std::fabs(w[j] - target); });
  PetscCall(MatGetOwnershipRange(H, &rstart, &rend));
  for (PetscInt k = 0; k < eps->nev; ++k) {
    Vec x;
    PetscScalar *px;
    PetscCall(BVGetColumn(eps->V, k, &x));
    PetscCall(VecGetArray(x, &px));
    for (PetscInt i = rstart; i < rend; ++i) px[i - rstart] = a[order[k] * n + i];
    PetscCall(VecRestoreArray(x, &px));
    PetscCall(BVRestoreColumn(eps->V, k, &x));
    eps->eigr[k] = w[order[k]], eps->eigi[k] = 0, eps->errest[k] = 0, eps->perm[k] = k;
  }
  eps->nconv = eps->nev, eps->its = 1, eps->reason = EPS_CONVERGED_TOL;
  PetscFunctionReturn(0);
}

PetscErrorCode EPSComputeVectors_DenseTest(EPS) { return 0; } // the columns are the eigenvectors
PetscErrorCode EPSBackTransform_DenseTest(EPS) { return 0; }  // of H itself

// What tbpeta asks beyond SLEPc's interface (solvers/SolverTraits.hpp): its description, the vectors it holds for the
// properties H will have (the states, and the dense copy of H on every rank: rows x rows entries, as many as
// rows x ranks vectors of a rank's share of H), and its traits (its own vector algebra: no BLAS row limit).
PetscErrorCode EPSDescribe_DenseTest(EPS, char *text, size_t size) {
  std::snprintf(text, size, "dense LAPACK on every rank");
  return 0;
}
PetscErrorCode EPSEstimateVectors_DenseTest(EPS eps, PetscInt nev, const OperatorProperties &planned,
                                            PetscInt *vectors) {
  PetscMPIInt ranks;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)eps), &ranks));
  *vectors = nev + planned.rows * ranks;
  PetscFunctionReturn(0);
}
PetscErrorCode EPSGetTraits_DenseTest(EPS, TbEPSTraits *t) {
  t->own_vector_algebra = true;
  return 0;
}

std::span<const TbEPSFunction> DenseTestFunctions() {
  static const TbEPSFunction table[] = {TbEPSFn("TbEPSDescribe_C", EPSDescribe_DenseTest),
                                        TbEPSFn("TbEPSEstimateVectors_C", EPSEstimateVectors_DenseTest),
                                        TbEPSFn("TbEPSGetTraits_C", EPSGetTraits_DenseTest)};
  return table;
}

PetscErrorCode EPSDestroy_DenseTest(EPS eps) {
  PetscFunctionBeginUser;
  delete DenseTestCtx(eps);
  eps->data = nullptr;
  PetscCall(TbEPSComposeFunctions(eps, DenseTestFunctions(), true));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSCreate_DenseTest(EPS eps) {
  PetscFunctionBeginUser;
  eps->data = new DenseTestSettings;
  eps->useds = PETSC_FALSE;
  eps->ops->setup = EPSSetUp_DenseTest;
  eps->ops->solve = EPSSolve_DenseTest;
  eps->ops->setfromoptions = EPSSetFromOptions_DenseTest;
  eps->ops->destroy = EPSDestroy_DenseTest;
  eps->ops->computevectors = EPSComputeVectors_DenseTest;
  eps->ops->backtransform = EPSBackTransform_DenseTest;
  eps->ops->setupsort = EPSSetUpSort_Tbpeta; // SLEPc's own is internal to its library
  PetscCall(TbEPSComposeFunctions(eps, DenseTestFunctions()));
  PetscFunctionReturn(0);
}

EigenSolverType DenseTestType() {
  EigenSolverType t;
  t.name = "dense_test";
  t.create = EPSCreate_DenseTest;
  t.list_options = ListDenseTestOptions;
  return t;
}

// ---- the registration: one line ----
PetscErrorCode RegisterDenseTest() { return RegisterEigenSolverType(DenseTestType()); }

using tbpeta::test::kTinyBox;

} // namespace

TEST(RegisterSolver, ADenseSolverFromThisFileRunsLikeAnyOther) {
  TBPETA_ASSERT_RANKS();
  ASSERT_EQ(RegisterDenseTest(), 0);
  TightBindingSystem sys;
  Mat H;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, kTinyBox, &sys), 0);
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H), 0);
  double vbm, cbm;
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  const double midgap = 0.5 * (vbm + cbm);
  std::vector<double> all;
  ASSERT_EQ(AllEigenvalues(H, &all), 0);
  std::sort(all.begin(), all.end(), [&](double x, double y) { return std::fabs(x - midgap) < std::fabs(y - midgap); });
  std::vector<double> want(all.begin(), all.begin() + 6);
  std::sort(want.begin(), want.end());

  EigenStates st;
  EPS eps = nullptr;
  ASSERT_EQ(tbpeta::test::SolveWith(H, midgap, "-eps_type dense_test -eps_nev 6", &st, nullptr, &eps), 0);
  ASSERT_EQ(st.values.size(), 6u);
  for (size_t i = 0; i < 6; ++i) EXPECT_NEAR(st.values[i], want[i], 1e-10) << i;
  EXPECT_TRUE(st.vectors);
  EXPECT_TRUE(st.complete);
  EXPECT_EQ(st.products, 0);                          // it never multiplies by H: the count on H says so
  EXPECT_EQ(st.solver, "dense LAPACK on every rank"); // its own description
  const OperatorProperties *props;
  ASSERT_EQ(OperatorGetProperties(H, &props), 0);
  ASSERT_NE(props, nullptr);
  PetscInt estimate;
  ASSERT_EQ(EstimateVectorsHeld(eps, *props, &estimate), 0);
  EXPECT_EQ(estimate, 6 + 160 * tbpeta::test::commSize()); // its own estimate, from H's properties
  double residual, norm_error;
  ASSERT_EQ(tbpeta::test::CheckVectors(H, eps, st, &residual, &norm_error), 0);
  EXPECT_LT(residual, 1e-10);
  EXPECT_LT(norm_error, 1e-12);
  for (double r : st.residuals) EXPECT_LT(r, 1e-10);
  EPSType type;
  EPSGetType(eps, &type);
  EXPECT_STREQ(type, "dense_test");
  EPSDestroy(&eps);
  // tbpeta's policy applies to it as to every type: no more states than rows, a finite target.
  EXPECT_EQ(tbpeta::test::Quietly(
                [&] { return tbpeta::test::SolveWith(H, midgap, "-eps_type dense_test -eps_nev 100000", &st); }),
            PETSC_ERR_USER_INPUT);
  EXPECT_EQ(tbpeta::test::Quietly(
                [&] { return tbpeta::test::SolveWith(H, midgap, "-eps_type dense_test -eps_target nan", &st); }),
            PETSC_ERR_USER_INPUT);
  // Its own option, with its own one-line refusal.
  EXPECT_EQ(tbpeta::test::Quietly([&] {
              return tbpeta::test::SolveWith(H, midgap, "-eps_type dense_test -eps_dense_test_max_rows 100", &st);
            }),
            PETSC_ERR_USER_INPUT);
  PetscOptionsClear(nullptr);

  // Compared like the built-in runs: a run of the user's own (-compare_runs lanczos,mine -mine_eps_type dense_test),
  // asked the same question around the middle of the Lanczos states, agrees with it.
  PetscOptionsInsertString(nullptr, "-compare_runs lanczos,mine -mine_eps_type dense_test");
  CompareOptions defaults, co;
  defaults.gap_center = midgap, defaults.nev_valence = defaults.nev_conduction = 3;
  ASSERT_EQ(CompareOptionsFromOptions(PETSC_COMM_WORLD, defaults, &co), 0);
  std::vector<ComparisonRow> rows;
  ASSERT_EQ(CompareSolvers(H, co, &rows), 0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].run, "mine");
  EXPECT_EQ(rows[1].solver, "dense LAPACK on every rank");
  EXPECT_TRUE(rows[1].converged) << rows[1].note;
  EXPECT_EQ(rows[1].states(), 6);
  EXPECT_EQ(rows[1].levels_compared, rows[0].levels_compared);
  EXPECT_LT(rows[1].max_deviation, 1e-8);
  PetscInt vectors;
  ASSERT_EQ(EstimateComparisonVectors(PETSC_COMM_WORLD, co, *props, &vectors), 0);
  EXPECT_EQ(vectors, 6 + 160 * tbpeta::test::commSize()); // the largest run's: this one's dense copy
  PetscOptionsClear(nullptr);
  MatDestroy(&H);
}

namespace {

// The eigen-solvers' -help listing (ListEigenSolverOptions) with `options`.
std::string ListingWith(const std::string &options, double target) {
  PetscErrorCode e;
  PetscOptionsInsertString(nullptr, (options + " -help").c_str());
  const std::string listed =
      tbpeta::test::CapturePrinted([&] { return ListEigenSolverOptions(PETSC_COMM_WORLD, target); }, &e);
  PetscOptionsClear(nullptr);
  return e ? "error " + std::to_string((int)e) : listed;
}

size_t Count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

} // namespace

// -help lists the option of the type registered from this file in a section of its own when another type is chosen,
// once when it is the chosen one, beside the options of tbpeta's own types; outside -help only the chosen solver's
// options are read, so that another type's option given is reported as unread.
TEST(RegisterSolver, ItsOptionsAreListedUnderHelp) {
  TBPETA_ASSERT_RANKS();
  ASSERT_EQ(RegisterDenseTest(), 0);
  const std::string other = ListingWith("-eps_type krylovschur", 0.5);
  EXPECT_EQ(Count(other, "-eps_dense_test_max_rows <"), 1u) << other;
  EXPECT_EQ(Count(other, kDenseTestTitle), 1u);
  EXPECT_EQ(Count(other, "-eps_nemo_valence <"), 1u); // tbpeta's types list theirs too
  EXPECT_EQ(Count(other, "-eps_folded_filter <"), 1u);
  const std::string chosen = ListingWith("-eps_type dense_test", 0.5);
  EXPECT_EQ(Count(chosen, "-eps_dense_test_max_rows <"), 1u) << chosen;
  EXPECT_EQ(Count(chosen, "-eps_nemo_valence <"), 1u);
  // Outside -help: the chosen solver's options only.
  PetscOptionsInsertString(nullptr, "-eps_type dense_test -eps_dense_test_max_rows 200 -eps_nemo_seed 3");
  ASSERT_EQ(ListEigenSolverOptions(PETSC_COMM_WORLD, 0.5), 0);
  PetscBool used;
  ASSERT_EQ(PetscOptionsUsed(nullptr, "eps_dense_test_max_rows", &used), 0);
  EXPECT_TRUE(used);
  ASSERT_EQ(PetscOptionsUsed(nullptr, "eps_nemo_seed", &used), 0);
  EXPECT_FALSE(used);
  PetscOptionsClear(nullptr);
}
