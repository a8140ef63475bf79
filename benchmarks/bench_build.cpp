// bench_build: how the cost of building the stored Hamiltonian (structure + neighbours + assembly) and of one
// AIJ product y = Hx grows with the number of atoms, for sp3s* (vogl1983, no spin) and sp3d5s*+SO (nemo3d), on
// periodic bulk GaAs cubes from ~10^3 to >= 10^6 atoms; and the same for the on-the-fly operator (-hamiltonian
// shell), built first on a structure of its own. Prints a table per parameter set and writes a CSV.
// A printed benchmark, not a test: the targets are "building costs at most 10 products" (AIJ) and "at most 2" (shell),
// with the costs linear.
//
//   bench_build [options: -help lists them with their defaults]
// Every other option (e.g. -partition, -log_view) is kept for each size; -params, -cells, -periodic, -material and
// -k are set by the benchmark.
static const char help[] =
    "bench_build: build time and product time of the stored and of the on-the-fly Hamiltonian against the number of "
    "atoms.\n"
    "Run with -help for every option and its default.\n\n";

#include <petscmat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <malloc.h>
#include <sstream>
#include <string>
#include <vector>

#include "BenchOptions.hpp"
#include "SystemProbes.hpp"
#include "Targets.hpp"
#include "application/ApplicationMain.hpp"
#include "model/TightBindingSystem.hpp"
#include "operator/Hamiltonian.hpp"
#include "operator/OperatorProperties.hpp"
#include "support/PetscHandle.hpp"
#include "support/ResidentMemory.hpp"
#include "support/TextFile.hpp"

using namespace tbpeta;
using namespace tbpeta::bench;

namespace {

// Bytes of H's AIJ arrays per non-zero: the value and its column index (20 with 32-bit indices, 24 with 64-bit ones).
constexpr double kBytesPerNonzero = sizeof(PetscScalar) + sizeof(PetscInt);

struct Row {
  std::string set, basis;
  int ranks = 1, cells = 0;
  long long atoms = 0, rows = 0, nonzeros = 0;
  double t_structure = 0, t_assembly = 0, t_build = 0, t_product = 0, t_product_min = 0;
  double build_user = 0,
         build_sys = 0;           // CPU seconds of the build (max over ranks); sys is mostly first-touch page faults
  double product_cpu = 0;         // CPU seconds per timed product (mean, max over ranks)
  double touch_s_per_gb = NAN;    // first touch of fresh memory, seconds per GB (max over ranks)
  double touch_us_per_page = NAN; // the same in 4 KiB pages: microseconds per page (max over ranks)
  double peak_mb_max = 0, peak_mb_sum = 0;
  // The on-the-fly operator on a structure of its own, built just before it as tbpeta builds them (median product).
  double t_shell_structure = 0, t_shell_assembly = 0, t_shell_product = 0;
  double shell_sys = 0; // kernel CPU seconds (page faults) of that structure and the shell's assembly, max over ranks
  double shell_faults =
      0; // page faults (first touches of 4 KiB or 2 MiB pages) of that structure and the assembly, max over ranks
  double shellRatio() const { return (t_shell_structure + t_shell_assembly) / t_shell_product; }
  double shellSysRatio() const { return shell_sys / t_shell_product; } // its page faults, in products
  double t_shell_again = 0; // the structure and the shell built again on the memory the first ones freed (median of 5)
  double shellAgainRatio() const { return t_shell_again / t_shell_product; }
  double cpuRatio() const { return (build_user + build_sys) / product_cpu; } // insensitive to other load on the cores
  double userRatio() const { return build_user / product_cpu; }              // without the kernel's page-fault time
  double hGbPerRank() const { return kBytesPerNonzero * 1e-9 * (double)nonzeros / ranks; }
  // The first touch of H's arrays alone (at the measured s/GB), in products: the floor of ratio() on this machine
  // whatever the build does.
  double touchFloor() const { return touch_s_per_gb * hGbPerRank() / t_product; }
  double buildNsPerNz() const { return t_build / (double)nonzeros * 1e9; }
  double productNsPerNz() const { return t_product / (double)nonzeros * 1e9; }
  double ratio() const { return t_build / t_product; }
};

// The timed products of H (after one warm-up); the CPU seconds per product.
PetscErrorCode TimeProducts(MPI_Comm comm, Mat H, int nproducts, std::vector<double> *times, double *cpu_per_product) {
  OwnedVec x, y;
  OwnedRandom rnd;
  double pu0, ps0, pu1, ps1;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(H, x.out(), y.out()));
  PetscCall(PetscRandomCreate(comm, rnd.out()));
  PetscCall(PetscRandomSetSeed(rnd, 12345));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  rnd.reset();
  PetscCall(MatMult(H, x, y)); // warm-up: first touch of y, scatter set-up
  CpuSeconds(&pu0, &ps0);
  for (int i = 0; i < nproducts; ++i) {
    double t;
    PetscCall(TimeOnRanks(
        comm, [&] { return MatMult(H, x, y); }, &t));
    times->push_back(t);
  }
  CpuSeconds(&pu1, &ps1);
  *cpu_per_product = MaxOverRanks(comm, (pu1 - pu0 + ps1 - ps0) / nproducts);
  PetscFunctionReturn(0);
}

