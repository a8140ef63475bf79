// Many ranks on few cores (8 oversubscribed ranks in ci/checks.sh): partitions with uneven domains and domains one
// atomic plane thick. Every rank holds exactly the atoms and halo the serial halo analysis counts for its domain;
// the block operators give the stored matrix's products; the Lanczos finds the same states as on one rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "system_fixture.hpp"
#include "test_support.hpp"
#include "bulk/CellSpectrum.hpp"
#include "geometry/HaloAnalysis.hpp"
#include "operator/block/BlockHamiltonian.hpp"

using namespace tbpeta;
using tbpeta::test::BuildFromOptions;

namespace {

// Uneven: 12 planes over 8 slabs (1 or 2 each), 28 over 8 (3 or 4); thin: 8 planes over 8 (one each).
const char *kPartitions[] = {
    "-cells 3,2,2 -partition slab",
    "-cells 3,3,3 -partition column",
    "-cells 2,2,2 -partition cube",
    "-cells 2,2,7 -da_processors_x 1 -da_processors_y 1 -da_processors_z 8",
    "-cells 2,3,2 -da_processors_x 2 -da_processors_y 4 -da_processors_z 1",
};

int Ranks() { return tbpeta::test::commSize(); }
} // namespace

TEST(ManyRanks, EveryRankHoldsWhatTheHaloAnalysisCounts) {
  TBPETA_ASSERT_RANKS();
  for (const char *periodic : {"-periodic 0,0,0", "-periodic 1,1,1"})
    for (const char *p : kPartitions) {
      const std::string options = std::string("-params vogl1983 ") + periodic + " " + p;
      SCOPED_TRACE(options);
      TightBindingSystem sys;
      ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
      const HaloCounts counts = CountHalo(sys.lattice, sys.partition);
      const int rank = tbpeta::test::commRank();
      EXPECT_EQ((long long)sys.structure.owned, counts.owned[rank]);
      EXPECT_EQ((long long)sys.structure.halo(), counts.halo[rank]);
      EXPECT_EQ((long long)sys.structure.total(), sys.lattice.totalAtoms());
      if (Ranks() == 8 && std::string(p).find("slab") != std::string::npos)
        EXPECT_LT(counts.ownedMin(), counts.ownedMax()); // uneven
    }
  PetscOptionsClear(nullptr);
}

TEST(ManyRanks, BlockOperatorsGiveTheStoredProducts) {
  TBPETA_ASSERT_RANKS();
  for (const char *p : kPartitions) {
    const std::string options =
        std::string("-params nemo3d -periodic 0,1,0 -k 0,0.1,0 -dot_material InAs -dot_radius 0.5 ") + p;
    SCOPED_TRACE(options);
    TightBindingSystem sys;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
    Mat H;
    ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H), 0);
    Vec x, y, z;
    MatCreateVecs(H, &x, &y);
    VecDuplicate(y, &z);
    PetscRandom rnd;
    PetscRandomCreate(PETSC_COMM_WORLD, &rnd);
    PetscRandomSetFromOptions(rnd);
    VecSetRandom(x, rnd);
    PetscRandomDestroy(&rnd);
    MatMult(H, x, y);
    PetscReal yn;
    VecNorm(y, NORM_INFINITY, &yn);
    for (BlockSource source : {BlockSource::shared, BlockSource::recomputed}) {
      Mat S;
      ASSERT_EQ(
          CreateBlockHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.spec.cell.k, source, &S, nullptr), 0);
      MatMult(S, x, z);
      VecAXPY(z, -1.0, y);
      PetscReal dn;
      VecNorm(z, NORM_INFINITY, &dn);
      EXPECT_LE(dn, 1e-12 * yn) << BlockSourceName(source);
      MatDestroy(&S);
    }
    VecDestroy(&x), VecDestroy(&y), VecDestroy(&z);
    MatDestroy(&H);
  }
  PetscOptionsClear(nullptr);
}

TEST(ManyRanks, LanczosFindsTheStatesOfOneRank) {
  TBPETA_ASSERT_RANKS();
  const std::string dot =
      "-params klimeck2000 -cells 3,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 -vbo_InAs 0.2 ";
  std::vector<double> values[2];
  int i = 0;
  for (MPI_Comm comm : {PETSC_COMM_SELF, PETSC_COMM_WORLD}) {
    TightBindingSystem sys;
    ASSERT_EQ(BuildFromOptions(comm, dot + (comm == PETSC_COMM_WORLD ? "-partition slab" : ""), &sys), 0);
    Mat H;
    ASSERT_EQ(CreateHamiltonian(comm, sys.structure, sys.model, sys.spec.cell.k, HamiltonianOptions{}, &H), 0);
    double vbm, cbm;
    ASSERT_EQ(BulkBandEdges(sys.model, 0, &vbm, &cbm), 0);
    EigenStates st;
    ASSERT_EQ(tbpeta::test::SolveWith(H, 0.5 * (vbm + cbm), "-eps_nemo_vectors false", &st), 0);
    values[i++] = st.values;
    MatDestroy(&H);
  }
  ASSERT_EQ(values[0].size(), 8u);
  ASSERT_EQ(values[1].size(), values[0].size());
  for (size_t k = 0; k < values[0].size(); ++k) EXPECT_NEAR(values[0][k], values[1][k], 1e-8) << k;
  PetscOptionsClear(nullptr);
}
