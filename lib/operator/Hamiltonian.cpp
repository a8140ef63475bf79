#include "operator/Hamiltonian.hpp"

#include <climits>
#include <cmath>
#include <cstdio>

#include "operator/BlockHamiltonian.hpp"
#include "operator/HamiltonianBlocks.hpp"
#include "operator/MatrixHamiltonian.hpp"
#include "operator/OperatorProperties.hpp"
#include "support/LogEvents.hpp"

namespace tbpeta {

const char *HamiltonianKindName(HamiltonianKind kind) {
  switch (kind) {
  case HamiltonianKind::aij: return "aij";
  case HamiltonianKind::baij: return "baij";
  case HamiltonianKind::stored_blocks: return "stored_blocks";
  default: return "shell";
  }
}

PetscErrorCode HamiltonianOptionsFromOptions(MPI_Comm comm, HamiltonianOptions *opts) {
  const char *kinds[] = {"aij", "baij", "stored_blocks", "shell", "HamiltonianKind", "HAMILTONIAN_", nullptr};
  HamiltonianOptions o;
  PetscEnum kind = (PetscEnum)o.kind;
  PetscBool cache = o.block_cache ? PETSC_TRUE : PETSC_FALSE, cache_set = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Hamiltonian operator", "tbpeta");
  PetscCall(PetscOptionsEnum("-hamiltonian", "H as a PETSc matrix with its entries (aij, baij), tbpeta's stored bond blocks (stored_blocks) or recomputed in every product (shell)", "tbpeta",
                             kinds, kind, &kind, nullptr));
  PetscCall(PetscOptionsBool("-shell_block_cache", "-hamiltonian shell: keep the distinct bond blocks (1) or recompute every block from Slater-Koster in every product (0)", "tbpeta", cache,
                             &cache, &cache_set));
  PetscOptionsEnd();
  o.kind = (HamiltonianKind)kind;
  o.block_cache = cache;
  PetscCheck(!cache_set || o.kind == HamiltonianKind::shell, comm, PETSC_ERR_USER_INPUT, "-shell_block_cache applies to -hamiltonian shell only (here -hamiltonian %s)", HamiltonianKindName(o.kind));
  *opts = o;
  PetscFunctionReturn(0);
}

std::string HamiltonianDescription(const HamiltonianOptions &opts) {
  switch (opts.kind) {
  case HamiltonianKind::aij: return "stored (aij)";
  case HamiltonianKind::baij: return "stored (baij)";
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
  int rank, source;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  source = bad == lowest ? rank : -1;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &source, 1, MPI_INT, MPI_MAX, comm));
  PetscCallMPI(MPI_Bcast(where, sizeof where, MPI_CHAR, source, comm));
  SETERRQ(comm, PETSC_ERR_FP, "H is not finite at %s: an entry is NaN or Inf, or so large that a row's sum overflows; check the parameters of that material", where);
}

// What the Mat carries: its kind, entries, numbering and size (nonzeros and bytes summed over the ranks).
PetscErrorCode DescribeOperator(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k, const HamiltonianOptions &opts, double op_bytes, Mat H) {
  OperatorProperties p;
  PetscFunctionBeginUser;
  p.kind = HamiltonianKindName(opts.kind);
  p.description = HamiltonianDescription(opts);
  p.has_entries = opts.kind == HamiltonianKind::aij || opts.kind == HamiltonianKind::baij;
  p.rows_per_atom = model.blockSize();
  p.kramers_block = model.spin_orbit && s.lattice.timeReversalInvariant(k) ? model.blockSize() : 0;
  p.canonical_atoms = s.canonicalAtoms();
  PetscCall(MatGetSize(H, &p.rows, nullptr));
  if (p.has_entries) {
    MatInfo mi;
    PetscCall(MatGetInfo(H, MAT_GLOBAL_SUM, &mi));
    const double bs = model.blockSize();
    p.nonzeros = mi.nz_used;
    p.bytes = mi.nz_used * (sizeof(PetscScalar) + (opts.kind == HamiltonianKind::aij ? sizeof(PetscInt) : sizeof(PetscInt) / (bs * bs))) + (double)p.rows * sizeof(PetscInt);
  } else {
    p.bytes = op_bytes;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &p.bytes, 1, MPI_DOUBLE, MPI_SUM, comm));
  }
  PetscCall(OperatorSetProperties(H, std::move(p), true));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode CreateHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k, const HamiltonianOptions &opts, Mat *H, bool check_finite) {
  const LogEvents *ev;
  double op_bytes = 0;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->assembly, 0, 0, 0, 0));
  switch (opts.kind) {
  case HamiltonianKind::aij: PetscCall(AssembleMatrixHamiltonian(comm, s, model, k, MatrixFormat::aij, H)); break;
  case HamiltonianKind::baij: PetscCall(AssembleMatrixHamiltonian(comm, s, model, k, MatrixFormat::baij, H)); break;
  case HamiltonianKind::stored_blocks: PetscCall(CreateBlockHamiltonian(comm, s, model, k, BlockSource::per_bond, H, &op_bytes)); break;
  case HamiltonianKind::shell: PetscCall(CreateBlockHamiltonian(comm, s, model, k, opts.block_cache ? BlockSource::shared : BlockSource::recomputed, H, &op_bytes)); break;
  }
  PetscCall(DescribeOperator(comm, s, model, k, opts, op_bytes, *H));
  PetscCall(PetscLogEventEnd(ev->assembly, 0, 0, 0, 0));
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
  case HamiltonianKind::aij: return entries * (sizeof(PetscScalar) + sizeof(PetscInt)) + 2 * (rows + 1) * sizeof(PetscInt) + 2 * halo_rows * sizeof(PetscScalar);
  case HamiltonianKind::baij: return ((double)s.owned + bonds) * ((double)bs * bs * sizeof(PetscScalar) + sizeof(PetscInt)) + 2 * halo_rows * sizeof(PetscScalar);
  case HamiltonianKind::stored_blocks: return bonds * norb * norb * sizeof(double) + (double)s.owned * 48 + 3 * halo_rows * sizeof(PetscScalar);
  default: // per atom: neighbours, block and phase indices, on-site index, interior/boundary list; the halo buffers
    return (double)s.owned * 48 + 3 * halo_rows * sizeof(PetscScalar) + 64.0 * norb * norb * sizeof(double) + (dangling_atoms > 0 ? 1024.0 * 32 : 0);
  }
}

} // namespace tbpeta
