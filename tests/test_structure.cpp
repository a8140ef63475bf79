// The distributed structure: every rank holds exactly its owned atoms and its halo, the global numbering agrees
// between owners and neighbours, every bond reaches the lattice's neighbour with its wrap, and partitions are refused
// when they cannot give every rank a plane.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::test::BuildFromOptions;

namespace {

// Brute force over the whole supercell (test only): the atoms of a box and the halo those atoms bond to.
void ExpectedOwnedAndHalo(const Structure &s, std::set<long long> *owned, std::set<long long> *halo) {
  const auto &L = s.lattice;
  for (int x = 0; x < L.planes()[0]; ++x)
    for (int y = 0; y < L.planes()[1]; ++y)
      for (int z = 0; z < L.planes()[2]; ++z) {
        const PlaneIndex p{x, y, z};
        if (!ZincblendeLattice::isSite(p) || !s.box.contains(p)) continue;
        owned->insert(L.canonicalIndex(p));
        for (int b = 0; b < 4; ++b) {
          PlaneIndex q;
          std::array<int, 3> w;
          if (L.neighbour(p, b, &q, &w) && !s.box.contains(q)) halo->insert(L.canonicalIndex(q));
        }
      }
}

void CheckStructure(const std::string &options) {
  SCOPED_TRACE(options);
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
  const Structure &s = sys.structure;
  std::set<long long> owned, halo;
  ExpectedOwnedAndHalo(s, &owned, &halo);
  // Exactly the owned atoms and the halo, nothing else.
  EXPECT_EQ((size_t)s.owned, owned.size());
  EXPECT_EQ((size_t)s.halo(), halo.size());
  EXPECT_EQ(s.sites.size(), owned.size() + halo.size());
  for (PetscInt i = 0; i < (PetscInt)s.sites.size(); ++i) {
    const long long c = s.lattice.canonicalIndex(s.sites[i]);
    EXPECT_EQ(i < s.owned ? owned.count(c) : halo.count(c), 1u);
  }
  PetscInt total = s.owned;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_EQ(total, (PetscInt)s.lattice.totalAtoms());
  EXPECT_EQ(s.total(), total);

  // Owners' numbering: (canonical -> global) of every owned atom, gathered (small test systems only).
  std::vector<long long> mine;
  for (PetscInt i = 0; i < s.owned; ++i)
    mine.push_back(s.lattice.canonicalIndex(s.sites[i])), mine.push_back(s.globalIndex(i));
  int n = (int)mine.size(), size = tbpeta::test::commSize();
  std::vector<int> counts(size), displs(size, 0);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, PETSC_COMM_WORLD);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<long long> all(displs[size - 1] + counts[size - 1]);
  MPI_Allgatherv(mine.data(), n, MPI_LONG_LONG, all.data(), counts.data(), displs.data(), MPI_LONG_LONG,
                 PETSC_COMM_WORLD);
  std::map<long long, long long> global_of;
  std::set<long long> globals;
  for (size_t t = 0; t < all.size(); t += 2) global_of[all[t]] = all[t + 1], globals.insert(all[t + 1]);
  EXPECT_EQ(globals.size(), (size_t)total); // a permutation of 0..N-1
  EXPECT_EQ(*globals.rbegin(), total - 1);
  for (PetscInt h = 0; h < s.halo(); ++h) {
    const long long c = s.lattice.canonicalIndex(s.sites[s.owned + h]);
    EXPECT_EQ(s.halo_global[h], global_of.at(c));
    EXPECT_NE(s.partition.ownerOf(s.sites[s.owned + h]), s.rank); // a halo atom belongs to another rank
  }
  // Bonds: an open face leaves dangling bonds, a periodic one does not; every other bond reaches the lattice's
  // neighbour, across a periodic face with that face's wrap.
  const std::vector<PetscInt> canonical = s.canonicalAtoms();
  ASSERT_EQ(canonical.size(), (size_t)s.owned);
  // The same numbering as runs: each run as long as it can be (no run continues the one before it), and a box that
  // spans y and z one run.
  const CanonicalRuns runs = s.canonicalRuns();
  ASSERT_EQ(runs.start.size(), runs.first.size() + 1);
  EXPECT_EQ(runs.start.back(), s.owned);
  for (size_t r = 1; r < runs.first.size(); ++r)
    EXPECT_NE(runs.first[r], runs.first[r - 1] + (runs.start[r] - runs.start[r - 1]));
  for (PetscInt i = 0; i < s.owned; ++i) EXPECT_EQ(runs.canonical(i), canonical[i]);
  const auto &planes = s.lattice.planes();
  if (s.owned > 0 && s.box.lo[1] == 0 && s.box.hi[1] == planes[1] && s.box.lo[2] == 0 && s.box.hi[2] == planes[2])
    EXPECT_EQ(runs.first.size(), 1u);
  for (PetscInt i = 0; i < s.owned; ++i) {
    EXPECT_EQ(canonical[i], s.lattice.canonicalIndex(s.sites[i]));
    for (int b = 0; b < 4; ++b) {
      const auto v = ZincblendeLattice::bondVector(s.sites[i], b);
      bool leaves = false;
      for (int a = 0; a < 3; ++a) {
        const int c = (a == 0 ? s.sites[i].x : a == 1 ? s.sites[i].y : s.sites[i].z) + v[a];
        leaves = leaves || ((c < 0 || c >= s.lattice.planes()[a]) && !s.lattice.periodic()[a]);
      }
      EXPECT_EQ(s.bonds[i][b] < 0, leaves);
      PlaneIndex q;
      std::array<int, 3> wrap;
      if (!s.lattice.neighbour(s.sites[i], b, &q, &wrap)) continue;
      ASSERT_GE(s.bonds[i][b], 0);
      EXPECT_EQ(s.sites[s.bonds[i][b]], q) << "atom " << i << " bond " << b;
      for (int a = 0; a < 3; ++a)
        EXPECT_EQ(s.wrap(i, b, a), (wrap[a] > 0) - (wrap[a] < 0)) << "atom " << i << " bond " << b;
    }
  }
  // Without a dot or an alloy every atom is of the host (a halo anion's material is never needed).
  ASSERT_EQ(s.material.size(), s.sites.size());
  if (sys.nano.hostOnly())
    for (PetscInt i = 0; i < (PetscInt)s.sites.size(); ++i)
      if (i < s.owned || s.sublattice(i) == Sublattice::cation) EXPECT_EQ(s.material[i], 0);
}

} // namespace

