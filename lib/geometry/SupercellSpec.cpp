#include "geometry/SupercellSpec.hpp"

#include <cmath>
#include <string>

#include "support/OptionLists.hpp"

namespace tbpeta {

PetscErrorCode SupercellSpecFromOptions(MPI_Comm comm, const SupercellSpec &defaults, SupercellSpec *spec) {
  PetscInt cells[3], periodic[3];
  double k[3];
  PetscBool set;
  PetscFunctionBeginUser;
  for (int a = 0; a < 3; ++a) cells[a] = defaults.cells[a], periodic[a] = defaults.periodic[a], k[a] = defaults.k[a];
  PetscCall(OptionsGetIntTuple(comm, "-cells", "Supercell size in conventional cubic cells (8 atoms each): nx,ny,nz", 3,
                               cells, &set));
  for (int a = 0; a < 3; ++a)
    PetscCheck(cells[a] >= 1, comm, PETSC_ERR_USER_INPUT,
               "-cells: %" PetscInt_FMT " cells along %c; every axis needs at least 1 cell", cells[a], "xyz"[a]);
  PetscCheck((double)cells[0] * cells[1] * cells[2] * 8 < 2.0e9, comm, PETSC_ERR_USER_INPUT,
             "-cells: %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT
             " cells is beyond the 32-bit atom count of this build",
             cells[0], cells[1], cells[2]);
  PetscCall(OptionsGetIntTuple(comm, "-periodic", "Periodic boundary per axis, 0 (open, passivated) or 1: px,py,pz", 3,
                               periodic, &set));
  for (int a = 0; a < 3; ++a)
    PetscCheck(periodic[a] == 0 || periodic[a] == 1, comm, PETSC_ERR_USER_INPUT,
               "-periodic: %" PetscInt_FMT " along %c; each entry must be 0 (open) or 1 (periodic)", periodic[a],
               "xyz"[a]);
  PetscCall(OptionsGetRealTuple(comm, "-k", "Bloch wave vector kx,ky,kz in units of 2pi/a, used on periodic axes", 3, k,
                                &set));
  for (int a = 0; a < 3; ++a)
    PetscCheck(std::isfinite(k[a]) && std::fabs(k[a]) < 1e6, comm, PETSC_ERR_USER_INPUT,
               "-k: %g along %c is not a usable wave-vector component (2pi/a units)", k[a], "xyz"[a]);
  for (int a = 0; a < 3; ++a) {
    spec->cells[a] = (int)cells[a];
    spec->periodic[a] = periodic[a] == 1;
    spec->k[a] = k[a];
  }
  PetscFunctionReturn(0);
}

} // namespace tbpeta
