// A new parameter set is one folder params/<set>/ with one .tbp file per material (docs/development.md, "Add a
// parameter set"): no code, no list. This file writes a set of its own ("myvogl": GaAs in Vogl's sp3s* form, with
// Vogl, Hjalmarson & Dow's numbers) into a scratch data directory, puts that directory before the shipped one
// (TBPETA_DATA_DIR=scratch: , the empty entry standing for the built-in directory) and uses the set as a user does:
// -params myvogl. tbpeta -help lists it beside the shipped sets with what its file says it is; the distributed H of
// the periodic cell built from it has the band edges of the closed form at Gamma on any number of ranks; a broken file
// of a set is one error line naming the file, in the library and from tbpeta.
#include <petscsys.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "bulk/CellSpectrum.hpp"
#include "model/ParameterSet.hpp"
#include "system_fixture.hpp"
#include "test_support.hpp"

using namespace tbpeta;

namespace {

namespace fs = std::filesystem;

// ---- the set: all of it ----

// params/myvogl/GaAs.tbp (Vogl-type sums over the four bonds at k = 0, in eV; a_lattice in Angstrom).
const char *kMyVoglGaAs = R"(# GaAs of the set myvogl: sp3s*, no spin-orbit (Vogl, Hjalmarson & Dow 1983, Table 1)
set = myvogl
material = GaAs
anion = As
cation = Ga
model = sp3sstar
spin_orbit = no
energy_scale = vbm_zero
form = vogl
citation = P. Vogl, H. P. Hjalmarson, J. D. Dow, J. Phys. Chem. Solids 44, 365 (1983), Table 1

a_lattice  = 5.6533
Es_a       = -8.3431
Ep_a       = 1.0414
Esstar_a   = 8.5914
Es_c       = -2.6569
Ep_c       = 3.6686
Esstar_c   = 6.7386
Vss        = -6.4513
Vxx        = 1.9546
Vxy        = 5.0779
Vsa_pc     = 4.4800
Vsc_pa     = 5.7839
Vsstara_pc = 4.8422
Vpa_sstarc = 4.8077
)";

// ---- the test's scaffolding ----

// A scratch data directory in the working directory, one per rank count (ctest runs them side by side), put first
// in TBPETA_DATA_DIR with the built-in directory after it; the variable is restored and the files removed at the end.
class ScratchDataDirectory {
public:
  ScratchDataDirectory() : dir_(fs::current_path() / ("register_parameter_set_np" + std::to_string(test::commSize()))) {
    if (test::commRank() == 0) fs::create_directories(dir_);
    MPI_Barrier(PETSC_COMM_WORLD);
    const char *old = std::getenv("TBPETA_DATA_DIR");
    had_ = old != nullptr, old_ = old ? old : "";
    setenv("TBPETA_DATA_DIR", (dir_.string() + ":").c_str(), 1);
  }
  ~ScratchDataDirectory() {
    if (had_) setenv("TBPETA_DATA_DIR", old_.c_str(), 1);
    else unsetenv("TBPETA_DATA_DIR");
    MPI_Barrier(PETSC_COMM_WORLD);
    std::error_code ec;
    if (test::commRank() == 0) fs::remove_all(dir_, ec);
  }
  // Rank 0 writes `relative` (e.g. "params/myvogl/GaAs.tbp"); every rank gets its path.
  std::string Write(const std::string &relative, const std::string &text) const {
    const fs::path p = dir_ / relative;
    if (test::commRank() == 0) {
      fs::create_directories(p.parent_path());
      std::ofstream(p) << text;
    }
    MPI_Barrier(PETSC_COMM_WORLD);
    return p.string();
  }
  std::string Path(const std::string &relative) const { return (dir_ / relative).string(); }

private:
  fs::path dir_;
  bool had_ = false;
  std::string old_;
};

// Runs a program of this build as a user does, on rank 0 (a process of its own, without the MPI variables of the
// launcher this test runs under, TBPETA_DATA_DIR inherited): its exit code and its output (stdout and stderr).
std::pair<int, std::string> RunProgram(const std::string &program_and_args, const std::string &output) {
  const char *bin = std::getenv("TBPETA_BIN");
  const std::string cmd = test::CleanMpiEnvironment() + " " + std::string(bin ? bin : "bin") + "/" + program_and_args +
                          " >" + output + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream file(output);
  std::stringstream text;
  text << file.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

// The error of `call` without PETSc's traceback: its code and its message.
std::pair<PetscErrorCode, std::string> ErrorOf(const std::function<PetscErrorCode()> &call) {
  PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  const PetscErrorCode code = call();
  PetscPopErrorHandler();
  char *message = nullptr;
  if (code) PetscErrorMessage(code, nullptr, &message);
  return {code, message ? message : ""};
}

} // namespace

