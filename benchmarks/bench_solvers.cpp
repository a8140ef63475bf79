// bench_solvers: every eigen-solver of tbpeta (-solver compare) on one large sp3d5s*+SO passivated dot with the stored
// H: products, time and peak memory to converge 4 + 4 states, each run capped, and the measured ratios next to the
// lecture's claims (ARPACK on the folded operator "about 10x" the NEMO 3-D Lanczos; the folded spectrum "slower")
// and the targets (the Lanczos needs the least memory, 3 vectors + the wanted ones, and no more products than
// Krylov-Schur with harmonic extraction). A printed benchmark, not a test.
//
//   bench_solvers [-cells n,n,n] [-dot_radius R] [-compare_max_products N] [-compare_runs ...] [-bench_csv FILE]
// Defaults, each replaced by the option when given: -params nemo3d -material GaAs -cells 24,24,24 (110,592 atoms,
// 2,211,840 rows) -periodic 0,0,0 -compare_max_products 50000, and unless -dot_material or -dot_shape is given (e.g.
// -dot_shape none for a nanocrystal) -dot_material InAs -dot_shape sphere -dot_radius 3.
// Every structure, model and -compare_* option of tbpeta applies (README); the runs use k = 0.
static const char help[] = "bench_solvers: every eigen-solver on one large sp3d5s*+SO passivated dot (stored H), capped, against the lecture's claims.\n"
                           "  -cells n,n,n              supercell (default 24,24,24: 110,592 atoms); e.g. 7,7,7 for a smoke run\n"
                           "  -compare_max_products N   cap per run (default 50000 here); all -compare_* options of tbpeta apply\n"
                           "  -bench_csv FILE           also write the table as CSV\n\n";

#include <petscmat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "tbpeta/ApplicationMain.hpp"
#include "tbpeta/SolverComparison.hpp"
#include "tbpeta/StoredHamiltonian.hpp"
#include "tbpeta/TightBindingSystem.hpp"

using namespace tbpeta;

namespace {

// The benchmark's system and cap unless given; the dot as a whole (-dot_shape none: a nanocrystal without dot).
PetscErrorCode SetDefaults() {
  const std::pair<const char *, const char *> defaults[] = {{"-params", "nemo3d"}, {"-material", "GaAs"}, {"-cells", "24,24,24"}, {"-periodic", "0,0,0"},
                                                            {"-compare_max_products", "50000"}};
  PetscBool set, material, shape;
  PetscFunctionBeginUser;
  for (const auto &[name, value] : defaults) {
    PetscCall(PetscOptionsHasName(nullptr, nullptr, name, &set));
    if (!set) PetscCall(PetscOptionsSetValue(nullptr, name, value));
  }
  PetscCall(PetscOptionsHasName(nullptr, nullptr, "-dot_material", &material));
  PetscCall(PetscOptionsHasName(nullptr, nullptr, "-dot_shape", &shape));
  if (!material && !shape) {
    PetscCall(PetscOptionsSetValue(nullptr, "-dot_material", "InAs"));
    PetscCall(PetscOptionsSetValue(nullptr, "-dot_shape", "sphere"));
    PetscCall(PetscOptionsHasName(nullptr, nullptr, "-dot_radius", &set));
    if (!set) PetscCall(PetscOptionsSetValue(nullptr, "-dot_radius", "3"));
  }
  PetscFunctionReturn(0);
}

// Median wall time of a few products y = Hx (max over ranks), for scale.
PetscErrorCode ProductSeconds(Mat H, double *seconds) {
  Vec x, y;
  MPI_Comm comm;
  std::vector<double> t;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatCreateVecs(H, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(H, x, y)); // warm-up
  for (int i = 0; i < 5; ++i) {
    PetscCallMPI(MPI_Barrier(comm));
    const double t0 = MPI_Wtime();
    PetscCall(MatMult(H, x, y));
    double dt = MPI_Wtime() - t0;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm));
    t.push_back(dt);
  }
  std::sort(t.begin(), t.end());
  *seconds = t[t.size() / 2];
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

const ComparisonRow *Row(const std::vector<ComparisonRow> &rows, CompareRun run) {
  for (const ComparisonRow &r : rows)
    if (r.run == CompareRunName(run)) return &r;
  return nullptr;
}

// One line "measured X (lecture: Y)" for the ratio of `run` to the Lanczos.
PetscErrorCode PrintClaim(MPI_Comm comm, const std::vector<ComparisonRow> &rows, CompareRun run, const char *lecture) {
  const ComparisonRow *r = Row(rows, run);
  PetscFunctionBeginUser;
  if (!r) PetscFunctionReturn(0);
  std::string measured = "not measured";
  for (const ComparisonRatio &q : RatiosToLanczos(rows)) {
    if (q.solver != r->solver) continue;
    char buf[160];
    const char *ge = q.lower_bound ? ">= " : "";
    if (std::isnan(q.products)) std::snprintf(buf, sizeof buf, "no products of H (LU solves), time %s%.2fx", ge, q.seconds);
    else std::snprintf(buf, sizeof buf, "products %s%.2fx, time %s%.2fx", ge, q.products, ge, q.seconds);
    measured = buf;
    if (q.lower_bound) measured += " (" + r->note.substr(0, r->note.find(';')) + ")";
  }
  PetscCall(PetscPrintf(comm, "  %-28s / lanczos: %-44s lecture: %s\n", r->solver.c_str(), measured.c_str(), lecture));
  PetscFunctionReturn(0);
}

PetscErrorCode PrintLectureAndTargets(MPI_Comm comm, const std::vector<ComparisonRow> &rows) {
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "\nmeasured ratios next to the lecture's claims:\n"));
  PetscCall(PrintClaim(comm, rows, CompareRun::folded_arpack, "\"about 10x\" (ARPACK on the folded operator against the NEMO 3-D Lanczos)"));
  PetscCall(PrintClaim(comm, rows, CompareRun::folded_ks, "\"slower\" (folded spectrum)"));
  PetscCall(PrintClaim(comm, rows, CompareRun::folded_lanczos, "\"slower\" (folded spectrum)"));
  PetscCall(PrintClaim(comm, rows, CompareRun::ks_harmonic, "-"));
  PetscCall(PrintClaim(comm, rows, CompareRun::sinvert, "-"));

  PetscCall(PetscPrintf(comm, "targets:\n"));
  const ComparisonRow *lz = Row(rows, CompareRun::lanczos), *ks = Row(rows, CompareRun::ks_harmonic);
  if (!lz || !lz->converged) {
    PetscCall(PetscPrintf(comm, "  no converged Lanczos run: the targets cannot be judged%s%s\n", lz ? " (" : "", lz ? (lz->note + ")").c_str() : ""));
    PetscFunctionReturn(0);
  }
  // Memory, judged on the vectors held (the allocations counted during the solve, in vectors of H's size); the
  // resident memory during the solve is shown too (below a few MB it is page-level noise).
  const ComparisonRow *fewest = nullptr;
  for (const ComparisonRow &r : rows)
    if (&r != lz && !r.skipped && r.vectors_held > 0 && (!fewest || r.vectors_held < fewest->vectors_held)) fewest = &r;
  const bool memory_met = lz->vectors_held > 0 && (!fewest || lz->vectors_held <= fewest->vectors_held);
  PetscCall(PetscPrintf(comm, "  the Lanczos needs the least memory: %" PetscInt_FMT " vectors held (for 3 + %" PetscInt_FMT " wanted), %.1f MB during the solve; fewest of the others: %s, %" PetscInt_FMT
                              " vectors, %.1f MB -> %s\n",
                        lz->vectors_held, lz->states, lz->solver_mb, fewest ? fewest->solver.c_str() : "-", fewest ? fewest->vectors_held : 0, fewest ? fewest->solver_mb : 0.0,
                        memory_met ? "met" : "NOT met"));
  if (ks)
    PetscCall(PetscPrintf(comm, "  the Lanczos makes no more products than Krylov-Schur with harmonic extraction: %" PetscInt_FMT " against %s%" PetscInt_FMT " -> %s\n", lz->products,
                          ks->converged ? "" : ">= ", ks->products, lz->products <= ks->products ? "met" : "NOT met"));
  const ComparisonRow *si = Row(rows, CompareRun::sinvert);
  if (si)
    PetscCall(PetscPrintf(comm, "  MUMPS shift-and-invert (lecture: 350 s and 2.8 GB at 1,728 atoms): %s\n",
                          si->skipped ? si->note.c_str() : (std::to_string((int)std::lround(si->seconds)) + " s, " + std::to_string((int)std::lround(si->peak_rss_mb)) + " MB peak per rank").c_str()));
  PetscFunctionReturn(0);
}

PetscErrorCode WriteCsv(MPI_Comm comm, const std::string &path, const std::vector<ComparisonRow> &rows) {
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    std::ofstream f(path);
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "-bench_csv: cannot write %s", path.c_str());
    f << "run,solver,states,requested,converged,reference,max_deviation_ev,max_residual,products,iterations,vectors_held,seconds,peak_rss_mb,solver_mb,center_ev,note\n";
    f.precision(10);
    for (const ComparisonRow &r : rows) {
      std::string note = r.note;
      std::replace(note.begin(), note.end(), '"', '\'');
      f << r.run << ",\"" << r.solver << "\"," << r.states << ',' << r.requested << ',' << r.converged << ',' << r.reference << ',' << r.max_deviation << ',' << r.max_residual << ','
        << r.products << ',' << r.iterations << ',' << r.vectors_held << ',' << r.seconds << ',' << r.peak_rss_mb << ',' << r.solver_mb << ',' << r.center << ",\"" << note << "\"\n";
    }
  }
  PetscCall(PetscPrintf(comm, "wrote %s\n", path.c_str()));
  PetscFunctionReturn(0);
}

PetscErrorCode Run(MPI_Comm comm, int *) {
  TightBindingSystem sys;
  Mat H;
  HamiltonianInfo info;
  double vbm, cbm, product;
  CompareOptions opts;
  char csv[PETSC_MAX_PATH_LEN] = "";
  PetscBool has_csv = PETSC_FALSE;
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(SetDefaults());
  PetscOptionsBegin(comm, nullptr, "bench_solvers", "tbpeta");
  PetscCall(PetscOptionsString("-bench_csv", "Also write the table as CSV", "bench_solvers", csv, csv, sizeof csv, &has_csv));
  PetscOptionsEnd();
  PetscCall(TightBindingSystemFromOptions(comm, true, &sys));
  for (int a = 0; a < 3; ++a) PetscCheck(!sys.cell.periodic[a] || sys.cell.k[a] == 0, comm, PETSC_ERR_USER_INPUT, "-k: bench_solvers runs at k = 0 (Kramers pairs)");
  PetscCall(BulkBandEdges(sys.model, 0, &vbm, &cbm));
  PetscCall(CompareOptionsFromOptions(comm, 0.5 * (vbm + cbm), &opts));
  const double t0 = MPI_Wtime();
  PetscCall(AssembleHamiltonian(comm, sys.structure, sys.model, sys.cell.k, MatrixFormat::aij, &H, &info));
  const double t_build = MPI_Wtime() - t0;
  PetscCall(ProductSeconds(H, &product));
  PetscCall(PetscPrintf(comm, "bench_solvers: %" PetscInt_FMT " atoms (%s dot, %d x %d x %d cells of %s, periodic %d,%d,%d), %s (%s), %" PetscInt_FMT " rows, %.0f non-zeros, %.0f MB of H, %d rank%s\n",
                        sys.structure.total, sys.nano_spec.dot_material.empty() ? "no" : sys.nano_spec.dot_material.c_str(), sys.cell.cells[0], sys.cell.cells[1], sys.cell.cells[2],
                        sys.model.materials[0].material.c_str(), sys.cell.periodic[0], sys.cell.periodic[1], sys.cell.periodic[2], sys.model.set.c_str(),
                        sys.model.spin_orbit ? "with spin-orbit" : "no spin-orbit", info.rows, info.nonzeros, info.bytes / 1048576.0, size, size > 1 ? "s" : ""));
  PetscCall(PetscPrintf(comm, "  H built in %.2f s; one product y = Hx %.2f ms (median of 5); host midgap %.4f eV\n", t_build, 1e3 * product, 0.5 * (vbm + cbm)));
  std::vector<ComparisonRow> rows;
  const std::vector<PetscInt> canonical = sys.structure.canonicalRows(info.block_size);
  PetscCall(CompareSolvers(H, canonical, sys.model.spin_orbit ? info.block_size : 0, opts, &rows));
  PetscCall(PetscPrintf(comm, "\n"));
  PetscCall(PrintComparison(comm, rows, opts.level_tol));
  PetscCall(PrintLectureAndTargets(comm, rows));
  if (has_csv) PetscCall(WriteCsv(comm, csv, rows));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "bench_solvers", Run); }
