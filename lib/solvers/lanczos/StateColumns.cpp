#include "solvers/lanczos/StateColumns.hpp"

#include <algorithm>
#include <cmath>

namespace tbpeta::lanczos {

namespace {

constexpr PetscInt kRowBlock = 512; // complex rows per block: the blocks of v and of the columns stay in cache

// A column of a projection: a stored state's array, or a partner's, Θ of its stored state's array.
struct Operand {
  const PetscScalar *x;
  bool theta;
};

// (Θx)_i for row i, from x: per atom of kb rows, -conj(x_down) for an up row, conj(x_up) for a down row.
inline PetscScalar Theta(const PetscScalar *x, PetscInt i, PetscInt kb) {
  const PetscInt half = kb / 2, o = i % kb;
  return o < half ? -PetscConj(x[i + half]) : PetscConj(x[i - half]);
}

// c[k] = sum_i conj(x_k[i]) v[i] over the n local rows, block by block.
void ColumnDots(PetscInt n, PetscInt kb, const std::vector<Operand> &x, const PetscScalar *v, PetscScalar *c) {
  for (size_t k = 0; k < x.size(); ++k) c[k] = 0;
  for (PetscInt r0 = 0; r0 < n; r0 += kRowBlock) {
    const PetscInt r1 = std::min(n, r0 + kRowBlock);
    for (size_t k = 0; k < x.size(); ++k) {
      PetscScalar s = 0;
      const PetscScalar *xk = x[k].x;
      if (x[k].theta)
        for (PetscInt i = r0; i < r1; ++i) s += PetscConj(Theta(xk, i, kb)) * v[i];
      else
        for (PetscInt i = r0; i < r1; ++i) s += PetscConj(xk[i]) * v[i];
      c[k] += s;
    }
  }
}

// v[i] -= sum_k c[k] x_k[i], block by block.
void SubtractColumns(PetscInt n, PetscInt kb, const std::vector<Operand> &x, const PetscScalar *c, PetscScalar *v) {
  for (PetscInt r0 = 0; r0 < n; r0 += kRowBlock) {
    const PetscInt r1 = std::min(n, r0 + kRowBlock);
    for (size_t k = 0; k < x.size(); ++k) {
      const PetscScalar *xk = x[k].x;
      if (x[k].theta)
        for (PetscInt i = r0; i < r1; ++i) v[i] -= c[k] * Theta(xk, i, kb);
      else
        for (PetscInt i = r0; i < r1; ++i) v[i] -= c[k] * xk[i];
    }
  }
}

// x = Θx in place.
PetscErrorCode ThetaInPlace(Vec x, PetscInt kb) {
  PetscScalar *p;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArray(x, &p));
  const PetscInt half = kb / 2;
  for (PetscInt a = 0; a < n; a += kb)
    for (PetscInt o = 0; o < half; ++o) {
      const PetscScalar up = p[a + o];
      p[a + o] = -PetscConj(p[a + half + o]);
      p[a + half + o] = PetscConj(up);
    }
  PetscCall(VecRestoreArray(x, &p));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode KramersPartner(Vec x, Vec y, PetscInt kb) {
  const PetscScalar *px;
  PetscScalar *py;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &px));
  PetscCall(VecGetArray(y, &py));
  for (PetscInt i = 0; i < n; ++i) py[i] = Theta(px, i, kb);
  PetscCall(VecRestoreArray(y, &py));
  PetscCall(VecRestoreArrayRead(x, &px));
  PetscFunctionReturn(0);
}

StateColumns::~StateColumns() {
  for (Vec &x : own_) (void)VecDestroy(&x);
}

PetscInt StateColumns::bvColumns() const {
  PetscInt m = 0;
  if (vectors_) (void)BVGetSizes(V_, nullptr, nullptr, &m);
  return m;
}

PetscInt StateColumns::Stored() const {
  return (PetscInt)std::count_if(slot_.begin(), slot_.end(), [](PetscInt s) { return s >= 0; });
}

