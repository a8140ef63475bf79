#include <algorithm>
// The block operators (-hamiltonian stored_blocks and shell, with the block cache on and off) against the stored
// PETSc matrix: the same products on random vectors for every shipped set, periodic (with Bloch phases) and open
// (passivated), bulk, dot and alloy, on 1, 2 and 3 ranks; the same norms; products repeated bit for bit (also once
// the structure they were built from is gone); the same eigenvalues from the solvers; and the options and solvers
// that cannot work on an operator refused in one line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "Roofline.hpp"
#include "SystemProbes.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"
#include "bulk/CellSpectrum.hpp"
#include "operator/block/BlockHamiltonian.hpp"
#include "operator/block/BlockOperator.hpp"
#include "operator/Hamiltonian.hpp"
#include "operator/OperatorProperties.hpp"
#include "strain/SystemRelaxation.hpp"
#include "study/SolverComparison.hpp"

using namespace tbpeta;
using tbpeta::test::BuildFromOptions;
using tbpeta::test::DisplaceAtoms;
using tbpeta::test::MakeOperator;
using tbpeta::test::Quietly;
using tbpeta::test::SolveWith;

namespace {

constexpr BlockSource kSources[] = {BlockSource::per_bond, BlockSource::shared, BlockSource::recomputed};

// The operator of each block source, as -hamiltonian makes it.
PetscErrorCode MakeBlockOperator(const TightBindingSystem &sys, BlockSource source, Mat *S) {
  return MakeOperator(sys, source == BlockSource::per_bond ? "stored_blocks" : "shell", S,
                      source != BlockSource::recomputed, false);
}

// max |(S - H) x| / max |H x| for the operator S of `source` and the stored H, and the norms.
void ExpectSameOperator(const std::string &options) {
  SCOPED_TRACE(options);
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
  Mat H;
  const OperatorProperties *hinfo, *sinfo;
  ASSERT_EQ(MakeOperator(sys, "aij", &H), 0);
  ASSERT_EQ(OperatorGetProperties(H, &hinfo), 0);
  Vec x, y, z;
  ASSERT_EQ(tbpeta::test::HashedVector(H, &x), 0);
  VecDuplicate(x, &y), VecDuplicate(x, &z);
  MatMult(H, x, y);
  PetscReal yn, hinf, hfro;
  VecNorm(y, NORM_INFINITY, &yn);
  MatNorm(H, NORM_INFINITY, &hinf);
  MatNorm(H, NORM_FROBENIUS, &hfro);
  for (BlockSource source : kSources) {
    SCOPED_TRACE(BlockSourceName(source));
    Mat S;
    ASSERT_EQ(MakeBlockOperator(sys, source, &S), 0);
    ASSERT_EQ(OperatorGetProperties(S, &sinfo), 0);
    EXPECT_EQ(sinfo->rows, hinfo->rows);
    EXPECT_EQ(sinfo->rows_per_atom, hinfo->rows_per_atom);
    EXPECT_EQ(sinfo->kramers_block, hinfo->kramers_block);
    EXPECT_FALSE(sinfo->has_entries);
    EXPECT_TRUE(hinfo->has_entries);
    EXPECT_GT(sinfo->bytes, 0);
    EXPECT_LT(sinfo->bytes, hinfo->bytes); // less than the AIJ entries and indices, even for the per-bond blocks
    MatMult(S, x, z);
    VecAXPY(z, -1.0, y);
    PetscReal dn;
    VecNorm(z, NORM_INFINITY, &dn);
    EXPECT_LE(dn, 1e-12 * yn);
    PetscReal sinf, sfro;
    MatNorm(S, NORM_INFINITY, &sinf);
    MatNorm(S, NORM_FROBENIUS, &sfro);
    EXPECT_NEAR(sinf, hinf, 1e-12 * hinf);
    EXPECT_NEAR(sfro, hfro, 1e-12 * hfro);
    PetscInt count;
    EXPECT_EQ(OperatorProductCount(S, &count), 0);
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
    ExpectSameOperator(std::string("-params ") + set +
                       " -material GaAs -cells 2,2,3 -periodic 1,1,1 -k 0.13,0.27,0.41");
  ExpectSameOperator("-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,0 -dot_material InAs -dot_radius 0.6");
  ExpectSameOperator(
      "-params klimeck2000 -material GaAs -cells 3,2,3 -periodic 1,0,0 -k 0.25,0,0 -dot_material InAs -dot_radius 0.5");
  ExpectSameOperator("-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,1 -host_alloy AlAs,0.3 -alloy_seed 7");
  ExpectSameOperator("-params vogl1983 -material Si -cells 2,3,3 -periodic 0,0,0");
  ExpectSameOperator(
      "-params nemo3d -material GaAs -cells 1,1,1 -periodic 1,1,1 -k 0.1,0.2,0.3"); // bonds to its own images
}

// A potential on the atoms (Structure::potential, eV per owned atom) enters every operator kind in one place: the
// product of each kind is H x + V x, with V the potential on every orbital and spin of its atom (a closed form from
// the product without the potential), and the norms of every kind agree with the stored matrix's.
TEST(BlockHamiltonian, APotentialOnTheAtomsEntersEveryKind) {
  TBPETA_ASSERT_RANKS();
  for (const char *options :
       {"-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,0 -dot_material InAs -dot_radius 0.6",
        "-params nemo3d -material GaAs -cells 4,4,3 -periodic 1,1,0 -dot_material InAs -dot_radius 0.7 -strain "
        "keating"}) {
    SCOPED_TRACE(options);
    TightBindingSystem sys;
    SystemStrain strain;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
    ASSERT_EQ(RelaxSystem(PETSC_COMM_WORLD, &sys, &strain), 0); // (nothing to relax without -strain keating)
    Mat H0;
    ASSERT_EQ(MakeOperator(sys, "aij", &H0), 0);
    Vec x, y0, vx;
    ASSERT_EQ(tbpeta::test::HashedVector(H0, &x), 0);
    VecDuplicate(x, &y0), VecDuplicate(x, &vx);
    MatMult(H0, x, y0);
    // A potential that differs from atom to atom (a linear ramp in the canonical index and a constant), so that no two
    // atoms of a configuration share it.
    const Structure &s = sys.structure;
    sys.structure.potential.resize(s.owned);
    const OperatorProperties *props;
    ASSERT_EQ(OperatorGetProperties(H0, &props), 0);
    std::vector<PetscInt> canonical(s.owned);
    PetscInt rstart;
    MatGetOwnershipRange(H0, &rstart, nullptr);
    ForEachCanonicalRow(props, s.owned * props->rows_per_atom, rstart, [&](PetscInt i, PetscInt row) {
      if (i % props->rows_per_atom == 0) canonical[i / props->rows_per_atom] = row / props->rows_per_atom;
    });
    for (PetscInt i = 0; i < s.owned; ++i) sys.structure.potential[i] = 0.25 - 1e-3 * (double)canonical[i];
    {
      PetscScalar *v;
      const PetscScalar *xa;
      VecGetArray(vx, &v), VecGetArrayRead(x, &xa);
      for (PetscInt r = 0; r < s.owned * props->rows_per_atom; ++r)
        v[r] = sys.structure.potential[r / props->rows_per_atom] * xa[r];
      VecRestoreArray(vx, &v), VecRestoreArrayRead(x, &xa);
    }
    VecAXPY(vx, 1.0, y0); // the expected H x + V x
    PetscReal yn, hinf = 0, hfro = 0;
    VecNorm(vx, NORM_INFINITY, &yn);
    for (const char *kind : {"aij", "baij", "stored_blocks", "shell", "shell -"}) {
      SCOPED_TRACE(kind);
      const std::string k = kind;
      Mat H;
      ASSERT_EQ(MakeOperator(sys, k == "shell -" ? "shell" : k, &H, k != "shell -"), 0);
      Vec z;
      VecDuplicate(x, &z);
      MatMult(H, x, z);
      VecAXPY(z, -1.0, vx);
      PetscReal dn, inf, fro;
      VecNorm(z, NORM_INFINITY, &dn);
      EXPECT_LE(dn, 1e-12 * yn);
      MatNorm(H, NORM_INFINITY, &inf), MatNorm(H, NORM_FROBENIUS, &fro);
      if (k == "aij") hinf = inf, hfro = fro;
      EXPECT_NEAR(inf, hinf, 1e-12 * hinf);
      EXPECT_NEAR(fro, hfro, 1e-12 * hfro);
      VecDestroy(&z);
      MatDestroy(&H);
    }
    VecDestroy(&x), VecDestroy(&y0), VecDestroy(&vx);
    MatDestroy(&H0);
    PetscOptionsClear(nullptr);
  }
}

TEST(BlockHamiltonian, ProductsRepeatBitForBit) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  ASSERT_EQ(
      BuildFromOptions(
          PETSC_COMM_WORLD,
          "-params nemo3d -material GaAs -cells 3,3,3 -periodic 1,0,0 -k 0.2,0,0 -dot_material InAs -dot_radius 0.6",
          &sys),
      0);
  for (BlockSource source : kSources) {
    Mat S;
    ASSERT_EQ(MakeBlockOperator(sys, source, &S), 0);
    Vec x, y1, y2;
    ASSERT_EQ(tbpeta::test::HashedVector(S, &x), 0);
    VecDuplicate(x, &y1), VecDuplicate(x, &y2);
    MatMult(S, x, y1);
    sys.structure = Structure{}; // the operator keeps what it reads (its tables, and the structure's bonds it shares)
    MatMult(S, x, y2);
    ASSERT_EQ(BuildStructure(PETSC_COMM_WORLD, &sys), 0); // for the next operator
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
  ASSERT_EQ(BuildFromOptions(
                PETSC_COMM_WORLD,
                "-params nemo3d -material GaAs -cells 2,2,3 -periodic 0,0,0 -dot_material InAs -dot_radius 0.5", &sys),
            0);
  double vbm, cbm;
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  const auto run = [&](const std::string &kind, const std::string &options, EigenStates *st) {
    Mat H;
    ASSERT_EQ(MakeOperator(sys, kind, &H), 0);
    ASSERT_EQ(SolveWith(H, 0.5 * (vbm + cbm), options, st), 0);
    MatDestroy(&H);
  };
  // Each solver against itself on the stored matrix (the folded spectrum looks around the middle of the 8 Lanczos
  // states, where the 8 nearest states are those).
  EigenStates lanczos;
  run("aij", "", &lanczos);
  ASSERT_EQ(lanczos.values.size(), 8u) << lanczos.solver;
  const std::string folded =
      "-eps_type folded -eps_target " + std::to_string(0.5 * (lanczos.values.front() + lanczos.values.back()) + 1e-6);
  for (const std::string &solver : {std::string(""), folded}) {
    EigenStates ref;
    if (solver.empty()) ref = lanczos;
    else run("aij", solver, &ref);
    ASSERT_EQ(ref.values.size(), 8u) << ref.solver;
    for (size_t i = 0; i < 8; ++i) EXPECT_NEAR(ref.values[i], lanczos.values[i], 1e-8) << i;
    for (const std::string &kind : {"stored_blocks", "shell"}) {
      if (!solver.empty() && kind == "stored_blocks") continue; // the same kernel as the shell's; keeps the test short
      SCOPED_TRACE(std::string(kind) + " " + (solver.empty() ? "nemo" : "folded"));
      EigenStates st;
      run(kind, solver, &st);
      ASSERT_EQ(st.values.size(), 8u) << st.solver;
      for (size_t i = 0; i < 8; ++i) {
        EXPECT_NEAR(st.values[i], ref.values[i], 1e-8) << i;
        EXPECT_LT(st.residuals[i], 1e-6) << i;
      }
      // The same recurrence on the same numbers: the Lanczos takes the same steps, and the same products but for the
      // restarted pass, which stops on the Christoffel bound of its T at a check that rounding may move by one.
      if (solver.empty()) {
        EXPECT_EQ(st.iterations, ref.iterations);
        EXPECT_LE(std::abs(st.products - ref.products), 50);
      }
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
  EXPECT_EQ(o.kind, "shell");
  EXPECT_EQ(HamiltonianDescription(o), "shell (on the fly, every block recomputed)"); // no block cache
  EXPECT_EQ(options("-hamiltonian stored_blocks", &o), 0);
  EXPECT_EQ(o.kind, "stored_blocks");
  EXPECT_EQ(options("-hamiltonian baij", &o), 0);
  EXPECT_EQ(o.kind, "baij");
  EXPECT_EQ(options("", &o), 0);
  EXPECT_EQ(o.kind, "aij");
  EXPECT_NE(options("-hamiltonian matfree", &o), 0);
  EXPECT_EQ(options("-shell_block_cache 0", &o), PETSC_ERR_USER_INPUT); // aij: not a shell

  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, "-params klimeck2000 -material GaAs -cells 2,2,2 -periodic 0,0,0", &sys),
            0);
  for (const std::string &kind : {"stored_blocks", "shell"}) {
    Mat S;
    ASSERT_EQ(MakeOperator(sys, kind, &S), 0);
    bool entries = true;
    EXPECT_EQ(OperatorHasEntries(S, &entries), 0);
    EXPECT_FALSE(entries) << kind; // stored blocks are no matrix entries
    EigenStates st;
    EXPECT_EQ(Quietly([&] { return SolveWith(S, 0.7, "-eps_type krylovschur -st_type sinvert -eps_nev 4", &st); }),
              PETSC_ERR_USER_INPUT);
    EXPECT_EQ(Quietly([&] { return SolveWith(S, 0.7, "-eps_type lapack", &st); }), PETSC_ERR_USER_INPUT);
    MatDestroy(&S);
  }
  PetscOptionsClear(nullptr);
}

// SLEPc's polynomial filter (-st_type filter, all states of an interval) copies the operator it filters: it runs on
// every kind (a copy of a shell once lost the product's counter and crashed), finds the dense solver's states, and
// its products are counted.
TEST(BlockHamiltonian, PolynomialFilterRunsOnEveryOperator) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, "-params klimeck2000 -material GaAs -cells 2,2,2 -periodic 0,0,0", &sys),
            0);
  Mat A;
  ASSERT_EQ(MakeOperator(sys, "aij", &A), 0);
  EigenStates all;
  ASSERT_EQ(SolveWith(A, 0.7, "-eps_type lapack -eps_nev 24", &all), 0);
  // an interval around the two levels (Kramers pairs) above the target, reaching half way to their neighbours
  std::vector<double> e = all.values;
  std::sort(e.begin(), e.end());
  const size_t first = (size_t)(std::upper_bound(e.begin(), e.end(), 0.7) - e.begin());
  ASSERT_LT(first + 4, e.size());
  ASSERT_GT(first, 0u);
  const double lo = 0.5 * (e[first - 1] + e[first]), hi = 0.5 * (e[first + 3] + e[first + 4]);
  char options[160];
  std::snprintf(options, sizeof options, "-eps_type krylovschur -st_type filter -eps_interval %.10f,%.10f", lo, hi);
  for (const std::string &kind : {"aij", "baij", "stored_blocks", "shell"}) {
    Mat H;
    ASSERT_EQ(MakeOperator(sys, kind, &H), 0);
    EigenStates st;
    ASSERT_EQ(SolveWith(H, 0.7, options, &st), 0) << kind;
    // Every value is a dense one of the interval, and both levels are there (the filter's Krylov-Schur may return a
    // Kramers pair once: a single-vector Krylov space holds one vector of each eigenspace).
    ASSERT_GE(st.values.size(), 2u) << kind;
    std::vector<bool> level_seen(2, false);
    for (double v : st.values) {
      double nearest = 1e9;
      for (size_t i = first; i < first + 4; ++i) nearest = std::min(nearest, std::fabs(v - e[i]));
      EXPECT_LT(nearest, 1e-8) << kind << ": " << v;
      level_seen[std::fabs(v - e[first]) < std::fabs(v - e[first + 2]) ? 0 : 1] = true;
    }
    EXPECT_TRUE(level_seen[0] && level_seen[1]) << kind;
    EXPECT_GE(st.products, 100) << kind; // a filter of degree 100 applied at least once: its products are H's
    MatDestroy(&H);
  }
  MatDestroy(&A);
  PetscOptionsClear(nullptr);
}

