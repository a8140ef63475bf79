// bench_fields: the piezoelectric potential of a relaxed InAs dome (on 2 monolayers) in an open GaAs cube at several
// sizes, on the ranks it is started on. Per size: the relaxation's time, the Poisson grid's nodes, the KSP iterations
// and time (CG + GAMG, prefix piezo_), their ratio to the relaxation, and the shell product with and without the
// potential on the atoms, timed in turns in the same run (the strained H folds the potential into its diagonal; the
// unstrained H with an applied field adds it in the product). At the end: the fitted exponent of the Poisson time
// against the grid's nodes. A printed benchmark, not a test.
//
//   mpiexec -n R bench_fields [options: -help lists them with their defaults] [-piezo_grid N] [-piezo_pad_cells N]
//   [-piezo_ksp_*, -piezo_pc_*] [-strain_*]
static const char help[] =
    "bench_fields: the piezoelectric potential of a relaxed InAs dome in GaAs at several sizes, against the "
    "relaxation; the shell product with a potential against the one without.\n"
    "Run with -help for every option and its default; -piezo_grid, -piezo_pad_cells, -piezo_ksp_*, -piezo_pc_*, "
    "-strain_* as in tbpeta.\n\n";

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <malloc.h>
#include <string>
#include <vector>

#include "BenchOptions.hpp"
#include "DomeInABox.hpp"
#include "SystemProbes.hpp"
#include "Targets.hpp"
#include "application/ApplicationMain.hpp"
#include "fields/PiezoTerm.hpp"
#include "fields/SystemFields.hpp"
#include "operator/Hamiltonian.hpp"
#include "strain/SystemRelaxation.hpp"
#include "support/PetscHandle.hpp"
#include "support/ResidentMemory.hpp"
#include "support/TextFile.hpp"

using namespace tbpeta;

namespace {

struct Row {
  int ranks = 1, cells = 0;
  long long atoms = 0, nodes = 0;
  PetscInt iterations = 0;
  double relax_s = 0, poisson_s = 0, poisson_mb = 0;    // the solve's added resident memory, largest rank
  double strained_ms[2] = {0, 0}, field_ms[2] = {0, 0}; // shell product without / with the potential
  double ratio() const { return poisson_s / relax_s; }
};

PetscErrorCode BuildSystem(MPI_Comm comm, int n, TightBindingSystem *sys) {
  SystemSpec spec = bench::DomeInABox(n);
  PetscFunctionBeginUser;
  spec.strain.model = StrainModel::keating, spec.strain.pad = {2, 2, 2};
  FieldSpec fields;
  fields.piezo = PiezoOrder::second;
  PetscCall(FieldSpecFromOptions(comm, fields, spec.cell.periodic, true, &spec.fields));
  PetscCall(PartitionSpecFromOptions(comm, &spec.partition));
  PetscCall(CreateTightBindingSystem(comm, spec, sys));
  PetscCall(BuildStructure(comm, sys));
  PetscFunctionReturn(0);
}

// Medians of 7 products of each operator, taken in turns (max over the ranks), after one untimed product of each.
PetscErrorCode PairedProducts(MPI_Comm comm, Mat A, Mat B, double ms[2]) {
  OwnedVec x, y;
  std::vector<double> t[2];
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, x.out(), y.out()));
  PetscCall(VecSet(x, 1.0));
  for (int k = -1; k < 7; ++k)
    for (int m = 0; m < 2; ++m) {
      double dt;
      PetscCall(bench::TimeOnRanks(
          comm, [&] { return MatMult(m ? B : A, x, y); }, &dt));
      if (k >= 0) t[m].push_back(dt);
    }
  for (int m = 0; m < 2; ++m) ms[m] = 1e3 * bench::Median(t[m]);
  PetscFunctionReturn(0);
}

