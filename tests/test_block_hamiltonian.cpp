// The block operators (-hamiltonian stored_blocks and shell, with the block cache on and off) against the stored
// PETSc matrix: the same products on random vectors for every shipped set, periodic (with Bloch phases) and open
// (passivated), bulk, dot and alloy, on 1, 2 and 3 ranks; the same norms; products repeated bit for bit; the same
// eigenvalues from the solvers; and the options and solvers that cannot work on an operator refused in one line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "system_fixture.hpp"
#include "test_support.hpp"
#include "solvers/EigenSolver.hpp"
#include "operator/Hamiltonian.hpp"
#include "solvers/LanczosSolver.hpp"
#include "bulk/BandStructure.hpp"
#include "study/SolverComparison.hpp"

using namespace tbpeta;
using tbpeta::test::BuildFromOptions;
using tbpeta::test::Quietly;

namespace {

constexpr BlockSource kSources[] = {BlockSource::per_bond, BlockSource::shared, BlockSource::recomputed};

// A random vector, the same on any number of ranks (a hash of the global row).
PetscErrorCode RandomVector(Mat H, Vec *x) {
  PetscInt lo, hi;
  PetscScalar *a;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(H, x, nullptr));
  PetscCall(VecGetOwnershipRange(*x, &lo, &hi));
  PetscCall(VecGetArray(*x, &a));
  for (PetscInt r = lo; r < hi; ++r) {
    unsigned long long z = 0x9e3779b97f4a7c15ULL * (unsigned long long)(r + 1);
    z ^= z >> 31, z *= 0xbf58476d1ce4e5b9ULL, z ^= z >> 29;
    a[r - lo] = PetscScalar((double)(z & 0xffff) / 65536.0 - 0.5, (double)((z >> 16) & 0xffff) / 65536.0 - 0.5);
  }
  PetscCall(VecRestoreArray(*x, &a));
  PetscFunctionReturn(0);
}

// max |(S - H) x| / max |H x| for the operator S of `source` and the stored H, and the norms.
void ExpectSameOperator(const std::string &options) {
  SCOPED_TRACE(options);
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
  Mat H;
  HamiltonianInfo hinfo;
  ASSERT_EQ(AssembleHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.cell.k, MatrixFormat::aij, &H, &hinfo), 0);
  Vec x, y, z;
  ASSERT_EQ(RandomVector(H, &x), 0);
  VecDuplicate(x, &y), VecDuplicate(x, &z);
  MatMult(H, x, y);
  PetscReal yn, hinf, hfro;
  VecNorm(y, NORM_INFINITY, &yn);
  MatNorm(H, NORM_INFINITY, &hinf);
  MatNorm(H, NORM_FROBENIUS, &hfro);
  for (BlockSource source : kSources) {
    SCOPED_TRACE(BlockSourceName(source));
    Mat S;
    HamiltonianInfo sinfo;
    ASSERT_EQ(CreateBlockHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.cell.k, source, &S, &sinfo), 0);
    EXPECT_EQ(sinfo.rows, hinfo.rows);
    EXPECT_EQ(sinfo.block_size, hinfo.block_size);
    EXPECT_GT(sinfo.bytes, 0);
    EXPECT_LT(sinfo.bytes, hinfo.bytes); // less than the AIJ entries and indices, even for the per-bond blocks
    MatMult(S, x, z);
    VecAXPY(z, -1.0, y);
    PetscReal dn;
    VecNorm(z, NORM_INFINITY, &dn);
    EXPECT_LE(dn, 1e-12 * yn);
    if (getenv("TBPETA_VERBOSE")) PetscPrintf(PETSC_COMM_WORLD, "%s: rows %d, rel diff %.2e, bytes %.0f vs %.0f\n", BlockSourceName(source), (int)sinfo.rows, (double)(dn / yn), sinfo.bytes, hinfo.bytes);
    PetscReal sinf, sfro;
    MatNorm(S, NORM_INFINITY, &sinf);
    MatNorm(S, NORM_FROBENIUS, &sfro);
    EXPECT_NEAR(sinf, hinf, 1e-12 * hinf);
    EXPECT_NEAR(sfro, hfro, 1e-12 * hfro);
    PetscInt count;
    EXPECT_EQ(HamiltonianProductCount(S, &count), 0);
    EXPECT_EQ(count, 1);
    MatDestroy(&S);
  }
  VecDestroy(&x), VecDestroy(&y), VecDestroy(&z);
  MatDestroy(&H);
  PetscOptionsClear(nullptr);
}

} // namespace

TEST(BlockHamiltonian, SameProductsAsTheStoredMatrix) {
  TBPETA_ASSERT_RANKS();
  // Every shipped set (sp3s* without spin, sp3d5s* with and without), periodic at a general k (Bloch phases on the
  // wrapped bonds), open and passivated with a dot, periodic along one axis, and an alloy.
  for (const char *set : {"vogl1983", "klimeck2000", "jancu1998", "nemo3d"})
    ExpectSameOperator(std::string("-params ") + set + " -material GaAs -cells 2,2,3 -periodic 1,1,1 -k 0.13,0.27,0.41");
  ExpectSameOperator("-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,0 -dot_material InAs -dot_radius 0.6");
  ExpectSameOperator("-params klimeck2000 -material GaAs -cells 3,2,3 -periodic 1,0,0 -k 0.25,0,0 -dot_material InAs -dot_radius 0.5");
  ExpectSameOperator("-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,1 -host_alloy AlAs,0.3 -alloy_seed 7");
  ExpectSameOperator("-params vogl1983 -material Si -cells 2,3,3 -periodic 0,0,0");
  ExpectSameOperator("-params nemo3d -material GaAs -cells 1,1,1 -periodic 1,1,1 -k 0.1,0.2,0.3"); // bonds to its own images
}

TEST(BlockHamiltonian, ProductsRepeatBitForBit) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, "-params nemo3d -material GaAs -cells 3,3,3 -periodic 1,0,0 -k 0.2,0,0 -dot_material InAs -dot_radius 0.6", &sys), 0);
  for (BlockSource source : kSources) {
    Mat S;
    ASSERT_EQ(CreateBlockHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.cell.k, source, &S, nullptr), 0);
    Vec x, y1, y2;
    ASSERT_EQ(RandomVector(S, &x), 0);
    VecDuplicate(x, &y1), VecDuplicate(x, &y2);
    MatMult(S, x, y1);
    MatMult(S, x, y2);
    const PetscScalar *a, *b;
    PetscInt n;
    VecGetLocalSize(x, &n);
    VecGetArrayRead(y1, &a), VecGetArrayRead(y2, &b);
    int same = std::memcmp(a, b, sizeof(PetscScalar) * n) == 0;
    VecRestoreArrayRead(y1, &a), VecRestoreArrayRead(y2, &b);
    MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD);
    EXPECT_TRUE(same) << BlockSourceName(source);
    VecDestroy(&x), VecDestroy(&y1), VecDestroy(&y2);
    MatDestroy(&S);
  }
  PetscOptionsClear(nullptr);
}

// The solvers see the same operator: the Lanczos (and the folded spectrum) on the shell give the stored matrix's
// states.
TEST(BlockHamiltonian, SolversGiveTheSameStates) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, "-params nemo3d -material GaAs -cells 2,2,3 -periodic 0,0,0 -dot_material InAs -dot_radius 0.5", &sys), 0);
  double vbm, cbm;
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  const auto run = [&](HamiltonianKind kind, SolverKind solver, EigenStates *st) {
    HamiltonianOptions o;
    o.kind = kind;
    Mat H;
    HamiltonianInfo info;
    ASSERT_EQ(CreateHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.cell.k, o, &H, &info), 0);
    ASSERT_EQ(SolveFromOptions(H, solver, 0.5 * (vbm + cbm), sys.structure.canonicalRows(info.block_size), info.block_size, true, st), 0);
    st->DestroyVectors();
    MatDestroy(&H);
  };
  // Each solver against itself on the stored matrix (the folded spectrum looks around the middle of the 8 Lanczos
  // states, where the 8 nearest states are those).
  PetscOptionsClear(nullptr);
  EigenStates lanczos;
  run(HamiltonianKind::stored, SolverKind::lanczos, &lanczos);
  ASSERT_EQ(lanczos.values.size(), 8u) << lanczos.solver;
  const std::string shift = std::to_string(0.5 * (lanczos.values.front() + lanczos.values.back()) + 1e-6);
  for (SolverKind solver : {SolverKind::lanczos, SolverKind::folded}) {
    PetscOptionsClear(nullptr);
    if (solver == SolverKind::folded) PetscOptionsSetValue(nullptr, "-folded_shift", shift.c_str());
    EigenStates ref;
    if (solver == SolverKind::lanczos) ref = lanczos;
    else run(HamiltonianKind::stored, solver, &ref);
    ASSERT_EQ(ref.values.size(), 8u) << ref.solver;
    for (size_t i = 0; i < 8; ++i) EXPECT_NEAR(ref.values[i], lanczos.values[i], 1e-8) << i;
    for (HamiltonianKind kind : {HamiltonianKind::stored_blocks, HamiltonianKind::shell}) {
      if (solver == SolverKind::folded && kind == HamiltonianKind::stored_blocks) continue; // the same kernel as the shell's; keeps the test short
      SCOPED_TRACE(std::string(HamiltonianKindName(kind)) + " " + (solver == SolverKind::lanczos ? "lanczos" : "folded"));
      EigenStates st;
      run(kind, solver, &st);
      ASSERT_EQ(st.values.size(), 8u) << st.solver;
      for (size_t i = 0; i < 8; ++i) {
        EXPECT_NEAR(st.values[i], ref.values[i], 1e-8) << i;
        EXPECT_LT(st.residuals[i], 1e-6) << i;
      }
      // The same recurrence on the same numbers: the Lanczos takes the same steps.
      if (solver == SolverKind::lanczos) EXPECT_EQ(st.iterations, ref.iterations);
    }
  }
  PetscOptionsClear(nullptr);
}

TEST(BlockHamiltonian, OptionsAndSolversThatNeedEntriesAreRefused) {
  TBPETA_ASSERT_RANKS();
  const auto options = [](const char *text, HamiltonianOptions *o) {
    PetscOptionsClear(nullptr);
    PetscOptionsInsertString(nullptr, text);
    return Quietly([&] { return HamiltonianOptionsFromOptions(PETSC_COMM_WORLD, o); });
  };
  HamiltonianOptions o;
  EXPECT_EQ(options("-hamiltonian shell -shell_block_cache 0", &o), 0);
  EXPECT_EQ(o.kind, HamiltonianKind::shell);
  EXPECT_FALSE(o.block_cache);
  EXPECT_EQ(options("-hamiltonian stored_blocks", &o), 0);
  EXPECT_EQ(o.kind, HamiltonianKind::stored_blocks);
  EXPECT_EQ(options("", &o), 0);
  EXPECT_EQ(o.kind, HamiltonianKind::stored);
  EXPECT_NE(options("-hamiltonian matfree", &o), 0);
  EXPECT_EQ(options("-shell_block_cache 0", &o), PETSC_ERR_USER_INPUT); // stored: not a shell
  EXPECT_EQ(options("-hamiltonian shell -mat_type baij", &o), PETSC_ERR_USER_INPUT);

  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, "-params klimeck2000 -material GaAs -cells 2,2,2 -periodic 0,0,0", &sys), 0);
  Mat S;
  ASSERT_EQ(CreateBlockHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.cell.k, BlockSource::shared, &S, nullptr), 0);
  bool stored = true;
  EXPECT_EQ(HamiltonianIsStored(S, &stored), 0);
  EXPECT_FALSE(stored);
  EigenStates st;
  PetscOptionsClear(nullptr);
  PetscOptionsInsertString(nullptr, "-st_type sinvert -eps_nev 4");
  EXPECT_EQ(Quietly([&] { return SolveWithSlepc(S, 0.7, &st); }), PETSC_ERR_USER_INPUT);
  PetscOptionsClear(nullptr);
  PetscOptionsInsertString(nullptr, "-eps_type lapack");
  EXPECT_EQ(Quietly([&] { return SolveWithSlepc(S, 0.7, &st); }), PETSC_ERR_USER_INPUT);
  MatDestroy(&S);
  PetscOptionsClear(nullptr);
}

// -solver compare on an operator: the runs that need only products run; shift-and-invert is skipped with a note.
TEST(BlockHamiltonian, CompareSkipsShiftAndInvertOnTheShell) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, "-params klimeck2000 -material GaAs -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4", &sys), 0);
  Mat S;
  HamiltonianInfo info;
  ASSERT_EQ(CreateBlockHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.cell.k, BlockSource::shared, &S, &info), 0);
  double vbm, cbm;
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  PetscOptionsClear(nullptr);
  PetscOptionsInsertString(nullptr, "-compare_runs lanczos,sinvert");
  CompareOptions co;
  ASSERT_EQ(CompareOptionsFromOptions(PETSC_COMM_WORLD, 0.5 * (vbm + cbm), &co), 0);
  std::vector<ComparisonRow> rows;
  ASSERT_EQ(CompareSolvers(S, sys.structure.canonicalRows(info.block_size), 0, co, &rows), 0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0].converged) << rows[0].note;
  EXPECT_EQ(rows[0].states, 8);
  EXPECT_TRUE(rows[1].skipped);
  EXPECT_NE(rows[1].note.find("-hamiltonian stored"), std::string::npos) << rows[1].note;
  MatDestroy(&S);
  PetscOptionsClear(nullptr);
}