// The lowest free BV column, else an own Vec (a freed one's place first).
PetscErrorCode StateColumns::NewSlot(PetscInt *slot) {
  const PetscInt m = bvColumns();
  PetscFunctionBeginUser;
  bv_used_.resize((size_t)m, false);
  for (PetscInt s = 0; s < m; ++s)
    if (!bv_used_[s]) {
      bv_used_[s] = true;
      *slot = s;
      PetscFunctionReturn(0);
    }
  size_t k = 0;
  while (k < own_.size() && own_[k]) ++k;
  if (k == own_.size()) own_.push_back(nullptr);
  PetscCall(BVCreateVec(V_, &own_[k]));
  *slot = m + (PetscInt)k;
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::FreeSlot(PetscInt slot) {
  const PetscInt m = bvColumns();
  PetscFunctionBeginUser;
  if (slot < 0) PetscFunctionReturn(0);
  if (slot < m) bv_used_[slot] = false;
  else PetscCall(VecDestroy(&own_[slot - m]));
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::GetSlot(PetscInt slot, Vec *x) {
  const PetscInt m = bvColumns();
  PetscFunctionBeginUser;
  if (slot < m) PetscCall(BVGetColumn(V_, slot, x));
  else *x = own_[slot - m];
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::RestoreSlot(PetscInt slot, Vec *x) {
  PetscFunctionBeginUser;
  if (slot < bvColumns()) PetscCall(BVRestoreColumn(V_, slot, x));
  else *x = nullptr;
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::GetColumn(PetscInt j, Vec *x) {
  PetscFunctionBeginUser;
  if (!IsPartner(j)) PetscFunctionReturn(GetSlot(slot_[j], x));
  Vec p;
  const PetscInt s = slot_[partner_[j]];
  PetscCall(BVCreateVec(V_, x));
  PetscCall(GetSlot(s, &p));
  PetscCall(KramersPartner(p, *x, kb_));
  PetscCall(RestoreSlot(s, &p));
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::RestoreColumn(PetscInt j, Vec *x) {
  PetscFunctionBeginUser;
  if (IsPartner(j)) PetscCall(VecDestroy(x));
  else PetscCall(RestoreSlot(slot_[j], x));
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::Append(PetscInt k, PetscInt *first) {
  PetscFunctionBeginUser;
  *first = count();
  for (PetscInt j = *first; j < *first + k; ++j) {
    PetscInt s = -1;
    if (vectors_) {
      Vec x;
      PetscCall(NewSlot(&s));
      PetscCall(GetSlot(s, &x));
      PetscCall(VecSet(x, 0.0));
      PetscCall(RestoreSlot(s, &x));
    }
    slot_.push_back(s);
    partner_.push_back(-1);
    values.push_back(0);
    residuals.push_back(0);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::AppendPartner(PetscInt j, PetscInt *k) {
  PetscFunctionBeginUser;
  PetscCheck(kb_ > 0 && j >= 0 && j < count() && !IsPartner(j), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "Lanczos states: no Kramers partner of state %" PetscInt_FMT, j);
  *k = count();
  slot_.push_back(-1);
  partner_.push_back(j);
  values.push_back(values[j]);
  residuals.push_back(0);
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::AppendCopy(Vec x, double value, double residual) {
  PetscInt k;
  PetscFunctionBeginUser;
  for (PetscInt j = 0; kb_ > 0 && j < count(); ++j) {
    if (IsPartner(j) || values[j] != value) continue;
    const PetscScalar *px, *pj;
    Vec xj;
    PetscInt n;
    int same = 1;
    PetscCall(VecGetLocalSize(x, &n));
    PetscCall(GetSlot(slot_[j], &xj));
    PetscCall(VecGetArrayRead(x, &px));
    PetscCall(VecGetArrayRead(xj, &pj));
    for (PetscInt i = 0; i < n && same; ++i) same = px[i] == Theta(pj, i, kb_);
    PetscCall(VecRestoreArrayRead(xj, &pj));
    PetscCall(VecRestoreArrayRead(x, &px));
    PetscCall(RestoreSlot(slot_[j], &xj));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, PetscObjectComm((PetscObject)x)));
    if (!same) continue;
    PetscCall(AppendPartner(j, &k));
    residuals[k] = residual;
    PetscFunctionReturn(0);
  }
  PetscCall(Append(1, &k));
  values[k] = value;
  residuals[k] = residual;
  Vec y;
  PetscCall(GetSlot(slot_[k], &y));
  PetscCall(VecCopy(x, y));
  PetscCall(RestoreSlot(slot_[k], &y));
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::DropLast() {
  PetscFunctionBeginUser;
  if (count() == 0) PetscFunctionReturn(0);
  const PetscInt last = count() - 1;
  PetscCheck(std::find(partner_.begin(), partner_.end(), last) == partner_.end(), PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "Lanczos states: the last state has a partner");
  if (vectors_) PetscCall(FreeSlot(slot_[last]));
  slot_.pop_back();
  partner_.pop_back();
  values.pop_back();
  residuals.pop_back();
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::Keep(const std::vector<bool> &keep) {
  const PetscInt n = count();
  std::vector<PetscInt> index(n, -1);
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n; ++k) { // a kept partner of a dropped state becomes stored, in that state's slot
    const PetscInt j = partner_[k];
    if (!keep[k] || j < 0 || keep[j]) continue;
    if (vectors_) {
      Vec x;
      PetscCall(GetSlot(slot_[j], &x));
      PetscCall(ThetaInPlace(x, kb_));
      PetscCall(RestoreSlot(slot_[j], &x));
    }
    slot_[k] = slot_[j];
    partner_[k] = -1;
    slot_[j] = -1;
  }
  PetscInt kept = 0;
  for (PetscInt i = 0; i < n; ++i) {
    if (!keep[i]) {
      if (vectors_) PetscCall(FreeSlot(slot_[i]));
      continue;
    }
    index[i] = kept;
    slot_[kept] = slot_[i];
    partner_[kept] = partner_[i];
    values[kept] = values[i];
    residuals[kept] = residuals[i];
    ++kept;
  }
  slot_.resize(kept);
  partner_.resize(kept);
  values.resize(kept);
  residuals.resize(kept);
  for (PetscInt &p : partner_)
    if (p >= 0) p = index[p];
  PetscFunctionReturn(0);
}

// Projections with tbpeta's own loops over the columns' arrays, not BVDotVec/BVMultVec: those call the BLAS's zgemv,
// and OpenBLAS 0.3.21's zgemv "N" kernels for the cores it falls back to on a CPU it does not know (Prescott, Atom,
// Opteron, Bulldozer...) copy y into a work buffer of 128 MiB and write past it from 2^23 local rows on (a SEGV at
// 10^7 rows per rank: the 10^6-atom dot's first restarted pass). The loops also make the states' bits independent
// of the kernel the BLAS picks for the machine, and let a partner be projected out without a vector of its own.
PetscErrorCode StateColumns::Orthogonalise(Vec v, const std::vector<std::pair<PetscInt, PetscInt>> &ranges,
                                           PetscReal *norm) {
  std::vector<PetscInt> cols;
  for (const auto &[a, b] : ranges)
    for (PetscInt j = a; j < b; ++j) cols.push_back(j);
  const size_t k = cols.size();
  std::vector<PetscInt> slots; // each slot read once: a state and its partner share one
  std::vector<size_t> which(k);
  for (size_t i = 0; i < k; ++i) {
    const PetscInt s = slot_[IsPartner(cols[i]) ? partner_[cols[i]] : cols[i]];
    const auto it = std::find(slots.begin(), slots.end(), s);
    which[i] = (size_t)(it - slots.begin());
    if (it == slots.end()) slots.push_back(s);
  }
  std::vector<const PetscScalar *> x(slots.size());
  std::vector<Operand> ops(k);
  std::vector<PetscScalar> c(k);
  PetscScalar *pv;
  PetscInt n;
  double local = 0, global = 0;
  MPI_Comm comm = PetscObjectComm((PetscObject)v);
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(ReadSlots(slots, x.data()));
  for (size_t i = 0; i < k; ++i) ops[i] = {x[which[i]], IsPartner(cols[i])};
  PetscCall(VecGetArray(v, &pv));
  for (int twice = 0; twice < 2 && k > 0; ++twice) { // classical Gram-Schmidt, twice
    ColumnDots(n, kb_, ops, pv, c.data());
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, c.data(), (PetscMPIInt)k, MPIU_SCALAR, MPIU_SUM, comm));
    SubtractColumns(n, kb_, ops, c.data(), pv);
  }
  for (PetscInt i = 0; i < n; ++i) local += PetscRealPart(PetscConj(pv[i]) * pv[i]);
  PetscCall(VecRestoreArray(v, &pv));
  PetscCall(RestoreSlots(slots, x.data()));
  PetscCallMPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm));
  *norm = std::sqrt(global);
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::ReadSlots(const std::vector<PetscInt> &slots, const PetscScalar **x) {
  const PetscInt m = bvColumns();
  PetscInt nloc, nc;
  PetscFunctionBeginUser;
  if (slots.empty()) PetscFunctionReturn(0);
  PetscCall(BVGetSizes(V_, &nloc, nullptr, nullptr));
  PetscCall(BVGetNumConstraints(V_, &nc));
  const bool in_bv = std::any_of(slots.begin(), slots.end(), [&](PetscInt s) { return s < m; });
  const PetscScalar *X = nullptr;
  if (in_bv) PetscCall(BVGetArrayRead(V_, &X));
  for (size_t i = 0; i < slots.size(); ++i) {
    const PetscInt s = slots[i];
    if (s < m) x[i] = X + (size_t)(nc + s) * (size_t)nloc;
    else PetscCall(VecGetArrayRead(own_[s - m], &x[i]));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::RestoreSlots(const std::vector<PetscInt> &slots, const PetscScalar **x) {
  const PetscInt m = bvColumns();
  PetscInt nc, nloc;
  const PetscScalar *X = nullptr;
  PetscFunctionBeginUser;
  if (slots.empty()) PetscFunctionReturn(0);
  PetscCall(BVGetNumConstraints(V_, &nc));
  PetscCall(BVGetSizes(V_, &nloc, nullptr, nullptr));
  for (size_t i = 0; i < slots.size(); ++i) {
    const PetscInt s = slots[i];
    if (s < m) X = x[i] - (size_t)(nc + s) * (size_t)nloc;
    else PetscCall(VecRestoreArrayRead(own_[s - m], &x[i]));
  }
  if (X) PetscCall(BVRestoreArrayRead(V_, &X));
  PetscFunctionReturn(0);
}

// The stored states into their columns: a column is written once no state still to move has its data there (a
// cycle of such columns is broken through one work vector). own: the own Vecs by their slots before a resize.
PetscErrorCode StateColumns::MoveStored(PetscInt m0, std::vector<Vec> &own) {
  const PetscInt n = count();
  std::vector<PetscInt> pending;       // stored states not yet in their column
  std::vector<PetscInt> source(n, -1); // BV column holding a pending state's data (-1: an own Vec or the work vector)
  std::vector<Vec> from(n, nullptr);
  Vec work = nullptr;
  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < n; ++j) {
    if (IsPartner(j) || slot_[j] == j) continue;
    pending.push_back(j);
    if (slot_[j] < m0) source[j] = slot_[j];
    else from[j] = own[slot_[j] - m0];
  }
  while (!pending.empty()) {
    auto free_target = std::find_if(pending.begin(), pending.end(), [&](PetscInt j) {
      return std::none_of(pending.begin(), pending.end(), [&](PetscInt k) { return source[k] == j; });
    });
    if (free_target == pending.end()) { // a cycle: the data of the first one's column into the work vector
      const PetscInt j = pending.front();
      const auto holder = std::find_if(pending.begin(), pending.end(), [&](PetscInt k) { return source[k] == j; });
      if (!work) PetscCall(BVCreateVec(V_, &work));
      PetscCall(BVCopyVec(V_, j, work));
      source[*holder] = -1;
      from[*holder] = work;
      continue;
    }
    const PetscInt j = *free_target;
    if (source[j] >= 0) PetscCall(BVCopyColumn(V_, source[j], j));
    else PetscCall(BVInsertVec(V_, j, from[j]));
    if (source[j] < 0 && from[j] != work)
      for (Vec &x : own)
        if (x == from[j]) PetscCall(VecDestroy(&x));
    pending.erase(free_target);
  }
  PetscCall(VecDestroy(&work));
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::MoveIntoBV() {
  const PetscInt m0 = bvColumns(), n = count();
  PetscFunctionBeginUser;
  if (!vectors_) PetscFunctionReturn(0);
  bool in_place = n <= m0; // every state in its column already
  for (PetscInt j = 0; j < n; ++j) in_place = in_place && slot_[j] == j;
  if (in_place) PetscFunctionReturn(0);
  std::vector<Vec> own = std::move(own_);
  own_.clear();
  if (n > m0) PetscCall(BVResize(V_, n, PETSC_TRUE)); // the BV's m0 columns and its n new ones at once
  PetscCall(MoveStored(m0, own));
  for (Vec &x : own) PetscCall(VecDestroy(&x));
  for (PetscInt j = 0; j < n; ++j) { // the partners, from their states now in place
    if (!IsPartner(j)) continue;
    Vec x, y;
    PetscCall(BVGetColumn(V_, partner_[j], &x));
    PetscCall(BVGetColumn(V_, j, &y));
    PetscCall(KramersPartner(x, y, kb_));
    PetscCall(BVRestoreColumn(V_, j, &y));
    PetscCall(BVRestoreColumn(V_, partner_[j], &x));
  }
  for (PetscInt j = 0; j < n; ++j) {
    slot_[j] = j;
    partner_[j] = -1;
  }
  bv_used_.assign((size_t)bvColumns(), false);
  for (PetscInt j = 0; j < n; ++j) bv_used_[j] = true;
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::Accumulate(PetscInt first, const std::vector<double> &c, const std::vector<Vec> &vs) {
  PetscInt nloc, nc;
  const PetscInt m = bvColumns();
  const size_t nv = vs.size(), n = nv ? c.size() / nv : 0;
  PetscScalar *X = nullptr;
  constexpr size_t kBlock =
      1024; // reals per block: the blocks of the Lanczos vectors stay in cache while every column takes them
  PetscFunctionBeginUser;
  if (!vectors_ || n == 0) PetscFunctionReturn(0);
  PetscCall(BVGetSizes(V_, &nloc, nullptr, nullptr));
  PetscCall(BVGetNumConstraints(V_, &nc));
  std::vector<const PetscReal *> in(nv);
  for (size_t l = 0; l < nv; ++l) {
    const PetscScalar *p;
    PetscCall(VecGetArrayRead(vs[l], &p));
    in[l] = reinterpret_cast<const PetscReal *>(p);
  }
  std::vector<PetscInt> slots(n);
  for (size_t i = 0; i < n; ++i) slots[i] = slot_[first + (PetscInt)i];
  const bool in_bv = std::any_of(slots.begin(), slots.end(), [&](PetscInt s) { return s < m; });
  if (in_bv) PetscCall(BVGetArray(V_, &X));
  std::vector<PetscReal *> cols(n);
  for (size_t i = 0; i < n; ++i) {
    PetscScalar *x;
    if (slots[i] < m) x = X + (size_t)(nc + slots[i]) * nloc;
    else PetscCall(VecGetArray(own_[slots[i] - m], &x));
    cols[i] = reinterpret_cast<PetscReal *>(x);
  }
  // Real coefficients: the complex entries as pairs of reals, loops the compiler vectorises.
  const size_t len = sizeof(PetscScalar) / sizeof(PetscReal) * (size_t)nloc;
  for (size_t r0 = 0; r0 < len; r0 += kBlock) {
    const size_t r1 = std::min(len, r0 + kBlock);
    for (size_t i = 0; i < n; ++i) {
      PetscReal *__restrict x = cols[i];
      // Two vectors per pass over the block of x; a last lone one with a zero partner, so that it rounds as in a pair
      // and a batch of any even size gives the same bits as batches of 2.
      for (size_t l = 0; l < nv; l += 2) {
        const bool pair = l + 1 < nv;
        const PetscReal a = pair ? c[i * nv + l] : 0.0, b = c[i * nv + l + (pair ? 1 : 0)];
        // A level whose vector of T ended before these steps (its record) has zero coefficients: x += 0 leaves
        // its bits as they are, so the column is not swept.
        if (a == 0.0 && b == 0.0) continue;
        const PetscReal *__restrict P = in[l], *__restrict Q = in[l + (pair ? 1 : 0)];
        for (size_t k = r0; k < r1; ++k) x[k] += a * P[k] + b * Q[k];
      }
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (slots[i] >= m) {
      PetscScalar *x = reinterpret_cast<PetscScalar *>(cols[i]);
      PetscCall(VecRestoreArray(own_[slots[i] - m], &x));
    }
  if (in_bv) PetscCall(BVRestoreArray(V_, &X));
  for (size_t l = 0; l < nv; ++l) {
    const PetscScalar *p = reinterpret_cast<const PetscScalar *>(in[l]);
    PetscCall(VecRestoreArrayRead(vs[l], &p));
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos
