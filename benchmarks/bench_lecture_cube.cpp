// bench_lecture_cube: the lecture's headline problem, timed on the ranks it is started on. The passivated 44 nm silicon
// cube (81^3 cells, 4,251,528 atoms, nemo3d sp3d5s* + spin-orbit, 85 M rows, -hamiltonian shell) and 3,000 steps of
// the NEMO 3-D-style Lanczos (eigenvalues only: the first pass, capped by -eps_max_it), next to the scaling model of
// the same cube and steps (tbpeta-model: the settings of 2001 and of today, on 64 processors in cubes, and on this
// run's ranks) and the lecture's "from 10 hours to 20 minutes" of NEMO 3-D Peta. A printed benchmark, not a test.
//
//   mpiexec -n R bench_lecture_cube [-cells n,n,n] [its own options: -help lists them with their defaults] [any
//   option of tbpeta's structure, model, -hamiltonian and -eps_*]
static const char help[] =
    "bench_lecture_cube: 3,000 Lanczos steps on the lecture's 44 nm silicon cube, next to the scaling model and the "
    "lecture's figures.\n"
    "Run with -help for every option and its default: its own, and\n"
    "  the structure, model and -hamiltonian options of tbpeta (default -cells 81,81,81 -params nemo3d -material Si,\n"
    "  open, -hamiltonian shell) and its -eps_* options (default -eps_type nemo -eps_nemo_vectors false)\n\n";

#include <petscsys.h>

#include <cstdio>
#include <string>

#include "BenchOptions.hpp"
#include "application/ApplicationMain.hpp"
#include "bulk/CellSpectrum.hpp"
#include "geometry/HaloAnalysis.hpp"
#include "model/TightBindingSystem.hpp"
#include "operator/Hamiltonian.hpp"
#include "solvers/EigenSolve.hpp"
#include "study/ScalingModel.hpp"
#include "support/PetscHandle.hpp"
#include "support/ResidentMemory.hpp"

using namespace tbpeta;

namespace {

// The lecture's figures for NEMO 3-D Peta on this cube (slide 13): 10 hours before, 20 minutes after, on more than
// 30,000 cores; and the notebook's model of 3,000 steps in the 2001 setting at 64 processors.
constexpr double kLectureBeforeSeconds = 10 * 3600.0, kLectureAfterSeconds = 20 * 60.0;
constexpr double kNotebook2001At64Seconds = 4413;

SystemSpec LectureCube() {
  SystemSpec s;
  s.model.set = "nemo3d", s.model.host = "Si";
  s.cell.cells = {81, 81, 81}, s.cell.periodic = {false, false, false};
  return s;
}

// Sets `name` to `value` unless the user gave it.
PetscErrorCode DefaultOption(const char *name, const char *value) {
  PetscBool given;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasName(nullptr, nullptr, name, &given));
  if (!given) PetscCall(PetscOptionsSetValue(nullptr, name, value));
  PetscFunctionReturn(0);
}

struct Measured {
  long long atoms = 0;
  PetscInt rows = 0, steps = 0, products = 0;
  int ranks = 1;
  double build_s = 0, solve_s = 0, peak_mb = 0, total_mb = 0;
  double perStep() const { return steps > 0 ? solve_s / (double)steps : 0; }
};

PetscErrorCode RunLanczos(MPI_Comm comm, const SystemSpec &spec, const HamiltonianOptions &hopts, Measured *m) {
  TightBindingSystem sys;
  OwnedMat H;
  EigenStates states;
  double vbm, cbm;
  EPS eps;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Barrier(comm));
  const double t0 = MPI_Wtime();
  PetscCall(CreateTightBindingSystem(comm, spec, &sys));
  PetscCall(BuildStructure(comm, &sys));
  PetscCall(CreateHamiltonian(comm, sys.structure, sys.model, spec.cell.k, hopts, H.out()));
  m->build_s = MPI_Wtime() - t0;
  PetscCall(BulkBandEdges(sys.model, 0, &vbm, &cbm));
  PetscCall(CreateEigenSolver(comm, nullptr, 0.5 * (vbm + cbm), &eps));
  PetscCall(SolveEigenproblem(eps, H, SolverPolicy{}, &states));
  PetscCall(EPSDestroy(&eps));
  PetscCall(MatGetSize(H, &m->rows, nullptr));
  PetscCallMPI(MPI_Comm_size(comm, &m->ranks));
  m->atoms = (long long)sys.structure.total();
  m->steps = states.iterations, m->products = states.products, m->solve_s = states.seconds;
  PetscCall(PeakResidentMb(comm, &m->peak_mb, &m->total_mb));
  PetscFunctionReturn(0);
}

// The model's time for `steps` products on P processors in cubes, in one setting.
PetscErrorCode ModelSeconds(const SystemSpec &spec, const std::string &setting, int P, int rows_per_atom, int steps,
                            double *seconds) {
  MachineSetting ms;
  PetscFunctionBeginUser;
  PetscCheck(MachinePreset(setting, &ms), PETSC_COMM_SELF, PETSC_ERR_PLIB, "no machine setting %s", setting.c_str());
  const ZincblendeLattice lattice(spec.cell.cells, spec.cell.periodic);
  const auto grid = AnalysisGrid(PartitionKind::cube, P, lattice.planes());
  const HaloCounts h = CountHalo(lattice, PlanePartition(lattice.planes(), grid));
  const ModelPoint t =
      ModelProduct(ms, P, PartitionKind::cube, (double)h.ownedMax(), (double)h.haloMax(), rows_per_atom);
  *seconds = steps * t.time();
  PetscFunctionReturn(0);
}

std::string Minutes(double s) {
  char buf[64];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%.0f s (%.1f h)", s, s / 3600);
  else if (s >= 60) std::snprintf(buf, sizeof buf, "%.0f s (%.1f min)", s, s / 60);
  else std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

PetscErrorCode PrintFigure(MPI_Comm comm, const SystemSpec &spec, const Measured &m, int domains) {
  constexpr int kSteps = 3000;
  const int rows_per_atom = (int)(m.rows / m.atoms);
  double model2001, modelToday, modelHere;
  PetscFunctionBeginUser;
  PetscCall(ModelSeconds(spec, "2001", domains, rows_per_atom, kSteps, &model2001));
  PetscCall(ModelSeconds(spec, "today", domains, rows_per_atom, kSteps, &modelToday));
  PetscCall(ModelSeconds(spec, "today", m.ranks, rows_per_atom, kSteps, &modelHere));
  const double here = kSteps * m.perStep();
  char label[4][96];
  std::snprintf(label[0], sizeof label[0], "this machine, %d rank(s), measured", m.ranks);
  std::snprintf(label[1], sizeof label[1], "model, 2001 setting, %d processors", domains);
  std::snprintf(label[2], sizeof label[2], "model, today's setting, %d processors", domains);
  std::snprintf(label[3], sizeof label[3], "model, today's setting, %d processor(s)", m.ranks);
  const auto row = [&](const char *what, double seconds, const std::string &note) {
    if (note.empty()) return PetscPrintf(comm, "  %-44s %s\n", what, Minutes(seconds).c_str());
    return PetscPrintf(comm, "  %-44s %-18s %s\n", what, Minutes(seconds).c_str(), note.c_str());
  };
  char note[192];
  PetscCall(PetscPrintf(
      comm, "\nstructure and H built in %.1f s; %" PetscInt_FMT " steps, %" PetscInt_FMT " products of H in %.1f s\n",
      m.build_s, m.steps, m.products, m.solve_s));
  PetscCall(
      PetscPrintf(comm, "3,000 Lanczos steps on this cube (%lld atoms, %" PetscInt_FMT " rows):\n", m.atoms, m.rows));
  std::snprintf(note, sizeof note,
                "%.3f s per step, %" PetscInt_FMT " steps run; %.1f MB peak on the largest rank, %.1f MB in all",
                m.perStep(), m.steps, m.peak_mb, m.total_mb);
  PetscCall(row(label[0], here, note));
  std::snprintf(note, sizeof note, "the notebook (81^3 cells, 64 processors): %.0f s; measured / model %.2f",
                kNotebook2001At64Seconds, here / model2001);
  PetscCall(row(label[1], model2001, note));
  PetscCall(row(label[2], modelToday, ""));
  std::snprintf(note, sizeof note, "this run's ranks; measured / model %.2f", here / modelHere);
  PetscCall(row(label[3], modelHere, note));
  PetscCall(row("the lecture: NEMO 3-D, the whole solve", kLectureBeforeSeconds, ""));
  PetscCall(row("the lecture: NEMO 3-D Peta, > 30,000 cores", kLectureAfterSeconds, ""));
  PetscFunctionReturn(0);
}

struct Settings {
  PetscInt steps = 0, domains = 0;
};

bench::BenchOptions Options(Settings *s) {
  return {{"-bench_steps", "Lanczos steps (the solve's -eps_max_it)", "3000", &s->steps},
          {"-bench_domains", "Processors of the model's comparison row", "64", &s->domains}};
}

PetscErrorCode Run(MPI_Comm comm, int *) {
  Settings b;
  SystemSpec spec;
  HamiltonianOptions hopts;
  char text[32];
  PetscFunctionBeginUser;
  PetscCall(bench::ReadBenchOptions(comm, "bench_lecture_cube", Options(&b)));
  const PetscInt steps = b.steps, domains = b.domains;
  PetscCheck(steps >= 1, comm, PETSC_ERR_USER_INPUT, "-bench_steps %" PetscInt_FMT ": needs at least 1 step", steps);
  PetscCheck(domains >= 1, comm, PETSC_ERR_USER_INPUT, "-bench_domains %" PetscInt_FMT ": needs at least 1", domains);
  std::snprintf(text, sizeof text, "%" PetscInt_FMT, steps);
  PetscCall(DefaultOption("-hamiltonian", "shell"));
  PetscCall(DefaultOption("-eps_type", "nemo"));
  PetscCall(DefaultOption("-eps_max_it", text));
  PetscCall(DefaultOption("-eps_nemo_vectors", "false"));
  PetscCall(DefaultOption("-eps_nev", "8"));
  PetscCall(DefaultOption("-eps_nemo_valence", "4"));
  PetscCall(SystemSpecFromOptions(comm, LectureCube(), &spec));
  PetscCall(HamiltonianOptionsFromOptions(comm, &hopts));
  if (HelpRequested()) PetscFunctionReturn(0);
  // the benchmark builds H on the ideal sites: no relaxation, no potentials
  PetscCheck(spec.strain.model == StrainModel::none, comm, PETSC_ERR_USER_INPUT,
             "-strain: bench_lecture_cube times H on the ideal sites (allowed: -strain none)");
  PetscCheck(!spec.fields.any(), comm, PETSC_ERR_USER_INPUT,
             "-piezo, -efield: bench_lecture_cube times H without potentials (allowed: -piezo none, no -efield)");
  Measured m;
  PetscCall(RunLanczos(comm, spec, hopts, &m));
  PetscCall(PrintFigure(comm, spec, m, (int)domains));
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "bench_lecture_cube", Run); }
