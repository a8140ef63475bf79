// The momentum matrix elements of tight binding, p = (i m0 / hbar) [H, r] on the bonds: the commutator applied with
// any operator kind equals the explicit bond sum (relaxed, periodic, at a Bloch vector); it is the velocity dH/dk of
// a periodic crystal; exact eigenvectors satisfy <c|p|v> = i m0 w_cv <c|r|v>; and the transitions' sums over a
// level's subspace do not depend on the basis a solver picked inside it.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "operator/BondCommutator.hpp"
#include "operator/HamiltonianBlocks.hpp"
#include "model/StrainedBonds.hpp"
#include "optics/BoundStates.hpp"
#include "optics/MomentumElements.hpp"
#include "optics/OpticalTransitions.hpp"
#include "strain/SystemRelaxation.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;
using tbpeta::test::BuildFromOptions;
using Complex = std::complex<double>;

namespace {

// D_a = sum_ij H_ij d_ij,a with d the actual bond vector, assembled bond by bond (the definition, for comparison).
PetscErrorCode ExplicitBondSum(const Structure &s, const TightBindingModel &model, std::array<double, 3> k, int axis,
                               Mat *D) {
  const HamiltonianBlocks blocks(s, model, k);
  const int bs = blocks.blockSize();
  std::vector<Complex> blk((size_t)bs * bs);
  PetscFunctionBeginUser;
  PetscCall(MatCreateBAIJ(PETSC_COMM_WORLD, bs, s.owned * bs, s.owned * bs, PETSC_DETERMINE, PETSC_DETERMINE, 5,
                          nullptr, 5, nullptr, D));
  for (PetscInt i = 0; i < s.owned; ++i)
    for (int b = 0; b < 4; ++b) {
      const PetscInt j = s.bonds[i][b];
      if (j < 0) continue;
      const std::array<double, 3> ui = s.displacementOf(i), uj = s.displacementOf(j),
                                  d = StrainedIdealBond(ZincblendeLattice::bondVector(s.sites[i], b), s.a_nm / 4,
                                                        s.strain);
      blocks.bond(i, b, blk.data());
      for (Complex &z : blk) z *= d[axis] + uj[axis] - ui[axis];
      const PetscInt row = s.globalIndex(i), col = s.globalIndex(j);
      PetscCall(MatSetValuesBlocked(*D, 1, &row, 1, &col, reinterpret_cast<PetscScalar *>(blk.data()), ADD_VALUES));
    }
  PetscCall(MatAssemblyBegin(*D, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*D, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

PetscErrorCode RandomVector(Mat H, Vec *x) {
  PetscRandom r;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(H, x, nullptr));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &r));
  PetscCall(PetscRandomSetSeed(r, 7));
  PetscCall(PetscRandomSeed(r));
  PetscCall(VecSetRandom(*x, r));
  PetscCall(PetscRandomDestroy(&r));
  PetscFunctionReturn(0);
}

double RelativeDifference(Vec a, Vec b) {
  Vec d;
  PetscReal nd, nb;
  VecDuplicate(a, &d);
  VecWAXPY(d, -1.0, b, a);
  VecNorm(d, NORM_2, &nd), VecNorm(b, NORM_2, &nb);
  VecDestroy(&d);
  return nd / nb;
}

} // namespace

// A relaxed InAs dot, periodic in x and y, at a Bloch vector off Gamma: every operator kind's commutator equals the
// bond sum, with the bonds across the periodic faces weighted by their images' vectors.
TEST(Optics, CommutatorIsTheBondSumInEveryOperator) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  SystemStrain strain;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD,
                             "-params nemo3d -material GaAs -cells 3,3,3 -periodic 1,1,0 -k 0.11,0.07,0 "
                             "-dot_material InAs -dot_radius 0.6 -strain keating",
                             &sys),
            0);
  ASSERT_EQ(RelaxSystem(PETSC_COMM_WORLD, &sys, &strain), 0);
  ASSERT_FALSE(sys.structure.displacement.empty());
  Mat D[3];
  for (int a = 0; a < 3; ++a) ASSERT_EQ(ExplicitBondSum(sys.structure, sys.model, sys.spec.cell.k, a, &D[a]), 0);
  for (const char *kind : {"aij", "baij", "stored_blocks", "shell"}) {
    SCOPED_TRACE(kind);
    Mat H;
    ASSERT_EQ(tbpeta::test::MakeOperator(sys, kind, &H), 0);
    BondCommutator C;
    ASSERT_EQ(BondCommutator::Create(PETSC_COMM_WORLD, sys.structure, sys.model, sys.spec.cell.k, H, &C), 0);
    EXPECT_TRUE(C.hasImages());
    Vec x, y, z;
    ASSERT_EQ(RandomVector(H, &x), 0);
    VecDuplicate(x, &y), VecDuplicate(x, &z);
    for (int a = 0; a < 3; ++a) {
      ASSERT_EQ(C.Apply(a, x, y), 0);
      MatMult(D[a], x, z);
      EXPECT_LT(RelativeDifference(y, z), 1e-12) << "axis " << a;
    }
    VecDestroy(&x), VecDestroy(&y), VecDestroy(&z), MatDestroy(&H);
  }
  for (Mat &d : D) MatDestroy(&d);
  PetscOptionsClear(nullptr);
}

