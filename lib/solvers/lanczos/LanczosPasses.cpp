#include "solvers/lanczos/LanczosPasses.hpp"

#include <algorithm>
#include <cmath>

#include "solvers/lanczos/LanczosCheckpoint.hpp"
#include "support/CrashReport.hpp"
#include "support/LogEvents.hpp"

namespace tbpeta::lanczos {

namespace {

// The start vector of a pass: seeded, then orthogonal to the states found so far.
PetscErrorCode PassStart(Recurrence &r, const PassSpec &spec) {
  PetscReal norm;
  PetscFunctionBeginUser;
  PetscCall(StartVector(r, spec.seed));
  if (!spec.deflate || spec.deflate->count() == 0) PetscFunctionReturn(0);
  PetscCall(spec.deflate->Orthogonalise(r.v, {{0, spec.deflate->count()}}, &norm));
  if (norm != 1.0) PetscCall(VecScale(r.v, 1.0 / norm));
  r.cnt.reductions += 3;
  PetscFunctionReturn(0);
}

// The step m at which each converged wanted level of `chk` was first seen converged (a record per level, even for two
// levels closer than the tolerance).
void RecordConverged(const Check &chk, PetscInt m, std::vector<Record> *records) {
  const double same = CopyTolerance(chk.scale);
  for (const Level &l : chk.wanted) {
    if (!l.converged) continue;
    auto rec = std::find_if(records->begin(), records->end(),
                            [&](const Record &x) { return std::fabs(x.value - l.value) <= same; });
    if (rec == records->end()) records->push_back({l.value, (int)m});
    else rec->value = l.value;
  }
}

// A continued first pass: the records of the checks an uninterrupted run made before step `loaded` (the second pass's
// vectors come from T at these steps, so they are the uninterrupted run's too).
PetscErrorCode ReplayRecords(const PassSpec &spec, PetscInt loaded, PassResult *res) {
  Check chk;
  PetscFunctionBeginUser;
  for (PetscInt m = spec.opts->check_every; m < loaded; m += spec.opts->check_every) {
    const std::vector<double> a(res->alpha.begin(), res->alpha.begin() + m),
        b(res->beta.begin(), res->beta.begin() + m + 1);
    PetscCall(AnalyseT(a, b, spec.want, spec.opts->tol, &chk));
    RecordConverged(chk, m, &res->records);
  }
  PetscFunctionReturn(0);
}

// One check of T_m: records the step at which each wanted value first converged (at the checks an uninterrupted run
// makes: not at a continued run's first check between them); *done when the run may stop.
PetscErrorCode CheckT(const PassSpec &spec, PetscInt m, bool loaded, std::vector<double> *prev, bool *have_prev,
                      PassResult *res, bool *done) {
  PetscFunctionBeginUser;
  PetscCall(AnalyseT(res->alpha, res->beta, spec.want, spec.opts->tol, &res->chk));
  const Check &chk = res->chk;
  const double match = LevelResolution(spec.opts->tol, chk.scale);
  bool all = chk.neighbours_converged;
  for (const Level &l : chk.wanted) all = all && l.converged;
  if (m % spec.opts->check_every == 0 || m >= spec.max_steps || res->invariant) RecordConverged(chk, m, &res->records);
  bool stable = (*have_prev && prev->size() == chk.wanted.size()) || (loaded && res->loaded && res->loaded->done);
  for (size_t i = 0; stable && i < prev->size(); ++i) stable = std::fabs((*prev)[i] - chk.wanted[i].value) <= match;
  if (spec.monitor) PetscCall(spec.monitor(m, chk));
  *done = ((all && stable) || res->invariant) && m >= spec.min_steps;
  prev->clear();
  for (const Level &l : chk.wanted) prev->push_back(l.value);
  *have_prev = true;
  PetscFunctionReturn(0);
}

// Starts the first pass afresh, or continues it from an existing checkpoint.
PetscErrorCode StartOrResume(Recurrence &r, const PassSpec &spec, PassResult *res, bool *resumed) {
  PetscFunctionBeginUser;
  *resumed = false;
  if (spec.checkpointed) PetscCall(CheckCheckpointPath(r.comm, *spec.opts, resumed));
  if (!*resumed) {
    PetscCall(PassStart(r, spec));
    PetscFunctionReturn(0);
  }
  PetscCall(LoadCheckpoint(r, *spec.opts, &res->alpha, &res->beta, &res->loaded));
  const bool states = res->LoadedStage() == CheckpointStage::States;
  const bool second = res->LoadedStage() == CheckpointStage::SecondPass;
  res->resumed_from = (PetscInt)res->alpha.size();
  PetscCall(ReplayRecords(spec, res->resumed_from, res));
  const std::string &path = spec.opts->checkpoint;
  SetCrashNote("the checkpoint " + path +
               (states   ? " holds the states of the passes finished"
                : second ? " holds the first pass and the second pass under way"
                         : " holds the first pass to step " + std::to_string(res->resumed_from)) +
               ": run the same command again to continue from it");
  PetscCall(PetscPrintf(r.comm, "lanczos: continuing from checkpoint %s at step %" PetscInt_FMT "%s\n", path.c_str(),
                        res->resumed_from,
                        states   ? ", with the states of its later passes"
                        : second ? ", with its second pass under way"
                                 : ""));
  PetscFunctionReturn(0);
}

// "step m, k of n wanted levels converged at the last check" and, for a pass of fixed length, what is left.
PetscErrorCode ReportProgress(const PassSpec &spec, PetscInt m, const PassResult &res) {
  int converged = 0;
  PetscFunctionBeginUser;
  for (const Level &l : res.chk.wanted) converged += l.converged;
  const std::string left =
      spec.min_steps == spec.max_steps ? TimeLeft(spec.progress->Elapsed(), (double)m / (double)spec.max_steps) : "";
  if (res.chk.scale == 0) // no check of T yet (AnalyseT sets a positive scale)
    PetscFunctionReturn(spec.progress->Report(
        "step %" PetscInt_FMT " (the first check of T comes at step %" PetscInt_FMT ")", m, spec.opts->check_every));
  if (res.chk.wanted
          .empty()) // a window with no level of T in it yet: a restarted pass before it reaches a new direction
    PetscFunctionReturn(spec.progress->Report("step %" PetscInt_FMT ", no wanted level in T at the last check%s%s", m,
                                              left.empty() ? "" : ", ", left.c_str()));
  PetscCall(spec.progress->Report("step %" PetscInt_FMT ", %d of %zu wanted levels converged at the last check%s%s", m,
                                  converged, res.chk.wanted.size(), left.empty() ? "" : ", ", left.c_str()));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode StopIfAsked(const Recurrence &r, const PassSpec &spec, const std::string &where) {
  PetscFunctionBeginUser;
  const LanczosOptions &o = *spec.opts;
  if (!spec.checkpointed || o.stop_after <= 0 || r.cnt.products < o.stop_after) PetscFunctionReturn(0);
  SETERRQ(r.comm, PETSC_ERR_NOT_CONVERGED,
          "%seps_nemo_stop_after %" PetscInt_FMT ": stopped as asked after %" PetscInt_FMT
          " products of H, %s; the checkpoint %s holds the run: the same command continues it",
          o.option_prefix.c_str(), o.stop_after, r.cnt.products, where.c_str(), o.checkpoint.c_str());
}

PetscErrorCode FirstPass(Recurrence &r, const PassSpec &spec, PassResult *res) {
  bool resume, have_prev = false, done = false;
  std::vector<double> prev;
  PetscFunctionBeginUser;
  PetscCall(StartOrResume(r, spec, res, &resume));
  std::vector<double> &alpha = res->alpha, &beta = res->beta;
  double running_scale = 0;
  for (size_t j = 0; j < alpha.size(); ++j)
    running_scale = std::max(running_scale, std::fabs(alpha[j]) + beta[j] + beta[j + 1]);
  PetscInt last_saved = res->resumed_from;
  for (bool loaded = resume; !done; loaded = false) {
    if (!loaded) { // a resumed run checks its loaded T first
      const PetscInt j = (PetscInt)alpha.size();
      if (j >= spec.max_steps) break;
      double a, b;
      PetscCall(Step(r, beta[j], &a, &b));
      alpha.push_back(a);
      beta.push_back(b);
      running_scale = std::max(running_scale, std::fabs(a) + beta[j] + b);
    }
    const PetscInt m = (PetscInt)alpha.size();
    if (spec.progress && spec.progress->Due()) PetscCall(ReportProgress(spec, m, *res));
    res->invariant = beta[m] <= 1e-14 * running_scale; // T_m is exact: the Krylov space is an invariant subspace
    const bool last = m >= spec.max_steps;
    if (m % spec.opts->check_every != 0 && !last && !res->invariant && !loaded) continue;
    PetscCall(CheckT(spec, m, loaded, &prev, &have_prev, res, &done));
    if (spec.enough && !done) {
      bool stop = false;
      PetscCall(spec.enough(alpha, beta, &stop));
      done = stop;
    }
    // A checkpoint with states keeps no Lanczos vectors: its first pass cannot go on (it was done for this question).
    PetscCheck(!loaded || res->LoadedStage() == CheckpointStage::FirstPass || done, r.comm, PETSC_ERR_USER_INPUT,
               "%s holds states, but its first pass is not converged for this question", spec.opts->checkpoint.c_str());
    if (spec.checkpointed && m > last_saved && (done || last || m - last_saved >= spec.opts->checkpoint_every)) {
      PetscCall(SaveCheckpoint(r, *spec.opts, alpha, beta, done));
      last_saved = m;
      SetCrashNote("the checkpoint " + spec.opts->checkpoint + " holds the first pass to step " + std::to_string(m) +
                   ": run the same command again to continue from it");
      PetscCall(StopIfAsked(r, spec, "in the first pass at step " + std::to_string(m)));
    }
    if (last) break;
  }
  res->converged = res->chk.neighbours_converged;
  res->found.clear();
  res->unconverged.clear();
  for (const Level &l : res->chk.wanted) {
    res->converged = res->converged && l.converged;
    (l.converged ? res->found : res->unconverged).push_back(l);
  }
  PetscFunctionReturn(0);
}

namespace {

// T's eigenvector for each found value at the check where it first converged, and the steps each one needs. Two
// found levels within `near` of each other use the last check, where both are values of T: earlier, one value of T
// may have stood for both (a mixture of the two passes the convergence test), and would give both one vector.
PetscErrorCode RitzVectors(const PassSpec &spec, const PassResult &res, std::vector<std::vector<double>> *s,
                           std::vector<int> *len, int *longest) {
  PetscFunctionBeginUser;
  const std::vector<Level> &found = res.found;
  const double same = CopyTolerance(res.chk.scale), near = 10 * LevelResolution(spec.opts->tol, res.chk.scale);
  std::vector<double> chosen(found.size());
  len->assign(found.size(), (int)res.alpha.size());
  s->assign(found.size(), {});
  *longest = 0;
  for (size_t i = 0; i < found.size(); ++i) {
    bool alone = true;
    for (size_t k = 0; k < found.size(); ++k)
      alone = alone && (k == i || std::fabs(found[k].value - found[i].value) > near);
    for (const Record &rec : res.records)
      if (alone && std::fabs(rec.value - found[i].value) <= same) (*len)[i] = std::min((*len)[i], rec.step);
    std::vector<double> taken; // the values of T_len already chosen for other levels
    for (size_t k = 0; k < i; ++k)
      if ((*len)[k] == (*len)[i]) taken.push_back(chosen[k]);
    PetscCall(RitzCoefficients(res.alpha, res.beta, (*len)[i], found[i].value, same, taken, &(*s)[i], &chosen[i]));
    *longest = std::max(*longest, (*len)[i]);
  }
  PetscFunctionReturn(0);
}

// A second pass saved under way in the checkpoint: its vectors and sums loaded, and where it stood.
PetscErrorCode ContinueSecondPass(Recurrence &r, const PassResult &res, StateColumns *store, PetscInt first, PetscInt n,
                                  int M, double *bj, PetscInt *next) {
  SecondPassPosition at;
  PetscFunctionBeginUser;
  PetscCall(LoadSecondPass(r, *res.loaded, store, first, n, &at));
  r.pending = false;
  r.newest = at.newest;
  *bj = at.beta;
  *next = at.next;
  r.keep_from = at.next;
  PetscCall(PetscPrintf(r.comm, "lanczos: the second pass continues at step %d of %d\n", (int)at.newest, M));
  PetscFunctionReturn(0);
}

// Every checkpoint_every steps of a second pass, once the window's vectors are added (v_next is the next to add):
// where the pass stands and its sums; then the stop of -eps_nemo_stop_after.
PetscErrorCode SaveSecondPassWhenDue(Recurrence &r, const PassSpec &spec, const PassResult &res, StateColumns *store,
                                     PetscInt first, int M, PetscInt next, double bj, PetscInt *last_saved) {
  PetscFunctionBeginUser;
  if (!spec.checkpointed || next != r.newest + 1 || r.newest + 3 > M ||
      next - *last_saved < spec.opts->checkpoint_every)
    PetscFunctionReturn(0);
  PetscCall(Materialise(r)); // r.v = v_next when it was pending (not added yet), the same bits as the next step's
  const SecondPassPosition at{r.newest, next, bj};
  PetscCall(SaveSecondPass(r, *spec.opts, res.alpha, res.beta, at, store, first, (PetscInt)res.found.size()));
  *last_saved = next;
  SetCrashNote("the checkpoint " + spec.opts->checkpoint + " holds the second pass to step " +
               std::to_string(r.newest) + ": run the same command again to continue from it");
  PetscCall(
      StopIfAsked(r, spec, "in the second pass at step " + std::to_string(r.newest) + " of " + std::to_string(M)));
  PetscFunctionReturn(0);
}

// The end of a second pass: the sums normalised, with their values and residuals.
PetscErrorCode FinishSums(Recurrence &r, const PassResult &res, StateColumns *store, PetscInt first) {
  PetscFunctionBeginUser;
  for (size_t i = 0; i < res.found.size(); ++i) {
    Column x(*store, first + (PetscInt)i);
    PetscCall(x.error());
    PetscCall(VecNormalize(x.vec(), nullptr));
    store->values[first + i] = res.found[i].value;
    PetscCall(Residual(r, x.vec(), res.found[i].value, &store->residuals[first + i]));
  }
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode SecondPass(Recurrence &r, const PassSpec &spec, const PassResult &res, StateColumns *store,
                          PetscInt *first, PetscInt *steps) {
  std::vector<std::vector<double>> s;
  std::vector<int> len;
  int M;
  PetscFunctionBeginUser;
  const LogEvents *ev;
  PetscCall(GetLogEvents(&ev));
  PetscCall(RitzVectors(spec, res, &s, &len, &M));
  const PetscInt n = (PetscInt)res.found.size(), batch = std::max<PetscInt>(1, spec.opts->ritz_batch);
  PetscCall(PassStart(r, spec)); // as the first pass's: deflated against the states before this pass's columns
  PetscCall(store->Append(n, first));
  double bj = 0;
  PetscInt first_diff = -1, next = 0; // v_next: the first vector not yet added
  std::vector<double> c;
  std::vector<Vec> vs;
  const auto coefficient = [&](PetscInt i, PetscInt j) { return j >= 0 && j < len[i] ? s[i][j] : 0.0; };
  // v_{newest - k}: r.v, r.vprev, then the window's kept vectors from the newest back.
  const auto held = [&](PetscInt k) { return k == 0 ? r.v : k == 1 ? r.vprev : r.kept[r.kept.size() + 1 - (size_t)k]; };
  // Adds v_next .. v_newest once the recurrence holds `batch` of them, and at the end what is left; the window's kept
  // vectors are spare again after.
  const auto add = [&](bool last) -> PetscErrorCode {
    PetscFunctionBeginUser;
    const PetscInt count = r.newest - next + 1;
    if (count <= 0 || (count < batch && !last) || M == 0) PetscFunctionReturn(0);
    PetscCheck(count <= 2 + (PetscInt)r.kept.size(), r.comm, PETSC_ERR_PLIB,
               "Lanczos second pass: %" PetscInt_FMT " vectors to add, %zu held", count, 2 + r.kept.size());
    c.assign((size_t)(n * count), 0.0);
    vs.assign((size_t)count, nullptr);
    for (PetscInt l = 0; l < count; ++l) {
      vs[l] = held(count - 1 - l);
      for (PetscInt i = 0; i < n; ++i) c[i * count + l] = coefficient(i, next + l);
    }
    PetscCall(PetscLogEventBegin(ev->lanczos_ritz, 0, 0, 0, 0));
    PetscCall(store->Accumulate(*first, c, vs));
    PetscCall(PetscLogEventEnd(ev->lanczos_ritz, 0, 0, 0, 0));
    next = r.newest + 1;
    r.ReleaseKept();
    r.keep_from = next;
    PetscFunctionReturn(0);
  };
  // The window: batch - 2 vectors beyond the recurrence's three (v and v_{j-1} hold the batch's last two); closed at
  // the end of the pass (by r.Destroy after an error).
  PetscCall(r.OpenWindow(SecondPassWindow(batch)));
  r.keep_previous = true; // v_{j-1} not added yet is kept
  r.keep_from = next;
  if (res.LoadedStage() == CheckpointStage::SecondPass && spec.checkpointed)
    PetscCall(ContinueSecondPass(r, res, store, *first, n, M, &bj, &next));
  const int j0 = (int)r.newest; // 0, or where the saved pass stood (r.v = v_j0 formed)
  PetscInt last_saved = next;
  const double started =
      spec.progress ? spec.progress->Elapsed() : 0; // a restarted pass's progress counts from its start
  for (int j = j0; r.newest < M - 1; ++j) {
    if (spec.progress && spec.progress->Due())
      PetscCall(spec.progress->Report("step %d of %d, %s", j, M,
                                      TimeLeft(spec.progress->Elapsed() - started, (double)j / M).c_str()));
    if (r.pending && r.newest + 1 == M - 1) PetscCall(Materialise(r)); // v_{M-1} is the last vector needed
    else {
      double a, b;
      PetscCall(Step(r, bj, &a, &b));
      if ((a != res.alpha[j] || b != res.beta[j + 1]) && first_diff < 0) first_diff = j;
      bj = b;
    }
    PetscCall(add(false));
    if (first_diff < 0) PetscCall(SaveSecondPassWhenDue(r, spec, res, store, *first, M, next, bj, &last_saved));
  }
  PetscCall(Materialise(r));
  PetscCall(add(true));
  PetscCall(r.CloseWindow());
  r.keep_previous = false;
  *steps = M;
  PetscCheck(first_diff < 0, r.comm, PETSC_ERR_PLIB,
             "Lanczos second pass differs from the first at step %" PetscInt_FMT
             " (the recurrence is not reproducible)",
             first_diff);
  PetscCall(FinishSums(r, res, store, *first));
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos
