// bench_strain: the relaxation (Keating valence force field minimised by SNES, tbpeta's -strain keating) of an InAs
// dot in an open GaAs cube at several sizes, on the ranks it is started on. Per size: the iterations and the
// evaluations of the energy and its gradient, the time of one evaluation next to one product of the on-the-fly H
// (-hamiltonian shell, nemo3d sp3d5s*+SO) of the same structure measured in the same run, the whole relaxation's
// time, the resident memory it added per atom, and at the end the fitted exponent of the relaxation time against
// the atoms. It also times the structure's build (the regions, their composition and the atoms' materials) against
// the relaxation: with -bench_shape lens-stack (two graded, interdiffused lenses on their wetting layers) the build
// must stay linear in the atoms and below 5 % of the relaxation. A printed benchmark, not a test. On a shared machine,
// -bench_repeat relaxes each size several times and keeps the fastest.
//
//   mpiexec -n R bench_strain [options: -help lists them with their defaults] [-strain_*]
static const char help[] =
    "bench_strain: relaxation of an InAs dot in GaAs at several sizes, an energy + gradient evaluation against a "
    "product of H.\n"
    "Run with -help for every option and its default; -strain_snes_*, -strain_laplacian_*: the relaxation's solver "
    "options, as in tbpeta.\n\n";

#include <petscsnes.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <malloc.h>
#include <string>
#include <vector>

#include "BenchOptions.hpp"
#include "DomeInABox.hpp"
#include "SystemProbes.hpp"
#include "Targets.hpp"
#include "application/ApplicationMain.hpp"
#include "model/TightBindingSystem.hpp"
#include "operator/Hamiltonian.hpp"
#include "strain/Relaxation.hpp"
#include "strain/SystemRelaxation.hpp"
#include "support/ResidentMemory.hpp"
#include "support/TextFile.hpp"
#include "support/PetscHandle.hpp"

using namespace tbpeta;

namespace {

struct Row {
  int ranks = 1, cells = 0;
  long long atoms = 0;
  PetscInt iterations = 0, evaluations = 0;
  double eval_ms = 0, product_ms = 0, relax_s = 0, bytes_per_atom = 0, own_bytes_per_atom = 0, max_force = 0;
  double structure_s = 0; // the regions, their composition and the atoms with their materials and bonds
  double ratio() const { return eval_ms / product_ms; }
};

// The structure, timed (max over the ranks): the model, the regions with their composition, the atoms and bonds.
PetscErrorCode BuildSystem(MPI_Comm comm, int n, const std::string &shape, TightBindingSystem *sys,
                           double *structure_s) {
  SystemSpec spec = bench::DomeInABox(n);
  PetscFunctionBeginUser;
  const double edge = n * 0.56532;
  RegionSpec &dot = spec.nano.dot;
  if (shape == "sphere") dot.shape = "sphere", dot.wetting_layers = 0, dot.center_set = false;
  if (shape == "lens-stack") {
    dot.shape = "lens";
    dot.size.set("diameter", 0.4 * edge);
    dot.size.set("height", 0.08 * edge);
    dot.center[2] = 0.25 * edge, dot.composition = {0.5, 1};
    spec.nano.stack = 2, spec.nano.stack_spacing = 0.3 * edge, spec.nano.interdiffusion = 0.5;
  }
  PetscCall(PartitionSpecFromOptions(comm, &spec.partition));
  PetscCallMPI(MPI_Barrier(comm));
  const double t0 = MPI_Wtime();
  PetscCall(CreateTightBindingSystem(comm, spec, sys));
  PetscCall(BuildStructure(comm, sys));
  *structure_s = MPI_Wtime() - t0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, structure_s, 1, MPI_DOUBLE, MPI_MAX, comm));
  PetscFunctionReturn(0);
}

// Median of 5 timed calls (max over the ranks), after one untimed call.
template <class F>
PetscErrorCode MedianSeconds(MPI_Comm comm, F call, double *seconds) {
  std::vector<double> t;
  PetscFunctionBeginUser;
  for (int k = -1; k < 5; ++k) {
    double dt;
    PetscCall(bench::TimeOnRanks(comm, call, &dt));
    if (k >= 0) t.push_back(dt);
  }
  *seconds = bench::Median(t);
  PetscFunctionReturn(0);
}

// The relaxation of one structure: memory added (VmRSS, largest rank x ranks / atoms) by tbpeta's energy with the
// solution vector, and by the whole relaxation (SNES's vectors too); iterations, time.
PetscErrorCode Relax(MPI_Comm comm, const TightBindingSystem &sys, Row *r, OwnedVec *u, KeatingEnergy *energy) {
  OwnedSNES snes;
  RelaxationReport report;
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  malloc_trim(0);
  const double rss0 = ProcStatusKb("VmRSS");
  PetscCall(KeatingEnergy::Create(comm, sys.structure, sys.model, sys.a_nm, StrainFix::none, energy));
  PetscCall(energy->CreateDisplacement(u->out()));
  PetscCall(VecSet(*u, 0.0)); // touched: resident
  double kb[2] = {ProcStatusKb("VmRSS") - rss0, 0};
  PetscCall(CreateRelaxationSolver(comm, snes.out()));
  PetscCall(MinimiseEnergy(snes, energy, *u, &report));
  kb[1] = ProcStatusKb("VmRSS") - rss0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, kb, 2, MPI_DOUBLE, MPI_MAX, comm));
  snes.reset();
  PetscCheck(report.converged, comm, PETSC_ERR_NOT_CONVERGED,
             "bench_strain: the relaxation of %lld atoms stopped before its tolerance (%s)", r->atoms,
             report.reason.c_str());
  r->iterations = report.iterations, r->evaluations = report.evaluations, r->relax_s = report.seconds,
  r->max_force = report.max_force;
  r->bytes_per_atom = kb[1] * 1024 * size / (double)r->atoms;
  r->own_bytes_per_atom = kb[0] * 1024 * size / (double)r->atoms; // the energy's work vectors and the solution u

  PetscFunctionReturn(0);
}

PetscErrorCode Measure(MPI_Comm comm, int n, const std::string &shape, PetscInt repeat, Row *r) {
  TightBindingSystem sys;
  KeatingEnergy energy;
  OwnedVec u, g, x, y;
  OwnedMat H;
  HamiltonianOptions shell;
  PetscReal e;
  PetscFunctionBeginUser;
  PetscCall(BuildSystem(comm, n, shape, &sys, &r->structure_s));
  PetscCallMPI(MPI_Comm_size(comm, &r->ranks));
  r->cells = n, r->atoms = sys.structure.total();
  PetscCall(Relax(comm, sys, r, &u, &energy));
  for (PetscInt k = 1; k < repeat; ++k) { // the fastest time; the memory of the first run (later ones reuse the heap)
    Row again = *r;
    KeatingEnergy other;
    OwnedVec v;
    PetscCall(Relax(comm, sys, &again, &v, &other));
    r->relax_s = std::min(r->relax_s, again.relax_s);
  }
  PetscCall(VecDuplicate(u, g.out()));
  double s;
  PetscCall(MedianSeconds(
      comm, [&] { return energy.Evaluate(u, &e, g); }, &s));
  r->eval_ms = 1e3 * s;
  g.reset(), u.reset();
  shell.kind = "shell";
  PetscCall(CreateHamiltonian(comm, sys.structure, sys.model, sys.spec.cell.k, shell, H.out(), false));
  PetscCall(MatCreateVecs(H, x.out(), y.out()));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MedianSeconds(
      comm, [&] { return MatMult(H, x, y); }, &s));
  r->product_ms = 1e3 * s;
  PetscFunctionReturn(0);
}

// Least-squares slope of log(time) against log(atoms), of the relaxation or of the structure's build.
double Exponent(const std::vector<Row> &rows, double Row::*seconds = &Row::relax_s) {
  std::vector<double> atoms, t;
  for (const Row &r : rows) {
    atoms.push_back((double)r.atoms);
    t.push_back(r.*seconds);
  }
  return bench::FitExponent(atoms, t);
}

PetscErrorCode WriteCsv(MPI_Comm comm, const std::string &path, const std::vector<Row> &rows) {
  std::string text = "ranks,cells,atoms,iterations,evaluations,eval_ms,shell_product_ms,eval_over_product,relax_s,rss_"
                     "bytes_per_atom,own_bytes_per_atom,max_force_ev_nm,structure_s\n";
  char line[320];
  PetscFunctionBeginUser;
  for (const Row &r : rows) {
    std::snprintf(line, sizeof line,
                  "%d,%d,%lld,%" PetscInt_FMT ",%" PetscInt_FMT ",%.4f,%.4f,%.4f,%.4f,%.1f,%.1f,%.3e,%.4f\n", r.ranks,
                  r.cells, r.atoms, r.iterations, r.evaluations, r.eval_ms, r.product_ms, r.ratio(), r.relax_s,
                  r.bytes_per_atom, r.own_bytes_per_atom, r.max_force, r.structure_s);
    text += line;
  }
  PetscCall(WriteTextFile(comm, path, text, "-bench_csv"));
  PetscFunctionReturn(0);
}