// -compare on an operator: the runs that need only products run; shift-and-invert is skipped with a note.
TEST(BlockHamiltonian, CompareSkipsShiftAndInvertOnTheShell) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(
                PETSC_COMM_WORLD,
                "-params klimeck2000 -material GaAs -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4",
                &sys),
            0);
  Mat S;
  ASSERT_EQ(MakeOperator(sys, "shell", &S), 0);
  double vbm, cbm;
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
  PetscOptionsClear(nullptr);
  PetscOptionsInsertString(nullptr, "-compare_runs lanczos,sinvert");
  CompareOptions co, defaults;
  defaults.gap_center = 0.5 * (vbm + cbm);
  ASSERT_EQ(CompareOptionsFromOptions(PETSC_COMM_WORLD, defaults, &co), 0);
  std::vector<ComparisonRow> rows;
  ASSERT_EQ(CompareSolvers(S, co, &rows), 0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0].converged) << rows[0].note;
  EXPECT_EQ(rows[0].states(), 8);
  EXPECT_TRUE(rows[1].skipped);
  EXPECT_NE(rows[1].note.find("-hamiltonian aij or baij"), std::string::npos) << rows[1].note;
  MatDestroy(&S);
  PetscOptionsClear(nullptr);
}

// The memory preflight's terms, each estimated by its owner from counts before anything is built, against the built
// objects on every rank, open and periodic, strained and not, with a potential on the atoms and without:
// - H's counts from the lattice and partition alone equal those of the built structure (atoms, halo, bonds,
//   passivated atoms and their kinds, entries: every material here stores as many per bond);
// - the structure's bytes equal what its arrays hold, within 1 % and the ranks' offsets (their capacities less the
//   room reserved for the bonds into the halo, which the halo's atoms do not fill);
// - each kind's bytes are within 5 % below and 10 % above those it reports once built, plus the halo buffers (which a
//   matrix's report leaves out) and 8 on-site configurations (the block operators' table, counted at its bound).
TEST(BlockHamiltonian, PreflightEstimatesMatchTheBuiltObjects) {
  TBPETA_ASSERT_RANKS();
  struct Case {
    const char *options;
    bool potential;
  };
  const Case cases[] = {
      {"-params klimeck2000 -material GaAs -cells 3,2,2 -periodic 0,0,0", false},
      {"-params nemo3d -material GaAs -cells 3,3,2 -periodic 1,1,1 -dot_material InAs -dot_radius 0.5", true},
      {"-params nemo3d -material GaAs -cells 3,2,3 -periodic 0,0,1 -dot_material InAs -dot_radius 0.4 -strain keating",
       true},
      {"-params nemo3d -material GaAs -cells 2,3,3 -periodic 1,1,1 -strain keating", false},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.options);
    TightBindingSystem sys;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, c.options, &sys), 0);
    Structure &s = sys.structure;
    const bool strained = sys.model.strained.on;
    if (strained) s.StoreDisplacements(); // as the relaxation leaves them
    if (c.potential) s.potential.assign(s.owned, 0.01);
    const OperatorCounts built = CountOperator(s, sys.model);
    const OperatorCounts counted = CountOperator(sys.lattice, sys.partition, s.rank, sys.model, c.potential);
    EXPECT_EQ(counted.owned, built.owned);
    EXPECT_EQ(counted.halo, built.halo);
    EXPECT_EQ(counted.bonds, built.bonds);
    EXPECT_EQ(counted.dangling_atoms, built.dangling_atoms);
    EXPECT_EQ(counted.dangling_kinds, built.dangling_kinds);
    EXPECT_EQ(counted.entries, built.entries);
    EXPECT_EQ(counted.strained, built.strained);
    EXPECT_EQ(counted.potential, built.potential);
    const double structure = Structure::EstimateBytes(s.owned, s.halo(), strained, c.potential);
    const double reserved = (double)(s.sites.capacity() - s.sites.size()) * sizeof(PlaneIndex) +
                            (double)(s.halo_global.capacity() - s.halo_global.size()) * sizeof(PetscInt);
    EXPECT_NEAR(structure, s.bytes() - reserved, 0.01 * s.bytes() + 64); // + the ranks' offsets
    for (const char *kind : {"aij", "baij", "stored_blocks", "shell", "shell -"}) {
      SCOPED_TRACE(kind);
      const std::string k = kind;
      HamiltonianOptions opts;
      ASSERT_EQ(HamiltonianOptionsOf(k == "shell -" ? "shell" : k, k == "shell -" ? "-shell_block_cache 0" : "", &opts),
                0);
      const double estimate = EstimateHamiltonianBytes(counted, opts);
      Mat H;
      const OperatorProperties *p;
      ASSERT_EQ(CreateHamiltonian(PETSC_COMM_WORLD, s, sys.model, sys.spec.cell.k, opts, &H), 0);
      ASSERT_EQ(OperatorGetProperties(H, &p), 0);
      const double allowance = 3 * counted.halo * counted.rows_per_atom * sizeof(PetscScalar) + 8 * 800.0;
      EXPECT_GE(estimate, 0.95 * p->bytes);
      EXPECT_LE(estimate, 1.1 * p->bytes + allowance);
      MatDestroy(&H);
    }
    PetscOptionsClear(nullptr);
  }
}

namespace {

// The product of the shell of the system with its own options on the hashed vector; `single`: every atom by itself (the
// kernel of two atoms at once switched off).
PetscErrorCode ShellProduct(const TightBindingSystem &sys, const std::string &shell_options, Vec *y,
                            bool single = false) {
  const auto one_by_one = [](Mat H) -> PetscErrorCode {
    block::BlockOperator *op;
    PetscFunctionBeginUser;
    PetscCall(MatShellGetContext(H, &op));
    op->apply_pair = nullptr;
    PetscFunctionReturn(0);
  };
  return tbpeta::test::HashedProduct(sys, "shell", shell_options, y,
                                     single ? std::function<PetscErrorCode(Mat)>(one_by_one) : nullptr);
}

// The tuned kernel's products equal the reference kernel's (the kernel before its tuning) to 1e-13 relative in the
// max norm, with the block cache and without, on the system of `options` in every partition (displaced atoms when
// `displaced`: every bond strained); and two atoms taken at once give the bits of each taken by itself, so that the
// product does not depend on which atoms the partition pairs.
void ExpectTunedKernelEqualsReference(const std::string &options, bool displaced = false) {
  for (const char *partition : {"slab", "column", "cube"}) {
    SCOPED_TRACE(options + " -partition " + partition);
    TightBindingSystem sys;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, options + " -partition " + partition, &sys), 0);
    if (displaced) DisplaceAtoms(&sys.structure);
    for (const char *cache : {"", "-shell_block_cache 0 "}) {
      Vec tuned, reference;
      ASSERT_EQ(ShellProduct(sys, cache, &tuned), 0);
      ASSERT_EQ(ShellProduct(sys, std::string(cache) + "-shell_kernel reference", &reference), 0);
      PetscReal scale, diff;
      VecNorm(reference, NORM_INFINITY, &scale);
      VecAXPY(tuned, -1.0, reference);
      VecNorm(tuned, NORM_INFINITY, &diff);
      EXPECT_GT(scale, 0);
      EXPECT_LE(diff, 1e-13 * scale) << cache;
      VecDestroy(&tuned), VecDestroy(&reference);
    }
    Vec pairs, single;
    ASSERT_EQ(ShellProduct(sys, "", &pairs), 0);
    ASSERT_EQ(ShellProduct(sys, "", &single, true), 0);
    PetscBool same;
    VecEqual(pairs, single, &same);
    EXPECT_TRUE(same);
    VecDestroy(&pairs), VecDestroy(&single);
  }
  PetscOptionsClear(nullptr);
}

} // namespace

