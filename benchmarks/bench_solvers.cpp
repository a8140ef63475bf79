// bench_solvers: every eigen-solver of tbpeta (-compare) on one large sp3d5s*+SO passivated dot with the stored
// H: products, time and peak memory to converge 4 + 4 states, each run capped, and the measured ratios next to the
// lecture's claims (ARPACK on the folded operator "about 10x" the NEMO 3-D Lanczos; the folded spectrum "slower")
// and the targets (the Lanczos needs the least memory, 3 vectors + the wanted ones, and no more products than
// Krylov-Schur with harmonic extraction). A printed benchmark, not a test.
//
//   bench_solvers [-cells n,n,n] [-dot_radius R] [-compare_max_products N] [-compare_runs ...] [its own options:
//                 -help lists them with their defaults]
// The runs can be split over jobs (a batch queue's time limit; a shared machine): each job runs some of them with
// -compare_runs and writes its rows with -bench_csv; a later job reads them back with -bench_rows (same structure,
// question and rank count, else refused) and prints the table, ratios and targets over all rows.
// Defaults, each replaced by the option when given: -params nemo3d -material GaAs -cells 24,24,24 (110,592 atoms,
// 2,211,840 rows) -periodic 0,0,0 -compare_max_products 50000, and unless -dot_material or -dot_shape is given (e.g.
// -dot_shape none for a nanocrystal) -dot_material InAs -dot_shape sphere -dot_radius 3.
// Every structure, model, -hamiltonian and -compare_* option of tbpeta applies (README); the runs use k = 0.
static const char help[] =
    "bench_solvers: every eigen-solver on one large sp3d5s*+SO passivated dot (stored H), capped, against the "
    "lecture's claims.\n"
    "  -cells n,n,n              supercell (default 24,24,24: 110,592 atoms); e.g. 7,7,7 for a smoke run\n"
    "  -compare_max_products N   cap per run (default 50000 here); all -compare_* options of tbpeta apply\n"
    "Run with -help for every option and its default.\n\n";

#include <petscmat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "BenchOptions.hpp"
#include "SystemProbes.hpp"
#include "application/ApplicationMain.hpp"
#include "fields/SystemFields.hpp"
#include "bulk/CellSpectrum.hpp"
#include "model/TightBindingSystem.hpp"
#include "operator/Hamiltonian.hpp"
#include "operator/OperatorProperties.hpp"
#include "strain/SystemRelaxation.hpp"
#include "study/ComparisonReport.hpp"
#include "study/SolverComparison.hpp"
#include "support/CsvTable.hpp"
#include "support/OptionLists.hpp"
#include "support/TextFile.hpp"
#include "support/PetscHandle.hpp"

using namespace tbpeta;

namespace {

// The benchmark's system and cap unless given: the 110,592-atom dot (an InAs sphere of radius 3 nm in a passivated
// GaAs box of 24^3 cells; -dot_shape none for a nanocrystal), 50,000 products per run.
SystemSpec BenchmarkSystem() {
  SystemSpec s;
  s.model.set = "nemo3d", s.model.host = "GaAs";
  s.cell.cells = {24, 24, 24}, s.cell.periodic = {false, false, false};
  s.nano.dot.material = "InAs", s.nano.dot.shape = "sphere";
  s.nano.dot.size.set("radius", 3);
  return s;
}

// Median wall time of a few products y = Hx (max over ranks), for scale.
PetscErrorCode ProductSeconds(Mat H, double *seconds) {
  OwnedVec x, y;
  MPI_Comm comm;
  std::vector<double> t;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatCreateVecs(H, x.out(), y.out()));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(H, x, y)); // warm-up
  for (int i = 0; i < 5; ++i) {
    double dt;
    PetscCall(bench::TimeOnRanks(
        comm, [&] { return MatMult(H, x, y); }, &dt));
    t.push_back(dt);
  }
  *seconds = bench::Median(t);
  PetscFunctionReturn(0);
}

const ComparisonRow *Row(const std::vector<ComparisonRow> &rows, const char *run) {
  for (const ComparisonRow &r : rows)
    if (r.run == run) return &r;
  return nullptr;
}

// One line "measured X (lecture: Y)" for the ratio of `run` to the Lanczos.
PetscErrorCode PrintClaim(MPI_Comm comm, const std::vector<ComparisonRow> &rows, const char *run, const char *lecture) {
  const ComparisonRow *r = Row(rows, run);
  PetscFunctionBeginUser;
  if (!r) PetscFunctionReturn(0);
  std::string measured = "not measured";
  for (const ComparisonRatio &q : RatiosToLanczos(rows)) {
    if (q.solver != r->solver) continue;
    char buf[160];
    const char *ge = q.lower_bound ? ">= " : "";
    if (std::isnan(q.products))
      std::snprintf(buf, sizeof buf, "no products of H (LU solves), time %s%.2fx", ge, q.seconds);
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
  PetscCall(PrintClaim(comm, rows, "folded_arpack",
                       "\"about 10x\" (ARPACK on the folded operator against the NEMO 3-D Lanczos)"));
  PetscCall(PrintClaim(comm, rows, "folded_ks", "\"slower\" (folded spectrum)"));
  PetscCall(PrintClaim(comm, rows, "folded_lanczos", "\"slower\" (folded spectrum)"));
  PetscCall(PrintClaim(comm, rows, "ks_harmonic", "-"));
  PetscCall(PrintClaim(comm, rows, "sinvert", "-"));

  PetscCall(PetscPrintf(comm, "targets:\n"));
  const ComparisonRow *lz = Row(rows, "lanczos"), *ks = Row(rows, "ks_harmonic");
  if (!lz || !lz->converged) {
    PetscCall(PetscPrintf(comm, "  no converged Lanczos run: the targets cannot be judged%s%s\n", lz ? " (" : "",
                          lz ? (lz->note + ")").c_str() : ""));
    PetscFunctionReturn(0);
  }
  // Memory, judged on the memory each solve added (its peak during the solve minus the resident size before it), among
  // the runs that were measured; the vectors held (allocations counted during the solve) are shown beside it. Below
  // 1 MB the page-level measurement is noise, and with no other run measured there is nothing to compare with.
  const ComparisonRow *least = nullptr;
  for (const ComparisonRow &r : rows)
    if (&r != lz && !r.skipped && r.solver_mb > 0 && (!least || r.solver_mb < least->solver_mb)) least = &r;
  std::string verdict = "met";
  if (!least) verdict = "NOT measured (no other run was measured)";
  else if (lz->solver_mb < 1) verdict = "NOT measured (the Lanczos added less than 1 MB: noise)";
  else if (lz->solver_mb > least->solver_mb) verdict = "NOT met";
  PetscCall(PetscPrintf(comm,
                        "  the Lanczos needs the least memory: %.1f MB during the solve (%" PetscInt_FMT
                        " vectors held: 3 + %" PetscInt_FMT
                        " states + the second pass's window); least of the others: %s, %.1f MB (%" PetscInt_FMT
                        " vectors) -> %s\n",
                        lz->solver_mb, lz->vectors_held, lz->states(), least ? least->solver.c_str() : "-",
                        least ? least->solver_mb : 0.0, least ? least->vectors_held : 0, verdict.c_str()));
  if (ks)
    PetscCall(PetscPrintf(
        comm,
        "  the Lanczos makes no more products than Krylov-Schur with harmonic extraction: %" PetscInt_FMT
        " against %s%" PetscInt_FMT " -> %s\n",
        lz->products, ks->converged ? "" : ">= ", ks->products, lz->products <= ks->products ? "met" : "NOT met"));
  const ComparisonRow *si = Row(rows, "sinvert");
  if (si)
    PetscCall(PetscPrintf(comm, "  MUMPS shift-and-invert (lecture: 350 s and 2.8 GB at 1,728 atoms): %s\n",
                          si->skipped ? si->note.c_str()
                                      : (std::to_string((int)std::lround(si->seconds)) + " s, " +
                                         std::to_string((int)std::lround(si->peak_rss_mb)) + " MB peak per rank")
                                            .c_str()));
  PetscFunctionReturn(0);
}

constexpr const char *kCsvHeader = "run,solver,states,requested,converged,reference,max_deviation_ev,max_residual,"
                                   "products,iterations,vectors_held,seconds,peak_rss_mb,"
                                   "solver_mb,center_ev,note,skipped,run_note,values_ev,residuals,splits_at_centre";

std::string Quoted(std::string text) {
  std::replace(text.begin(), text.end(), '"', '\'');
  return "\"" + text + "\"";
}

std::string NumberList(const std::vector<double> &v) {
  std::ostringstream o;
  o.precision(17);
  for (size_t i = 0; i < v.size(); ++i) o << (i ? " " : "") << v[i];
  return o.str();
}

// The CSV: a first line "# <signature>" (structure, question, ranks), the header, one line per row. The states are
// written to full precision, so that a later job (-bench_rows) compares with them as if it had run them.
PetscErrorCode WriteCsv(MPI_Comm comm, const std::string &path, const std::string &signature,
                        const std::vector<ComparisonRow> &rows) {
  std::ostringstream f;
  PetscFunctionBeginUser;
  f << "# " << signature << '\n' << kCsvHeader << '\n';
  f.precision(10);
  for (const ComparisonRow &r : rows)
    f << r.run << ',' << Quoted(r.solver) << ',' << r.states() << ',' << r.requested << ',' << r.converged << ','
      << r.reference << ',' << r.max_deviation << ',' << r.max_residual << ',' << r.products << ',' << r.iterations
      << ',' << r.vectors_held << ',' << r.seconds << ',' << r.peak_rss_mb << ',' << r.solver_mb << ','
      << NumberList({r.center}) << ',' << Quoted(r.note) << ',' << r.skipped << ',' << Quoted(r.run_note) << ','
      << NumberList(r.values) << ',' << NumberList(r.residuals) << ',' << r.splits_at_centre << '\n';
  PetscCall(WriteTextFile(comm, path, f.str(), "-bench_csv"));
  PetscCall(PetscPrintf(comm, "wrote %s\n", path.c_str()));
  PetscFunctionReturn(0);
}

// strtod, unlike operator>>, reads "nan" (a row without deviation or residual).
bool ParseNumber(const std::string &text, double *x) {
  char *end = nullptr;
  *x = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0';
}

bool ParseNumbers(const std::string &text, std::vector<double> *v) {
  v->clear();
  const char *p = text.c_str();
  for (;;) {
    while (*p == ' ') ++p;
    if (!*p) return true;
    char *end = nullptr;
    const double x = std::strtod(p, &end);
    if (end == p) return false;
    v->push_back(x), p = end;
  }
}

// One row of the CSV, its fields found by column name; false when a number does not parse.
bool ParseRow(const CsvTable &t, size_t i, ComparisonRow *r) {
  auto field = [&](const char *name) -> const std::string & { return t.at(i, t.column(name)); };
  double x[15];
  const char *numbers[] = {"states",       "requested", "converged",  "reference",    "max_deviation_ev",
                           "max_residual", "products",  "iterations", "vectors_held", "seconds",
                           "peak_rss_mb",  "solver_mb", "center_ev",  "skipped",      "splits_at_centre"};
  for (int k = 0; k < 15; ++k)
    if (!ParseNumber(field(numbers[k]), &x[k])) return false;
  if (!ParseNumbers(field("values_ev"), &r->values) || !ParseNumbers(field("residuals"), &r->residuals)) return false;
  r->run = field("run"), r->solver = field("solver"), r->note = field("note"), r->run_note = field("run_note");
  if ((size_t)x[0] != r->values.size()) return false; // the states counted are its values
  r->requested = (PetscInt)x[1], r->converged = x[2] != 0, r->reference = x[3] != 0, r->max_deviation = x[4],
  r->max_residual = x[5];
  r->products = (PetscInt)x[6], r->iterations = (PetscInt)x[7], r->vectors_held = (PetscInt)x[8], r->seconds = x[9],
  r->peak_rss_mb = x[10], r->solver_mb = x[11], r->center = x[12];
  r->skipped = x[13] != 0, r->splits_at_centre = x[14] != 0;
  return true;
}

// Rows written by -bench_csv, refused (one line) unless measured on `signature`. The text is read on rank 0 and
// broadcast, so every rank parses the same and fails the same; the columns are found by name.
PetscErrorCode ReadCsv(MPI_Comm comm, const std::string &path, const std::string &signature,
                       std::vector<ComparisonRow> *rows) {
  PetscMPIInt rank;
  std::string text, error;
  CsvTable t;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  long size = -1;
  if (rank == 0) {
    std::ifstream f(path);
    if (f) {
      std::ostringstream o;
      o << f.rdbuf();
      text = o.str(), size = (long)text.size();
    }
  }
  PetscCallMPI(MPI_Bcast(&size, 1, MPI_LONG, 0, comm));
  PetscCheck(size >= 0, comm, PETSC_ERR_FILE_OPEN, "-bench_rows: cannot read %s", path.c_str());
  text.resize((size_t)size);
  PetscCallMPI(MPI_Bcast(text.data(), (int)size, MPI_CHAR, 0, comm));
  PetscCheck(CsvTable::Parse(text, &t, &error) && t.comments().size() == 1, comm, PETSC_ERR_FILE_UNEXPECTED,
             "-bench_rows: %s is not a CSV written by bench_solvers -bench_csv", path.c_str());
  PetscCheck(t.comments()[0] == signature, comm, PETSC_ERR_USER_INPUT,
             "-bench_rows: %s was measured on \"%s\", this run is \"%s\"", path.c_str(), t.comments()[0].c_str(),
             signature.c_str());
  for (const std::string &name : SplitList(kCsvHeader))
    PetscCheck(t.column(name) >= 0, comm, PETSC_ERR_FILE_UNEXPECTED,
               "-bench_rows: %s has no column %s (bench_solvers -bench_csv writes it)", path.c_str(), name.c_str());
  for (size_t i = 0; i < t.rows(); ++i) {
    ComparisonRow r;
    PetscCheck(ParseRow(t, i, &r), comm, PETSC_ERR_FILE_UNEXPECTED,
               "-bench_rows: %s row %zu is not a row of bench_solvers -bench_csv", path.c_str(), i + 1);
    rows->push_back(std::move(r));
  }
  PetscFunctionReturn(0);
}

struct BenchSettings {
  TightBindingSystem sys;
  HamiltonianOptions hopts;
  CompareOptions opts;
  std::string csv;
  std::vector<std::string> earlier_files;
  PetscBool earlier_given = PETSC_FALSE;
  double vbm = 0, cbm = 0;
};

bench::BenchOptions Options(BenchSettings *b) {
  return {bench::CsvFileOption(&b->csv, "Also write the table as CSV (every row, with its states), for -bench_rows"),
          {"-bench_rows", "Rows measured before by -bench_csv on the same structure and ranks", "", &b->earlier_files,
           &b->earlier_given}};
}

PetscErrorCode ReadSettings(MPI_Comm comm, BenchSettings *b) {
  SystemSpec spec;
  CompareOptions defaults;
  PetscFunctionBeginUser;
  PetscCall(bench::ReadBenchOptions(comm, "bench_solvers", Options(b)));
  PetscCheck(!b->earlier_given || !b->earlier_files.empty(), comm, PETSC_ERR_USER_INPUT,
             "-bench_rows needs one or more CSV files written by -bench_csv");
  PetscCall(SystemSpecFromOptions(comm, BenchmarkSystem(), &spec));
  for (int a = 0; a < 3; ++a)
    PetscCheck(!spec.cell.periodic[a] || spec.cell.k[a] == 0, comm, PETSC_ERR_USER_INPUT,
               "-k: bench_solvers runs at k = 0 (Kramers pairs)");
  PetscCall(CreateTightBindingSystem(comm, spec, &b->sys));
  PetscCall(BulkBandEdges(b->sys.model, 0, &b->vbm, &b->cbm));
  defaults.gap_center = 0.5 * (b->vbm + b->cbm), defaults.max_products = 50000;
  PetscCall(CompareOptionsFromOptions(comm, defaults, &b->opts));
  PetscCall(HamiltonianOptionsFromOptions(comm, &b->hopts));
  PetscFunctionReturn(0);
}

// What rows of another job must share with this one: the operator (its Frobenius norm tells the dots apart), the
// question and the rank count (times on other ranks are another experiment). *description: the first part.
PetscErrorCode Signature(MPI_Comm comm, const BenchSettings &b, Mat H, std::string *description,
                         std::string *signature) {
  PetscMPIInt size;
  PetscReal frobenius;
  const OperatorProperties *props;
  char text[640], question[256], ranks[32], bytes[32];
  const TightBindingSystem &sys = b.sys;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MatNorm(H, NORM_FROBENIUS, &frobenius));
  double op_bytes;
  PetscCall(OperatorGetProperties(H, &props));
  PetscCall(OperatorTotalBytes(H, &op_bytes));
  const auto &c = sys.spec.cell;
  const std::string strain = StrainDescription(sys);
  std::snprintf(
      text, sizeof text,
      "%" PetscInt_FMT " atoms (%s dot, %d x %d x %d cells of %s, periodic %d,%d,%d, %s), %s (%s), %" PetscInt_FMT
      " rows, H %s",
      sys.structure.total(), sys.spec.nano.dot.material.empty() ? "no" : sys.spec.nano.dot.material.c_str(), c.cells[0],
      c.cells[1], c.cells[2], sys.model.materials[0].material.c_str(), c.periodic[0], c.periodic[1], c.periodic[2],
      strain.c_str(), sys.model.set.c_str(), sys.model.spin_orbit ? "with spin-orbit" : "no spin-orbit", props->rows,
      HamiltonianDescription(b.hopts).c_str());
  std::snprintf(ranks, sizeof ranks, ", %d rank%s", size, size > 1 ? "s" : "");
  std::snprintf(bytes, sizeof bytes, ", %.0f MB", op_bytes / 1048576.0);
  std::snprintf(question, sizeof question,
                "; ||H||_F %.10e eV; %" PetscInt_FMT " valence + %" PetscInt_FMT " conduction states around %.6f eV",
                (double)frobenius, b.opts.nev_valence, b.opts.nev_conduction, b.opts.gap_center);
  // The operator's bytes describe the run but do not make it another one: rows measured before a change of its
  // bookkeeping still compare.
  *description = std::string(text) + bytes + ranks, *signature = std::string(text) + ranks + question;
  PetscFunctionReturn(0);
}

