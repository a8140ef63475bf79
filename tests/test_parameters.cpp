// Parameter sets: every shipped set/material loads with the right header, the Vogl -> two-centre conversion, and
// every kind of bad input fails with PETSC_ERR_USER_INPUT (identically on all ranks) and a message naming the problem.
#include <petscsys.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "model/ParameterSet.hpp"
#include "test_support.hpp"

namespace {

using tbpeta::MaterialParameters;
namespace fs = std::filesystem;

MPI_Comm Comm() { return PETSC_COMM_WORLD; }

// Run a loader call without PETSc printing a trace; return its error code and message. Also checks that every rank
// got the same code (the loader is collective-safe because each rank reads the file itself).
struct Outcome {
  PetscErrorCode code = 0;
  std::string message;
};
Outcome Quietly(const std::function<PetscErrorCode()> &call) {
  Outcome out;
  EXPECT_EQ(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr), 0);
  out.code = call();
  EXPECT_EQ(PetscPopErrorHandler(), 0);
  if (out.code) {
    char *specific = nullptr;
    PetscErrorMessage(out.code, nullptr, &specific);
    if (specific) out.message = specific;
  }
  int mine = static_cast<int>(out.code), lo = 0, hi = 0;
  MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, Comm());
  MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, Comm());
  EXPECT_EQ(lo, hi) << "ranks disagree on the error";
  return out;
}

// A scratch directory in the working directory (the build tree under ctest), one per rank count so that the np1 and
// np2 runs do not collide. Rank 0 writes, everybody reads.
class ScratchFiles {
public:
  ScratchFiles()
      : dir_(fs::current_path() / ("test_parameters_scratch_np" + std::to_string(tbpeta::test::commSize()))) {
    if (tbpeta::test::commRank() == 0) fs::create_directories(dir_);
    MPI_Barrier(Comm());
  }
  ~ScratchFiles() {
    MPI_Barrier(Comm());
    if (tbpeta::test::commRank() == 0) {
      std::error_code ec;
      fs::remove_all(dir_, ec);
    }
  }
  std::string Write(const std::string &name, const std::string &text) const {
    const fs::path p = dir_ / name;
    if (tbpeta::test::commRank() == 0) {
      fs::create_directories(p.parent_path());
      std::ofstream(p) << text;
    }
    MPI_Barrier(Comm());
    return p.string();
  }
  const fs::path &dir() const { return dir_; }

private:
  fs::path dir_;
};

// A valid two-centre sp3s* file with spin-orbit; tests break it one line at a time.
const char *kGoodSp3s = R"(# user parameter file
set = mine
material = GaAs   # trailing comment
anion = As
cation = Ga
model = sp3sstar
spin_orbit = yes
energy_scale = vbm_zero
form = two_centre
citation = made up for a test

a_lattice = 5.65
Es_a = -8.3431
Ep_a = +1.0414
Esstar_a = 8.5914
Es_c = -2.6569
Ep_c = 3.6686
Esstar_c = 6.7386
lambda_so_a = 0.1
Delta_so_c = 0.3
ss_sigma = -1.6
sstar_sstar_sigma = 0
s_a_sstar_c_sigma = 0
sstar_a_s_c_sigma = 0
s_a_p_c_sigma = 1.9
s_c_p_a_sigma = 2.5
sstar_a_p_c_sigma = 2.1
sstar_c_p_a_sigma = 2.08
pp_sigma = 3.03
pp_pi = -0.78e0
)";

std::string Replace(std::string text, const std::string &from, const std::string &to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

} // namespace

TEST(Parameters, ShippedSetsAndMaterials) {
  TBPETA_ASSERT_RANKS();
  EXPECT_EQ(tbpeta::shippedSets(), (std::vector<std::string>{"jancu1998", "klimeck2000", "nemo3d", "vogl1983"}));
  const std::vector<std::string> four = {"AlAs", "GaAs", "InAs", "Si"}, three = {"AlAs", "GaAs", "InAs"};
  EXPECT_EQ(tbpeta::materialsInSet("vogl1983"), four);
  EXPECT_EQ(tbpeta::materialsInSet("jancu1998"), four);
  EXPECT_EQ(tbpeta::materialsInSet("nemo3d"), four);
  EXPECT_EQ(tbpeta::materialsInSet("klimeck2000"), three);
  EXPECT_TRUE(tbpeta::materialsInSet("nope").empty());
  EXPECT_TRUE(tbpeta::materialsInSet("../params").empty());
}

TEST(Parameters, EveryShippedMaterialLoads) {
  TBPETA_ASSERT_RANKS();
  for (const auto &set : tbpeta::shippedSets())
    for (const auto &material : tbpeta::materialsInSet(set)) {
      SCOPED_TRACE(set + "/" + material);
      MaterialParameters p;
      ASSERT_EQ(tbpeta::LoadShippedMaterial(Comm(), set, material, &p), 0);
      EXPECT_EQ(p.set, set);
      EXPECT_EQ(p.material, material);
      EXPECT_EQ(p.anion, material == "Si" ? "Si" : "As");
      EXPECT_EQ(p.cation, material == "Si" ? "Si" : material.substr(0, 2));
      const bool sp3s = set == "vogl1983" || set == "klimeck2000";
      EXPECT_EQ(p.model, sp3s ? tbpeta::BasisModel::sp3sstar : tbpeta::BasisModel::sp3d5sstar);
      EXPECT_EQ(p.has_spin_orbit, set != "vogl1983");
      EXPECT_EQ(p.energy_scale, set == "nemo3d" ? tbpeta::EnergyScale::absolute : tbpeta::EnergyScale::vbm_zero);
      EXPECT_GT(p.a_lattice, 5.0);
      EXPECT_LT(p.a_lattice, 6.5);
      EXPECT_FALSE(p.citation.empty());
      EXPECT_FALSE(p.status.empty());
      EXPECT_NE(p.source.find(set + "/" + material + ".tbp"), std::string::npos);
      if (set == "vogl1983") {
        EXPECT_EQ(p.anion_onsite.lambda_so, 0.0);
        EXPECT_EQ(p.cation_onsite.lambda_so, 0.0);
      } else {
        EXPECT_GT(p.anion_onsite.lambda_so, 0.0);
        EXPECT_GT(p.cation_onsite.lambda_so, 0.0);
      }
      if (sp3s) EXPECT_EQ(p.anion_onsite.d, 0.0);
      else EXPECT_GT(p.anion_onsite.d, 10.0);
    }
}

TEST(Parameters, VoglConversion) {
  TBPETA_ASSERT_RANKS();
  MaterialParameters p;
  ASSERT_EQ(tbpeta::LoadShippedMaterial(Comm(), "vogl1983", "GaAs", &p), 0);
  const double q = std::sqrt(3.0) / 4.0;
  EXPECT_DOUBLE_EQ(p.bond.ss_sigma, -1.612825); // -6.4513 / 4
  EXPECT_DOUBLE_EQ(p.bond.pp_sigma, (1.9546 + 2 * 5.0779) / 4);
  EXPECT_DOUBLE_EQ(p.bond.pp_pi, (1.9546 - 5.0779) / 4);
  EXPECT_DOUBLE_EQ(p.bond.s_a_p_c_sigma, q * 4.4800);
  EXPECT_DOUBLE_EQ(p.bond.s_c_p_a_sigma, q * 5.7839);
  EXPECT_DOUBLE_EQ(p.bond.sstar_a_p_c_sigma, q * 4.8422);
  EXPECT_DOUBLE_EQ(p.bond.sstar_c_p_a_sigma, q * 4.8077);
  // The two-centre values an independent code (OMEN-derived) stores for this set, rounded to 4 decimals.
  EXPECT_NEAR(p.bond.ss_sigma, -1.6128, 5e-5);
  EXPECT_NEAR(p.bond.s_a_p_c_sigma, 1.9399, 5e-5);
  EXPECT_NEAR(p.bond.s_c_p_a_sigma, 2.5045, 5e-5);
  EXPECT_NEAR(p.bond.sstar_a_p_c_sigma, 2.0967, 5e-5);
  EXPECT_NEAR(p.bond.sstar_c_p_a_sigma, 2.0818, 5e-5);
  EXPECT_NEAR(p.bond.pp_sigma, 3.0276, 5e-5);
  EXPECT_NEAR(p.bond.pp_pi, -0.7808, 5e-5);
  // Everything else of the sp3d5s* table is zero in sp3s*.
  EXPECT_EQ(p.bond.sstar_sstar_sigma, 0.0);
  EXPECT_EQ(p.bond.s_a_sstar_c_sigma, 0.0);
  EXPECT_EQ(p.bond.sstar_a_s_c_sigma, 0.0);
  EXPECT_EQ(p.bond.s_a_d_c_sigma, 0.0);
  EXPECT_EQ(p.bond.p_c_d_a_pi, 0.0);
  EXPECT_EQ(p.bond.dd_delta, 0.0);
  EXPECT_EQ(p.anion_onsite.s, -8.3431);
  EXPECT_EQ(p.cation_onsite.sstar, 6.7386);
  EXPECT_EQ(p.a_lattice, 5.6533);
}

