// The block operator's face: a MatShell with its products, norms and halo, and the two operator kinds built on it
// (-hamiltonian stored_blocks and shell, OperatorKinds.cpp).
#include <petscsf.h>

#include <array>
#include <cstdint>
#include <vector>

#include "operator/FusedLanczosProduct.hpp"
#include "operator/OperatorKind.hpp"
#include "operator/block/BlockHamiltonian.hpp"
#include "operator/block/BlockKernels.hpp"
#include "operator/block/BlockProducts.hpp"
#include "operator/block/BlockTables.hpp"

namespace tbpeta {

namespace {

template <class T, class A>
double Capacity(const std::vector<T, A> &v) {
  return (double)v.capacity() * sizeof(T);
}

// The MatShell on the operator, and the halo: the star forest that brings each halo atom's rows from its owner (the
// owner's rank and local atom from the structure's rank offsets), set up here so that no product pays for it.
PetscErrorCode CreateShell(MPI_Comm comm, const Structure &s, block::BlockOperator *op, Mat *H) {
  PetscMPIInt size;
  PetscLayout rows;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  // H's rows from the structure's rank offsets: a layout set up without the reductions MatSetSizes would make.
  std::vector<PetscInt> range(s.offsets.size());
  for (size_t r = 0; r < range.size(); ++r) range[r] = s.offsets[r] * op->bs;
  PetscCall(PetscLayoutCreateFromRanges(comm, range.data(), PETSC_COPY_VALUES, 1, &rows));
  PetscCall(MatCreate(comm, H));
  PetscCall(MatSetLayouts(*H, rows, rows));
  PetscCall(PetscLayoutDestroy(&rows));
  PetscCall(MatSetType(*H, MATSHELL));
  PetscCall(MatShellSetContext(*H, op));
  PetscCall(MatSetUp(*H));
  PetscCall(MatShellSetOperation(*H, MATOP_MULT, (void (*)(void))block::MultBlockOperator));
  PetscCall(MatShellSetOperation(*H, MATOP_NORM, (void (*)(void))block::NormBlockOperator));
  PetscCall(MatShellSetOperation(*H, MATOP_DESTROY, (void (*)(void))block::DestroyBlockOperator));
  PetscCall(MatSetOption(*H, MAT_HERMITIAN, PETSC_TRUE));
  PetscCall(MatSetFusedLanczosProduct(*H, block::FusedMultBlockOperator));
  PetscCall(MatSetLazyLanczosProduct(*H, block::LazyMultBlockOperator));
  if (size == 1) PetscFunctionReturn(0); // one rank has no halo (a periodic face wraps onto its own atoms)
  PetscSFNode *owners;                   // handed to the star forest, not copied
  PetscCall(PetscMalloc1(s.halo(), &owners));
  for (PetscInt h = 0; h < s.halo(); ++h) {
    const int owner = s.ownerOf(s.halo_global[h]);
    owners[h].rank = owner, owners[h].index = s.halo_global[h] - s.offsets[owner];
  }
  PetscCall(PetscSFCreate(comm, &op->halo_sf));
  PetscCall(PetscSFSetGraph(op->halo_sf, s.owned, s.halo(), nullptr, PETSC_OWN_POINTER, owners, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(op->halo_sf));
  PetscCallMPI(MPI_Type_contiguous(op->bs, MPIU_SCALAR, &op->unit));
  PetscCallMPI(MPI_Type_commit(&op->unit));
  PetscCall(PetscMalloc1((size_t)s.halo() * op->bs, &op->ghost));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode CreateBlockHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                                      std::array<double, 3> k, BlockSource source, Mat *H, double *bytes,
                                      BlockKernel kernel) {
  PetscFunctionBeginUser;
  const HamiltonianBlocks blocks(s, model, k, false); // dense blocks only: no stored patterns
  auto *op = new block::BlockOperator;
  op->source = source;
  op->bs = blocks.blockSize(), op->norb = blocks.orbitals(), op->spins = blocks.spins();
  op->apply = block::KernelFor(op->norb, op->spins, kernel == BlockKernel::reference);
  op->owned = s.owned, op->halo = s.halo();
  if (source == BlockSource::recomputed || blocks.strained()) op->model = model;
  op->strained = blocks.strained();
  op->own_diagonal = op->strained;
  if (!op->strained && !s.potential.empty()) op->potential.assign(s.potential.begin(), s.potential.end());
  if (op->own_diagonal) op->diag.reserve((size_t)s.owned * op->norb);
  if (op->strained) {
    op->q = s.a_nm / 4;
    op->box_strained = s.homogeneouslyStrained();
    for (int b = 0; b < 4; ++b) op->ideal[b] = StrainedIdealBond(ZincblendeLattice::kAnionBonds[b], op->q, s.strain);
    if (source != BlockSource::per_bond) { // what the product evaluates each bond from
      op->material = s.material;
      if (s.displacement.empty()) op->u.assign(s.sites.size(), {0.0, 0.0, 0.0}); // a homogeneous strain only
      else op->u = s.displacement;
      op->anion.resize(s.owned);
      for (PetscInt i = 0; i < s.owned; ++i) op->anion[i] = s.sublattice(i) == Sublattice::anion;
      for (const auto &m : model.materials)
        for (bool anion_row : {true, false})
          op->rows.push_back(MakeRowIntegrals(m, anion_row, model.strained.scaling == BondScaling::harrison,
                                              UnstrainedBondLength2(m)));
      if (source == BlockSource::shared) { // the ideal bonds' blocks, by key
        op->blocks.resize((size_t)blocks.bondKeys() * op->norb * op->norb);
        for (int key = 0; key < blocks.bondKeys(); ++key) {
          double *B = op->blocks.data() + (size_t)key * op->norb * op->norb;
          blocks.bondBlock(key, B);
          block::StoreByColumns(op->norb, B);
        }
      }
    }
  }
  op->bonds = s.bonds.share(), op->nbr = op->bonds->data();
  block::BuildBlockTables(s, blocks, op, &op->norm_inf, &op->fro2);
  op->so_entries.shrink_to_fit(); // 12 per configuration, as the preflight counts them
  if (source == BlockSource::shared && !op->strained && !op->terms_of.empty() && kernel == BlockKernel::tuned)
    op->apply_pair = block::PairKernelFor(op->norb, op->spins);
  PetscCheck(op->phases.size() <= 256, PETSC_COMM_SELF, PETSC_ERR_PLIB, "more than 255 distinct Bloch phases");
  PetscCall(CreateShell(comm, s, op, H));
  op->bytes = Capacity(*op->bonds) + Capacity(op->terms) + Capacity(op->terms_of) + Capacity(op->interior) +
              Capacity(op->boundary) + Capacity(op->blocks) + Capacity(op->phases) + Capacity(op->onsites) +
              Capacity(op->so_entries) + Capacity(op->diag) + Capacity(op->potential) + Capacity(op->u) +
              Capacity(op->material) + Capacity(op->anion) + Capacity(op->rows) +
              3.0 * (double)s.halo() * op->bs *
                  sizeof(PetscScalar); // the halo's entries and the star forest's send and receive buffers
  if (bytes) *bytes = op->bytes;
  PetscFunctionReturn(0);
}

namespace {

// -hamiltonian shell's own options.
struct ShellSettings {
  bool block_cache = true;                 // -shell_block_cache
  BlockKernel kernel = BlockKernel::tuned; // -shell_kernel
};

const char *const kShellKernels[] = {"tuned", "reference"}; // in BlockKernel's order

PetscErrorCode ShellFromOptions(MPI_Comm comm, KindSettings *settings, std::string *given) {
  ShellSettings s;
  PetscBool cache = s.block_cache ? PETSC_TRUE : PETSC_FALSE, set_cache = PETSC_FALSE, set_kernel = PETSC_FALSE;
  PetscInt kernel = (PetscInt)s.kernel;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Operator kind shell (-hamiltonian shell)", "tbpeta");
  PetscCall(PetscOptionsBool("-shell_block_cache",
                             "-hamiltonian shell: keep the distinct bond blocks (1) or recompute every block from "
                             "Slater-Koster in every product (0)",
                             "tbpeta", cache, &cache, &set_cache));
  PetscCall(PetscOptionsEList("-shell_kernel",
                              "-hamiltonian shell: the atom kernel: tuned, or reference (as before its tuning, for "
                              "benchmarks: the same products to rounding)",
                              "tbpeta", kShellKernels, 2, kShellKernels[kernel], &kernel, &set_kernel));
  PetscOptionsEnd();
  s.block_cache = cache;
  s.kernel = (BlockKernel)kernel;
  if (set_cache) *given = "-shell_block_cache";
  else if (set_kernel) *given = "-shell_kernel";
  *settings = KindSettings(s);
  PetscFunctionReturn(0);
}

PetscErrorCode CreateStoredBlocks(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                                  std::array<double, 3> k, const HamiltonianOptions &, Mat *H, double *bytes) {
  return CreateBlockHamiltonian(comm, s, model, k, BlockSource::per_bond, H, bytes);
}

PetscErrorCode CreateShellOperator(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                                   std::array<double, 3> k, const HamiltonianOptions &opts, Mat *H, double *bytes) {
  const ShellSettings settings = SettingsOf<ShellSettings>(opts);
  const BlockSource source = settings.block_cache ? BlockSource::shared : BlockSource::recomputed;
  return CreateBlockHamiltonian(comm, s, model, k, source, H, bytes, settings.kernel);
}

// What every block operator keeps beside its blocks and per-atom indices: the halo entries and the star forest's
// buffers; the table of distinct on-site configurations (a cation's material; an anion's cations' materials, at most
// C(m + 3, 4) for m materials; each kind of passivated atom); an unstrained H's copy of the potential on the atoms (a
// strained H folds it into each atom's own diagonal, of norb doubles).
double BlockOperatorCommonBytes(const OperatorCounts &c) {
  const double m = c.materials, anions = (m + 3) * (m + 2) * (m + 1) * m / 24;
  const double onsite_table =
      (m + anions + c.dangling_kinds) * (sizeof(block::OnSite) + 12 * sizeof(block::SpinOrbitEntry));
  return 3 * c.halo * c.rows_per_atom * sizeof(PetscScalar) + onsite_table +
         c.owned * (c.strained    ? c.orbitals * sizeof(double)
                    : c.potential ? sizeof(double)
                                  : 0);
}

// Per owned atom its bonds, its own terms (4 blocks, phases and its on-site entry) and its place among the interior or
// boundary atoms; one real block per bond.
double StoredBlocksBytes(const OperatorCounts &c, const HamiltonianOptions &) {
  return c.owned * (sizeof(std::array<int, 4>) + sizeof(block::AtomTerms) + sizeof(PetscInt)) +
         c.bonds * c.orbitals * c.orbitals * sizeof(double) + BlockOperatorCommonBytes(c);
}

// Per owned atom its bonds, the index of its terms and its place among the interior or boundary atoms; with the block
// cache, the distinct blocks (one per material, bond direction and row atom). Strained, what the product evaluates each
// bond from: the displacement and material of owned and halo atoms, the sublattice of owned atoms.
double ShellBytes(const OperatorCounts &c, const HamiltonianOptions &opts) {
  const double per_atom = sizeof(std::array<int, 4>) + sizeof(std::int32_t) + sizeof(PetscInt);
  const ShellSettings settings = SettingsOf<ShellSettings>(opts);
  const double blocks = settings.block_cache ? 8.0 * c.materials * c.orbitals * c.orbitals : 0;
  const double strained = c.strained ? c.owned * (3 * sizeof(double) + 2) + c.halo * (3 * sizeof(double) + 1) : 0;
  return c.owned * per_atom + blocks * sizeof(double) + strained + BlockOperatorCommonBytes(c);
}

// What every product reads of a strained block operator beside its bonds: each owned atom's own diagonal.
double StrainedDiagonalBytes(const OperatorCounts &c) { return c.strained ? c.owned * c.orbitals * sizeof(double) : 0; }

// Per product: each owned atom's bonds and terms (4 block indices, 4 phases, its on-site entry), each bond's block.
double StoredBlocksStreamedBytes(const OperatorCounts &c, const HamiltonianOptions &) {
  return c.owned * (sizeof(std::array<int, 4>) + sizeof(block::AtomTerms)) +
         c.bonds * c.orbitals * c.orbitals * sizeof(double) + StrainedDiagonalBytes(c);
}

// Per product: each owned atom's bonds and the index of its terms (the distinct blocks stay in cache); strained, what
// each bond is evaluated from: the displacement, material and sublattice of owned atoms, displacement and material of
// halo atoms.
double ShellStreamedBytes(const OperatorCounts &c, const HamiltonianOptions &) {
  const double strained = c.strained ? c.owned * (3 * sizeof(double) + 2) + c.halo * (3 * sizeof(double) + 1) : 0;
  return c.owned * (sizeof(std::array<int, 4>) + sizeof(std::int32_t)) + strained + StrainedDiagonalBytes(c);
}

std::string DescribeShell(const HamiltonianOptions &opts) {
  const ShellSettings settings = SettingsOf<ShellSettings>(opts);
  if (!settings.block_cache) return "shell (on the fly, every block recomputed)";
  return settings.kernel == BlockKernel::tuned ? "shell (on the fly, block cache)"
                                               : "shell (on the fly, block cache, reference kernel)";
}

} // namespace

OperatorKind StoredBlocksOperatorKind() {
  return {"stored_blocks",
          false,
          [](const HamiltonianOptions &) { return std::string("stored_blocks (tbpeta's bond blocks)"); },
          CreateStoredBlocks,
          StoredBlocksBytes,
          nullptr,
          StoredBlocksStreamedBytes};
}

OperatorKind ShellOperatorKind() {
  return {"shell", false, DescribeShell, CreateShellOperator, ShellBytes, ShellFromOptions, ShellStreamedBytes};
}

} // namespace tbpeta
