#pragma once
// The eigenvector store of the Lanczos solver. Each state is either stored, in a slot of its own (a column of the
// EPS's BV, sized for the states asked for, or a Vec of its own beyond it), or the Kramers partner of a stored state,
// Θx, which holds no vector: it is formed when it is read, and in place where the projections need it. So a Kramers
// pair costs one vector, and the solver holds 3 vectors + the stored states and nothing else. At the end the states
// move into the EPS's columns [0, count()), the partners formed there.
#include <slepcbv.h>

#include <utility>
#include <vector>

namespace tbpeta::lanczos {

// The states found so far: their values and residuals and, with vectors, their slots. Not copyable: it destroys the
// Vecs it made.
class StateColumns {
public:
  // kramers_block: rows per atom of the time reversal Θ (0: no partners).
  StateColumns(BV V, bool vectors, PetscInt kramers_block = 0) : V_(V), vectors_(vectors), kb_(kramers_block) {}
  ~StateColumns();
  StateColumns(const StateColumns &) = delete;
  StateColumns &operator=(const StateColumns &) = delete;
  PetscInt count() const { return (PetscInt)values.size(); }
  bool vectors() const { return vectors_; }
  BV bv() const { return V_; }
  // Whether state j is the Kramers partner of another (no vector of its own).
  bool IsPartner(PetscInt j) const { return partner_[j] >= 0; }
  // Stored states: the vectors held.
  PetscInt Stored() const;
  // Appends k stored states (zero vectors, values and residuals 0); *first: the first of them. Collective.
  PetscErrorCode Append(PetscInt k, PetscInt *first);
  // Appends the Kramers partner of stored state j (its value, residual 0); *k: its index. Not collective.
  PetscErrorCode AppendPartner(PetscInt j, PetscInt *k);
  // Appends state x (a copy): as the partner of an earlier stored state when it is Θ of it bit for bit (as a saved
  // partner is), else stored. Collective.
  PetscErrorCode AppendCopy(Vec x, double value, double residual);
  // Drops the last state (and frees its own Vec). Not collective.
  PetscErrorCode DropLast();
  // Drops the states whose keep[] is false; the others keep their order and slots (a kept partner of a dropped state
  // takes over its slot, Θ applied in place). Not collective.
  PetscErrorCode Keep(const std::vector<bool> &keep);
  // The states of the ranges [a, b), all at once: c = X^H v and v -= X c (twice, classical Gram-Schmidt); *norm:
  // what is left of v. Three reductions. Collective.
  PetscErrorCode Orthogonalise(Vec v, const std::vector<std::pair<PetscInt, PetscInt>> &ranges, PetscReal *norm);
  // Stored states first + i += sum_l c[i * vs.size() + l] vs[l] (real coefficients, as those of Ritz vectors of the
  // real T) in one sweep over the local rows: several Lanczos vectors at a time, so the vectors are read and written
  // once per batch of steps. Collective (no communication).
  PetscErrorCode Accumulate(PetscInt first, const std::vector<double> &c, const std::vector<Vec> &vs);
  // State j as a Vec until RestoreColumn: a stored state's own (at most two BV columns at a time: BVGetColumn's
  // limit), a partner's formed in a new Vec (read only). Not collective.
  PetscErrorCode GetColumn(PetscInt j, Vec *x);
  PetscErrorCode RestoreColumn(PetscInt j, Vec *x);
  // Every state into the BV's columns [0, count()), the BV grown when it must; the own Vecs freed as they are moved,
  // the partners formed in their columns. Collective.
  PetscErrorCode MoveIntoBV();
  std::vector<double> values, residuals;

private:
  PetscInt bvColumns() const;
  PetscErrorCode NewSlot(PetscInt *slot);
  PetscErrorCode FreeSlot(PetscInt slot);
  PetscErrorCode GetSlot(PetscInt slot, Vec *x);
  PetscErrorCode RestoreSlot(PetscInt slot, Vec *x);
  // The local arrays of slots (read only) until RestoreSlots.
  PetscErrorCode ReadSlots(const std::vector<PetscInt> &slots, const PetscScalar **x);
  PetscErrorCode RestoreSlots(const std::vector<PetscInt> &slots, const PetscScalar **x);
  PetscErrorCode MoveStored(PetscInt m0, std::vector<Vec> &own);
  BV V_;
  bool vectors_;
  PetscInt kb_;
  std::vector<PetscInt> slot_;    // per state: its slot (-1: a partner, or no vectors)
  std::vector<PetscInt> partner_; // per state: the stored state it is the partner of (-1: stored)
  std::vector<bool> bv_used_;     // per BV column: a slot in use
  std::vector<Vec> own_;          // slot bvColumns() + i (null: free)
};

// y = Θx, time reversal per atom of kb rows: (Θx)_up = -conj(x_down), (Θx)_down = conj(x_up).
PetscErrorCode KramersPartner(Vec x, Vec y, PetscInt kb);

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
