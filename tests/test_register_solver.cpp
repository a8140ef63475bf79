// A new eigen-solver is one file plus one registration line (docs/development.md): this file defines a trivial dense
// solver for tiny H ("dense_test": every eigenvalue by LAPACK on a copy of H on every rank, the nev nearest the
// target kept) and registers it with EPSRegister. tbpeta's solve (SolveEigenproblem) then runs it through -eps_type
// like SLEPc's own and tbpeta's types: the states, their residuals, the products counted on H, the vectors read
// back, the policy checks, -eps_view; and its answer is dense LAPACK's on any number of ranks. It describes itself
// and estimates its vectors through functions it composes (solvers/SolverTraits.hpp), and the comparison of solvers
// runs it as a run of the user's own (-compare_runs lanczos,mine -mine_eps_type dense_test).
#include <gtest/gtest.h>
#include <slepc/private/epsimpl.h>

#include <petscblaslapack.h> // after PETSc's own headers, which it needs

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <numeric>
#include <vector>

#include "bulk/CellSpectrum.hpp"
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

PetscErrorCode EPSSetUp_DenseTest(EPS eps) {
  PetscFunctionBeginUser;
  EPSCheckHermitian(eps);
  EPSCheckStandard(eps);
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

// What tbpeta asks beyond SLEPc's interface (solvers/SolverTraits.hpp): its description, the vectors it holds (the
// states; the dense copy of H is no vector of H's size), and its traits (its own vector algebra: no BLAS row limit).
PetscErrorCode EPSDescribe_DenseTest(EPS, char *text, size_t size) {
  std::snprintf(text, size, "dense LAPACK on every rank");
  return 0;
}
PetscErrorCode EPSEstimateVectors_DenseTest(EPS, PetscInt nev, PetscInt *vectors) {
  *vectors = nev;
  return 0;
}
PetscErrorCode EPSGetTraits_DenseTest(EPS, TbEPSTraits *t) {
  t->own_vector_algebra = true;
  return 0;
}

PetscErrorCode EPSCreate_DenseTest(EPS eps) {
  PetscFunctionBeginUser;
  eps->useds = PETSC_FALSE;
  eps->ops->setup = EPSSetUp_DenseTest;
  eps->ops->solve = EPSSolve_DenseTest;
  eps->ops->computevectors = EPSComputeVectors_DenseTest;
  eps->ops->backtransform = EPSBackTransform_DenseTest;
  eps->ops->setupsort = EPSSetUpSort_Tbpeta; // SLEPc's own is internal to its library
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "TbEPSDescribe_C", EPSDescribe_DenseTest));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "TbEPSEstimateVectors_C", EPSEstimateVectors_DenseTest));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "TbEPSGetTraits_C", EPSGetTraits_DenseTest));
  PetscFunctionReturn(0);
}

// ---- the registration: one line ----
PetscErrorCode RegisterDenseTest() { return EPSRegister("dense_test", EPSCreate_DenseTest); }

const char *kBox = "-params klimeck2000 -cells 2,1,1 -periodic 0,0,0"; // 160 rows

} // namespace

TEST(RegisterSolver, ADenseSolverFromThisFileRunsLikeAnyOther) {
  TBPETA_ASSERT_RANKS();
  ASSERT_EQ(RegisterDenseTest(), 0);
  TightBindingSystem sys;
  Mat H;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, kBox, &sys), 0);
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
  PetscInt estimate;
  ASSERT_EQ(EstimateVectorsHeld(eps, &estimate), 0);
  EXPECT_EQ(estimate, 6); // its own estimate
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
  ASSERT_EQ(EstimateComparisonVectors(PETSC_COMM_WORLD, co, 160, &vectors), 0);
  EXPECT_GE(vectors, 6);
  PetscOptionsClear(nullptr);
  MatDestroy(&H);
}
