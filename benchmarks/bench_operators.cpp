// bench_operators: the product y = Hx of every operator tbpeta has for H, side by side in one run: PETSc's AIJ and
// BAIJ (-hamiltonian aij, baij), tbpeta's stored bond blocks (stored_blocks) and the on-the-fly operator (shell, with
// the block cache on and off, and its kernel as before its tuning: shell_reference), on bulk GaAs and on a passivated
// InAs dot in GaAs (interfaces and surfaces break the block sharing), sp3s* (vogl1983) and sp3d5s*+SO (nemo3d), next
// to this machine's ceilings measured in the same run: the STREAM-style triad bandwidth and the FMA peak, with each
// product's roofline (Roofline.hpp: its flop and byte floors, how far above the larger one it runs). A printed
// benchmark, not a test.
//
//   mpiexec -n R bench_operators [options: -help lists them with their defaults]
// Per variant: ms and µs per atom of one product (median of the timed products, the variants interleaved so that
// the machine's load hits all alike), GFlop/s (the operator's own flop count: 8 per complex AIJ entry; the block
// operators' real multiply-adds), effective GB/s (bytes = the operator's storage + x + y + halo, printed),
// operator bytes per atom, and the resident memory each variant added (VmRSS) and its peak while built (VmHWM).
// The targets (issue "Recompute on the fly, and the fastest product") are printed against the measured ratios.
// A variant whose estimated storage exceeds -bench_max_mb (default: half of MemAvailable per rank) is skipped
// with a note (BAIJ with spin at 10^6 atoms needs about 30 GB).
static const char help[] =
    "bench_operators: product time, bandwidth and memory of every operator for H, side by side, with the triad "
    "bandwidth.\n"
    "Run with -help for every option and its default.\n\n";

#include <petscmat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <malloc.h>
#include <sstream>
#include <string>
#include <vector>

#include "BenchOptions.hpp"
#include "ProductTimers.hpp"
#include "Roofline.hpp"
#include "SystemProbes.hpp"
#include "Targets.hpp"
#include "application/ApplicationMain.hpp"
#include "operator/Hamiltonian.hpp"
#include "strain/SystemRelaxation.hpp"
#include "operator/OperatorProperties.hpp"
#include "support/ResidentMemory.hpp"
#include "support/TextFile.hpp"
#include "model/TightBindingSystem.hpp"
#include "support/PetscHandle.hpp"

using namespace tbpeta;
using namespace tbpeta::bench;

