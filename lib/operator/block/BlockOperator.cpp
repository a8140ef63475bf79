#include "operator/block/BlockOperator.hpp"

namespace tbpeta {

const char *BlockSourceName(BlockSource source) {
  switch (source) {
  case BlockSource::per_bond: return "stored_blocks";
  case BlockSource::shared: return "shell";
  default: return "shell (no block cache)";
  }
}

} // namespace tbpeta

namespace tbpeta::block {

PetscErrorCode DestroyBlockOperator(Mat H) {
  BlockOperator *op;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(H, &op));
  PetscCall(PetscSFDestroy(&op->halo_sf));
  PetscCall(PetscFree(op->ghost));
  if (op->unit != MPI_DATATYPE_NULL) PetscCallMPI(MPI_Type_free(&op->unit));
  delete op;
  PetscFunctionReturn(0);
}

} // namespace tbpeta::block
