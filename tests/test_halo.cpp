// The halo analysis (tbpeta-halo) against what the ranks really hold: each rank's owned and halo atoms from the
// distributed structure, and the ghost columns PETSc's assembled MatMPIAIJ (and MatMPIBAIJ) scatter in a product,
// divided by the rows per atom, on 1, 2 and 3 ranks, for every decomposition, open and periodic.
#include <gtest/gtest.h>

#include <petscmat.h>

#include <string>

#include "system_fixture.hpp"
#include "test_support.hpp"
#include "geometry/HaloAnalysis.hpp"
#include "study/ScalingModel.hpp"
#include "operator/Hamiltonian.hpp"

using namespace tbpeta;

namespace {

// Columns of the off-process part of H on this rank (the entries its product scatters in).
PetscInt GhostColumns(Mat H, bool blocked) {
  Mat Ad, Ao;
  const PetscInt *colmap;
  PetscInt rows, cols;
  if (blocked) MatMPIBAIJGetSeqBAIJ(H, &Ad, &Ao, &colmap);
  else MatMPIAIJGetSeqAIJ(H, &Ad, &Ao, &colmap);
  MatGetSize(Ao, &rows, &cols);
  return cols;
}

} // namespace

TEST(Halo, CountsAgreeWithTheRanksAndWithPetscsScatter) {
  TBPETA_ASSERT_RANKS();
  int size, rank;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  for (const char *partition : {"slab", "column", "cube"})
    for (const char *cell :
         {"-cells 3,3,3 -periodic 0,0,0", "-cells 3,2,3 -periodic 1,1,1", "-cells 4,3,3 -periodic 1,0,0"}) {
      const std::string options =
          std::string("-params klimeck2000 -material GaAs ") + cell + " -partition " + partition;
      SCOPED_TRACE(options);
      TightBindingSystem sys;
      ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
      // The serial count for the grid tbpeta chose.
      const std::array<int, 3> grid = AnalysisGrid(sys.spec.partition.kind, size, sys.lattice.planes());
      EXPECT_EQ(grid, sys.partition.grid());
      const HaloCounts h = CountHalo(sys.lattice, sys.partition);
      EXPECT_EQ(h.owned[rank], sys.structure.owned);
      EXPECT_EQ(h.halo[rank], sys.structure.halo());
      long long total = 0;
      for (long long o : h.owned) total += o;
      EXPECT_EQ(total, sys.lattice.totalAtoms());
      // PETSc's scatter of the assembled matrices.
      const int bs = sys.model.blockSize();
      for (const std::string &kind : {"aij", "baij"}) {
        Mat H;
        HamiltonianOptions opts;
        opts.kind = kind;
        ASSERT_EQ(CreateHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.spec.cell.k, opts, &H), 0);
        if (size > 1) {
          const PetscInt ghosts = GhostColumns(H, kind == "baij");
          EXPECT_EQ(ghosts, h.halo[rank] * bs) << kind; // every orbital of every halo atom
        }
        MatDestroy(&H);
      }
    }
  PetscOptionsClear(nullptr);
}

// P beyond the planes of an axis: reported with its empty domains; every atom owned once.
TEST(Halo, BeyondThePlanesGivesEmptyDomains) {
  TBPETA_ASSERT_RANKS();
  const ZincblendeLattice lattice({2, 2, 2}, {false, false, false});
  const std::array<int, 3> planes = lattice.planes();
  const std::array<int, 3> slab = AnalysisGrid(PartitionKind::slab, 12, planes);
  EXPECT_EQ(slab, (std::array<int, 3>{12, 1, 1}));
  const HaloCounts h = CountHalo(lattice, PlanePartition(planes, slab));
  EXPECT_EQ(h.emptyDomains(), 4); // 8 planes for 12 domains
  EXPECT_EQ(h.ownedMin(), 0);
  long long total = 0;
  for (long long o : h.owned) total += o;
  EXPECT_EQ(total, 64);
  const std::array<int, 3> cube =
      AnalysisGrid(PartitionKind::cube, 27 * 27, planes); // 27 x 27 x 1 would beat nothing: 9 x 9 x 9
  EXPECT_EQ(cube, (std::array<int, 3>{9, 9, 9}));
  // A slab's halo is at most the two neighbouring planes: 1 plane of 8 atoms from each side.
  const HaloCounts two = CountHalo(lattice, PlanePartition(planes, AnalysisGrid(PartitionKind::slab, 2, planes)));
  EXPECT_EQ(two.owned[0], 32);
  for (long long halo : two.halo) { // an edge atom without a bond across the cut is no halo atom
    EXPECT_GT(halo, 4);
    EXPECT_LE(halo, 8);
  }
}

// One domain counted from its box alone (for weak scaling to huge structures) is the same as the full count.
TEST(Halo, OneDomainFromItsBoxMatchesTheFullCount) {
  TBPETA_ASSERT_RANKS();
  for (const std::array<bool, 3> periodic :
       {std::array<bool, 3>{false, false, false}, std::array<bool, 3>{true, true, true},
        std::array<bool, 3>{true, false, false}}) {
    const ZincblendeLattice lattice({3, 4, 2}, periodic);
    for (PartitionKind kind : {PartitionKind::slab, PartitionKind::column, PartitionKind::cube})
      for (int P : {1, 2, 4, 6, 12}) {
        const PlanePartition part(lattice.planes(), AnalysisGrid(kind, P, lattice.planes()));
        const HaloCounts all = CountHalo(lattice, part);
        for (int d = 0; d < part.size(); ++d) {
          const DomainHalo one = CountDomainHalo(lattice, part, d);
          EXPECT_EQ(one.owned, all.owned[d]) << P << " " << d;
          EXPECT_EQ(one.halo, all.halo[d]) << P << " " << d;
        }
      }
  }
}

// The model: its three terms, and the bandwidth it says an efficiency needs gives that efficiency back.
TEST(ScalingModelTest, TermsAndTheBandwidthForAnEfficiency) {
  TBPETA_ASSERT_RANKS();
  MachineSetting m;
  ASSERT_TRUE(MachinePreset("2001", &m));
  EXPECT_DOUBLE_EQ(m.t_atom, 20e-6);
  EXPECT_DOUBLE_EQ(m.bandwidth, 12.5e6);
  EXPECT_FALSE(MachinePreset("1990", &m));
  ASSERT_TRUE(MachinePreset("today", &m));
  const ModelPoint t = ModelProduct(m, 8, PartitionKind::cube, 1000, 100, 20);
  EXPECT_DOUBLE_EQ(t.compute, 1000 * 0.5e-6);
  EXPECT_DOUBLE_EQ(t.latency, 26 * 2e-6);
  EXPECT_DOUBLE_EQ(t.transfer, 100 * 20 * 16 / 12.5e9);
  EXPECT_DOUBLE_EQ(ModelProduct(m, 1, PartitionKind::cube, 8000, 0, 20).time(),
                   8000 * 0.5e-6); // one domain: no messages
  const double b = BandwidthForEfficiency(m, 8000, 8, PartitionKind::slab, 1000, 400, 20, 0.7);
  ASSERT_GT(b, 0);
  MachineSetting at = m;
  at.bandwidth = b;
  EXPECT_NEAR(8000 * m.t_atom / (8 * ModelProduct(at, 8, PartitionKind::slab, 1000, 400, 20).time()), 0.7, 1e-12);
  EXPECT_LT(BandwidthForEfficiency(m, 8000, 8, PartitionKind::slab, 2000, 400, 20, 0.7),
            0); // imbalance alone exceeds it
}
