#include "study/SolverComparison.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "operator/OperatorProperties.hpp"
#include "solvers/EigenSolve.hpp"
#include "solvers/SolverTraits.hpp"
#include "study/AllocationTracker.hpp"
#include "study/LevelComparison.hpp"
#include "study/SolveMemory.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

namespace {

// One run around `center`: its EPS, the solve with its memory measured, then the states that count.
PetscErrorCode RunOne(Mat H, const ComparisonRun &run, const CompareOptions &o, double center, double residual_limit,
                      ComparisonRow *row) {
  MPI_Comm comm;
  PetscInt n;
  OwnedEPS eps;
  EigenStates st;
  TbEPSTraits traits;
  MemoryMeter meter;
  const CompareQuestion q{o.nev_valence, o.nev_conduction, center, o.max_products};
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetSize(H, &n, nullptr));
  PetscCall(CreateRunSolver(comm, run, q, n, eps.out()));
  PetscCall(TbEPSGetTraits(eps, &traits));
  PetscCall(SolveEigenproblem(eps, H, SolverPolicy{}, &st, &meter));
  eps.reset(); // the run's vectors go now: the next run's memory is measured without them
  // Vectors that are no eigenvectors of H are not states; a run asked for the states nearest E keeps that many.
  std::vector<std::pair<double, double>> kept;
  PetscInt unresolved = 0;
  for (size_t i = 0; i < st.values.size(); ++i) {
    if (st.residuals[i] > residual_limit) ++unresolved;
    else kept.emplace_back(st.values[i], st.residuals[i]);
  }
  const PetscInt nev = o.nev_valence + o.nev_conduction;
  if (!traits.splits_at_centre && (PetscInt)kept.size() > nev) {
    std::stable_sort(kept.begin(), kept.end(), [&](const auto &a, const auto &b) {
      return std::fabs(a.first - center) < std::fabs(b.first - center);
    });
    kept.resize(nev);
    std::sort(kept.begin(), kept.end());
  }
  const std::string label = row->solver;
  static_cast<EigenStates &>(*row) =
      std::move(st); // the solve's record, with the states counted below (no vectors: the EPS is gone)
  if (!label.empty()) row->solver = label; // the run's name in the table; a run of the user's own: its description
  row->values.clear(), row->residuals.clear(), row->index.clear(), row->vectors = false;
  double worst = 0;
  for (const auto &[v, r] : kept) row->values.push_back(v), row->residuals.push_back(r), worst = std::max(worst, r);
  row->requested = nev, row->center = center, row->splits_at_centre = traits.splits_at_centre,
  row->solver_mb = meter.solver_mb;
  row->max_residual = kept.empty() ? std::numeric_limits<double>::quiet_NaN() : worst;
  row->converged = row->states() >= nev && row->complete;
  if (!row->converged)
    AddNote(&row->note, FormatText("not converged within %" PetscInt_FMT " products (%" PetscInt_FMT
                                   " of %" PetscInt_FMT " states)",
                                   o.max_products, row->states(), nev));
  if (unresolved)
    AddNote(&row->note,
            FormatText("%" PetscInt_FMT " vectors with residual > %.1e eV not counted", unresolved, residual_limit));
  row->run_note = row->note;
  PetscFunctionReturn(0);
}

// The centre of the runs after a converged run that split its states at the centre (nv below, nc above): the nv + nc
// states nearest the middle of its states are those states, as long as the next level outside is farther than the
// edge level from the centre. Off the exact middle (where the folded spectrum sees the two edge levels as one) by 1e-6
// of the half-width: far less than a level spacing, far more than the folded solvers' resolution.
double RecenteredCenter(const std::vector<double> &split_values) {
  const double lo = split_values.front(), hi = split_values.back();
  return 0.5 * (lo + hi) + 1e-6 * 0.5 * (hi - lo);
}

// When the levels are not balanced around E and the runs were not recentred, "nv below and nc above E" (a run that
// splits at the centre, the Lanczos) and "the nv + nc nearest E" (SLEPc, folded) are different states: says so.
PetscErrorCode HintWhenTheQuestionsDiffer(MPI_Comm comm, const std::vector<ComparisonRow> &rows,
                                          const CompareOptions &o) {
  PetscFunctionBeginUser;
  const auto split =
      std::find_if(rows.begin(), rows.end(), [](const ComparisonRow &r) { return r.splits_at_centre && r.converged; });
  if (split == rows.end()) PetscFunctionReturn(0);
  for (const ComparisonRow &r : rows) {
    if (r.splits_at_centre || !r.converged || r.center != o.gap_center) continue;
    const PetscInt below =
        (PetscInt)std::count_if(r.values.begin(), r.values.end(), [&](double v) { return v < o.gap_center; });
    if (below == o.nev_valence) continue;
    PetscCall(PetscPrintf(comm,
                          "compare: note: %s, asked for the %" PetscInt_FMT
                          " states nearest %.6f eV, found %" PetscInt_FMT " below it, %s %" PetscInt_FMT
                          " below and %" PetscInt_FMT
                          " above: they are compared on the levels both found (-compare_recenter 1 with the Lanczos "
                          "first asks both the same question)\n",
                          r.solver.c_str(), o.nev_valence + o.nev_conduction, o.gap_center, below,
                          split->solver.c_str(), o.nev_valence, o.nev_conduction));
    break;
  }
  PetscFunctionReturn(0);
}

// The row of one run: measured, or skipped (shift-and-invert needs H's entries and a size MUMPS can factor here).
PetscErrorCode RunOrSkip(Mat H, const ComparisonRun &run, const CompareOptions &o, double center, double residual_limit,
                         ComparisonRow *row) {
  PetscInt n;
  bool entries;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(H, &n, nullptr));
  PetscCall(OperatorHasEntries(H, &entries));
  row->run = run.name, row->solver = run.label, row->requested = o.nev_valence + o.nev_conduction;
  row->vectors_held = 0, row->peak_rss_mb = 0; // a skipped run held nothing
  if (run.needs_entries && !entries) {
    row->skipped = true, row->converged = false;
    row->note = row->run_note = "skipped: shift-and-invert factors H; it needs -hamiltonian aij or baij";
  } else if (run.needs_entries && n > o.sinvert_max_rows) {
    row->skipped = true, row->converged = false;
    row->note = row->run_note = FormatText("skipped: %" PetscInt_FMT " rows > -compare_sinvert_max_rows %" PetscInt_FMT
                                           ", too large for MUMPS here",
                                           n, o.sinvert_max_rows);
  } else PetscCall(RunOne(H, run, o, center, residual_limit, row));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode CompareOptionsFromOptions(MPI_Comm comm, const CompareOptions &defaults, CompareOptions *opts) {
  CompareOptions o = defaults;
  PetscReal gap = o.gap_center, tol = o.level_tol;
  char *names[16] = {};
  PetscInt nnames = 16;
  PetscBool names_set = PETSC_FALSE;
  std::string all;
  for (const ComparisonRun &r : ComparisonRuns()) all += (all.empty() ? "" : ",") + r.name;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Solver comparison (-compare)", nullptr);
  PetscCall(PetscOptionsInt("-compare_nev_valence", "States (with multiplicity) below the gap centre", "CompareSolvers",
                            o.nev_valence, &o.nev_valence, nullptr));
  PetscCall(PetscOptionsInt("-compare_nev_conduction", "States (with multiplicity) above the gap centre",
                            "CompareSolvers", o.nev_conduction, &o.nev_conduction, nullptr));
  PetscCall(PetscOptionsReal("-compare_gap_center",
                             "Gap centre E (eV): Lanczos gap centre, SLEPc target, folded shift (default: host midgap)",
                             "CompareSolvers", gap, &gap, nullptr));
  PetscCall(PetscOptionsInt("-compare_max_products", "Cap on the products of H per run", "CompareSolvers",
                            o.max_products, &o.max_products, nullptr));
  PetscCall(PetscOptionsInt("-compare_sinvert_max_rows",
                            "Largest H (rows) for the shift-and-invert run with MUMPS (0: never)", "CompareSolvers",
                            o.sinvert_max_rows, &o.sinvert_max_rows, nullptr));
  PetscCall(PetscOptionsBool("-compare_recenter",
                             "Runs after the Lanczos look around the middle of its states (same question for all)",
                             "CompareSolvers", o.recenter, &o.recenter, nullptr));
  PetscCall(PetscOptionsReal("-compare_level_tol", "States closer than this (eV) form one level", "CompareSolvers", tol,
                             &tol, nullptr));
  PetscCall(PetscOptionsStringArray(
      "-compare_runs", ("Runs, in order (default " + all + "; a name of your own with -<name>_eps_type)").c_str(),
      "CompareSolvers", names, &nnames, &names_set));
  PetscOptionsEnd();
  if (!names_set) nnames = 0;
  std::vector<std::string> given(names, names + nnames);
  for (PetscInt i = 0; i < nnames; ++i) PetscCall(PetscFree(names[i]));
  PetscCheck(o.nev_valence >= 0, comm, PETSC_ERR_USER_INPUT, "-compare_nev_valence must be >= 0, got %" PetscInt_FMT,
             o.nev_valence);
  PetscCheck(o.nev_conduction >= 0, comm, PETSC_ERR_USER_INPUT,
             "-compare_nev_conduction must be >= 0, got %" PetscInt_FMT, o.nev_conduction);
  PetscCheck(o.nev_valence + o.nev_conduction > 0, comm, PETSC_ERR_USER_INPUT,
             "-compare_nev_valence and -compare_nev_conduction are both 0: no state wanted");
  PetscCheck(std::isfinite((double)gap), comm, PETSC_ERR_USER_INPUT,
             "-compare_gap_center must be a finite energy in eV");
  PetscCheck(o.max_products >= 1, comm, PETSC_ERR_USER_INPUT, "-compare_max_products must be >= 1, got %" PetscInt_FMT,
             o.max_products);
  PetscCheck(o.sinvert_max_rows >= 0, comm, PETSC_ERR_USER_INPUT,
             "-compare_sinvert_max_rows must be >= 0, got %" PetscInt_FMT, o.sinvert_max_rows);
  PetscCheck(std::isfinite((double)tol) && tol > 0, comm, PETSC_ERR_USER_INPUT,
             "-compare_level_tol must be a positive energy in eV, got %g", (double)tol);
  PetscCheck(!names_set || nnames > 0, comm, PETSC_ERR_USER_INPUT, "-compare_runs needs at least one of %s",
             all.c_str());
  if (names_set) o.runs.clear();
  o.runs_given = names_set;
  for (const std::string &g : given) {
    ComparisonRun run;
    bool found;
    PetscCall(FindComparisonRun(g, &run, &found));
    PetscCheck(found, comm, PETSC_ERR_USER_INPUT,
               "-compare_runs: %s is not a run (%s), nor one of your own (give -%s_eps_type for that)", g.c_str(),
               all.c_str(), g.c_str());
    PetscCheck(std::none_of(o.runs.begin(), o.runs.end(), [&](const ComparisonRun &x) { return x.name == g; }), comm,
               PETSC_ERR_USER_INPUT, "-compare_runs: %s is given twice", g.c_str());
    o.runs.push_back(run);
  }
  if (o.runs.empty()) o.runs = ComparisonRuns();
  o.gap_center = gap, o.level_tol = tol;
  *opts = o;
  PetscFunctionReturn(0);
}

PetscErrorCode CompareSolvers(Mat H, const CompareOptions &opts, std::vector<ComparisonRow> *rows,
                              std::span<const ComparisonRow> earlier) {
  MPI_Comm comm;
  PetscInt n;
  PetscReal bound;
  const OperatorProperties *props;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetSize(H, &n, nullptr));
  const PetscInt nev = opts.nev_valence + opts.nev_conduction;
  PetscCheck(nev <= n, comm, PETSC_ERR_USER_INPUT,
             "-compare_nev_valence + -compare_nev_conduction: %" PetscInt_FMT
             " states wanted, but H has only %" PetscInt_FMT " rows",
             nev, n);
  PetscCall(MatNorm(H, NORM_INFINITY, &bound));
  PetscCall(OperatorGetProperties(H, &props));
  const double residual_limit = kResidualLimit * (bound + std::fabs(opts.gap_center));
  PetscCall(PetscPrintf(comm,
                        "compare: %" PetscInt_FMT " valence + %" PetscInt_FMT
                        " conduction states around %.6f eV, %zu runs, at most %" PetscInt_FMT " products of H each\n",
                        opts.nev_valence, opts.nev_conduction, opts.gap_center, opts.runs.size(), opts.max_products));
  rows->assign(earlier.begin(), earlier.end());
  double center = opts.gap_center;
  for (const ComparisonRow &row : earlier)
    if (row.splits_at_centre && opts.recenter && row.converged && !row.values.empty()) {
      center = RecenteredCenter(row.values);
      PetscCall(PetscPrintf(comm,
                            "compare: %zu rows measured before; the new runs look around %.6f eV, the middle of the "
                            "states of %s (-compare_recenter)\n",
                            earlier.size(), center, row.solver.c_str()));
    }
  PetscCall(StartAllocationTracking()); // the vectors each run holds are measured
  for (size_t i = 0; i < opts.runs.size(); ++i) {
    ComparisonRow row;
    PetscCall(RunOrSkip(H, opts.runs[i], opts, center, residual_limit, &row));
    PetscCall(PetscPrintf(comm,
                          "compare [%zu/%zu] %s: %" PetscInt_FMT " of %" PetscInt_FMT " states, %" PetscInt_FMT
                          " products, %.2f s%s%s\n",
                          i + 1, opts.runs.size(), row.solver.c_str(), row.states(), nev, row.products, row.seconds,
                          row.note.empty() ? "" : "; ", row.note.c_str()));
    if (row.splits_at_centre && opts.recenter && row.converged && !row.values.empty()) {
      center = RecenteredCenter(row.values);
      PetscCall(PetscPrintf(comm,
                            "compare: the runs after it look around %.6f eV, the middle of its states [%.6f, %.6f] eV "
                            "(-compare_recenter)\n",
                            center, row.values.front(), row.values.back()));
    }
    rows->push_back(std::move(row));
  }
  PetscCall(StopAllocationTracking());
  CompareWithReference(*rows, opts.level_tol, props && props->kramers_block > 0 ? 2 : 1);
  PetscCall(HintWhenTheQuestionsDiffer(comm, *rows, opts));
  PetscFunctionReturn(0);
}

PetscErrorCode EstimateComparisonVectors(MPI_Comm comm, const CompareOptions &opts, const OperatorProperties &planned,
                                         PetscInt *vectors) {
  const CompareQuestion q{opts.nev_valence, opts.nev_conduction, opts.gap_center, opts.max_products};
  PetscFunctionBeginUser;
  *vectors = 0;
  for (const ComparisonRun &run : opts.runs) {
    OwnedEPS eps;
    PetscInt v;
    PetscCall(CreateRunSolver(comm, run, q, planned.rows, eps.out()));
    PetscCall(EstimateVectorsHeld(eps, planned, &v));
    *vectors = std::max(*vectors, v);
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
