#include "study/SolverComparison.hpp"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "solvers/EigenSolver.hpp"
#include "solvers/FoldedSpectrum.hpp"
#include "operator/Hamiltonian.hpp"
#include "support/ResidentMemory.hpp"
#include "solvers/SlepcSolver.hpp"

namespace tbpeta {

namespace {

constexpr CompareRun kAllRuns[] = {CompareRun::lanczos, CompareRun::ks_harmonic, CompareRun::sinvert, CompareRun::folded_ks, CompareRun::folded_arpack, CompareRun::folded_lanczos};

// The user's tuning options that a run of each family sees (SolverComparison.hpp); everything else is the run's own.
constexpr const char *kEpsTuning[] = {"eps_tol", "eps_ncv", "eps_conv_abs", "eps_conv_rel", "eps_conv_norm", "eps_monitor", "eps_monitor_all", "eps_monitor_conv"};
// (Not -lanczos_vectors: the residuals need the vectors; not -lanczos_checkpoint: two runs would share its file.)
constexpr const char *kLanczosTuning[] = {"lanczos_tol", "lanczos_check_every", "lanczos_seed", "lanczos_monitor", "lanczos_multiplicity_passes"};

std::string Format(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

void AddNote(std::string *note, const std::string &text) {
  if (!text.empty()) *note += (note->empty() ? "" : "; ") + text;
}

SolverKind KindOf(CompareRun run) {
  switch (run) {
  case CompareRun::lanczos: return SolverKind::lanczos;
  case CompareRun::ks_harmonic:
  case CompareRun::sinvert: return SolverKind::slepc;
  default: return SolverKind::folded;
  }
}

PetscErrorCode Set(PetscOptions db, const std::string &name, const std::string &value = "") {
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(db, name.c_str(), value.empty() ? nullptr : value.c_str()));
  PetscFunctionReturn(0);
}

// Copies the user's values of -<prefix><name> into db (and marks them used).
PetscErrorCode CopyUserOptions(PetscOptions db, const std::string &prefix, std::span<const char *const> names) {
  PetscFunctionBeginUser;
  for (const char *name : names) {
    const std::string key = "-" + prefix + name;
    const char *value = nullptr;
    PetscBool set = PETSC_FALSE;
    PetscCall(PetscOptionsFindPair(nullptr, nullptr, key.c_str(), &value, &set));
    if (set) PetscCall(Set(db, key, value ? value : ""));
  }
  PetscFunctionReturn(0);
}

// The EPS settings of a SLEPc run with options prefix `prefix` on an operator of n rows, at most m applications of
// it: ncv is the user's or SLEPc's default made explicit, because the restart limit is computed from it.
PetscErrorCode SetEps(PetscOptions db, const std::string &prefix, bool arpack, PetscInt n, PetscInt nev, PetscInt m) {
  PetscInt ncv;
  PetscBool set;
  PetscFunctionBeginUser;
  PetscCall(CopyUserOptions(db, prefix, kEpsTuning));
  PetscCall(PetscOptionsGetInt(db, nullptr, ("-" + prefix + "eps_ncv").c_str(), &ncv, &set));
  if (!set) ncv = std::min(n, SlepcDefaultBasis(nev, arpack));
  // Krylov-Schur: ncv applications, then at most ceil(ncv/2) per restart (half the basis is kept); ARPACK: ncv + 1,
  // then at most ncv - nev per restart.
  const PetscInt restarts = arpack ? 1 + std::max<PetscInt>(0, m - ncv - 1) / std::max<PetscInt>(1, ncv - nev) : 1 + std::max<PetscInt>(0, m - ncv) / ((ncv + 1) / 2);
  PetscCall(Set(db, "-" + prefix + "eps_type", arpack ? "arpack" : "krylovschur"));
  PetscCall(Set(db, "-" + prefix + "eps_ncv", std::to_string(ncv)));
  PetscCall(Set(db, "-" + prefix + "eps_max_it", std::to_string(restarts)));
  PetscFunctionReturn(0);
}

// The options database of one run (see SolverComparison.hpp).
PetscErrorCode RunDatabase(CompareRun run, const CompareOptions &o, PetscInt n, PetscOptions *out) {
  PetscOptions db;
  const PetscInt nev = o.nev_valence + o.nev_conduction, cap = o.max_products, folded_cap = std::max<PetscInt>(1, cap / 2); // F: two products of H
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsCreate(&db));
  switch (run) {
  case CompareRun::lanczos:
    PetscCall(CopyUserOptions(db, "", kLanczosTuning));
    PetscCall(Set(db, "-lanczos_nev_valence", std::to_string(o.nev_valence)));
    PetscCall(Set(db, "-lanczos_nev_conduction", std::to_string(o.nev_conduction)));
    PetscCall(Set(db, "-lanczos_max_steps", std::to_string(cap)));
    break;
  case CompareRun::ks_harmonic:
  case CompareRun::sinvert:
    PetscCall(SetEps(db, "", false, n, nev, cap));
    PetscCall(Set(db, "-eps_nev", std::to_string(nev)));
    if (run == CompareRun::ks_harmonic) {
      PetscCall(Set(db, "-eps_harmonic"));
      PetscCall(Set(db, "-st_type", "shift"));
    } else {
      PetscCall(Set(db, "-st_type", "sinvert"));
      PetscCall(Set(db, "-st_ksp_type", "preonly"));
      PetscCall(Set(db, "-st_pc_type", "lu"));
      PetscCall(Set(db, "-st_pc_factor_mat_solver_type", "mumps"));
    }
    break;
  case CompareRun::folded_ks:
  case CompareRun::folded_arpack:
    PetscCall(SetEps(db, "folded_", run == CompareRun::folded_arpack, n, nev, folded_cap));
    PetscCall(Set(db, "-folded_solver", FoldedSolverName(FoldedSolver::slepc)));
    PetscCall(Set(db, "-folded_nev", std::to_string(nev)));
    break;
  case CompareRun::folded_lanczos:
    PetscCall(CopyUserOptions(db, "", kLanczosTuning));
    PetscCall(Set(db, "-folded_solver", FoldedSolverName(FoldedSolver::lanczos)));
    PetscCall(Set(db, "-folded_nev", std::to_string(nev)));
    PetscCall(Set(db, "-lanczos_max_steps", std::to_string(folded_cap)));
    break;
  }
  *out = db;
  PetscFunctionReturn(0);
}

// The maximum over the ranks (times and memory differ a little between ranks; the rows must not).
PetscErrorCode MaxOverRanks(MPI_Comm comm, double *v) {
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_MAX, comm));
  PetscFunctionReturn(0);
}

// One run around `center` (Lanczos gap centre, SLEPc target, folded shift): its own options database,
// SolveFromOptions, then the states that count.
PetscErrorCode RunOne(Mat H, CompareRun run, const CompareOptions &o, double center, std::span<const PetscInt> canonical_rows, int kramers_block, double residual_limit,
                      ComparisonRow *row) {
  MPI_Comm comm;
  PetscInt n;
  PetscOptions db;
  EigenStates st;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetSize(H, &n, nullptr));
  PetscCall(RunDatabase(run, o, n, &db));
  malloc_trim(0); // return the previous run's freed heap, so that the resident size before this run is its baseline
  const double base_kb = ProcStatusKb("VmRSS");
  PetscCall(PetscOptionsPush(db));
  const PetscErrorCode ierr = SolveFromOptions(H, KindOf(run), center, canonical_rows, kramers_block, true, &st);
  PetscCall(PetscOptionsPop()); // also after a failed run: the user's options come back
  PetscCall(PetscOptionsDestroy(&db));
  PetscCall(ierr);
  row->solver_mb = (ProcStatusKb("VmHWM") - base_kb) / 1024.0;
  PetscCall(MaxOverRanks(comm, &row->solver_mb));
  st.DestroyVectors(); // only values and residuals are compared

  // Vectors that are no eigenvectors of H are not states; a run asked for the states nearest E keeps that many.
  std::vector<std::pair<double, double>> kept;
  PetscInt unresolved = 0;
  for (size_t i = 0; i < st.values.size(); ++i) {
    if (st.residuals[i] > residual_limit) ++unresolved;
    else kept.emplace_back(st.values[i], st.residuals[i]);
  }
  const PetscInt nev = o.nev_valence + o.nev_conduction;
  if (run != CompareRun::lanczos && (PetscInt)kept.size() > nev) {
    std::stable_sort(kept.begin(), kept.end(), [&](const auto &a, const auto &b) { return std::fabs(a.first - center) < std::fabs(b.first - center); });
    kept.resize(nev);
    std::sort(kept.begin(), kept.end());
  }
  row->values.clear(), row->residuals.clear();
  double worst = 0;
  for (const auto &[v, r] : kept) row->values.push_back(v), row->residuals.push_back(r), worst = std::max(worst, r);
  row->states = (PetscInt)kept.size();
  row->requested = nev;
  row->center = center;
  row->max_residual = kept.empty() ? std::numeric_limits<double>::quiet_NaN() : worst;
  row->products = st.products;
  row->iterations = st.iterations;
  row->vectors_held = st.vectors_held;
  row->seconds = st.seconds;
  PetscCall(MaxOverRanks(comm, &row->seconds));
  row->peak_rss_mb = st.peak_rss_mb;
  row->converged = row->states >= nev && st.solver.find("not converged") == std::string::npos;
  if (!row->converged) AddNote(&row->note, Format("not converged within %" PetscInt_FMT " products (%" PetscInt_FMT " of %" PetscInt_FMT " states)", o.max_products, row->states, nev));
  if (unresolved) AddNote(&row->note, Format("%" PetscInt_FMT " vectors with residual > %.1e eV not counted", unresolved, residual_limit));
  row->run_note = row->note;
  PetscFunctionReturn(0);
}

