#include "operator/MatrixHamiltonian.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "operator/HamiltonianBlocks.hpp"
#include "operator/OperatorKind.hpp"
#include "support/LargeArrays.hpp"
#include "support/Progress.hpp"

namespace tbpeta {

using Complex = std::complex<double>;

namespace {

// Arrays that a split-array MATMPIAIJ uses in place; freed with the matrix.
struct CsrStorage {
  PetscInt *di = nullptr, *dj = nullptr, *oi = nullptr, *oj = nullptr;
  PetscScalar *da = nullptr, *oa = nullptr;
  CsrStorage() = default;
  CsrStorage(const CsrStorage &) = delete;
  CsrStorage &operator=(const CsrStorage &) = delete;
  ~CsrStorage() {
    for (void *p : {(void *)di, (void *)dj, (void *)oi, (void *)oj, (void *)da, (void *)oa}) std::free(p);
  }
};
PetscErrorCode DestroyCsrStorage(void *ctx) {
  delete static_cast<CsrStorage *>(ctx);
  return 0;
}

// Upper bounds of this rank's diagonal- and off-diagonal-part entries (exact for the bonds), so that each array is
// allocated once and written straight through; refused when a part exceeds PetscInt (checked on the whole
// communicator, so every rank stops together; the 64-bit-index PETSc build lifts the limit).
PetscErrorCode CountEntries(MPI_Comm comm, const Structure &s, const HamiltonianBlocks &builder, size_t *nd_max,
                            size_t *no_max) {
  PetscFunctionBeginUser;
  *nd_max = 0, *no_max = 0;
  for (PetscInt i = 0; i < s.owned; ++i) {
    bool dangling = false;
    for (int b = 0; b < 4; ++b) {
      const int j = s.bonds[i][b];
      if (j < 0) dangling = true;
      else (j < s.owned ? *nd_max : *no_max) += (size_t)builder.bondCount(i, b);
    }
    *nd_max += builder.onsiteBound(dangling);
  }
  unsigned long long largest = std::max(*nd_max, *no_max);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm));
  PetscCheck(largest <= (unsigned long long)PETSC_MAX_INT, comm, PETSC_ERR_USER_INPUT,
             "-cells: a rank would store %llu entries of H in one part, beyond the 32-bit indices of this PETSc build "
             "(%" PetscInt_FMT
             "): use more ranks, -hamiltonian shell or the 64-bit-index build (cmake -DTBPETA_INDEX64=ON)",
             largest, PETSC_MAX_INT);
  PetscFunctionReturn(0);
}

// Appends the entries of one row of atom i to the diagonal (owned columns) and off-diagonal (halo columns) parts.
class CsrWriter {
public:
  CsrWriter(const Structure &s, const HamiltonianBlocks &builder, CsrStorage *csr)
      : s_(s), b_(builder), dj_(csr->dj), oj_(csr->oj), da_(reinterpret_cast<Complex *>(csr->da)),
        oa_(reinterpret_cast<Complex *>(csr->oa)), onsite_((size_t)builder.blockSize() * builder.blockSize()) {}

  // The rows of owned atom i: the on-site block and its bonds' blocks, columns ascending within each part.
  void Atom(PetscInt i, PetscInt *di, PetscInt *oi) {
    const int bs = b_.blockSize(), norb = b_.orbitals();
    parts_.clear();
    b_.onsite(i, onsite_.data());
    parts_.push_back({i * bs, -1, false});
    for (int b = 0; b < 4; ++b) {
      const int j = s_.bonds[i][b];
      if (j < 0) continue;
      pattern_[b] = &b_.bondPattern(i, b, &scratch_[b]);
      phase_[b] = b_.bondPhase(i, b);
      parts_.push_back(j < s_.owned ? Part{(PetscInt)j * bs, b, false} : Part{s_.globalIndex(j) * bs, b, true});
    }
    std::sort(parts_.begin(), parts_.end(),
              [](const Part &a, const Part &b) { return a.halo != b.halo ? !a.halo : a.col0 < b.col0; });
    for (int r = 0; r < bs; ++r) {
      for (const Part &p : parts_) {
        if (p.b < 0) Onsite(r, p);
        else Bond(r / norb, r % norb, p);
      }
      di[i * bs + r + 1] = (PetscInt)nd;
      oi[i * bs + r + 1] = (PetscInt)no;
    }
  }
  size_t nd = 0, no = 0; // entries written

private:
  struct Part {
    PetscInt col0; // first column of the neighbour atom (local for owned, global for halo)
    int b;         // bond, or -1 for the on-site block
    bool halo;
  };
  void Put(bool halo, PetscInt col, Complex z) {
    if (halo) oj_[no] = col, oa_[no++] = z;
    else dj_[nd] = col, da_[nd++] = z;
  }
  void Onsite(int r, const Part &p) {
    const int bs = b_.blockSize();
    const Complex *row = onsite_.data() + (size_t)r * bs;
    for (int c = 0; c < bs; ++c)
      if (row[c] != Complex(0)) Put(p.halo, p.col0 + c, row[c]);
  }
  // Row ro of the bond block in spin block sp: its integrals times the phase.
  void Bond(int sp, int ro, const Part &p) {
    const HamiltonianBlocks::BondPattern &P = *pattern_[p.b];
    const Complex ph = phase_[p.b];
    const PetscInt col0 = p.col0 + sp * b_.orbitals();
    for (int e = P.start[ro]; e < P.start[ro + 1]; ++e) {
      Put(p.halo, col0 + P.col[e], P.v[e] * ph); // a strained bond keeps its pattern even where a value is zero
    }
  }
  const Structure &s_;
  const HamiltonianBlocks &b_;
  PetscInt *dj_, *oj_;
  Complex *da_, *oa_;
  std::vector<Complex> onsite_;
  std::vector<Part> parts_;
  const HamiltonianBlocks::BondPattern *pattern_[4] = {nullptr, nullptr, nullptr, nullptr};
  HamiltonianBlocks::BondPattern scratch_[4]; // the strained bonds' own values
  Complex phase_[4];
};

PetscErrorCode AssembleAIJ(MPI_Comm comm, const Structure &s, const HamiltonianBlocks &builder, Mat *H) {
  const PetscInt m = s.owned * builder.blockSize();
  std::unique_ptr<CsrStorage> csr(new CsrStorage);
  size_t nd_max, no_max;
  PetscContainer container;
  PetscFunctionBeginUser;
  PetscCall(CountEntries(comm, s, builder, &nd_max, &no_max));
  csr->di = static_cast<PetscInt *>(AllocateLarge(sizeof(PetscInt) * (m + 1)));
  csr->oi = static_cast<PetscInt *>(AllocateLarge(sizeof(PetscInt) * (m + 1)));
  csr->dj = static_cast<PetscInt *>(AllocateLarge(sizeof(PetscInt) * nd_max));
  csr->oj = static_cast<PetscInt *>(AllocateLarge(sizeof(PetscInt) * no_max));
  csr->da = static_cast<PetscScalar *>(AllocateLarge(sizeof(PetscScalar) * nd_max));
  csr->oa = static_cast<PetscScalar *>(AllocateLarge(sizeof(PetscScalar) * no_max));
  PetscCheck(csr->di && csr->oi && csr->dj && csr->oj && csr->da && csr->oa, PETSC_COMM_SELF, PETSC_ERR_MEM,
             "cannot allocate the CSR arrays of H (%zu + %zu entries)", nd_max, no_max);
  csr->di[0] = 0, csr->oi[0] = 0;
  CsrWriter writer(s, builder, csr.get());
  Progress progress("building H (aij)");
  for (PetscInt i = 0; i < s.owned; ++i) {
    PetscCall(progress.Loop(i, s.owned, "rows of atom"));
    writer.Atom(i, csr->di, csr->oi);
  }
  PetscCheck(writer.nd <= nd_max && writer.no <= no_max, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "CSR entries exceed their bound"); // sanity check of onsiteBound/bondCount
  // PETSc reads the arrays in place (no copy) and keeps them until the matrix is destroyed.
  PetscCall(MatCreateMPIAIJWithSplitArrays(comm, m, m, PETSC_DETERMINE, PETSC_DETERMINE, csr->di, csr->dj, csr->da,
                                           csr->oi, csr->oj, csr->oa, H));
  PetscCall(PetscContainerCreate(comm, &container));
  PetscCall(PetscContainerSetPointer(container, csr.release()));
  PetscCall(PetscContainerSetUserDestroy(container, DestroyCsrStorage));
  PetscCall(PetscObjectCompose((PetscObject)*H, "tbpeta_csr", (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  PetscFunctionReturn(0);
}

PetscErrorCode AssembleBAIJ(MPI_Comm comm, const Structure &s, const HamiltonianBlocks &builder, Mat *H) {
  const int bs = builder.blockSize();
  const PetscInt m = s.owned * bs;
  std::vector<PetscInt> dnnz(s.owned, 1), onnz(s.owned, 0);
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < s.owned; ++i)
    for (int b = 0; b < 4; ++b) {
      const int j = s.bonds[i][b];
      if (j >= 0) ++(j < s.owned ? dnnz[i] : onnz[i]);
    }
  PetscCall(MatCreate(comm, H));
  PetscCall(MatSetSizes(*H, m, m, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*H, MATBAIJ));
  PetscCall(MatSeqBAIJSetPreallocation(*H, bs, 0, dnnz.data()));
  PetscCall(MatMPIBAIJSetPreallocation(*H, bs, 0, dnnz.data(), 0, onnz.data()));
  PetscCall(MatSetOption(*H, MAT_ROW_ORIENTED, PETSC_TRUE));
  std::vector<Complex> blk((size_t)bs * bs);
  Progress progress("building H (baij)");
  for (PetscInt i = 0; i < s.owned; ++i) {
    PetscCall(progress.Loop(i, s.owned, "rows of atom"));
    const PetscInt row = s.globalIndex(i);
    builder.onsite(i, blk.data());
    PetscCall(MatSetValuesBlocked(*H, 1, &row, 1, &row, reinterpret_cast<PetscScalar *>(blk.data()), INSERT_VALUES));
    for (int b = 0; b < 4; ++b) {
      const int j = s.bonds[i][b];
      if (j < 0) continue;
      const PetscInt col = s.globalIndex(j);
      builder.bond(i, b, blk.data());
      PetscCall(MatSetValuesBlocked(*H, 1, &row, 1, &col, reinterpret_cast<PetscScalar *>(blk.data()), INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode AssembleMatrixHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                                         std::array<double, 3> k, MatrixFormat format, Mat *H) {
  PetscFunctionBeginUser;
  static_assert(sizeof(PetscScalar) == sizeof(Complex), "tbpeta needs a complex PETSc build");
  const HamiltonianBlocks builder(s, model, k);
  if (format == MatrixFormat::aij) PetscCall(AssembleAIJ(comm, s, builder, H));
  else PetscCall(AssembleBAIJ(comm, s, builder, H));
  PetscCall(MatSetOption(*H, MAT_HERMITIAN, PETSC_TRUE));
  PetscFunctionReturn(0);
}

} // namespace tbpeta

namespace tbpeta {

namespace {

PetscErrorCode CreateAij(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k,
                         const HamiltonianOptions &, Mat *H, double *bytes) {
  *bytes = 0; // PETSc counts the entries
  return AssembleMatrixHamiltonian(comm, s, model, k, MatrixFormat::aij, H);
}

PetscErrorCode CreateBaij(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k,
                          const HamiltonianOptions &, Mat *H, double *bytes) {
  *bytes = 0;
  return AssembleMatrixHamiltonian(comm, s, model, k, MatrixFormat::baij, H);
}

// Entries and column indices, the row pointers of the diagonal and off-diagonal parts, the halo vector and buffer.
double AijBytes(const OperatorCounts &c, const HamiltonianOptions &) {
  const double rows = c.owned * c.rows_per_atom, halo_rows = c.halo * c.rows_per_atom;
  return c.entries * (sizeof(PetscScalar) + sizeof(PetscInt)) + 2 * (rows + 1) * sizeof(PetscInt) +
         2 * halo_rows * sizeof(PetscScalar);
}

// One dense block per atom pair (the on-site and every bond) with its index, the halo vector and buffer.
double BaijBytes(const OperatorCounts &c, const HamiltonianOptions &) {
  const double bs = c.rows_per_atom;
  return (c.owned + c.bonds) * (bs * bs * sizeof(PetscScalar) + sizeof(PetscInt)) +
         2 * c.halo * bs * sizeof(PetscScalar);
}

} // namespace

OperatorKind AijOperatorKind() {
  return {"aij", true, [](const HamiltonianOptions &) { return std::string("stored (aij)"); }, CreateAij, AijBytes};
}

OperatorKind BaijOperatorKind() {
  return {"baij", true, [](const HamiltonianOptions &) { return std::string("stored (baij)"); }, CreateBaij, BaijBytes};
}

} // namespace tbpeta
