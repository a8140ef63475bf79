#include "solvers/lanczos/CheckpointParts.hpp"

#include <petscviewerhdf5.h>

#include <algorithm>

namespace tbpeta::lanczos::parts {

PetscErrorCode PutInt(PetscViewer vw, const char *path, const char *name, PetscInt v) {
  return PetscViewerHDF5WriteAttribute(vw, path, name, PETSC_INT, &v);
}
PetscErrorCode PutReal(PetscViewer vw, const char *path, const char *name, double v) {
  PetscReal x = v;
  return PetscViewerHDF5WriteAttribute(vw, path, name, PETSC_REAL, &x);
}
PetscErrorCode PutBool(PetscViewer vw, const char *path, const char *name, bool v) {
  PetscBool b = v ? PETSC_TRUE : PETSC_FALSE;
  return PetscViewerHDF5WriteAttribute(vw, path, name, PETSC_BOOL, &b);
}
PetscErrorCode PutString(PetscViewer vw, const char *path, const char *name, const char *v) {
  return PetscViewerHDF5WriteAttribute(vw, path, name, PETSC_STRING, v);
}
PetscErrorCode GetInt(PetscViewer vw, const char *path, const char *name, PetscInt *v) {
  return PetscViewerHDF5ReadAttribute(vw, path, name, PETSC_INT, nullptr, v);
}
PetscErrorCode GetReal(PetscViewer vw, const char *path, const char *name, double *v) {
  PetscReal x;
  PetscFunctionBeginUser;
  PetscCall(PetscViewerHDF5ReadAttribute(vw, path, name, PETSC_REAL, nullptr, &x));
  *v = x;
  PetscFunctionReturn(0);
}
PetscErrorCode GetBool(PetscViewer vw, const char *path, const char *name, bool *v) {
  PetscBool b;
  PetscFunctionBeginUser;
  PetscCall(PetscViewerHDF5ReadAttribute(vw, path, name, PETSC_BOOL, nullptr, &b));
  *v = b;
  PetscFunctionReturn(0);
}
PetscErrorCode GetString(PetscViewer vw, const char *path, const char *name, std::string *v) {
  char *s = nullptr;
  PetscFunctionBeginUser;
  PetscCall(PetscViewerHDF5ReadAttribute(vw, path, name, PETSC_STRING, nullptr, &s));
  *v = s ? s : "";
  PetscCall(PetscFree(s));
  PetscFunctionReturn(0);
}

// A list of reals (T, the states' values) as a dataset, from rank 0's copy.
PetscErrorCode PutReals(PetscViewer vw, MPI_Comm comm, const char *name, const std::vector<double> &x) {
  PetscMPIInt rank;
  OwnedVec v;
  PetscScalar *a;
  const PetscInt n = (PetscInt)x.size();
  PetscFunctionBeginUser;
  if (n == 0) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(VecCreateMPI(comm, rank == 0 ? n : 0, n, v.out()));
  PetscCall(VecGetArray(v, &a));
  if (rank == 0) std::copy(x.begin(), x.end(), a);
  PetscCall(VecRestoreArray(v, &a));
  PetscCall(PetscObjectSetName((PetscObject)v.get(), name));
  PetscCall(VecView(v, vw));
  PetscFunctionReturn(0);
}

// The n reals of dataset `name`, on every rank.
PetscErrorCode GetReals(PetscViewer vw, MPI_Comm comm, const char *name, PetscInt n, std::vector<double> *x) {
  PetscMPIInt rank;
  OwnedVec v;
  const PetscScalar *a;
  PetscFunctionBeginUser;
  x->assign((size_t)n, 0.0);
  if (n == 0) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(VecCreateMPI(comm, rank == 0 ? n : 0, n, v.out()));
  PetscCall(PetscObjectSetName((PetscObject)v.get(), name));
  PetscCall(VecLoad(v, vw));
  PetscCall(VecGetArrayRead(v, &a));
  if (rank == 0)
    for (PetscInt i = 0; i < n; ++i) (*x)[i] = PetscRealPart(a[i]);
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscCallMPI(MPI_Bcast(x->data(), (int)n, MPI_DOUBLE, 0, comm));
  PetscFunctionReturn(0);
}

// A vector of H's layout as dataset `name`, through a view of block size 1 on its entries (no copy): the file does not
// depend on H's block size.
PetscErrorCode PutVector(PetscViewer vw, const char *name, Vec x) {
  const PetscScalar *a;
  PetscInt n, N;
  OwnedVec w;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetSize(x, &N));
  PetscCall(VecGetArrayRead(x, &a));
  PetscErrorCode ierr = VecCreateMPIWithArray(PetscObjectComm((PetscObject)x), 1, n, N, a, w.out());
  if (!ierr) ierr = PetscObjectSetName((PetscObject)w.get(), name);
  if (!ierr) ierr = VecView(w, vw);
  w.reset();
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

// Dataset `name` into x (its global size checked by PETSc), read into a vector of block size 1 and copied.
PetscErrorCode GetVector(PetscViewer vw, const char *name, Vec x) {
  const PetscScalar *a;
  PetscScalar *b;
  PetscInt n, N;
  OwnedVec t;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetSize(x, &N));
  PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)x), 1, n, N, nullptr, t.out()));
  PetscCall(PetscObjectSetName((PetscObject)t.get(), name));
  PetscCall(VecLoad(t, vw));
  PetscCall(VecGetArrayRead(t, &a));
  PetscCall(VecGetArray(x, &b));
  std::copy(a, a + n, b);
  PetscCall(VecRestoreArray(x, &b));
  PetscCall(VecRestoreArrayRead(t, &a));
  PetscFunctionReturn(0);
}

// Column j of `st` as dataset `name`.
PetscErrorCode PutColumn(PetscViewer vw, const std::string &name, StateColumns *st, PetscInt j) {
  PetscFunctionBeginUser;
  Column x(*st, j);
  PetscCall(x.error());
  PetscCall(PutVector(vw, name.c_str(), x.vec()));
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos::parts
