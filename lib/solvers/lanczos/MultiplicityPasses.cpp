#include "solvers/lanczos/MultiplicityPasses.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "support/CounterHash.hpp"
#include "support/CrashReport.hpp"

namespace tbpeta::lanczos {

namespace {

// "0.17539769, 0.81329893 eV" (the recurrence's values + its centre) for a progress line.
std::string LevelList(const std::vector<Level> &levels, double centre) {
  std::string s;
  char v[32];
  for (const Level &l : levels) {
    std::snprintf(v, sizeof v, "%s%.8f", s.empty() ? "" : ", ", l.value + centre);
    s += v;
  }
  return s.empty() ? "none" : s + " eV";
}

// The converged levels of a pass that its (deflated) start vector reached: the new directions.
PetscErrorCode NewDirections(const PassResult &pass, double near, PetscInt N, std::vector<Level> *fresh) {
  PetscFunctionBeginUser;
  fresh->clear();
  for (const Level &l : pass.found) {
    double weight;
    PetscCall(StartWeight(pass.alpha, pass.beta, (int)pass.alpha.size(), l.value, near, &weight));
    if (weight >= kStartWeightFloor / (double)N) fresh->push_back(l);
  }
  PetscFunctionReturn(0);
}

// The candidates at columns [first, first + n) of a pass's second run: each orthogonalised (in r.vprev, free between
// passes) against the states accepted so far, kept when at least half of it remains and its residual is small, with
// its Kramers partner (appended after the candidates); the kept ones are then moved to the front. *added: states kept.
PetscErrorCode AcceptCandidates(Recurrence &r, const LanczosOptions &opts, PetscInt first, PetscInt n, double scale,
                                StateColumns *st, StatesRecord *rep, int *added) {
  PetscInt accepted = first;
  const PetscInt tail = first + n;
  PetscFunctionBeginUser;
  *added = 0;
  for (PetscInt i = 0; i < n; ++i) {
    const PetscInt col = first + i;
    const double value = st->values[col], cres = st->residuals[col];
    {
      Column x(*st, col);
      PetscCall(x.error());
      PetscCall(VecCopy(x.vec(), r.vprev));
    }
    PetscReal left;
    double res = 0;
    PetscCall(st->Orthogonalise(r.vprev, {{0, accepted}, {tail, st->count()}}, &left));
    r.cnt.reductions += 3;
    if (left >= 0.5) {
      PetscCall(VecScale(r.vprev, 1.0 / left));
      PetscCall(Residual(r, r.vprev, value, &res));
    }
    if (left < 0.5 || res > std::max(100 * cres, 1e-6 * scale)) continue; // not new after all (kept as a safeguard)
    {
      Column x(*st, accepted);
      PetscCall(x.error());
      PetscCall(VecCopy(r.vprev, x.vec()));
    }
    st->values[accepted] = value;
    st->residuals[accepted] = res;
    ++*added;
    const PetscInt before = st->count();
    PetscCall(AddKramersPartner(r, opts, accepted, scale, st, rep));
    *added += (int)(st->count() - before);
    ++accepted;
  }
  std::vector<bool> keep(st->count(), false);
  for (PetscInt j = 0; j < st->count(); ++j) keep[j] = j < accepted || j >= tail;
  PetscCall(st->Keep(keep));
  PetscFunctionReturn(0);
}

// Whether a restarted pass has decided every level found so far, so that it may stop before its fixed length:
//  - at each level, either no direction the start vector reaches (squared weight >= kStartWeightFloor / N, what the
//    pass would accept) can lie there whatever the pass did next: the Christoffel function of T at the level (and
//    half and one level tolerance either side) is below that weight, and it bounds the start vector's weight in the
//    eigenspace there for ever; or the pass has converged a value there that the start vector reaches (a new
//    direction);
//  - and no value of T in the window that the start vector reaches is unconverged.
// Both at two consecutive checks, as the first pass's levels. A new direction that has grown copies (no start weight
// computed for it) decides nothing: the pass then runs to its cap.
class LevelsDecided {
public:
  LevelsDecided(std::vector<double> values, double level_tol, double rows, const PassResult &pass)
      : tol_(level_tol), log_floor_(std::log(kStartWeightFloor / rows)), pass_(pass) {
    std::sort(values.begin(), values.end());
    for (double v : values)
      if (levels_.empty() || v - levels_.back() > level_tol) levels_.push_back(v);
  }
  PetscErrorCode Check(const std::vector<double> &alpha, const std::vector<double> &beta, bool *stop) {
    const int m = (int)alpha.size();
    bool all = true;
    for (const Level &l : pass_.chk.wanted) all = all && (!l.reached || l.converged);
    for (size_t i = 0; all && i < levels_.size(); ++i) all = Bounded(alpha, beta, m, levels_[i]) || NewAt(levels_[i]);
    *stop = all && previous_;
    previous_ = all;
    return 0;
  }

private:
  bool Bounded(const std::vector<double> &alpha, const std::vector<double> &beta, int m, double level) const {
    for (double d : {-1.0, -0.5, 0.0, 0.5, 1.0})
      if (LogChristoffel(alpha, beta, m, level + d * tol_) >= log_floor_) return false;
    return true;
  }
  bool NewAt(double level) const {
    for (const Level &l : pass_.chk.wanted)
      if (l.reached && l.converged && std::fabs(l.value - level) <= tol_) return true;
    return false;
  }
  std::vector<double> levels_;
  double tol_, log_floor_;
  const PassResult &pass_;
  bool previous_ = false;
};

// One restarted pass p; *added: the states it added.
PetscErrorCode RestartedPass(Recurrence &r, const LanczosOptions &opts, const PassSpec &first_spec,
                             const PassResult &first, PetscInt p, StateColumns *st, StatesRecord *rep, int *added) {
  PetscInt N, start, steps2;
  char label[64];
  PassResult pass;
  std::vector<Level> fresh;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(r.H, &N, nullptr));
  const PetscInt steps = (PetscInt)first.alpha.size();
  const double scale = first.chk.scale, level_tol = 100 * LevelResolution(opts.tol, scale);
  PassSpec sp = first_spec;
  std::snprintf(label, sizeof label, "lanczos multiplicity pass %d", (int)p);
  sp.label = label;
  Progress progress(label);
  CrashPhase phase(label);
  sp.progress = &progress;
  sp.seed = MixBits(opts.seed + 0x5bd1e995ULL * (unsigned long long)p) >> 33; // another start vector, reproducible
  sp.deflate = st;
  sp.checkpointed = false;
  sp.want.window_set = true;
  sp.want.window[0] = rep->low - 10 * level_tol;
  sp.want.window[1] = rep->high + 10 * level_tol;
  // A further vector of a level has the weight of a random start in its eigenspace, like the first pass's: it
  // converges in about as many steps. That length is the cap; the pass stops earlier once LevelsDecided says so.
  sp.min_steps = sp.max_steps = steps + std::max(opts.check_every, steps / 4);
  LevelsDecided decided(st->values, level_tol, (double)N, pass);
  if (opts.multiplicity_bound)
    sp.enough = [&](const std::vector<double> &a, const std::vector<double> &b, bool *stop) {
      return decided.Check(a, b, stop);
    };
  PetscCall(FirstPass(r, sp, &pass));
  rep->multiplicity_steps += (PetscInt)pass.alpha.size();
  PetscCall(NewDirections(pass, 10 * LevelResolution(opts.tol, scale), N, &fresh));
  PetscCall(progress.Done("search done: %d steps, %d converged levels in the window, new directions at %s",
                          (int)pass.alpha.size(), (int)pass.found.size(), LevelList(fresh, r.centre).c_str()));
  *added = 0;
  if (fresh.empty()) PetscFunctionReturn(0);
  pass.found = fresh;
  PetscCall(SecondPass(r, sp, pass, st, &start, &steps2));
  rep->multiplicity_steps += steps2;
  PetscCall(AcceptCandidates(r, opts, start, (PetscInt)fresh.size(), scale, st, rep, added));
  PetscCall(
      progress.Done("vectors done: %d steps, %d states added (%d in all)", (int)steps2, *added, (int)st->count()));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode AddKramersPartner(Recurrence &r, const LanczosOptions &opts, PetscInt j, double scale, StateColumns *st,
                                 StatesRecord *report) {
  PetscInt k;
  double res;
  PetscFunctionBeginUser;
  if (!opts.kramers_block) PetscFunctionReturn(0);
  const double value = st->values[j], residual = st->residuals[j];
  PetscCall(st->AppendPartner(j, &k));
  if (!st->vectors()) PetscFunctionReturn(0);
  {
    Column y(*st, k); // formed from state j: no vector of its own
    PetscCall(y.error());
    PetscCall(Residual(r, y.vec(), value, &res));
  }
  st->residuals[k] = res;
  if (res <= std::max(100 * residual, 1e-6 * scale)) PetscFunctionReturn(0);
  PetscCall(st->DropLast());
  ++report->partners_dropped;
  PetscFunctionReturn(0);
}

bool RestartedPassDue(const LanczosOptions &opts, const PassResult &first, const StateColumns &states,
                      const StatesRecord &record) {
  return states.vectors() && states.count() > 0 && first.converged && !first.invariant &&
         record.multiplicity_passes < opts.multiplicity_passes && !record.multiplicity_finished;
}

PetscErrorCode MultiplicityPasses(Recurrence &r, const LanczosOptions &opts, const PassSpec &first_spec,
                                  const PassResult &first, StateColumns *st, StatesRecord *record,
                                  const std::function<PetscErrorCode()> &after_pass) {
  PetscFunctionBeginUser;
  if (!RestartedPassDue(opts, first, *st, *record)) PetscFunctionReturn(0);
  if (record->multiplicity_passes == 0) { // the window of every pass: the levels of the second pass
    const auto [lo, hi] = std::minmax_element(st->values.begin(), st->values.end());
    record->low = *lo;
    record->high = *hi;
  }
  while (RestartedPassDue(opts, first, *st, *record)) {
    const PetscInt p = record->multiplicity_passes + 1;
    int added;
    PetscCall(RestartedPass(r, opts, first_spec, first, p, st, record, &added));
    record->multiplicity_passes = p;
    record->extra_states += added;
    record->multiplicity_finished = added == 0;
    record->multiplicity_complete = added == 0 || p < opts.multiplicity_passes;
    PetscCall(after_pass());
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos
