// The tbpeta executable as a user runs it: a run that solves and writes HDF5, the same eigenvalues on 1 and 2
// ranks, and every bad input answered with one line on stderr naming the option or file, a non-zero exit, no core
// dump and no output file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

struct RunResult {
  int exit_code = -1;
  bool signalled = false;
  std::string out, err;
};

std::string Slurp(const fs::path &p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A directory of this process's own (ctest runs the halves of this test side by side), removed at exit.
struct ScratchDirectory {
  fs::path dir = fs::current_path() / ("test_app_scratch-" + std::to_string(getpid()));
  ScratchDirectory() { fs::create_directories(dir); }
  ~ScratchDirectory() {
    std::error_code ec;
    fs::permissions(dir / "locked.opts", fs::perms::owner_all, ec);
    fs::remove_all(dir, ec);
  }
};

fs::path Scratch() {
  static ScratchDirectory scratch;
  return scratch.dir;
}

// A run in the background, for the tests that signal it: its stdout and stderr in files, no core dump. The tests wait
// for a line of its output before they act, never for a fixed time: a loaded machine may take minutes to start MPI.
class BackgroundRun {
public:
  // `command`: the whole command line (env assignments, mpiexec, the executable and its arguments).
  BackgroundRun(const std::string &command, const fs::path &out, const fs::path &err) : out_(out), err_(err) {
    std::ofstream(out_).flush(), std::ofstream(err_).flush(); // empty before the run starts: no earlier run's lines
    pid_ = fork();
    if (pid_ == 0) {
      const struct rlimit none = {0, 0};
      setrlimit(RLIMIT_CORE, &none);
      const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644),
                e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(o, 1), dup2(e, 2);
      execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), (char *)nullptr);
      _exit(127);
    }
  }
  ~BackgroundRun() {
    if (pid_ > 0 && !done_) kill(pid_, SIGKILL), waitpid(pid_, &status_, 0);
  }
  // Waits until `text` is in its stdout (true), or it has ended or `seconds` passed (false).
  bool WaitForOutput(const std::string &text, double seconds = 1500) { // below ctest's hang guard (1800 s)
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
      if (Slurp(out_).find(text) != std::string::npos) return true;
      if (waitpid(pid_, &status_, WNOHANG) == pid_) return done_ = true, Slurp(out_).find(text) != std::string::npos;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  // The launched process (tbpeta itself, or mpiexec, which forwards SIGINT and SIGTERM to the ranks).
  void Signal(int sig) const { kill(pid_, sig); }
  // One rank under mpiexec: a child of it named tbpeta (false when there is none).
  bool SignalRank(int sig) const {
    for (const auto &d : fs::directory_iterator("/proc")) {
      std::ifstream stat(d.path() / "stat");
      std::string pid, comm, state;
      long ppid = 0;
      if (!(stat >> pid >> comm >> state >> ppid) || ppid != pid_ || comm != "(tbpeta)") continue;
      return kill(std::stol(pid), sig) == 0;
    }
    return false;
  }
  // The exit status (as waitpid gives it).
  int Wait() {
    if (!done_) waitpid(pid_, &status_, 0), done_ = true;
    return status_;
  }
  std::string out() const { return Slurp(out_); }
  std::string err() const { return Slurp(err_); }

private:
  fs::path out_, err_;
  pid_t pid_ = -1;
  int status_ = 0;
  bool done_ = false;
};

RunResult RunExecutable(const std::string &name, int ranks, const std::string &args) {
  const char *bin = std::getenv("TBPETA_BIN");
  const char *mpiexec = std::getenv("TBPETA_MPIEXEC");
  const std::string exe = std::string(bin ? bin : "bin") + "/" + name;
  const fs::path out = Scratch() / "stdout.txt", err = Scratch() / "stderr.txt";
  std::string cmd = tbpeta::test::CleanMpiEnvironment() + " " + std::string(mpiexec ? mpiexec : "mpiexec") +
                    " --oversubscribe -q -n " + std::to_string(ranks) + " " + exe + " " + args + " >" + out.string() +
                    " 2>" + err.string();
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.signalled = WIFSIGNALED(status);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(out);
  r.err = Slurp(err);
  return r;
}

RunResult RunTbpeta(int ranks, const std::string &args) { return RunExecutable("tbpeta", ranks, args); }

// s without the lines that contain `word`.
std::string Without(const std::string &s, const std::string &word) {
  std::istringstream in(s);
  std::string kept;
  for (std::string line; std::getline(in, line);)
    if (line.find(word) == std::string::npos) kept += line + "\n";
  return kept;
}

// The number printed right after `key` in text, or -1 when key is missing.
double NumberAfter(const std::string &text, const std::string &key) {
  const size_t at = text.find(key);
  return at == std::string::npos ? -1.0 : std::atof(text.c_str() + at + key.size());
}

