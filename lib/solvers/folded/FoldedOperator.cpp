#include "solvers/folded/FoldedOperator.hpp"

#include <memory>
#include <utility>

#include "operator/OperatorProperties.hpp"

namespace tbpeta {

namespace {

PetscErrorCode OperatorOfHCreateVecs(Mat F, Vec *right, Vec *left) {
  OperatorOfH *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(F, &ctx));
  PetscCall(MatCreateVecs(ctx->H, right, left));
  PetscFunctionReturn(0);
}

PetscErrorCode OperatorOfHDestroy(Mat F) {
  OperatorOfH *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(F, &ctx));
  delete ctx;
  PetscFunctionReturn(0);
}

struct FoldedContext : OperatorOfH {
  PetscScalar sigma = 0;
  OwnedVec work; // (H - sigma) x
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

} // namespace

PetscErrorCode CreateOperatorOfH(Mat H, OperatorOfH *ctx, PetscErrorCode (*mult)(Mat, Vec, Vec), const char *name,
                                 const char *kind, const char *description, Mat *F) {
  PetscInt m, n, M, N;
  MPI_Comm comm;
  const OperatorProperties *hp;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetLocalSize(H, &m, &n));
  PetscCall(MatGetSize(H, &M, &N));
  PetscCheck(M == N && m == n, comm, PETSC_ERR_ARG_SIZ, "%s needs a square H with equal row and column layouts", name);
  PetscCall(PetscObjectReference((PetscObject)H));
  ctx->H.reset(H);
  PetscCall(MatCreateShell(comm, m, n, M, N, ctx, F));
  PetscCall(MatShellSetOperation(*F, MATOP_MULT, (void (*)(void))mult));
  PetscCall(MatShellSetOperation(*F, MATOP_MULT_HERMITIAN_TRANSPOSE, (void (*)(void))mult));
  PetscCall(MatShellSetOperation(*F, MATOP_CREATE_VECS, (void (*)(void))OperatorOfHCreateVecs));
  PetscCall(MatShellSetOperation(*F, MATOP_DESTROY, (void (*)(void))OperatorOfHDestroy));
  PetscCall(MatSetOption(*F, MAT_HERMITIAN, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*F, name));
  OperatorProperties p;
  PetscCall(OperatorGetProperties(H, &hp));
  if (hp) p = *hp;
  p.kind = kind;
  p.description = description;
  p.has_entries = false;
  p.nonzeros = 0;
  p.bytes = 0;
  p.rows = M;
  PetscCall(OperatorSetProperties(*F, std::move(p), false));
  PetscFunctionReturn(0);
}

PetscErrorCode CreateFoldedOperator(Mat H, double sigma, Mat *F) {
  PetscFunctionBeginUser;
  auto ctx = std::make_unique<FoldedContext>();
  ctx->sigma = sigma;
  PetscCall(MatCreateVecs(H, ctx->work.out(), nullptr));
  PetscCall(CreateOperatorOfH(H, ctx.get(), FoldedMult, "folded operator (H - sigma)^2", "folded", "(H - sigma)^2", F));
  ctx.release(); // the shell owns it
  PetscFunctionReturn(0);
}

} // namespace tbpeta