TEST(BlockHamiltonian, TunedKernelEqualsTheReference) {
  TBPETA_ASSERT_RANKS();
  // Every shipped set periodic at a general k (Bloch phases), an open passivated dot, an alloy, and strained
  // structures: relaxed-like displacements on a dot and on a periodic crystal at a general k.
  for (const char *set : {"vogl1983", "klimeck2000", "jancu1998", "nemo3d"})
    ExpectTunedKernelEqualsReference(std::string("-params ") + set +
                                     " -material GaAs -cells 2,2,3 -periodic 1,1,1 -k 0.13,0.27,0.41");
  ExpectTunedKernelEqualsReference("-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,0 -dot_material InAs "
                                   "-dot_radius 0.6");
  ExpectTunedKernelEqualsReference("-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,1 -host_alloy AlAs,0.3 "
                                   "-alloy_seed 7");
  ExpectTunedKernelEqualsReference("-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,0 -dot_material InAs "
                                   "-dot_radius 0.5 -strain keating",
                                   true);
  ExpectTunedKernelEqualsReference(
      "-params nemo3d -material InAs -cells 2,2,3 -periodic 1,1,1 -k 0.13,0.27,0.41 -strain keating", true);
}

// The roofline's counts (benchmarks/Roofline.hpp) against a count by hand: a periodic 2 x 2 x 3 GaAs cell of 96 atoms,
// every atom with 4 bonds, in sp3d5s*+SO (10 orbitals, 2 spins) and sp3s* (5, 1). Per bond 4 x 10 x 10 x 2 flops (a
// real entry on a complex x entry for each spin), per atom 2 flops per row (the diagonal); x and y of 16 bytes per row,
// and each halo atom's rows once; the shell's 20 bytes per atom (4 neighbours, the index of its terms), the stored
// blocks' 40 bytes per atom and 800 per bond, the strained shell's own diagonal, displacement, material and side.
TEST(Roofline, CountsTheProductsWorkByHand) {
  TBPETA_ASSERT_RANKS();
  using namespace tbpeta::bench;
  for (const char *set : {"nemo3d", "vogl1983"}) {
    SCOPED_TRACE(set);
    TightBindingSystem sys;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, std::string("-params ") + set + " -material GaAs -cells 2,2,3", &sys),
              0);
    const Structure &s = sys.structure;
    const int norb = sys.model.orbitals(), spins = sys.model.spin_orbit ? 2 : 1, rows = norb * spins;
    const double atoms = 96, bonds = 4 * atoms, halo = SumOverRanks(PETSC_COMM_WORLD, (double)s.halo());
    ASSERT_EQ(s.total(), 96);
    TightBindingModel strained_model = sys.model; // counted as strained: every atom its own diagonal, ...
    strained_model.strained.on = true;
    const auto total = [&](const char *kind, bool strained) {
      HamiltonianOptions opts;
      EXPECT_EQ(HamiltonianOptionsOf(kind, "", &opts), 0);
      const ProductWork w = CountProductWork(s, strained ? strained_model : sys.model, opts, 1000.0);
      return ProductWork{SumOverRanks(PETSC_COMM_WORLD, w.flops), SumOverRanks(PETSC_COMM_WORLD, w.bytes)};
    };
    const double flops = bonds * 4 * norb * norb * spins + atoms * 2 * rows;
    const double vectors = 16.0 * rows * (2 * atoms) + 16.0 * rows * halo;
    EXPECT_EQ(flops, set == std::string("nemo3d") ? 384 * 800 + 96 * 40 : 384 * 100 + 96 * 10);
    const ProductWork shell = total("shell", false);
    const ProductWork blocks = total("stored_blocks", false);
    const ProductWork matrix = total("aij", false);
    const ProductWork strained = total("shell", true);
    for (const ProductWork &w : {shell, blocks, matrix, strained}) EXPECT_EQ(w.flops, flops);
    EXPECT_EQ(shell.bytes, vectors + atoms * 20);
    EXPECT_EQ(blocks.bytes, vectors + atoms * 40 + bonds * norb * norb * 8);
    PetscMPIInt size;
    MPI_Comm_size(PETSC_COMM_WORLD, &size);
    EXPECT_EQ(matrix.bytes, vectors + 1000.0 * size);
    EXPECT_EQ(strained.bytes, shell.bytes + atoms * (8 * norb + 26) + halo * 25);
    // The floors: flops over the peak, bytes over the bandwidth, the larger one the limit.
    const Roofline roof{10.0, 20.0}; // GFlop/s, GB/s
    EXPECT_DOUBLE_EQ(roof.flopFloor(shell), flops / 10e9);
    EXPECT_DOUBLE_EQ(roof.byteFloor(shell), shell.bytes / 20e9);
    EXPECT_DOUBLE_EQ(roof.floor(shell), std::max(flops / 10e9, shell.bytes / 20e9));
    EXPECT_EQ(roof.limit(shell), flops / 10e9 >= shell.bytes / 20e9 ? "flops" : "bytes");
  }
  PetscOptionsClear(nullptr);
}
