// A new on-site term is one file plus one registration line (docs/development.md): this file defines a uniform shift
// V0 of every atom's on-site energy, with an option of its own (-test_onsite_shift, eV), and registers it with
// RegisterOnsiteTerm. tbpeta's fields then read its option (-help lists it; a bad value is one line), sum it into
// the potential on the atoms and every operator kind carries it: H x + V0 x on aij, baij, stored_blocks and shell, and
// every eigenvalue moves by exactly V0 against the same system without it, on any number of ranks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "fields/SystemFields.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;

namespace {

// ---- the term: all of it ----

class UniformShift : public OnsiteTerm {
public:
  explicit UniformShift(double v0) : v0_(v0) {}
  bool on() const override { return v0_ != 0; }
  PetscErrorCode Compute(MPI_Comm, const TightBindingSystem &, const SystemStrain &,
                         std::span<double> energy) override {
    for (double &e : energy) e = v0_;
    return 0;
  }
  PetscErrorCode PrintSummary(MPI_Comm comm) const override {
    return PetscPrintf(comm, "uniform shift %.4f eV; ", v0_);
  }
  void Output(AtomGroup *fields, ResultsPart *) const override {
    if (on()) fields->values.push_back({"test_onsite_shift", v0_});
  }

private:
  double v0_;
};

PetscErrorCode UniformShiftFromOptions(MPI_Comm comm, const FieldSpec &, std::unique_ptr<OnsiteTerm> *term) {
  PetscReal v0 = 0;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "A uniform shift of every on-site energy (a test of the recipe)", "tbpeta");
  PetscCall(
      PetscOptionsReal("-test_onsite_shift", "Shift of every atom's on-site energy (eV)", "tbpeta", v0, &v0, nullptr));
  PetscOptionsEnd();
  PetscCheck(std::isfinite(v0) && std::fabs(v0) <= 10, comm, PETSC_ERR_USER_INPUT,
             "-test_onsite_shift: %g eV is not allowed (a finite shift of at most 10 eV)", (double)v0);
  *term = std::make_unique<UniformShift>(v0);
  PetscFunctionReturn(0);
}

// ---- the registration: one line ----
PetscErrorCode RegisterUniformShift() { return RegisterOnsiteTerm({"test_shift", UniformShiftFromOptions}); }

// The system of kTinyBox + options with its fields computed (the registered term among them).
PetscErrorCode BuildWithFields(const std::string &options, TightBindingSystem *sys, SystemFields *fields) {
  SystemStrain strain;
  PetscFunctionBeginUser;
  PetscCall(tbpeta::test::BuildFromOptions(PETSC_COMM_WORLD, std::string(tbpeta::test::kTinyBox) + " " + options, sys));
  PetscCall(ComputeSystemFields(PETSC_COMM_WORLD, sys, &strain, fields));
  PetscFunctionReturn(0);
}

} // namespace

TEST(RegisterOnsiteTerm, AUniformShiftFromThisFileMovesEveryLevel) {
  TBPETA_ASSERT_RANKS();
  ASSERT_EQ(RegisterUniformShift(), 0);
  const double v0 = 0.25;

  // -help lists its option with its default.
  PetscOptionsClear(nullptr);
  PetscOptionsInsertString(nullptr, "-help");
  const std::string help_text = tbpeta::test::CapturePrinted([] {
    return ListFieldOptions(PETSC_COMM_WORLD); // what tbpeta's -help calls
  });
  EXPECT_NE(help_text.find("-test_onsite_shift <0 : 0>"), std::string::npos) << help_text;
  EXPECT_NE(help_text.find("Shift of every atom's on-site energy (eV)"), std::string::npos) << help_text;

  // A bad value is one line naming the option.
  for (const char *bad : {"-test_onsite_shift 50", "-test_onsite_shift inf"}) {
    TightBindingSystem sys;
    SystemFields fields;
    std::string message;
    EXPECT_EQ(tbpeta::test::FirstMessage([&] { return BuildWithFields(bad, &sys, &fields); }, &message),
              PETSC_ERR_USER_INPUT)
        << bad;
    EXPECT_NE(message.find("-test_onsite_shift: "), std::string::npos) << message;
    EXPECT_NE(message.find("is not allowed (a finite shift of at most 10 eV)"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }

  // Without it and with it: the potential on every atom, every operator kind and every eigenvalue.
  TightBindingSystem plain, shifted;
  SystemFields none, fields;
  ASSERT_EQ(BuildWithFields("", &plain, &none), 0);
  EXPECT_FALSE(none.on());
  EXPECT_TRUE(plain.structure.potential.empty());
  ASSERT_EQ(BuildWithFields("-test_onsite_shift 0.25", &shifted, &fields), 0);
  ASSERT_TRUE(fields.on());
  ASSERT_EQ((PetscInt)shifted.structure.potential.size(), shifted.structure.owned);
  for (PetscInt i = 0; i < shifted.structure.owned; ++i) {
    EXPECT_EQ(shifted.structure.potential[i], v0);
    EXPECT_EQ(fields.potential[i], -v0); // phi in V: an electron's energy is -e phi
  }
  const ResultsPart out = FieldsOutput(fields); // its attribute in the output's fields/ group
  ASSERT_EQ(out.groups.size(), 1u);
  EXPECT_EQ(out.groups[0].values.back().first, "seconds");
  bool named = false;
  for (const auto &[key, value] : out.groups[0].values) named = named || (key == "test_onsite_shift" && value == v0);
  EXPECT_TRUE(named);

  for (const char *kind : {"aij", "baij", "stored_blocks", "shell"}) {
    SCOPED_TRACE(kind);
    Mat H0, H1;
    Vec x, y0, y1;
    ASSERT_EQ(tbpeta::test::MakeOperator(plain, kind, &H0), 0);
    ASSERT_EQ(tbpeta::test::MakeOperator(shifted, kind, &H1), 0);
    ASSERT_EQ(tbpeta::test::HashedVector(H0, &x), 0);
    VecDuplicate(x, &y0), VecDuplicate(x, &y1);
    MatMult(H0, x, y0), MatMult(H1, x, y1);
    VecAXPY(y1, -1.0, y0); // H1 x - H0 x = V0 x
    VecAXPY(y1, -v0, x);
    PetscReal error, norm;
    VecNorm(y1, NORM_INFINITY, &error), VecNorm(x, NORM_INFINITY, &norm);
    EXPECT_LT(error, 1e-12 * norm);
    if (std::string(kind) == "aij") {
      std::vector<double> e0, e1;
      ASSERT_EQ(AllEigenvalues(H0, &e0), 0);
      ASSERT_EQ(AllEigenvalues(H1, &e1), 0);
      ASSERT_EQ(e0.size(), 160u);
      ASSERT_EQ(e1.size(), e0.size());
      for (size_t k = 0; k < e0.size(); ++k) EXPECT_NEAR(e1[k] - e0[k], v0, 1e-11) << k;
    }
    VecDestroy(&x), VecDestroy(&y0), VecDestroy(&y1), MatDestroy(&H0), MatDestroy(&H1);
  }
  PetscOptionsClear(nullptr);
}
