#include "operator/Hamiltonian.hpp"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "operator/HamiltonianBlocks.hpp"
#include <string>

namespace tbpeta {

const char *HamiltonianKindName(HamiltonianKind kind) {
  switch (kind) {
  case HamiltonianKind::stored: return "stored";
  case HamiltonianKind::stored_blocks: return "stored_blocks";
  default: return "shell";
  }
}

PetscErrorCode HamiltonianOptionsFromOptions(MPI_Comm comm, HamiltonianOptions *opts) {
  const char *kinds[] = {"stored", "stored_blocks", "shell", "HamiltonianKind", "HAMILTONIAN_", nullptr};
  HamiltonianOptions o;
  PetscEnum kind = (PetscEnum)o.kind;
  PetscBool cache = o.block_cache ? PETSC_TRUE : PETSC_FALSE, cache_set = PETSC_FALSE, format_set = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Hamiltonian operator", "tbpeta");
  PetscCall(PetscOptionsEnum("-hamiltonian", "H as a stored PETSc matrix (stored, see -mat_type), tbpeta's stored bond blocks (stored_blocks) or recomputed in every product (shell)", "tbpeta",
                             kinds, kind, &kind, nullptr));
  PetscCall(PetscOptionsBool("-shell_block_cache", "-hamiltonian shell: keep the distinct bond blocks (1) or recompute every block from Slater-Koster in every product (0)", "tbpeta", cache,
                             &cache, &cache_set));
  PetscOptionsEnd();
  PetscCall(PetscOptionsHasName(nullptr, nullptr, "-mat_type", &format_set));
  o.kind = (HamiltonianKind)kind;
  o.block_cache = cache;
  PetscCheck(!cache_set || o.kind == HamiltonianKind::shell, comm, PETSC_ERR_USER_INPUT, "-shell_block_cache applies to -hamiltonian shell only (here -hamiltonian %s)", HamiltonianKindName(o.kind));
  PetscCheck(!format_set || o.kind == HamiltonianKind::stored, comm, PETSC_ERR_USER_INPUT, "-mat_type applies to -hamiltonian stored only (here -hamiltonian %s)", HamiltonianKindName(o.kind));
  PetscCall(MatrixFormatFromOptions(comm, &o.format));
  *opts = o;
  PetscFunctionReturn(0);
}

std::string HamiltonianDescription(const HamiltonianOptions &opts) {
  switch (opts.kind) {
  case HamiltonianKind::stored: return std::string("stored (") + (opts.format == MatrixFormat::aij ? "aij" : "baij") + ")";
  case HamiltonianKind::stored_blocks: return "stored_blocks (tbpeta's bond blocks)";
  default: return opts.block_cache ? "shell (on the fly, block cache)" : "shell (on the fly, every block recomputed)";
  }
}

namespace {
// A NaN or Inf in H (or entries so large that a row's sum overflows) would poison every product without a word: one
// product H 1 at build time finds the first such row on any kind of operator, and the error names its atom
// (canonical index, species, material) and orbital. Collective.
PetscErrorCode CheckHamiltonianFinite(MPI_Comm comm, const Structure &s, const TightBindingModel &model, Mat H, int bs) {
  Vec one, y;
  const PetscScalar *py;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(H, &one, &y));
  PetscCall(VecSet(one, 1.0));
  PetscCall(MatMult(H, one, y));
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGetArrayRead(y, &py));
  long long bad = -1; // canonical row of this rank's first non-finite entry
  PetscInt first = -1;
  for (PetscInt r = 0; r < n && first < 0; ++r)
    if (!std::isfinite(PetscRealPart(py[r])) || !std::isfinite(PetscImaginaryPart(py[r]))) first = r;
  const double value = first >= 0 ? PetscRealPart(py[first]) : 0;
  PetscCall(VecRestoreArrayRead(y, &py));
  PetscCall(VecDestroy(&one));
  PetscCall(VecDestroy(&y));
  if (first >= 0) bad = s.lattice.canonicalIndex(s.sites[first / bs]) * bs + first % bs;
  long long lowest = bad < 0 ? LLONG_MAX : bad;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_LONG_LONG, MPI_MIN, comm));
  if (lowest == LLONG_MAX) PetscFunctionReturn(0);
  // The rank holding that row describes it; everyone raises the same line.
  char where[256] = "";
  if (bad == lowest) {
    const PetscInt atom = first / bs;
    const auto &m = model.materials[s.material[atom]];
    const bool anion = s.sublattice(atom) == Sublattice::anion;
    std::snprintf(where, sizeof where, "canonical atom %lld (%s of %s), orbital %d: (H 1) = %g", bad / bs, anion ? m.anion.c_str() : m.cation.c_str(), m.material.c_str(), (int)(bad % bs), value);
  }
  int owner = bad == lowest ? 1 : 0, rank;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  int source = owner ? rank : -1;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &source, 1, MPI_INT, MPI_MAX, comm));
  PetscCallMPI(MPI_Bcast(where, sizeof where, MPI_CHAR, source, comm));
  SETERRQ(comm, PETSC_ERR_FP, "H is not finite at %s: an entry is NaN or Inf, or so large that a row's sum overflows; check the parameters of that material", where);
}
} // namespace

PetscErrorCode CreateHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k, const HamiltonianOptions &opts, Mat *H,
                                 HamiltonianInfo *info, bool check_finite) {
  PetscFunctionBeginUser;
  switch (opts.kind) {
  case HamiltonianKind::stored: PetscCall(AssembleHamiltonian(comm, s, model, k, opts.format, H, info)); break;
  case HamiltonianKind::stored_blocks: PetscCall(CreateBlockHamiltonian(comm, s, model, k, BlockSource::per_bond, H, info)); break;
  case HamiltonianKind::shell: PetscCall(CreateBlockHamiltonian(comm, s, model, k, opts.block_cache ? BlockSource::shared : BlockSource::recomputed, H, info)); break;
  }
  if (!check_finite) PetscFunctionReturn(0);
  PetscErrorCode finite = CheckHamiltonianFinite(comm, s, model, *H, model.blockSize());
  if (finite) PetscCall(MatDestroy(H));
  PetscCall(finite);
  PetscFunctionReturn(0);
}

double EstimateHamiltonianBytes(const Structure &s, const TightBindingModel &model, const HamiltonianOptions &opts) {
  const HamiltonianBlocks blocks(s, model, {0, 0, 0});
  const int bs = blocks.blockSize(), norb = blocks.orbitals();
  double entries = 0, bonds = 0, dangling_atoms = 0;
  for (PetscInt i = 0; i < s.owned; ++i) {
    bool dangling = false;
    for (int b = 0; b < 4; ++b) {
      if (s.bonds[i][b] < 0) {
        dangling = true;
        continue;
      }
      entries += blocks.bondCount(i, b), bonds += 1;
    }
    entries += blocks.onsiteBound(dangling);
    dangling_atoms += dangling;
  }
  const double rows = (double)s.owned * bs, halo_rows = (double)s.halo() * bs;
  switch (opts.kind) {
  case HamiltonianKind::stored:
    if (opts.format == MatrixFormat::aij) return entries * (sizeof(PetscScalar) + sizeof(PetscInt)) + 2 * (rows + 1) * sizeof(PetscInt) + 2 * halo_rows * sizeof(PetscScalar);
    return ((double)s.owned + bonds) * ((double)bs * bs * sizeof(PetscScalar) + sizeof(PetscInt)) + 2 * halo_rows * sizeof(PetscScalar);
  case HamiltonianKind::stored_blocks:
    return bonds * norb * norb * sizeof(double) + (double)s.owned * 48 + 3 * halo_rows * sizeof(PetscScalar);
  default: // per atom: neighbours, block and phase indices, on-site index, interior/boundary list; the halo buffers
    return (double)s.owned * 48 + 3 * halo_rows * sizeof(PetscScalar) + 64.0 * norb * norb * sizeof(double) + (dangling_atoms > 0 ? 1024.0 * 32 : 0);
  }
}

PetscErrorCode HamiltonianIsStored(Mat H, bool *stored) {
  MatType type;
  PetscFunctionBeginUser;
  PetscCall(MatGetType(H, &type));
  *stored = std::strcmp(type, MATSHELL) != 0;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