// The centre of the runs after a converged Lanczos: the nv + nc states nearest the middle of its states are those
// states, as long as the next level outside is farther than the edge level from the centre. Off the exact middle
// (where the folded spectrum sees the two edge levels as one) by 1e-6 of the half-width: far less than a level
// spacing, far more than the folded solvers' resolution.
double RecenteredCenter(const std::vector<double> &lanczos_values) {
  const double lo = lanczos_values.front(), hi = lanczos_values.back();
  return 0.5 * (lo + hi) + 1e-6 * 0.5 * (hi - lo);
}

struct Level {
  double value;        // mean of its states
  size_t first, count; // its states in the row's values
};

std::vector<Level> Levels(const std::vector<double> &v, double tol) {
  std::vector<Level> out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i + 1;
    double sum = v[i];
    while (j < v.size() && v[j] - v[j - 1] <= tol) sum += v[j++];
    out.push_back({sum / (double)(j - i), i, j - i});
    i = j;
  }
  return out;
}

// Whether level k is at the edge of its run's window, where the window may have cut it: for a run asked for the
// states nearest its centre, a level about as far from the centre as the farthest (the recentring leaves the two
// ends 2e-6 of the half-width apart); for the Lanczos (nv below, nc above) or a row without centre, the lowest or
// the highest level.
bool AtWindowEdge(const ComparisonRow &r, const std::vector<Level> &levels, size_t k, double level_tol) {
  if (std::isnan(r.center) || r.run == CompareRunName(CompareRun::lanczos)) return k == 0 || k + 1 == levels.size();
  double far = 0;
  for (const Level &l : levels) far = std::max(far, std::fabs(l.value - r.center));
  return std::fabs(levels[k].value - r.center) >= far - (level_tol + 1e-5 * far);
}

// "a, b, c" (at most three, then "...") of energies in eV.
std::string EnergyList(const std::vector<double> &e) {
  std::string s;
  for (size_t i = 0; i < e.size() && i < 3; ++i) s += (i ? ", " : "") + Format("%.6f", e[i]);
  if (e.size() > 3) s += ", ...";
  return s + " eV";
}

std::string Cell(const char *fmt, double v) { return std::isnan(v) ? "-" : Format(fmt, v); }

// When the levels are not balanced around E and the runs were not recentred, "nv below and nc above E" (Lanczos) and
// "the nv + nc nearest E" (SLEPc, folded) are different states: says so.
PetscErrorCode HintWhenTheQuestionsDiffer(MPI_Comm comm, const std::vector<ComparisonRow> &rows, const CompareOptions &o) {
  PetscFunctionBeginUser;
  const auto lanczos = std::find_if(rows.begin(), rows.end(), [](const ComparisonRow &r) { return r.run == CompareRunName(CompareRun::lanczos) && r.converged; });
  if (lanczos == rows.end()) PetscFunctionReturn(0);
  for (const ComparisonRow &r : rows) {
    if (&r == &*lanczos || !r.converged || r.center != o.gap_center) continue;
    const PetscInt below = (PetscInt)std::count_if(r.values.begin(), r.values.end(), [&](double v) { return v < o.gap_center; });
    if (below == o.nev_valence) continue;
    PetscCall(PetscPrintf(comm,
                          "compare: note: %s, asked for the %" PetscInt_FMT " states nearest %.6f eV, found %" PetscInt_FMT " below it, the Lanczos %" PetscInt_FMT " below and %" PetscInt_FMT
                          " above: they are compared on the levels both found (-compare_recenter 1 with the Lanczos first asks both the same question)\n",
                          r.solver.c_str(), o.nev_valence + o.nev_conduction, o.gap_center, below, o.nev_valence, o.nev_conduction));
    break;
  }
  PetscFunctionReturn(0);
}

} // namespace

const char *CompareRunName(CompareRun run) {
  switch (run) {
  case CompareRun::lanczos: return "lanczos";
  case CompareRun::ks_harmonic: return "ks_harmonic";
  case CompareRun::sinvert: return "sinvert";
  case CompareRun::folded_ks: return "folded_ks";
  case CompareRun::folded_arpack: return "folded_arpack";
  default: return "folded_lanczos";
  }
}

const char *CompareRunLabel(CompareRun run) {
  switch (run) {
  case CompareRun::lanczos: return "lanczos (NEMO 3-D style)";
  case CompareRun::ks_harmonic: return "slepc krylovschur harmonic";
  case CompareRun::sinvert: return "slepc krylovschur sinvert";
  case CompareRun::folded_ks: return "folded krylovschur";
  case CompareRun::folded_arpack: return "folded arpack";
  default: return "folded lanczos";
  }
}