struct Settings {
  std::vector<PetscInt> cells;
  std::string shape, csv;
  PetscInt repeat = 0;
};

bench::BenchOptions Options(Settings *s) {
  return {{"-bench_cells", "Cube sizes in cells (10,648 and 97,336 atoms; 50 gives 10^6)", "11,23", &s->cells},
          {"-bench_shape",
           "sphere (a quarter of the edge), dome (on 2 monolayers) or lens-stack (two graded, interdiffused lenses)",
           "sphere", &s->shape},
          {"-bench_repeat", "Relax each size this many times, keep the fastest", "1", &s->repeat},
          bench::CsvFileOption(&s->csv)};
}

PetscErrorCode Run(MPI_Comm comm, int *) {
  Settings b;
  std::vector<Row> rows;
  PetscFunctionBeginUser;
  PetscCall(bench::ReadBenchOptions(comm, "bench_strain", Options(&b)));
  const char *shape = b.shape.c_str();
  PetscCheck(b.shape == "sphere" || b.shape == "dome" || b.shape == "lens-stack", comm, PETSC_ERR_USER_INPUT,
             "-bench_shape: '%s' is not allowed (allowed: sphere, dome, lens-stack)", shape);
  for (PetscInt n : b.cells)
    PetscCheck(n >= 4, comm, PETSC_ERR_USER_INPUT, "-bench_cells: %" PetscInt_FMT " cells; each size needs at least 4",
               n);
  PetscCheck(b.repeat >= 1, comm, PETSC_ERR_USER_INPUT,
             "-bench_repeat: %" PetscInt_FMT " is not allowed (allowed: 1 or more)", b.repeat);
  PetscCall(ListRelaxationOptions(comm)); // -help lists the solvers' options
  if (HelpRequested()) PetscFunctionReturn(0);
  PetscCall(PetscPrintf(comm,
                        "bench_strain: InAs %s in open GaAs cubes, Keating VFF relaxed by SNES; evaluation = energy + "
                        "gradient, product = shell H (nemo3d sp3d5s*+SO)\n",
                        shape));
  PetscCall(PetscPrintf(comm, "%5s %6s %9s %6s %6s %10s %11s %8s %9s %10s %10s %10s %12s\n", "ranks", "cells", "atoms",
                        "iter", "evals", "eval ms", "product ms", "ratio", "relax s", "RSS B/atom", "own B/atom",
                        "max force", "structure s"));
  for (PetscInt n : b.cells) {
    Row r;
    PetscCall(Measure(comm, (int)n, shape, b.repeat, &r));
    PetscCall(PetscPrintf(comm,
                          "%5d %6d %9lld %6" PetscInt_FMT " %6" PetscInt_FMT
                          " %10.3f %11.3f %8.3f %9.2f %10.1f %10.1f %10.2e %12.3f\n",
                          r.ranks, r.cells, r.atoms, r.iterations, r.evaluations, r.eval_ms, r.product_ms, r.ratio(),
                          r.relax_s, r.bytes_per_atom, r.own_bytes_per_atom, r.max_force, r.structure_s));
    rows.push_back(r);
  }
  PetscCall(PetscPrintf(comm, "targets: one evaluation <= 0.5 x one shell product (largest ratio measured %.3f)",
                        std::max_element(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
                          return a.ratio() < b.ratio();
                        })->ratio()));
  if (rows.size() > 1)
    PetscCall(PetscPrintf(comm, "; relaxation time ~ atoms^%.3f (target 1.00 +- 0.05)", Exponent(rows)));
  PetscCall(PetscPrintf(comm, "\n"));
  std::vector<std::pair<double, std::string>> shares;
  for (const Row &r : rows) shares.emplace_back(100 * r.structure_s / r.relax_s, std::to_string(r.atoms) + " atoms");
  const bench::Verdict share = bench::AtMost({shares.back()}, 5.0); // in percent
  PetscCall(PetscPrintf(comm, "targets: the structure's build <= 5 %% of the relaxation at the largest size: %s",
                        share.text("structure / relaxation, %").c_str()));
  if (rows.size() > 1)
    PetscCall(
        PetscPrintf(comm, "; structure time ~ atoms^%.3f (target at most 1.10)", Exponent(rows, &Row::structure_s)));
  PetscCall(PetscPrintf(comm, "\n"));
  if (!b.csv.empty()) PetscCall(WriteCsv(comm, b.csv, rows));
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "bench_strain", Run); }
