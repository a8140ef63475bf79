#include "solvers/folded/FoldedOperator.hpp"

#include "operator/OperatorProperties.hpp"

namespace tbpeta {

namespace {

struct FoldedContext {
  Mat H = nullptr; // referenced
  PetscScalar sigma = 0;
  Vec work = nullptr; // (H - sigma) x
};

PetscErrorCode FoldedMult(Mat F, Vec x, Vec y) {
  FoldedContext *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(F, &ctx));
  PetscCall(MatMult(ctx->H, x, ctx->work));      // w = H x
  PetscCall(VecAXPY(ctx->work, -ctx->sigma, x)); // w = (H - sigma) x
  PetscCall(MatMult(ctx->H, ctx->work, y));      // y = H w
  PetscCall(VecAXPY(y, -ctx->sigma, ctx->work)); // y = (H - sigma) w
  PetscFunctionReturn(0);
}

PetscErrorCode FoldedCreateVecs(Mat F, Vec *right, Vec *left) {
  FoldedContext *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(F, &ctx));
  PetscCall(MatCreateVecs(ctx->H, right, left));
  PetscFunctionReturn(0);
}

PetscErrorCode FoldedDestroy(Mat F) {
  FoldedContext *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(F, &ctx));
  PetscCall(VecDestroy(&ctx->work));
  PetscCall(MatDestroy(&ctx->H));
  delete ctx;
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode CreateFoldedOperator(Mat H, double sigma, Mat *F) {
  PetscInt m, n, M, N;
  MPI_Comm comm;
  const OperatorProperties *hp;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetLocalSize(H, &m, &n));
  PetscCall(MatGetSize(H, &M, &N));
  PetscCheck(M == N && m == n, comm, PETSC_ERR_ARG_SIZ, "the folded operator needs a square H with equal row and column layouts");
  auto *ctx = new FoldedContext;
  ctx->H = H;
  ctx->sigma = sigma;
  PetscCall(PetscObjectReference((PetscObject)H));
  PetscCall(MatCreateVecs(H, &ctx->work, nullptr));
  PetscCall(MatCreateShell(comm, m, n, M, N, ctx, F));
  PetscCall(MatShellSetOperation(*F, MATOP_MULT, (void (*)(void))FoldedMult));
  PetscCall(MatShellSetOperation(*F, MATOP_MULT_HERMITIAN_TRANSPOSE, (void (*)(void))FoldedMult));
  PetscCall(MatShellSetOperation(*F, MATOP_CREATE_VECS, (void (*)(void))FoldedCreateVecs));
  PetscCall(MatShellSetOperation(*F, MATOP_DESTROY, (void (*)(void))FoldedDestroy));
  PetscCall(MatSetOption(*F, MAT_HERMITIAN, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*F, "folded operator (H - sigma)^2"));
  OperatorProperties p;
  PetscCall(OperatorGetProperties(H, &hp));
  if (hp) p = *hp;
  p.kind = "folded", p.description = "(H - sigma)^2", p.has_entries = false, p.nonzeros = 0, p.bytes = 0;
  p.rows = M;
  PetscCall(OperatorSetProperties(*F, std::move(p), false));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