// The rows of earlier jobs, and the runs still to measure: without -compare_runs the runs not measured yet; with it,
// a run measured before is refused.
PetscErrorCode EarlierRows(MPI_Comm comm, BenchSettings *b, const std::string &signature,
                           std::vector<ComparisonRow> *earlier) {
  std::vector<ComparisonRun> runs;
  PetscFunctionBeginUser;
  for (const std::string &file : b->earlier_files) {
    const size_t before = earlier->size();
    PetscCall(ReadCsv(comm, file, signature, earlier));
    PetscCall(PetscPrintf(comm, "  %zu rows from %s\n", earlier->size() - before, file.c_str()));
  }
  for (const ComparisonRun &run : b->opts.runs) {
    const bool measured =
        std::any_of(earlier->begin(), earlier->end(), [&](const ComparisonRow &r) { return r.run == run.name; });
    PetscCheck(!measured || !b->opts.runs_given, comm, PETSC_ERR_USER_INPUT,
               "-compare_runs: %s was measured already (-bench_rows); leave it out", run.name.c_str());
    if (!measured) runs.push_back(run);
  }
  for (size_t i = 0; i < earlier->size(); ++i)
    for (size_t j = 0; j < i; ++j)
      PetscCheck((*earlier)[i].run != (*earlier)[j].run, comm, PETSC_ERR_USER_INPUT,
                 "-bench_rows: the run %s is in the files twice", (*earlier)[i].run.c_str());
  b->opts.runs = runs;
  PetscFunctionReturn(0);
}

PetscErrorCode Run(MPI_Comm comm, int *) {
  BenchSettings b;
  OwnedMat H;
  double product;
  std::string description, signature;
  std::vector<ComparisonRow> earlier, rows;
  SystemStrain strain;
  SystemFields fields;
  const RelaxationReport &relaxation = strain.report;
  PetscFunctionBeginUser;
  PetscCall(ReadSettings(comm, &b));
  if (HelpRequested()) PetscCall(ListRelaxationOptions(comm));
  if (HelpRequested()) PetscCall(ListFieldOptions(comm));
  if (HelpRequested()) PetscFunctionReturn(0);
  PetscCall(BuildStructure(comm, &b.sys));
  PetscCall(RelaxSystem(comm, &b.sys, &strain));
  PetscCall(ComputeSystemFields(comm, &b.sys, &strain, &fields)); // -piezo, -efield: the potential H carries
  if (relaxation.relaxed)
    PetscCall(PetscPrintf(
        comm, "bench_solvers: relaxed (SNES %s) in %" PetscInt_FMT " iterations, %.2f s, largest force %.2e eV/nm\n",
        relaxation.snes_type.c_str(), relaxation.iterations, relaxation.seconds, relaxation.max_force));
  const double t0 = MPI_Wtime();
  PetscCall(CreateHamiltonian(comm, b.sys.structure, b.sys.model, b.sys.spec.cell.k, b.hopts, H.out()));
  const double t_build = MPI_Wtime() - t0;
  PetscCall(ProductSeconds(H, &product));
  PetscCall(Signature(comm, b, H, &description, &signature));
  PetscCall(PetscPrintf(comm, "bench_solvers: %s\n", description.c_str()));
  PetscCall(PetscPrintf(comm, "  H built in %.2f s; one product y = Hx %.2f ms (median of 5); host midgap %.4f eV\n",
                        t_build, 1e3 * product, 0.5 * (b.vbm + b.cbm)));
  PetscCall(EarlierRows(comm, &b, signature, &earlier));
  PetscCall(CompareSolvers(H, b.opts, &rows, earlier));
  PetscCall(PetscPrintf(comm, "\n"));
  PetscCall(PrintComparison(comm, rows, b.opts.level_tol));
  PetscCall(PrintLectureAndTargets(comm, rows));
  if (!b.csv.empty()) PetscCall(WriteCsv(comm, b.csv, signature, rows));
  H.reset();
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "bench_solvers", Run); }
