#pragma once
// The passes of the Lanczos solver over one Recurrence.
//  - First pass: the recurrence with a check of T every `check_every` steps, until every wanted level has converged
//    and the wanted list is the same at two consecutive checks (never before min_steps), or max_steps; optionally
//    checkpointed (LanczosCheckpoint).
//  - Second pass: the recurrence again from the same start vector, accumulating x_i = sum_j s_ij v_j for the found
//    values only (s_i: the eigenvector of T at the check where value i first converged, before copies of it
//    appear), into columns of the eigenvector store; it must reproduce the first pass bit for bit.
// The eigenvectors live in StateColumns: the leading columns of a SLEPc BV (the EPS's, sized for the states asked
// for), and one Vec of their own for each state beyond them, so that more states (a restarted pass's candidates and
// new directions) never copy the store: the solver holds 3 vectors + the states and nothing else.
#include <slepcbv.h>

#include <functional>
#include <string>
#include <vector>

#include "solvers/lanczos/LanczosRecurrence.hpp"
#include "solvers/lanczos/TridiagonalAnalysis.hpp"
#include "support/Progress.hpp"

namespace tbpeta::lanczos {

// The states found so far: their values and residuals and, with vectors, their columns [0, count()): column j is the
// BV's column j while j < the BV's size, and a Vec of its own beyond. Not copyable: it destroys the Vecs it made.
class StateColumns {
public:
  StateColumns(BV V, bool vectors) : V_(V), vectors_(vectors) {}
  ~StateColumns();
  StateColumns(const StateColumns &) = delete;
  StateColumns &operator=(const StateColumns &) = delete;
  PetscInt count() const { return (PetscInt)values.size(); }
  bool vectors() const { return vectors_; }
  // Appends k states (zero columns, values and residuals 0); *first: the first of them. Collective.
  PetscErrorCode Append(PetscInt k, PetscInt *first);
  // Drops the last state (and frees its own Vec). Not collective.
  PetscErrorCode DropLast();
  // Drops the states whose keep[] is false, moving the others to the front in order; the Vecs of columns no longer
  // used are freed. Collective.
  PetscErrorCode Keep(const std::vector<bool> &keep);
  // Columns [a, b) of each range: c = X^H v and v -= X c (twice, classical Gram-Schmidt); *norm: what is left of v.
  // Collective.
  PetscErrorCode Orthogonalise(Vec v, const std::vector<std::pair<PetscInt, PetscInt>> &ranges, PetscReal *norm);
  // Columns first + i += sum_l c[i * vs.size() + l] vs[l] (real coefficients, as those of Ritz vectors of the real T)
  // in one sweep over the local rows: several Lanczos vectors at a time, so the columns are read and written once per
  // batch of steps. Collective (no communication).
  PetscErrorCode Accumulate(PetscInt first, const std::vector<double> &c, const std::vector<Vec> &vs);
  // Column j as a Vec until RestoreColumn (at most two BV columns at a time: BVGetColumn's limit). Not collective.
  PetscErrorCode GetColumn(PetscInt j, Vec *x);
  PetscErrorCode RestoreColumn(PetscInt j, Vec *x);
  // Every state into the BV's columns [0, count()), the BV grown when it must; the own Vecs freed one by one as they
  // are copied. Collective.
  PetscErrorCode MoveIntoBV();
  std::vector<double> values, residuals;

private:
  PetscInt bvColumns() const;
  BV V_;
  bool vectors_;
  std::vector<Vec> own_; // columns bvColumns() + i
};

// A column of the store as a Vec while the scope lives.
class Column {
public:
  Column(StateColumns &st, PetscInt j) : st_(st), j_(j) { error_ = st_.GetColumn(j_, &x_); }
  ~Column() {
    if (!error_) (void)st_.RestoreColumn(j_, &x_);
  }
  Column(const Column &) = delete;
  Column &operator=(const Column &) = delete;
  PetscErrorCode error() const { return error_; }
  Vec vec() const { return x_; }

private:
  StateColumns &st_;
  PetscInt j_;
  Vec x_ = nullptr;
  PetscErrorCode error_;
};

struct Record {
  double value;
  int step; // first check at which the value had converged
};

// The vectors a second pass holds beyond the recurrence's three to add `ritz_batch` Lanczos vectors per sweep: the
// batch's last two are the recurrence's v and v_{j-1}.
inline PetscInt SecondPassWindow(PetscInt ritz_batch) { return ritz_batch > 2 ? ritz_batch - 2 : 0; }

// One pass: its start vector (seeded, orthogonal to the states of `deflate`), what it wants and how long it runs.
struct PassSpec {
  unsigned long long seed = 1;
  StateColumns *deflate = nullptr;
  Wanted want;
  PetscInt min_steps = 0, max_steps = 0, check_every = 1;
  double tol = 1e-10;
  const char *label = "lanczos";
  std::string checkpoint;             // the first pass only (empty: none)
  std::string option_prefix = "-";    // of the options named in messages ("-" + the EPS's prefix)
  PetscInt checkpoint_every = 1000;
  PetscInt ritz_batch = 4;            // the second pass: Lanczos vectors added to the eigenvectors per sweep (SecondPassWindow)
  std::function<PetscErrorCode(PetscInt, const Check &)> monitor; // at each check (may be empty)
  Progress *progress = nullptr;                                    // progress lines of a long pass (may be null)
};

struct PassResult {
  std::vector<double> alpha, beta{0.0};
  std::vector<Record> records;
  Check chk;
  bool converged = false, invariant = false;
  std::vector<Level> found, unconverged;
  PetscInt resumed_from = 0;
  bool loaded_done = false; // the checkpoint was written when the first pass had stopped converged
};

PetscErrorCode FirstPass(Recurrence &r, const PassSpec &spec, PassResult *res);

// Accumulates the vectors of res.found into new columns [*first, *first + found) of `store` (values set, residuals
// computed); *steps: the steps repeated; PETSC_ERR_PLIB when the recurrence does not reproduce the first pass.
PetscErrorCode SecondPass(Recurrence &r, const PassSpec &spec, const PassResult &res, StateColumns *store, PetscInt *first, PetscInt *steps);

} // namespace tbpeta::lanczos
