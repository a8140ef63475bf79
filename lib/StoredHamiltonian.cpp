#include "tbpeta/StoredHamiltonian.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <sys/mman.h>

#include "tbpeta/LogEvents.hpp"
#include "tbpeta/SlaterKoster.hpp"

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

// Orbitals of the basis, as indices into the full order (s, p, d, s*).
std::vector<int> basisOrbitals(BasisModel m) {
  if (m == BasisModel::sp3sstar) return {kS, kPx, kPy, kPz, kSstar};
  return {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
}

// Builds every atom's blocks; the two storage formats only differ in how they take them.
class BlockBuilder {
public:
  BlockBuilder(const Structure &s, const TightBindingModel &model, std::array<double, 3> k) : s_(s), model_(model), k_(k) {
    orbs_ = basisOrbitals(model.basis);
    norb_ = (int)orbs_.size();
    bs_ = model.blockSize();
    spins_ = model.spin_orbit ? 2 : 1;
    const double inv = 1.0 / std::sqrt(3.0);
    bond_.resize(model.materials.size());
    pattern_.resize(model.materials.size());
    for (size_t m = 0; m < model.materials.size(); ++m)
      for (int b = 0; b < 4; ++b) {
        const auto &d = ZincblendeLattice::kAnionBonds[b];
        bond_[m][b] = anionCationBlock(model.materials[m].bond, d[0] * inv, d[1] * inv, d[2] * inv);
        // The non-zero integrals of each row, in ascending column: rows of the anion (B) and of the cation (B^T).
        for (int o = 0; o < 2; ++o) {
          BondPattern &P = pattern_[m][b][o];
          P.start.assign(norb_ + 1, 0);
          for (int r = 0; r < norb_; ++r) {
            for (int c = 0; c < norb_; ++c) {
              const double v = o == 0 ? bond_[m][b][orbs_[r]][orbs_[c]] : bond_[m][b][orbs_[c]][orbs_[r]];
              if (v == 0) continue;
              P.col.push_back(c);
              P.v.push_back(v);
            }
            P.start[r + 1] = (int)P.col.size();
          }
        }
      }
  }
  int blockSize() const { return bs_; }
  int orbitals() const { return norb_; }

  // The stored integrals of one bond direction: row r (orbital of the row atom) holds col[start[r] .. start[r+1]),
  // orbitals of the neighbour, ascending, with their values v (never zero); the same for both spins.
  struct BondPattern {
    std::vector<int> start, col;
    std::vector<double> v;
  };
  // Bond b of owned atom i: its integrals (rows of atom i) and the Bloch phase of its rows.
  const BondPattern &bondPattern(PetscInt i, int b) const {
    const bool anion = s_.sublattice(i) == Sublattice::anion;
    const int cation = anion ? s_.bonds[i][b] : (int)i;
    return pattern_[s_.material[cation]][b][anion ? 0 : 1];
  }
  Complex bondPhase(PetscInt i, int b) const {
    const bool anion = s_.sublattice(i) == Sublattice::anion;
    // Phase of the anion -> cation coupling: the anion sees the cation's image at +wrap; the cation sees the
    // anion's at -wrap, so its row takes the exact conjugate.
    const auto &w = s_.wraps[i];
    const int sign = anion ? 1 : -1;
    double theta = 0;
    for (int a = 0; a < 3; ++a) theta += k_[a] * sign * w[3 * b + a] * s_.lattice.planes()[a];
    theta *= M_PI / 2; // k in 2pi/a, wrap in planes of a/4
    Complex phase = theta == 0 ? Complex(1) : Complex(std::cos(theta), std::sin(theta));
    if (!anion) phase = std::conj(phase);
    return phase;
  }
  // Upper bounds of the stored entries of the on-site block (diagonal, spin-orbit on the p orbitals, passivation
  // on s and p of each spin) and the exact count of a bond block's.
  int onsiteBound(bool dangling) const { return std::min(bs_ * bs_, bs_ + (model_.spin_orbit ? 36 : 0) + (dangling ? 16 * spins_ : 0)); }
  int bondCount(PetscInt i, int b) const { return (int)bondPattern(i, b).col.size() * spins_; }

  // On-site block of owned atom i (bs x bs, row-major).
  void onsite(PetscInt i, Complex *blk) const {
    std::fill(blk, blk + bs_ * bs_, Complex(0));
    const bool anion = s_.sublattice(i) == Sublattice::anion;
    OnSiteEnergies e{};
    double shift = 0;
    int n = 0;
    auto add = [&](int m) {
      const auto &src = anion ? model_.materials[m].anion_onsite : model_.materials[m].cation_onsite;
      e.s += src.s, e.p += src.p, e.d += src.d, e.sstar += src.sstar, e.lambda_so += src.lambda_so;
      shift += model_.vbo[m];
      ++n;
    };
    if (anion) {
      for (int b = 0; b < 4; ++b)
        if (s_.bonds[i][b] >= 0) add(s_.material[s_.bonds[i][b]]);
      if (n == 0) add(s_.material[i]);
    } else add(s_.material[i]);
    const double w = 1.0 / n;
    e.s *= w, e.p *= w, e.d *= w, e.sstar *= w, e.lambda_so *= w, shift *= w;
    const auto diag = onsiteEnergies(e);
    for (int sp = 0; sp < spins_; ++sp)
      for (int o = 0; o < norb_; ++o) blk[(sp * norb_ + o) * bs_ + sp * norb_ + o] = diag[orbs_[o]] + shift;
    if (model_.spin_orbit) {
      const auto so = spinOrbitP(e.lambda_so);
      // (x,y,z) up -> rows 1..3, (x,y,z) down -> rows norb+1..norb+3
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c) {
          const int R = (r / 3) * norb_ + 1 + r % 3, C = (c / 3) * norb_ + 1 + c % 3;
          blk[R * bs_ + C] += so[r][c];
        }
    }
    for (int b = 0; b < 4; ++b) {
      if (s_.bonds[i][b] >= 0) continue;
      const auto v = ZincblendeLattice::bondVector(s_.sites[i], b);
      const auto pas = danglingBondShift(model_.passivation_shift, v[0], v[1], v[2]);
      for (int sp = 0; sp < spins_; ++sp)
        for (int r = 0; r < 4; ++r)
          for (int c = 0; c < 4; ++c) blk[(sp * norb_ + r) * bs_ + sp * norb_ + c] += pas[r][c];
    }
  }

  // Bond block of owned atom i along bond b (bs x bs, row-major: rows of atom i, columns of its neighbour).
  void bond(PetscInt i, int b, Complex *blk) const {
    std::fill(blk, blk + bs_ * bs_, Complex(0));
    const BondPattern &P = bondPattern(i, b);
    const Complex phase = bondPhase(i, b);
    for (int r = 0; r < norb_; ++r)
      for (int e = P.start[r]; e < P.start[r + 1]; ++e) {
        const Complex z = P.v[e] * phase;
        for (int sp = 0; sp < spins_; ++sp) blk[(sp * norb_ + r) * bs_ + sp * norb_ + P.col[e]] = z;
      }
  }

private:
  const Structure &s_;
  const TightBindingModel &model_;
  std::array<double, 3> k_;
  std::vector<int> orbs_;
  int norb_ = 0, bs_ = 0, spins_ = 1;
  std::vector<std::array<OrbitalBlock, 4>> bond_; // per material and bond direction
  std::vector<std::array<std::array<BondPattern, 2>, 4>> pattern_; // per material, bond direction, row atom (anion, cation)
};

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

PetscErrorCode AssembleAIJ(MPI_Comm comm, const Structure &s, const BlockBuilder &builder, Mat *H) {
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
             "-cells: a rank would store %llu entries of H in one part, beyond the 32-bit indices of this PETSc build (%d): use more ranks or the 64-bit-index build", largest,
             (int)PETSC_MAX_INT);
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
  const BlockBuilder::BondPattern *pattern[4] = {nullptr, nullptr, nullptr, nullptr};
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
          const BlockBuilder::BondPattern &P = *pattern[p.b];
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

PetscErrorCode AssembleBAIJ(MPI_Comm comm, const Structure &s, const BlockBuilder &builder, Mat *H) {
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
PetscErrorCode LogProducts(Mat H) {
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

} // namespace

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
  BlockBuilder builder(s, model, k);
  if (format == MatrixFormat::aij) PetscCall(AssembleAIJ(comm, s, builder, H));
  else PetscCall(AssembleBAIJ(comm, s, builder, H));
  PetscCall(MatSetOption(*H, MAT_HERMITIAN, PETSC_TRUE));
  PetscCall(LogProducts(*H));
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
