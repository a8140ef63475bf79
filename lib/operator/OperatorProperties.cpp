#include "operator/OperatorProperties.hpp"

#include "support/LogEvents.hpp"

namespace tbpeta {

namespace {

constexpr const char *kKey = "tbpeta_operator";

struct Record {
  OperatorProperties properties;
  PetscErrorCode (*mult)(Mat, Vec, Vec) = nullptr;                       // the operator's own product, when counted
  PetscErrorCode (*duplicate)(Mat, MatDuplicateOption, Mat *) = nullptr; // its own duplicate, when counted
  PetscInt products = 0;
};

PetscErrorCode DestroyRecord(void *ctx) {
  delete static_cast<Record *>(ctx);
  return 0;
}

PetscErrorCode GetRecord(Mat A, Record **record) {
  PetscContainer container = nullptr;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectQuery((PetscObject)A, kKey, (PetscObject *)&container));
  *record = nullptr;
  if (container) PetscCall(PetscContainerGetPointer(container, (void **)record));
  PetscFunctionReturn(0);
}

// The product as the operator does it, counted and logged as TbProduct.
PetscErrorCode CountedMult(Mat A, Vec x, Vec y) {
  const LogEvents *ev;
  Record *record;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(GetRecord(A, &record));
  PetscCheck(record, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "a counted operator without its record");
  PetscCall(PetscLogEventBegin(ev->product, A, x, y, 0));
  ++record->products;
  PetscCall(record->mult(A, x, y));
  PetscCall(PetscLogEventEnd(ev->product, A, x, y, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode KeepSharedContext(Mat) { return 0; }

// A copy of an operator (as SLEPc's polynomial filter makes) shares the record, so that its products are counted
// with the operator's. A shell's copy shares its context too: it holds a reference to the original, and its own
// destroy leaves the context to the original's.
PetscErrorCode CountedDuplicate(Mat A, MatDuplicateOption op, Mat *B) {
  Record *record;
  PetscContainer container;
  PetscBool shell;
  PetscFunctionBeginUser;
  PetscCall(GetRecord(A, &record));
  PetscCheck(record && record->duplicate, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB,
             "a counted operator without its record");
  PetscCall(record->duplicate(A, op, B));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSHELL, &shell));
  if (shell) {
    PetscCall(MatShellSetOperation(*B, MATOP_DESTROY, (void (*)(void))KeepSharedContext));
    PetscCall(PetscObjectCompose((PetscObject)*B, "tbpeta_original", (PetscObject)A));
  }
  // A stored matrix's copy gets its type's operations afresh: count its products too (the same type's product).
  PetscCall(MatSetOperation(*B, MATOP_MULT, (void (*)(void))CountedMult));
  PetscCall(MatSetOperation(*B, MATOP_DUPLICATE, (void (*)(void))CountedDuplicate));
  PetscCall(PetscObjectQuery((PetscObject)A, kKey, (PetscObject *)&container));
  PetscCall(PetscObjectCompose((PetscObject)*B, kKey, (PetscObject)container));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode OperatorSetProperties(Mat A, OperatorProperties properties, bool count_products) {
  Record *old;
  PetscContainer container;
  PetscFunctionBeginUser;
  PetscCall(GetRecord(A, &old));
  auto *record = new Record;
  record->properties = std::move(properties);
  if (old && old->mult)
    record->mult = old->mult, record->duplicate = old->duplicate,
    record->products = old->products; // already counted: keep the original product
  else if (count_products) {
    PetscCall(MatGetOperation(A, MATOP_MULT, (void (**)(void)) & record->mult));
    PetscCall(MatSetOperation(A, MATOP_MULT, (void (*)(void))CountedMult));
    PetscCall(MatGetOperation(A, MATOP_DUPLICATE, (void (**)(void)) & record->duplicate));
    if (record->duplicate) PetscCall(MatSetOperation(A, MATOP_DUPLICATE, (void (*)(void))CountedDuplicate));
  }
  PetscCall(PetscContainerCreate(PetscObjectComm((PetscObject)A), &container));
  PetscCall(PetscContainerSetPointer(container, record));
  PetscCall(PetscContainerSetUserDestroy(container, DestroyRecord));
  PetscCall(PetscObjectCompose((PetscObject)A, kKey, (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  PetscFunctionReturn(0);
}

PetscErrorCode OperatorGetProperties(Mat A, const OperatorProperties **properties) {
  Record *record;
  PetscFunctionBeginUser;
  PetscCall(GetRecord(A, &record));
  *properties = record ? &record->properties : nullptr;
  PetscFunctionReturn(0);
}

PetscErrorCode OperatorTotalBytes(Mat A, double *bytes) {
  const OperatorProperties *p;
  PetscFunctionBeginUser;
  PetscCall(OperatorGetProperties(A, &p));
  const double mine = p ? p->bytes : 0;
  PetscCallMPI(MPI_Allreduce(&mine, bytes, 1, MPI_DOUBLE, MPI_SUM, PetscObjectComm((PetscObject)A)));
  PetscFunctionReturn(0);
}

PetscErrorCode OperatorHasEntries(Mat A, bool *has_entries) {
  const OperatorProperties *p = nullptr;
  PetscBool rows;
  PetscFunctionBeginUser;
  PetscCall(OperatorGetProperties(A, &p));
  if (p) *has_entries = p->has_entries;
  else {
    PetscCall(MatHasOperation(A, MATOP_GET_ROW, &rows));
    *has_entries = rows;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode OperatorAddProducts(Mat A, PetscInt n) {
  Record *record;
  PetscFunctionBeginUser;
  PetscCall(GetRecord(A, &record));
  if (record && record->mult) record->products += n;
  PetscFunctionReturn(0);
}

PetscErrorCode OperatorProductCount(Mat A, PetscInt *count) {
  Record *record;
  PetscFunctionBeginUser;
  PetscCall(GetRecord(A, &record));
  *count = record && record->mult ? record->products : -1;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
