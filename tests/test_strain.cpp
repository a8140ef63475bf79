// The relaxation (Keating valence force field minimised by SNES): the exact gradient, the elastic constants and the
// strain of pseudomorphic layers against their closed forms, uniform scaling, and the same relaxed atoms on any
// number of ranks, with any partition, and with a padded strain domain; the preconditioned minimiser.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "strain/DisplacementField.hpp"
#include "strain/ZeroEnergyMotions.hpp"
#include "strain/StrainTensor.hpp"
#include "strain/SystemRelaxation.hpp"
#include "support/CounterHash.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::test::BuildFromOptions;

namespace {

// Builds the system of `options` on comm and relaxes it as the application does.
PetscErrorCode Relaxed(MPI_Comm comm, const std::string &options, TightBindingSystem *sys, RelaxationReport *report,
                       SystemStrain *fields = nullptr) {
  SystemStrain strain;
  PetscFunctionBeginUser;
  PetscCall(BuildFromOptions(comm, options, sys));
  PetscCall(RelaxSystem(comm, sys, &strain));
  *report = strain.report;
  if (fields) *fields = strain;
  PetscFunctionReturn(0);
}

// Every atom's displacement (nm) at 3 * canonical index, the same on every rank (small structures only).
std::vector<double> GatherDisplacements(MPI_Comm comm, const Structure &s) {
  std::vector<double> all(3 * s.total(), 0.0);
  const std::vector<PetscInt> canonical = s.canonicalAtoms();
  for (PetscInt i = 0; i < s.owned; ++i)
    for (int c = 0; c < 3; ++c) all[3 * canonical[i] + c] = s.displacementOf(i)[c];
  MPI_Allreduce(MPI_IN_PLACE, all.data(), (int)all.size(), MPI_DOUBLE, MPI_SUM, comm);
  return all;
}

// A per-atom value of the owned atoms (e.g. the energy) at its canonical index, the same on every rank.
std::vector<double> GatherValues(MPI_Comm comm, const Structure &s, const std::vector<double> &owned) {
  std::vector<double> all(s.total(), 0.0);
  const std::vector<PetscInt> canonical = s.canonicalAtoms();
  for (PetscInt i = 0; i < s.owned; ++i) all[canonical[i]] = owned[i];
  MPI_Allreduce(MPI_IN_PLACE, all.data(), (int)all.size(), MPI_DOUBLE, MPI_SUM, comm);
  return all;
}

double MaxAbs(const std::vector<double> &v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

// A Keating energy of a built system with a displacement field of its own layout.
struct EnergyAt {
  TightBindingSystem sys;
  KeatingEnergy energy;
  OwnedVec u, g;
};

PetscErrorCode MakeEnergy(const std::string &options, EnergyAt *e) {
  PetscFunctionBeginUser;
  PetscCall(BuildFromOptions(PETSC_COMM_WORLD, options, &e->sys));
  PetscCall(KeatingEnergy::Create(PETSC_COMM_WORLD, e->sys.structure, e->sys.model, e->sys.a_nm, StrainFix::none,
                                  &e->energy));
  PetscCall(e->energy.CreateDisplacement(e->u.out()));
  PetscCall(VecDuplicate(e->u, e->g.out()));
  PetscFunctionReturn(0);
}

// Minimises e's energy (internal relaxation) to a tight tolerance and returns E.
PetscErrorCode RelaxedEnergy(EnergyAt *e, double *energy) {
  SNES snes;
  RelaxationReport report;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsClear(nullptr));
  PetscCall(PetscOptionsInsertString(nullptr, "-strain_snes_atol 1e-10 -strain_snes_max_it 2000"));
  PetscCall(CreateRelaxationSolver(PETSC_COMM_WORLD, &snes));
  PetscCall(MinimiseEnergy(snes, &e->energy, e->u, &report));
  PetscCall(SNESDestroy(&snes));
  PetscCheck(report.converged, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "test relaxation did not converge");
  *energy = report.energy;
  PetscFunctionReturn(0);
}

} // namespace

TEST(Strain, GradientEqualsCentralDifferences) {
  TBPETA_ASSERT_RANKS();
  EnergyAt e;
  ASSERT_EQ(
      MakeEnergy("-cells 3,3,3 -periodic 0,1,0 -dot_material InAs -dot_radius 0.6 -dot_alloy GaAs,0.3 -alloy_seed 5",
                 &e),
      0);
  const Structure &s = e.sys.structure;
  const std::vector<PetscInt> canonical = s.canonicalAtoms();
  PetscScalar *a;
  ASSERT_EQ(VecGetArray(e.u, &a), 0);
  for (PetscInt i = 0; i < s.owned; ++i)
    for (int c = 0; c < 3; ++c) a[3 * i + c] = 0.02 * (UnitInterval(MixBits(3 * canonical[i] + c)) - 0.5);
  ASSERT_EQ(VecRestoreArray(e.u, &a), 0);
  PetscReal e0;
  ASSERT_EQ(e.energy.Evaluate(e.u, &e0, e.g), 0);
  PetscReal gmax;
  ASSERT_EQ(VecNorm(e.g, NORM_INFINITY, &gmax), 0);
  ASSERT_GT(gmax, 0.1);
  const double h = 1e-5;
  for (PetscInt atom : std::initializer_list<PetscInt>{0, 17, 101, (PetscInt)s.total() / 2, (PetscInt)s.total() - 1})
    for (int c = 0; c < 3; ++c) {
      PetscInt row = -1; // the global row of the atom's component on its owner (canonical order is not global order)
      for (PetscInt i = 0; i < s.owned; ++i)
        if (canonical[i] == atom) row = 3 * (s.globalOffset() + i) + c;
      PetscReal ep, em;
      PetscScalar g = 0;
      auto shift = [&](double by) {
        if (row >= 0) VecSetValue(e.u, row, by, ADD_VALUES);
        VecAssemblyBegin(e.u);
        VecAssemblyEnd(e.u);
      };
      shift(h);
      ASSERT_EQ(e.energy.Evaluate(e.u, &ep, nullptr), 0);
      shift(-2 * h);
      ASSERT_EQ(e.energy.Evaluate(e.u, &em, nullptr), 0);
      shift(h);
      if (row >= 0) VecGetValues(e.g, 1, &row, &g);
      double gv = PetscRealPart(g);
      MPI_Allreduce(MPI_IN_PLACE, &gv, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
      EXPECT_NEAR((ep - em) / (2 * h), gv, 1e-6 * gmax) << "atom " << atom << " component " << c;
    }
}

TEST(Strain, PerfectCrystalIsAtRest) {
  TBPETA_ASSERT_RANKS();
  for (const char *material : {"GaAs", "InAs", "Si"}) {
    SCOPED_TRACE(material);
    TightBindingSystem sys;
    RelaxationReport r;
    EnergyAt e;
    const std::string options = std::string("-cells 2,2,2 -periodic 1,1,1 -material ") + material;
    ASSERT_EQ(MakeEnergy(options, &e), 0);
    PetscReal energy, gnorm;
    ASSERT_EQ(e.energy.Evaluate(e.u, &energy, e.g), 0);
    ASSERT_EQ(VecNorm(e.g, NORM_INFINITY, &gnorm), 0);
    EXPECT_LT(std::fabs(energy), 1e-20);
    EXPECT_LT(gnorm, 1e-12);
    ASSERT_EQ(Relaxed(PETSC_COMM_WORLD, options + " -strain keating", &sys, &r), 0);
    EXPECT_TRUE(r.converged);
    EXPECT_LT(MaxAbs(GatherDisplacements(PETSC_COMM_WORLD, sys.structure)), 1e-14);
  }
}

// C11, C12 and C44 by second differences of the relaxed energy of periodic bulk under homogeneous strain, against
// (alpha + 3 beta)/a, (alpha - beta)/a, 4 alpha beta / ((alpha + beta) a).
TEST(Strain, ElasticConstantsMatchKeatingClosedForms) {
  TBPETA_ASSERT_RANKS();
  const double delta = 1e-3, gpa_per_ev_nm3 = 0.1602176634;
  for (const char *material : {"GaAs", "InAs", "Si"}) {
    SCOPED_TRACE(material);
    EnergyAt e;
    ASSERT_EQ(MakeEnergy(std::string("-cells 2,2,2 -periodic 1,1,1 -material ") + material, &e), 0);
    const MaterialParameters &m = e.sys.model.materials[0];
    const double a = m.a_lattice / 10, alpha = m.keating.alpha, beta = m.keating.beta, volume = 8 * a * a * a;
    // Energy density (GPa) of a homogeneous strain, atoms relaxed inside the strained box, averaged over +-.
    auto density = [&](Voigt eps) {
      double sum = 0;
      for (double sign : {1.0, -1.0}) {
        Voigt v;
        for (int k = 0; k < 6; ++k) v[k] = sign * eps[k];
        e.energy.SetHomogeneousStrain(v);
        VecSet(e.u, 0.0);
        double energy = 0;
        EXPECT_EQ(RelaxedEnergy(&e, &energy), 0);
        sum += energy / 2;
      }
      return sum / volume * gpa_per_ev_nm3;
    };
    const double w11 = density({delta, 0, 0, 0, 0, 0});     // C11 delta^2 / 2
    const double w12 = density({delta, delta, 0, 0, 0, 0}); // (C11 + C12) delta^2
    const double w44 = density({0, 0, 0, delta, 0, 0});     // 2 C44 delta^2 (tensor shear)
    const double c11 = 2 * w11 / (delta * delta), c12 = w12 / (delta * delta) - c11, c44 = w44 / (2 * delta * delta);
    EXPECT_NEAR(c11, (alpha + 3 * beta) / a, 1e-3 * c11);
    EXPECT_NEAR(c12, (alpha - beta) / a, 1e-3 * c12);
    EXPECT_NEAR(c44, 4 * alpha * beta / ((alpha + beta) * a), 1e-3 * c44);
  }
}

TEST(Strain, UniformlyScaledCrystalKeepsItsSites) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  RelaxationReport r;
  ASSERT_EQ(Relaxed(PETSC_COMM_WORLD,
                    "-cells 2,2,2 -periodic 1,1,1 -material InAs -strain keating -strain_substrate GaAs", &sys, &r),
            0);
  EXPECT_TRUE(r.converged);
  EXPECT_LT(MaxAbs(GatherDisplacements(PETSC_COMM_WORLD, sys.structure)), 1e-12);
  const MaterialParameters &inas = sys.model.materials[sys.model.indexOf("InAs")];
  const MaterialParameters &gaas = sys.model.materials[sys.model.indexOf("GaAs")];
  const double s = gaas.a_lattice / inas.a_lattice, d0 = std::sqrt(3.0) / 4 * inas.a_lattice / 10;
  const double expected = d0 * d0 * (s * s - 1) * (s * s - 1) * (0.75 * inas.keating.alpha + 0.25 * inas.keating.beta) *
                          kEvPerNewtonMetreNm2;
  EXPECT_NEAR(r.energyPerAtom(), expected, 1e-9 * expected);
}

namespace {

// The vertical period c (nm) in the middle of a relaxed layer: the z distance of the anions (0,0,z0) and (0,0,z0+4).
double MiddlePeriod(const TightBindingSystem &sys) {
  const std::vector<double> u = GatherDisplacements(PETSC_COMM_WORLD, sys.structure);
  const int z0 = 4 * (sys.lattice.cells()[2] / 2 - 1);
  const long long lo = sys.lattice.canonicalIndex({0, 0, z0}), hi = sys.lattice.canonicalIndex({0, 0, z0 + 4});
  return sys.a_nm + u[3 * hi + 2] - u[3 * lo + 2];
}

// An independent Keating energy per atom of a binary under the strain diag(e_par, e_par, e_zz) (no internal shift:
// none under (001) strain), in units of alpha d0^2.
double BiaxialEnergy(double e_par, double e_zz, double beta_over_alpha) {
  const double r[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  double v[4][3], e = 0;
  for (int b = 0; b < 4; ++b) {
    v[b][0] = r[b][0] * (1 + e_par) / std::sqrt(3.0), v[b][1] = r[b][1] * (1 + e_par) / std::sqrt(3.0),
    v[b][2] = r[b][2] * (1 + e_zz) / std::sqrt(3.0);
  }
  for (int b = 0; b < 4; ++b) {
    const double x = v[b][0] * v[b][0] + v[b][1] * v[b][1] + v[b][2] * v[b][2] - 1;
    e += 3.0 / 16 * x * x;
    for (int c = b + 1; c < 4; ++c) {
      const double y = v[b][0] * v[c][0] + v[b][1] * v[c][1] + v[b][2] * v[c][2] + 1.0 / 3;
      e += 3.0 / 8 * beta_over_alpha * y * y;
    }
  }
  return e;
}

// A directory shared by the ranks of one mpiexec (named by its pid), removed by rank 0 when the test leaves it.
struct ScratchDir {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tbpeta_test_strain_" + std::to_string(getppid()));
  ScratchDir() { std::filesystem::create_directories(dir); }
  ~ScratchDir() {
    MPI_Barrier(PETSC_COMM_WORLD);
    std::error_code ec;
    if (test::commRank() == 0) std::filesystem::remove_all(dir, ec);
  }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
};

} // namespace

// A layer 1e-4 larger than its substrate, periodic in x and y at the substrate's lattice constant, free along z:
// e_zz / e_xx = -2 C12 / C11.
TEST(Strain, PseudomorphicLayerOfSmallMismatch) {
  TBPETA_ASSERT_RANKS();
  const ScratchDir scratch;
  const auto file = scratch.dir / "GaAs-larger.tbp";
  if (test::commRank() == 0)
    std::ofstream(file) << test::EditedParameterText(std::string(TBPETA_TEST_DATA_DIR) + "/params/nemo3d/GaAs.tbp",
                                                     "a_lattice", "a_lattice = 5.65376532");
  MPI_Barrier(PETSC_COMM_WORLD);
  TightBindingSystem sys;
  RelaxationReport r;
  ASSERT_EQ(Relaxed(PETSC_COMM_WORLD,
                    "-cells 1,1,8 -periodic 1,1,0 -params_file " + file.string() +
                        " -strain keating -strain_substrate AlAs -strain_snes_atol 1e-11 -strain_snes_max_it 5000",
                    &sys, &r),
            0);
  ASSERT_TRUE(r.converged);
  const MaterialParameters &layer = sys.model.materials[0];
  const double a = layer.a_lattice / 10, e_xx = sys.a_nm / a - 1, e_zz = MiddlePeriod(sys) / a - 1;
  EXPECT_NEAR(e_zz / e_xx,
              -2 * (layer.keating.alpha - layer.keating.beta) / (layer.keating.alpha + 3 * layer.keating.beta), 1e-3);
}

// InAs on GaAs (7 %): the quartic energy is not harmonic; e_zz is the minimum over e_zz of the biaxially strained
// cell's energy, found here by golden section on an energy coded in the test.
TEST(Strain, PseudomorphicInAsOnGaAs) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  RelaxationReport r;
  ASSERT_EQ(Relaxed(PETSC_COMM_WORLD,
                    "-cells 1,1,8 -periodic 1,1,0 -material InAs -strain keating -strain_substrate GaAs "
                    "-strain_snes_atol 1e-10 -strain_snes_max_it 5000",
                    &sys, &r),
            0);
  ASSERT_TRUE(r.converged);
  const MaterialParameters &inas = sys.model.materials[0];
  const double a = inas.a_lattice / 10, e_par = sys.a_nm / a - 1, ratio = inas.keating.beta / inas.keating.alpha;
  double lo = 0, hi = 0.2;
  for (int it = 0; it < 200; ++it) {
    const double m1 = lo + (hi - lo) * 0.381966, m2 = hi - (hi - lo) * 0.381966;
    if (BiaxialEnergy(e_par, m1, ratio) < BiaxialEnergy(e_par, m2, ratio)) hi = m2;
    else lo = m1;
  }
  const double expected = 0.5 * (lo + hi), e_zz = MiddlePeriod(sys) / a - 1;
  EXPECT_NEAR(e_zz, expected, 1e-4 * std::fabs(expected));
}

