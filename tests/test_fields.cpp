// Fields on the atoms: the polarisation-Poisson module against the closed form of a misfitting sphere in isotropic
// elasticity (fed with the analytic strain), converging with the grid; a uniform strain in a periodic crystal gives no
// potential; the same potential on any ranks and partitions; an applied field's Stark shift equals the
// Hellmann-Feynman expectation of the eigenvectors; no fields leave H bit for bit as it was; the data files and the
// options refuse bad input in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fields/Polarization.hpp"
#include "fields/PolarizationPoisson.hpp"
#include "fields/SystemFields.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::test::BuildFromOptions;
using tbpeta::test::FirstMessage;

namespace {

constexpr double kEps0 = 8.8541878128e-12;
constexpr double kA = 0.565325;                 // nm, the lattice of the sphere's box
constexpr double kE14 = -0.16, kEpsR = 12.9;    // C/m^2 (first order only) and the one permittivity
constexpr double kMisfit = 0.0717, kNu = 0.317; // InAs in GaAs; GaAs's isotropic Poisson ratio

// The misfitting sphere of radius R (nm) centred in a box of `cells`: strain outside A R^3 (delta r^2 - 3 x x)/r^5.
struct Sphere {
  double R;
  std::array<double, 3> centre;
  double A() const { return kMisfit * (1 + kNu) / (3 * (1 - kNu)); }
  Voigt strain(const std::array<double, 3> &p) const {
    const double x = p[0] - centre[0], y = p[1] - centre[1], z = p[2] - centre[2], r2 = x * x + y * y + z * z;
    if (r2 < R * R) return {0, 0, 0, 0, 0, 0}; // hydrostatic inside: no shear, no polarisation
    const double c = A() * R * R * R / (r2 * r2 * std::sqrt(r2));
    return {c * (r2 - 3 * x * x), c * (r2 - 3 * y * y), c * (r2 - 3 * z * z),
            -3 * c * y * z,       -3 * c * x * z,       -3 * c * x * y};
  }
  // phi = -(9 e14 A R^3 / eps) xyz (r^2 - R^2) / r^7 outside, 0 inside (V, positions in nm).
  double phi(const std::array<double, 3> &p) const {
    const double x = p[0] - centre[0], y = p[1] - centre[1], z = p[2] - centre[2], r2 = x * x + y * y + z * z;
    if (r2 < R * R) return 0;
    const double eps = kEps0 * kEpsR, r7 = r2 * r2 * r2 * std::sqrt(r2);
    return -9 * kE14 * A() * R * R * R * 1e-9 / eps * x * y * z * (r2 - R * R) / r7; // (nm^-1 -> m^-1: 1e-9 m)
  }
};

std::array<double, 3> PositionNm(const std::array<int, 3> &p) {
  return {0.25 * kA * p[0], 0.25 * kA * p[1], 0.25 * kA * p[2]};
}

// Every atom site of an open box of `cells`, this rank's share (round robin), as sources of the sphere's
// polarisation, and all sites with r > 1.05 R as targets.
void SphereProblem(const Sphere &sphere, int cells, int rank, int size, std::vector<PolarizationSource> *sources,
                   std::vector<std::array<double, 3>> *targets) {
  const PiezoCoefficients c{kE14, 0, 0, 0};
  long long n = 0;
  for (int z = 0; z < 4 * cells; ++z)
    for (int y = 0; y < 4 * cells; ++y)
      for (int x = 0; x < 4 * cells; ++x) {
        if (!ZincblendeLattice::isSite({x, y, z}) || n++ % size != rank) continue;
        const std::array<double, 3> r = PositionNm({x, y, z});
        sources->push_back({{x, y, z}, Polarization(sphere.strain(r), c), kEpsR});
        const double d = std::hypot(r[0] - sphere.centre[0], r[1] - sphere.centre[1], r[2] - sphere.centre[2]);
        if (d > 1.05 * sphere.R) targets->push_back({(double)x, (double)y, (double)z});
      }
}

struct SphereErrors {
  double peak_numeric = 0, peak_exact = 0, pattern = 0; // V, V, relative L2 over the targets
  double max_difference = 0;                            // V
};

SphereErrors SolveSphere(MPI_Comm comm, const Sphere &sphere, int cells, int grid,
                         std::vector<double> *phi_out = nullptr) {
  int rank, size;
  MPI_Comm_rank(comm, &rank), MPI_Comm_size(comm, &size);
  std::vector<PolarizationSource> sources;
  std::vector<std::array<double, 3>> targets;
  SphereProblem(sphere, cells, rank, size, &sources, &targets);
  PoissonProblem problem;
  problem.grid = MakePoissonGrid({cells, cells, cells}, {false, false, false}, {0, 0, 0}, grid, kA);
  problem.host_eps = kEpsR;
  problem.boundary = [&](const std::array<double, 3> &r) { return sphere.phi(r); };
  std::vector<double> phi;
  PoissonReport report;
  EXPECT_EQ(SolvePolarizationPotential(comm, problem, sources, targets, &phi, &report), 0);
  double local[4] = {0, 0, 0, 0}, global[4];
  for (size_t t = 0; t < targets.size(); ++t) {
    const double exact = sphere.phi(PositionNm({(int)targets[t][0], (int)targets[t][1], (int)targets[t][2]}));
    local[0] = std::max(local[0], std::fabs(phi[t])), local[1] = std::max(local[1], std::fabs(exact));
    local[2] += (phi[t] - exact) * (phi[t] - exact), local[3] += exact * exact;
  }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(local + 2, global + 2, 2, MPI_DOUBLE, MPI_SUM, comm);
  if (phi_out) *phi_out = phi;
  return {global[0], global[1], std::sqrt(global[2] / global[3]), 0};
}

} // namespace

// The closed form's own numbers: |phi| peaks at sqrt(3) |e14| A R / (4 eps) at r = sqrt(2) R along <111> (84 mV for
// R = 3 nm), so the formula the test compares with is the documented one.
TEST(Fields, TheSpheresClosedFormPeaksWhereDocumented) {
  const Sphere s{3.0, {0, 0, 0}};
  const double d = std::sqrt(2.0) * 3.0 / std::sqrt(3.0);
  const double peak = std::sqrt(3.0) * std::fabs(kE14) * s.A() * 3e-9 / (4 * kEps0 * kEpsR);
  EXPECT_NEAR(std::fabs(s.phi({d, d, d})), peak, 1e-12);
  EXPECT_NEAR(peak, 0.084, 0.0005);
  EXPECT_LT(std::fabs(s.phi({1.01 * d, 1.01 * d, 1.01 * d})), peak);
  EXPECT_LT(std::fabs(s.phi({0.99 * d, 0.99 * d, 0.99 * d})), peak);
}

// The solved potential of the sphere against the closed form (analytic potential on the boundary): the peak within a
// few percent and the pattern's error shrinking from the a/2 grid to the a/4 one.
TEST(Fields, MisfittingSphereMatchesTheClosedForm) {
  TBPETA_ASSERT_RANKS();
  const int cells = 16;
  const Sphere sphere{2.0, {0.125 * kA * (4 * cells - 1), 0.125 * kA * (4 * cells - 1), 0.125 * kA * (4 * cells - 1)}};
  const SphereErrors half = SolveSphere(PETSC_COMM_WORLD, sphere, cells, 2);
  const SphereErrors quarter = SolveSphere(PETSC_COMM_WORLD, sphere, cells, 4);
  PetscPrintf(PETSC_COMM_WORLD,
              "misfitting sphere R = 2 nm: peak %.2f mV exact, %.2f mV (a/2 grid), %.2f mV (a/4); pattern error "
              "%.2f %% (a/2), %.2f %% (a/4)\n",
              1e3 * half.peak_exact, 1e3 * half.peak_numeric, 1e3 * quarter.peak_numeric, 100 * half.pattern,
              100 * quarter.pattern);
  EXPECT_NEAR(half.peak_numeric / half.peak_exact, 1.0, 0.05);
  EXPECT_NEAR(quarter.peak_numeric / quarter.peak_exact, 1.0, 0.03);
  EXPECT_LT(half.pattern, 0.10);
  EXPECT_LT(quarter.pattern, half.pattern);
}

