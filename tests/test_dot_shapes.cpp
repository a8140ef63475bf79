// Real dots: every shape takes exactly the cations its inclusion rule names (counted here by brute force over the
// ideal lattice, with the rule written out again), close to its analytic volume; symmetric shapes map onto
// themselves; graded and interdiffused compositions draw what their fields say, the same species on any ranks; stacks
// and structure files describe the same atoms as the options; bad shapes are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include "geometry/StructureFile.hpp"
#include "strain/StrainTensor.hpp"
#include "strain/SystemRelaxation.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::test::BuildFromOptions;

namespace {

constexpr double kTol = 1e-9; // the inclusion rule's tolerance (nm)

// A cation of the supercell, relative to the dot's anchor (nm).
using Rule = std::function<bool(double x, double y, double z)>;

struct Case {
  std::string options; // the shape and sizes (the dot is InAs, pure)
  std::array<double, 3> anchor;
  Rule inside;
  double volume; // nm^3, analytic
};

// Brute force: every cation site of the lattice whose ideal position, relative to the anchor, the rule accepts.
std::set<long long> ExpectedCations(const ZincblendeLattice &L, double a, const std::array<double, 3> &c,
                                    const Rule &inside) {
  std::set<long long> out;
  for (int x = 1; x < L.planes()[0]; x += 2)
    for (int y = 1; y < L.planes()[1]; y += 2)
      for (int z = 1; z < L.planes()[2]; z += 2) {
        const PlaneIndex p{x, y, z};
        if (!ZincblendeLattice::isSite(p)) continue;
        if (inside(x * a / 4 - c[0], y * a / 4 - c[1], z * a / 4 - c[2])) out.insert(L.canonicalIndex(p));
      }
  return out;
}

double U(double x, double y) { return (x + y) / std::sqrt(2.0); } // along [110]
double V(double x, double y) { return (x - y) / std::sqrt(2.0); } // along [1-10]

// A spherical cap of base radius r and height h, stretched to base radii ru along [110] and rv along [1-10].
Rule Lens(double ru, double rv, double h) {
  return [=](double x, double y, double z) {
    const double r = std::min(ru, rv), R = (r * r + h * h) / (2 * h), u = U(x, y) * r / ru, v = V(x, y) * r / rv;
    return z >= -kTol && z <= h + kTol && u * u + v * v + std::pow(z - (h - R), 2) <= R * R + kTol;
  };
}
Rule Pyramid(double b, double h) {
  return [=](double x, double y, double z) {
    return z >= -kTol && z <= h + kTol && std::max(std::fabs(x), std::fabs(y)) <= b / 2 - z + kTol;
  };
}
Rule Cone(double rb, double rt, double h) {
  return [=](double x, double y, double z) {
    const double r = rb - (rb - rt) * z / h;
    return z >= -kTol && z <= h + kTol && x * x + y * y <= r * r + kTol;
  };
}
Rule HalfEllipsoid(double ru, double rv, double h) {
  return [=](double x, double y, double z) {
    return z >= -kTol && std::pow(U(x, y) / ru, 2) + std::pow(V(x, y) / rv, 2) + std::pow(z / h, 2) <= 1 + kTol;
  };
}

const std::string kCell = "-params vogl1983 -cells 32,32,16 -periodic 1,1,0 -dot_material InAs ";

// The anchor: the base centre near the supercell's centre, given as the options give it.
std::array<double, 3> Anchor(double) { return {9.04512, 9.04512, 0.84798}; }

std::vector<Case> Cases() {
  const double z0 = 0.84798, pi = M_PI; // the base plane (nm)
  const auto at = [&](const std::string &o) { return o + " -dot_center 9.04512,9.04512,0.84798"; };
  std::vector<Case> c;
  c.push_back({at("-dot_shape lens -dot_diameter 14 -dot_height 3.5"), Anchor(z0), Lens(7, 7, 3.5),
               pi * 3.5 * (3 * 49 + 3.5 * 3.5) / 6});
  c.push_back({at("-dot_shape lens -dot_diameter 6 -dot_height 1.1"), Anchor(z0), Lens(3, 3, 1.1), 0});
  c.push_back({at("-dot_shape lens -dot_diameter 12,15 -dot_height 3"), Anchor(z0), Lens(6, 7.5, 3),
               pi * 3 * (3 * 36 + 9) / 6 * 15 / 12});
  // A facet that lies on a (101) plane of cations takes or leaves that whole plane (+-6 % at this size): the full
  // pyramid's facets lie between two planes (b/2 = 22.5 a/2), as the other shapes' surfaces do on average.
  c.push_back({at("-dot_shape pyramid -dot_base 12.7197 -dot_height 6.35985"), Anchor(z0), Pyramid(12.7197, 6.35985),
               12.7197 * 12.7197 * 6.35985 / 3});
  c.push_back({at("-dot_shape pyramid -dot_base 14 -dot_height 3"), Anchor(z0), Pyramid(14, 3),
               3 * (14 * 14 + 14 * 8 + 8 * 8) / 3.0});
  c.push_back({at("-dot_shape pyramid -dot_base 5 -dot_height 1.7"), Anchor(z0), Pyramid(5, 1.7), 0});
  c.push_back({at("-dot_shape cone -dot_diameter 16 -dot_height 4"), Anchor(z0), Cone(8, 0, 4), pi * 4 * 64 / 3});
  c.push_back({at("-dot_shape cone -dot_diameter 14 -dot_height 3 -dot_top_diameter 6"), Anchor(z0), Cone(7, 3, 3),
               pi * 3 * (49 + 21 + 9) / 3});
  c.push_back({at("-dot_shape cylinder -dot_diameter 12 -dot_height 2.5"), Anchor(z0), Cone(6, 6, 2.5), pi * 36 * 2.5});
  c.push_back({at("-dot_shape ellipsoid -dot_diameter 12,15 -dot_height 3"), Anchor(z0), HalfEllipsoid(6, 7.5, 3),
               2 * pi * 6 * 7.5 * 3 / 3});
  c.push_back({at("-dot_shape dome -dot_radius 5"), Anchor(z0), HalfEllipsoid(5, 5, 5), 2 * pi * 125 / 3});
  // Second, smaller sizes (the rule alone: too few cations for the volume).
  c.push_back({at("-dot_shape cone -dot_diameter 5 -dot_height 2.2"), Anchor(z0), Cone(2.5, 0, 2.2), 0});
  c.push_back({at("-dot_shape cylinder -dot_diameter 4.3 -dot_height 1.3"), Anchor(z0), Cone(2.15, 2.15, 1.3), 0});
  c.push_back(
      {at("-dot_shape ellipsoid -dot_diameter 5,3.5 -dot_height 1.6"), Anchor(z0), HalfEllipsoid(2.5, 1.75, 1.6), 0});
  c.push_back({at("-dot_shape dome -dot_radius 1.9"), Anchor(z0), HalfEllipsoid(1.9, 1.9, 1.9), 0});
  // The centred shapes, a sphere and a box, centred mid-height.
  const std::string mid = " -dot_center 9.04512,9.04512,4.52256";
  const std::array<double, 3> centre{9.04512, 9.04512, 4.52256};
  c.push_back({"-dot_shape sphere -dot_radius 4.2" + mid, centre,
               [](double x, double y, double z) { return x * x + y * y + z * z <= 4.2 * 4.2 + kTol; },
               4 * pi * std::pow(4.2, 3) / 3});
  c.push_back({"-dot_shape sphere -dot_radius 1.3" + mid, centre,
               [](double x, double y, double z) { return x * x + y * y + z * z <= 1.3 * 1.3 + kTol; }, 0});
  // A box's faces are crystal planes: each lies midway between two cation planes (half-extents 42, 36 and 10 a/4),
  // as the pyramid's facets do; a face on a cation plane takes or leaves that plane.
  c.push_back({"-dot_shape box -dot_size 11.87172,10.17576,2.8266" + mid, centre,
               [](double x, double y, double z) {
                 return std::fabs(x) <= 5.93586 + kTol && std::fabs(y) <= 5.08788 + kTol &&
                        std::fabs(z) <= 1.4133 + kTol;
               },
               11.87172 * 10.17576 * 2.8266});
  c.push_back({"-dot_shape box -dot_size 2,3.3,1.1" + mid, centre,
               [](double x, double y, double z) {
                 return std::fabs(x) <= 1 + kTol && std::fabs(y) <= 1.65 + kTol && std::fabs(z) <= 0.55 + kTol;
               },
               0});
  return c;
}

} // namespace

TEST(DotShapes, CationsFollowTheInclusionRuleAndTheVolume) {
  TBPETA_ASSERT_RANKS();
  for (const Case &c : Cases()) {
    SCOPED_TRACE(c.options);
    TightBindingSystem sys;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, kCell + c.options, &sys), 0);
    const std::set<long long> got = tbpeta::test::CationsOf(sys, sys.model.indexOf("InAs"));
    const std::set<long long> expected = ExpectedCations(sys.lattice, sys.a_nm, c.anchor, c.inside);
    ASSERT_GT(expected.size(), 100u);
    EXPECT_EQ(got.size(), expected.size());
    EXPECT_TRUE(got == expected);
    ASSERT_EQ(sys.nano.regions().size(), 1u);
    if (c.volume > 0) {
      EXPECT_NEAR(sys.nano.regions()[0].shape.volume(), c.volume, 1e-9 * c.volume);
      const double cations = c.volume * 4 / std::pow(sys.a_nm, 3);
      ASSERT_GT(cations, 5000);
      EXPECT_NEAR(got.size() / cations, 1.0, 0.03) << got.size() << " cations, volume x density " << cations;
    }
  }
}

// A lens or pyramid centred on an anion column maps onto itself under x <-> y (so do the elongated lens and the
// ellipsoid, whose axes are [110] and [1-10]).
TEST(DotShapes, SymmetricShapesMapOntoThemselves) {
  TBPETA_ASSERT_RANKS();
  for (const std::string shape :
       {"lens -dot_diameter 9 -dot_height 2.5", "pyramid -dot_base 9 -dot_height 3",
        "lens -dot_diameter 8,10 -dot_height 2", "ellipsoid -dot_diameter 10,7 -dot_height 2"}) {
    SCOPED_TRACE(shape);
    TightBindingSystem sys;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD,
                               "-params vogl1983 -cells 20,20,10 -periodic 1,1,0 -dot_material InAs "
                               "-dot_center 5.6532,5.6532,1 -dot_shape " +
                                   shape,
                               &sys),
              0);
    const std::set<long long> dot = tbpeta::test::CationsOf(sys, sys.model.indexOf("InAs"));
    ASSERT_GT(dot.size(), 100u);
    for (int x = 1; x < sys.lattice.planes()[0]; x += 2)
      for (int y = 1; y < sys.lattice.planes()[1]; y += 2)
        for (int z = 1; z < sys.lattice.planes()[2]; z += 2) {
          const PlaneIndex p{x, y, z}, q{y, x, z};
          if (ZincblendeLattice::isSite(p) && dot.count(sys.lattice.canonicalIndex(p)))
            ASSERT_TRUE(dot.count(sys.lattice.canonicalIndex(q))) << x << " " << y << " " << z;
        }
  }
}

namespace {
// Per owned cation: the species drawn and the field's x; summed over the ranks: cations of the dot material, sum of x,
// sum of x (1 - x).
std::array<double, 3> DrawAgainstField(const TightBindingSystem &sys) {
  const Structure &s = sys.structure;
  const int in = sys.model.indexOf("InAs");
  std::array<double, 3> t{0, 0, 0};
  for (PetscInt i = 0; i < s.owned; ++i) {
    if (s.sublattice(i) != Sublattice::cation) continue;
    const double x = sys.nano.composition(s.sites[i]);
    t[0] += s.material[i] == in, t[1] += x, t[2] += x * (1 - x);
  }
  MPI_Allreduce(MPI_IN_PLACE, t.data(), 3, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  return t;
}
const std::string kGraded = "-params vogl1983 -cells 16,16,12 -periodic 1,1,0 -dot_material InAs -dot_shape lens "
                            "-dot_diameter 8 -dot_height 2.5 -dot_wetting_layers 2 -dot_center 4.52,4.52,1.2 ";
} // namespace

TEST(DotShapes, CompositionsDrawWhatTheirFieldsSay) {
  TBPETA_ASSERT_RANKS();
  for (const std::string extra : {"-dot_composition 0.3,0.9", "-dot_interdiffusion 0.6",
                                  "-dot_composition 0.5,1 -dot_interdiffusion 0.4 -alloy_seed 11"}) {
    SCOPED_TRACE(extra);
    TightBindingSystem sys;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, kGraded + extra, &sys), 0);
    const std::array<double, 3> t = DrawAgainstField(sys);
    ASSERT_GT(t[2], 50); // a real draw: many cations strictly between 0 and 1
    EXPECT_LE(std::fabs(t[0] - t[1]), 4 * std::sqrt(t[2])) << t[0] << " drawn, field " << t[1];
  }
  // The graded field itself: the base's fraction at the wetting layer, the apex's at the top.
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, kGraded + "-dot_composition 0.3,0.9", &sys), 0);
  const DotRegion &r = sys.nano.regions()[0];
  EXPECT_DOUBLE_EQ(r.fraction({32, 32, 3}), 0.3);
  const int top = (int)std::floor((1.2 + 2.5) / (sys.a_nm / 4));
  EXPECT_NEAR(r.fraction({31, 31, top | 1}), 0.3 + 0.6 * std::min(1.0, ((top | 1) * sys.a_nm / 4 - 1.2) / 2.5), 1e-12);
}