// The options of the on-the-fly operator, everything else at its default.
HamiltonianOptions ShellOptions() {
  HamiltonianOptions shell;
  shell.kind = "shell";
  return shell;
}

// One timed phase: the wall time from a barrier to this rank's end of the phase, and the phase's page faults and CPU
// seconds on this rank. The counters are read outside the timed window: their system calls are not the phase's.
class PhaseTimer {
public:
  explicit PhaseTimer(MPI_Comm comm) : comm_(comm) {}
  PetscErrorCode Start() {
    PetscFunctionBeginUser;
    PetscCallMPI(MPI_Barrier(comm_));
    f0_ = MinorFaults(), CpuSeconds(&u0_, &s0_);
    t0_ = MPI_Wtime();
    PetscFunctionReturn(0);
  }
  void Stop() {
    wall = MPI_Wtime() - t0_;
    faults = MinorFaults() - f0_;
    CpuSeconds(&user, &sys);
    user -= u0_, sys -= s0_;
  }
  double wall = 0, faults = 0, user = 0, sys = 0; // this rank's

private:
  MPI_Comm comm_;
  double t0_ = 0, f0_ = 0, u0_ = 0, s0_ = 0;
};

// The on-the-fly operator as tbpeta builds it: its structure on memory given back to the system, then at once its
// assembly (the per-atom tables); then its median product. The structure is reset at the end, its memory given back.
PetscErrorCode TimeShell(MPI_Comm comm, TightBindingSystem *sys, std::array<double, 3> k, int nproducts, Row *row) {
  OwnedMat S;
  std::vector<double> times;
  double cpu;
  PhaseTimer structure(comm), assembly(comm);
  PetscFunctionBeginUser;
  const HamiltonianOptions shell = ShellOptions();
  PetscCall(structure.Start());
  PetscCall(BuildStructure(comm, sys));
  structure.Stop();
  PetscCall(assembly.Start());
  PetscCall(CreateHamiltonian(comm, sys->structure, sys->model, k, shell,
                              S.out())); // as tbpeta builds it, with its check H 1
  assembly.Stop();
  row->t_shell_structure = MaxOverRanks(comm, structure.wall),
  row->t_shell_assembly = MaxOverRanks(comm, assembly.wall);
  row->shell_sys = MaxOverRanks(comm, structure.sys + assembly.sys),
  row->shell_faults = MaxOverRanks(comm, structure.faults + assembly.faults);
  PetscCall(TimeProducts(comm, S, nproducts, &times, &cpu));
  row->t_shell_product = Median(times);
  S.reset();
  sys->structure = Structure{};
  malloc_trim(0);
  PetscFunctionReturn(0);
}