int Lines(const std::string &s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// One of the other executables refuses `args`: one line on stderr naming `mentions`, a non-zero exit, no crash.
void ExpectToolError(const std::string &exe, int ranks, const std::string &args, const std::string &mentions) {
  SCOPED_TRACE(exe + " " + args);
  const RunResult r = RunExecutable(exe, ranks, args);
  EXPECT_FALSE(r.signalled);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(exe + ": error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(mentions), std::string::npos) << r.err;
}

// A shipped parameter file with the line of `key` replaced by `line`, written to the scratch directory as `name`.
fs::path ShippedWithLine(const std::string &file, const std::string &key, const std::string &line,
                         const std::string &name) {
  std::ofstream(Scratch() / name) << tbpeta::test::EditedParameterText(
      std::string(TBPETA_TEST_DATA_DIR) + "/params/" + file, key, line);
  return Scratch() / name;
}

void ExpectOneLineError(int ranks, const std::string &args, const std::string &mentions) {
  SCOPED_TRACE(args);
  const fs::path h5 = Scratch() / "bad.h5";
  fs::remove(h5);
  fs::remove(Scratch() / "bad.xmf");
  const std::string with_output = args.find("-output") == std::string::npos ? args + " -output " + h5.string() : args;
  const RunResult r = RunTbpeta(ranks, with_output);
  EXPECT_FALSE(r.signalled);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("tbpeta: error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(mentions), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(h5));
  EXPECT_FALSE(fs::exists(Scratch() / "bad.xmf"));
  for (const auto &e : fs::directory_iterator(Scratch()))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

} // namespace

// The relaxation's refusals: a material without Keating constants, a set without strained tight-binding data, an
// unknown on-site correction, a negative alpha, padding on a periodic axis or
// negative, an unknown model, a held bottom plane on a periodic z, an unknown -strain_lateral or a periodic one without
// room around the open box, a relaxation stopped before its tolerance.
TEST(App, BadInputStrain) {
  const std::string dot =
      "-cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 -eps_type krylovschur -eps_nev 2 ";
  ExpectOneLineError(1, dot + "-strain keating -host_alloy AlAs,0.5", "material AlAs");
  ExpectOneLineError(2, dot + "-strain keating -strain_tb_scaling harrison -host_alloy AlAs,0.5", "keating_alpha");
  ExpectOneLineError(1, dot + "-params jancu1998 -strain keating",
                     "parameter set 'jancu1998', material GaAs has no strained tight-binding data");
  ExpectOneLineError(1, dot + "-strain keating -strain_onsite full", "-strain_onsite: 'full' is not allowed");
  const fs::path negative =
      ShippedWithLine("nemo3d/GaAs.tbp", "keating_alpha", "keating_alpha = -41.49", "negative-alpha.tbp");
  ExpectOneLineError(1, dot + "-strain keating -params_file " + negative.string(), "keating_alpha must be positive");
  ExpectOneLineError(1, "-cells 2,2,2 -periodic 1,1,0 -strain keating -strain_pad_cells 1,0,0", "-strain_pad_cells");
  ExpectOneLineError(1, dot + "-strain keating -strain_pad_cells 0,-1,0", "-strain_pad_cells");
  ExpectOneLineError(1, dot + "-strain vff", "-strain: 'vff' is not allowed");
  ExpectOneLineError(1, "-cells 2,2,2 -periodic 0,0,1 -strain keating -strain_fix zmin", "-strain_fix zmin");
  ExpectOneLineError(1, dot + "-strain keating -strain_lateral sideways", "-strain_lateral: 'sideways' is not allowed");
  ExpectOneLineError(2, dot + "-strain keating -strain_lateral periodic -strain_pad_cells 2,0,1",
                     "-strain_lateral periodic: the strain domain needs room around the open electronic box along y");
  ExpectOneLineError(2, dot + "-strain keating -strain_snes_max_it 3", "-strain_allow_unconverged");
}

// A laterally periodic strain domain is said in the summary line and in strain/'s attribute `lateral`; the
// piezoelectric potential of a wetting layer alone then depends on the atomic plane only (a laterally infinite layer:
// the Poisson grid wraps over the padded domain), where free lateral faces make it vary along each plane by mV. The
// default (auto) is periodic when the open box is padded along x and y, and free when it is not.
TEST(App, LateralStrainBoundaryIsReported) {
  const fs::path h5 = Scratch() / "lateral.h5";
  const std::string layer = "-params nemo3d -material GaAs -cells 4,4,4 -periodic 0,0,0 -dot_material InAs "
                            "-dot_shape dome -dot_radius 0.01 -dot_wetting_layers 2 -dot_center 1.1306,1.1306,0.8480 "
                            "-strain keating -strain_pad_cells 2,2,1 -strain_fix zmin -piezo first -solve false "
                            "-output " +
                            h5.string();
  for (const char *lateral : {"periodic", "free"}) {
    const RunResult r = RunTbpeta(1, layer + " -strain_lateral " + lateral);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("strain         keating (strain domain periodic along x, y), SNES qn:") != std::string::npos,
              std::string(lateral) == "periodic")
        << r.out;
    const std::string spread = std::string(lateral) == "periodic" ? "s < 1e-5" : "s > 1e-3";
    const std::string py = "/usr/bin/python3 -c \"import h5py, numpy as np; f=h5py.File('" + h5.string() +
                           "'); assert f['strain'].attrs['lateral'] == '" + lateral +
                           "'; phi=f['fields/potential'][:]; z=np.round(f['structure/positions'][:, 2] / "
                           "0.1413).astype(int); s=max(np.ptp(phi[z == k]) for k in np.unique(z)); "
                           "assert np.abs(phi).max() > 1e-3 and " +
                           spread + ", s\"";
    EXPECT_EQ(std::system(py.c_str()), 0);
  }
  for (const char *pad : {"2,2,1", "0,2,1"}) { // the default: auto
    const RunResult r = RunTbpeta(1, layer + " -strain_pad_cells " + pad);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("(strain domain periodic along x, y)") != std::string::npos, std::string(pad) == "2,2,1")
        << r.out;
  }
  fs::remove(h5);
  fs::remove(fs::path(h5).replace_extension(".xmf"));
}

// An unconverged relaxation goes on when asked, warned, and its file says so.
TEST(App, StrainAllowUnconverged) {
  const fs::path h5 = Scratch() / "unconverged.h5";
  // Shift-and-invert: the H of a barely relaxed dot is far from the unstrained one the default target is made for.
  const RunResult r = RunTbpeta(
      2,
      "-cells 2,2,2 -periodic 0,0,0 -dot_material InAs -dot_radius 0.4 -eps_type krylovschur -eps_nev 2 -st_type "
      "sinvert -st_pc_type lu "
      "-st_pc_factor_mat_solver_type mumps -strain keating -strain_snes_max_it 3 -strain_allow_unconverged -output " +
          h5.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("NOT converged"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tbpeta: warning: the relaxation stopped before its tolerance"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(h5));
}

TEST(App, BadInputGetsOneLine) {
  TBPETA_ASSERT_RANKS();
  const fs::path broken = Scratch() / "broken.tbp";
  std::ofstream(broken) << "set = mine\nmaterial = GaAs\nEs_a = abc\n";
  const std::string small = "-cells 1,1,1 -eps_type lapack ";
  ExpectOneLineError(1, small + "-material GaN", "-material");
  ExpectOneLineError(1, small + "-params foo", "-params");
  ExpectOneLineError(1, small + "-params nemo3d -dot_material GaN", "-dot_material");
  ExpectOneLineError(1, small + "-material Si -dot_material InAs -dot_radius 0.2", "anion");
  ExpectOneLineError(1, small + "-params_file " + (Scratch() / "missing.tbp").string(), "missing.tbp");
  ExpectOneLineError(1, small + "-params_file " + broken.string(), "broken.tbp");
  ExpectOneLineError(1, "-cells 0,4,4", "-cells");
  ExpectOneLineError(1, "-cells 4,4", "-cells");
  ExpectOneLineError(1, small + "-k 0.1,0.2", "-k");
  ExpectOneLineError(1, small + "-periodic 1,1,2", "-periodic");
  ExpectOneLineError(1, "-cells 2,2,2 -dot_material InAs -dot_radius 3", "-dot_radius");
  ExpectOneLineError(1, "-cells 2,2,2 -dot_material InAs -dot_shape box -dot_size 1,1,9", "-dot_size");
  ExpectOneLineError(1, small + "-output " + (Scratch() / "no/such/dir/x.h5").string(), "-output");
  ExpectOneLineError(1, small + "-tb_spin_orbit 1 -params vogl1983", "-tb_spin_orbit");
  ExpectOneLineError(2, small + "-da_processors_x 3", "-da_processors");
  ExpectOneLineError(3, small + "-da_processors_x 2 -da_processors_z 3", "-da_processors");
  ExpectOneLineError(3,
                     "-cells 1,2,2 -eps_type lapack -partition slab -da_processors_x 3 -da_processors_y 1 "
                     "-da_processors_z 1 -cells 1,1,1 -k 0,0,0 -periodic 1,1,1 -cells 0,1,1",
                     "-cells");
  ExpectOneLineError(2, small + "-material GaN", "-material");
  ExpectOneLineError(1, small + "-eps_type nosuchsolver", "nosuchsolver");
  ExpectOneLineError(1, small + "-folded_eps_type nosuchsolver -eps_type folded", "nosuchsolver");
  ExpectOneLineError(1, small + "-k nan,0,0", "-k");
  ExpectOneLineError(1, small + "-periodic 4294967296,1,1", "-periodic");
  ExpectOneLineError(1, small + "-cells abc", "-cells");
  ExpectOneLineError(1, small + "-passivation_shift nan", "-passivation_shift");
  ExpectOneLineError(1, small + "-eps_target nan", "-eps_target");
  ExpectOneLineError(1, small + "-output " + (Scratch() / (std::string(220, 'z') + ".h5")).string(), "longer than 200");
  ShippedWithLine("jancu1998/GaAs.tbp", "material", "material = Foo", "foo.tbp");
  ExpectOneLineError(2, small + "-params_file " + (Scratch() / "foo.tbp").string(), "does not use");
  // Finite but absurd: four bonds of 1e308 overflow every s row of H; found by the build's check, named by atom.
  ShippedWithLine("jancu1998/GaAs.tbp", "ss_sigma", "ss_sigma = 1e308", "huge.tbp");
  ExpectOneLineError(1, "-cells 2,2,2 -params_file " + (Scratch() / "huge.tbp").string(),
                     "H is not finite at canonical atom 0 (As of GaAs), orbital 0");
  ExpectOneLineError(2, "-cells 2,2,2 -hamiltonian shell -params_file " + (Scratch() / "huge.tbp").string(),
                     "H is not finite at canonical atom");
  ExpectOneLineError(1, "-cells 1,1,1 -eps_type arpack", "-eps_type arpack");
  // The solvers' own refusals: more states than H has, a window outside the spectrum, a shift outside it, dense
  // LAPACK on a matrix too large to densify (10,240 rows), a foreign checkpoint, a folded spectrum with its own ST.
  ExpectOneLineError(1, "-cells 1,1,1 -eps_nev 400", "-eps_nev 400 asks for more states than H has rows");
  ExpectOneLineError(1, "-cells 1,1,1 -eps_interval 100,200", "-eps_interval");
  ExpectOneLineError(1, "-cells 1,1,1 -eps_type folded -eps_target 1000", "-eps_target");
  ExpectOneLineError(1, "-cells 4,4,4 -periodic 0,0,0 -params nemo3d -eps_type lapack", "-dense_max_rows");
  ExpectOneLineError(1, "-cells 1,1,1 -eps_type folded -st_type sinvert", "-folded_eps_type");
  ExpectOneLineError(2, "-cells 2,2,2 -hamiltonian matfree",
                     "Available options: aij baij stored_blocks shell"); // once, not once per rank
  ExpectOneLineError(1, "-cells 1,1,1 -shell_block_cache 0", "-shell_block_cache");
  ExpectOneLineError(1, "-cells 1,1,1 -eps_nemo_stop_after 10", "-eps_nemo_stop_after needs -eps_nemo_checkpoint");
  ExpectOneLineError(1, "-cells 1,1,1 -eps_nemo_stop_after -1", "-eps_nemo_stop_after must be >= 0");
  // PETSc's reader of a logical option names only the value; the line names the option too, once.
  ExpectOneLineError(2, "-cells 1,1,1 -eps_nemo_vectors maybe", "-eps_nemo_vectors maybe: expected true or false");
  ExpectOneLineError(1, "-cells 1,1,1 -hamiltonian shell -eps_type krylovschur -st_type sinvert",
                     "-hamiltonian aij or baij");
  ExpectOneLineError(1, "-cells 1,1,1 -hamiltonian stored_blocks -eps_type lapack", "-hamiltonian aij or baij");
  {
    std::ofstream(Scratch() / "junk.ck") << "this is not a checkpoint, it is just some text";
    ExpectOneLineError(1, "-cells 1,1,1 -eps_nemo_checkpoint " + (Scratch() / "junk.ck").string(),
                       "-eps_nemo_checkpoint");
  }
}

// Every option that was renamed is refused with one line that names its successor (docs/solvers.md, "Renamed
// options"), on any number of ranks.
TEST(App, RenamedOptionsNameTheirSuccessor) {
  TBPETA_ASSERT_RANKS();
  const std::pair<const char *, const char *> renamed[] = {
      {"-solver slepc", "-solver was renamed: use -eps_type"},
      {"-solver compare", "or -compare for -solver compare"},
      {"-lanczos_nev_valence 2", "-lanczos_nev_valence was renamed: use -eps_nev"},
      {"-lanczos_window -1,1", "-lanczos_window was renamed: use -eps_interval"},
      {"-lanczos_max_steps 10", "-lanczos_max_steps was renamed: use -eps_max_it"},
      {"-lanczos_checkpoint x.ck", "-lanczos_checkpoint was renamed: use -eps_nemo_checkpoint"},
      {"-folded_shift 0.5", "-folded_shift was renamed: use -eps_target (with -eps_type folded)"},
      {"-folded_solver lanczos", "-folded_solver was renamed: use -folded_eps_type"},
      {"-mat_type baij", "-mat_type was renamed: use -hamiltonian aij|baij"},
      {"-hamiltonian stored", "-hamiltonian stored was renamed: use -hamiltonian aij (or baij)"},
  };
  for (const auto &[option, message] : renamed) ExpectOneLineError(2, std::string("-cells 1,1,1 ") + option, message);
}

// -options_file that cannot be read (missing, unreadable, a directory): one line naming the option and the file, a
// non-zero exit, no output, from every executable and on any number of ranks; PETSc's own traceback never shows.
TEST(App, UnreadableOptionsFileGetsOneLine) {
  TBPETA_ASSERT_RANKS();
  const fs::path missing = Scratch() / "missing.opts", dir = Scratch() / "adir.opts",
                 locked = Scratch() / "locked.opts", plain = Scratch() / "plain.txt";
  fs::remove(missing);
  fs::create_directories(dir);
  std::ofstream(locked) << "-cells 1,1,1\n";
  std::ofstream(plain) << "a regular file\n";
  fs::permissions(locked, fs::perms::none);
  const bool root_reads_anything = std::ifstream(locked).good(); // root ignores permissions
  struct Case {
    fs::path file;
    const char *reason;
  };
  // A file that cannot be opened even by root (CI runs as root): a path through a regular file. The permission case
  // itself is run where permissions apply.
  std::vector<Case> cases = {
      {missing, "No such file or directory"}, {dir, "it is a directory"}, {plain / "under.opts", "Not a directory"}};
  if (!root_reads_anything) cases.push_back({locked, "Permission denied"});
  // Every program on one rank; tbpeta on two as well (they share ApplicationMain, which reads the file on rank 0).
  for (const char *exe : {"tbpeta", "tbpeta-bands", "tbpeta-halo", "tbpeta-model", "bench_operators", "bench_build",
                          "bench_solvers", "bench_strain"})
    for (const Case &c : cases)
      for (int ranks : {1, 2}) {
        if (ranks == 2 && std::string(exe) != "tbpeta") continue;
        SCOPED_TRACE(std::string(exe) + " on " + std::to_string(ranks) + " ranks");
        const RunResult r = RunExecutable(
            exe, ranks, "-options_file " + c.file.string() + " -output " + (Scratch() / "never.h5").string());
        EXPECT_FALSE(r.signalled);
        EXPECT_NE(r.exit_code, 0);
        EXPECT_EQ(r.err, std::string(exe) + ": error: -options_file: cannot read '" + c.file.string() + "' (" +
                             c.reason + ")\n");
        EXPECT_FALSE(fs::exists(Scratch() / "never.h5"));
      }
  fs::permissions(locked, fs::perms::owner_all);
}

TEST(App, SolvesAndWritesTheSameOnOneAndTwoRanks) {
  TBPETA_ASSERT_RANKS();
  const std::string args =
      "-cells 2,2,2 -periodic 0,0,0 -params klimeck2000 -dot_material InAs -dot_radius 0.4 -eps_type lapack ";
  const fs::path a = Scratch() / "one.h5", b = Scratch() / "two.h5";
  const RunResult r1 = RunTbpeta(1, args + "-output " + a.string());
  const RunResult r2 = RunTbpeta(2, args + "-output " + b.string() + " -partition slab");
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  EXPECT_NE(r1.out.find("atoms          64"), std::string::npos) << r1.out;
  EXPECT_NE(r2.out.find("process grid   2 x 1 x 1"), std::string::npos) << r2.out;
  ASSERT_TRUE(fs::exists(a) && fs::exists(b));
  // Same eigenvalues and the same canonical-order structure from both runs (h5py, as a user would read them).
  const std::string py = "/usr/bin/python3 -c \"import h5py, numpy as np; a=h5py.File('" + a.string() +
                         "'); b=h5py.File('" + b.string() +
                         "'); assert a['eigenvalues'].shape == (640,); assert "
                         "np.abs(a['eigenvalues'][:]-b['eigenvalues'][:]).max() < 1e-10; "
                         "assert (a['structure/species'][:] == b['structure/species'][:]).all(); assert "
                         "(a['structure/material'][:] == b['structure/material'][:]).all(); "
                         "assert np.abs(a['structure/positions'][:]-b['structure/positions'][:]).max() == 0; assert "
                         "a['structure/positions'].shape == (64, 3); "
                         "assert 'klimeck2000' in a.attrs['options']; assert a['states/density'].shape == (640, 64)\"";
  EXPECT_EQ(std::system(py.c_str()), 0);
}

// Every solver that returns eigenvectors writes states/density (SLEPc's own as tbpeta's); eigenvalues only write none.
TEST(App, EverySolverWithVectorsWritesTheDensity) {
  TBPETA_ASSERT_RANKS();
  const std::string dot =
      "-cells 2,2,2 -periodic 0,0,0 -params klimeck2000 -dot_material InAs -dot_radius 0.4 -eps_nev 4 ";
  // The shift-and-invert runs on 1 rank: with MUMPS on 2 ranks this test took 21.8 s of a CI run, beside the other
  // tests, and 2.0 s alone. The densities of 2 ranks' states are gathered by the same writer for every solver.
  const std::tuple<const char *, bool, int> runs[] = {{"-eps_type krylovschur -st_type sinvert", true, 1},
                                                      {"-eps_type arpack -st_type sinvert", true, 1},
                                                      {"-eps_type folded", true, 2},
                                                      {"-eps_type nemo", true, 2},
                                                      {"-eps_type nemo -eps_nemo_vectors false", false, 2}};
  for (const auto &[solver, density, ranks] : runs) {
    SCOPED_TRACE(solver);
    const fs::path h5 = Scratch() / "density.h5";
    fs::remove(h5);
    const RunResult r = RunTbpeta(ranks, dot + solver + " -output " + h5.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const std::string py = "/usr/bin/python3 -c \"import h5py; f=h5py.File('" + h5.string() + "'); s=f['states']; " +
                           (density ? "assert s['density'].shape[0] >= 4 and s['density'].shape[1] == 64, "
                                      "s['density'].shape; assert abs(s['density'][()].sum(axis=1) - 1).max() < 1e-10"
                                    : "assert 'density' not in s") +
                           "\"";
    EXPECT_EQ(std::system(py.c_str()), 0);
  }
}

// bench_solvers split over jobs: a job's rows (-bench_csv) come back in a later job (-bench_rows) as measured, are
// compared with its own runs, and are refused for another structure or when a run would be measured twice.
TEST(App, BenchSolversSplitsTheRunsOverJobs) {
  TBPETA_ASSERT_RANKS();
  const std::string sys = "-cells 3,3,3 -dot_radius 0.8 ";
  const fs::path a = Scratch() / "bench_a.csv", b = Scratch() / "bench_b.csv";
  fs::remove(a), fs::remove(b);
  const RunResult r1 = RunExecutable("bench_solvers", 2, sys + "-compare_runs lanczos -bench_csv " + a.string());
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  const RunResult r2 = RunExecutable(
      "bench_solvers", 2, sys + "-compare_runs folded_lanczos -bench_rows " + a.string() + " -bench_csv " + b.string());
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  EXPECT_NE(r2.out.find("1 rows from"), std::string::npos) << r2.out;
  EXPECT_NE(r2.out.find("the new runs look around"), std::string::npos) << r2.out; // recentred on the earlier Lanczos
  EXPECT_NE(r2.out.find("folded lanczos               / lanczos: products"), std::string::npos) << r2.out;
  EXPECT_NE(r2.out.find("the Lanczos needs the least memory"), std::string::npos) << r2.out;
  // The Lanczos row is carried over as measured: same products and states in both files.
  const std::string csv_a = Slurp(a), csv_b = Slurp(b);
  const std::string row_a = csv_a.substr(csv_a.find("\nlanczos,") + 1),
                    row_b = csv_b.substr(csv_b.find("\nlanczos,") + 1);
  const auto head = [](const std::string &row) { return row.substr(0, row.find(",1,1,")); }; // run .. requested
  EXPECT_EQ(head(row_a), head(row_b));
  const auto states = [](const std::string &row) {
    const std::string line = row.substr(0, row.find('\n'));
    return line.substr(line.rfind(",\""));
  };
  EXPECT_EQ(states(row_a), states(row_b));
  EXPECT_NE(csv_b.find("\nfolded_lanczos,"), std::string::npos) << csv_b;
  EXPECT_EQ(Lines(csv_b), 4) << csv_b; // signature, header, two rows

  const auto refused = [&](const std::string &args, const std::string &mentions) {
    ExpectToolError("bench_solvers", 2, args, mentions);
  };
  refused("-cells 3,3,3 -dot_radius 0.6 -compare_runs folded_lanczos -bench_rows " + a.string(), "was measured on");
  refused(sys + "-compare_runs lanczos -bench_rows " + a.string(), "-compare_runs: lanczos was measured already");
  refused(sys + "-bench_rows " + a.string() + "," + a.string(), "in the files twice");
  refused(sys + "-bench_rows " + (Scratch() / "none.csv").string(), "cannot read");
}

// tbpeta-halo: a table for a valid sweep; one line for an impossible decomposition.
TEST(App, HaloToolCountsAndRefusesImpossibleDecompositions) {
  TBPETA_ASSERT_RANKS();
  const RunResult ok = RunExecutable("tbpeta-halo", 1, "-cells 4,4,4 -periodic 0,0,0 -partition slab -domains 2,16,32");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("      32  32 x 1 x 1"), std::string::npos)
      << ok.out; // 16 planes, 32 slabs: half of them empty
  EXPECT_NE(ok.out.find("16"), std::string::npos);
  ExpectToolError("tbpeta-halo", 1, "-cells 2,2,2 -domains 0", "-domains");
  ExpectToolError("tbpeta-halo", 1, "-cells 2,2,2 -domains 8 -da_processors_x 2 -da_processors_y 3",
                  "-da_processors_x/y/z");
  ExpectToolError("tbpeta-halo", 1, "-cells 2,2,2 -partition ring", "-partition");
  ExpectToolError("tbpeta-halo", 1, "-cells 2,2,2 -csv /nonexistent/halo.csv",
                  "-csv /nonexistent/halo.csv: directory /nonexistent does not exist");
}

// tbpeta-model: the three decompositions for a small structure; one line for a bad setting.
TEST(App, ModelToolRunsAndRefusesBadSettings) {
  TBPETA_ASSERT_RANKS();
  const RunResult ok = RunExecutable("tbpeta-model", 1, "-cells 6,6,6 -domains 1,8,64");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  for (const char *section : {"strong scaling, slab", "strong scaling, column", "strong scaling, cube", "weak scaling",
                              "network bandwidth needed"})
    EXPECT_NE(ok.out.find(section), std::string::npos) << section;
  ExpectToolError("tbpeta-model", 1, "-cells 2,2,2 -model_settings 1990", "-model_settings");
  ExpectToolError("tbpeta-model", 1, "-cells 2,2,2 -model_t_atom 1e-6 -model_latency 1e-6 -model_bandwidth 0",
                  "-model_bandwidth");
  ExpectToolError("tbpeta-model", 1, "-cells 2,2,2 -model_t_atom 1e-6", "go together");
  ExpectToolError("tbpeta-model", 1, "-cells 2,2,2 -domains 0", "-domains");
  ExpectToolError("tbpeta-model", 1, "-cells 2,2,2 -model_settings measured -model_measured_dir /nonexistent",
                  "run benchmarks/run-study");
}

// -help lists every option of the application with its default, and runs nothing.
TEST(App, HelpListsTheOptions) {
  TBPETA_ASSERT_RANKS();
  const RunResult r = RunTbpeta(1, "-help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char *option : {"-cells",
                             "-periodic",
                             "-k <",
                             "-params",
                             "-material",
                             "-dot_material",
                             "-host_alloy",
                             "-partition",
                             "-hamiltonian",
                             "-shell_block_cache",
                             "-eps_type",
                             "-eps_nemo_valence",
                             "-eps_nemo_checkpoint",
                             "-eps_nemo_multiplicity_passes",
                             "-compare",
                             "-compare_max_products",
                             "-compare_runs",
                             "-dense_max_rows",
                             "-output",
                             "-output_vectors",
                             "-eps_nev",
                             "-progress",
                             "-memory_limit"})
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  EXPECT_NE(r.out.find("-hamiltonian <now aij"), std::string::npos); // with its default
  EXPECT_EQ(r.out.find("converged of"), std::string::npos);          // nothing solved
}

// The memory preflight: the estimate printed before building is close to the measured peak, and a run that cannot
// fit within -memory_limit is refused before anything large is allocated, with what would make it fit.
TEST(App, MemoryPreflightEstimatesAndRefuses) {
  TBPETA_ASSERT_RANKS();
  const std::string dot = "-cells 6,6,6 -periodic 0,0,0 -params nemo3d -dot_material InAs -dot_radius 0.8 ";
  const RunResult ok = RunTbpeta(1, dot + "-eps_nev 4 -eps_nemo_vectors false"); // one pass: 4 s, not 14
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const double estimate = NumberAfter(ok.out, "memory estimate per rank (largest): ");
  const double peak = NumberAfter(ok.out, "peak resident memory (VmHWM): ");
  ASSERT_GT(estimate, 0) << ok.out;
  ASSERT_GT(peak, 0) << ok.out;
  EXPECT_GT(estimate, 0.6 * peak) << ok.out; // 1,728 atoms, stored H of about 29 MB on top of the runtime
  EXPECT_LT(estimate, 1.6 * peak) << ok.out;
  // About 65 MB on one rank, 37 of them the runtime: 50 MB fits with more ranks or the shell operator.
  ExpectOneLineError(1, dot + "-memory_limit 50", "-memory_limit: this run needs about");
  ExpectOneLineError(
      1, dot + "-memory_limit 50",
      "but -memory_limit is 50 MB per rank; to fit, use about 3 ranks (mpiexec -n), -hamiltonian shell (then");
  ExpectOneLineError(2, dot + "-memory_limit 20", "-memory_limit: this run needs about");
  ExpectOneLineError(1, dot + "-memory_limit 0", "-memory_limit: must be a positive number of MB per rank");
  ExpectOneLineError(1, dot + "-memory_limit nan", "-memory_limit");
}

// The relaxation is the largest phase of a padded strained run before H: the preflight counts it (the padded domain,
// the minimiser's vectors, the preconditioner), within 10 % of the measured peak on 1 and 2 ranks.
TEST(App, MemoryPreflightCountsTheRelaxation) {
  TBPETA_ASSERT_RANKS();
  const std::string lens = "-cells 12,12,8 -periodic 0,0,0 -params nemo3d -dot_material InAs -dot_shape lens "
                           "-dot_diameter 5 -dot_height 1.5 -dot_wetting_layers 2 -dot_center 3.39192,3.39192,1.69596 "
                           "-strain keating -strain_pad_cells 3,3,4 -strain_fix zmin -solve false ";
  for (int ranks : {1, 2}) {
    const RunResult r = RunTbpeta(ranks, lens); // 41,472 atoms relaxed: about 110 MB per rank of 145 on one
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const double estimate = NumberAfter(r.out, "memory estimate per rank (largest): ");
    const double relaxation = NumberAfter(r.out, "(the relaxation before H: ");
    const double peak = NumberAfter(r.out, "peak resident memory (VmHWM): ");
    ASSERT_GT(relaxation, 0.5 * estimate) << r.out;
    EXPECT_GT(estimate, 0.9 * peak) << r.out;
    EXPECT_LT(estimate, 1.1 * peak) << r.out;
  }
  ExpectOneLineError(1, lens + "-memory_limit 100", "relaxation 107 MB before H");
}

// A run stopped at the solver's limit keeps what converged and says so (exit 0, solver/complete = 0 in the file);
// one that converged nothing is an error with no file.
TEST(App, IncompleteRunKeepsWhatConverged) {
  TBPETA_ASSERT_RANKS();
  const std::string dot = "-cells 2,2,2 -periodic 0,0,0 -params klimeck2000 -dot_material InAs -dot_radius 0.4 "
                          "-host_alloy AlAs,0.3 -vbo_InAs 0.2 ";
  const fs::path h5 = Scratch() / "incomplete.h5";
  fs::remove(h5);
  const RunResult r = RunTbpeta(
      1, dot + "-eps_nev 44 -eps_nemo_valence 4 -eps_max_it 600 -eps_nemo_check_every 50 -output " + h5.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("warning: incomplete:"), std::string::npos) << r.out;
  ASSERT_TRUE(fs::exists(h5));
  const std::string py = "/usr/bin/python3 -c \"import h5py; f=h5py.File('" + h5.string() +
                         "'); s=f['solver']; "
                         "c = s['complete'][()] if 'complete' in s else s.attrs['complete']; assert c == 0, c; assert "
                         "0 < f['eigenvalues'].shape[0] < 44\"";
  EXPECT_EQ(std::system(py.c_str()), 0);
  ExpectOneLineError(1, dot + "-eps_max_it 100 -eps_nemo_check_every 50",
                     "no state converged within the solver's limits");
}

// SIGTERM (a batch system's time limit, Ctrl-C through mpiexec) during a solve: one line naming what was interrupted,
// the shell's exit code 128 + 15, and no output file or temporary left behind. The signal is sent once the run has
// said it is in its first Lanczos pass (a progress line), however long the machine took to get there.
TEST(App, InterruptedRunLeavesNoFile) {
  TBPETA_ASSERT_RANKS();
  const char *bin = std::getenv("TBPETA_BIN");
  const fs::path h5 = Scratch() / "interrupted.h5", out = Scratch() / "int_out.txt", err = Scratch() / "int_err.txt";
  fs::remove(h5);
  // A Lanczos that runs for minutes (many states, far more steps than it gets), interrupted in its first pass.
  const std::string args = " -cells 8,8,8 -periodic 0,0,0 -params nemo3d -hamiltonian shell -eps_nev 120 -eps_max_it "
                           "1000000 -progress 0.05 -output " +
                           h5.string();
  const std::string exe = std::string(bin ? bin : "bin") + "/tbpeta";
  for (const std::string launcher : {std::string(""), std::string("mpiexec --oversubscribe -q -n 2 ")}) {
    SCOPED_TRACE(launcher.empty() ? "1 rank, no mpiexec" : launcher);
    // (mpiexec forwards SIGTERM and gives the ranks a second to end cleanly before its SIGKILL)
    BackgroundRun run(tbpeta::test::CleanMpiEnvironment() + " OMPI_MCA_odls_base_sigkill_timeout=1 " + launcher + exe +
                          args,
                      out, err);
    ASSERT_TRUE(run.WaitForOutput("Lanczos first pass: ")) << run.out() << run.err();
    run.Signal(SIGTERM);
    const int status = run.Wait();
    const std::string so = run.out(), se = run.err();
    EXPECT_EQ(so.find("converged of"), std::string::npos) << so; // not finished
    // tbpeta exits 128 + 15; mpiexec, after forwarding the signal, may take it itself
    if (launcher.empty()) EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 128 + 15) << status;
    else
      EXPECT_TRUE((WIFEXITED(status) && WEXITSTATUS(status) != 0) ||
                  (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM))
          << status;
    // Seen by the recurrence (at a step) or by the solver's monitor (at a convergence check), whichever comes first.
    EXPECT_EQ(se.rfind("tbpeta: error: interrupted by SIGTERM during the ", 0), 0u) << se << so;
    EXPECT_TRUE(se.find("the Lanczos recurrence (product ") != std::string::npos ||
                se.find("the eigen-solve (iteration ") != std::string::npos)
        << se;
    EXPECT_NE(se.find("; no output written\n"), std::string::npos) << se;
    // ours is one line; mpiexec may add its own notice, and its event library a "[warn]" line while the ranks end
    EXPECT_EQ(Lines(Without(Without(se, "mpiexec"), "[warn] ")), 1) << se;
    EXPECT_EQ(se.find("tbpeta: error:", 1), std::string::npos) << se;
    EXPECT_FALSE(fs::exists(h5));
    for (const auto &e : fs::directory_iterator(Scratch()))
      EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
  }
}

// A misspelt option is named before the work, with the option meant; options that PETSc reads late (-log_view,
// -eps_view, -malloc_dump) and those of objects made later (the relaxation's SNES) are not; -options_strict makes it
// an error before anything is built.
TEST(App, MisspeltOptionIsNamedBeforeTheWork) {
  TBPETA_ASSERT_RANKS();
  const std::string dot = "-cells 3,3,3 -periodic 0,0,0 -params nemo3d -dot_material InAs -dot_radius 0.6 -eps_nev 2 "
                          "-strain keating -strain_snes_max_it 100 ";
  for (int ranks : {1, 2}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const RunResult r = RunTbpeta(ranks, dot + "-dot_radus 0.5 -eps_nemo_valance 1 -log_view -eps_view -malloc_dump");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const size_t warning =
        r.out.find("tbpeta: warning: option -dot_radus (did you mean -dot_radius?) is given but nothing reads it");
    ASSERT_NE(warning, std::string::npos) << r.out;
    EXPECT_LT(warning, r.out.find("memory estimate")); // before the work
    EXPECT_NE(r.out.find("option -eps_nemo_valance (did you mean -eps_nemo_valence?)"), std::string::npos) << r.out;
    EXPECT_EQ(Lines(r.out) - Lines(Without(r.out, "nothing reads it")), 2)
        << r.out; // not -log_view, -eps_view, -malloc_dump, -strain_*
    EXPECT_EQ(r.out.find("was given but not used"), std::string::npos) << r.out; // and not again at exit
  }
  ExpectOneLineError(
      2, dot + "-dot_radus 0.5 -frobnicate -options_strict",
      "-options_strict: -dot_radus (did you mean -dot_radius?), -frobnicate are given but nothing reads them");
}

// SLEPc's solvers with more rows per rank than OpenBLAS's Prescott kernels can take in a zgemv (2^23, the kernels
// forced here as this machine's CPU gets them) are refused before the solve, in one line saying what to do; the
// nemo Lanczos does its own vector algebra and is not refused (its deflation there:
// Lanczos.DeflatesBeyondTheBlasBuffer).
// bench_operators measures every row on rank 0 alone, then on all ranks: an error in rank 0's run alone (here a set
// without strain data on the strained dot) ends every rank with its one line, and writes no CSV, instead of leaving
// the other ranks waiting for it.
TEST(App, BenchmarkErrorOnRankZeroAloneEndsEveryRank) {
  TBPETA_ASSERT_RANKS();
  const fs::path csv = Scratch() / "never.csv";
  const RunResult r = RunExecutable("bench_operators", 2,
                                    "-bench_cells 2 -bench_sets vogl1983 -bench_structures strained_dot "
                                    "-bench_variants shell -bench_products 3 -bench_triad_mb 1 -bench_csv " +
                                        csv.string());
  EXPECT_FALSE(r.signalled);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(Without(r.err, "mpiexec")), 1) << r.err;
  EXPECT_NE(r.err.find("bench_operators: error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("vogl1983"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(csv));
}

TEST(App, SlepcSolversBeyondTheBlasLimitAreRefused) {
  TBPETA_ASSERT_RANKS();
  setenv("OPENBLAS_CORETYPE", "Prescott", 1);
  // 38^3 cells: 438,976 atoms x 20 rows = 8,779,520 rows on one rank, just past 2^23.
  ExpectOneLineError(1, "-cells 38,38,38 -params nemo3d -hamiltonian shell -eps_type krylovschur",
                     "-eps_type krylovschur: 8779520 rows on a rank are more than this machine's BLAS can take in "
                     "SLEPc's orthogonalisation (OpenBLAS's prescott kernels");
  unsetenv("OPENBLAS_CORETYPE");
}

// A crash inside the solver (a SIGSEGV, here sent to a rank during the Lanczos's restarted pass) ends the run with
// tbpeta's one line naming the phase, instead of PETSc's dump; the exit is the signal's, no output or temporary file
// is left, and the checkpoint keeps what the passes had finished: the same command then continues from it, without
// repeating those passes, to the uninterrupted run's states.
TEST(App, CrashNamesItsPhaseAndKeepsTheCheckpoint) {
  TBPETA_ASSERT_RANKS();
  const char *bin = std::getenv("TBPETA_BIN");
  const std::string exe = std::string(bin ? bin : "bin") + "/tbpeta";
  const fs::path h5 = Scratch() / "crashed.h5", ck = Scratch() / "crashed.ck", out = Scratch() / "crash_out.txt",
                 err = Scratch() / "crash_err.txt";
  const std::string args = " -options_file " + std::string(TBPETA_TEST_SOURCE_DIR) +
                           "/options/quickstart.opts -cells 3,3,3 -dot_radius 0.6 -progress 0.01";
  const auto states = [](const std::string &so) { // the table of states: "  <i>  <E>  <residual>" lines
    std::istringstream in(so);
    std::string rows;
    int i;
    double e, r;
    for (std::string line; std::getline(in, line);)
      if (std::sscanf(line.c_str(), " %d %lf %lf", &i, &e, &r) == 3) rows += line + "\n";
    return rows;
  };
  for (int ranks : {1, 2}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const RunResult whole = RunTbpeta(ranks, args);
    ASSERT_EQ(whole.exit_code, 0) << whole.err;
    ASSERT_NE(whole.out.find("lanczos multiplicity pass 1: "), std::string::npos)
        << whole.out; // it has a restarted pass
    fs::remove(ck);
    const std::string launcher = ranks == 1 ? "" : "mpiexec --oversubscribe -q -n 2 ";
    const std::string run_args = args + " -eps_nemo_checkpoint " + ck.string() + " -output " + h5.string();
    BackgroundRun run(tbpeta::test::CleanMpiEnvironment() + " " + launcher + exe + run_args, out, err);
    ASSERT_TRUE(run.WaitForOutput("lanczos multiplicity pass 1: ")) << run.out() << run.err();
    if (ranks == 1) run.Signal(SIGSEGV);
    else ASSERT_TRUE(run.SignalRank(SIGSEGV)) << run.out() << run.err();
    const int status = run.Wait();
    const std::string se = run.err();
    if (ranks == 1) EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) << status; // 139 in a shell
    else EXPECT_TRUE(WIFSIGNALED(status) || WEXITSTATUS(status) != 0) << status;
    const std::string line = ranks == 1 ? "tbpeta: error: crashed (SIGSEGV, invalid memory access) during the solve "
                                          "(-eps_type nemo): lanczos multiplicity pass 1; no output written; "
                                        : "] crashed (SIGSEGV, invalid memory access) during the solve (-eps_type "
                                          "nemo): lanczos multiplicity pass 1; no output written; ";
    EXPECT_NE(se.find(line + "the checkpoint " + ck.string() + " holds the states of the passes finished"),
              std::string::npos)
        << se;
    EXPECT_EQ(se.find("PETSC ERROR"), std::string::npos) << se;
    EXPECT_EQ(Lines(se) - Lines(Without(se, "crashed (")), 1) << se; // one rank crashed: one line
    if (ranks == 1) EXPECT_EQ(Lines(se), 1) << se;
    EXPECT_FALSE(fs::exists(h5));
    for (const auto &e : fs::directory_iterator(Scratch()))
      EXPECT_EQ(e.path().filename().string().find(".partial"), std::string::npos) << e.path();
    // Continued: the second pass is not repeated, and the states are the uninterrupted run's.
    const RunResult rest = RunTbpeta(ranks, run_args);
    ASSERT_EQ(rest.exit_code, 0) << rest.err;
    EXPECT_NE(rest.out.find("with the states of its later passes"), std::string::npos) << rest.out;
    EXPECT_EQ(rest.out.find("Lanczos eigenvectors (second pass)"), std::string::npos) << rest.out;
    EXPECT_TRUE(fs::exists(h5));
    EXPECT_FALSE(states(whole.out).empty()) << whole.out;
    EXPECT_EQ(states(rest.out), states(whole.out)) << rest.out;
    fs::remove(h5);
  }
  fs::remove(ck);
}

// The tuned shell kernel solves as the reference one (-shell_kernel reference, the kernel before it was tuned): the
// same levels to 1e-10 eV and converged residuals, on the quick start and on a relaxed dot (strained bonds), 2 ranks.
TEST(App, TunedKernelSolvesAsTheReference) {
  TBPETA_ASSERT_RANKS();
  const std::string dir = std::string(TBPETA_TEST_SOURCE_DIR) + "/options/";
  const std::string cases[] = {"-options_file " + dir + "quickstart.opts -hamiltonian shell",
                               "-options_file " + dir +
                                   "strained-dot.opts -cells 6,6,5 -dot_radius 1.4 "
                                   "-dot_center 1.696,1.696,1.4133 -piezo none"};
  for (const std::string &args : cases) {
    SCOPED_TRACE(args);
    const fs::path tuned = Scratch() / "tuned.h5", reference = Scratch() / "reference.h5";
    const std::string four = " -eps_nev 4 -eps_nemo_valence 2"; // the lowest 2 + 2 levels: half the products of 8
    const RunResult a = RunTbpeta(2, args + four + " -shell_kernel tuned -output " + tuned.string());
    const RunResult b = RunTbpeta(2, args + four + " -shell_kernel reference -output " + reference.string());
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    const std::string py = "/usr/bin/python3 -c \"import h5py, numpy as np; a=h5py.File('" + tuned.string() +
                           "'); b=h5py.File('" + reference.string() +
                           "'); assert a['eigenvalues'].shape == b['eigenvalues'].shape == (4,); "
                           "assert np.abs(a['eigenvalues'][:]-b['eigenvalues'][:]).max() < 1e-10; "
                           "assert a['states/residuals'][:].max() < 1e-8 and b['states/residuals'][:].max() < 1e-8\"";
    EXPECT_EQ(std::system(py.c_str()), 0);
    for (const fs::path &h5 : {tuned, reference}) {
      fs::remove(h5);
      fs::remove(fs::path(h5).replace_extension(".xmf"));
    }
  }
}

// The states table and file say whether each state is the dot's: the quick start's sphere binds nothing (a warning,
// states/bound all 0, and the fraction of each state on the sphere's atoms); a structure without a region has neither
// the columns nor the warning, and its file neither dataset.
TEST(App, StatesSayWhetherTheyAreBound) {
  TBPETA_ASSERT_RANKS();
  const fs::path h5 = Scratch() / "bound.h5";
  const RunResult r = RunTbpeta(2, "-options_file " + std::string(TBPETA_TEST_SOURCE_DIR) +
                                       "/options/quickstart.opts -output " + h5.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("||Hx-Ex||  in dot  bound\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tbpeta: warning: not bound to the dot: 4 of 4 electron states at or above the host's "
                       "conduction-band minimum 1.4212 eV (G), 4 of 4 hole states"),
            std::string::npos)
      << r.out;
  const std::string py = "/usr/bin/python3 -c \"import h5py, numpy as np; f=h5py.File('" + h5.string() +
                         "'); b=f['states/bound']; d=f['states/dot_fraction']; assert b.dtype == np.int8 and "
                         "b.shape == (8,) and (b[:] == 0).all(); assert d.dtype == np.float64 and d.shape == (8,); "
                         "assert (d[:] > 0.5).all() and (d[:] < 0.75).all()\"";
  EXPECT_EQ(std::system(py.c_str()), 0);
  // eigenvalues only: the bound column and dataset, no fractions
  const RunResult values = RunTbpeta(1, "-options_file " + std::string(TBPETA_TEST_SOURCE_DIR) +
                                            "/options/quickstart.opts -eps_nemo_vectors false -eps_nev 4 "
                                            "-eps_nemo_valence 2 -output " +
                                            h5.string());
  ASSERT_EQ(values.exit_code, 0) << values.err;
  EXPECT_NE(values.out.find("||Hx-Ex||  bound\n"), std::string::npos) << values.out;
  const std::string py1 = "/usr/bin/python3 -c \"import h5py; f=h5py.File('" + h5.string() +
                          "'); assert 'bound' in f['states'] and 'dot_fraction' not in f['states']\"";
  EXPECT_EQ(std::system(py1.c_str()), 0);
  const RunResult bulk =
      RunTbpeta(1, "-cells 2,2,2 -params vogl1983 -eps_type lapack -eps_nev 4 -output " + h5.string());
  ASSERT_EQ(bulk.exit_code, 0) << bulk.err;
  EXPECT_EQ(bulk.out.find("in dot"), std::string::npos) << bulk.out;
  EXPECT_EQ(bulk.out.find("not bound"), std::string::npos) << bulk.out;
  const std::string py2 = "/usr/bin/python3 -c \"import h5py; f=h5py.File('" + h5.string() +
                          "'); assert 'bound' not in f['states'] and 'dot_fraction' not in f['states']\"";
  EXPECT_EQ(std::system(py2.c_str()), 0);
  fs::remove(h5);
  fs::remove(fs::path(h5).replace_extension(".xmf"));
}

// The dot shapes' refusals, each in one line naming the option or FILE:line, with nothing written.
TEST(App, BadInputDotsGetOneLine) {
  const std::string c = "-params vogl1983 -cells 10,10,6 -periodic 1,1,0 -dot_material InAs ";
  ExpectOneLineError(1, c + "-dot_shape lens -dot_diameter 4 -dot_height 2.5", "-dot_height: 2.5 nm is above half");
  ExpectOneLineError(1, c + "-dot_shape lens -dot_diameter 0 -dot_height 1", "-dot_diameter: 0 nm; must be positive");
  ExpectOneLineError(1, c + "-dot_shape pyramid -dot_base 4 -dot_height -1", "-dot_height: -1 nm; must be positive");
  ExpectOneLineError(1, c + "-dot_shape lens -dot_diameter 8 -dot_height 1 -dot_center 2,2.8,1",
                     "outside the supercell");
  ExpectOneLineError(2,
                     c + "-dot_shape lens -dot_diameter 3 -dot_height 1 -dot_center 2.8,2.8,1 -dot_stack 3 "
                         "-dot_stack_spacing 1.1",
                     "-dot_stack 3 (dot 3): the lens 3 nm wide, 1 nm tall spans");
  ExpectOneLineError(1, c + "-dot_shape lens -dot_diameter 3 -dot_height 1 -dot_composition 0.5,1.5",
                     "-dot_composition: 1.5 is outside [0, 1]");
  ExpectOneLineError(1, c + "-dot_shape pentagon", "-dot_shape");
  const fs::path file = Scratch() / "dots.txt";
  std::ofstream(file) << "# two dots\nlens material=InAs diameter=3 height=1\npyramid material=InAs base=3 hight=1\n";
  ExpectOneLineError(2, "-params vogl1983 -cells 10,10,6 -structure_file " + file.string(),
                     file.string() + ":3: a pyramid takes material, center, base, height, wetting, alloy, composition "
                                     "(not hight)");
  std::ofstream(file) << "box material=Si size=1,1,1 center=2.8,2.8,1.5\n";
  ExpectOneLineError(1, "-params vogl1983 -cells 10,10,6 -structure_file " + file.string(), "do not share the anion");
  ExpectOneLineError(1, c + "-structure_file " + file.string(), "give -dot_material or -structure_file, not both");
}

// A lens on its wetting layer, relaxed, strained H, solved and written with its composition; -solve false writes the
// structure, composition and strain without H or states.
TEST(App, LensRelaxesSolvesAndWritesItsComposition) {
  const fs::path h5 = Scratch() / "lens.h5", look = Scratch() / "look.h5";
  const std::string lens = "-params nemo3d -cells 5,5,4 -periodic 1,1,0 -dot_material InAs -dot_shape lens "
                           "-dot_diameter 2.4 -dot_height 0.8 -dot_wetting_layers 1 -dot_center 1.4133,1.4133,0.6 "
                           "-strain keating ";
  const RunResult r = RunTbpeta(2, lens + "-eps_nev 2 -output " + h5.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("region 1       InAs lens 2.4 nm wide, 0.8 nm tall at (1.413, 1.413, 0.600) nm on 1 ML of "
                       "wetting layer (-dot_*): "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("4 converged of 2 requested"), std::string::npos) << r.out;
  // The look before the solve, with the potentials on the atoms (piezoelectric and applied) in its file.
  const RunResult s = RunTbpeta(2, lens + "-solve false -piezo second -efield 0,0,20 -output " + look.string());
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("  fields         piezo second (e14 calculated): Poisson on "), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("applied field 0,0,20 kV/cm, zero at "), std::string::npos) << s.out;
  EXPECT_EQ(s.out.find("eigenvalues"), std::string::npos) << s.out;
  EXPECT_EQ(s.out.find("matrix "), std::string::npos) << s.out;
  // The same structure and composition from both; a pure dot: x = 1 on its cations, 0 on the host's.
  const std::string py =
      "/usr/bin/python3 -c \"import h5py, numpy as np; a=h5py.File('" + h5.string() + "'); b=h5py.File('" +
      look.string() +
      "'); x=a['composition/x'][:]; reg=a['composition/region'][:]; sp=a['structure/species'][:]; "
      "names=a['structure/species'].attrs['names'].split(','); "
      "cat=sp != names.index('As'); inn=sp == names.index('In'); "
      "assert (x[cat & inn] == 1).all() and (x[cat & ~inn] == 0).all(); assert ((reg == 0) == (x > 0))[cat].all(); "
      "assert (a['composition/x'][:] == b['composition/x'][:]).all(); assert b['eigenvalues'].shape == (0,); "
      "assert np.abs(a['strain/tensor'][:] - b['strain/tensor'][:]).max() < 1e-9; assert len(a['eigenvalues']) == 4; "
      "n=len(sp); phi=b['fields/potential'][:]; P=b['fields/polarization'][:]; assert phi.shape == (n,) and P.shape "
      "== (n, 3); assert np.abs(P).max() > 1e-4 and np.isfinite(phi).all(); assert 'fields' not in a; "
      "assert b.attrs['piezo'] == 'second' and b.attrs['efield'] == '0,0,20 kV/cm'; "
      "x=open('" +
      look.string().substr(0, look.string().size() - 3) +
      ".xmf').read(); assert 'fields/potential' in x and "
      "'fields/polarization' in x\"";
  EXPECT_EQ(std::system(py.c_str()), 0);
}

// -optics: the transitions' table, the optics/ group of the file with its shapes, and the spectrum's CSV; on 2 ranks
// the same numbers as on 1. TE is one quantity in the table, the file (which the plot reads) and the spectrum: the
// CSV's TE and TM integrate to the sums of the file's te and tm over the energies. Bad settings are refused in one
// line.
TEST(App, OpticsWritesItsTransitions) {
  TBPETA_ASSERT_RANKS();
  const std::string dot = "-cells 3,3,3 -periodic 0,0,0 -params klimeck2000 -dot_material InAs -dot_radius 0.6 "
                          "-vbo_InAs 0.2 -eps_nev 4 -eps_nemo_valence 2 ";
  const fs::path h5[2] = {Scratch() / "optics1.h5", Scratch() / "optics2.h5"}, csv = Scratch() / "spectrum.csv";
  std::string table_te; // the TE column of the table's one row on 1 rank
  for (int ranks : {1, 2}) {
    const RunResult r =
        RunTbpeta(ranks, dot + "-optics -optics_spectrum " + csv.string() + " -output " + h5[ranks - 1].string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const size_t head = r.out.find("[1-10]        TE  DOP110 DOP1-10   aniso");
    ASSERT_NE(head, std::string::npos) << r.out;
    EXPECT_NE(Slurp(csv).find("energy_eV,te,tm"), std::string::npos);
    if (ranks > 1) continue;
    std::istringstream row(r.out.substr(r.out.find('\n', head) + 1));
    for (int column = 0; column < 9 && row >> table_te; ++column) { // c v E x y z [110] [1-10] TE
    }
  }
  const std::string py = "/usr/bin/python3 -c \"import h5py, numpy as np; a=h5py.File('" + h5[0].string() +
                         "')['optics']; b=h5py.File('" + h5[1].string() +
                         "')['optics']; n=a['energy'].shape[0]; assert n == 1, n; assert a['levels'].shape == (n, 4); "
                         "assert a['momentum_squared'].shape == (n, 5) and a['oscillator_strength'].shape == (n, 5); "
                         "m=a['momentum_squared'][()]; assert m[0, :3].sum() > 0; "
                         "assert np.allclose(m, b['momentum_squared'][()], rtol=1e-6, atol=1e-9); "
                         "assert np.all(a['lifetime'][()] * a['rate'][()] > 0.999); "
                         "e=a['energy'][()]; te=a['te'][()]; tm=a['tm'][()]; d=a['dop'][()]; assert d.shape == (n, 2); "
                         "assert np.allclose(te, (m[:, 0] + m[:, 1]) / 2) and np.allclose(tm, m[:, 2]); "
                         "assert np.allclose(d, (m[:, 3:5] - m[:, 2:3]) / (m[:, 3:5] + m[:, 2:3])); "
                         "s=np.loadtxt('" +
                         csv.string() +
                         "', delimiter=',', skiprows=1); "
                         "i=np.trapz(s[:, 1:3], s[:, 0], axis=0); "
                         "assert np.allclose(i, [(te / e).sum(), (tm / e).sum()], rtol=1e-5), i; "
                         "assert abs(te[0] - " +
                         table_te + ") < 1e-4, te\"";
  EXPECT_EQ(std::system(py.c_str()), 0);
  ExpectOneLineError(1, dot + "-optics -optics_index -1", "-optics_index");
  ExpectOneLineError(1, dot + "-optics -optics_broadening 0", "-optics_broadening");
  ExpectOneLineError(1, dot + "-optics -optics_spectrum " + (Scratch() / "no/such/dir/s.csv").string(),
                     "-optics_spectrum");
  ExpectOneLineError(1, dot + "-optics -eps_nemo_vectors false", "-optics: the solver returns no eigenvectors");
  ExpectOneLineError(1, dot + "-optics -compare", "-optics needs the states of one solve");
  ExpectToolError("tbpeta-bands", 1,
                  "-params vogl1983 -material GaAs -kane -png none -csv " + (Scratch() / "kane.csv").string(),
                  "-kane: the Kane energy needs spin-orbit");
  EXPECT_FALSE(fs::exists(Scratch() / "kane.csv"));
}