TEST(Parameters, SpinOrbitDeltaAndLambda) {
  TBPETA_ASSERT_RANKS();
  MaterialParameters k, j, n;
  ASSERT_EQ(tbpeta::LoadShippedMaterial(Comm(), "klimeck2000", "GaAs", &k), 0);
  EXPECT_DOUBLE_EQ(k.anion_onsite.lambda_so, 0.32703 / 3); // the file keeps Delta as published
  EXPECT_DOUBLE_EQ(k.cation_onsite.lambda_so, 0.12000 / 3);
  ASSERT_EQ(tbpeta::LoadShippedMaterial(Comm(), "klimeck2000", "InAs", &k), 0);
  EXPECT_EQ(k.cation_onsite.p, 4.64241); // the favoured transcription
  ASSERT_EQ(tbpeta::LoadShippedMaterial(Comm(), "jancu1998", "GaAs", &j), 0);
  EXPECT_EQ(j.anion_onsite.lambda_so, 0.1824); // the file keeps lambda
  EXPECT_EQ(j.bond.p_c_d_a_pi, 2.0709);
  EXPECT_EQ(j.anion_onsite.d, 13.1023);
  ASSERT_EQ(tbpeta::LoadShippedMaterial(Comm(), "nemo3d", "GaAs", &n), 0);
  EXPECT_EQ(n.bond.sstar_sstar_sigma, -3.67720); // variant A
  EXPECT_EQ(n.bond.s_a_d_c_sigma, -2.58357);
  ASSERT_EQ(tbpeta::LoadShippedMaterial(Comm(), "nemo3d", "InAs", &n), 0);
  EXPECT_EQ(n.cation_onsite.lambda_so, 0.13120);
  ASSERT_EQ(tbpeta::LoadShippedMaterial(Comm(), "vogl1983", "AlAs", &n), 0);
  EXPECT_DOUBLE_EQ(n.bond.pp_pi, (1.8780 - 4.2919) / 4); // favoured Vxy
  EXPECT_DOUBLE_EQ(n.bond.sstar_a_p_c_sigma, std::sqrt(3.0) / 4 * 4.5216);
}

TEST(Parameters, UserFileLoads) {
  TBPETA_ASSERT_RANKS();
  ScratchFiles scratch;
  const std::string path = scratch.Write("good.tbp", kGoodSp3s);
  MaterialParameters p;
  const Outcome r = Quietly([&] { return tbpeta::LoadParameterFile(Comm(), path, &p); });
  ASSERT_EQ(r.code, 0) << r.message;
  EXPECT_EQ(p.set, "mine");
  EXPECT_EQ(p.material, "GaAs");
  EXPECT_EQ(p.citation, "made up for a test");
  EXPECT_EQ(p.status, "");
  EXPECT_EQ(p.source, path);
  EXPECT_EQ(p.model, tbpeta::BasisModel::sp3sstar);
  EXPECT_TRUE(p.has_spin_orbit);
  EXPECT_EQ(p.anion_onsite.p, 1.0414);
  EXPECT_EQ(p.anion_onsite.lambda_so, 0.1);
  EXPECT_DOUBLE_EQ(p.cation_onsite.lambda_so, 0.1);
  EXPECT_EQ(p.bond.pp_pi, -0.78);
}

TEST(Parameters, DataDirectoryFromEnvironment) {
  TBPETA_ASSERT_RANKS();
  ScratchFiles scratch;
  const std::string path = scratch.Write("params/custom/GaAs.tbp", Replace(kGoodSp3s, "set = mine", "set = custom"));
  const char *old = std::getenv("TBPETA_DATA_DIR");
  const std::string saved = old ? old : "";
  setenv("TBPETA_DATA_DIR", scratch.dir().c_str(), 1);
  EXPECT_EQ(tbpeta::dataDirectory(), scratch.dir().string());
  EXPECT_EQ(tbpeta::shippedSets(), std::vector<std::string>{"custom"});
  MaterialParameters p;
  const Outcome ok = Quietly([&] { return tbpeta::LoadShippedMaterial(Comm(), "custom", "GaAs", &p); });
  EXPECT_EQ(ok.code, 0) << ok.message;
  // A shipped file must describe what its location says.
  scratch.Write("params/custom/InAs.tbp", Replace(kGoodSp3s, "set = mine", "set = custom"));
  const Outcome wrong = Quietly([&] { return tbpeta::LoadShippedMaterial(Comm(), "custom", "InAs", &p); });
  EXPECT_EQ(wrong.code, PETSC_ERR_USER_INPUT);
  EXPECT_NE(wrong.message.find("declares set 'custom', material 'GaAs'"), std::string::npos) << wrong.message;
  if (old) setenv("TBPETA_DATA_DIR", saved.c_str(), 1);
  else unsetenv("TBPETA_DATA_DIR");
  EXPECT_NE(tbpeta::dataDirectory(), scratch.dir().string());
}

TEST(Parameters, UnknownSetAndMaterial) {
  TBPETA_ASSERT_RANKS();
  MaterialParameters p;
  const Outcome set = Quietly([&] { return tbpeta::LoadShippedMaterial(Comm(), "foo", "GaAs", &p); });
  EXPECT_EQ(set.code, PETSC_ERR_USER_INPUT);
  EXPECT_EQ(set.message,
            "-params: unknown parameter set 'foo' (shipped sets: jancu1998, klimeck2000, nemo3d, vogl1983)");
  const Outcome mat = Quietly([&] { return tbpeta::LoadShippedMaterial(Comm(), "vogl1983", "GaN", &p); });
  EXPECT_EQ(mat.code, PETSC_ERR_USER_INPUT);
  EXPECT_EQ(mat.message, "-material: 'GaN' is not in parameter set 'vogl1983' (available: AlAs, GaAs, InAs, Si)");
  const Outcome dot =
      Quietly([&] { return tbpeta::LoadShippedMaterial(Comm(), "klimeck2000", "Si", "-dot_material", &p); });
  EXPECT_EQ(dot.code, PETSC_ERR_USER_INPUT);
  EXPECT_EQ(dot.message, "-dot_material: 'Si' is not in parameter set 'klimeck2000' (available: AlAs, GaAs, InAs)");
}

TEST(Parameters, UnreadableFile) {
  TBPETA_ASSERT_RANKS();
  MaterialParameters p;
  const Outcome r = Quietly([&] { return tbpeta::LoadParameterFile(Comm(), "does/not/exist.tbp", &p); });
  EXPECT_EQ(r.code, PETSC_ERR_FILE_OPEN);
  EXPECT_NE(r.message.find("'does/not/exist.tbp'"), std::string::npos) << r.message;
  const Outcome d = Quietly([&] { return tbpeta::LoadParameterFile(Comm(), tbpeta::dataDirectory(), &p); });
  EXPECT_EQ(d.code, PETSC_ERR_FILE_OPEN) << d.message;
}

TEST(Parameters, BadFilesAreUserInputErrors) {
  TBPETA_ASSERT_RANKS();
  ScratchFiles scratch;
  // Each broken variant of the good file and a piece of the message it must produce (line numbers are 1-based).
  const std::string good = kGoodSp3s;
  const std::string d_keys = "Ed_a = 13\n";
  struct Case {
    std::string name, text, expect;
  };
  const std::vector<Case> cases = {
      {"unknown_key", Replace(good, "Es_a = -8.3431", "Es_x = -8.3431"), "line 13: unknown key 'Es_x'"},
      {"missing_key", Replace(good, "pp_pi = -0.78e0\n", ""), "missing key 'pp_pi' (model sp3sstar, form two_centre)"},
      {"missing_d_key",
       Replace(Replace(good, "model = sp3sstar", "model = sp3d5sstar"), "Ep_c = 3.6686\n",
               "Ep_c = 3.6686\nEd_a = 13\nEd_c = 13\n"),
       "missing key 's_a_d_c_sigma' (model sp3d5sstar, form two_centre)"},
      {"not_a_number", Replace(good, "Ep_a = +1.0414", "Ep_a = abc"), "line 14: 'abc' is not a number for key 'Ep_a'"},
      {"partial_number", Replace(good, "Ep_c = 3.6686", "Ep_c = 3.6686 eV"),
       "line 17: '3.6686 eV' is not a number for key 'Ep_c'"},
      {"not_finite", Replace(good, "Ep_c = 3.6686", "Ep_c = inf"), "'inf' is not a number for key 'Ep_c'"},
      {"duplicate", Replace(good, "Es_c = -2.6569", "Es_c = -2.6569\nEs_c = -2.6"),
       "line 17: duplicate key 'Es_c' (first given on line 16)"},
      {"d_in_sp3s", Replace(good, "Ep_c = 3.6686\n", "Ep_c = 3.6686\n" + d_keys),
       "line 18: key 'Ed_a' is not allowed for model sp3sstar, form two_centre"},
      {"vogl_in_two_centre", Replace(good, "pp_pi = -0.78e0", "pp_pi = -0.78\nVss = 1"),
       "key 'Vss' is not allowed for model sp3sstar, form two_centre"},
      {"two_centre_in_vogl", Replace(good, "form = two_centre", "form = vogl"),
       "line 21: key 'ss_sigma' is not allowed for model sp3sstar, form vogl"},
      {"so_without_so", Replace(good, "spin_orbit = yes", "spin_orbit = no"),
       "line 19: key 'lambda_so_a' is not allowed with spin_orbit = no"},
      {"so_missing", Replace(good, "lambda_so_a = 0.1\n", ""),
       "missing key 'lambda_so_a' or 'Delta_so_a' (spin_orbit = yes)"},
      {"so_twice", Replace(good, "lambda_so_a = 0.1", "lambda_so_a = 0.1\nDelta_so_a = 0.3"),
       "line 20: give only one of 'lambda_so_a' and 'Delta_so_a'"},
      {"bad_model", Replace(good, "model = sp3sstar", "model = sp3s"),
       "line 6: model 'sp3s' is not allowed (allowed: sp3sstar, sp3d5sstar)"},
      {"bad_spin_orbit", Replace(good, "spin_orbit = yes", "spin_orbit = true"),
       "spin_orbit 'true' is not allowed (allowed: yes, no)"},
      {"bad_scale", Replace(good, "energy_scale = vbm_zero", "energy_scale = relative"),
       "energy_scale 'relative' is not allowed"},
      {"bad_form", Replace(good, "form = two_centre", "form = sk"),
       "form 'sk' is not allowed (allowed: vogl, two_centre)"},
      {"vogl_d", Replace(Replace(good, "form = two_centre", "form = vogl"), "model = sp3sstar", "model = sp3d5sstar"),
       "form vogl needs model sp3sstar"},
      {"missing_header", Replace(good, "cation = Ga\n", ""), "missing key 'cation'"},
      {"malformed", Replace(good, "a_lattice = 5.65", "a_lattice 5.65"), "line 12: expected 'key = value'"},
      {"empty_value", Replace(good, "anion = As", "anion = "), "line 4: empty value for key 'anion'"},
      {"bad_lattice", Replace(good, "a_lattice = 5.65", "a_lattice = -5.65"), "line 12: a_lattice must be positive"},
      {"empty_file", "", "no 'key = value' line (an empty file?)"},
      {"comments_only", "# set = x\n\n   # nothing else\n", "no 'key = value' line"},
      {"binary_garbage",
       std::string("\x7f"
                   "ELF\x02\x01\x01\0\0\0 = \x03\x04\n",
                   16),
       "line 1: a control character (binary data?) in '?ELF???"},
      {"utf16", std::string("s\0e\0t\0 \0=\0 \0x\0\n\0", 16), "line 1: a control character (binary data?)"},
      {"units_comment_ignored_but_units_in_value",
       Replace(good, "a_lattice = 5.65", "a_lattice = 5.65 # Angstrom\nEs_q = 1 # eV"), "line 13: unknown key 'Es_q'"},
      {"long_garbage_is_cut", Replace(good, "a_lattice = 5.65", "a_lattice = " + std::string(300, '9') + "x"),
       "is not a number for key 'a_lattice'"},
  };
  for (const auto &c : cases) {
    const std::string path = scratch.Write(c.name + ".tbp", c.text);
    MaterialParameters p;
    const Outcome r = Quietly([&] { return tbpeta::LoadParameterFile(Comm(), path, &p); });
    EXPECT_EQ(r.code, PETSC_ERR_USER_INPUT) << c.name << ": " << r.message;
    EXPECT_NE(r.message.find("parameter file '" + path + "'"), std::string::npos) << c.name << ": " << r.message;
    EXPECT_NE(r.message.find(c.expect), std::string::npos)
        << c.name << ": got '" << r.message << "', expected '" << c.expect << "'";
    EXPECT_EQ(r.message.find('\n'), std::string::npos) << c.name << ": message must be one line";
    EXPECT_LT(r.message.size(), 300u + path.size()) << c.name << ": the input is quoted in short";
    for (char ch : r.message) EXPECT_GE((unsigned char)ch, 0x20u) << c.name << ": control character in the message";
  }
}
