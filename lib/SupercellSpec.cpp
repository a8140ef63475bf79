#include "tbpeta/SupercellSpec.hpp"

#include <cmath>
#include <string>

namespace tbpeta {

// PETSc silently keeps the first nmax entries of a longer list, so read into a larger buffer to see the real length.
PetscErrorCode OptionsGetRealTuple(MPI_Comm comm, const char *name, const char *help, int n, double *values, PetscBool *set) {
  PetscReal buf[64];
  PetscInt count = 64;
  PetscFunctionBeginUser;
  for (int i = 0; i < n; ++i) buf[i] = values[i];
  // PETSc prints -help once per options-block title, so each list option gets its own block.
  PetscOptionsBegin(comm, nullptr, name, "tbpeta");
  PetscCall(PetscOptionsRealArray(name, help, "tbpeta", buf, &count, set));
  PetscOptionsEnd();
  if (*set) {
    PetscCheck(count == n, comm, PETSC_ERR_USER_INPUT, "%s: expected %d comma-separated numbers, got %" PetscInt_FMT, name, n, count);
    for (int i = 0; i < n; ++i) values[i] = buf[i];
  }
  PetscFunctionReturn(0);
}

PetscErrorCode OptionsGetIntTuple(MPI_Comm comm, const char *name, const char *help, int n, PetscInt *values, PetscBool *set) {
  PetscInt buf[64];
  PetscInt count = 64;
  PetscFunctionBeginUser;
  for (int i = 0; i < n; ++i) buf[i] = values[i];
  PetscOptionsBegin(comm, nullptr, name, "tbpeta");
  PetscCall(PetscOptionsIntArray(name, help, "tbpeta", buf, &count, set));
  PetscOptionsEnd();
  if (*set) {
    PetscCheck(count == n, comm, PETSC_ERR_USER_INPUT, "%s: expected %d comma-separated integers, got %" PetscInt_FMT, name, n, count);
    for (int i = 0; i < n; ++i) values[i] = buf[i];
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SupercellSpecFromOptions(MPI_Comm comm, SupercellSpec *spec) {
  PetscInt cells[3] = {4, 4, 4}, periodic[3] = {1, 1, 1};
  double k[3] = {0, 0, 0};
  PetscBool set;
  PetscFunctionBeginUser;
  PetscCall(OptionsGetIntTuple(comm, "-cells", "Supercell size in conventional cubic cells (8 atoms each): nx,ny,nz (default 4,4,4)", 3, cells, &set));
  for (int a = 0; a < 3; ++a) PetscCheck(cells[a] >= 1, comm, PETSC_ERR_USER_INPUT, "-cells: %" PetscInt_FMT " cells along %c; every axis needs at least 1 cell", cells[a], "xyz"[a]);
  PetscCheck((double)cells[0] * cells[1] * cells[2] * 8 < 2.0e9, comm, PETSC_ERR_USER_INPUT, "-cells: %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " cells is beyond the 32-bit atom count of this build", cells[0], cells[1], cells[2]);
  PetscCall(OptionsGetIntTuple(comm, "-periodic", "Periodic boundary per axis, 0 (open, passivated) or 1: px,py,pz (default 1,1,1)", 3, periodic, &set));
  for (int a = 0; a < 3; ++a) PetscCheck(periodic[a] == 0 || periodic[a] == 1, comm, PETSC_ERR_USER_INPUT, "-periodic: %" PetscInt_FMT " along %c; each entry must be 0 (open) or 1 (periodic)", periodic[a], "xyz"[a]);
  PetscCall(OptionsGetRealTuple(comm, "-k", "Bloch wave vector kx,ky,kz in units of 2pi/a, used on periodic axes (default 0,0,0)", 3, k, &set));
  for (int a = 0; a < 3; ++a) PetscCheck(std::isfinite(k[a]) && std::fabs(k[a]) < 1e6, comm, PETSC_ERR_USER_INPUT, "-k: %g along %c is not a usable wave-vector component (2pi/a units)", k[a], "xyz"[a]);
  for (int a = 0; a < 3; ++a) {
    spec->cells[a] = (int)cells[a];
    spec->periodic[a] = periodic[a] == 1;
    spec->k[a] = k[a];
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
