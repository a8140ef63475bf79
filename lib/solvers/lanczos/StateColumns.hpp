#pragma once
// The eigenvector store of the Lanczos solver: the leading columns of a SLEPc BV (the EPS's, sized for the states
// asked for), and one Vec of their own for each state beyond them, so that more states (a restarted pass's candidates
// and new directions) never copy the store: the solver holds 3 vectors + the states and nothing else.
#include <slepcbv.h>

#include <utility>
#include <vector>

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
  BV bv() const { return V_; }
  // Appends k states (zero columns, values and residuals 0); *first: the first of them. Collective.
  PetscErrorCode Append(PetscInt k, PetscInt *first);
  // Drops the last state (and frees its own Vec). Not collective.
  PetscErrorCode DropLast();
  // Drops the states whose keep[] is false, moving the others to the front in order; the Vecs of columns no longer
  // used are freed. Collective.
  PetscErrorCode Keep(const std::vector<bool> &keep);
  // Columns [a, b) of the ranges, all at once: c = X^H v and v -= X c (twice, classical Gram-Schmidt); *norm: what is
  // left of v. Three reductions. Collective.
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
  // The local arrays of columns cols (read only) until RestoreColumns.
  PetscErrorCode ReadColumns(const std::vector<PetscInt> &cols, const PetscScalar **x);
  PetscErrorCode RestoreColumns(const std::vector<PetscInt> &cols, const PetscScalar **x);
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

} // namespace tbpeta::lanczos
