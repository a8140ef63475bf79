#include "io/CanonicalOrder.hpp"

namespace tbpeta {

PetscErrorCode CanonicalOrder::Create(Vec from, std::span<const PetscInt> canonical_index, PetscInt total_atoms,
                                      PetscInt per_atom, CanonicalOrder *out) {
  const PetscInt owned = static_cast<PetscInt>(canonical_index.size());
  PetscInt local = PETSC_DECIDE, first, lo, hi;
  MPI_Comm comm;
  OwnedIS is_from, is_to;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)from, &comm));
  PetscCall(PetscSplitOwnership(comm, &local, &total_atoms));
  PetscCall(VecCreateMPI(comm, local * per_atom, total_atoms * per_atom, out->to_.out()));
  PetscCall(VecGetOwnershipRange(from, &first, nullptr));
  PetscCall(ISCreateStride(comm, owned * per_atom, first, 1, is_from.out()));
  PetscCall(ISCreateBlock(comm, per_atom, owned, canonical_index.data(), PETSC_COPY_VALUES, is_to.out()));
  PetscCall(VecScatterCreate(from, is_from, out->to_, is_to, out->scatter_.out()));
  PetscCall(VecGetOwnershipRange(out->to_, &lo, &hi));
  out->first_atom_ = lo / per_atom, out->atoms_ = (hi - lo) / per_atom;
  PetscFunctionReturn(0);
}

PetscErrorCode CanonicalOrder::Forward(Vec x) {
  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(scatter_, x, to_, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(scatter_, x, to_, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
