#pragma once
// The atomic displacements of a structure as a PETSc Vec: block size 3 (x, y, z in nm, real numbers in this complex
// PETSc), one block per atom in the structure's global numbering, ghosted with its halo atoms, so that a rank reads
// the displacements of its halo after a ghost update. And the move of a displacement field between two structures
// that hold the same atoms in different boxes (a padded strain domain and the electronic box).
#include <petscvec.h>

#include <array>

#include "geometry/Structure.hpp"

namespace tbpeta {

// A zero displacement field in the structure's layout. Collective.
PetscErrorCode CreateDisplacementVec(MPI_Comm comm, const Structure &s, Vec *u);

// Copies u (the owned values; u need not be ghosted) into s->displacement of owned and halo atoms. Collective.
PetscErrorCode StoreDisplacements(MPI_Comm comm, Vec u, Structure *s);

// Values of `bs` numbers per atom of `to` (a new Vec in `to`'s global numbering, block size bs), taken from `from` (bs
// numbers per atom of `domain`, its global numbering), where the site p of `to` is the site p + origin of `domain`.
// A PETSc scatter. Collective.
PetscErrorCode TransferAtomValues(MPI_Comm comm, const Structure &domain, Vec from, int bs, std::array<int, 3> origin,
                                  const Structure &to, Vec *values);

// The displacements of the atoms of `to`, taken from `from` (a field of the structure `domain`), where the site p of
// `to` is the site p + origin of `domain` (plane units). A PETSc scatter: neither structure is gathered. Collective.
PetscErrorCode TransferDisplacements(MPI_Comm comm, const Structure &domain, Vec from, std::array<int, 3> origin,
                                     Structure *to);

} // namespace tbpeta