PetscErrorCode CompareOptionsFromOptions(MPI_Comm comm, double default_gap_center, CompareOptions *opts) {
  CompareOptions o;
  PetscReal gap = default_gap_center, tol = o.level_tol;
  char *names[16] = {};
  PetscInt nnames = 16;
  PetscBool names_set = PETSC_FALSE;
  std::string all;
  for (CompareRun r : kAllRuns) all += (all.empty() ? "" : ",") + std::string(CompareRunName(r));
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Solver comparison (-solver compare)", nullptr);
  PetscCall(PetscOptionsInt("-compare_nev_valence", "States (with multiplicity) below the gap centre", "CompareSolvers", o.nev_valence, &o.nev_valence, nullptr));
  PetscCall(PetscOptionsInt("-compare_nev_conduction", "States (with multiplicity) above the gap centre", "CompareSolvers", o.nev_conduction, &o.nev_conduction, nullptr));
  PetscCall(PetscOptionsReal("-compare_gap_center", "Gap centre E (eV): Lanczos gap centre, SLEPc target, folded shift (default: host midgap)", "CompareSolvers", gap, &gap, nullptr));
  PetscCall(PetscOptionsInt("-compare_max_products", "Cap on the products of H per run", "CompareSolvers", o.max_products, &o.max_products, nullptr));
  PetscCall(PetscOptionsInt("-compare_sinvert_max_rows", "Largest H (rows) for the shift-and-invert run with MUMPS (0: never)", "CompareSolvers", o.sinvert_max_rows, &o.sinvert_max_rows, nullptr));
  PetscCall(PetscOptionsBool("-compare_recenter", "Runs after the Lanczos look around the middle of its states (same question for all)", "CompareSolvers", o.recenter, &o.recenter, nullptr));
  PetscCall(PetscOptionsReal("-compare_level_tol", "States closer than this (eV) form one level", "CompareSolvers", tol, &tol, nullptr));
  PetscCall(PetscOptionsStringArray("-compare_runs", ("Runs, in order (default " + all + ")").c_str(), "CompareSolvers", names, &nnames, &names_set));
  PetscOptionsEnd();
  if (!names_set) nnames = 0;
  std::vector<std::string> given(names, names + nnames);
  for (PetscInt i = 0; i < nnames; ++i) PetscCall(PetscFree(names[i]));
  PetscCheck(o.nev_valence >= 0, comm, PETSC_ERR_USER_INPUT, "-compare_nev_valence must be >= 0, got %" PetscInt_FMT, o.nev_valence);
  PetscCheck(o.nev_conduction >= 0, comm, PETSC_ERR_USER_INPUT, "-compare_nev_conduction must be >= 0, got %" PetscInt_FMT, o.nev_conduction);
  PetscCheck(o.nev_valence + o.nev_conduction > 0, comm, PETSC_ERR_USER_INPUT, "-compare_nev_valence and -compare_nev_conduction are both 0: no state wanted");
  PetscCheck(std::isfinite((double)gap), comm, PETSC_ERR_USER_INPUT, "-compare_gap_center must be a finite energy in eV");
  PetscCheck(o.max_products >= 1, comm, PETSC_ERR_USER_INPUT, "-compare_max_products must be >= 1, got %" PetscInt_FMT, o.max_products);
  PetscCheck(o.sinvert_max_rows >= 0, comm, PETSC_ERR_USER_INPUT, "-compare_sinvert_max_rows must be >= 0, got %" PetscInt_FMT, o.sinvert_max_rows);
  PetscCheck(std::isfinite((double)tol) && tol > 0, comm, PETSC_ERR_USER_INPUT, "-compare_level_tol must be a positive energy in eV, got %g", (double)tol);
  PetscCheck(!names_set || nnames > 0, comm, PETSC_ERR_USER_INPUT, "-compare_runs needs at least one of %s", all.c_str());
  for (const std::string &g : given) {
    const CompareRun *r = std::find_if(std::begin(kAllRuns), std::end(kAllRuns), [&](CompareRun x) { return g == CompareRunName(x); });
    PetscCheck(r != std::end(kAllRuns), comm, PETSC_ERR_USER_INPUT, "-compare_runs: %s is not a run (%s)", g.c_str(), all.c_str());
    PetscCheck(std::find(o.runs.begin(), o.runs.end(), *r) == o.runs.end(), comm, PETSC_ERR_USER_INPUT, "-compare_runs: %s is given twice", g.c_str());
    o.runs.push_back(*r);
  }
  if (o.runs.empty()) o.runs.assign(std::begin(kAllRuns), std::end(kAllRuns));
  o.gap_center = gap, o.level_tol = tol;
  *opts = o;
  PetscFunctionReturn(0);
}

PetscErrorCode CompareSolvers(Mat H, std::span<const PetscInt> canonical_rows, int kramers_block, const CompareOptions &opts, std::vector<ComparisonRow> *rows,
                              std::span<const ComparisonRow> earlier) {
  MPI_Comm comm;
  PetscInt n;
  PetscReal bound;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetSize(H, &n, nullptr));
  const PetscInt nev = opts.nev_valence + opts.nev_conduction;
  PetscCheck(nev <= n, comm, PETSC_ERR_USER_INPUT, "-compare_nev_valence + -compare_nev_conduction: %" PetscInt_FMT " states wanted, but H has only %" PetscInt_FMT " rows", nev, n);
  PetscCall(MatNorm(H, NORM_INFINITY, &bound));
  bool stored;
  PetscCall(HamiltonianIsStored(H, &stored));
  const double residual_limit = kFoldedResidualLimit * (bound + std::fabs(opts.gap_center));
  PetscCall(PetscPrintf(comm, "compare: %" PetscInt_FMT " valence + %" PetscInt_FMT " conduction states around %.6f eV, %zu runs, at most %" PetscInt_FMT " products of H each\n",
                        opts.nev_valence, opts.nev_conduction, opts.gap_center, opts.runs.size(), opts.max_products));
  rows->assign(earlier.begin(), earlier.end());
  double center = opts.gap_center;
  for (const ComparisonRow &row : earlier)
    if (row.run == CompareRunName(CompareRun::lanczos) && opts.recenter && row.converged && !row.values.empty()) {
      center = RecenteredCenter(row.values);
      PetscCall(PetscPrintf(comm, "compare: %zu rows measured before; the new runs look around %.6f eV, the middle of their Lanczos states (-compare_recenter)\n", earlier.size(), center));
    }
  for (size_t i = 0; i < opts.runs.size(); ++i) {
    const CompareRun run = opts.runs[i];
    ComparisonRow row;
    row.run = CompareRunName(run);
    row.solver = CompareRunLabel(run);
    row.requested = nev;
    if (run == CompareRun::sinvert && !stored) {
      row.skipped = true, row.converged = false;
      row.note = row.run_note = "skipped: shift-and-invert factors H; it needs -hamiltonian stored";
    } else if (run == CompareRun::sinvert && n > opts.sinvert_max_rows) {
      row.skipped = true, row.converged = false;
      row.note = row.run_note = Format("skipped: %" PetscInt_FMT " rows > -compare_sinvert_max_rows %" PetscInt_FMT ", too large for MUMPS here", n, opts.sinvert_max_rows);
    } else PetscCall(RunOne(H, run, opts, center, canonical_rows, kramers_block, residual_limit, &row));
    PetscCall(PetscPrintf(comm, "compare [%zu/%zu] %s: %" PetscInt_FMT " of %" PetscInt_FMT " states, %" PetscInt_FMT " products, %.2f s%s%s\n", i + 1, opts.runs.size(), row.solver.c_str(),
                          row.states, nev, row.products, row.seconds, row.note.empty() ? "" : "; ", row.note.c_str()));
    if (run == CompareRun::lanczos && opts.recenter && row.converged && !row.values.empty()) {
        center = RecenteredCenter(row.values);
      PetscCall(PetscPrintf(comm, "compare: the runs after it look around %.6f eV, the middle of the Lanczos states [%.6f, %.6f] eV (-compare_recenter)\n", center, row.values.front(),
                            row.values.back()));
    }
    rows->push_back(std::move(row));
  }
  CompareWithReference(*rows, opts.level_tol, kramers_block > 0 ? 2 : 1);
  PetscCall(HintWhenTheQuestionsDiffer(comm, *rows, opts));
  PetscFunctionReturn(0);
}

void CompareWithReference(std::vector<ComparisonRow> &rows, double level_tol, int multiplicity) {
  const size_t unit = (size_t)std::max(1, multiplicity);
  // Levels whose multiplicity the symmetry rules out (one state of a Kramers pair): the solver missed a state.
  std::vector<std::vector<double>> incomplete(rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    for (const Level &l : Levels(rows[i].values, level_tol))
      if (l.count % unit) incomplete[i].push_back(l.value);
  int ref = -1;
  for (int pass = 0; pass < 3 && ref < 0; ++pass) // converged and complete, converged, any
    for (size_t i = 0; i < rows.size(); ++i) {
      const ComparisonRow &r = rows[i];
      if (r.skipped || r.values.empty() || (pass < 2 && !r.converged) || (pass == 0 && !incomplete[i].empty())) continue;
      if (ref < 0 || r.max_residual < rows[ref].max_residual) ref = (int)i;
    }
  for (ComparisonRow &r : rows) r.reference = false, r.levels_compared = 0, r.max_deviation = std::numeric_limits<double>::quiet_NaN(), r.note = r.run_note;
  if (ref < 0) return;
  const ComparisonRow &rr = rows[ref];
  const std::vector<Level> R = Levels(rr.values, level_tol);
  std::vector<std::string> notes(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    ComparisonRow &row = rows[i];
    if (row.values.empty()) continue;
    const std::vector<Level> L = Levels(row.values, level_tol);
    std::vector<int> of_ref(R.size(), -1), of_row(L.size(), -1);
    for (size_t b = 0; b < R.size(); ++b) {
      // Within half the distance to the neighbouring reference levels: at most one reference level per row level.
      double radius = kCompareMatchTolerance;
      if (b > 0) radius = std::min(radius, 0.5 * (R[b].value - R[b - 1].value));
      if (b + 1 < R.size()) radius = std::min(radius, 0.5 * (R[b + 1].value - R[b].value));
      int best = -1;
      for (size_t a = 0; a < L.size(); ++a)
        if (std::fabs(L[a].value - R[b].value) < radius && (best < 0 || std::fabs(L[a].value - R[b].value) < std::fabs(L[best].value - R[b].value))) best = (int)a;
      if (best >= 0) of_ref[b] = best, of_row[best] = (int)b;
    }
    double dev = 0;
    std::vector<double> cut, differ, missing, extra;
    for (size_t b = 0; b < R.size(); ++b) {
      const int a = of_ref[b];
      if (a < 0) {
        if (R[b].value > L.front().value && R[b].value < L.back().value) missing.push_back(R[b].value);
        continue;
      }
      const size_t fewer = std::min(L[a].count, R[b].count);
      if (L[a].count == R[b].count) {
        for (size_t k = 0; k < R[b].count; ++k) dev = std::max(dev, std::fabs(row.values[L[a].first + k] - rr.values[R[b].first + k]));
        ++row.levels_compared;
      } else if (fewer % unit) continue; // an incomplete level, flagged as such
      else if (L[a].count < R[b].count ? AtWindowEdge(row, L, a, level_tol) : AtWindowEdge(rr, R, b, level_tol)) cut.push_back(R[b].value); // the window of the one with fewer ends there
      else differ.push_back(R[b].value);
    }
    for (size_t a = 0; a < L.size(); ++a)
      if (of_row[a] < 0 && L[a].value > R.front().value && L[a].value < R.back().value) extra.push_back(L[a].value);
    if (row.levels_compared) row.max_deviation = dev;
    std::string &note = notes[i];
    if ((int)i == ref) AddNote(&note, "reference (smallest residual)");
    else if (row.levels_compared < (PetscInt)std::min(L.size(), R.size()))
      AddNote(&note, Format("compared on %" PetscInt_FMT " of %zu levels", row.levels_compared, L.size()));
    if (!incomplete[i].empty()) AddNote(&note, Format("INCOMPLETE levels (multiplicity not a multiple of %zu) at ", unit) + EnergyList(incomplete[i]));
    if (!cut.empty()) AddNote(&note, "edge level cut at " + EnergyList(cut));
    if (!differ.empty()) AddNote(&note, "MULTIPLICITY differs from the reference at " + EnergyList(differ));
    if (!missing.empty()) AddNote(&note, "MISSING levels of the reference at " + EnergyList(missing));
    if (!extra.empty()) AddNote(&note, "EXTRA levels, not in the reference, at " + EnergyList(extra));
  }
  for (size_t i = 0; i < rows.size(); ++i) AddNote(&rows[i].note, notes[i]);
  rows[ref].reference = true;
}

std::vector<ComparisonRatio> RatiosToLanczos(std::span<const ComparisonRow> rows) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<ComparisonRatio> out;
  const auto base = std::find_if(rows.begin(), rows.end(), [](const ComparisonRow &r) { return r.run == CompareRunName(CompareRun::lanczos) && r.converged && r.products > 0; });
  if (base == rows.end()) return out;
  for (const ComparisonRow &r : rows) {
    if (&r == &*base || r.skipped || r.seconds <= 0) continue;
    ComparisonRatio q;
    q.solver = r.solver;
    q.products = r.products > 0 ? (double)r.products / (double)base->products : nan; // shift-and-invert: LU solves, no products
    q.seconds = base->seconds > 0 ? r.seconds / base->seconds : nan;
    q.solver_mb = base->solver_mb >= 1 ? r.solver_mb / base->solver_mb : nan; // below 1 MB the page-level measurement is noise
    q.vectors = base->vectors_held > 0 && r.vectors_held > 0 ? (double)r.vectors_held / (double)base->vectors_held : nan;
    q.lower_bound = !r.converged;
    out.push_back(q);
  }
  return out;
}

PetscErrorCode PrintComparison(MPI_Comm comm, std::span<const ComparisonRow> rows, double level_tol) {
  PetscFunctionBeginUser;
  size_t w = 6;
  for (const ComparisonRow &r : rows) w = std::max(w, r.solver.size());
  const int iw = (int)w;
  PetscCall(PetscPrintf(comm, "%-*s %5s %4s %11s %9s %9s %7s %7s %8s %8s %8s  %s\n", iw, "solver", "found", "conv", "max|dE| eV", "max resid", "products", "iters", "vectors", "time s", "peak MB",
                        "own MB", "note"));
  for (const ComparisonRow &r : rows) {
    const std::string found = Format("%" PetscInt_FMT "/%" PetscInt_FMT, r.states, r.requested);
    if (r.skipped) {
      PetscCall(PetscPrintf(comm, "%-*s %5s %4s %11s %9s %9s %7s %7s %8s %8s %8s  %s\n", iw, r.solver.c_str(), "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", r.note.c_str()));
      continue;
    }
    PetscCall(PetscPrintf(comm, "%-*s %5s %4s %11s %9s %9" PetscInt_FMT " %7" PetscInt_FMT " %7s %8.2f %8.1f %8.1f  %s\n", iw, r.solver.c_str(), found.c_str(), r.converged ? "yes" : "NO",
                          Cell("%.2e", r.max_deviation).c_str(), Cell("%.2e", r.max_residual).c_str(), r.products, r.iterations,
                          r.vectors_held > 0 ? std::to_string(r.vectors_held).c_str() : "-", r.seconds, r.peak_rss_mb, r.solver_mb, r.note.c_str()));
  }
  if (std::any_of(rows.begin(), rows.end(), [](const ComparisonRow &r) { return !r.values.empty(); })) PetscCall(PetscPrintf(comm, "levels (eV, x multiplicity):\n"));
  for (const ComparisonRow &r : rows) {
    if (r.values.empty()) continue;
    std::string list;
    for (const Level &l : Levels(r.values, level_tol)) list += Format("%s%.6f x%zu", list.empty() ? "" : ", ", l.value, l.count);
    PetscCall(PetscPrintf(comm, "  %-*s %s\n", iw, r.solver.c_str(), list.c_str()));
  }
  const std::vector<ComparisonRatio> ratios = RatiosToLanczos(rows);
  if (ratios.empty()) {
    PetscCall(PetscPrintf(comm, "ratios: no converged Lanczos run to compare with\n"));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscPrintf(comm, "ratios to the NEMO 3-D-style Lanczos (own MB = peak during the solve - resident before it; >= : not converged, a lower bound):\n"));
  for (const ComparisonRatio &q : ratios) {
    const char *ge = q.lower_bound ? ">=" : "  ";
    PetscCall(PetscPrintf(comm, "  %-*s products %s%8s  time %s%8s  own memory %8s  vectors %8s\n", iw, q.solver.c_str(), ge, Cell("%.2fx", q.products).c_str(), ge, Cell("%.2fx", q.seconds).c_str(),
                          Cell("%.2fx", q.solver_mb).c_str(), Cell("%.2fx", q.vectors).c_str()));
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