PetscErrorCode ShellPair(MPI_Comm comm, TightBindingSystem *sys, const LargeVector<double> &potential, double ms[2]) {
  HamiltonianOptions shell;
  OwnedMat without, with;
  PetscFunctionBeginUser;
  shell.kind = "shell";
  sys->structure.potential.clear();
  PetscCall(CreateHamiltonian(comm, sys->structure, sys->model, sys->spec.cell.k, shell, without.out(), false));
  sys->structure.potential = potential;
  PetscCall(CreateHamiltonian(comm, sys->structure, sys->model, sys->spec.cell.k, shell, with.out(), false));
  PetscCall(PairedProducts(comm, without, with, ms));
  PetscFunctionReturn(0);
}

PetscErrorCode Measure(MPI_Comm comm, int n, Row *r) {
  TightBindingSystem sys;
  SystemStrain strain;
  SystemFields fields;
  PetscFunctionBeginUser;
  PetscCall(BuildSystem(comm, n, &sys));
  PetscCallMPI(MPI_Comm_size(comm, &r->ranks));
  r->cells = n, r->atoms = sys.structure.total();
  PetscCall(RelaxSystem(comm, &sys, &strain));
  malloc_trim(0);
  const double rss0 = ProcStatusKb("VmRSS");
  const bool peak_reset = ResetPeakResident(); // the fields' own peak, not the relaxation's
  PetscCall(ComputeSystemFields(comm, &sys, &strain, &fields));
  r->poisson_mb = peak_reset ? (ProcStatusKb("VmHWM") - rss0) / 1024 : -1;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &r->poisson_mb, 1, MPI_DOUBLE, MPI_MAX, comm));
  const PoissonReport &poisson = fields.find<PiezoTerm>()->poisson();
  r->relax_s = strain.report.seconds, r->poisson_s = poisson.seconds, r->nodes = poisson.nodes;
  r->iterations = poisson.iterations;
  const LargeVector<double> piezo = sys.structure.potential;
  PetscCall(ShellPair(comm, &sys, piezo, r->strained_ms)); // a strained H: the potential joins its own diagonal
  sys.model.strained.on = false;                           // the ideal H with a field's potential: added in the product
  sys.structure.displacement.clear();
  LargeVector<double> field(piezo.size());
  for (size_t i = 0; i < field.size(); ++i) field[i] = 1e-3 * (double)(i % 97); // any per-atom values
  PetscCall(ShellPair(comm, &sys, field, r->field_ms));
  PetscFunctionReturn(0);
}

// Least-squares slope of log(Poisson time) against log(grid nodes): the solver's own scaling (the fixed padding makes
// the nodes per atom fall with the size).
double PoissonExponent(const std::vector<Row> &rows) {
  std::vector<double> nodes, seconds;
  for (const Row &r : rows) {
    nodes.push_back((double)r.nodes);
    seconds.push_back(r.poisson_s);
  }
  return bench::FitExponent(nodes, seconds);
}

PetscErrorCode WriteCsv(MPI_Comm comm, const std::string &path, const std::vector<Row> &rows) {
  std::string text =
      "ranks,cells,atoms,relax_s,poisson_nodes,poisson_iterations,poisson_s,poisson_mb_per_rank,poisson_over_relax,"
      "strained_shell_ms,strained_shell_potential_ms,shell_ms,shell_potential_ms\n";
  char line[320];
  PetscFunctionBeginUser;
  for (const Row &r : rows) {
    std::snprintf(line, sizeof line, "%d,%d,%lld,%.3f,%lld,%" PetscInt_FMT ",%.3f,%.4f,%.3f,%.3f,%.3f,%.3f\n", r.ranks,
                  r.cells, r.atoms, r.relax_s, r.nodes, r.iterations, r.poisson_s, r.ratio(), r.strained_ms[0],
                  r.strained_ms[1], r.field_ms[0], r.field_ms[1]);
    text += line;
  }
  PetscCall(WriteTextFile(comm, path, text, "-bench_csv"));
  PetscFunctionReturn(0);
}

PetscErrorCode PrintTargets(MPI_Comm comm, const std::vector<Row> &rows) {
  std::vector<std::pair<double, std::string>> product, poisson;
  PetscInt lo = PETSC_MAX_INT, hi = 0;
  PetscFunctionBeginUser;
  for (const Row &r : rows) {
    const std::string at = std::to_string(r.atoms) + " atoms";
    product.emplace_back(r.strained_ms[1] / r.strained_ms[0], at + ", strained");
    product.emplace_back(r.field_ms[1] / r.field_ms[0], at + ", field");
    lo = std::min(lo, r.iterations), hi = std::max(hi, r.iterations);
  }
  poisson.emplace_back(rows.back().ratio(), std::to_string(rows.back().atoms) + " atoms");
  PetscCall(PetscPrintf(comm, "targets: shell product with the potential <= 1.05 x without: %s\n",
                        bench::AtMost(product, 1.05).text("max ratio").c_str()));
  PetscCall(PetscPrintf(comm, "targets: Poisson solve <= relaxation at the largest size: %s\n",
                        bench::AtMost(poisson, 1.0).text("Poisson / relaxation").c_str()));
  PetscCall(
      PetscPrintf(comm, "targets: KSP iterations %" PetscInt_FMT " to %" PetscInt_FMT " (must not grow)", lo, hi));
  if (rows.size() > 1)
    PetscCall(PetscPrintf(comm, "; Poisson time ~ nodes^%.3f (target 1.00 +- 0.10)", PoissonExponent(rows)));
  PetscCall(PetscPrintf(comm, "\n"));
  PetscFunctionReturn(0);
}

struct Settings {
  std::vector<PetscInt> cells;
  std::string csv;
};

bench::BenchOptions Options(Settings *s) {
  return {{"-bench_cells", "Cube sizes in cells (10,648 and 97,336 atoms; 50 gives 10^6)", "11,23", &s->cells},
          bench::CsvFileOption(&s->csv)};
}

PetscErrorCode Run(MPI_Comm comm, int *) {
  Settings b;
  std::vector<Row> rows;
  PetscFunctionBeginUser;
  PetscCall(bench::ReadBenchOptions(comm, "bench_fields", Options(&b)));
  for (PetscInt n : b.cells)
    PetscCheck(n >= 6, comm, PETSC_ERR_USER_INPUT, "-bench_cells: %" PetscInt_FMT " cells; each size needs at least 6",
               n);
  PetscCall(ListRelaxationOptions(comm));
  PetscCall(ListFieldOptions(comm));
  if (HelpRequested()) PetscFunctionReturn(0);
  PetscCall(PetscPrintf(comm, "bench_fields: InAs dome in open GaAs cubes (strain padded by 2 cells), -piezo second; "
                              "product = shell H (nemo3d sp3d5s*+SO)\n"));
  PetscCall(PetscPrintf(comm, "%5s %6s %9s %9s %10s %5s %10s %8s %8s %22s %22s\n", "ranks", "cells", "atoms", "relax s",
                        "nodes", "its", "Poisson s", "MB/rank", "ratio", "strained ms w/o / with",
                        "field ms w/o / with"));
  for (PetscInt n : b.cells) {
    Row r;
    PetscCall(Measure(comm, (int)n, &r));
    PetscCall(PetscPrintf(
        comm, "%5d %6d %9lld %9.2f %10lld %5" PetscInt_FMT " %10.2f %8.0f %8.3f %10.2f / %9.2f %10.2f / %9.2f\n",
        r.ranks, r.cells, r.atoms, r.relax_s, r.nodes, r.iterations, r.poisson_s, r.poisson_mb, r.ratio(),
        r.strained_ms[0], r.strained_ms[1], r.field_ms[0], r.field_ms[1]));
    rows.push_back(r);
  }
  PetscCall(PrintTargets(comm, rows));
  if (!b.csv.empty()) PetscCall(WriteCsv(comm, b.csv, rows));
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "bench_fields", Run); }
