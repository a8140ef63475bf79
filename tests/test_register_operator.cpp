// A new operator kind is one file plus one registration line (docs/development.md): this file defines a kind that
// stores H as a PETSc MATAIJ assembled entry by entry with MatSetValues from H's blocks (HamiltonianBlocks), with an
// option of its own (-setvalues_drop_tol: entries of modulus up to it are not stored), and registers it with
// RegisterOperatorKind before the options are read. Then -hamiltonian lists it in -help with its option,
// CreateHamiltonian builds it with its properties, its products and states are aij's, the memory preflight estimates it
// through its own estimate, and its option given with another kind is refused in one line.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "application/MemoryPreflight.hpp"
#include "bulk/CellSpectrum.hpp"
#include "operator/HamiltonianBlocks.hpp"
#include "operator/OperatorKind.hpp"
#include "operator/OperatorProperties.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;

namespace {

// ---- the kind: all of it ----

struct SetValuesSettings {
  double drop_tol = 0; // -setvalues_drop_tol (eV)
};

PetscErrorCode SetValuesFromOptions(MPI_Comm comm, KindSettings *settings, std::string *given) {
  SetValuesSettings s;
  PetscReal tol = s.drop_tol;
  PetscBool set = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Operator kind setvalues (-hamiltonian setvalues)", "tbpeta");
  PetscCall(PetscOptionsReal("-setvalues_drop_tol",
                             "-hamiltonian setvalues: entries of H of modulus up to this (eV) are not stored",
                             "test_register", tol, &tol, &set));
  PetscOptionsEnd();
  PetscCheck(std::isfinite(tol) && tol >= 0, comm, PETSC_ERR_USER_INPUT,
             "-setvalues_drop_tol: must be a finite number >= 0, got %g", (double)tol);
  s.drop_tol = tol;
  if (set) *given = "-setvalues_drop_tol";
  *settings = KindSettings(s);
  PetscFunctionReturn(0);
}

// Calls put(row, column, value) for every entry of the owned rows of modulus above tol (global rows and columns).
template <class Put>
void ForEachEntry(const Structure &s, const HamiltonianBlocks &blocks, double tol, Put put) {
  const int bs = blocks.blockSize();
  std::vector<std::complex<double>> blk((size_t)bs * bs);
  const auto block = [&](PetscInt i, PetscInt j) {
    for (int r = 0; r < bs; ++r)
      for (int c = 0; c < bs; ++c)
        if (std::abs(blk[(size_t)r * bs + c]) > tol)
          put(s.globalIndex(i) * bs + r, s.globalIndex(j) * bs + c, blk[(size_t)r * bs + c]);
  };
  for (PetscInt i = 0; i < s.owned; ++i) {
    blocks.onsite(i, blk.data());
    block(i, i);
    for (int b = 0; b < 4; ++b)
      if (s.bonds[i][b] >= 0) blocks.bond(i, b, blk.data()), block(i, s.bonds[i][b]);
  }
}

PetscErrorCode CreateSetValues(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                               std::array<double, 3> k, const HamiltonianOptions &opts, Mat *H, double *bytes) {
  const double tol = SettingsOf<SetValuesSettings>(opts).drop_tol;
  const HamiltonianBlocks blocks(s, model, k);
  const PetscInt m = s.owned * blocks.blockSize(), first = s.globalOffset() * blocks.blockSize();
  std::vector<PetscInt> dnnz(m, 0), onnz(m, 0);
  PetscFunctionBeginUser;
  ForEachEntry(s, blocks, tol, [&](PetscInt row, PetscInt col, std::complex<double>) {
    ++(col >= first && col < first + m ? dnnz : onnz)[row - first];
  });
  PetscCall(MatCreateAIJ(comm, m, m, PETSC_DETERMINE, PETSC_DETERMINE, 0, dnnz.data(), 0, onnz.data(), H));
  PetscErrorCode ierr = 0;
  ForEachEntry(s, blocks, tol, [&](PetscInt row, PetscInt col, std::complex<double> v) {
    if (!ierr) ierr = MatSetValue(*H, row, col, v, ADD_VALUES); // bonds to one atom's own images add up
  });
  PetscCall(ierr);
  PetscCall(MatAssemblyBegin(*H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(*H, MAT_HERMITIAN, PETSC_TRUE)); // |h_ij| = |h_ji|: a dropped entry's partner is dropped too
  *bytes = 0;                                             // a PETSc matrix: MatGetInfo counts it
  PetscFunctionReturn(0);
}

// Its entries and column indices (at most the entries the counts allow), the row pointers, the halo vector and buffer.
double SetValuesBytes(const OperatorCounts &c, const HamiltonianOptions &) {
  const double rows = c.owned * c.rows_per_atom;
  return c.entries * (sizeof(PetscScalar) + sizeof(PetscInt)) + 2 * (rows + 1) * sizeof(PetscInt) +
         2 * c.halo * c.rows_per_atom * sizeof(PetscScalar);
}

std::string DescribeSetValues(const HamiltonianOptions &opts) {
  char text[64];
  std::snprintf(text, sizeof text, "setvalues (aij, |h| > %g eV)", SettingsOf<SetValuesSettings>(opts).drop_tol);
  return text;
}

// ---- the registration: one line ----
PetscErrorCode RegisterSetValues() {
  return RegisterOperatorKind(
      {"setvalues", true, DescribeSetValues, CreateSetValues, SetValuesBytes, SetValuesFromOptions});
}

// ---- the checks ----

using tbpeta::test::kTinyBox;

// What -help lists while the Hamiltonian options are read (every rank captures it).
std::string HamiltonianHelp() {
  HamiltonianOptions opts;
  PetscOptionsClear(nullptr);
  PetscOptionsSetValue(nullptr, "-help", nullptr);
  const std::string help =
      tbpeta::test::CapturePrinted([&] { return HamiltonianOptionsFromOptions(PETSC_COMM_WORLD, &opts); });
  PetscOptionsClear(nullptr);
  return help;
}

// The line of -help that lists `option` ("  -name <default>: ..." or "  -name: <default> ...").
std::string HelpLine(const std::string &help, const std::string &option) {
  for (const char *after : {" ", ":"}) {
    const size_t at = help.find("  " + option + after);
    if (at != std::string::npos) return help.substr(at, help.find('\n', at) - at);
  }
  return "";
}

PetscErrorCode ReadOptions(const char *options, HamiltonianOptions *opts, std::string *message) {
  PetscOptionsClear(nullptr);
  PetscOptionsInsertString(nullptr, options);
  const PetscErrorCode ierr =
      tbpeta::test::FirstMessage([&] { return HamiltonianOptionsFromOptions(PETSC_COMM_WORLD, opts); }, message);
  PetscOptionsClear(nullptr);
  return ierr;
}

} // namespace

TEST(RegisterOperator, AKindFromThisFileIsListedBuiltEstimatedAndSolvedLikeAny) {
  TBPETA_ASSERT_RANKS();
  ASSERT_EQ(RegisterSetValues(), 0);

  // -help lists it among the kinds, with its own option and default.
  const std::string help = HamiltonianHelp();
  EXPECT_NE(HelpLine(help, "-hamiltonian").find("setvalues"), std::string::npos) << help;
  EXPECT_NE(HelpLine(help, "-setvalues_drop_tol").find("-setvalues_drop_tol <0 : 0>"), std::string::npos) << help;
  EXPECT_NE(HelpLine(help, "-shell_block_cache"), ""); // every kind's options

  // Chosen with -hamiltonian, its option read and checked; its option with another kind is one line naming both.
  HamiltonianOptions opts;
  std::string message;
  ASSERT_EQ(ReadOptions("-hamiltonian setvalues -setvalues_drop_tol 0.05", &opts, &message), 0) << message;
  EXPECT_EQ(opts.kind, "setvalues");
  EXPECT_EQ(SettingsOf<SetValuesSettings>(opts).drop_tol, 0.05);
  EXPECT_EQ(ReadOptions("-hamiltonian aij -setvalues_drop_tol 0.05", &opts, &message), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(message, "-setvalues_drop_tol applies to -hamiltonian setvalues only (here -hamiltonian aij)");
  EXPECT_EQ(ReadOptions("-hamiltonian setvalues -shell_block_cache 0", &opts, &message), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(message, "-shell_block_cache applies to -hamiltonian shell only (here -hamiltonian setvalues)");
  EXPECT_EQ(ReadOptions("-hamiltonian setvalues -setvalues_drop_tol -1", &opts, &message), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(message, "-setvalues_drop_tol: must be a finite number >= 0, got -1.");

  for (const char *system : {kTinyBox, "-params klimeck2000 -cells 2,2,1 -periodic 1,1,0 -k 0.1,0.2,0"}) {
    SCOPED_TRACE(system);
    TightBindingSystem sys;
    ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, system, &sys), 0);
    // Built with its properties; its products are aij's.
    HamiltonianOptions mine, aij;
    ASSERT_EQ(HamiltonianOptionsOf("setvalues", "", &mine), 0);
    Mat A, M;
    ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &A), 0);
    ASSERT_EQ(CreateHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.spec.cell.k, mine, &M), 0);
    const OperatorProperties *pa, *pm;
    ASSERT_EQ(OperatorGetProperties(A, &pa), 0);
    ASSERT_EQ(OperatorGetProperties(M, &pm), 0);
    EXPECT_EQ(pm->kind, "setvalues");
    EXPECT_EQ(pm->description, "setvalues (aij, |h| > 0 eV)");
    EXPECT_TRUE(pm->has_entries);
    EXPECT_EQ(pm->rows, pa->rows);
    EXPECT_EQ(pm->rows_per_atom, pa->rows_per_atom);
    EXPECT_EQ(pm->kramers_block, pa->kramers_block);
    EXPECT_EQ(pm->nonzeros, pa->nonzeros); // the same exact zeros left out
    Vec x, ya, ym;
    ASSERT_EQ(tbpeta::test::HashedVector(A, &x), 0);
    VecDuplicate(x, &ya), VecDuplicate(x, &ym);
    MatMult(A, x, ya), MatMult(M, x, ym);
    PetscReal norm, diff;
    VecNorm(ya, NORM_INFINITY, &norm);
    VecAXPY(ym, -1.0, ya);
    VecNorm(ym, NORM_INFINITY, &diff);
    EXPECT_LE(diff, 1e-13 * norm);
    PetscInt count;
    ASSERT_EQ(OperatorProductCount(M, &count), 0);
    EXPECT_GE(count, 1); // its products are counted as every kind's
    // The memory preflight estimates it through its own estimate, from counts, within 15 % of what it holds.
    MemoryEstimate est;
    ASSERT_EQ(EstimateRunMemory(PETSC_COMM_WORLD, sys, &mine, 4, &est), 0);
    const double own =
        EstimateHamiltonianBytes(CountOperator(sys.lattice, sys.partition, sys.structure.rank, sys.model, false), mine);
    double largest = own;
    MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
    EXPECT_EQ(est.bytesOf("H setvalues"), largest);
    EXPECT_GE(own, 0.95 * pm->bytes);
    EXPECT_LE(own, 1.15 * pm->bytes + 2 * sys.structure.halo() * pm->rows_per_atom * sizeof(PetscScalar) + 64);
    // Its option reaches it: entries up to 0.05 eV are left out.
    HamiltonianOptions dropping;
    Mat D;
    const OperatorProperties *pd;
    ASSERT_EQ(HamiltonianOptionsOf("setvalues", "-setvalues_drop_tol 0.05", &dropping), 0);
    ASSERT_EQ(CreateHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.spec.cell.k, dropping, &D), 0);
    ASSERT_EQ(OperatorGetProperties(D, &pd), 0);
    EXPECT_LT(pd->nonzeros, pm->nonzeros);
    EXPECT_EQ(pd->description, "setvalues (aij, |h| > 0.05 eV)");
    MatDestroy(&D);
    // A solve on it gives aij's states (one solve, on the box).
    if (system == kTinyBox) {
      double vbm, cbm;
      ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
      EigenStates on_aij, on_mine;
      ASSERT_EQ(tbpeta::test::SolveWith(A, 0.5 * (vbm + cbm), "-eps_nev 4", &on_aij), 0);
      ASSERT_EQ(tbpeta::test::SolveWith(M, 0.5 * (vbm + cbm), "-eps_nev 4", &on_mine), 0);
      ASSERT_EQ(on_mine.values.size(), on_aij.values.size());
      ASSERT_GE(on_mine.values.size(), 4u);
      for (size_t i = 0; i < on_aij.values.size(); ++i) EXPECT_NEAR(on_mine.values[i], on_aij.values[i], 1e-9) << i;
    }
    VecDestroy(&x), VecDestroy(&ya), VecDestroy(&ym);
    MatDestroy(&A), MatDestroy(&M);
    PetscOptionsClear(nullptr);
  }
}