TEST(RegisterParameterSet, ANewFolderIsASetListedAndUsedLikeTheShippedOnes) {
  TBPETA_ASSERT_RANKS();
  ScratchDataDirectory scratch;
  scratch.Write("params/myvogl/GaAs.tbp", kMyVoglGaAs);

  // -help lists the new set with what its file declares, and the shipped sets after it (the trailing ':').
  if (test::commRank() == 0) {
    const auto [code, help] = RunProgram("tbpeta -help -params myvogl", scratch.Path("help.txt"));
    EXPECT_EQ(code, 0) << help;
    EXPECT_NE(help.find("-params <now myvogl"), std::string::npos) << help;
    EXPECT_NE(help.find("myvogl (sp3s*: GaAs)"), std::string::npos) << help;
    EXPECT_NE(help.find("Host material: GaAs (tbpeta)"), std::string::npos) << help; // the set's own materials
    EXPECT_NE(help.find("nemo3d (sp3d5s*+SO: AlAs, GaAs, InAs, Si)"), std::string::npos) << help;
    EXPECT_NE(help.find("vogl1983 (sp3s*: AlAs, GaAs, InAs, Si)"), std::string::npos) << help;
  }

  // -params myvogl as a user gives it: the periodic 8-atom cell, H distributed over the ranks, all its eigenvalues.
  // At k = 0 the cell holds the fcc Gamma point, where Vogl's H splits into 2 x 2 blocks: the valence-band top is the
  // bonding p level (Gamma15v, threefold) and the conduction-band bottom the antibonding s level (Gamma1c).
  std::vector<double> values;
  ASSERT_EQ(test::SpectrumFromOptions(PETSC_COMM_WORLD, "-params myvogl -material GaAs -cells 1,1,1 -periodic 1,1,1",
                                      &values),
            0);
  ASSERT_EQ(values.size(), 40u); // 8 atoms x 5 orbitals, no spin
  const double Es_a = -8.3431, Es_c = -2.6569, Ep_a = 1.0414, Ep_c = 3.6686, Vss = -6.4513, Vxx = 1.9546;
  const double vbm = (Ep_a + Ep_c) / 2 - std::hypot((Ep_c - Ep_a) / 2, Vxx);
  const double cbm = (Es_a + Es_c) / 2 + std::hypot((Es_c - Es_a) / 2, Vss);
  // 16 valence states (4 bonding bands x 4 atom pairs); the top three are Gamma15v.
  for (int i = 13; i < 16; ++i) EXPECT_NEAR(values[i], vbm, 1e-10) << i;
  EXPECT_NEAR(values[16], cbm, 1e-10);
  EXPECT_NEAR(cbm - vbm, 1.55, 1e-4); // the published gap of the set
  TightBindingSystem sys;
  ASSERT_EQ(test::BuildFromOptions(PETSC_COMM_WORLD, "-params myvogl -material GaAs -cells 1,1,1", &sys), 0);
  EXPECT_EQ(sys.model.set, "myvogl");
  double edge_v = 0, edge_c = 0;
  ASSERT_EQ(BulkBandEdges(sys.model, 0, &edge_v, &edge_c), 0);
  EXPECT_NEAR(edge_v, vbm, 1e-10);
  EXPECT_NEAR(edge_c, cbm, 1e-10);
  PetscOptionsClear(nullptr);
}

TEST(RegisterParameterSet, ABrokenFileOfASetIsOneErrorLineNamingTheFile) {
  TBPETA_ASSERT_RANKS();
  ScratchDataDirectory scratch;
  std::string broken = kMyVoglGaAs;
  broken.replace(broken.find("set = myvogl"), 12, "set = broken");
  broken.erase(broken.find("Vxy "), broken.find('\n', broken.find("Vxy ")) - broken.find("Vxy ") + 1);
  const std::string path = scratch.Write("params/broken/GaAs.tbp", broken);

  EXPECT_NE(DescribeParameterSets().find("broken (" + path + " is broken)"), std::string::npos)
      << DescribeParameterSets();
  TightBindingSystem sys;
  const auto [code, message] =
      ErrorOf([&] { return test::BuildFromOptions(PETSC_COMM_WORLD, "-params broken -material GaAs", &sys); });
  EXPECT_EQ(code, PETSC_ERR_USER_INPUT);
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("missing key 'Vxy'"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  // The program: that line after its name, exit 1.
  if (test::commRank() == 0) {
    const auto [exit_code, output] = RunProgram("tbpeta -params broken -cells 1,1,1", scratch.Path("broken.txt"));
    EXPECT_EQ(exit_code, 1) << output;
    EXPECT_EQ(output, "tbpeta: error: " + message + "\n");
  }
  PetscOptionsClear(nullptr);
}