// An alloyed InGaAs dot in GaAs: the same relaxed atoms on this communicator with every partition as on one rank,
// in an open box (floppy edge atoms, six rigid motions) and in a wire periodic along x (which turns about x).
TEST(Strain, SameAtomsOnAnyRanksAndPartition) {
  TBPETA_ASSERT_RANKS();
  for (const char *box : {"-cells 3,3,3 -periodic 0,0,0", "-cells 3,4,3 -periodic 1,0,0"}) {
    SCOPED_TRACE(box);
    const std::string dot =
        std::string(box) +
        " -dot_material InAs -dot_radius 0.7 -dot_alloy GaAs,0.3 -alloy_seed 9 -strain keating -strain_snes_atol 1e-7 ";
    TightBindingSystem one;
    RelaxationReport r1;
    ASSERT_EQ(Relaxed(PETSC_COMM_SELF, dot, &one, &r1), 0);
    const std::vector<double> reference = GatherDisplacements(PETSC_COMM_SELF, one.structure);
    ASSERT_GT(MaxAbs(reference), 1e-3);
    for (const char *partition : {"slab", "column", "cube"}) {
      SCOPED_TRACE(partition);
      TightBindingSystem sys;
      RelaxationReport r;
      ASSERT_EQ(Relaxed(PETSC_COMM_WORLD, dot + "-partition " + partition, &sys, &r), 0);
      const std::vector<double> u = GatherDisplacements(PETSC_COMM_WORLD, sys.structure);
      double diff = 0;
      for (size_t k = 0; k < u.size(); ++k) diff = std::max(diff, std::fabs(u[k] - reference[k]));
      EXPECT_LT(diff, 1e-6);
      EXPECT_NEAR(r.energy, r1.energy, 1e-9 * r1.energy);
    }
  }
}

// A wetting layer alone (2 monolayers of InAs on a held GaAs substrate plane) in an open electronic box whose padded
// strain domain repeats laterally (-strain_lateral periodic): the layer continues through the domain, so it is
// pseudomorphic everywhere, at the electronic box's edge as at its centre: in-plane strain (a_GaAs - a_InAs)/a_InAs
// to 1e-4. With free lateral faces the same layer relaxes towards them, and its edge is not.
TEST(Strain, LaterallyPeriodicDomainKeepsAWettingLayerPseudomorphic) {
  TBPETA_ASSERT_RANKS();
  const std::string layer =
      "-params nemo3d -material GaAs -cells 4,4,4 -periodic 0,0,0 -dot_material InAs -dot_shape dome -dot_radius 0.01 "
      "-dot_wetting_layers 2 -dot_center 1.1306,1.1306,0.8480 -strain keating -strain_pad_cells 2,2,1 "
      "-strain_fix zmin -strain_snes_atol 1e-6 ";
  for (const char *lateral : {"periodic", "free"}) {
    SCOPED_TRACE(lateral);
    TightBindingSystem sys;
    RelaxationReport r;
    SystemStrain fields;
    ASSERT_EQ(Relaxed(PETSC_COMM_WORLD, layer + "-strain_lateral " + lateral, &sys, &r, &fields), 0);
    ASSERT_TRUE(r.converged);
    const double pseudomorphic = sys.model.materials[0].a_lattice / sys.model.materials[1].a_lattice - 1;
    double worst[2] = {0, 0}; // largest |e_xx - pseudomorphic|, |e_yy - pseudomorphic| over the layer's cations
    int count = 0;
    for (PetscInt i = 0; i < sys.structure.owned; ++i) {
      if (sys.structure.material[i] != 1 || sys.structure.sublattice(i) != Sublattice::cation) continue;
      for (int c = 0; c < 2; ++c) worst[c] = std::max(worst[c], std::fabs(fields.tensors[i][c] - pseudomorphic));
      ++count;
    }
    MPI_Allreduce(MPI_IN_PLACE, worst, 2, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
    EXPECT_EQ(count, 2 * 4 * 4 * 2); // 2 monolayers x 4 x 4 cells x 2 cations per cell and monolayer
    if (std::string(lateral) == "periodic") {
      EXPECT_LT(worst[0], 1e-4);
      EXPECT_LT(worst[1], 1e-4);
    } else EXPECT_GT(std::max(worst[0], worst[1]), 1e-3);
  }
}

// The electronic box relaxed inside a padded strain domain with free faces has the displacements of the same atoms of a
// larger box.
TEST(Strain, PaddedDomainEqualsLargerBox) {
  TBPETA_ASSERT_RANKS();
  const std::string dot = "-periodic 0,0,0 -dot_material InAs -dot_radius 0.5 -strain keating -strain_snes_atol 1e-7 ";
  TightBindingSystem padded, large;
  RelaxationReport rp, rl;
  SystemStrain fp, fl;
  ASSERT_EQ(
      Relaxed(PETSC_COMM_WORLD, dot + "-cells 2,2,2 -strain_pad_cells 1,1,1 -strain_lateral free", &padded, &rp, &fp),
      0);
  ASSERT_EQ(Relaxed(PETSC_COMM_WORLD, dot + "-cells 4,4,4", &large, &rl, &fl), 0);
  // The atoms on the faces of the electronic box get their energy and strain from all their bonds in the domain.
  std::vector<double> hp, hl;
  for (const Voigt &e : fp.tensors) hp.push_back(Hydrostatic(e));
  for (const Voigt &e : fl.tensors) hl.push_back(Hydrostatic(e));
  const std::vector<double> ep = GatherValues(PETSC_COMM_WORLD, padded.structure, fp.energy),
                            el = GatherValues(PETSC_COMM_WORLD, large.structure, fl.energy);
  const std::vector<double> sp = GatherValues(PETSC_COMM_WORLD, padded.structure, hp),
                            sl = GatherValues(PETSC_COMM_WORLD, large.structure, hl);
  EXPECT_EQ(rp.atoms, large.structure.total());
  EXPECT_NEAR(rp.energy, rl.energy, 1e-9 * rl.energy);
  const std::vector<double> up = GatherDisplacements(PETSC_COMM_WORLD, padded.structure),
                            ul = GatherDisplacements(PETSC_COMM_WORLD, large.structure);
  ASSERT_GT(MaxAbs(up), 1e-3);
  double diff = 0;
  const auto &n = padded.lattice.planes();
  for (int x = 0; x < n[0]; ++x)
    for (int y = 0; y < n[1]; ++y)
      for (int z = 0; z < n[2]; ++z) {
        if (!ZincblendeLattice::isSite({x, y, z})) continue;
        const long long i = padded.lattice.canonicalIndex({x, y, z}),
                        j = large.lattice.canonicalIndex({x + 4, y + 4, z + 4});
        for (int c = 0; c < 3; ++c) diff = std::max(diff, std::fabs(up[3 * i + c] - ul[3 * j + c]));
        EXPECT_NEAR(ep[i], el[j], 1e-8);
        EXPECT_NEAR(sp[i], sl[j], 1e-6);
        EXPECT_GT(std::fabs(sp[i]), 1e-5);
      }
  EXPECT_LT(diff, 1e-6);
}

// Held atoms stay where they are; the others move.
TEST(Strain, FixedBottomPlaneStaysInPlace) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  RelaxationReport r;
  ASSERT_EQ(
      Relaxed(PETSC_COMM_WORLD,
              "-cells 2,2,3 -periodic 1,1,0 -material InAs -strain keating -strain_substrate GaAs -strain_fix zmin",
              &sys, &r),
      0);
  ASSERT_TRUE(r.converged);
  const std::vector<double> u = GatherDisplacements(PETSC_COMM_WORLD, sys.structure);
  double bottom = 0;
  const auto &n = sys.lattice.planes();
  for (int x = 0; x < n[0]; ++x)
    for (int y = 0; y < n[1]; ++y)
      if (ZincblendeLattice::isSite({x, y, 0}))
        for (int c = 0; c < 3; ++c)
          bottom = std::max(bottom, std::fabs(u[3 * sys.lattice.canonicalIndex({x, y, 0}) + c]));
  EXPECT_EQ(bottom, 0.0);
  EXPECT_GT(MaxAbs(u), 1e-3);
}

// The local strain of each atom: zero in a perfect crystal, the applied strain under a homogeneous one.
TEST(Strain, TensorOfUniformlyScaledCrystal) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  RelaxationReport r;
  ASSERT_EQ(Relaxed(PETSC_COMM_WORLD,
                    "-cells 2,2,2 -periodic 1,1,1 -material InAs -strain keating -strain_substrate GaAs", &sys, &r),
            0);
  const double expected = sys.a_nm / (sys.model.materials[0].a_lattice / 10) - 1;
  for (const Voigt &e : StrainTensors(sys.structure, sys.model, sys.a_nm)) {
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(e[k], expected, 1e-12);
    for (int k = 3; k < 6; ++k) EXPECT_NEAR(e[k], 0.0, 1e-12);
  }
}

// The preconditioned minimiser's iterations do not grow with the box (plain L-BFGS's grow with its edge), and the
// preconditioned relaxation reaches the plain one's minimum.
TEST(Strain, PreconditionedIterationsDoNotGrowWithSize) {
  TBPETA_ASSERT_RANKS();
  auto dot = [](int n) {
    const double a = 0.56532, centre = n * a / 2;
    std::ostringstream o;
    o << "-cells " << n << "," << n << "," << n << " -periodic 0,0,0 -dot_material InAs -dot_radius " << n * a / 4
      << " -dot_center " << centre << "," << centre << "," << centre << " -strain keating ";
    return o.str();
  };
  PetscInt iterations[2][2];
  double energy[2][2];
  for (int size = 0; size < 2; ++size)
    for (int plain = 0; plain < 2; ++plain) {
      TightBindingSystem sys;
      RelaxationReport r;
      ASSERT_EQ(
          Relaxed(PETSC_COMM_WORLD, dot(4 + 4 * size) + (plain ? "-strain_snes_qn_scale_type scalar" : ""), &sys, &r),
          0);
      ASSERT_TRUE(r.converged);
      EXPECT_LE(r.max_force, 1e-3);
      iterations[size][plain] = r.iterations, energy[size][plain] = r.energy;
    }
  EXPECT_LE(iterations[1][0], iterations[0][0] + 3) << "preconditioned, 4 and 8 cells";
  EXPECT_GT(iterations[1][1], iterations[0][1] + 10) << "plain L-BFGS, 4 and 8 cells";
  EXPECT_LT(2 * iterations[1][0], iterations[1][1]);
  for (int size = 0; size < 2; ++size) EXPECT_NEAR(energy[size][0], energy[size][1], 1e-5 * energy[size][1]);
}

// The zero-energy motions (rigid motions and the floppy atoms' cone tangents) are removed from a step by an
// orthogonal projection: a rigid motion goes entirely, a step without them is left alone, and removing twice is
// removing once.
TEST(Strain, ZeroEnergyMotionsLeaveTheStep) {
  TBPETA_ASSERT_RANKS();
  struct Box {
    const char *options;
    int rigid;
    bool floppy;
  };
  for (const Box &box : {Box{"-cells 2,2,3 -periodic 0,0,0", 6, true}, Box{"-cells 2,2,3 -periodic 1,0,0", 4, false},
                         Box{"-cells 2,2,3 -periodic 1,1,0", 3, false}}) {
    SCOPED_TRACE(box.options);
    EnergyAt e;
    ZeroEnergyMotions zero;
    ASSERT_EQ(MakeEnergy(box.options, &e), 0);
    ASSERT_EQ(ZeroEnergyMotions::Create(PETSC_COMM_WORLD, e.energy, &zero), 0);
    EXPECT_EQ(zero.rigidCount(), box.rigid);
    EXPECT_EQ(zero.floppyAtoms() > 0, box.floppy);
    const Structure &s = e.sys.structure;
    const std::vector<PetscInt> canonical = s.canonicalAtoms();
    OwnedVec rigid, step, once, twice;
    ASSERT_EQ(VecDuplicate(e.u, rigid.out()), 0);
    ASSERT_EQ(VecDuplicate(e.u, step.out()), 0);
    PetscScalar *r, *a;
    ASSERT_EQ(VecGetArray(rigid, &r), 0);
    ASSERT_EQ(VecGetArray(step, &a), 0);
    for (PetscInt i = 0; i < s.owned; ++i) {
      const std::array<double, 3> x = s.position(i, e.sys.a_nm);
      const double w[3] = {box.rigid > 3 ? 0.01 : 0.0, box.rigid > 4 ? -0.02 : 0.0, box.rigid > 4 ? 0.03 : 0.0},
                   t[3] = {0.1, 0.2, -0.3};
      for (int c = 0; c < 3; ++c) {
        r[3 * i + c] = t[c] + w[(c + 1) % 3] * (x[(c + 2) % 3] - 0.3) - w[(c + 2) % 3] * (x[(c + 1) % 3] - 0.3);
        a[3 * i + c] = 1e-3 * UnitInterval(MixBits(3 * canonical[i] + c));
      }
    }
    ASSERT_EQ(VecRestoreArray(step, &a), 0);
    ASSERT_EQ(VecRestoreArray(rigid, &r), 0);
    PetscReal norm, change, left;
    ASSERT_EQ(zero.Remove(rigid), 0); // a rigid motion goes entirely
    ASSERT_EQ(VecNorm(rigid, NORM_INFINITY, &left), 0);
    EXPECT_LT(left, 1e-12);
    ASSERT_EQ(zero.Remove(step), 0);
    ASSERT_EQ(VecNorm(step, NORM_INFINITY, &norm), 0);
    EXPECT_GT(norm, 1e-4);
    ASSERT_EQ(VecDuplicate(step, twice.out()), 0);
    ASSERT_EQ(VecCopy(step, twice), 0);
    ASSERT_EQ(zero.Remove(twice), 0);
    ASSERT_EQ(VecAXPY(twice, -1.0, step), 0);
    ASSERT_EQ(VecNorm(twice, NORM_INFINITY, &change), 0);
    EXPECT_LT(change, 1e-15);
  }
}
