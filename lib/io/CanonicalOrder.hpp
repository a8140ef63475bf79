#pragma once
// Per-atom data of this rank's owned atoms, which lie scattered over the canonical (rank-independent) order (one run
// per line of atoms), moved with one VecScatter into a Vec in canonical order split in contiguous blocks of atoms
// (PETSc's default split), so that each rank then writes one hyperslab of a file.
#include <petscvec.h>

#include <span>

#include "support/PetscHandle.hpp"

namespace tbpeta {

class CanonicalOrder {
public:
  // `from`: a Vec whose local entries are the owned atoms in local order, per_atom entries each (its layout is used,
  // not its values). Collective.
  static PetscErrorCode Create(Vec from, std::span<const PetscInt> canonical_index, PetscInt total_atoms,
                               PetscInt per_atom, CanonicalOrder *out);
  // canonical() = the entries of x (laid out as `from`) in canonical order. Collective.
  PetscErrorCode Forward(Vec x);
  Vec canonical() const { return to_; }
  PetscInt firstAtom() const { return first_atom_; } // this rank's block of canonical atoms
  PetscInt atoms() const { return atoms_; }

private:
  OwnedVec to_;
  OwnedScatter scatter_;
  PetscInt first_atom_ = 0, atoms_ = 0;
};

} // namespace tbpeta
