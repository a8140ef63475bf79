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

void ListSpinOrbitEntries(int norb, OnSite *o, std::vector<SpinOrbitEntry> *entries) {
  const auto offset = [norb](int k) { return (std::uint8_t)(2 * ((k / 3) * norb + 1 + k % 3)); }; // p orbital k % 3
  o->so_first = (std::int32_t)entries->size();
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c)
      if (o->so[r][c] != Complex(0)) entries->push_back({offset(r), offset(c), o->so[r][c].real(), o->so[r][c].imag()});
  o->so_count = (std::int32_t)entries->size() - o->so_first;
}

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
