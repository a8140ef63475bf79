#include "operator/FusedLanczosProduct.hpp"

namespace tbpeta {

namespace {
constexpr const char *kFused = "TbFusedLanczosProduct_C", *kLazy = "TbLazyLanczosProduct_C";
}

PetscErrorCode MatSetFusedLanczosProduct(Mat H, FusedLanczosProduct f) {
  return PetscObjectComposeFunction((PetscObject)H, kFused, f);
}

PetscErrorCode MatGetFusedLanczosProduct(Mat H, FusedLanczosProduct *f) {
  return PetscObjectQueryFunction((PetscObject)H, kFused, f);
}

PetscErrorCode MatSetLazyLanczosProduct(Mat H, LazyLanczosProduct f) {
  return PetscObjectComposeFunction((PetscObject)H, kLazy, f);
}

PetscErrorCode MatGetLazyLanczosProduct(Mat H, LazyLanczosProduct *f) {
  return PetscObjectQueryFunction((PetscObject)H, kLazy, f);
}

} // namespace tbpeta