namespace {
// Material of every cation by canonical index, built on `comm`.
std::map<long long, int> Materials(MPI_Comm comm, const std::string &options) {
  TightBindingSystem sys;
  EXPECT_EQ(BuildFromOptions(comm, options, &sys), 0);
  std::map<long long, int> out;
  for (PetscInt i = 0; i < sys.structure.owned; ++i)
    out[sys.lattice.canonicalIndex(sys.structure.sites[i])] = sys.structure.material[i];
  return out;
}
// Every rank's materials agree with those of a one-rank build of `other`.
void ExpectSameAtoms(const std::string &options, const std::string &other) {
  SCOPED_TRACE(options + " | " + other);
  const std::map<long long, int> mine = Materials(PETSC_COMM_WORLD, options),
                                 serial = Materials(PETSC_COMM_SELF, other);
  int differ = 0;
  for (const auto &[c, m] : mine) differ += serial.at(c) != m;
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_EQ(differ, 0);
}
} // namespace

TEST(DotShapes, SpeciesDoNotDependOnRanksOrPartition) {
  TBPETA_ASSERT_RANKS();
  const std::string o = kGraded + "-dot_composition 0.4,1 -dot_interdiffusion 0.5 -host_alloy AlAs,0.2 -alloy_seed 3 "
                                  "-dot_alloy GaAs,0.1 -dot_stack 2 -dot_stack_spacing 1.9 ";
  for (const std::string partition : {"slab", "column", "cube"})
    ExpectSameAtoms(o + "-partition " + partition, o + "-partition cube");
}

TEST(DotShapes, VanishingInterdiffusionIsTheSharpDot) {
  TBPETA_ASSERT_RANKS();
  ExpectSameAtoms(kGraded + "-dot_interdiffusion 1e-7", kGraded);
  ExpectSameAtoms(kGraded + "-dot_composition 0.2,0.8 -dot_interdiffusion 1e-7 -alloy_seed 5",
                  kGraded + "-dot_composition 0.2,0.8 -alloy_seed 5");
}

namespace {
// A file written by rank 0 under a name every rank knows (rank 0's process id), read by all.
std::string WriteFile(const std::string &name, const std::string &text) {
  long pid = (long)getpid();
  MPI_Bcast(&pid, 1, MPI_LONG, 0, PETSC_COMM_WORLD);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("tbpeta-structure-" + std::to_string(pid) + "-" + name)).string();
  if (tbpeta::test::commRank() == 0) std::ofstream(path) << text;
  MPI_Barrier(PETSC_COMM_WORLD);
  return path;
}
} // namespace

TEST(DotShapes, StacksAndStructureFilesDescribeTheSameAtoms) {
  TBPETA_ASSERT_RANKS();
  const std::string cell = "-params vogl1983 -cells 12,12,10 -periodic 1,1,0 ";
  ExpectSameAtoms(kGraded + "-dot_stack 1 -dot_stack_spacing 4", kGraded);
  const std::string sphere =
      WriteFile("sphere", "# today's sphere\nsphere material=InAs radius=1.4 center=3,3.2,2.8\n");
  ExpectSameAtoms(cell + "-structure_file " + sphere,
                  cell + "-dot_material InAs -dot_shape sphere -dot_radius 1.4 -dot_center 3,3.2,2.8");
  const std::string dome = WriteFile("dome", "dome material=InAs radius=2 wetting=2 center=3.4,3.4,1  # a dome\n\n");
  ExpectSameAtoms(cell + "-structure_file " + dome,
                  cell +
                      "-dot_material InAs -dot_shape dome -dot_radius 2 -dot_wetting_layers 2 -dot_center 3.4,3.4,1");
  const std::string box = WriteFile("box", "box material=InAs size=2,3,1.5 center=3.4,3.4,2.8 alloy=GaAs,0.3\n");
  ExpectSameAtoms(cell + "-alloy_seed 4 -structure_file " + box, cell +
                                                                     "-alloy_seed 4 -dot_material InAs -dot_shape box "
                                                                     "-dot_size 2,3,1.5 -dot_center 3.4,3.4,2.8 "
                                                                     "-dot_alloy GaAs,0.3");
  const std::string stack =
      WriteFile("stack", "lens material=InAs diameter=5 height=1.5 wetting=1 center=3.4,3.4,1\n"
                         "lens material=InAs diameter=5 height=1.5 wetting=1 center=3.4,3.4,3.2\n");
  ExpectSameAtoms(cell + "-structure_file " + stack, cell +
                                                         "-dot_material InAs -dot_shape lens -dot_diameter 5 "
                                                         "-dot_height 1.5 -dot_wetting_layers 1 -dot_center 3.4,3.4,1 "
                                                         "-dot_stack 2 -dot_stack_spacing 2.2");
  if (tbpeta::test::commRank() == 0)
    for (const std::string &f : {sphere, dome, box, stack}) std::filesystem::remove(f);
}

// Every malformed line is one error naming FILE:line and what is allowed.
TEST(DotShapes, MalformedStructureLinesNameTheirLine) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"lens material=InAs diameter=10\n", "F:1: a lens needs height="},
      {"# c\n\nblob material=InAs\n", "F:3: unknown shape 'blob' (expected one of sphere, dome, box"},
      {"sphere radius=1\n", "F:1: no material= (a sphere takes material, center, radius, alloy, composition)"},
      {"sphere material=InAs radius=1 height=2\n", "F:1: a sphere takes material, center, radius, alloy, composition "
                                                   "(not height)"},
      {"sphere material=InAs radius=1 radius=2\n", "F:1: radius is given twice"},
      {"sphere material=InAs radius=x1\n", "F:1: radius=x1: 'x1' is not a number"},
      {"sphere material=InAs radius=1 center=1,2\n", "F:1: center=1,2: expected 3 comma-separated numbers"},
      {"lens material=InAs diameter=4 height=1 composition=0.5,1.2\n",
       "F:1: composition=0.5,1.2: a composition outside"},
      {"lens material=InAs diameter=4 height=1 wetting=-1\n", "F:1: wetting=-1: '-1' is not a number of monolayers"},
      {"box material=InAs size=1,1,1 wetting=1\n", "F:1: a box takes material, center, size, alloy, composition (not "
                                                   "wetting)"},
      {"sphere material=InAs radius\n", "F:1: 'radius' is not key=value"},
      {"box material=InAs size=1,1,1 alloy=GaAs\n", "F:1: alloy=GaAs: expected MATERIAL,x"},
      {"# only a comment\n", "F: no region"},
  };
  for (const auto &[text, message] : bad) {
    std::vector<RegionSpec> regions;
    const std::string err = ParseStructureText("F", text, &regions);
    EXPECT_EQ(err.rfind(message, 0), 0u) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos);
  }
  std::vector<RegionSpec> regions;
  EXPECT_EQ(ParseStructureText("F",
                               "cone material=InAs diameter=4 height=2 top=1 center=1,2,3 # x\n"
                               "ellipsoid material=InAs diameter=4,3 height=1 wetting=2 composition=0.2,0.9\n",
                               &regions),
            "");
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(regions[0].size.get("top"), 1);
  EXPECT_EQ(regions[1].size.get("diameter", 1), 3);
  EXPECT_EQ(regions[1].composition[1], 0.9);
  EXPECT_EQ(regions[1].where, "F:2");
}

TEST(DotShapes, BadShapesAreRefused) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  const std::string c = "-params vogl1983 -cells 12,12,6 -periodic 1,1,0 -dot_material InAs ";
  auto code = [&](const std::string &o) {
    return tbpeta::test::Quietly([&] { return BuildFromOptions(PETSC_COMM_WORLD, c + o, &sys); });
  };
  EXPECT_EQ(code("-dot_shape lens -dot_diameter 4 -dot_height 0"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-dot_shape lens -dot_diameter -4 -dot_height 1"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-dot_shape lens -dot_diameter 4 -dot_height 2.1"), PETSC_ERR_USER_INPUT);   // h > D/2
  EXPECT_EQ(code("-dot_shape lens -dot_diameter 4,6 -dot_height 2.5"), PETSC_ERR_USER_INPUT); // h > Dmin/2
  EXPECT_EQ(code("-dot_shape pyramid -dot_base 4 -dot_height 2.5"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-dot_shape cone -dot_diameter 4 -dot_height 1 -dot_top_diameter 4"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-dot_shape cylinder -dot_diameter 4,3 -dot_height 1"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-dot_shape box -dot_size 1,0,1"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-dot_shape sphere -dot_radius 1 -dot_wetting_layers 2"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-dot_shape lens -dot_diameter 8 -dot_height 1 -dot_center 2,3,1"), PETSC_ERR_USER_INPUT); // leaves
  EXPECT_EQ(code("-dot_shape lens -dot_diameter 4 -dot_height 1 -dot_center 3,3,1 -dot_stack 3 -dot_stack_spacing 1"),
            PETSC_ERR_USER_INPUT); // the stack is taller than the supercell (3.4 nm)
  EXPECT_EQ(code("-dot_shape lens -dot_diameter 4 -dot_height 1 -dot_stack 2"), PETSC_ERR_USER_INPUT); // no spacing
  EXPECT_EQ(code("-dot_shape lens -dot_diameter 4 -dot_height 1 -dot_composition 0.2,1.3"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-dot_shape lens -dot_diameter 4 -dot_height 1 -dot_interdiffusion -1"), PETSC_ERR_USER_INPUT);
  EXPECT_EQ(code("-dot_shape blob"), PETSC_ERR_USER); // PETSc's own refusal, naming the option and the shapes
  EXPECT_EQ(code("-dot_shape lens -dot_diameter 4 -dot_height 1 -structure_file /nonexistent"), PETSC_ERR_USER_INPUT);
  EXPECT_NE(tbpeta::test::Quietly([&] {
              return BuildFromOptions(PETSC_COMM_WORLD, "-cells 4,4,4 -structure_file /nonexistent/f", &sys);
            }),
            0);
  // Regions of another anion (Si in GaAs) are refused: no parameters exist for a bond between them.
  const std::string si = WriteFile("si", "box material=Si size=1,1,1\n");
  EXPECT_EQ(tbpeta::test::Quietly([&] {
              return BuildFromOptions(PETSC_COMM_WORLD, "-params vogl1983 -cells 4,4,4 -structure_file " + si, &sys);
            }),
            PETSC_ERR_USER_INPUT);
  if (tbpeta::test::commRank() == 0) std::filesystem::remove(si);
  PetscOptionsClear(nullptr);
}

// Every shape relaxes (Keating) and gives the strained H: the dot compressed, as InAs in GaAs is, and H built (with its
// finite check) on the relaxed bonds.
TEST(DotShapes, EveryShapeRelaxesAndBuildsTheStrainedH) {
  TBPETA_ASSERT_RANKS();
  const std::string cell = "-params nemo3d -material GaAs -cells 7,7,6 -periodic 1,1,0 -dot_material InAs "
                           "-dot_center 1.97862,1.97862,1.13 -strain keating -strain_snes_atol 1e-6 -dot_shape ";
  for (const std::string shape :
       {"lens -dot_diameter 3 -dot_height 1 -dot_wetting_layers 1", "pyramid -dot_base 3 -dot_height 1.2",
        "cone -dot_diameter 3 -dot_height 1.2 -dot_top_diameter 1", "cylinder -dot_diameter 2.5 -dot_height 1",
        "ellipsoid -dot_diameter 3,2.4 -dot_height 1",
        "lens -dot_diameter 3,2.2 -dot_height 0.9 -dot_interdiffusion 0.3",
        "dome -dot_radius 1.2 -dot_wetting_layers 2", "sphere -dot_radius 1 -dot_center 1.97862,1.97862,1.7",
        "box -dot_size 1.5,1.5,1 -dot_center 1.97862,1.97862,1.7"}) {
    SCOPED_TRACE(shape);
    TightBindingSystem sys;
    SystemStrain strain;
    StrainRange range;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, cell + shape, &sys), 0);
    ASSERT_EQ(RelaxSystem(PETSC_COMM_WORLD, &sys, &strain), 0);
    EXPECT_TRUE(strain.report.converged);
    ASSERT_EQ(HydrostaticInDot(PETSC_COMM_WORLD, sys.structure, sys.nano, strain.tensors, &range), 0);
    EXPECT_GT(range.atoms, 20);
    EXPECT_LT(range.mean, -0.01) << "InAs in GaAs is compressed";
    Mat H;
    ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H), 0);
    MatDestroy(&H);
  }
  PetscOptionsClear(nullptr);
}