// The structure and the shell built again, five times, each on the memory the previous one gave back to the heap:
// the build's own work without most of its first touches (median).
PetscErrorCode TimeShellAgain(MPI_Comm comm, TightBindingSystem *sys, std::array<double, 3> k, Row *row) {
  std::vector<double> times;
  PetscFunctionBeginUser;
  const HamiltonianOptions shell = ShellOptions();
  for (int r = 0; r < 5; ++r) {
    OwnedMat S;
    PhaseTimer timer(comm);
    sys->structure = Structure{};
    PetscCall(timer.Start());
    PetscCall(BuildStructure(comm, sys));
    PetscCall(CreateHamiltonian(comm, sys->structure, sys->model, k, shell, S.out()));
    timer.Stop();
    times.push_back(MaxOverRanks(comm, timer.wall));
  }
  row->t_shell_again = Median(times);
  PetscFunctionReturn(0);
}

// One size of one set: a periodic bulk GaAs cube, its timed structure, assembly and products.
PetscErrorCode RunSize(MPI_Comm comm, const std::string &set, int cells, int nproducts, double touch_mb, Row *row) {
  SystemSpec spec;
  TightBindingSystem sys;
  PetscMPIInt size;
  OwnedMat H;
  const OperatorProperties *props;
  std::vector<double> times;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(BulkGaAsCube(comm, set, cells, &spec));
  // Model, lattice, nanostructure and partition (reads the parameter files); the structure is timed below.
  PetscCall(CreateTightBindingSystem(comm, spec, &sys));
  // Each operator on a structure of its own, built just before it: the shell first (its build is the smaller one, and
  // would otherwise run in the caches that the AIJ's products and the first-touch reference leave behind).
  PetscCall(TimeShell(comm, &sys, spec.cell.k, nproducts, row));
  PhaseTimer structure(comm), assembly(comm);
  PetscCall(structure.Start());
  PetscCall(BuildStructure(comm, &sys));
  structure.Stop();
  PetscCall(assembly.Start());
  PetscCall(CreateHamiltonian(comm, sys.structure, sys.model, spec.cell.k, HamiltonianOptions{},
                              H.out())); // stored AIJ, as tbpeta builds it
  assembly.Stop();
  PetscCall(OperatorGetProperties(H, &props));
  PetscCall(TimeProducts(comm, H, nproducts, &times, &row->product_cpu));
  // Peak of this size, with H still alive; then the first-touch reference (H alive, so none of its pages is reused).
  const double hwm_kb = ProcStatusKb("VmHWM");
  if (touch_mb > 0) {
    PetscCallMPI(MPI_Barrier(comm));
    const double bytes = std::min(touch_mb * 1048576.0, kBytesPerNonzero * props->nonzeros / size);
    row->touch_s_per_gb = MaxOverRanks(comm, FirstTouchSecondsPerGb((size_t)bytes));
    row->touch_us_per_page = MaxOverRanks(comm, FirstTouchSecondsPerGb(size_t(16) << 20, false) * 4096e-9 * 1e6);
  }
  row->rows = props->rows, row->nonzeros = (long long)props->nonzeros;
  H.reset();
  row->set = set;
  row->basis = sys.model.basis == BasisModel::sp3sstar ? "sp3s*" : (sys.model.spin_orbit ? "sp3d5s*+SO" : "sp3d5s*");
  row->ranks = size, row->cells = cells, row->atoms = sys.structure.total();
  row->t_structure = MaxOverRanks(comm, structure.wall), row->t_assembly = MaxOverRanks(comm, assembly.wall),
  row->t_build = row->t_structure + row->t_assembly;
  row->build_user = MaxOverRanks(comm, structure.user + assembly.user),
  row->build_sys = MaxOverRanks(comm, structure.sys + assembly.sys);
  row->t_product = Median(times), row->t_product_min = *std::min_element(times.begin(), times.end());
  row->peak_mb_max = MaxOverRanks(comm, hwm_kb) / 1024.0, row->peak_mb_sum = SumOverRanks(comm, hwm_kb) / 1024.0;
  PetscCall(TimeShellAgain(comm, &sys, spec.cell.k, row));
  PetscFunctionReturn(0);
}