TEST(Structure, EachRankHoldsExactlyItsAtomsAndHalo) {
  TBPETA_ASSERT_RANKS();
  for (const char *part : {"slab", "column", "cube"}) {
    CheckStructure(std::string("-params vogl1983 -cells 2,2,3 -periodic 1,1,1 -partition ") + part);
    CheckStructure(std::string("-params vogl1983 -cells 3,2,2 -periodic 0,0,0 -partition ") + part);
    CheckStructure(std::string("-params vogl1983 -cells 1,2,1 -periodic 1,0,1 -partition ") + part);
    // lines of up to 7 atoms along z: the atoms between a line's ends follow its second atom
    CheckStructure(std::string("-params vogl1983 -cells 2,2,7 -periodic 1,1,1 -partition ") + part);
    CheckStructure(std::string("-params vogl1983 -cells 2,3,6 -periodic 0,1,0 -partition ") + part);
  }
}

// The rank offsets come from every rank's box count (nothing gathered): the closed form must count exactly the sites,
// for boxes of every residue of their corners and extents, empty and one plane thin ones included.
TEST(Structure, BoxCountIsTheNumberOfSites) {
  for (int x0 = 0; x0 < 5; ++x0)
    for (int y0 = 0; y0 < 5; ++y0)
      for (int z0 = 0; z0 < 5; ++z0)
        for (int e : {0, 1, 2, 3, 5, 9}) {
          PlaneBox box;
          box.lo = {x0, y0, z0}, box.hi = {x0 + e, y0 + (e + 1) % 7, z0 + (e + 3) % 8};
          long long sites = 0;
          for (int x = box.lo[0]; x < box.hi[0]; ++x)
            for (int y = box.lo[1]; y < box.hi[1]; ++y)
              for (int z = box.lo[2]; z < box.hi[2]; ++z) sites += ZincblendeLattice::isSite({x, y, z});
          EXPECT_EQ(box.countAtoms(), sites) << "box [" << x0 << "," << box.hi[0] << ") x [" << y0 << "," << box.hi[1]
                                             << ") x [" << z0 << "," << box.hi[2] << ")";
        }
}

TEST(Structure, ExplicitProcessGridAndThinSlabs) {
  TBPETA_ASSERT_RANKS();
  const int size = tbpeta::test::commSize();
  // Slabs as thin as one plane: 4 planes along x on up to 3 ranks.
  CheckStructure("-params vogl1983 -cells 1,2,2 -partition slab");
  CheckStructure("-params vogl1983 -cells 2,2,2 -da_processors_x 1 -da_processors_y 1 -da_processors_z " +
                 std::to_string(size));
}

TEST(Structure, MaterialsDoNotDependOnRanks) {
  TBPETA_ASSERT_RANKS();
  const std::string opts = "-params nemo3d -cells 3,3,3 -periodic 0,0,0 -dot_material InAs -dot_shape sphere "
                           "-dot_radius 0.6 -host_alloy AlAs,0.3 -alloy_seed 7";
  TightBindingSystem par, ser;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, opts, &par), 0);
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_SELF, opts + " -partition cube", &ser), 0);
  std::map<long long, int> serial;
  for (PetscInt i = 0; i < ser.structure.owned; ++i)
    serial[ser.lattice.canonicalIndex(ser.structure.sites[i])] = ser.structure.material[i];
  int in_dot = 0, alloyed = 0;
  for (PetscInt i = 0; i < (PetscInt)par.structure.sites.size(); ++i) {
    if (par.structure.sublattice(i) != Sublattice::cation) continue;
    const int m = par.structure.material[i];
    EXPECT_EQ(m, serial.at(par.lattice.canonicalIndex(par.structure.sites[i])));
    if (i < par.structure.owned) in_dot += m == par.model.indexOf("InAs"), alloyed += m == par.model.indexOf("AlAs");
  }
  MPI_Allreduce(MPI_IN_PLACE, &in_dot, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &alloyed, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_GT(in_dot, 0);
  // 108 host cations minus the dot at x = 0.3: a binomial draw, far from 0 and from all.
  EXPECT_GT(alloyed, 15);
  EXPECT_LT(alloyed, 55);
}

TEST(Structure, BadGridsAndCellsAreRefused) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  auto code = [&](const std::string &o) {
    return tbpeta::test::Quietly([&] { return BuildFromOptions(PETSC_COMM_WORLD, o, &sys); });
  };
  EXPECT_EQ(code("-cells 0,2,2"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-cells 2,2"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-cells -1,2,2"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-k 0.1,0.2"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-periodic 1,2,1"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-periodic 1,1"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-da_processors_x 5"), tbpeta::test::commSize() % 5 ? PETSC_ERR_USER_INPUT : 0);
  EXPECT_EQ(code("-cells 1,1,1 -da_processors_x 1 -da_processors_y 1 -da_processors_z " +
                 std::to_string(tbpeta::test::commSize() * 5)),
            PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-cells 2,2,2 -dot_material InAs -dot_radius 5"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-cells 2,2,2 -dot_material InAs -dot_radius 0.5 -dot_center 0.1,0.5,0.5"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-cells 2,2,2 -dot_material GaN"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-cells 2,2,2 -material Si -dot_material InAs -dot_radius 0.5"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-params foo"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-host_alloy InAs"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-host_alloy InAs,1.5"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-params vogl1983 -tb_spin_orbit 1"), PETSC_ERR_USER_INPUT);
  if (tbpeta::test::commSize() > 1)
    EXPECT_EQ(code("-cells 1,1,1 -partition slab -da_processors_x 9"), PETSC_ERR_USER_INPUT);
  PetscOptionsClear(nullptr);
}
