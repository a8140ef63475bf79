#include "operator/StoredHamiltonian.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <sys/mman.h>

#include "support/LogEvents.hpp"
#include "operator/HamiltonianBlocks.hpp"

namespace tbpeta {

using Complex = std::complex<double>;

PetscErrorCode MatrixFormatFromOptions(MPI_Comm comm, MatrixFormat *format) {
  const char *types[] = {"aij", "baij", "MatrixFormat", "MATRIX_", nullptr};
  PetscEnum t = (PetscEnum)MatrixFormat::aij;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Hamiltonian storage", "tbpeta");
  PetscCall(PetscOptionsEnum("-mat_type", "Stored Hamiltonian: aij (exact zeros dropped) or baij (one dense block per atom pair)", "tbpeta", types, t, &t, nullptr));
  PetscOptionsEnd();
  *format = (MatrixFormat)t;
  PetscFunctionReturn(0);
}

namespace {

// A large array written once, front to back: allocated uninitialised, so that pages are only touched (and only
// then cost memory) where entries are written, and advised for transparent huge pages where the kernel has them:
// first touch of fresh 4 kB pages (one page fault each) was most of the assembly time.
void *AllocateLarge(size_t bytes) {
  constexpr size_t kHuge = size_t(2) << 20;
#ifdef MADV_HUGEPAGE
  if (bytes >= kHuge) {
    const size_t len = (bytes + kHuge - 1) / kHuge * kHuge;
    if (void *p = std::aligned_alloc(kHuge, len)) {
      (void)madvise(p, len, MADV_HUGEPAGE); // advice only
      return p;
    }
  }
#endif
  return std::malloc(bytes ? bytes : 1);
}

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

PetscErrorCode AssembleAIJ(MPI_Comm comm, const Structure &s, const HamiltonianBlocks &builder, Mat *H) {
  const int bs = builder.blockSize(), norb = builder.orbitals();
  const PetscInt m = s.owned * bs;
  std::unique_ptr<CsrStorage> csr(new CsrStorage);
  PetscFunctionBeginUser;
  // Upper bounds of the diagonal- and off-diagonal-part entries (exact for the bonds), so each array is allocated
  // once and written straight through; the unused tail is never touched.
  size_t nd_max = 0, no_max = 0;
  for (PetscInt i = 0; i < s.owned; ++i) {
    bool dangling = false;
    for (int b = 0; b < 4; ++b) {
      const int j = s.bonds[i][b];
      if (j < 0) dangling = true;
      else (j < s.owned ? nd_max : no_max) += (size_t)builder.bondCount(i, b);
    }
    nd_max += builder.onsiteBound(dangling);
  }
  // Row pointers are PetscInt: a rank's stored entries must fit (the 64-bit-index PETSc build lifts the limit).
  // Checked on the whole communicator so that every rank stops together.
  unsigned long long largest = std::max(nd_max, no_max);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm));
  PetscCheck(largest <= (unsigned long long)PETSC_MAX_INT, comm, PETSC_ERR_USER_INPUT,
             "-cells: a rank would store %llu entries of H in one part, beyond the 32-bit indices of this PETSc build (%" PetscInt_FMT "): use more ranks, -hamiltonian shell or the 64-bit-index build (cmake -DTBPETA_INDEX64=ON)",
             largest, PETSC_MAX_INT);
  csr->di = static_cast<PetscInt *>(AllocateLarge(sizeof(PetscInt) * (m + 1)));
  csr->oi = static_cast<PetscInt *>(AllocateLarge(sizeof(PetscInt) * (m + 1)));
  csr->dj = static_cast<PetscInt *>(AllocateLarge(sizeof(PetscInt) * nd_max));
  csr->oj = static_cast<PetscInt *>(AllocateLarge(sizeof(PetscInt) * no_max));
  csr->da = static_cast<PetscScalar *>(AllocateLarge(sizeof(PetscScalar) * nd_max));
  csr->oa = static_cast<PetscScalar *>(AllocateLarge(sizeof(PetscScalar) * no_max));
  PetscCheck(csr->di && csr->oi && csr->dj && csr->oj && csr->da && csr->oa, PETSC_COMM_SELF, PETSC_ERR_MEM, "cannot allocate the CSR arrays of H (%zu + %zu entries)", nd_max, no_max);
  PetscInt *di = csr->di, *dj = csr->dj, *oi = csr->oi, *oj = csr->oj;
  Complex *da = reinterpret_cast<Complex *>(csr->da), *oa = reinterpret_cast<Complex *>(csr->oa);
  size_t nd = 0, no = 0;
  di[0] = 0, oi[0] = 0;

  std::vector<Complex> onsite((size_t)bs * bs);
  struct Part {
    PetscInt col0; // first column of the neighbour atom (local for owned, global for halo)
    int b;         // bond, or -1 for the on-site block
    bool halo;
  };
  std::vector<Part> parts;
  const HamiltonianBlocks::BondPattern *pattern[4] = {nullptr, nullptr, nullptr, nullptr};
  Complex phase[4];
  for (PetscInt i = 0; i < s.owned; ++i) {
    parts.clear();
    builder.onsite(i, onsite.data());
    parts.push_back({i * bs, -1, false});
    for (int b = 0; b < 4; ++b) {
      const int j = s.bonds[i][b];
      if (j < 0) continue;
      pattern[b] = &builder.bondPattern(i, b);
      phase[b] = builder.bondPhase(i, b);
      parts.push_back(j < s.owned ? Part{(PetscInt)j * bs, b, false} : Part{s.globalIndex(j) * bs, b, true});
    }
    std::sort(parts.begin(), parts.end(), [](const Part &a, const Part &b) { return a.halo != b.halo ? !a.halo : a.col0 < b.col0; });
    for (int r = 0; r < bs; ++r) {
      const int sp = r / norb, ro = r % norb;
      for (const Part &p : parts) {
        PetscInt *J = p.halo ? oj : dj;
        Complex *A = p.halo ? oa : da;
        size_t &n = p.halo ? no : nd;
        if (p.b < 0) {
          const Complex *row = onsite.data() + (size_t)r * bs;
          for (int c = 0; c < bs; ++c)
            if (row[c] != Complex(0)) {
              J[n] = p.col0 + c;
              A[n] = row[c];
              ++n;
            }
        } else {
          // The bond block's row r: its integrals times the phase, in the spin block of the row.
          const HamiltonianBlocks::BondPattern &P = *pattern[p.b];
          const Complex ph = phase[p.b];
          const PetscInt col0 = p.col0 + sp * norb;
          for (int e = P.start[ro]; e < P.start[ro + 1]; ++e) {
            const Complex z = P.v[e] * ph;
            if (z != Complex(0)) {
              J[n] = col0 + P.col[e];
              A[n] = z;
              ++n;
            }
          }
        }
      }
      di[i * bs + r + 1] = (PetscInt)nd;
      oi[i * bs + r + 1] = (PetscInt)no;
    }
  }
  PetscCheck(nd <= nd_max && no <= no_max, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CSR entries exceed their bound"); // sanity check of onsiteBound/bondCount
  // PETSc reads the arrays in place (no copy) and keeps them until the matrix is destroyed.
  PetscCall(MatCreateMPIAIJWithSplitArrays(comm, m, m, PETSC_DETERMINE, PETSC_DETERMINE, csr->di, csr->dj, csr->da, csr->oi, csr->oj, csr->oa, H));
  PetscContainer container;
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
  for (PetscInt i = 0; i < s.owned; ++i) {
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

// The product y = Hx shows in -log_view as TbProduct: PETSc's own MatMult is wrapped, keeping its kernel.
struct ProductKernel {
  PetscErrorCode (*mult)(Mat, Vec, Vec) = nullptr;
  PetscInt count = 0; // products so far, for the solvers' counters
};
PetscErrorCode DestroyProductKernel(void *ctx) {
  delete static_cast<ProductKernel *>(ctx);
  return 0;
}
PetscErrorCode LoggedMult(Mat A, Vec x, Vec y) {
  const LogEvents *ev;
  PetscContainer container;
  ProductKernel *kernel;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscObjectQuery((PetscObject)A, "tbpeta_product", (PetscObject *)&container));
  PetscCall(PetscContainerGetPointer(container, (void **)&kernel));
  PetscCall(PetscLogEventBegin(ev->product, A, x, y, 0));
  ++kernel->count;
  PetscCall(kernel->mult(A, x, y));
  PetscCall(PetscLogEventEnd(ev->product, A, x, y, 0));
  PetscFunctionReturn(0);
}
} // namespace

PetscErrorCode CountProducts(Mat H) {
  auto *kernel = new ProductKernel;
  PetscContainer container;
  PetscFunctionBeginUser;
  PetscCall(MatGetOperation(H, MATOP_MULT, (void (**)(void)) & kernel->mult));
  PetscCall(PetscContainerCreate(PetscObjectComm((PetscObject)H), &container));
  PetscCall(PetscContainerSetPointer(container, kernel));
  PetscCall(PetscContainerSetUserDestroy(container, DestroyProductKernel));
  PetscCall(PetscObjectCompose((PetscObject)H, "tbpeta_product", (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  PetscCall(MatSetOperation(H, MATOP_MULT, (void (*)(void))LoggedMult));
  PetscFunctionReturn(0);
}

PetscErrorCode HamiltonianProductCount(Mat H, PetscInt *count) {
  PetscContainer container = nullptr;
  ProductKernel *kernel;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectQuery((PetscObject)H, "tbpeta_product", (PetscObject *)&container));
  PetscCheck(container, PetscObjectComm((PetscObject)H), PETSC_ERR_ARG_WRONG, "not a Hamiltonian assembled by tbpeta");
  PetscCall(PetscContainerGetPointer(container, (void **)&kernel));
  *count = kernel->count;
  PetscFunctionReturn(0);
}

PetscErrorCode AssembleHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k, MatrixFormat format, Mat *H,
                                   HamiltonianInfo *info) {
  const LogEvents *ev;
  PetscFunctionBeginUser;
  static_assert(sizeof(PetscScalar) == sizeof(Complex), "tbpeta needs a complex PETSc build");
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->assembly, 0, 0, 0, 0));
  HamiltonianBlocks builder(s, model, k);
  if (format == MatrixFormat::aij) PetscCall(AssembleAIJ(comm, s, builder, H));
  else PetscCall(AssembleBAIJ(comm, s, builder, H));
  PetscCall(MatSetOption(*H, MAT_HERMITIAN, PETSC_TRUE));
  PetscCall(CountProducts(*H));
  PetscCall(PetscLogEventEnd(ev->assembly, 0, 0, 0, 0));
  if (info) {
    MatInfo mi;
    PetscCall(MatGetInfo(*H, MAT_GLOBAL_SUM, &mi));
    PetscCall(MatGetSize(*H, &info->rows, nullptr));
    info->block_size = builder.blockSize();
    info->nonzeros = mi.nz_used;
    const double per_entry = sizeof(PetscScalar) + (format == MatrixFormat::aij ? sizeof(PetscInt) : sizeof(PetscInt) / double(builder.blockSize() * builder.blockSize()));
    info->bytes = mi.nz_used * per_entry + (double)info->rows * sizeof(PetscInt);
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
