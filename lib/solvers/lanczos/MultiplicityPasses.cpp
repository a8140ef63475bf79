#include "solvers/lanczos/MultiplicityPasses.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "support/CounterHash.hpp"

namespace tbpeta::lanczos {

namespace {

// A level of a restarted pass is a new direction when the start vector's squared weight in it is at least this / N
// (a random start has about 1/N per direction; below 1e-6 / N with probability 1e-6; measured: above 1e-3 against
// below 1e-23 for a level found before, at N = 160..640).
constexpr double kNewDirectionWeight = 1e-6;

// With independent starts, a level is a new direction when at least this fraction of the start vector's weight in it
// lies outside the states found there. A random start in a level of d directions of which k are known leaves a
// fraction distributed as Beta(d - k, k) (for a fourfold Kramers level half known, Beta(2, 2)): below 1e-3 with
// probability 3e-6; a level found whole leaves only the eigenvectors' errors, about (residual / gap)^2.
constexpr double kNewFraction = 1e-3;

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

// The converged levels of a pass that its start vector reached.
PetscErrorCode NewDirections(const PassResult &pass, double near, PetscInt N, std::vector<Level> *fresh) {
  PetscFunctionBeginUser;
  fresh->clear();
  for (const Level &l : pass.found) {
    double weight;
    PetscCall(StartWeight(pass.alpha, pass.beta, (int)pass.alpha.size(), l.value, near, &weight));
    if (weight >= kNewDirectionWeight / (double)N) fresh->push_back(l);
  }
  PetscFunctionReturn(0);
}

// The converged levels of an independent pass (start vector seed, not deflated) that the states found so far do not
// account for: b's weight in the level from T against sum |<x, b>|^2 over the states x of that level.
PetscErrorCode NewDirectionsBeyondStates(Recurrence &r, const PassResult &pass, unsigned long long seed, double near, double level_tol, StateColumns *st, std::vector<Level> *fresh) {
  std::vector<PetscScalar> c;
  PetscFunctionBeginUser;
  fresh->clear();
  PetscCall(StartVector(r, seed));
  PetscCall(st->Dots(r.v, &c));
  ++r.cnt.reductions;
  for (const Level &l : pass.found) {
    double weight, known = 0;
    PetscCall(StartWeight(pass.alpha, pass.beta, (int)pass.alpha.size(), l.value, near, &weight));
    for (PetscInt j = 0; j < st->count(); ++j)
      if (std::fabs(st->values[j] - l.value) <= level_tol) known += PetscRealPart(c[j] * PetscConj(c[j]));
    if (weight > 0 && known < (1 - kNewFraction) * weight) fresh->push_back(l);
  }
  PetscFunctionReturn(0);
}

// The candidates at columns [first, first + n) of a pass's second run: each orthogonalised (in r.vprev, free between
// passes) against the states accepted so far, kept when at least min_left of it remains (deflated starts: half;
// independent starts: sqrt(kNewFraction)) and its residual is small, with its Kramers partner (appended after the
// candidates); the kept ones are then moved to the front. *added: states kept; grown: the values of the kept ones.
PetscErrorCode AcceptCandidates(Recurrence &r, const LanczosOptions &opts, PetscInt first, PetscInt n, double scale, double min_left, StateColumns *st, LanczosReport *rep, int *added,
                                std::vector<double> *grown) {
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
    if (left >= min_left) {
      PetscCall(VecScale(r.vprev, 1.0 / left));
      PetscCall(Residual(r, r.vprev, value, &res));
    }
    if (left < min_left || res > std::max(100 * cres, 1e-6 * scale)) continue; // not new after all (kept as a safeguard)
    {
      Column x(*st, accepted);
      PetscCall(x.error());
      PetscCall(VecCopy(r.vprev, x.vec()));
    }
    st->values[accepted] = value, st->residuals[accepted] = res;
    ++*added;
    grown->push_back(value);
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

// The spec of restarted pass p: deflated (orthogonal to the states, the window [lo, hi] of their levels, a fixed
// 1.25 times the first pass's steps) or independent (what the first pass asked, until converged).
PassSpec RestartedSpec(const LanczosOptions &opts, const PassSpec &first_spec, const PassResult &first, PetscInt p, double lo, double hi, StateColumns *st, const char *label) {
  const PetscInt steps = (PetscInt)first.alpha.size();
  const double level_tol = 100 * std::max(kLanczosCopyTolerance, opts.tol) * first.chk.scale;
  PassSpec sp = first_spec;
  sp.label = label;
  sp.seed = MixBits(opts.seed + 0x5bd1e995ULL * (unsigned long long)p) >> 33; // another start vector, reproducible
  sp.checkpoint.clear();
  if (opts.independent_starts) return sp;
  sp.deflate = st;
  sp.want.window_set = true, sp.want.window[0] = lo - 10 * level_tol, sp.want.window[1] = hi + 10 * level_tol;
  // A further vector of a level has the weight of a random start in its eigenspace, like the first pass's: it
  // converges in about as many steps.
  sp.min_steps = sp.max_steps = steps + std::max(opts.check_every, steps / 4);
  return sp;
}

// One restarted pass p; *added: the states it added; grown: the values of the levels it added to.
PetscErrorCode RestartedPass(Recurrence &r, const LanczosOptions &opts, const PassSpec &first_spec, const PassResult &first, PetscInt p, double lo, double hi, StateColumns *st,
                             LanczosReport *rep, int *added, std::vector<double> *grown) {
  PetscInt N, start, steps2;
  char label[64];
  PassResult pass;
  std::vector<Level> fresh;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(r.H, &N, nullptr));
  const double scale = first.chk.scale, near = std::max(kLanczosCopyTolerance, opts.tol) * scale * 10;
  std::snprintf(label, sizeof label, "lanczos multiplicity pass %d", (int)p);
  Progress progress(label);
  PassSpec sp = RestartedSpec(opts, first_spec, first, p, lo, hi, st, label);
  sp.progress = &progress;
  PetscCall(FirstPass(r, sp, &pass));
  rep->multiplicity_steps += (PetscInt)pass.alpha.size();
  if (opts.independent_starts) PetscCall(NewDirectionsBeyondStates(r, pass, sp.seed, near, 10 * near, st, &fresh));
  else PetscCall(NewDirections(pass, near, N, &fresh));
  PetscCall(progress.Done("search done: %d steps, %d converged levels %s, new directions at %s", (int)pass.alpha.size(), (int)pass.found.size(), opts.independent_starts ? "wanted" : "in the window",
                          LevelList(fresh, r.centre).c_str()));
  *added = 0;
  grown->clear();
  if (fresh.empty()) PetscFunctionReturn(0);
  pass.found = fresh;
  PetscCall(SecondPass(r, sp, pass, st, &start, &steps2));
  rep->multiplicity_steps += steps2;
  PetscCall(AcceptCandidates(r, opts, start, (PetscInt)fresh.size(), scale, opts.independent_starts ? std::sqrt(kNewFraction) : 0.5, st, rep, added, grown));
  PetscCall(progress.Done("vectors done: %d steps, %d states added (%d in all)", (int)steps2, *added, (int)st->count()));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode AddKramersPartner(Recurrence &r, const LanczosOptions &opts, PetscInt j, double scale, StateColumns *st, LanczosReport *report) {
  PetscInt k;
  double res;
  PetscFunctionBeginUser;
  if (!opts.kramers_block) PetscFunctionReturn(0);
  const double value = st->values[j], residual = st->residuals[j];
  PetscCall(st->Append(1, &k));
  st->values[k] = value;
  if (!st->vectors()) PetscFunctionReturn(0);
  {
    Column x(*st, j), y(*st, k);
    PetscCall(x.error());
    PetscCall(y.error());
    PetscCall(KramersPartner(x.vec(), y.vec(), opts.kramers_block));
    PetscCall(Residual(r, y.vec(), value, &res));
  }
  st->residuals[k] = res;
  if (res <= std::max(100 * residual, 1e-6 * scale)) PetscFunctionReturn(0);
  PetscCall(st->DropLast());
  ++report->partners_dropped;
  PetscFunctionReturn(0);
}

namespace {

// With independent starts, whether every level of `grown` now holds opts.multiplicity_max states (the default: 4 with
// Kramers pairs, 3 without, the largest irreducible representations of a crystal's double and single point groups),
// so that no further pass can add to it but for an accidental degeneracy.
bool LevelsAtMost(const LanczosOptions &opts, const std::vector<double> &grown, double level_tol, const StateColumns &st) {
  const PetscInt most = opts.multiplicity_max < 0 ? (opts.kramers_block ? 4 : 3) : opts.multiplicity_max;
  if (!opts.independent_starts || most == 0) return false;
  for (double level : grown)
    if (std::count_if(st.values.begin(), st.values.end(), [&](double v) { return std::fabs(v - level) <= level_tol; }) < most) return false;
  return true;
}

} // namespace

PetscErrorCode MultiplicityPasses(Recurrence &r, const LanczosOptions &opts, const PassSpec &first_spec, const PassResult &first, StateColumns *st, LanczosReport *report) {
  std::vector<double> grown;
  PetscFunctionBeginUser;
  if (!st->vectors() || st->count() == 0 || opts.multiplicity_passes <= 0 || first.invariant || !first.converged) PetscFunctionReturn(0);
  const auto [lo, hi] = std::minmax_element(st->values.begin(), st->values.end());
  const double low = *lo, high = *hi, level_tol = 100 * std::max(kLanczosCopyTolerance, opts.tol) * first.chk.scale;
  for (PetscInt p = 1; p <= opts.multiplicity_passes; ++p) {
    int added;
    PetscCall(RestartedPass(r, opts, first_spec, first, p, low, high, st, report, &added, &grown));
    report->multiplicity_passes = p;
    report->extra_states += added;
    if (!added || LevelsAtMost(opts, grown, level_tol, *st)) break;
    if (p == opts.multiplicity_passes) report->multiplicity_complete = false;
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos
