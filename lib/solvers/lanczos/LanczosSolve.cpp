#include "solvers/lanczos/LanczosSolve.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "solvers/lanczos/MultiplicityPasses.hpp"
#include "support/CrashReport.hpp"
#include "support/LogEvents.hpp"

namespace tbpeta::lanczos {

namespace {

// What the first pass wants, after checking the question against H.
PetscErrorCode WantedOf(Mat H, const LanczosOptions &opts, Wanted *want) {
  MPI_Comm comm;
  PetscInt N;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetSize(H, &N, nullptr));
  const PetscInt kb = opts.kramers_block;
  PetscCheck(opts.check_every >= 1 && opts.max_steps >= 1 && opts.tol > 0, comm, PETSC_ERR_USER_INPUT,
             "Lanczos options: check_every, max_steps and tol must be positive");
  want->gap_center = opts.gap_center - opts.centre; // the recurrence runs on H - centre
  want->rows = (double)N;
  want->levels_v = kb ? (int)(opts.nev_valence + 1) / 2 : (int)opts.nev_valence;
  want->levels_c = kb ? (int)(opts.nev_conduction + 1) / 2 : (int)opts.nev_conduction;
  if (!opts.window_set) {
    PetscCheck(opts.nev_valence >= 0 && opts.nev_conduction >= 0 && opts.nev_valence + opts.nev_conduction > 0, comm,
               PETSC_ERR_USER_INPUT,
               "Lanczos: no state wanted (nev valence %" PetscInt_FMT ", conduction %" PetscInt_FMT ")",
               opts.nev_valence, opts.nev_conduction);
    PetscCheck(opts.nev_valence + opts.nev_conduction <= N, comm, PETSC_ERR_USER_INPUT,
               "Lanczos: %" PetscInt_FMT " states wanted, but H has only %" PetscInt_FMT " rows",
               opts.nev_valence + opts.nev_conduction, N);
    PetscFunctionReturn(0);
  }
  PetscCheck(opts.window[0] < opts.window[1], comm, PETSC_ERR_USER_INPUT, "%seps_interval a,b needs a < b, got %g,%g",
             opts.option_prefix.c_str(), opts.window[0], opts.window[1]);
  PetscReal bound;
  PetscCall(MatNorm(H, NORM_INFINITY, &bound));
  PetscCheck(opts.window[1] - opts.centre >= -bound && opts.window[0] - opts.centre <= bound, comm,
             PETSC_ERR_USER_INPUT, "%seps_interval [%g, %g] eV lies outside the spectrum of H (inside [%g, %g])",
             opts.option_prefix.c_str(), opts.window[0], opts.window[1], -(double)bound, (double)bound);
  want->window_set = true;
  want->window[0] = opts.window[0] - opts.centre;
  want->window[1] = opts.window[1] - opts.centre;
  PetscFunctionReturn(0);
}

// A first pass that spanned an invariant subspace has seen every level its start vector reaches: fewer levels on a side
// than asked means H (a small one) has fewer states there, an answer the question cannot get.
PetscErrorCode CheckEnoughLevels(MPI_Comm comm, const LanczosOptions &opts, const Wanted &want,
                                 const PassResult &first) {
  int below = 0, above = 0;
  const char *p = opts.option_prefix.c_str();
  PetscFunctionBeginUser;
  if (!first.invariant || opts.window_set) PetscFunctionReturn(0);
  for (const Level &l : first.found) (l.value < want.gap_center ? below : above) += 1;
  PetscCheck(below >= want.levels_v, comm, PETSC_ERR_USER_INPUT,
             "%seps_type nemo: H has only %d levels below the target, %d asked (%seps_nev, %seps_nemo_valence)", p,
             below, want.levels_v, p, p);
  PetscCheck(above >= want.levels_c, comm, PETSC_ERR_USER_INPUT,
             "%seps_type nemo: H has only %d levels above the target, %d asked (%seps_nev, %seps_nemo_valence)", p,
             above, want.levels_c, p, p);
  PetscFunctionReturn(0);
}

// The vectors of the first pass's levels (a second pass) and their Kramers partners; without vectors the values.
PetscErrorCode FirstPassStates(Recurrence &r, const LanczosOptions &opts, const PassSpec &spec, const PassResult &first,
                               StateColumns *st, LanczosReport *rep) {
  const double scale = first.chk.scale;
  const PetscInt n = (PetscInt)first.found.size();
  PetscInt start;
  PetscFunctionBeginUser;
  if (n == 0) PetscFunctionReturn(0);
  if (st->vectors()) {
    Progress progress("Lanczos eigenvectors (second pass)");
    CrashPhase phase("Lanczos second pass (eigenvectors)");
    PassSpec second = spec;
    second.progress = &progress;
    PetscCall(SecondPass(r, second, first, st, &start, &rep->passes.second_pass_steps));
    PetscCall(progress.Done("done: %d steps, %d states", (int)rep->passes.second_pass_steps, (int)n));
    rep->second_pass_identical = true; // SecondPass fails otherwise
  } else {
    PetscCall(st->Append(n, &start));
    for (PetscInt i = 0; i < n; ++i) st->values[start + i] = first.found[i].value;
  }
  CrashPhase phase("Kramers partners of the second pass's states");
  for (PetscInt i = 0; i < n; ++i) PetscCall(AddKramersPartner(r, opts, start + i, scale, st, &rep->passes));
  PetscFunctionReturn(0);
}

// The states of the passes after the first: from the checkpoint when it holds them, else computed (and saved there).
PetscErrorCode StatesAfterTheFirstPass(Recurrence &r, const LanczosOptions &opts, const PassSpec &spec,
                                       const PassResult &first, StateColumns *st, LanczosReport *rep) {
  const auto save = [&]() -> PetscErrorCode {
    PetscFunctionBeginUser;
    if (!spec.checkpointed || !st->vectors() || !first.converged)
      PetscFunctionReturn(0); // states only of a converged
                              // first pass
    PetscCall(SaveCheckpointStates(r, opts, first.alpha, first.beta, rep->passes, st));
    SetCrashNote("the checkpoint " + opts.checkpoint +
                 " holds the states of the passes finished: run the same command again to continue from it");
    const PetscInt k = rep->passes.multiplicity_passes;
    if (RestartedPassDue(opts, first, *st, rep->passes)) // else the run is all but done: it finishes
      PetscCall(
          StopIfAsked(r, spec, k ? "after restarted pass " + std::to_string(k) : std::string("after the second pass")));
    PetscFunctionReturn(0);
  };
  PetscFunctionBeginUser;
  if (first.LoadedStage() == CheckpointStage::States) {
    PetscCall(LoadCheckpointStates(r.comm, *first.loaded, &rep->passes, st));
    rep->second_pass_identical = true;
    rep->resumed_states = true;
  } else {
    PetscCall(FirstPassStates(r, opts, spec, first, st, rep));
    PetscCall(save());
  }
  PetscCall(MultiplicityPasses(r, opts, spec, first, st, &rep->passes, save));
  PetscFunctionReturn(0);
}

// In nev mode whole levels: those nearest the gap centre until nev states are reached on each side (a restarted pass
// may have completed a level beyond them).
PetscErrorCode KeepWholeLevels(const LanczosOptions &opts, double level_tol, StateColumns *st) {
  std::vector<PetscInt> below, above;
  std::vector<bool> keep(st->count(), false);
  PetscFunctionBeginUser;
  std::vector<PetscInt> order(st->count());
  for (PetscInt i = 0; i < st->count(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](PetscInt a, PetscInt b) { return st->values[a] < st->values[b]; });
  for (PetscInt i : order) (st->values[i] < opts.gap_center - opts.centre ? below : above).push_back(i);
  auto take = [&](auto begin, auto end, PetscInt nev) {
    PetscInt count = 0;
    double level = 0;
    for (auto it = begin; it != end; ++it) {
      const double v = st->values[*it];
      if (count >= nev && std::fabs(v - level) > level_tol) break;
      if (count == 0 || std::fabs(v - level) > level_tol) level = v;
      keep[*it] = true;
      ++count;
    }
  };
  take(below.rbegin(), below.rend(), opts.nev_valence);
  take(above.begin(), above.end(), opts.nev_conduction);
  PetscCall(st->Keep(keep));
  PetscFunctionReturn(0);
}

PetscErrorCode FillReport(const Recurrence &r, const PassResult &first, LanczosReport *rep) {
  PetscFunctionBeginUser;
  rep->steps = (PetscInt)first.alpha.size();
  rep->spurious = first.chk.spurious;
  rep->copies = first.chk.copies;
  rep->converged = first.converged;
  rep->resumed_from = first.resumed_from;
  rep->invariant = first.invariant;
  rep->alpha = first.alpha;
  rep->beta = first.beta;
  rep->unconverged.clear();
  rep->unconverged_errors.clear();
  for (const Level &l : first.unconverged) {
    rep->unconverged.push_back(l.value);
    rep->unconverged_errors.push_back(l.error);
  }
  rep->products = r.cnt.products;
  rep->reductions = r.cnt.reductions;
  rep->recomputed_betas = r.cnt.recomputed;
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode LanczosSolve(Mat H, const LanczosOptions &opts, StateColumns *st, LanczosReport *report) {
  const LogEvents *ev;
  Wanted want;
  Recurrence r;
  PassSpec spec;
  PassResult first;
  LanczosReport rep;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(WantedOf(H, opts, &want));
  PetscCall(PetscLogEventBegin(ev->solve, 0, 0, 0, 0));
  PetscCall(r.Create(H, opts.centre));
  spec.opts = &opts;
  spec.seed = opts.seed;
  spec.want = want;
  spec.max_steps = opts.max_steps;
  spec.checkpointed = !opts.checkpoint.empty();
  if (opts.monitor) spec.monitor = [&](PetscInt step, const Check &chk) { return opts.monitor(spec.label, step, chk); };
  SetCrashNote(""); // until a checkpoint is written
  {
    Progress progress("Lanczos first pass");
    CrashPhase phase("Lanczos first pass");
    spec.progress = &progress;
    PetscCall(FirstPass(r, spec, &first));
    PetscCall(progress.Done("done: %d steps, %d levels converged%s", (int)first.alpha.size(), (int)first.found.size(),
                            first.converged ? "" : " (not all wanted)"));
    spec.progress = nullptr;
  }
  PetscCall(CheckEnoughLevels(r.comm, opts, want, first));
  PetscCall(StatesAfterTheFirstPass(r, opts, spec, first, st, &rep));
  const double level_tol = 100 * LevelResolution(opts.tol, first.chk.scale);
  if (!opts.window_set && rep.passes.extra_states > 0) PetscCall(KeepWholeLevels(opts, level_tol, st));
  PetscCall(FillReport(r, first, &rep));
  rep.vectors = opts.vectors;
  rep.kramers = opts.kramers_block > 0;
  PetscCall(r.Destroy());
  PetscCall(PetscLogEventEnd(ev->solve, 0, 0, 0, 0));
  SetCrashNote("");
  *report = std::move(rep);
  PetscCheck(!opts.window_set || !report->converged || st->count() > 0, PetscObjectComm((PetscObject)H),
             PETSC_ERR_USER_INPUT, "%seps_interval [%g, %g] eV contains no eigenvalue of H", opts.option_prefix.c_str(),
             opts.window[0], opts.window[1]);
  PetscFunctionReturn(0);
}

std::string LanczosDescription(const LanczosReport &rep) {
  std::string s = "nemo: Lanczos (NEMO 3-D style, 3 vectors, no reorthogonalisation";
  char buf[200];
  const StatesRecord &p = rep.passes;
  if (rep.kramers)
    s += p.partners_dropped ? ", Kramers partners dropped: H not time-reversal symmetric"
                            : ", Kramers pairs by time reversal";
  if (p.multiplicity_passes) {
    std::snprintf(buf, sizeof buf, ", %d restarted pass%s for multiplicity (%d more states)%s",
                  (int)p.multiplicity_passes, p.multiplicity_passes > 1 ? "es" : "", (int)p.extra_states,
                  p.multiplicity_complete ? ""
                                          : ", multiplicity may be incomplete: raise -eps_nemo_multiplicity_passes");
    s += buf;
  }
  s += ")";
  if (!rep.converged) {
    std::snprintf(buf, sizeof buf, "; not converged within %d steps: %d wanted levels unconverged", (int)rep.steps,
                  (int)rep.unconverged.size());
    s += buf;
  }
  if (rep.invariant) s += "; invariant subspace reached";
  return s;
}

} // namespace tbpeta::lanczos