namespace {

struct Variant {
  std::string name;
  std::string kind, options; // -hamiltonian and the kind's own options (HamiltonianOptionsOf)
};

const Variant kVariants[] = {
    {"aij", "aij", ""},
    {"baij", "baij", ""},
    {"stored_blocks", "stored_blocks", ""},
    {"shell", "shell", ""},
    {"shell_reference", "shell", "-shell_kernel reference"}, // the kernel before its tuning, timed beside it
    {"shell_nocache", "shell", "-shell_block_cache 0"},
};

struct Row {
  std::string set, structure, variant, note;
  int ranks = 1, cells = 0;
  long long atoms = 0, rows = 0;
  double op_bytes = 0, vec_bytes = 0; // operator storage (global); x + y + halo (global)
  double est_bytes = 0;               // the estimate made before building (EstimateHamiltonianBytes, global)
  double seconds = 0, flops = 0;      // median product; flops of one product (global)
  LanczosStepTimes steps;        // median Lanczos steps (lazy, fused where H offers it, plain) and product between them
  ProductWork work;              // one product's flops and compulsory bytes (global), for the roofline
  double rss_mb = 0, hwm_mb = 0; // resident added by the variant, peak while building it (max over ranks)
  bool skipped = false;
  double usPerAtom() const { return seconds / (double)atoms * 1e6; }
  double gflops() const { return flops / seconds / 1e9; }
  double gbs() const { return (op_bytes + vec_bytes) / seconds / 1e9; }
};

// The storage a variant would need per rank (estimate from the atoms and the basis), in MB.
double EstimateMb(const Variant &v, double atoms_per_rank, int bs, int norb) {
  const double per_atom = v.kind == "shell"           ? 100.0
                          : v.kind == "stored_blocks" ? 4.0 * norb * norb * 8 + 100
                          : v.kind == "baij"
                              ? 5.0 * bs * bs * 16
                              : 5.0 * bs * (bs / 2.0) * 20; // AIJ: about half of each block non-zero, 20 B per entry
  return per_atom * atoms_per_rank / 1048576.0;
}

// The operator's own flops of one product: 8 per complex AIJ entry stored (zeros in a BAIJ block included); the block
// operators' multiply-adds, as the roofline counts them (work_flops, global).
PetscErrorCode ProductFlops(const Variant &v, Mat H, double work_flops, double *flops) {
  PetscFunctionBeginUser;
  *flops = work_flops;
  if (v.kind == "aij" || v.kind == "baij") {
    MatInfo info;
    PetscCall(MatGetInfo(H, MAT_GLOBAL_SUM, &info));
    *flops = 8.0 * info.nz_used; // complex multiply-add
  }
  PetscFunctionReturn(0);
}

// The benchmark's structures: a periodic bulk GaAs cube of n cells, or an open GaAs cube with an InAs sphere of a
// quarter of its edge. -partition and -da_processors_x/y/z of the command line apply.
PetscErrorCode BuildSystem(MPI_Comm comm, const std::string &set, const std::string &structure, int n,
                           TightBindingSystem *sys) {
  SystemSpec spec;
  PetscFunctionBeginUser;
  PetscCall(BulkGaAsCube(comm, set, n, &spec));
  if (structure != "bulk") {
    spec.cell.periodic = {false, false, false};
    spec.nano.dot.material = "InAs", spec.nano.dot.shape = "sphere";
    spec.nano.dot.size.set("radius", 0.25 * n * 0.56532);
  }
  if (structure == "strained_dot") spec.strain.model = StrainModel::keating;
  PetscCall(CreateTightBindingSystem(comm, spec, sys));
  PetscCall(BuildStructure(comm, sys));
  if (structure == "strained_dot") { // relaxed as tbpeta does (Keating, the strain_ SNES defaults)
    SystemStrain strain;
    PetscCall(RelaxSystem(comm, sys, &strain));
    PetscCall(PetscPrintf(comm, "relaxed the %d^3-cell dot: %" PetscInt_FMT " iterations, %.1f s\n", n,
                          strain.report.iterations, strain.report.seconds));
  }
  PetscFunctionReturn(0);
}

// One variant's operator built (its memory measured) into *H, or the row marked skipped.
PetscErrorCode BuildVariant(MPI_Comm comm, const TightBindingSystem &sys, const Variant &v, double max_mb, Row *r,
                            OwnedMat *H) {
  PetscMPIInt size;
  const int bs = sys.model.blockSize(), norb = sys.model.orbitals();
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  H->reset();
  const double est = EstimateMb(v, (double)sys.structure.total() / size, bs, norb);
  if (est > max_mb) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "skipped: about %.0f MB per rank > -bench_max_mb %.0f", est, (double)max_mb);
    r->skipped = true, r->note = buf;
    PetscFunctionReturn(0);
  }
  HamiltonianOptions opts;
  PetscCall(HamiltonianOptionsOf(v.kind, v.options, &opts));
  r->est_bytes = EstimateHamiltonianBytes(sys.structure, sys.model, opts);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &r->est_bytes, 1, MPI_DOUBLE, MPI_SUM, comm));
  malloc_trim(0);
  const double rss0 = ProcStatusKb("VmRSS");
  ResetPeakResident();
  PetscCall(CreateHamiltonian(comm, sys.structure, sys.model, sys.spec.cell.k, opts, H->out(),
                              false)); // the operator alone, no H 1 check
  double mb[2] = {(ProcStatusKb("VmRSS") - rss0) / 1024, (ProcStatusKb("VmHWM") - rss0) / 1024};
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, mb, 2, MPI_DOUBLE, MPI_MAX, comm));
  r->rss_mb = mb[0], r->hwm_mb = mb[1];
  PetscCall(OperatorTotalBytes(*H, &r->op_bytes));
  const ProductWork w = CountProductWork(sys.structure, sys.model, opts, r->op_bytes / size);
  r->work.flops = SumOverRanks(comm, w.flops);
  r->work.bytes = SumOverRanks(comm, w.bytes);
  PetscCall(ProductFlops(v, H->get(), r->work.flops, &r->flops));
  PetscFunctionReturn(0);
}

// Every variant on one structure, on the ranks of comm: built one after the other (their memory measured), then
// their products interleaved. Rows are appended on every rank of comm.
PetscErrorCode Measure(MPI_Comm comm, const std::string &set, const std::string &structure, int n,
                       const std::vector<const Variant *> &variants, PetscInt products, double max_mb,
                       std::vector<Row> *rows) {
  PetscMPIInt size;
  TightBindingSystem sys;
  std::vector<OwnedMat> ops;
  std::vector<size_t> row_of;
  std::vector<double> median;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(BuildSystem(comm, set, structure, n, &sys));
  const int bs = sys.model.blockSize();
  PetscInt halo = sys.structure.halo();
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &halo, 1, MPIU_INT, MPI_SUM, comm));
  // A strained dot: every variant on the same relaxed atoms with the ideal H (the bonds' ideal blocks) and with the
  // strained H ("_strained"), so that the two are timed side by side.
  const bool strained = sys.model.strained.on;
  for (const Variant *v : variants)
    for (int pass = 0; pass < (strained ? 2 : 1); ++pass) {
      Row r;
      OwnedMat H;
      sys.model.strained.on = strained && pass == 1;
      r.set = set, r.structure = structure, r.variant = std::string(v->name) + (pass == 1 ? "_strained" : ""),
      r.ranks = size, r.cells = n, r.atoms = sys.structure.total();
      r.rows = (long long)sys.structure.total() * bs;
      r.vec_bytes = (2.0 * (double)r.rows + (double)halo * bs) * sizeof(PetscScalar);
      PetscCall(BuildVariant(comm, sys, *v, max_mb, &r, &H));
      if (H) ops.push_back(std::move(H)), row_of.push_back(rows->size());
      rows->push_back(r);
    }
  PetscCall(TimeProducts(comm, ops, products, &median));
  for (size_t o = 0; o < ops.size(); ++o) {
    (*rows)[row_of[o]].seconds = median[o];
    PetscCall(TimeLanczosSteps(ops[o], products, &(*rows)[row_of[o]].steps));
    ops[o].reset();
  }
  PetscFunctionReturn(0);
}

struct BenchSettings {
  std::vector<PetscInt> cells;
  std::vector<std::string> sets, structures, variant_names;
  std::vector<const Variant *> variants;
  PetscInt products = 0;
  PetscReal max_mb = 0;
  PetscReal triad_mb = 0; // per array and rank: well beyond the caches
  std::string csv;
};

bench::BenchOptions Options(BenchSettings *b) {
  return {{"-bench_cells", "Cube sizes in cells", "24", &b->cells},
          {"-bench_sets", "Parameter sets", "vogl1983,nemo3d", &b->sets},
          {"-bench_structures",
           "bulk, dot, strained_dot (the dot relaxed; each variant with the ideal and the strained H)", "bulk,dot",
           &b->structures},
          {"-bench_variants", "aij, baij, stored_blocks, shell, shell_reference, shell_nocache",
           "aij,baij,stored_blocks,shell,shell_reference,shell_nocache", &b->variant_names},
          {"-bench_products", "Timed products per variant (at least 3)", "7", &b->products},
          {"-bench_max_mb",
           "Skip a variant whose storage would exceed this per rank (MB; default half the node's available memory)",
           "-1", &b->max_mb},
          bench::CsvFileOption(&b->csv),
          {"-bench_triad_mb", "Size of each of the triad's three arrays per rank (MB; beyond the caches)", "256",
           &b->triad_mb}};
}