PetscErrorCode PrintHeader(MPI_Comm comm, const std::string &set, const std::string &basis, int ranks) {
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "\n%s (-params %s), bulk GaAs periodic cubes, MATMPIAIJ, %d rank%s\n", basis.c_str(),
                        set.c_str(), ranks, ranks > 1 ? "s" : ""));
  PetscCall(PetscPrintf(
      comm, "%5s %9s %10s %12s %8s %8s %8s %7s %7s %10s %7s %7s %8s %7s %8s %6s %6s | %8s %8s %10s %8s %7s %8s\n",
      "cells", "atoms", "rows", "nonzeros", "struct", "asm", "build", "build", "build", "product", "build", "product",
      "build/", "user/", "peak MB", "touch", "touch", "shell", "shell", "shell", "shell", "shell", "shell"));
  PetscCall(PetscPrintf(
      comm, "%5s %9s %10s %12s %8s %8s %8s %7s %7s %10s %7s %7s %8s %7s %8s %6s %6s | %8s %8s %10s %8s %7s %8s\n", "",
      "", "", "", "s", "s", "s", "cpu s", "sys s", "s (med)", "ns/nz", "ns/nz", "product", "product", "(max rk)",
      "s/GB", "us/4K", "struct s", "asm s", "product s", "build/pr", "faults", "again/pr"));
  PetscFunctionReturn(0);
}

PetscErrorCode PrintRow(MPI_Comm comm, const Row &r) {
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm,
                        "%5d %9lld %10lld %12lld %8.3f %8.3f %8.3f %7.2f %7.2f %10.3e %7.2f %7.2f %8.2f %7.2f %8.0f "
                        "%6.2f %6.1f | %8.3f %8.3f %10.3e %8.2f %7.0f %8.2f\n",
                        r.cells, r.atoms, r.rows, r.nonzeros, r.t_structure, r.t_assembly, r.t_build,
                        r.build_user + r.build_sys, r.build_sys, r.t_product, r.buildNsPerNz(), r.productNsPerNz(),
                        r.ratio(), r.userRatio(), r.peak_mb_max, r.touch_s_per_gb, r.touch_us_per_page,
                        r.t_shell_structure, r.t_shell_assembly, r.t_shell_product, r.shellRatio(), r.shell_faults,
                        r.shellAgainRatio()));
  PetscFunctionReturn(0);
}

std::string Growth(double p) {
  if (std::isnan(p)) return "n/a (fewer than two sizes >= 1e4 atoms)";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.3f (%s)", p,
                std::fabs(p - 1) <= 0.1 ? "linear"
                : p > 1                 ? "super-linear"
                                        : "sub-linear");
  return buf;
}

struct BenchSettings {
  std::vector<std::string> sets;
  std::vector<PetscInt> max_cells; // one for all sets, or one per set
  std::vector<PetscInt> cells;     // ascending
  PetscInt products = 0;
  PetscReal touch_mb = 0;
  PetscBool no_guard = PETSC_FALSE;
  std::string csv;
  int cap(size_t set_index) const {
    if (max_cells.empty()) return sets[set_index] == "nemo3d" || sets[set_index] == "jancu1998" ? 50 : 64;
    return (int)max_cells[max_cells.size() == 1 ? 0 : set_index];
  }
};

bench::BenchOptions Options(BenchSettings *b) {
  return {
      {"-bench_sets", "Comma-separated parameter sets", "vogl1983,nemo3d", &b->sets},
      {"-bench_max_cells",
       "Largest cube (cells per axis), one value for all sets or one per set (default 64 for sp3s*, 50 for sp3d5s*)",
       "", &b->max_cells},
      {"-bench_cells", "Cube sizes in cells per axis (capped by -bench_max_cells)", "5,10,20,40,50,64", &b->cells},
      {"-bench_products", "Timed products per size (after one warm-up; at least 5)", "7", &b->products},
      bench::CsvFileOption(&b->csv, "CSV output file", "bench_build.csv"),
      {"-bench_touch_mb", "MB per rank (at most H's size) for the first-touch reference after each size; 0: none",
       "512", &b->touch_mb},
      {"-bench_no_memory_guard", "Run sizes whose estimated memory exceeds MemAvailable", "false", &b->no_guard}};
}

PetscErrorCode ReadSettings(MPI_Comm comm, BenchSettings *b) {
  PetscFunctionBeginUser;
  PetscCall(bench::ReadBenchOptions(comm, "bench_build", Options(b)));
  PetscCheck(b->products >= 5, comm, PETSC_ERR_USER_INPUT, "-bench_products: %" PetscInt_FMT " is fewer than 5",
             b->products);
  PetscCheck(b->max_cells.size() <= 1 || b->max_cells.size() == b->sets.size(), comm, PETSC_ERR_USER_INPUT,
             "-bench_max_cells: give one value or one per set (%zu)", b->sets.size());
  std::sort(b->cells.begin(), b->cells.end());
  PetscCall(ListPartitionOptions(comm)); // -partition and -da_processors_*: read for each run's ranks; listed here
  PetscFunctionReturn(0);
}

// Whether the next size fits the node, from the previous size's bytes per atom (the node's ranks together). Memory
// freed a moment ago (here, or by other processes) may take a little while to show as available: look a few times.
PetscErrorCode FitsInMemory(MPI_Comm comm, const BenchSettings &b, const Row &previous, int cells, bool *fits) {
  PetscMPIInt size;
  const long long atoms = 8LL * cells * cells * cells;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  const double per_atom = std::max(previous.peak_mb_sum * 1024.0 * 1024.0 / (double)previous.atoms,
                                   (double)previous.nonzeros / previous.atoms * 20.0);
  const double need_max = MaxOverRanks(comm, per_atom * atoms + size * b.touch_mb * 1048576.0);
  double avail_min = 0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    if (attempt) PetscCall(PetscSleep(2));
    avail_min = std::max(avail_min, -MaxOverRanks(comm, -NodeMemAvailableMb() * 1048576.0));
    if (avail_min <= 0 || need_max <= 0.95 * avail_min) break;
  }
  *fits = !(avail_min > 0 && need_max > 0.95 * avail_min);
  if (!*fits)
    PetscCall(PetscPrintf(comm,
                          "%5d %9lld  skipped: needs ~%.1f GB (%.0f B/atom at %d cells), %.1f GB available "
                          "(-bench_no_memory_guard runs it)\n",
                          cells, atoms, need_max / 1e9, per_atom, previous.cells, avail_min / 1e9));
  PetscFunctionReturn(0);
}

// Every size of one set, and its fits.
PetscErrorCode RunSet(MPI_Comm comm, const BenchSettings &b, size_t si, bool peak_reset, std::vector<Row> *all_rows) {
  PetscMPIInt size;
  std::vector<Row> rows;
  const std::string &set = b.sets[si];
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  // Untimed warm-up on the smallest size: one-time costs of the process (PETSc's first matrix, MPI connections
  // between ranks) are not the build's.
  if (!b.cells.empty() && b.cells[0] <= b.cap(si)) {
    Row warm;
    PetscCall(RunSize(comm, set, b.cells[0], 5, 0, &warm));
  }
  for (int cells : b.cells) {
    bool fits = true;
    if (cells > b.cap(si)) break;
    malloc_trim(0); // give the previous size's freed heap back, so the peak below is this size's
    if (!rows.empty() && !b.no_guard) PetscCall(FitsInMemory(comm, b, rows.back(), cells, &fits));
    if (!fits) break;
    if (peak_reset) ResetPeakResident();
    Row r;
    PetscCall(RunSize(comm, set, cells, (int)b.products, b.touch_mb, &r));
    if (rows.empty()) PetscCall(PrintHeader(comm, set, r.basis, size));
    PetscCall(PrintRow(comm, r));
    rows.push_back(r), all_rows->push_back(r);
  }
  if (rows.empty()) PetscFunctionReturn(0);
  std::vector<double> a, tb, tp, ts, ta, tu, au;
  double max_ratio = 0;
  for (const Row &r : rows) {
    max_ratio = std::max(max_ratio, r.ratio());
    if (r.atoms < 10000) continue;
    a.push_back((double)r.atoms), tb.push_back(r.t_build), tp.push_back(r.t_product), ts.push_back(r.t_structure),
        ta.push_back(r.t_assembly);
    if (r.build_user > 0) au.push_back((double)r.atoms), tu.push_back(r.build_user);
  }
  PetscCall(PetscPrintf(
      comm, "  %s: max build/product %.2f (largest size %.2f); fit t = c*atoms^p over sizes >= 1e4 atoms:\n",
      set.c_str(), max_ratio, rows.back().ratio()));
  PetscCall(PetscPrintf(comm,
                        "    p(build) = %s, p(product) = %s\n    p(structure) = %s, p(assembly) = %s, p(build user "
                        "CPU, no page faults) = %s\n",
                        Growth(FitExponent(a, tb)).c_str(), Growth(FitExponent(a, tp)).c_str(),
                        Growth(FitExponent(a, ts)).c_str(), Growth(FitExponent(a, ta)).c_str(),
                        Growth(FitExponent(au, tu)).c_str()));
  PetscFunctionReturn(0);
}

// Where the build misses 10 products: the first touch of H's arrays alone against the product, and the build's own
// work (user CPU against the product's CPU), so that a miss is seen to be the machine's page faults or the code's.
PetscErrorCode PrintTouchFloor(MPI_Comm comm, const std::vector<Row> &rows) {
  PetscFunctionBeginUser;
  for (const Row &r : rows) {
    if (r.ratio() <= 10 || std::isnan(r.touch_s_per_gb)) continue;
    PetscCall(
        PetscPrintf(comm,
                    "        %s %d^3 cells: build %.2f products, of them page faults (kernel CPU) %.2f; the first "
                    "touch of H's %.2f GB per rank at %.2f s/GB alone %.2f; the build's own work (user CPU) %.2f\n",
                    r.set.c_str(), r.cells, r.ratio(), r.build_sys / r.t_product, r.hGbPerRank(), r.touch_s_per_gb,
                    r.touchFloor(), r.userRatio()));
  }
  PetscFunctionReturn(0);
}

// The targets over every set and size, and over the large sizes (>= 1e5 atoms) where fixed costs no longer count.
PetscErrorCode PrintTargets(MPI_Comm comm, const BenchSettings &b, const std::vector<Row> &all_rows) {
  std::vector<std::pair<double, std::string>> build, large, shell, again;
  PetscFunctionBeginUser;
  for (const Row &r : all_rows) {
    const std::string at = r.set + " " + std::to_string(r.cells) + "^3 cells, " + std::to_string(r.atoms) + " atoms";
    build.emplace_back(r.ratio(), at), shell.emplace_back(r.shellRatio(), at),
        again.emplace_back(r.shellAgainRatio(), at);
    if (r.atoms >= 100000) large.emplace_back(r.ratio(), at);
  }
  PetscCall(PetscPrintf(comm, "\ntarget: build <= 10 products; %s\n",
                        bench::AtMost(build, 10).text("measured max ratio").c_str()));
  PetscCall(PetscPrintf(comm, "        over sizes >= 1e5 atoms: %s\n", bench::AtMost(large, 10).text().c_str()));
  PetscCall(PrintTouchFloor(comm, all_rows));
  PetscCall(PetscPrintf(comm, "target: on-the-fly operator (shell) build <= 2 of its products; %s\n",
                        bench::AtMost(shell, 2).text("measured max ratio").c_str()));
  for (const Row &r : all_rows)
    if (r.shellRatio() > 2)
      PetscCall(PetscPrintf(comm,
                            "        %s %d^3 cells: shell build %.2f of its products, of them page faults (kernel CPU) "
                            "%.2f (%.0f faults); built again on the memory freed: %.2f\n",
                            r.set.c_str(), r.cells, r.shellRatio(), r.shellSysRatio(), r.shell_faults,
                            r.shellAgainRatio()));
  PetscCall(PetscPrintf(comm, "        the shell built again on the memory the first build freed (median of 5): %s\n",
                        bench::AtMost(again, 2).text().c_str()));
  for (const auto &set : b.sets) {
    std::vector<double> a, tb, tp;
    for (const Row &r : all_rows)
      if (r.set == set && r.atoms >= 10000)
        a.push_back((double)r.atoms), tb.push_back(r.t_build), tp.push_back(r.t_product);
    if (a.size() < 2) { // an exponent needs two sizes at least
      PetscCall(PetscPrintf(
          comm, "linear growth (%s, |p-1| <= 0.1): %zu size(s) of >= 1e4 atoms, no exponent -> NOT measured\n",
          set.c_str(), a.size()));
      continue;
    }
    const double pb = FitExponent(a, tb), pp = FitExponent(a, tp);
    const bool lin = !std::isnan(pb) && !std::isnan(pp) && std::fabs(pb - 1) <= 0.1 && std::fabs(pp - 1) <= 0.1;
    PetscCall(PetscPrintf(comm, "linear growth (%s, |p-1| <= 0.1): build p = %.3f, product p = %.3f -> %s\n",
                          set.c_str(), pb, pp, lin ? "both linear" : "NOT both linear"));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode WriteCsv(MPI_Comm comm, const std::string &path, const std::vector<Row> &rows) {
  std::ostringstream f;
  PetscFunctionBeginUser;
  f << "set,basis,ranks,cells,atoms,rows,nonzeros,structure_s,assembly_s,build_s,build_user_s,build_sys_s,product_"
       "median_s,product_min_s,product_cpu_s,build_ns_per_nz,product_ns_per_nz,"
       "build_over_product,cpu_build_over_product,user_build_over_product,peak_mb_max_rank,peak_mb_sum_ranks,first_"
       "touch_s_per_gb,first_touch_us_per_4k_page,shell_structure_s,shell_assembly_s,shell_product_median_s,"
       "shell_build_over_product,shell_build_page_faults,first_touch_floor_over_product,shell_build_sys_over_product,"
       "shell_again_over_product\n";
  f.precision(6);
  for (const Row &r : rows)
    f << r.set << ',' << r.basis << ',' << r.ranks << ',' << r.cells << ',' << r.atoms << ',' << r.rows << ','
      << r.nonzeros << ',' << r.t_structure << ',' << r.t_assembly << ',' << r.t_build << ',' << r.build_user << ','
      << r.build_sys << ',' << r.t_product << ',' << r.t_product_min << ',' << r.product_cpu << ',' << r.buildNsPerNz()
      << ',' << r.productNsPerNz() << ',' << r.ratio() << ',' << r.cpuRatio() << ',' << r.userRatio() << ','
      << r.peak_mb_max << ',' << r.peak_mb_sum << ',' << r.touch_s_per_gb << ',' << r.touch_us_per_page << ','
      << r.t_shell_structure << ',' << r.t_shell_assembly << ',' << r.t_shell_product << ',' << r.shellRatio() << ','
      << r.shell_faults << ',' << r.touchFloor() << ',' << r.shellSysRatio() << ',' << r.shellAgainRatio() << '\n';
  PetscCall(WriteTextFile(comm, path, f.str(), "-bench_csv"));
  PetscCall(PetscPrintf(comm, "wrote %s\n", path.c_str()));
  PetscFunctionReturn(0);
}

PetscErrorCode Run(MPI_Comm comm, int *) {
  PetscMPIInt size;
  BenchSettings b;
  std::vector<Row> all_rows;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(ReadSettings(comm, &b));
  if (HelpRequested()) PetscFunctionReturn(0);
  const bool peak_reset = ResetPeakResident();
  PetscCall(PetscPrintf(comm,
                        "bench_build: %d rank%s, %" PetscInt_FMT
                        " timed products per size (median), times max over ranks after MPI_Barrier%s\n",
                        size, size > 1 ? "s" : "", b.products,
                        peak_reset ? ", peak memory = VmHWM reset per size" : ", peak memory = VmHWM since start"));
  for (size_t si = 0; si < b.sets.size(); ++si) PetscCall(RunSet(comm, b, si, peak_reset, &all_rows));
  PetscCall(PrintTargets(comm, b, all_rows));
  PetscCall(WriteCsv(comm, b.csv, all_rows));
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "bench_build", Run); }
