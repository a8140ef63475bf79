// The strained H (-strain keating): zero displacement gives today's H bit for bit on every operator; a uniformly
// scaled crystal has each two-centre integral at V(d0) s^-eta (against the Slater-Koster table evaluated here) and
// the Gamma spectrum of a hand-scaled parameter set; the on-site correction of a scaled bond in closed form; H is
// exactly Hermitian and commutes with time reversal; the five operators agree on strained structures (1, 2, 3
// ranks); a relaxed dot has the same levels on all ranks as on one; sets without strain data are refused unless
// -strain_tb_scaling harrison.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "system_fixture.hpp"
#include "test_support.hpp"
#include "model/BulkCell.hpp"
#include "operator/HamiltonianBlocks.hpp"
#include "operator/block/StrainedBondKernel.hpp"
#include "strain/SystemRelaxation.hpp"

using namespace tbpeta;
using tbpeta::test::BuildFromOptions;
using tbpeta::test::DisplaceAtoms;
using tbpeta::test::FirstMessage;
using tbpeta::test::SolveWith;

namespace {

using Complex = std::complex<double>;

struct Kind {
  const char *name;
  bool cache;
};
constexpr Kind kKinds[] = {{"aij", true}, {"baij", true}, {"stored_blocks", true}, {"shell", true}, {"shell", false}};

PetscErrorCode Product(const TightBindingSystem &sys, const Kind &kind, Vec *y) {
  return tbpeta::test::HashedProduct(sys, kind.name, kind.cache ? "" : "-shell_block_cache 0", y);
}

double MaxDifference(Vec a, Vec b) {
  Vec d;
  PetscReal n;
  VecDuplicate(a, &d);
  VecWAXPY(d, -1.0, b, a);
  VecNorm(d, NORM_INFINITY, &n);
  VecDestroy(&d);
  return n;
}

// The products of every operator of the strained system of `options` (atoms displaced by DisplaceAtoms) agree
// with the stored AIJ matrix to 1e-12 relative.
void ExpectOperatorsAgree(const std::string &options) {
  SCOPED_TRACE(options);
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, options, &sys), 0);
  DisplaceAtoms(&sys.structure);
  Vec ref;
  ASSERT_EQ(Product(sys, kKinds[0], &ref), 0);
  PetscReal scale;
  VecNorm(ref, NORM_INFINITY, &scale);
  for (const Kind &k : kKinds) {
    SCOPED_TRACE(std::string(k.name) + (k.cache ? "" : " (no block cache)"));
    Vec y;
    ASSERT_EQ(Product(sys, k, &y), 0);
    EXPECT_LE(MaxDifference(y, ref), 1e-12 * scale);
    VecDestroy(&y);
  }
  VecDestroy(&ref);
}

} // namespace

TEST(StrainedHamiltonian, ZeroDisplacementIsTheUnstrainedHBitForBit) {
  TBPETA_ASSERT_RANKS();
  // Open (passivated) and periodic at a general k, GaAs and Si; the strained model with every atom in place.
  for (const std::string base : {"-params nemo3d -material GaAs -cells 2,2,3 -periodic 0,0,0",
                                 "-params nemo3d -material Si -cells 2,2,2 -periodic 1,1,1 -k 0.13,0.27,0.41"}) {
    SCOPED_TRACE(base);
    TightBindingSystem ideal, strained;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, base, &ideal), 0);
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, base + " -strain keating", &strained), 0);
    ASSERT_TRUE(strained.model.strained.on);
    for (const Kind &k : kKinds) {
      SCOPED_TRACE(std::string(k.name) + (k.cache ? "" : " (no block cache)"));
      Vec a, b;
      ASSERT_EQ(Product(ideal, k, &a), 0);
      ASSERT_EQ(Product(strained, k, &b), 0);
      EXPECT_EQ(MaxDifference(a, b), 0.0);
      VecDestroy(&a), VecDestroy(&b);
    }
  }
}

namespace {

// The scaled bulk cell: 8 atoms of nemo3d `material`, every bond at s d0 (the lattice constant scaled, no
// displacement), strained model with or without the on-site correction.
struct ScaledCell {
  BulkCell cell;
  TightBindingModel ideal;
};
PetscErrorCode MakeScaledCell(const std::string &material, double s, bool onsite, ScaledCell *out) {
  TightBindingSystem sys;
  PetscFunctionBeginUser;
  PetscCall(BuildFromOptions(
      PETSC_COMM_SELF, "-params nemo3d -cells 1,1,1 -periodic 1,1,1 -strain keating -material " + material, &sys));
  out->ideal = sys.model;
  out->ideal.strained.on = false;
  PetscCall(CreateBulkCell(sys.model, 0, 1, &out->cell));
  out->cell.model.strained.onsite = onsite;
  out->cell.structure.a_nm *= s;
  PetscFunctionReturn(0);
}

// The set's integrals scaled by s^-eta by hand (the mapping of integral to exponent written out again here).
TwoCentreIntegrals HandScaled(const MaterialParameters &m, double s) {
  const StrainedBondParameters &e = m.strained;
  auto f = [s](double eta) { return std::pow(s, -eta); };
  TwoCentreIntegrals v = m.bond;
  v.ss_sigma *= f(e.ss_sigma), v.sstar_sstar_sigma *= f(e.sstar_sstar_sigma);
  v.s_a_sstar_c_sigma *= f(e.s_sstar_sigma), v.sstar_a_s_c_sigma *= f(e.s_sstar_sigma);
  v.s_a_p_c_sigma *= f(e.sp_sigma), v.s_c_p_a_sigma *= f(e.sp_sigma);
  v.sstar_a_p_c_sigma *= f(e.sstar_p_sigma), v.sstar_c_p_a_sigma *= f(e.sstar_p_sigma);
  v.s_a_d_c_sigma *= f(e.sd_sigma), v.s_c_d_a_sigma *= f(e.sd_sigma);
  v.sstar_a_d_c_sigma *= f(e.sstar_d_sigma), v.sstar_c_d_a_sigma *= f(e.sstar_d_sigma);
  v.pp_sigma *= f(e.pp_sigma), v.pp_pi *= f(e.pp_pi);
  v.p_a_d_c_sigma *= f(e.pd_sigma), v.p_c_d_a_sigma *= f(e.pd_sigma), v.p_a_d_c_pi *= f(e.pd_pi),
      v.p_c_d_a_pi *= f(e.pd_pi);
  v.dd_sigma *= f(e.dd_sigma), v.dd_pi *= f(e.dd_pi), v.dd_delta *= f(e.dd_delta);
  return v;
}

} // namespace

TEST(StrainedHamiltonian, UniformScalingScalesEachIntegral) {
  const double s = 1.02;
  ScaledCell c;
  ASSERT_EQ(MakeScaledCell("GaAs", s, false, &c), 0);
  const MaterialParameters &m = c.cell.model.materials[0];
  const TwoCentreIntegrals v = HandScaled(m, s);
  const HamiltonianBlocks blocks(c.cell.structure, c.cell.model, {0, 0, 0});
  const int bs = blocks.blockSize();
  std::vector<Complex> B((size_t)bs * bs);
  int checked = 0;
  for (PetscInt i = 0; i < c.cell.structure.owned; ++i) {
    if (c.cell.structure.sublattice(i) != Sublattice::anion) continue;
    for (int b = 0; b < 4; ++b) {
      blocks.bond(i, b, B.data());
      const auto &d = ZincblendeLattice::kAnionBonds[b];
      const double l = d[0] / std::sqrt(3.0), mm = d[1] / std::sqrt(3.0), n = d[2] / std::sqrt(3.0);
      auto at = [&](int r, int col) { return B[(size_t)r * bs + col].real(); };
      // Slater & Koster, Table I, with the anion on the row: s-s, s-p_x, p_x-p_x, p_x-p_y, s-d_xy, d_z2-s, s*-s*.
      EXPECT_NEAR(at(kS, kS), v.ss_sigma, 1e-13);
      EXPECT_NEAR(at(kS, kPx), l * v.s_a_p_c_sigma, 1e-13);
      EXPECT_NEAR(at(kPx, kS), -l * v.s_c_p_a_sigma, 1e-13);
      EXPECT_NEAR(at(kPx, kPx), l * l * v.pp_sigma + (1 - l * l) * v.pp_pi, 1e-13);
      EXPECT_NEAR(at(kPx, kPy), l * mm * (v.pp_sigma - v.pp_pi), 1e-13);
      EXPECT_NEAR(at(kS, kDxy), std::sqrt(3.0) * l * mm * v.s_a_d_c_sigma, 1e-13);
      EXPECT_NEAR(at(kDz2, kS), (n * n - 0.5 * (l * l + mm * mm)) * v.s_c_d_a_sigma, 1e-13);
      EXPECT_NEAR(at(kSstar, kSstar), v.sstar_sstar_sigma, 1e-13);
      EXPECT_NEAR(at(kPx + 10, kPy + 10), l * mm * (v.pp_sigma - v.pp_pi), 1e-13); // the other spin
      ++checked;
    }
  }
  EXPECT_EQ(checked, 16);
}

TEST(StrainedHamiltonian, UniformScalingShiftsTheGammaSpectrumAsTheScaledSet) {
  for (const char *material : {"GaAs", "InAs", "Si"}) {
    SCOPED_TRACE(material);
    const double s = 0.985;
    ScaledCell c;
    ASSERT_EQ(MakeScaledCell(material, s, false, &c), 0);
    HamiltonianOptions opts;
    Mat H;
    std::vector<double> strained, expected, unstrained;
    ASSERT_EQ(CreateHamiltonian(PETSC_COMM_SELF, c.cell.structure, c.cell.model, {0, 0, 0}, opts, &H), 0);
    ASSERT_EQ(AllEigenvalues(H, &strained), 0);
    MatDestroy(&H);
    // The same cell unstrained, with the integrals scaled in the parameter set instead.
    BulkCell hand;
    TightBindingModel scaled = c.ideal;
    scaled.materials[0].bond = HandScaled(scaled.materials[0], s);
    ASSERT_EQ(CreateBulkCell(scaled, 0, 1, &hand), 0);
    ASSERT_EQ(CreateHamiltonian(PETSC_COMM_SELF, hand.structure, hand.model, {0, 0, 0}, opts, &H), 0);
    ASSERT_EQ(AllEigenvalues(H, &expected), 0);
    MatDestroy(&H);
    ASSERT_EQ(strained.size(), expected.size());
    double shift = 0;
    for (size_t k = 0; k < strained.size(); ++k) EXPECT_NEAR(strained[k], expected[k], 1e-10);
    // And compression does move the levels (the test would pass on an unscaled H otherwise).
    ASSERT_EQ(CreateBulkCell(c.ideal, 0, 1, &hand), 0);
    ASSERT_EQ(CreateHamiltonian(PETSC_COMM_SELF, hand.structure, hand.model, {0, 0, 0}, opts, &H), 0);
    ASSERT_EQ(AllEigenvalues(H, &unstrained), 0);
    MatDestroy(&H);
    for (size_t k = 0; k < strained.size(); ++k) shift = std::max(shift, std::fabs(strained[k] - unstrained[k]));
    EXPECT_GT(shift, 0.05);
  }
}

TEST(StrainedHamiltonian, OnsiteCorrectionOfAScaledBondInClosedForm) {
  // The s orbital of an anion in a scaled crystal: its 4 bonds each add
  // scale * sum_beta C_s,beta V_s,beta^2 (1 - s^-2 eta) / (E'_s + E'_beta), since along an ideal bond the squares of
  // the s-row elements to the p and d orbitals of the cation sum to V_sp sigma^2 and V_sd sigma^2.
  const double s = 1.015;
  ScaledCell with, without;
  ASSERT_EQ(MakeScaledCell("InAs", s, true, &with), 0);
  ASSERT_EQ(MakeScaledCell("InAs", s, false, &without), 0);
  const MaterialParameters &m = with.cell.model.materials[0];
  const StrainedBondParameters &e = m.strained;
  const double Ea = m.anion_onsite.s - e.shift_anion;
  auto term = [&](double C, double V, double eta, double Ec) {
    return C * V * V * (1 - std::pow(s, -2 * eta)) / (Ea + Ec - e.shift_cation);
  };
  const double expected =
      4 * e.onsite_scale *
      (term(e.C[kKindS][kKindS], m.bond.ss_sigma, e.ss_sigma, m.cation_onsite.s) +
       term(e.C[kKindS][kKindSstar], m.bond.s_a_sstar_c_sigma, e.s_sstar_sigma, m.cation_onsite.sstar) +
       term(e.C[kKindS][kKindP], m.bond.s_a_p_c_sigma, e.sp_sigma, m.cation_onsite.p) +
       term(e.C[kKindS][kKindD], m.bond.s_a_d_c_sigma, e.sd_sigma, m.cation_onsite.d));
  const HamiltonianBlocks a(with.cell.structure, with.cell.model, {0, 0, 0}),
      b(without.cell.structure, without.cell.model, {0, 0, 0});
  PetscInt anion = 0;
  while (with.cell.structure.sublattice(anion) != Sublattice::anion) ++anion;
  const double shift = a.onsiteTerms(anion).diag[kS] - b.onsiteTerms(anion).diag[kS];
  EXPECT_NEAR(shift, expected, 1e-12);
  EXPECT_GT(std::fabs(shift), 1e-4); // InAs's C_ss is not zero: the correction is really there
}

TEST(StrainedHamiltonian, HermitianAndTimeReversalSymmetric) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD,
                             "-params nemo3d -material GaAs -cells 3,2,2 -periodic 0,0,0 -dot_material InAs "
                             "-dot_radius 0.5 -strain keating",
                             &sys),
            0);
  DisplaceAtoms(&sys.structure);
  Mat H;
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H), 0);
  PetscBool hermitian = PETSC_FALSE;
  ASSERT_EQ(MatIsHermitian(H, 0.0, &hermitian), 0);
  EXPECT_TRUE(hermitian);
  // Time reversal Theta (up, down) = (-conj(down), conj(up)) per atom commutes with H: Kramers pairs at k = 0.
  const int norb = sys.model.orbitals(), bs = sys.model.blockSize();
  Vec x, tx, y, ty, z;
  ASSERT_EQ(tbpeta::test::HashedVector(H, &x), 0);
  VecDuplicate(x, &tx), VecDuplicate(x, &y), VecDuplicate(x, &ty), VecDuplicate(x, &z);
  auto reverse = [&](Vec from, Vec to) {
    const PetscScalar *f;
    PetscScalar *t;
    PetscInt n;
    VecGetLocalSize(from, &n);
    VecGetArrayRead(from, &f), VecGetArray(to, &t);
    for (PetscInt a = 0; a < n; a += bs)
      for (int o = 0; o < norb; ++o) t[a + o] = -PetscConj(f[a + norb + o]), t[a + norb + o] = PetscConj(f[a + o]);
    VecRestoreArrayRead(from, &f), VecRestoreArray(to, &t);
  };
  reverse(x, tx);
  MatMult(H, x, y);
  MatMult(H, tx, ty);
  reverse(y, z);
  PetscReal scale;
  VecNorm(y, NORM_INFINITY, &scale);
  EXPECT_LE(MaxDifference(ty, z), 1e-13 * scale);
  VecDestroy(&x), VecDestroy(&tx), VecDestroy(&y), VecDestroy(&ty), VecDestroy(&z);
  MatDestroy(&H);
}

TEST(StrainedHamiltonian, OperatorsAgreeOnStrainedStructures) {
  TBPETA_ASSERT_RANKS();
  // An alloyed dot with open faces, a periodic crystal at a general k (Bloch phases on strained bonds), Si, and a set
  // without strain data under Harrison's scaling.
  ExpectOperatorsAgree("-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,1 -host_alloy InAs,0.3 -alloy_seed 7 "
                       "-dot_material InAs -dot_radius 0.5 -strain keating");
  ExpectOperatorsAgree("-params nemo3d -material InAs -cells 2,2,3 -periodic 1,1,1 -k 0.13,0.27,0.41 -strain keating");
  ExpectOperatorsAgree(
      "-params nemo3d -material Si -cells 2,3,2 -periodic 1,0,0 -k 0.2,0,0 -strain keating -strain_onsite none");
  ExpectOperatorsAgree("-params jancu1998 -material GaAs -cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius "
                       "0.4 -strain keating -strain_tb_scaling harrison");
}

TEST(StrainedHamiltonian, PassivationKeepsTheIdealDirection) {
  TightBindingSystem a, b;
  ASSERT_EQ(BuildFromOptions(
                PETSC_COMM_SELF,
                "-params nemo3d -material GaAs -cells 2,2,2 -periodic 0,0,0 -strain keating -strain_onsite none", &a),
            0);
  ASSERT_EQ(BuildFromOptions(
                PETSC_COMM_SELF,
                "-params nemo3d -material GaAs -cells 2,2,2 -periodic 0,0,0 -strain keating -strain_onsite none", &b),
            0);
  DisplaceAtoms(&b.structure);
  const HamiltonianBlocks ha(a.structure, a.model, {0, 0, 0}), hb(b.structure, b.model, {0, 0, 0});
  int passivated = 0;
  for (PetscInt i = 0; i < a.structure.owned; ++i) {
    const auto ta = ha.onsiteTerms(i), tb = hb.onsiteTerms(i);
    if (!ta.passivated) continue;
    ++passivated;
    EXPECT_TRUE(ta.passivation == tb.passivation);
  }
  EXPECT_GT(passivated, 0);
}

TEST(StrainedHamiltonian, RelaxedDotHasTheSameLevelsOnEveryRankCount) {
  TBPETA_ASSERT_RANKS();
  const std::string options = "-params nemo3d -material GaAs -cells 3,3,3 -periodic 0,0,0 -dot_material InAs "
                              "-dot_radius 0.7 -strain keating -strain_snes_atol 1e-7";
  const std::string solve = "-eps_type krylovschur -eps_nev 4 -eps_tol 1e-12 -st_type sinvert -st_pc_type lu "
                            "-st_pc_factor_mat_solver_type mumps";
  std::vector<double> levels[2];
  const MPI_Comm comms[2] = {PETSC_COMM_WORLD, PETSC_COMM_SELF};
  for (int c = 0; c < 2; ++c) {
    TightBindingSystem sys;
    SystemStrain strain;
    ASSERT_EQ(BuildFromOptions(comms[c], options, &sys), 0);
    ASSERT_EQ(RelaxSystem(comms[c], &sys, &strain), 0);
    HamiltonianOptions opts;
    Mat H;
    EigenStates states;
    ASSERT_EQ(CreateHamiltonian(comms[c], sys.structure, sys.model, {0, 0, 0}, opts, &H), 0);
    ASSERT_EQ(SolveWith(H, 1.3, solve, &states), 0);
    ASSERT_GE(states.values.size(), 4u);
    levels[c].assign(states.values.begin(), states.values.begin() + 4); // the 4 nearest the target
    MatDestroy(&H);
  }
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(levels[0][k], levels[1][k], 1e-8);
  PetscOptionsClear(nullptr);
}

TEST(StrainedHamiltonian, SetsWithoutStrainDataAreRefusedUnlessHarrison) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD,
                             "-params jancu1998 -material GaAs -cells 1,1,1 -periodic 1,1,1 -strain keating", &sys),
            0);
  Mat H = nullptr;
  std::string message;
  EXPECT_EQ(FirstMessage([&] { return tbpeta::test::MakeOperator(sys, "aij", &H); }, &message), PETSC_ERR_USER_INPUT);
  EXPECT_NE(message.find("jancu1998"), std::string::npos) << message;
  EXPECT_NE(message.find("GaAs"), std::string::npos) << message;
  EXPECT_NE(message.find("eta_"), std::string::npos) << message;
  EXPECT_NE(message.find("-strain_tb_scaling harrison"), std::string::npos) << message;
  sys.model.strained.scaling = BondScaling::harrison;
  EXPECT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H), 0);
  MatDestroy(&H);
  PetscOptionsClear(nullptr);
}

// The on-the-fly operator's bond-length factors (series in each range, the library's exp beyond) against pow, for
// bonds from 30 % shorter to 30 % longer than d0, for every shipped material with strain data.
TEST(StrainedHamiltonian, OnTheFlyScalingEqualsThePower) {
  for (const char *material : {"GaAs", "InAs", "Si"}) {
    TightBindingSystem sys;
    ASSERT_EQ(BuildFromOptions(PETSC_COMM_SELF,
                               std::string("-params nemo3d -cells 1,1,1 -strain keating -material ") + material, &sys),
              0);
    const MaterialParameters &m = sys.model.materials[0];
    for (bool anion_row : {true, false}) {
      const double d0sq = UnstrainedBondLength2(m);
      const RowIntegrals R = MakeRowIntegrals(m, anion_row, false, d0sq);
      for (double stretch = 0.7; stretch <= 1.3; stretch += 0.0125) {
        // four bonds at once, along (1, 1, 1), (-1, -1, 1), (1, -1, -1) and (-1, 1, -1), stretched by 0.4 % more each:
        // near |d0^2 - d^2| = 0.1 (d0^2 + d^2) some lanes take the logarithm's series and the others the library's
        const double signs[3][4] = {{1, -1, 1, -1}, {1, -1, -1, 1}, {1, 1, -1, -1}};
        BondLanes r[3];
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 4; ++b) r[a][b] = signs[a][b] * std::sqrt(d0sq / 3) * (stretch + 0.004 * b);
        BondGeometry g;
        MeasureBonds(r[0], r[1], r[2], BondLanes{d0sq, d0sq, d0sq, d0sq}, &g);
        for (int b = 0; b < 4; ++b) {
          for (int a = 0; a < 3; ++a) EXPECT_NEAR(g.n[a][b], signs[a][b] / std::sqrt(3.0), 1e-15);
          const double s = stretch + 0.004 * b;
          EXPECT_NEAR(g.len2[b], d0sq * s * s, 1e-15 * d0sq);
          double V[24];
          strained_kernel::ScaleIntegrals(R, g.len2[b], g.log_ratio[b], V);
          for (int k = 0; k < kRowIntegrals; ++k) {
            const double expected = R.v[k] * std::pow(d0sq / g.len2[b], R.half_eta[k]);
            EXPECT_NEAR(V[k], expected, 2e-15 * std::fabs(expected))
                << m.material << " stretch " << stretch << " integral " << k;
          }
        }
      }
    }
  }
  PetscOptionsClear(nullptr);
}
