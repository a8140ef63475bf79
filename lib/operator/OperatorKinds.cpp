#include "operator/OperatorKind.hpp"

#include "operator/HamiltonianBlocks.hpp"

namespace tbpeta {

// Each kind's file defines its OperatorKind; registering it is one line of the table below.
OperatorKind AijOperatorKind();          // MatrixHamiltonian.cpp
OperatorKind BaijOperatorKind();         // MatrixHamiltonian.cpp
OperatorKind StoredBlocksOperatorKind(); // block/BlockShell.cpp
OperatorKind ShellOperatorKind();        // block/BlockShell.cpp

const std::vector<OperatorKind> &OperatorKinds() {
  static const std::vector<OperatorKind> kinds = {
      AijOperatorKind(),
      BaijOperatorKind(),
      StoredBlocksOperatorKind(),
      ShellOperatorKind(),
  };
  return kinds;
}

const OperatorKind *FindOperatorKind(const std::string &name) {
  for (const OperatorKind &k : OperatorKinds())
    if (name == k.name) return &k;
  return nullptr;
}

OperatorCounts CountOperator(const Structure &s, const TightBindingModel &model) {
  const HamiltonianBlocks blocks(s, model, {0, 0, 0});
  OperatorCounts c;
  c.owned = (double)s.owned, c.halo = (double)s.halo();
  c.rows_per_atom = blocks.blockSize(), c.orbitals = blocks.orbitals();
  c.strained = blocks.strained();
  for (PetscInt i = 0; i < s.owned; ++i) {
    bool dangling = false;
    for (int b = 0; b < 4; ++b) {
      if (s.bonds[i][b] < 0) {
        dangling = true;
        continue;
      }
      c.entries += blocks.bondCount(i, b), c.bonds += 1;
    }
    c.entries += blocks.onsiteBound(dangling);
    c.dangling_atoms += dangling;
  }
  return c;
}

} // namespace tbpeta