// A uniform strain in a periodic crystal: a uniform polarisation, no charge, no potential.
TEST(Fields, UniformStrainInAPeriodicCrystalGivesNoPotential) {
  TBPETA_ASSERT_RANKS();
  const int cells = 6, rank = tbpeta::test::commRank(), size = tbpeta::test::commSize();
  const PiezoCoefficients gaas{0.16, 0.439, 3.765, 0.492};
  const Voigt e{0.01, -0.004, 0.002, 0.003, -0.002, 0.005};
  std::vector<PolarizationSource> sources;
  std::vector<std::array<double, 3>> targets;
  long long n = 0;
  for (int z = 0; z < 4 * cells; ++z)
    for (int y = 0; y < 4 * cells; ++y)
      for (int x = 0; x < 4 * cells; ++x)
        if (ZincblendeLattice::isSite({x, y, z}) && n++ % size == rank) {
          sources.push_back({{x, y, z}, Polarization(e, gaas), 12.9});
          targets.push_back({(double)x, (double)y, (double)z});
        }
  ASSERT_GT(std::fabs(sources[0].P[2]), 1e-3); // a real polarisation
  for (int grid : {2, 4}) {
    PoissonProblem problem;
    problem.grid = MakePoissonGrid({cells, cells, cells}, {true, true, true}, {0, 0, 0}, grid, kA);
    problem.host_eps = 12.9;
    std::vector<double> phi;
    PoissonReport report;
    ASSERT_EQ(SolvePolarizationPotential(PETSC_COMM_WORLD, problem, sources, targets, &phi, &report), 0);
    double worst = 0;
    for (double v : phi) worst = std::max(worst, std::fabs(v));
    EXPECT_LT(worst, 1e-12) << "grid " << grid;
  }
}

// The same potential from every rank count and partition: the world's solve (its DMDA partition, the sources split
// round robin) against one rank's (all sources), at a tight tolerance.
TEST(Fields, PotentialIsTheSameOnAnyRanks) {
  TBPETA_ASSERT_RANKS();
  PetscOptionsSetValue(nullptr, "-piezo_ksp_rtol", "1e-13");
  const int cells = 10, rank = tbpeta::test::commRank();
  const Sphere sphere{1.2, {2.5, 2.9, 2.7}};
  std::vector<PolarizationSource> mine, all;
  std::vector<std::array<double, 3>> targets_mine, targets_all;
  SphereProblem(sphere, cells, rank, tbpeta::test::commSize(), &mine, &targets_mine);
  SphereProblem(sphere, cells, 0, 1, &all, &targets_all);
  PoissonProblem problem;
  problem.grid = MakePoissonGrid({cells, cells, cells}, {false, false, false}, {2, 2, 2}, 2, kA);
  problem.host_eps = kEpsR;
  std::vector<double> phi_world, phi_self;
  PoissonReport report;
  ASSERT_EQ(SolvePolarizationPotential(PETSC_COMM_WORLD, problem, mine, targets_all, &phi_world, &report), 0);
  ASSERT_EQ(SolvePolarizationPotential(PETSC_COMM_SELF, problem, all, targets_all, &phi_self, &report), 0);
  PetscOptionsClearValue(nullptr, "-piezo_ksp_rtol");
  double worst = 0, largest = 0;
  for (size_t t = 0; t < phi_self.size(); ++t)
    worst = std::max(worst, std::fabs(phi_world[t] - phi_self[t])), largest = std::max(largest, std::fabs(phi_self[t]));
  EXPECT_GT(largest, 1e-3);
  EXPECT_LT(worst, 1e-8);
}

namespace {

// The states near `target` of the system's H (aij) with shift-and-invert, and the expectation of z - z0 (nm) of
// each state from its eigenvector.
struct StarkStates {
  std::vector<double> energy, z;
};

StarkStates SolveNear(TightBindingSystem &sys, double target, double z0) {
  StarkStates out;
  Mat H;
  EPS eps;
  EigenStates states;
  EXPECT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H), 0);
  const std::string opts = "-eps_type krylovschur -st_type sinvert -eps_nev 2 -eps_tol 1e-14 -st_ksp_type preonly "
                           "-st_pc_type lu -st_pc_factor_mat_solver_type mumps -eps_target " +
                           std::to_string(target);
  EXPECT_EQ(tbpeta::test::SolveWith(H, target, opts, &states, nullptr, &eps), 0);
  const Structure &s = sys.structure;
  const PetscInt rows = sys.model.blockSize();
  Vec x;
  MatCreateVecs(H, &x, nullptr);
  for (size_t k = 0; k < states.values.size(); ++k) {
    const PetscScalar *a;
    double local = 0, z;
    EXPECT_EQ(StateVector(eps, states, k, x), 0);
    VecGetArrayRead(x, &a);
    for (PetscInt i = 0; i < s.owned; ++i)
      for (PetscInt r = 0; r < rows; ++r)
        local += PetscRealPart(a[i * rows + r] * PetscConj(a[i * rows + r])) * (s.position(i, sys.a_nm)[2] - z0);
    VecRestoreArrayRead(x, &a);
    MPI_Allreduce(&local, &z, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
    out.energy.push_back(states.values[k]), out.z.push_back(z);
  }
  VecDestroy(&x), EPSDestroy(&eps), MatDestroy(&H);
  // The two states nearest the target, in that order (the solver may converge more than it was asked).
  std::vector<size_t> order(out.energy.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return std::fabs(out.energy[a] - target) < std::fabs(out.energy[b] - target); });
  StarkStates nearest;
  for (size_t k = 0; k < std::min<size_t>(2, order.size()); ++k)
    nearest.energy.push_back(out.energy[order[k]]), nearest.z.push_back(out.z[order[k]]);
  return nearest;
}

StarkStates StarkRun(double field, double target) {
  TightBindingSystem sys;
  SystemStrain strain;
  SystemFields fields;
  const std::string options =
      "-params vogl1983 -material GaAs -cells 5,5,4 -periodic 0,0,0 -dot_material InAs "
      "-dot_shape dome -dot_radius 0.9 -dot_center 1.4,1.4,0.3 -efield_origin 0,0,0 -efield 0,0," +
      std::to_string(field);
  EXPECT_EQ(BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
  EXPECT_EQ(ComputeSystemFields(PETSC_COMM_WORLD, &sys, &strain, &fields), 0);
  return SolveNear(sys, target, 0.0);
}

} // namespace

// An applied field along [001]: dE/dF of each state (a central difference of the levels) equals the Hellmann-Feynman
// expectation +e <psi| z - z0 |psi> (1e-4 eV per kV/cm per nm) of its eigenvector, to 1e-4 relative.
TEST(Fields, StarkShiftFollowsHellmannFeynman) {
  TBPETA_ASSERT_RANKS();
  const double F0 = 150, dF = 2, target = 2.2; // kV/cm; target: near the box's lowest conduction levels (eV)
  const StarkStates mid = StarkRun(F0, target), up = StarkRun(F0 + dF, target), down = StarkRun(F0 - dF, target);
  ASSERT_EQ(mid.energy.size(), up.energy.size());
  ASSERT_EQ(mid.energy.size(), down.energy.size());
  ASSERT_GE(mid.energy.size(), 1u);
  for (size_t k = 0; k < mid.energy.size(); ++k) {
    const double slope = (up.energy[k] - down.energy[k]) / (2 * dF), expected = 1e-4 * mid.z[k];
    PetscPrintf(PETSC_COMM_WORLD, "state %zu: E %.8f eV, dE/dF %.9e, Hellmann-Feynman %.9e eV per kV/cm\n", k,
                mid.energy[k], slope, expected);
    EXPECT_NEAR(slope / expected, 1.0, 1e-4);
  }
}

// No fields (-piezo none, a zero -efield) set no potential: H is bit for bit the one built before the fields' turn.
TEST(Fields, NoFieldsLeaveHUnchanged) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  SystemStrain strain;
  SystemFields fields;
  Mat H[2];
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD,
                             "-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,0 -dot_material InAs "
                             "-dot_radius 0.6 -strain keating",
                             &sys),
            0);
  ASSERT_EQ(RelaxSystem(PETSC_COMM_WORLD, &sys, &strain), 0);
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H[0]), 0);
  for (const char *order : {"first", "second"}) { // -piezo_e14 auto: experimental for first, calculated for second
    PetscOptionsInsertString(nullptr, (std::string("-piezo ") + order).c_str());
    ASSERT_EQ(FieldSpecFromOptions(PETSC_COMM_WORLD, FieldSpec{}, sys.lattice.periodic(), true, &sys.spec.fields), 0);
    EXPECT_EQ(sys.spec.fields.e14, std::string(order) == "first" ? E14Choice::experimental : E14Choice::calculated);
    FieldSpec chosen; // a caller's default choice stands when -piezo_e14 is not given
    chosen.e14 = E14Choice::experimental;
    ASSERT_EQ(FieldSpecFromOptions(PETSC_COMM_WORLD, chosen, sys.lattice.periodic(), true, &sys.spec.fields), 0);
    EXPECT_EQ(sys.spec.fields.e14, E14Choice::experimental);
    PetscOptionsClear(nullptr);
  }
  PetscOptionsInsertString(nullptr, "-piezo none -efield 0,0,0");
  ASSERT_EQ(FieldSpecFromOptions(PETSC_COMM_WORLD, FieldSpec{}, sys.lattice.periodic(), true, &sys.spec.fields), 0);
  ASSERT_EQ(ComputeSystemFields(PETSC_COMM_WORLD, &sys, &strain, &fields), 0);
  EXPECT_FALSE(fields.on());
  EXPECT_TRUE(sys.structure.potential.empty());
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H[1]), 0);
  PetscBool equal;
  MatEqual(H[0], H[1], &equal);
  EXPECT_TRUE(equal);
  MatDestroy(&H[0]), MatDestroy(&H[1]);
  PetscOptionsClear(nullptr);
}

// With -piezo the potential reaches every atom of H as -e phi: the run's structure carries it, the polarisation is
// that of the relaxed strain, and a GaAs coefficient is read in tbpeta's convention.
TEST(Fields, PiezoPotentialReachesTheAtoms) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  SystemStrain strain;
  SystemFields fields;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD,
                             "-params nemo3d -material GaAs -cells 6,6,6 -periodic 0,0,0 -dot_material InAs "
                             "-dot_radius 0.9 -strain keating -strain_pad_cells 1,1,1 -piezo second -piezo_pad_cells 2",
                             &sys),
            0);
  ASSERT_EQ(RelaxSystem(PETSC_COMM_WORLD, &sys, &strain), 0);
  ASSERT_EQ(ComputeSystemFields(PETSC_COMM_WORLD, &sys, &strain, &fields), 0);
  const Structure &s = sys.structure;
  ASSERT_EQ((PetscInt)s.potential.size(), s.owned);
  double lo, hi;
  ASSERT_EQ(PotentialRange(PETSC_COMM_WORLD, fields, &lo, &hi), 0);
  EXPECT_LT(lo, -1e-3); // a dot of a few nm: tens of mV of either sign
  EXPECT_GT(hi, 1e-3);
  for (PetscInt i = 0; i < s.owned; ++i) ASSERT_EQ(s.potential[i], -fields.potential[i]);
  EXPECT_TRUE(strain.domain_tensors.empty()); // the padded domain was freed
  EXPECT_EQ(sys.field_parameters[0].material, "GaAs");
  EXPECT_DOUBLE_EQ(sys.field_parameters[0].coefficients(PiezoOrder::second, E14Choice::experimental).e14, -0.16);
  // Second order takes by default the e14 its B's were computed with (Bester et al., PRL 96, 187602 (2006)): -0.230
  EXPECT_EQ(sys.spec.fields.e14, E14Choice::calculated);
  EXPECT_DOUBLE_EQ(sys.field_parameters[0].coefficients(PiezoOrder::second, E14Choice::calculated).e14, -0.230);
  EXPECT_DOUBLE_EQ(sys.field_parameters[0].coefficients(PiezoOrder::first, E14Choice::calculated).B124, 0.0);
}

