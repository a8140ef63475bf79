// A new dot shape is one file plus one registration line (docs/development.md): this file defines a quantum ring (an
// annulus of outer diameter D and inner diameter d, h tall, on its base), with a size of its own (-dot_inner_diameter,
// inner= in a structure file) beside the diameter and height it shares with the built-in shapes, and registers it with
// RegisterDotShape. It then works as the built-in shapes do, on any number of ranks: -dot_shape ring and a structure
// file's ring line take exactly the cations its inclusion rule names (counted here by brute force, the rule written
// out again) close to its analytic volume; the run's summary names it; a bad size is one line naming its option, or
// FILE:line and its key; -dot_shape, -help and the errors that list shapes or keys list it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

#include "application/SystemSummary.hpp"
#include "geometry/DotShapeKind.hpp"
#include "geometry/Nanostructure.hpp"
#include "geometry/StructureFile.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;

namespace {

// ---- the shape: all of it ----

constexpr ShapeParameter kRingInner{"inner",          "-dot_inner_diameter", 1, 1, {4, 0, 0}, true,
                                    "Inner diameter", " (its hole)"};

std::string RingCheck(const ShapeValues &s, const ShapeSizeNames &names) {
  const double D = s(kDotDiameter, 0), d = s(kRingInner);
  std::string err = ShapePositive(names(kDotDiameter), std::min(D, s(kDotDiameter, 1)));
  if (err.empty()) err = ShapePositive(names(kDotHeight), s(kDotHeight));
  if (err.empty() && D != s(kDotDiameter, 1)) err = names(kDotDiameter) + ": a ring takes one diameter";
  if (err.empty() && !(d > 0 && d < D))
    err = names(kRingInner) + FormatText(": %g nm; must be positive and below the outer diameter %g nm", d, D);
  return err;
}
bool RingContains(const ShapeValues &s, const std::array<double, 3> &r) {
  const double D = s(kDotDiameter), d = s(kRingInner), z = r[2], rho2 = r[0] * r[0] + r[1] * r[1];
  return z >= -kShapeTolerance && z <= s(kDotHeight) + kShapeTolerance && rho2 <= D * D / 4 + kShapeTolerance &&
         rho2 >= d * d / 4 - kShapeTolerance;
}
std::array<double, 3> RingUpper(const ShapeValues &s) {
  return {s(kDotDiameter) / 2, s(kDotDiameter) / 2, s(kDotHeight)};
}
double RingVolume(const ShapeValues &s) {
  const double D = s(kDotDiameter), d = s(kRingInner);
  return M_PI * (D * D - d * d) / 4 * s(kDotHeight);
}
std::string RingDescribe(const ShapeValues &s) {
  return FormatText("ring %g nm wide around a %g nm hole, %g nm tall", s(kDotDiameter), s(kRingInner), s(kDotHeight));
}
DotShapeKind RingShape() {
  return {"ring",     true,        {&kDotDiameter, &kRingInner, &kDotHeight}, RingCheck, RingContains, RingUpper,
          RingVolume, RingDescribe};
}

// ---- the registration: one line ----
PetscErrorCode RegisterRing() { return RegisterDotShape(RingShape()); }

// ---- the checks ----

// A height of its own under the key of the shared one.
constexpr ShapeParameter kOtherHeight{"height", "-dot_ring_height", 1, 1, {3, 0, 0}, true, "Height", ""};

// A ring 12 nm wide around a 5 nm hole, its base centred on an anion column near the supercell's centre, 10 cation
// planes tall (10 a/2: its top lies between two planes, as its base does).
const std::string kCell = "-params vogl1983 -cells 24,24,8 -periodic 1,1,0 ";
const std::array<double, 3> kAnchor{6.78384, 6.78384, 0.84798}; // nm: 48, 48 and 6 planes of a/4
const double kOuter = 12, kInner = 5, kHeight = 2.8266;
const std::string kRingOptions = "-dot_material InAs -dot_shape ring -dot_diameter 12 -dot_inner_diameter 5 "
                                 "-dot_height 2.8266 -dot_center 6.78384,6.78384,0.84798";

// The inclusion rule, written out again: the closed annulus, within 1e-9 nm.
bool InRing(double x, double y, double z) {
  const double rho2 = x * x + y * y, tol = 1e-9;
  return z >= -tol && z <= kHeight + tol && rho2 <= kOuter * kOuter / 4 + tol && rho2 >= kInner * kInner / 4 - tol;
}

// Brute force over every cation site of the lattice.
std::set<long long> RingByRule(const ZincblendeLattice &L, double a) {
  std::set<long long> out;
  for (int x = 1; x < L.planes()[0]; x += 2)
    for (int y = 1; y < L.planes()[1]; y += 2)
      for (int z = 1; z < L.planes()[2]; z += 2) {
        const PlaneIndex p{x, y, z};
        if (ZincblendeLattice::isSite(p) &&
            InRing(x * a / 4 - kAnchor[0], y * a / 4 - kAnchor[1], z * a / 4 - kAnchor[2]))
          out.insert(L.canonicalIndex(p));
      }
  return out;
}

// A file written by rank 0 under a name every rank knows, read by all.
std::string RingFile(const std::string &name, const std::string &text) {
  long pid = (long)getpid();
  MPI_Bcast(&pid, 1, MPI_LONG, 0, PETSC_COMM_WORLD);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("tbpeta-ring-" + std::to_string(pid) + "-" + name)).string();
  if (tbpeta::test::commRank() == 0) std::ofstream(path) << text;
  MPI_Barrier(PETSC_COMM_WORLD);
  return path;
}

// What PETSc prints (PetscPrintf on rank 0, -help on every rank) while f runs.
template <class F>
std::string Printed(F &&f) {
  return tbpeta::test::CapturePrinted(f);
}

} // namespace

TEST(RegisterShape, ARingFromThisFileTakesTheCationsOfItsRule) {
  TBPETA_ASSERT_RANKS();
  ASSERT_EQ(RegisterRing(), 0);
  const std::string file =
      RingFile("ring", "# a ring of this test\nring material=InAs diameter=12 inner=5 height=2.8266 "
                       "center=6.78384,6.78384,0.84798\n");
  for (const std::string &options : {kCell + kRingOptions, kCell + "-structure_file " + file}) {
    SCOPED_TRACE(options);
    TightBindingSystem sys;
    ASSERT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
    const std::set<long long> got = tbpeta::test::CationsOf(sys, sys.model.indexOf("InAs"));
    const std::set<long long> expected = RingByRule(sys.lattice, sys.a_nm);
    ASSERT_GT(expected.size(), 5000u);
    EXPECT_EQ(got.size(), expected.size());
    EXPECT_TRUE(got == expected);
    ASSERT_EQ(sys.nano.regions().size(), 1u);
    const ShapeGeometry &ring = sys.nano.regions()[0].shape;
    const double volume = M_PI * (12 * 12 - 5 * 5) / 4.0 * 2.8266;
    EXPECT_NEAR(ring.volume(), volume, 1e-12 * volume);
    EXPECT_NEAR(got.size() / (volume * 4 / std::pow(sys.a_nm, 3)), 1.0, 0.03);
    EXPECT_EQ(ring.describe(), "ring 12 nm wide around a 5 nm hole, 2.8266 nm tall");
    // The run's summary names it, with its cations.
    const std::string summary = Printed([&] { return PrintSystemSummary(PETSC_COMM_WORLD, sys, nullptr, 0, 1); });
    if (tbpeta::test::commRank() == 0)
      EXPECT_NE(summary.find("InAs ring 12 nm wide around a 5 nm hole, 2.8266 nm tall at (6.784, 6.784, 0.848) nm (" +
                             sys.nano.regions()[0].where + "): " + std::to_string(expected.size()) + " cations"),
                std::string::npos)
          << summary;
  }
  // It sits on a plane: a wetting layer may lie under it.
  TightBindingSystem sys;
  EXPECT_EQ(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, kCell + kRingOptions + " -dot_wetting_layers 2", &sys), 0);
  if (tbpeta::test::commRank() == 0) std::filesystem::remove(file);
  PetscOptionsClear(nullptr);
}

TEST(RegisterShape, ABadRingIsOneLineNamingItsOptionOrItsLineAndKey) {
  TBPETA_ASSERT_RANKS();
  ASSERT_EQ(RegisterRing(), 0);
  TightBindingSystem sys;
  const auto message = [&](const std::string &options, PetscErrorCode code) {
    std::string m;
    EXPECT_EQ(
        tbpeta::test::FirstMessage([&] { return tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, options, &sys); }, &m),
        code)
        << options;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    return m;
  };
  const std::string ring = kCell + "-dot_material InAs -dot_shape ring ";
  EXPECT_EQ(message(ring + "-dot_diameter 6 -dot_inner_diameter 6 -dot_height 2", PETSC_ERR_USER_INPUT),
            "-dot_inner_diameter: 6 nm; must be positive and below the outer diameter 6 nm");
  EXPECT_EQ(message(ring + "-dot_diameter 6,5 -dot_inner_diameter 2 -dot_height 2", PETSC_ERR_USER_INPUT),
            "-dot_diameter: a ring takes one diameter");
  EXPECT_EQ(message(ring + "-dot_diameter 6 -dot_inner_diameter 2 -dot_height 0", PETSC_ERR_USER_INPUT),
            "-dot_height: 0 nm; must be positive");
  // In a structure file: FILE:line and the key.
  const std::string file = RingFile("bad", "\nring material=InAs diameter=6 inner=7 height=2\n");
  EXPECT_EQ(message(kCell + "-structure_file " + file, PETSC_ERR_USER_INPUT),
            file + ":2: inner: 7 nm; must be positive and below the outer diameter 6 nm");
  if (tbpeta::test::commRank() == 0) std::filesystem::remove(file);
  std::vector<RegionSpec> regions;
  EXPECT_EQ(ParseStructureText("F", "ring material=InAs diameter=6 height=2\n", &regions), "F:1: a ring needs inner=");
  EXPECT_EQ(ParseStructureText("F", "ring material=InAs diameter=6 inner=2 height=2 radius=1\n", &regions),
            "F:1: a ring takes material, center, diameter, inner, height, wetting, alloy, composition (not radius)");
  EXPECT_EQ(ParseStructureText("F", "ring material=InAs diameter=6 inner=x height=2\n", &regions),
            "F:1: inner=x: 'x' is not a number");
  EXPECT_NE(ParseStructureText("F", "blob material=InAs\n", &regions).find("ellipsoid, ring)"), std::string::npos);
  // A size that takes another's key (or option) is refused: a shape shares the very parameter, or names its own apart.
  DotShapeKind clash = RingShape();
  clash.name = "ring_clash";
  clash.parameters = {&kDotDiameter, &kRingInner, &kOtherHeight};
  EXPECT_EQ(tbpeta::test::Quietly([&] { return RegisterDotShape(clash); }), PETSC_ERR_ARG_WRONG);
  EXPECT_EQ(FindDotShape("ring_clash"), nullptr);
  // The lists of shapes: -dot_shape's (PETSc's refusal) and the shapes that sit on a plane.
  EXPECT_NE(message(kCell + "-dot_material InAs -dot_shape blob", PETSC_ERR_USER).find("cylinder ellipsoid ring"),
            std::string::npos);
  EXPECT_NE(message(kCell + "-dot_material InAs -dot_shape sphere -dot_wetting_layers 1", PETSC_ERR_USER_INPUT)
                .find("dome, lens, cone, pyramid, cylinder, ellipsoid, ring take one"),
            std::string::npos);
  PetscOptionsClear(nullptr);
}

TEST(RegisterShape, HelpListsTheRingAndItsSizeOnce) {
  TBPETA_ASSERT_RANKS();
  ASSERT_EQ(RegisterRing(), 0);
  PetscOptionsClear(nullptr);
  PetscOptionsInsertString(nullptr, "-help");
  NanostructureSpec spec;
  const std::string help =
      Printed([&] { return NanostructureSpecFromOptions(PETSC_COMM_WORLD, NanostructureSpec{}, &spec); });
  PetscOptionsClear(nullptr);
  EXPECT_NE(help.find("(choose one of) none sphere dome box lens cone pyramid cylinder ellipsoid ring"),
            std::string::npos)
      << help;
  // Its own size, with its default; the sizes it shares name it.
  EXPECT_NE(help.find("-dot_inner_diameter <4"), std::string::npos) << help;
  EXPECT_NE(help.find(">: Inner diameter of a ring (its hole) (tbpeta)"), std::string::npos) << help;
  EXPECT_NE(help.find(">: Height of a lens, cone, pyramid, cylinder, ellipsoid or ring (tbpeta)"), std::string::npos)
      << help;
  for (const char *option : {"-dot_inner_diameter ", "-dot_height ", "-dot_diameter "}) {
    size_t n = 0;
    for (size_t at = help.find(option); at != std::string::npos; at = help.find(option, at + 1)) ++n;
    EXPECT_EQ(n, 1u) << option; // shared by several shapes, listed once
  }
}
