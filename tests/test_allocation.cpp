// The allocation tracker behind the comparison's and the benchmarks' "vectors held": opt-in (off until started, off
// again after), it counts PetscMalloc/PetscRealloc/PetscFree exactly, k vectors of the matrix size count as k, and a
// SLEPc Krylov-Schur run with -eps_ncv 20 holds about its basis of 20 (+1) vectors and not much more.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "system_fixture.hpp"
#include "study/AllocationTracker.hpp"
#include "study/SolveMemory.hpp"
#include "test_support.hpp"

using namespace tbpeta;

// Tracking on for one test, off again after it (also when an assertion returns early).
struct Tracking {
  Tracking() { EXPECT_EQ(StartAllocationTracking(), 0); }
  ~Tracking() { EXPECT_EQ(StopAllocationTracking(), 0); }
};

TEST(Allocation, TrackingIsOptIn) {
  TBPETA_ASSERT_RANKS();
  EXPECT_FALSE(AllocationTrackerActive()); // the programs' own runs do not pay for it
  char *p = nullptr;
  {
    Tracking on;
    ASSERT_TRUE(AllocationTrackerActive());
    ASSERT_EQ(PetscMalloc1(64, &p), 0); // allocated while tracking, freed after it stopped
  }
  EXPECT_FALSE(AllocationTrackerActive());
  EXPECT_EQ(PetscFree(p), 0);
  char *q = nullptr;
  ASSERT_EQ(PetscMalloc1(64, &q), 0); // allocated before tracking, freed while it is on: passed on uncounted
  Tracking on;
  const size_t before = AllocationCurrentBytes();
  EXPECT_EQ(PetscFree(q), 0);
  EXPECT_EQ(AllocationCurrentBytes(), before);
}

TEST(Allocation, CountsExactly) {
  TBPETA_ASSERT_RANKS();
  Tracking on;
  ResetAllocationPeak();
  const size_t before = AllocationCurrentBytes();
  EXPECT_EQ(AllocationPeakBytesSinceReset(), before);
  char *p = nullptr;
  ASSERT_EQ(PetscMalloc1(1024, &p), 0);
  EXPECT_EQ(AllocationCurrentBytes(), before + 1024);
  EXPECT_EQ((size_t)p % PETSC_MEMALIGN, 0u); // the header keeps PETSc's alignment
  for (int i = 0; i < 1024; ++i) p[i] = (char)i;
  ASSERT_EQ(PetscRealloc(5000, &p), 0); // grows: the data moves with the header
  EXPECT_EQ((size_t)p % PETSC_MEMALIGN, 0u);
  bool kept = true;
  for (int i = 0; i < 1024; ++i) kept = kept && p[i] == (char)i;
  EXPECT_TRUE(kept);
  EXPECT_EQ(AllocationCurrentBytes(), before + 5000);
  ASSERT_EQ(PetscRealloc(200, &p), 0); // shrinks
  EXPECT_EQ(AllocationCurrentBytes(), before + 200);
  EXPECT_EQ(AllocationPeakBytesSinceReset(), before + 5000);
  ASSERT_EQ(PetscFree(p), 0);
  EXPECT_EQ(AllocationCurrentBytes(), before);
  void *none = nullptr;
  ASSERT_EQ(PetscMalloc(0, &none), 0); // as PETSc's own routine: nothing for 0 bytes
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(PetscFree(none), 0);
  EXPECT_EQ(AllocationCurrentBytes(), before);
}

TEST(Allocation, KVectorsOfTheMatrixSizeCountAsK) {
  TBPETA_ASSERT_RANKS();
  const PetscInt rows = 20000; // per rank: the few hundred bytes of each Vec object are a small fraction
  Tracking on;
  Mat A;
  ASSERT_EQ(MatCreateShell(PETSC_COMM_WORLD, rows, rows, PETSC_DETERMINE, PETSC_DETERMINE, nullptr, &A), 0);
  for (PetscInt k : {0, 1, 3, 8}) {
    ResetAllocationPeak();
    const size_t baseline = AllocationCurrentBytes();
    std::vector<Vec> v(k);
    for (Vec &x : v) ASSERT_EQ(MatCreateVecs(A, &x, nullptr), 0);
    for (Vec &x : v) VecDestroy(&x);
    PetscInt held = -1;
    double fraction = -1;
    ASSERT_EQ(VectorsHeld(A, baseline, &held, &fraction), 0);
    EXPECT_EQ(held, k) << fraction;
    EXPECT_GE(fraction, (double)k);
    if (tbpeta::test::commRank() == 0)
      std::printf("  %d Vecs of %d local rows: %.4f vectors held\n", (int)k, (int)rows, fraction);
  }
  // The peak, not what is left: the vectors above were all freed.
  PetscInt held = -1;
  ASSERT_EQ(VectorsHeld(A, AllocationCurrentBytes(), &held), 0);
  EXPECT_EQ(held, 8);
  MatDestroy(&A);
}

TEST(Allocation, KrylovSchurWithNcv20HoldsAboutItsBasis) {
  TBPETA_ASSERT_RANKS();
  // A passivated GaAs box, 10,240 rows: large enough that the replicated small dense matrices of SLEPc (a few
  // 10 kB per rank) stay below a vector or two on 3 ranks.
  Tracking on;
  TightBindingSystem sys;
  Mat H;
  ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD,
                                           "-params nemo3d -material GaAs -cells 4,4,4 -periodic 0,0,0", &sys),
            0);
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H), 0);
  // Extremal states converge in a few restarts; the basis is what is measured.
  EigenStates st;
  MemoryMeter meter;
  ASSERT_EQ(
      tbpeta::test::SolveWith(H, 0.0, "-eps_type krylovschur -eps_ncv 20 -eps_nev 4 -eps_smallest_real", &st, &meter),
      0);
  EXPECT_GE(st.values.size(), 4u) << st.solver;
  EXPECT_GE(st.vectors_held, 20);
  EXPECT_LE(st.vectors_held, 30);
  if (tbpeta::test::commRank() == 0)
    std::printf("  %s, ncv 20: %d vectors held, %d iterations, %d products\n", st.solver.c_str(), (int)st.vectors_held,
                (int)st.iterations, (int)st.products);
  PetscOptionsClear(nullptr);
  MatDestroy(&H);
}
