#pragma once
// The supercell: -cells nx,ny,nz conventional cubic cells, -periodic px,py,pz (0/1 per axis) and the Bloch
// wave vector -k kx,ky,kz in units of 2 pi / a (applied on periodic axes).
#include <petscsys.h>

#include <array>

namespace tbpeta {

struct SupercellSpec {
  std::array<int, 3> cells{4, 4, 4};
  std::array<bool, 3> periodic{true, true, true};
  std::array<double, 3> k{0, 0, 0}; // 2 pi / a
};

// Reads -cells, -periodic and -k; `defaults` are what an option that is not given takes (and what -help shows).
// Collective; one-line PETSC_ERR_USER_INPUT naming the option for a bad value.
PetscErrorCode SupercellSpecFromOptions(MPI_Comm comm, const SupercellSpec &defaults, SupercellSpec *spec);

} // namespace tbpeta
