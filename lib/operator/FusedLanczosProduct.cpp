#include "operator/FusedLanczosProduct.hpp"

namespace tbpeta {

namespace {
constexpr const char *kName = "TbFusedLanczosProduct_C";
}

PetscErrorCode MatSetFusedLanczosProduct(Mat H, FusedLanczosProduct f) {
  PetscFunctionBeginUser;
  PetscCall(PetscObjectComposeFunction((PetscObject)H, kName, f));
  PetscFunctionReturn(0);
}

PetscErrorCode MatGetFusedLanczosProduct(Mat H, FusedLanczosProduct *f) {
  PetscFunctionBeginUser;
  PetscCall(PetscObjectQueryFunction((PetscObject)H, kName, f));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