PetscErrorCode ReadSettings(MPI_Comm comm, BenchSettings *b) {
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(bench::ReadBenchOptions(comm, "bench_operators", Options(b)));
  PetscCheck(b->triad_mb >= 1, comm, PETSC_ERR_USER_INPUT, "-bench_triad_mb must be >= 1 MB, got %g",
             (double)b->triad_mb);
  PetscCheck(b->products >= 3, comm, PETSC_ERR_USER_INPUT, "-bench_products: %" PetscInt_FMT "; at least 3",
             b->products);
  if (b->max_mb < 0) b->max_mb = (NodeMemAvailableMb() > 0 ? NodeMemAvailableMb() : 1e6) / 2 / size;
  for (PetscInt n : b->cells)
    PetscCheck(n >= 2, comm, PETSC_ERR_USER_INPUT,
               "-bench_cells: %" PetscInt_FMT " is not a cube size of at least 2 cells", n);
  for (const std::string &name : b->variant_names) {
    const Variant *v =
        std::find_if(std::begin(kVariants), std::end(kVariants), [&](const Variant &x) { return x.name == name; });
    PetscCheck(v != std::end(kVariants), comm, PETSC_ERR_USER_INPUT,
               "-bench_variants: %s is not one of aij, baij, stored_blocks, shell, shell_reference, shell_nocache",
               name.c_str());
    b->variants.push_back(v);
  }
  for (const std::string &st : b->structures)
    PetscCheck(st == "bulk" || st == "dot" || st == "strained_dot", comm, PETSC_ERR_USER_INPUT,
               "-bench_structures: %s is not bulk, dot or strained_dot", st.c_str());
  PetscCall(ListPartitionOptions(comm)); // -partition and -da_processors_*: read for each run's ranks; listed here
  PetscFunctionReturn(0);
}

// The machine's ceilings (FMA peak, triad) and every product on 1 rank (rank 0 alone, the others waiting) and on all
// ranks, in this one run.
PetscErrorCode MeasureAll(MPI_Comm comm, const BenchSettings &b, std::map<int, Roofline> *roof,
                          std::vector<Row> *rows) {
  MPI_Comm one;
  PetscMPIInt rank, size;
  std::vector<int> counts{1};
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_split(comm, rank == 0 ? 0 : MPI_UNDEFINED, 0, &one));
  if (size > 1) counts.push_back(size);
  for (int ranks : counts) {
    double m[2] = {0, 0}; // triad GB/s, FMA GFlop/s
    const MPI_Comm on = ranks == size ? comm : one;
    if (on != MPI_COMM_NULL) PetscCall(TriadGBs(on, b.triad_mb, &m[0]));
    if (on != MPI_COMM_NULL) PetscCall(FmaPeakGFlops(on, 0.05, &m[1]));
    PetscCallMPI(MPI_Bcast(m, 2, MPI_DOUBLE, 0, comm));
    (*roof)[ranks] = Roofline{m[1], m[0]};
    PetscCall(PetscPrintf(comm,
                          "bench_operators: on %d rank%s: triad a = b + s c (3 x %.0f MB per rank) %.2f GB/s, "
                          "independent 4-lane fmas %.1f GFlop/s\n",
                          ranks, ranks > 1 ? "s" : "", (double)b.triad_mb, m[0], m[1]));
  }
  for (const std::string &set : b.sets)
    for (const std::string &structure : b.structures)
      for (PetscInt n : b.cells)
        for (int ranks : counts) {
          if (ranks == size) PetscCall(Measure(comm, set, structure, n, b.variants, b.products, b.max_mb, rows));
          else { // rank 0 alone: its error (its message printed) ends every rank, not only the one that waits for it
            PetscErrorCode err =
                rank == 0 ? Measure(one, set, structure, n, b.variants, b.products, b.max_mb, rows) : 0;
            PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, comm));
            if (err) PetscFunctionReturn(err);
          }
          PetscCallMPI(MPI_Barrier(comm));
        }
  if (one != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&one));
  PetscFunctionReturn(0);
}

// The row of `variant` measured beside `like` (same set, structure, size) on `ranks` ranks.
const Row *Find(const std::vector<Row> &rows, const Row &like, const char *variant, int ranks) {
  for (const Row &q : rows)
    if (q.variant == variant && !q.skipped && q.set == like.set && q.structure == like.structure &&
        q.cells == like.cells && q.ranks == ranks)
      return &q;
  return nullptr;
}

PetscErrorCode PrintTable(MPI_Comm comm, const std::vector<Row> &rows) {
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "\n%-9s %-5s %5s %9s %10s %-14s %9s %9s %8s %8s %10s %10s %8s %8s %8s  %s\n", "set",
                        "struct", "ranks", "atoms", "rows", "variant", "ms/prod", "us/atom", "GFlop/s", "GB/s",
                        "est B/atom", "op B/atom", "RSS MB", "HWM MB", "vs aij", "note"));
  for (const Row &r : rows) {
    if (r.skipped) {
      PetscCall(PetscPrintf(comm, "%-9s %-5s %5d %9lld %10lld %-14s %9s %9s %8s %8s %10s %10s %8s %8s %8s  %s\n",
                            r.set.c_str(), r.structure.c_str(), r.ranks, r.atoms, r.rows, r.variant.c_str(), "-", "-",
                            "-", "-", "-", "-", "-", "-", "-", r.note.c_str()));
      continue;
    }
    const Row *aij = Find(rows, r, "aij", r.ranks);
    char vs[32] = "-";
    if (aij) std::snprintf(vs, sizeof vs, "%.2fx", aij->seconds / r.seconds);
    PetscCall(PetscPrintf(
        comm, "%-9s %-5s %5d %9lld %10lld %-14s %9.2f %9.4f %8.2f %8.2f %10.0f %10.0f %8.1f %8.1f %8s  %s\n",
        r.set.c_str(), r.structure.c_str(), r.ranks, r.atoms, r.rows, r.variant.c_str(), 1e3 * r.seconds, r.usPerAtom(),
        r.gflops(), r.gbs(), r.est_bytes / (double)r.atoms, r.op_bytes / (double)r.atoms, r.rss_mb, r.hwm_mb, vs,
        r.note.c_str()));
  }
  PetscCall(PetscPrintf(comm, "(vs aij: speed-up of the product over PETSc's AIJ on the same H and ranks; GB/s counts "
                              "the operator's storage + x + y + halo)\n"));
  PetscFunctionReturn(0);
}

// Per measured row: where its product runs against the machine's ceilings, and its two floors.
PetscErrorCode PrintRoofline(MPI_Comm comm, const std::vector<Row> &rows, const std::map<int, Roofline> &roof) {
  PetscFunctionBeginUser;
  PetscCall(
      PetscPrintf(comm,
                  "\nroofline (flops: the bond blocks' and the diagonal's multiply-adds; bytes: x, y, the halo and "
                  "the operator's per-atom arrays, once each):\n%-9s %-12s %5s %9s %-22s %8s %8s %7s %7s %7s %8s "
                  "%8s %7s  %s\n",
                  "set", "struct", "ranks", "atoms", "variant", "ms/prod", "GFlop/s", "%peak", "GB/s", "%triad",
                  "flop ms", "byte ms", "/floor", "limit"));
  for (const Row &r : rows) {
    if (r.skipped) continue;
    const Roofline &m = roof.at(r.ranks);
    const double gf = r.work.flops / r.seconds / 1e9, gb = r.work.bytes / r.seconds / 1e9;
    PetscCall(PetscPrintf(comm, "%-9s %-12s %5d %9lld %-22s %8.2f %8.2f %6.1f%% %7.2f %6.1f%% %8.2f %8.2f %6.2fx  %s\n",
                          r.set.c_str(), r.structure.c_str(), r.ranks, r.atoms, r.variant.c_str(), 1e3 * r.seconds, gf,
                          100 * gf / m.peak_gflops, gb, 100 * gb / m.triad_gbs, 1e3 * m.flopFloor(r.work),
                          1e3 * m.byteFloor(r.work), r.seconds / m.floor(r.work), m.limit(r.work).c_str()));
  }
  PetscFunctionReturn(0);
}

// The roofline's targets: the shell's product within 1.5x of its larger floor (the dots, every set, 1 and all ranks),
// and the tuned kernel at most half the reference kernel's time (the product before its tuning), on the ideal and
// the strained dot.
PetscErrorCode PrintRooflineTargets(MPI_Comm comm, const std::vector<Row> &rows, const std::map<int, Roofline> &roof) {
  std::vector<std::pair<double, std::string>> floors, kernels;
  PetscFunctionBeginUser;
  for (const Row &r : rows) {
    if (r.skipped || r.structure == "bulk" || (r.variant != "shell" && r.variant != "shell_strained")) continue;
    const std::string where = r.set + " " + r.structure + " " + r.variant + " " + std::to_string(r.ranks) + " rank" +
                              (r.ranks > 1 ? "s" : "");
    if (r.structure == "dot") floors.emplace_back(r.seconds / roof.at(r.ranks).floor(r.work), where);
    const Row *ref = Find(rows, r, r.variant == "shell" ? "shell_reference" : "shell_reference_strained", r.ranks);
    if (ref) kernels.emplace_back(r.seconds / ref->seconds, where);
  }
  PetscCall(
      PetscPrintf(comm, "  shell product <= 1.5x its larger floor (dots): %s\n", AtMost(floors, 1.5).text().c_str()));
  PetscCall(PetscPrintf(comm, "  shell product <= 0.5x the reference kernel's (dots, ideal and strained): %s\n",
                        AtMost(kernels, 0.5).text().c_str()));
  PetscFunctionReturn(0);
}

// The targets, each from rows measured side by side.
PetscErrorCode PrintTargets(MPI_Comm comm, const std::vector<Row> &rows, const std::map<int, Roofline> &roof) {
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscPrintf(comm, "\ntargets (sp3d5s*+SO dot unless said):\n"));
  for (const Row &r : rows) {
    if (r.skipped || r.set != "nemo3d" || r.structure != "dot" || r.variant != "aij") continue;
    const Row *blocks = Find(rows, r, "stored_blocks", r.ranks), *shell = Find(rows, r, "shell", r.ranks),
              *nocache = Find(rows, r, "shell_nocache", r.ranks);
    PetscCall(PetscPrintf(comm, "  %lld atoms, %d rank%s:\n", r.atoms, r.ranks, r.ranks > 1 ? "s" : ""));
    if (blocks)
      PetscCall(PetscPrintf(comm, "    stored_blocks >= 2.5x faster than PETSc AIJ: %.2fx -> %s\n",
                            r.seconds / blocks->seconds, r.seconds / blocks->seconds >= 2.5 ? "met" : "NOT met"));
    if (blocks && shell)
      PetscCall(PetscPrintf(comm, "    shell <= 1.0x the stored_blocks product time: %.2fx -> %s\n",
                            shell->seconds / blocks->seconds, shell->seconds <= blocks->seconds ? "met" : "NOT met"));
    if (blocks && nocache)
      PetscCall(PetscPrintf(comm, "    shell without block cache <= 3x the stored_blocks product time: %.2fx -> %s\n",
                            nocache->seconds / blocks->seconds,
                            nocache->seconds <= 3 * blocks->seconds ? "met" : "NOT met"));
  }
  for (const Row &r : rows) { // the solver's vector work: a Lanczos step against one product
    if (r.skipped || r.set != "nemo3d" || r.structure == "bulk" ||
        !(r.variant.starts_with("shell") || r.variant.starts_with("stored_blocks")))
      continue;
    // The lazy step reads v and w and writes w (x, formed in place) and y: two vectors more than the product's x and y.
    const double extra_bytes = 2.0 * (double)r.rows * sizeof(PetscScalar);
    PetscCall(PetscPrintf(comm,
                          "  Lanczos step <= 1.2x the product (%s %s, %lld atoms, %d rank%s): %.2fx -> %s (fused "
                          "step %.2fx, plain step %.2fx); step - product %.3g ms, its 2 more vectors (%.3g MB) %.3g "
                          "ms at the triad\n",
                          r.variant.c_str(), r.structure.c_str(), r.atoms, r.ranks, r.ranks > 1 ? "s" : "",
                          r.steps.lazy / r.steps.product, r.steps.lazy <= 1.2 * r.steps.product ? "met" : "NOT met",
                          r.steps.fused / r.steps.product, r.steps.plain / r.steps.product,
                          (r.steps.lazy - r.steps.product) * 1e3, extra_bytes / 1e6,
                          extra_bytes / (roof.at(r.ranks).triad_gbs * 1e9) * 1e3));
  }
  for (const Row &r : rows) { // the strained H against the ideal H of the same relaxed atoms
    if (r.skipped || r.structure != "strained_dot" || r.variant.ends_with("_strained")) continue;
    const Row *st = Find(rows, r, (r.variant + "_strained").c_str(), r.ranks);
    const double bound = r.variant == "shell" ? 1.5 : r.variant == "stored_blocks" ? 1.1 : 0;
    if (!st || bound == 0) continue;
    PetscCall(PetscPrintf(comm, "  strained %s <= %.1fx its ideal-H product (%s, %lld atoms, %d rank%s): %.2fx -> %s\n",
                          r.variant.c_str(), bound, r.set.c_str(), r.atoms, r.ranks, r.ranks > 1 ? "s" : "",
                          st->seconds / r.seconds, st->seconds <= bound * r.seconds ? "met" : "NOT met"));
    if (r.variant == "shell")
      PetscCall(PetscPrintf(comm, "  strained shell <= 150 bytes of operator per atom: %.0f B -> %s\n",
                            st->op_bytes / (double)st->atoms,
                            st->op_bytes <= 150.0 * (double)st->atoms ? "met" : "NOT met"));
  }
  for (const Row &r : rows)
    if (!r.skipped && r.variant == "shell" && r.structure == "dot" && r.set == "nemo3d" && r.atoms >= 1000000)
      PetscCall(PetscPrintf(
          comm, "  shell operator <= 1 kB per atom at >= 10^6 atoms: %.0f B per atom (%lld atoms, %d rank%s) -> %s\n",
          r.op_bytes / (double)r.atoms, r.atoms, r.ranks, r.ranks > 1 ? "s" : "",
          r.op_bytes <= 1024.0 * (double)r.atoms ? "met" : "NOT met"));
  for (const Row &r : rows) {
    const Row *single = size > 1 && !r.skipped && r.ranks == size ? Find(rows, r, r.variant.c_str(), 1) : nullptr;
    if (!single) continue;
    // 0.9 of the memory bandwidth's own speed-up, but never below 1: more ranks slower than one never meet it
    const double speedup = single->seconds / r.seconds,
                 bound = std::max(1.0, 0.9 * roof.at(size).triad_gbs / roof.at(1).triad_gbs);
    PetscCall(PetscPrintf(
        comm, "  %d-rank speed-up >= max(1, 0.9 x triad ratio) (%.2f): %-8s %-5s %9lld atoms %-14s %.2f -> %s\n", size,
        bound, r.set.c_str(), r.structure.c_str(), r.atoms, r.variant.c_str(), speedup,
        speedup >= bound ? "met" : "NOT met"));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode WriteCsv(MPI_Comm comm, const std::string &path, const std::vector<Row> &rows,
                        const std::map<int, Roofline> &roof) {
  std::ostringstream f;
  PetscFunctionBeginUser;
  f << "set,structure,ranks,cells,atoms,rows,variant,seconds,us_per_atom,gflops,gbs,est_bytes,op_bytes,vec_bytes,rss_"
       "mb,hwm_mb,triad_gbs,fma_gflops,work_flops,work_bytes,floor_seconds,note\n";
  for (const Row &r : rows)
    f << r.set << ',' << r.structure << ',' << r.ranks << ',' << r.cells << ',' << r.atoms << ',' << r.rows << ','
      << r.variant << ',' << r.seconds << ',' << r.usPerAtom() << ',' << r.gflops() << ',' << r.gbs() << ','
      << r.est_bytes << ',' << r.op_bytes << ',' << r.vec_bytes << ',' << r.rss_mb << ',' << r.hwm_mb << ','
      << roof.at(r.ranks).triad_gbs << ',' << roof.at(r.ranks).peak_gflops << ',' << r.work.flops << ',' << r.work.bytes
      << ',' << roof.at(r.ranks).floor(r.work) << ",\"" << r.note << "\"\n";
  PetscCall(WriteTextFile(comm, path, f.str(), "-bench_csv"));
  PetscCall(PetscPrintf(comm, "wrote %s\n", path.c_str()));
  PetscFunctionReturn(0);
}

PetscErrorCode Run(MPI_Comm comm, int *) {
  BenchSettings b;
  std::map<int, Roofline> roof;
  std::vector<Row> rows;
  PetscFunctionBeginUser;
  PetscCall(ReadSettings(comm, &b));
  if (HelpRequested()) PetscFunctionReturn(0);
  PetscCall(MeasureAll(comm, b, &roof, &rows));
  PetscCall(PrintTable(comm, rows));
  PetscCall(PrintRoofline(comm, rows, roof));
  PetscCall(PrintTargets(comm, rows, roof));
  PetscCall(PrintRooflineTargets(comm, rows, roof));
  if (!b.csv.empty()) PetscCall(WriteCsv(comm, b.csv, rows, roof));
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "bench_operators", Run); }