// A periodic GaAs crystal (sp3d5s* with spin-orbit): at k = 0, i C_a is dH/dk_a of H(k) carrying the phases of the
// actual bond vectors, U(k)^H H(k) U(k) with U = diag(exp(i k.r)), by a symmetric difference.
TEST(Optics, CommutatorIsTheVelocityOfAPeriodicCrystal) {
  TBPETA_ASSERT_RANKS();
  TightBindingSystem sys;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, "-params nemo3d -material GaAs -cells 2,2,2 -periodic 1,1,1", &sys), 0);
  const Structure &s = sys.structure;
  const int bs = sys.model.blockSize();
  const double h = 1e-4, to_nm = 2 * M_PI / s.a_nm; // k in 2 pi / a
  Mat H0;
  ASSERT_EQ(tbpeta::test::MakeOperator(sys, "aij", &H0), 0);
  BondCommutator C;
  ASSERT_EQ(BondCommutator::Create(PETSC_COMM_WORLD, s, sys.model, {0, 0, 0}, H0, &C), 0);
  Vec x, y, u, hu, fd;
  ASSERT_EQ(RandomVector(H0, &x), 0);
  VecDuplicate(x, &y), VecDuplicate(x, &u), VecDuplicate(x, &hu), VecDuplicate(x, &fd);
  for (int a = 0; a < 3; ++a) {
    VecSet(fd, 0.0);
    for (int sign : {1, -1}) {
      std::array<double, 3> k{0, 0, 0};
      k[a] = sign * h;
      Mat Hk;
      HamiltonianOptions opts;
      ASSERT_EQ(CreateHamiltonian(PETSC_COMM_WORLD, s, sys.model, k, opts, &Hk), 0);
      // u = U x, hu = U^H H(k) U x
      PetscScalar *pu;
      const PetscScalar *px;
      VecGetArrayRead(x, &px), VecGetArray(u, &pu);
      std::vector<Complex> phase((size_t)s.owned);
      for (PetscInt i = 0; i < s.owned; ++i) {
        const double theta = k[a] * to_nm * StrainedPosition(s, i)[a];
        phase[i] = Complex(std::cos(theta), std::sin(theta));
        for (int c = 0; c < bs; ++c) pu[i * bs + c] = phase[i] * px[i * bs + c];
      }
      VecRestoreArrayRead(x, &px), VecRestoreArray(u, &pu);
      MatMult(Hk, u, hu);
      VecGetArray(hu, &pu);
      for (PetscInt i = 0; i < s.owned; ++i)
        for (int c = 0; c < bs; ++c) pu[i * bs + c] *= std::conj(phase[i]);
      VecRestoreArray(hu, &pu);
      VecAXPY(fd, sign / (2 * h * to_nm), hu);
      MatDestroy(&Hk);
    }
    ASSERT_EQ(C.Apply(a, x, y), 0);
    VecScale(y, PetscScalar(0, 1)); // i C_a
    EXPECT_LT(RelativeDifference(fd, y), 1e-6) << "axis " << a;
  }
  VecDestroy(&x), VecDestroy(&y), VecDestroy(&u), VecDestroy(&hu), VecDestroy(&fd), MatDestroy(&H0);
  PetscOptionsClear(nullptr);
}

namespace {

// A small open InAs/GaAs cluster solved densely on each rank alone: its states and the elements between the 4
// states below and the 4 above the midgap. read: the state reader (default: the eigenvectors as the solver gave them).
struct DenseCluster {
  TightBindingSystem sys;
  Mat H = nullptr;
  EPS eps = nullptr;
  EigenStates states;
  std::vector<size_t> c, v;
  ~DenseCluster() { EPSDestroy(&eps), MatDestroy(&H); }
  PetscErrorCode Build(const std::string &options = "-params klimeck2000 -material GaAs -cells 2,2,2 -periodic "
                                                    "0,0,0 -dot_material InAs -dot_radius 0.4") {
    PetscFunctionBeginUser;
    PetscCall(BuildFromOptions(PETSC_COMM_SELF, options, &sys));
    HamiltonianOptions opts;
    PetscCall(CreateHamiltonian(PETSC_COMM_SELF, sys.structure, sys.model, {0, 0, 0}, opts, &H));
    PetscCall(tbpeta::test::SolveWith(H, 0.7, "-eps_type lapack -eps_nev 8", &states, nullptr, &eps));
    // (dense LAPACK gives every state) the 4 nearest below and above the midgap
    for (size_t k = 0; k < states.values.size(); ++k)
      if (states.values[k] > 0.7 && c.size() < 4) c.push_back(k);
      else if (states.values[k] < 0.7) v.push_back(k);
    v.erase(v.begin(), v.end() - 4);
    PetscFunctionReturn(0);
  }
};

} // namespace

// Exact eigenvectors: M_a(c, v) = <c|[H, r_a]|v> = (E_c - E_v) <c|r_a|v>, to 1e-8 of the largest element.
TEST(Optics, ExactEigenvectorsSatisfyTheDipoleIdentity) {
  TBPETA_ASSERT_RANKS();
  DenseCluster d;
  ASSERT_EQ(d.Build(), 0);
  ASSERT_EQ(d.c.size(), 4u);
  ASSERT_EQ(d.v.size(), 4u);
  BondCommutator C;
  ASSERT_EQ(BondCommutator::Create(PETSC_COMM_SELF, d.sys.structure, d.sys.model, {0, 0, 0}, d.H, &C), 0);
  EXPECT_FALSE(C.hasImages());
  MomentumElements M;
  const StateReader read = [&](size_t k, Vec x) { return StateVector(d.eps, d.states, k, x); };
  ASSERT_EQ(ComputeMomentumElements(C, d.H, d.c, d.v, read, &M), 0);
  const Structure &s = d.sys.structure;
  const int bs = d.sys.model.blockSize();
  Vec xc, xv;
  MatCreateVecs(d.H, &xc, &xv);
  double largest = 0, worst = 0;
  for (size_t ic = 0; ic < d.c.size(); ++ic)
    for (size_t iv = 0; iv < d.v.size(); ++iv) {
      read(d.c[ic], xc), read(d.v[iv], xv);
      const PetscScalar *pc, *pv;
      VecGetArrayRead(xc, &pc), VecGetArrayRead(xv, &pv);
      for (int a = 0; a < 3; ++a) {
        Complex r = 0; // <c| r_a |v>
        for (PetscInt i = 0; i < s.owned; ++i)
          for (int o = 0; o < bs; ++o) r += std::conj(pc[i * bs + o]) * StrainedPosition(s, i)[a] * pv[i * bs + o];
        const Complex expected = (d.states.values[d.c[ic]] - d.states.values[d.v[iv]]) * r;
        largest = std::max(largest, std::abs(M.at(ic, iv)[a]));
        worst = std::max(worst, std::abs(M.at(ic, iv)[a] - expected));
      }
      VecRestoreArrayRead(xc, &pc), VecRestoreArrayRead(xv, &pv);
    }
  EXPECT_GT(largest, 1e-3); // eV nm: bright transitions among them
  EXPECT_LT(worst, 1e-8 * largest);
  VecDestroy(&xc), VecDestroy(&xv);
  PetscOptionsClear(nullptr);
}

// Phases on every state and a rotation inside each Kramers pair change no sum over a level.
TEST(Optics, LevelSumsDoNotDependOnTheBasisInsideALevel) {
  TBPETA_ASSERT_RANKS();
  DenseCluster d;
  ASSERT_EQ(d.Build(), 0);
  BondCommutator C;
  ASSERT_EQ(BondCommutator::Create(PETSC_COMM_SELF, d.sys.structure, d.sys.model, {0, 0, 0}, d.H, &C), 0);
  std::vector<double> ec, ev;
  for (size_t k : d.c) ec.push_back(d.states.values[k]);
  for (size_t k : d.v) ev.push_back(d.states.values[k]);
  const StateReader plain = [&](size_t k, Vec x) { return StateVector(d.eps, d.states, k, x); };
  // Pairs (k, k+1) of equal energy mixed by a unitary 2 x 2 with phases; lone states take a phase.
  const StateReader mixed = [&](size_t k, Vec x) -> PetscErrorCode {
    PetscFunctionBeginUser;
    const size_t first = k % 2 == 0 ? k : k - 1;
    Vec a, b;
    PetscCall(VecDuplicate(x, &a));
    PetscCall(VecDuplicate(x, &b));
    PetscCall(plain(first, a));
    PetscCall(plain(first + 1, b));
    const double phi = 0.3 + 0.1 * (double)first, chi = 1.1 * (double)first; // one unitary per pair
    const Complex e(std::cos(chi), std::sin(chi));
    const Complex ca = k == first ? Complex(std::cos(phi)) : -std::sin(phi) * std::conj(e),
                  cb = k == first ? std::sin(phi) * e : Complex(std::cos(phi));
    PetscCall(VecAXPBYPCZ(x, ca, cb, 0.0, a, b));
    PetscCall(VecDestroy(&a));
    PetscCall(VecDestroy(&b));
    PetscFunctionReturn(0);
  };
  for (size_t k = 0; k + 1 < d.states.values.size(); k += 2)
    ASSERT_NEAR(d.states.values[k], d.states.values[k + 1], 1e-9); // Kramers pairs, in order
  MomentumElements M[2];
  ASSERT_EQ(ComputeMomentumElements(C, d.H, d.c, d.v, plain, &M[0]), 0);
  ASSERT_EQ(ComputeMomentumElements(C, d.H, d.c, d.v, mixed, &M[1]), 0);
  std::vector<Level> lc, lv;
  const auto t0 = ComputeTransitions(M[0], ec, ev, 1e-6, 3.5, &lc, &lv);
  const auto t1 = ComputeTransitions(M[1], ec, ev, 1e-6, 3.5, &lc, &lv);
  ASSERT_EQ(lc.size(), 2u);
  ASSERT_EQ(lv.size(), 2u);
  ASSERT_EQ(t0.size(), 4u);
  double largest = 0;
  for (const Transition &t : t0) largest = std::max(largest, t.momentum2[0] + t.momentum2[1] + t.momentum2[2]);
  EXPECT_GT(largest, 0.1); // eV
  for (size_t n = 0; n < t0.size(); ++n)
    for (int e = 0; e < kPolarisations; ++e) EXPECT_NEAR(t0[n].momentum2[e], t1[n].momentum2[e], 1e-10 * largest);
  PetscOptionsClear(nullptr);
}

// An InAs sphere centred on an atom of a periodic GaAs supercell has the point group Td: for every pair of whole levels
// the sums along x, y and z are equal, and [110] equals [1-10], to 1e-8: an isotropic emitter, whose TE = (x + y) / 2
// equals TM and whose degree of polarisation is 0 along both in-plane directions.
TEST(Optics, TdSphereRadiatesAlikeAlongEveryCubicAxis) {
  TBPETA_ASSERT_RANKS();
  DenseCluster d;
  ASSERT_EQ(d.Build("-params klimeck2000 -material GaAs -cells 2,2,2 -periodic 1,1,1 -dot_material InAs "
                    "-dot_radius 0.45 -dot_center 0.56532,0.56532,0.56532"),
            0);
  // whole levels: every state of the two levels nearest the midgap on each side (dense LAPACK gives them all)
  std::vector<size_t> c, v;
  std::vector<double> ec, ev;
  const std::vector<Level> all = GroupLevels(d.states.values, 1e-6);
  size_t first_c = 0;
  while (first_c < all.size() && all[first_c].energy < 0.7) ++first_c;
  ASSERT_GE(first_c, 2u);
  for (size_t l : {first_c - 2, first_c - 1, first_c, first_c + 1})
    for (size_t k = all[l].first; k < all[l].first + all[l].count; ++k)
      (l >= first_c ? c : v).push_back(k), (l >= first_c ? ec : ev).push_back(d.states.values[k]);
  BondCommutator C;
  ASSERT_EQ(BondCommutator::Create(PETSC_COMM_SELF, d.sys.structure, d.sys.model, {0, 0, 0}, d.H, &C), 0);
  MomentumElements M;
  const StateReader read = [&](size_t k, Vec x) { return StateVector(d.eps, d.states, k, x); };
  ASSERT_EQ(ComputeMomentumElements(C, d.H, c, v, read, &M), 0);
  std::vector<Level> lc, lv;
  const auto t = ComputeTransitions(M, ec, ev, 1e-6, 3.5, &lc, &lv);
  ASSERT_EQ(t.size(), 4u);
  double brightest = 0;
  for (const Transition &r : t) brightest = std::max(brightest, r.momentum2[0]);
  EXPECT_GT(brightest, 0.1); // eV
  for (const Transition &r : t) {
    EXPECT_NEAR(r.momentum2[1], r.momentum2[0], 1e-8 * brightest);
    EXPECT_NEAR(r.momentum2[2], r.momentum2[0], 1e-8 * brightest);
    EXPECT_NEAR(r.momentum2[3], r.momentum2[4], 1e-8 * brightest);
    EXPECT_NEAR(r.te, r.tm, 1e-8 * brightest);
    EXPECT_NEAR(r.dop[0], 0.0, 1e-8);
    EXPECT_NEAR(r.dop[1], 0.0, 1e-8);
  }
  PetscOptionsClear(nullptr);
}

// The radiative rate against its closed form: a linear dipole of f = 1 radiates at the classical damping rate
// e^2 w^2 / (6 pi eps0 m0 c^3) times n; 1 eV, n = 1: 1.4464e7 /s (hbar w = 1 eV).
TEST(Optics, RadiativeRateOfAUnitOscillator) {
  EXPECT_NEAR(RadiativeRate(1.0, 1.0, 1.0) / 1.4464e7, 1.0, 1e-3);
  EXPECT_NEAR(RadiativeRate(1.0, 1.0, 3.5) / RadiativeRate(1.0, 1.0, 1.0), 3.5, 1e-12);
  const auto levels = GroupLevels({1.0, 1.0 + 1e-9, 1.2, 1.5, 1.5}, 1e-6);
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].count, 2u);
  EXPECT_EQ(levels[2].first, 3u);
}

namespace {

// The transitions of a small InAs dot in open GaAs, solved by the NEMO 3-D-style Lanczos with `partition` and H of
// `kind`: every pair of the 2 + 2 levels nearest the midgap.
PetscErrorCode SolvedTransitions(const std::string &partition, const std::string &kind, std::vector<Transition> *t) {
  TightBindingSystem sys;
  Mat H = nullptr;
  EPS eps = nullptr;
  EigenStates states;
  BondCommutator C;
  MomentumElements M;
  PetscFunctionBeginUser;
  PetscCall(BuildFromOptions(PETSC_COMM_WORLD,
                             "-params klimeck2000 -material GaAs -cells 3,3,3 -periodic 0,0,0 -dot_material InAs "
                             "-dot_radius 0.6 -partition " +
                                 partition,
                             &sys));
  PetscCall(tbpeta::test::MakeOperator(sys, kind, &H));
  PetscCall(tbpeta::test::SolveWith(H, 0.7, "-eps_type nemo -eps_nev 8 -eps_nemo_valence 4 -eps_tol 1e-10", &states,
                                    nullptr, &eps));
  std::vector<size_t> c, v;
  std::vector<double> ec, ev;
  for (size_t k = 0; k < states.values.size(); ++k)
    (states.values[k] > 0.7 ? c : v).push_back(k), (states.values[k] > 0.7 ? ec : ev).push_back(states.values[k]);
  PetscCall(BondCommutator::Create(PETSC_COMM_WORLD, sys.structure, sys.model, {0, 0, 0}, H, &C));
  const StateReader read = [&](size_t k, Vec x) { return StateVector(eps, states, k, x); };
  PetscCall(ComputeMomentumElements(C, H, c, v, read, &M));
  std::vector<Level> lc, lv;
  *t = ComputeTransitions(M, ec, ev, 1e-6, 3.5, &lc, &lv);
  PetscCall(EPSDestroy(&eps));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

} // namespace

// States solved anew with every partition and operator kind (the basis inside each Kramers pair is the solver's
// own each time) give the same level sums, to 1e-8 of the brightest; ctest runs this on 1, 2 and 3 ranks, and
// test_app compares the application's output on 1 and 2.
TEST(Optics, TransitionsAgreeAcrossPartitionsAndOperators) {
  TBPETA_ASSERT_RANKS();
  const std::pair<const char *, const char *> runs[] = {
      {"slab", "aij"}, {"column", "baij"}, {"cube", "stored_blocks"}, {"slab", "shell"}};
  std::vector<Transition> first;
  ASSERT_EQ(SolvedTransitions(runs[0].first, runs[0].second, &first), 0);
  ASSERT_EQ(first.size(), 4u);
  double brightest = 0;
  for (const Transition &t : first) brightest = std::max(brightest, t.te + t.tm);
  EXPECT_GT(brightest, 0.1); // eV
  for (size_t r = 1; r < std::size(runs); ++r) {
    std::vector<Transition> t;
    ASSERT_EQ(SolvedTransitions(runs[r].first, runs[r].second, &t), 0) << runs[r].first << " " << runs[r].second;
    ASSERT_EQ(t.size(), first.size());
    for (size_t n = 0; n < t.size(); ++n) {
      EXPECT_NEAR(t[n].energy, first[n].energy, 1e-8);
      for (int e = 0; e < kPolarisations; ++e)
        EXPECT_NEAR(t[n].momentum2[e], first[n].momentum2[e], 1e-8 * brightest)
            << runs[r].first << " " << runs[r].second << " transition " << n << " " << kPolarisationNames[e];
    }
  }
  PetscOptionsClear(nullptr);
}

namespace {

// The states nearest the gap of a dot (nemo3d, an open box, no strain), each rank count alike, and whether each is the
// dot's.
struct BoundRun {
  TightBindingSystem sys;
  Mat H = nullptr;
  EPS eps = nullptr;
  EigenStates states;
  HostGap gap;
  StateBinding binding;
  ~BoundRun() {
    EPSDestroy(&eps);
    MatDestroy(&H);
  }
  PetscErrorCode Run(const std::string &structure) {
    PetscFunctionBeginUser;
    PetscCall(BuildFromOptions(PETSC_COMM_WORLD, "-params nemo3d -material GaAs -periodic 0,0,0 " + structure, &sys));
    PetscCall(tbpeta::test::MakeOperator(sys, "shell", &H));
    PetscCall(ComputeHostGap(PETSC_COMM_WORLD, sys, &gap));
    PetscCall(tbpeta::test::SolveWith(H, gap.centre(), "-eps_type nemo -eps_nev 4 -eps_nemo_valence 2", &states,
                                      nullptr, &eps));
    PetscCall(BindStates(PETSC_COMM_WORLD, sys, eps, states, gap, &binding));
    PetscFunctionReturn(0);
  }
};

} // namespace

// The host's gap from its bulk bands: silicon's is indirect, its minimum at 0.81 of Gamma-X, 1.131178 eV above the
// valence-band maximum in nemo3d (tbpeta-bands, docs/solvers.md); the cubic cell at Gamma alone would give 1.34 eV.
TEST(Optics, HostGapIsTheBulkBandEdges) {
  TightBindingSystem si;
  HostGap gap;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, "-params nemo3d -material Si -cells 1,1,1", &si), 0);
  ASSERT_EQ(ComputeHostGap(PETSC_COMM_WORLD, si, &gap), 0);
  EXPECT_NEAR(gap.vbm, 0.0, 1e-5);
  EXPECT_NEAR(gap.cbm, 1.131178, 1e-5);
  EXPECT_NE(gap.cbm_where.find("G-X"), std::string::npos) << gap.cbm_where;
  PetscOptionsClear(nullptr);
}

// The host's strain far from a dot: held to the lattice's constant (-strain_substrate) along the strain domain's
// periodic axes and relaxed along the open ones by Keating's elastic constants; unstrained in an open box. A GaAs host
// on an InAs substrate, stretched in plane, has a smaller gap than unstrained GaAs.
TEST(Optics, HostStrainFollowsTheSubstrate) {
  const std::string gaas_on_inas = "-params nemo3d -material GaAs -dot_material InAs -dot_radius 0.3 -strain keating "
                                   "-strain_substrate InAs ";
  TightBindingSystem open_box, layer, bulk;
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, gaas_on_inas + "-cells 3,3,3 -periodic 0,0,0", &open_box), 0);
  ASSERT_EQ(BuildFromOptions(
                PETSC_COMM_WORLD,
                gaas_on_inas + "-cells 3,3,3 -periodic 0,0,0 -strain_pad_cells 1,1,0 -strain_lateral periodic", &layer),
            0);
  ASSERT_EQ(BuildFromOptions(PETSC_COMM_WORLD, gaas_on_inas + "-cells 3,3,3 -periodic 1,1,1", &bulk), 0);
  const MaterialParameters &gaas = layer.model.materials[0];
  const double e = 6.0583 / 5.6532 - 1, c11 = gaas.keating.alpha + 3 * gaas.keating.beta,
               c12 = gaas.keating.alpha - gaas.keating.beta;
  for (double x : HostStrain(open_box)) EXPECT_EQ(x, 0.0);
  const Voigt biaxial = HostStrain(layer), hydro = HostStrain(bulk);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(hydro[a], e, 1e-12);
  EXPECT_NEAR(biaxial[0], e, 1e-12);
  EXPECT_NEAR(biaxial[1], e, 1e-12);
  EXPECT_NEAR(biaxial[2], -2 * c12 / c11 * e, 1e-12);
  for (int a = 3; a < 6; ++a) EXPECT_EQ(biaxial[a], 0.0);
  HostGap unstrained, stretched;
  ASSERT_EQ(ComputeHostGap(PETSC_COMM_WORLD, open_box, &unstrained), 0);
  ASSERT_EQ(ComputeHostGap(PETSC_COMM_WORLD, layer, &stretched), 0);
  EXPECT_NEAR(unstrained.cbm - unstrained.vbm, 1.4243, 2e-3);
  EXPECT_LT(stretched.cbm - stretched.vbm, unstrained.cbm - unstrained.vbm - 0.1);
  PetscOptionsClear(nullptr);
}

// A tiny InAs sphere (radius 1 nm) in a 2.3 nm GaAs box: its electrons lie above the host's conduction-band minimum,
// states of the box that the dot perturbs, not bound; an unstrained InAs lens (4 nm x 1.5 nm on a 2-monolayer wetting
// layer) binds its lowest electron and hole, most of their density on the dot's atoms. The fractions are the same on
// every rank count.
TEST(Optics, BoundStatesAreTheDotsOwn) {
  TBPETA_ASSERT_RANKS();
  {
    BoundRun sphere;
    ASSERT_EQ(sphere.Run("-cells 4,4,4 -dot_material InAs -dot_shape sphere -dot_radius 1.0"), 0);
    ASSERT_EQ(sphere.states.values.size(), 4u);
    EXPECT_NEAR(sphere.gap.cbm, 1.4212, 1e-4);
    for (size_t k = 2; k < 4; ++k) {
      EXPECT_GT(sphere.states.values[k], sphere.gap.cbm);
      EXPECT_EQ(sphere.binding.bound[k], 0);
    }
    EXPECT_EQ(sphere.binding.electrons, 2);
    EXPECT_EQ(sphere.binding.bound_electrons, 0);
  }
  BoundRun lens;
  ASSERT_EQ(lens.Run("-cells 10,10,6 -dot_material InAs -dot_shape lens -dot_diameter 4 -dot_height 1.5 "
                     "-dot_wetting_layers 2"),
            0);
  ASSERT_EQ(lens.states.values.size(), 4u);
  ASSERT_EQ(lens.binding.dot_fraction.size(), 4u);
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(lens.binding.bound[k], 1) << k;
    EXPECT_GT(lens.binding.dot_fraction[k], 0.5) << k;
    EXPECT_LT(lens.binding.dot_fraction[k], 1.0) << k;
  }
  EXPECT_GT(lens.states.values[2], lens.gap.centre());
  EXPECT_LT(lens.states.values[2], lens.gap.cbm);
  EXPECT_GT(lens.states.values[1], lens.gap.vbm);
  // the same fractions on 1, 2 and 3 ranks (measured on 1: 0.746871981816 and 0.670056479193)
  EXPECT_NEAR(lens.binding.dot_fraction[0], 0.746871981816, 1e-9);
  EXPECT_NEAR(lens.binding.dot_fraction[2], 0.670056479193, 1e-9);
  PetscOptionsClear(nullptr);
}
