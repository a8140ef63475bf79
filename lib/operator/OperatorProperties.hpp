#pragma once
// What an operator standing for H is, carried by the Mat itself, so that solvers ask the operator instead of
// guessing from its Mat type: whether its entries exist (it can be factored or densified), what -hamiltonian calls
// it, the rows per atom, whether it is time-reversal symmetric with spin (Kramers pairs), the canonical numbering of
// its rows (rank-independent start vectors), its size, and the products made with it (each y = Ax counted and shown
// in -log_view as TbProduct). Every operator tbpeta builds carries them; a Mat from elsewhere carries none.
#include <petscmat.h>

#include <string>
#include <vector>

#include "geometry/CanonicalRuns.hpp"

namespace tbpeta {

struct OperatorProperties {
  std::string kind;         // what -hamiltonian calls it ("aij", "baij", "stored_blocks", "shell"), or "folded"
  std::string description;  // e.g. "stored (aij)", "shell (on the fly, block cache)"
  bool has_entries = false; // a PETSc matrix whose entries can be factored or densified
  PetscInt rows_per_atom = 1;
  PetscInt kramers_block = 0;    // rows per atom when time-reversal symmetric with spin, else 0
  CanonicalRuns canonical_atoms; // canonical index of each owned atom; empty: rows numbered globally
  PetscInt rows = 0;             // global
  double nonzeros = 0;           // stored entries, summed over the ranks (0: none stored entry by entry)
  double bytes = 0;              // the operator's own memory on this rank (OperatorTotalBytes: all ranks')

  // f(i, canonical row of local row i) for every local row i in [0, n), in order (rstart: this rank's first global
  // row).
  template <class F>
  void forEachCanonicalRow(PetscInt n, PetscInt rstart, F &&f) const {
    if (canonical_atoms.empty()) {
      for (PetscInt i = 0; i < n; ++i) f(i, rstart + i);
      return;
    }
    const PetscInt bs = rows_per_atom;
    canonical_atoms.forEach([&](PetscInt a, PetscInt c) {
      for (PetscInt r = 0; r < bs; ++r) f(a * bs + r, c * bs + r);
    });
  }
};

// f(i, canonical row of local row i) for every local row i in [0, n) of an operator that may carry no properties
// (null: its rows are numbered globally).
template <class F>
void ForEachCanonicalRow(const OperatorProperties *p, PetscInt n, PetscInt rstart, F &&f) {
  if (p) p->forEachCanonicalRow(n, rstart, f);
  else
    for (PetscInt i = 0; i < n; ++i) f(i, rstart + i);
}

// Attaches `properties` to A (replacing any), and with count_products wraps A's product so that every y = Ax is
// counted and logged. Collective.
PetscErrorCode OperatorSetProperties(Mat A, OperatorProperties properties, bool count_products);
// The properties of A, or nullptr when A carries none. Not collective.
PetscErrorCode OperatorGetProperties(Mat A, const OperatorProperties **properties);
// The operator's own memory summed over the ranks (0 for a Mat without properties). Collective.
PetscErrorCode OperatorTotalBytes(Mat A, double *bytes);
// Whether A's entries can be factored or densified: its properties say so, or for a Mat without properties, PETSc can
// give its rows. Not collective.
PetscErrorCode OperatorHasEntries(Mat A, bool *has_entries);
// Products y = Ax made so far (every solver's counter reads it before and after its solve); -1 for an operator whose
// products are not counted. Not collective.
PetscErrorCode OperatorProductCount(Mat A, PetscInt *count);
// Counts n products made outside MatMult (a fused product); nothing for an operator whose products are not counted.
// Not collective.
PetscErrorCode OperatorAddProducts(Mat A, PetscInt n);

} // namespace tbpeta