// Every bad input is one line naming the option or the file and what is allowed.
TEST(Fields, BadInputIsRefusedInOneLine) {
  TBPETA_ASSERT_RANKS();
  const std::string base = "-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,0 -dot_material InAs -dot_radius "
                           "0.6 ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-strain keating -piezo third", "-piezo: 'third' is not allowed (allowed: none, first, second)"},
      {"-strain keating -piezo first -piezo_e14 measured", "-piezo_e14: 'measured' is not allowed"},
      {"-piezo first", "-piezo first: the polarisation comes from the relaxed strain; add -strain keating"},
      {"-strain keating -piezo first -piezo_grid 3", "-piezo_grid: 3 is not allowed"},
      {"-periodic 1,1,0 -efield 10,0,0", "-efield: 10 kV/cm along x, a periodic axis"},
      {"-efield 1,2", "-efield: expected 3 comma-separated numbers, got 2"},
      {"-efield 0,0,inf", "-efield: 'inf' is not a finite number"},
      {"-efield 1,abc,0", "-efield: 'abc' is not a number"},
      {"-strain keating -piezo first -dot_material AlAs", "material AlAs has no e14_experimental in"},
  };
  for (const auto &[options, expected] : cases) {
    SCOPED_TRACE(options);
    TightBindingSystem sys;
    std::string message;
    EXPECT_NE(FirstMessage([&] { return BuildFromOptions(PETSC_COMM_WORLD, base + options, &sys); }, &message), 0);
    EXPECT_NE(message.find(expected), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  PetscOptionsClear(nullptr);
}

// The field data files' format: a bad line names the file, the line and what is allowed.
TEST(Fields, MalformedDataFilesNameTheirLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"material = X\npiezo_origin = cation\ne15 = 1\n", "line 3: unknown key 'e15'"},
      {"material = X\npiezo_origin = cation\neps_static = twelve\n",
       "line 3: key 'eps_static': 'twelve' is not a finite number"},
      {"material = X\neps_static = 12\n", "key 'piezo_origin' must be anion or cation"},
      {"material = X\npiezo_origin = cation\nB114 = 1\n", "give B114, B124 and B156 together"},
      {"material = X\npiezo_origin = cation\neps_static = -1\n", "line 3: eps_static must be positive"},
      {"material = X\npiezo_origin = anion\neps_static 12\n", "line 3: expected 'key = value'"},
  };
  for (const auto &[text, expected] : cases) {
    FieldParameters p;
    std::string error;
    EXPECT_FALSE(ParseFieldText(text, "F.txt", &p, &error));
    EXPECT_NE(error.find("field data file 'F.txt'"), std::string::npos) << error;
    EXPECT_NE(error.find(expected), std::string::npos) << error;
  }
  FieldParameters p;
  std::string error;
  ASSERT_TRUE(ParseFieldText("material = X\neps_static = 10 # comment\npiezo_origin = cation\ne14_calculated = -0.2\n"
                             "B114 = 1\nB124 = 2\nB156 = -3\n",
                             "F.txt", &p, &error))
      << error;
  EXPECT_EQ(p.e14[1], 0.2); // the source's cation-at-origin sign turned into tbpeta's anion-at-origin one
  EXPECT_EQ(p.B156, 3.0);
  EXPECT_EQ(p.missingKeys(PiezoOrder::first, E14Choice::experimental), "e14_experimental");
  EXPECT_EQ(p.missingKeys(PiezoOrder::second, E14Choice::calculated), "");
}
