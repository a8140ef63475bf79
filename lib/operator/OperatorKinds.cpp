#include "operator/OperatorKind.hpp"

#include <bit>
#include <cstdint>

#include "geometry/HaloAnalysis.hpp"
#include "operator/HamiltonianBlocks.hpp"
#include "support/Registry.hpp"

namespace tbpeta {

// Each kind's file defines its OperatorKind; registering it is one line of the table below.
OperatorKind AijOperatorKind();          // MatrixHamiltonian.cpp
OperatorKind BaijOperatorKind();         // MatrixHamiltonian.cpp
OperatorKind StoredBlocksOperatorKind(); // block/BlockShell.cpp
OperatorKind ShellOperatorKind();        // block/BlockShell.cpp

namespace {

Registry<OperatorKind> &KindRegistry() {
  static Registry<OperatorKind> kinds = {
      AijOperatorKind(),
      BaijOperatorKind(),
      StoredBlocksOperatorKind(),
      ShellOperatorKind(),
  };
  return kinds;
}

} // namespace

const std::deque<OperatorKind> &OperatorKinds() { return KindRegistry().all(); }

const OperatorKind *FindOperatorKind(const std::string &name) { return KindRegistry().Find(name); }

PetscErrorCode RegisterOperatorKind(const OperatorKind &kind) {
  PetscFunctionBeginUser;
  PetscCheck(kind.name && *kind.name && kind.describe && kind.create && kind.estimate_bytes, PETSC_COMM_SELF,
             PETSC_ERR_ARG_NULL, "an operator kind needs a name, describe, create and estimate_bytes");
  KindRegistry().Add(kind);
  PetscFunctionReturn(0);
}

OperatorCounts CountOperator(const Structure &s, const TightBindingModel &model) {
  const HamiltonianBlocks blocks(s, model, {0, 0, 0});
  OperatorCounts c;
  c.owned = (double)s.owned, c.halo = (double)s.halo();
  c.rows_per_atom = blocks.blockSize(), c.orbitals = blocks.orbitals(), c.materials = (int)model.materials.size();
  c.strained = blocks.strained();
  c.potential = !s.potential.empty();
  std::uint32_t kinds = 0; // bit 16 s + mask: sublattice s, bonds `mask` dangling
  for (PetscInt i = 0; i < s.owned; ++i) {
    int mask = 0;
    for (int b = 0; b < 4; ++b) {
      if (s.bonds[i][b] < 0) {
        mask |= 1 << b;
        continue;
      }
      c.entries += blocks.bondCount(i, b), c.bonds += 1;
    }
    c.entries += blocks.onsiteBound(mask != 0);
    c.dangling_atoms += mask != 0;
    if (mask) kinds |= 1u << (16 * (int)s.sublattice(i) + mask);
  }
  c.dangling_kinds = std::popcount(kinds);
  return c;
}

OperatorCounts CountOperator(const ZincblendeLattice &lattice, const PlanePartition &partition, int rank,
                             const TightBindingModel &model, bool potential) {
  const DomainHalo d = CountDomainHalo(lattice, partition, rank);
  const DomainBonds b = CountDomainBonds(lattice, partition, rank);
  OperatorCounts c;
  c.owned = (double)d.owned, c.halo = (double)d.halo;
  c.bonds = (double)b.bonds, c.dangling_atoms = (double)b.dangling_atoms, c.dangling_kinds = b.dangling_kinds;
  c.rows_per_atom = model.blockSize(), c.orbitals = model.orbitals(), c.materials = (int)model.materials.size();
  c.strained = model.strained.on;
  c.potential = potential;
  c.entries = c.bonds * HamiltonianBlocks::MostBondEntries(model) +
              (c.owned - c.dangling_atoms) * HamiltonianBlocks::OnsiteBound(model, false) +
              c.dangling_atoms * HamiltonianBlocks::OnsiteBound(model, true);
  return c;
}

} // namespace tbpeta
