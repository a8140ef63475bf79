#pragma once
// The named parts of a checkpoint file (LanczosCheckpoint): attributes by name on a group or on the file (a group is
// made when missing), and datasets by name in the viewer's current group, through PETSc's HDF5 viewer. A vector of
// H's layout is written with block size 1, whatever H's, through a view of its entries (no copy), and read through a
// vector of its own; a list of reals (T, the states' values) is written from rank 0's copy and read on every rank.
#include <petscviewer.h>

#include <string>
#include <vector>

#include "solvers/lanczos/StateColumns.hpp"

namespace tbpeta::lanczos::parts {

// Attribute `name` of the object at `path`. Collective.
PetscErrorCode PutInt(PetscViewer vw, const char *path, const char *name, PetscInt v);
PetscErrorCode PutReal(PetscViewer vw, const char *path, const char *name, double v);
PetscErrorCode PutBool(PetscViewer vw, const char *path, const char *name, bool v);
PetscErrorCode PutString(PetscViewer vw, const char *path, const char *name, const char *v);
PetscErrorCode GetInt(PetscViewer vw, const char *path, const char *name, PetscInt *v);
PetscErrorCode GetReal(PetscViewer vw, const char *path, const char *name, double *v);
PetscErrorCode GetBool(PetscViewer vw, const char *path, const char *name, bool *v);
PetscErrorCode GetString(PetscViewer vw, const char *path, const char *name, std::string *v);

// The reals x (rank 0's) as dataset `name` (nothing for none). Collective.
PetscErrorCode PutReals(PetscViewer vw, MPI_Comm comm, const char *name, const std::vector<double> &x);
// The n reals of dataset `name`, on every rank. Collective.
PetscErrorCode GetReals(PetscViewer vw, MPI_Comm comm, const char *name, PetscInt n, std::vector<double> *x);
// x as dataset `name`, with block size 1. Collective.
PetscErrorCode PutVector(PetscViewer vw, const char *name, Vec x);
// Dataset `name` into x (its global size checked by PETSc). Collective.
PetscErrorCode GetVector(PetscViewer vw, const char *name, Vec x);
// State j of `st` as dataset `name`. Collective.
PetscErrorCode PutColumn(PetscViewer vw, const std::string &name, StateColumns *st, PetscInt j);

} // namespace tbpeta::lanczos::parts
