#include "strain/DisplacementField.hpp"

#include <vector>

#include "support/PetscHandle.hpp"

namespace tbpeta {

PetscErrorCode CreateDisplacementVec(MPI_Comm comm, const Structure &s, Vec *u) {
  PetscFunctionBeginUser;
  PetscCall(VecCreateGhostBlock(comm, 3, 3 * s.owned, PETSC_DECIDE, s.halo(), s.halo_global.data(), u));
  PetscCall(VecSet(*u, 0.0));
  PetscFunctionReturn(0);
}

PetscErrorCode StoreDisplacements(MPI_Comm comm, Vec u, Structure *s) {
  OwnedVec work;
  Vec local;
  const PetscScalar *a;
  PetscFunctionBeginUser;
  PetscCall(CreateDisplacementVec(comm, *s, work.out()));
  PetscCall(VecCopy(u, work));
  PetscCall(VecGhostUpdateBegin(work, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGhostUpdateEnd(work, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGhostGetLocalForm(work, &local));
  PetscCall(VecGetArrayRead(local, &a));
  if (s->displacement.empty()) s->StoreDisplacements();
  for (size_t i = 0; i < s->sites.size(); ++i)
    for (int c = 0; c < 3; ++c) s->displacement[i][c] = PetscRealPart(a[3 * i + c]);
  PetscCall(VecRestoreArrayRead(local, &a));
  PetscCall(VecGhostRestoreLocalForm(work, &local));
  PetscFunctionReturn(0);
}

PetscErrorCode TransferAtomValues(MPI_Comm comm, const Structure &domain, Vec from, int bs, std::array<int, 3> origin,
                                  const Structure &to, Vec *values) {
  OwnedIS is_from, is_to;
  OwnedScatter scatter;
  PetscFunctionBeginUser;
  SiteNumbering index(domain.partition, domain.offsets); // global index in `domain` of its site q (any rank's)
  std::vector<PetscInt> src(to.owned), dst(to.owned);
  for (PetscInt i = 0; i < to.owned; ++i) {
    const PlaneIndex p = to.sites[i];
    src[i] = index({p.x + origin[0], p.y + origin[1], p.z + origin[2]});
    dst[i] = to.globalOffset() + i;
  }
  PetscCall(VecCreateMPI(comm, bs * to.owned, PETSC_DETERMINE, values));
  PetscCall(VecSetBlockSize(*values, bs));
  PetscCall(ISCreateBlock(comm, bs, to.owned, src.data(), PETSC_COPY_VALUES, is_from.out()));
  PetscCall(ISCreateBlock(comm, bs, to.owned, dst.data(), PETSC_COPY_VALUES, is_to.out()));
  PetscCall(VecScatterCreate(from, is_from, *values, is_to, scatter.out()));
  PetscCall(VecScatterBegin(scatter, from, *values, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(scatter, from, *values, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(0);
}

PetscErrorCode TransferDisplacements(MPI_Comm comm, const Structure &domain, Vec from, std::array<int, 3> origin,
                                     Structure *to) {
  OwnedVec owned;
  PetscFunctionBeginUser;
  PetscCall(TransferAtomValues(comm, domain, from, 3, origin, *to, owned.out()));
  PetscCall(StoreDisplacements(comm, owned, to));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
