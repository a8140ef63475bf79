#include "solvers/lanczos/StateColumns.hpp"

#include <algorithm>
#include <cmath>

namespace tbpeta::lanczos {

namespace {

constexpr PetscInt kRowBlock = 512; // complex rows per block: the blocks of v and of the columns stay in cache

// c[k] = sum_i conj(x_k[i]) v[i] over the n local rows, block by block.
void ColumnDots(PetscInt n, const std::vector<const PetscScalar *> &x, const PetscScalar *v, PetscScalar *c) {
  for (size_t k = 0; k < x.size(); ++k) c[k] = 0;
  for (PetscInt r0 = 0; r0 < n; r0 += kRowBlock) {
    const PetscInt r1 = std::min(n, r0 + kRowBlock);
    for (size_t k = 0; k < x.size(); ++k) {
      PetscScalar s = 0;
      for (PetscInt i = r0; i < r1; ++i) s += PetscConj(x[k][i]) * v[i];
      c[k] += s;
    }
  }
}

// v[i] -= sum_k c[k] x_k[i], block by block.
void SubtractColumns(PetscInt n, const std::vector<const PetscScalar *> &x, const PetscScalar *c, PetscScalar *v) {
  for (PetscInt r0 = 0; r0 < n; r0 += kRowBlock) {
    const PetscInt r1 = std::min(n, r0 + kRowBlock);
    for (size_t k = 0; k < x.size(); ++k)
      for (PetscInt i = r0; i < r1; ++i) v[i] -= c[k] * x[k][i];
  }
}

} // namespace

StateColumns::~StateColumns() {
  for (Vec &x : own_) (void)VecDestroy(&x);
}

PetscInt StateColumns::bvColumns() const {
  PetscInt m = 0;
  if (vectors_) (void)BVGetSizes(V_, nullptr, nullptr, &m);
  return m;
}

PetscErrorCode StateColumns::GetColumn(PetscInt j, Vec *x) {
  const PetscInt m = bvColumns();
  PetscFunctionBeginUser;
  if (j < m) PetscCall(BVGetColumn(V_, j, x));
  else *x = own_[j - m];
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::RestoreColumn(PetscInt j, Vec *x) {
  PetscFunctionBeginUser;
  if (j < bvColumns()) PetscCall(BVRestoreColumn(V_, j, x));
  else *x = nullptr;
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::Append(PetscInt k, PetscInt *first) {
  const PetscInt m = bvColumns();
  PetscFunctionBeginUser;
  *first = count();
  for (PetscInt j = *first; j < *first + k; ++j) {
    if (vectors_ && j >= m) {
      Vec x;
      PetscCall(BVCreateVec(V_, &x));
      own_.push_back(x);
    }
    if (vectors_) {
      Column x(*this, j);
      PetscCall(x.error());
      PetscCall(VecSet(x.vec(), 0.0));
    }
    values.push_back(0), residuals.push_back(0);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::DropLast() {
  PetscFunctionBeginUser;
  if (count() == 0) PetscFunctionReturn(0);
  if (vectors_ && count() > bvColumns()) {
    PetscCall(VecDestroy(&own_.back()));
    own_.pop_back();
  }
  values.pop_back(), residuals.pop_back();
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::Keep(const std::vector<bool> &keep) {
  const PetscInt m = bvColumns();
  PetscInt j = 0;
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < count(); ++i) {
    if (!keep[i]) continue;
    if (i != j && vectors_) {
      if (j >= m) std::swap(own_[i - m], own_[j - m]); // own Vecs change places; the dropped ones end up at the back
      else if (i >= m) PetscCall(BVInsertVec(V_, j, own_[i - m]));
      else PetscCall(BVCopyColumn(V_, i, j));
    }
    values[j] = values[i], residuals[j] = residuals[i];
    ++j;
  }
  values.resize(j), residuals.resize(j);
  const size_t used = (size_t)std::max<PetscInt>(0, j - m);
  for (size_t k = used; k < own_.size(); ++k) PetscCall(VecDestroy(&own_[k]));
  own_.resize(std::min(used, own_.size()));
  PetscFunctionReturn(0);
}

// Projections with tbpeta's own loops over the columns' arrays, not BVDotVec/BVMultVec: those call the BLAS's zgemv,
// and OpenBLAS 0.3.21's zgemv "N" kernels for the cores it falls back to on a CPU it does not know (Prescott, Atom,
// Opteron, Bulldozer...) copy y into a work buffer of 128 MiB and write past it from 2^23 local rows on (a SEGV at
// 10^7 rows per rank: the 10^6-atom dot's first restarted pass). The loops also make the states' bits independent
// of the kernel the BLAS picks for the machine.
PetscErrorCode StateColumns::Orthogonalise(Vec v, const std::vector<std::pair<PetscInt, PetscInt>> &ranges,
                                           PetscReal *norm) {
  std::vector<PetscInt> cols;
  for (const auto &[a, b] : ranges)
    for (PetscInt j = a; j < b; ++j) cols.push_back(j);
  const size_t k = cols.size();
  std::vector<const PetscScalar *> x(k);
  std::vector<PetscScalar> c(k);
  PetscScalar *pv;
  PetscInt n;
  double local = 0, global = 0;
  MPI_Comm comm = PetscObjectComm((PetscObject)v);
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(ReadColumns(cols, x.data()));
  PetscCall(VecGetArray(v, &pv));
  for (int twice = 0; twice < 2 && k > 0; ++twice) { // classical Gram-Schmidt, twice
    ColumnDots(n, x, pv, c.data());
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, c.data(), (PetscMPIInt)k, MPIU_SCALAR, MPIU_SUM, comm));
    SubtractColumns(n, x, c.data(), pv);
  }
  for (PetscInt i = 0; i < n; ++i) local += PetscRealPart(PetscConj(pv[i]) * pv[i]);
  PetscCall(VecRestoreArray(v, &pv));
  PetscCall(RestoreColumns(cols, x.data()));
  PetscCallMPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm));
  *norm = std::sqrt(global);
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::ReadColumns(const std::vector<PetscInt> &cols, const PetscScalar **x) {
  const PetscInt m = bvColumns();
  PetscInt nloc, nc;
  PetscFunctionBeginUser;
  if (cols.empty()) PetscFunctionReturn(0);
  PetscCall(BVGetSizes(V_, &nloc, nullptr, nullptr));
  PetscCall(BVGetNumConstraints(V_, &nc));
  const bool in_bv = std::any_of(cols.begin(), cols.end(), [&](PetscInt j) { return j < m; });
  const PetscScalar *X = nullptr;
  if (in_bv) PetscCall(BVGetArrayRead(V_, &X));
  for (size_t i = 0; i < cols.size(); ++i) {
    const PetscInt j = cols[i];
    if (j < m) x[i] = X + (size_t)(nc + j) * (size_t)nloc;
    else PetscCall(VecGetArrayRead(own_[j - m], &x[i]));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::RestoreColumns(const std::vector<PetscInt> &cols, const PetscScalar **x) {
  const PetscInt m = bvColumns();
  PetscInt nc;
  PetscFunctionBeginUser;
  if (cols.empty()) PetscFunctionReturn(0);
  PetscCall(BVGetNumConstraints(V_, &nc));
  const PetscScalar *X = nullptr;
  PetscInt nloc;
  PetscCall(BVGetSizes(V_, &nloc, nullptr, nullptr));
  for (size_t i = 0; i < cols.size(); ++i) {
    const PetscInt j = cols[i];
    if (j < m) X = x[i] - (size_t)(nc + j) * (size_t)nloc;
    else PetscCall(VecRestoreArrayRead(own_[j - m], &x[i]));
  }
  if (X) PetscCall(BVRestoreArrayRead(V_, &X));
  PetscFunctionReturn(0);
}

PetscErrorCode StateColumns::MoveIntoBV() {
  const PetscInt m = bvColumns(), n = count();
  PetscFunctionBeginUser;
  if (own_.empty()) PetscFunctionReturn(0);
  PetscCall(BVResize(V_, n, PETSC_TRUE)); // n > m: the BV's m columns, its n new ones and the own Vecs at once
  for (size_t k = 0; k < own_.size(); ++k) {
    PetscCall(BVInsertVec(V_, m + (PetscInt)k, own_[k]));
    PetscCall(VecDestroy(&own_[k]));
  }
  own_.clear();
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
  const bool in_bv = first < m;
  if (in_bv) PetscCall(BVGetArray(V_, &X));
  std::vector<PetscReal *> cols(n);
  for (size_t i = 0; i < n; ++i) {
    const PetscInt j = first + (PetscInt)i;
    PetscScalar *x;
    if (j < m) x = X + (size_t)(nc + j) * nloc;
    else PetscCall(VecGetArray(own_[j - m], &x));
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
        const PetscReal *__restrict P = in[l], *__restrict Q = in[l + (pair ? 1 : 0)];
        for (size_t k = r0; k < r1; ++k) x[k] += a * P[k] + b * Q[k];
      }
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const PetscInt j = first + (PetscInt)i;
    if (j >= m) {
      PetscScalar *x = reinterpret_cast<PetscScalar *>(cols[i]);
      PetscCall(VecRestoreArray(own_[j - m], &x));
    }
  }
  if (in_bv) PetscCall(BVRestoreArray(V_, &X));
  for (size_t l = 0; l < nv; ++l) {
    const PetscScalar *p = reinterpret_cast<const PetscScalar *>(in[l]);
    PetscCall(VecRestoreArrayRead(vs[l], &p));
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos
