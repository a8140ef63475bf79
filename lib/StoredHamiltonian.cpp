#include "tbpeta/StoredHamiltonian.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

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
    for (size_t m = 0; m < model.materials.size(); ++m)
      for (int b = 0; b < 4; ++b) {
        const auto &d = ZincblendeLattice::kAnionBonds[b];
        bond_[m][b] = anionCationBlock(model.materials[m].bond, d[0] * inv, d[1] * inv, d[2] * inv);
      }
  }
  int blockSize() const { return bs_; }

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
    const bool anion = s_.sublattice(i) == Sublattice::anion;
    const int j = s_.bonds[i][b];
    const int cation = anion ? j : (int)i;
    const auto &B = bond_[s_.material[cation]][b];
    // Phase of the anion -> cation coupling: the anion sees the cation's image at +wrap; the cation sees the
    // anion's at -wrap, so its row takes the exact conjugate.
    const auto &w = s_.wraps[i];
    const int sign = anion ? 1 : -1;
    double theta = 0;
    for (int a = 0; a < 3; ++a) theta += k_[a] * sign * w[3 * b + a] * s_.lattice.planes()[a];
    theta *= M_PI / 2; // k in 2pi/a, wrap in planes of a/4
    Complex phase = theta == 0 ? Complex(1) : Complex(std::cos(theta), std::sin(theta));
    if (!anion) phase = std::conj(phase);
    for (int r = 0; r < norb_; ++r)
      for (int c = 0; c < norb_; ++c) {
        const double v = anion ? B[orbs_[r]][orbs_[c]] : B[orbs_[c]][orbs_[r]];
        if (v == 0) continue;
        const Complex z = v * phase;
        for (int sp = 0; sp < spins_; ++sp) blk[(sp * norb_ + r) * bs_ + sp * norb_ + c] = z;
      }
  }

private:
  const Structure &s_;
  const TightBindingModel &model_;
  std::array<double, 3> k_;
  std::vector<int> orbs_;
  int norb_ = 0, bs_ = 0, spins_ = 1;
  std::vector<std::array<OrbitalBlock, 4>> bond_; // per material and bond direction
};

// Arrays that a split-array MATMPIAIJ uses in place; freed with the matrix.
struct CsrStorage {
  std::vector<PetscInt> di, dj, oi, oj;
  std::vector<PetscScalar> da, oa;
};
PetscErrorCode DestroyCsrStorage(void *ctx) {
  delete static_cast<CsrStorage *>(ctx);
  return 0;
}

PetscErrorCode AssembleAIJ(MPI_Comm comm, const Structure &s, const BlockBuilder &builder, Mat *H) {
  const int bs = builder.blockSize();
  const PetscInt m = s.owned * bs;
  auto *csr = new CsrStorage;
  PetscFunctionBeginUser;
  csr->di.reserve(m + 1), csr->oi.reserve(m + 1);
  csr->dj.reserve((size_t)m * bs * 5 / 2), csr->da.reserve((size_t)m * bs * 5 / 2);
  csr->di.push_back(0), csr->oi.push_back(0);
  std::vector<Complex> blocks((size_t)5 * bs * bs);
  struct Part {
    PetscInt col0; // first column of the neighbour atom (local for owned, global for halo)
    const Complex *blk;
    bool halo;
  };
  std::vector<Part> parts;
  for (PetscInt i = 0; i < s.owned; ++i) {
    parts.clear();
    builder.onsite(i, blocks.data());
    parts.push_back({i * bs, blocks.data(), false});
    for (int b = 0; b < 4; ++b) {
      const int j = s.bonds[i][b];
      if (j < 0) continue;
      Complex *blk = blocks.data() + (size_t)(b + 1) * bs * bs;
      builder.bond(i, b, blk);
      parts.push_back(j < s.owned ? Part{(PetscInt)j * bs, blk, false} : Part{s.globalIndex(j) * bs, blk, true});
    }
    std::sort(parts.begin(), parts.end(), [](const Part &a, const Part &b) { return a.halo != b.halo ? !a.halo : a.col0 < b.col0; });
    for (int r = 0; r < bs; ++r) {
      for (const Part &p : parts) {
        const Complex *row = p.blk + (size_t)r * bs;
        auto &J = p.halo ? csr->oj : csr->dj;
        auto &A = p.halo ? csr->oa : csr->da;
        for (int c = 0; c < bs; ++c)
          if (row[c] != Complex(0)) {
            J.push_back(p.col0 + c);
            A.push_back(row[c]);
          }
      }
      csr->di.push_back((PetscInt)csr->dj.size());
      csr->oi.push_back((PetscInt)csr->oj.size());
    }
  }
  // PETSc reads the arrays in place (no copy) and keeps them until the matrix is destroyed.
  PetscCall(MatCreateMPIAIJWithSplitArrays(comm, m, m, PETSC_DETERMINE, PETSC_DETERMINE, csr->di.data(), csr->dj.data(), csr->da.data(), csr->oi.data(), csr->oj.data(),
                                           csr->oa.data(), H));
  PetscContainer container;
  PetscCall(PetscContainerCreate(comm, &container));
  PetscCall(PetscContainerSetPointer(container, csr));
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

} // namespace

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
  PetscCall(PetscLogEventEnd(ev->assembly, 0, 0, 0, 0));
  if (info) {
    MatInfo mi;
    PetscCall(MatGetInfo(*H, MAT_GLOBAL_SUM, &mi));
    PetscCall(MatGetSize(*H, &info->rows, nullptr));
    info->block_size = builder.blockSize();
    info->nonzeros = (PetscInt)mi.nz_used;
    const double per_entry = sizeof(PetscScalar) + (format == MatrixFormat::aij ? sizeof(PetscInt) : sizeof(PetscInt) / double(builder.blockSize() * builder.blockSize()));
    info->bytes = mi.nz_used * per_entry + (double)info->rows * sizeof(PetscInt);
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
