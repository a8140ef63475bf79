#pragma once
// The motions of a structure that leave its Keating energy unchanged, which a preconditioned step must not contain:
// the preconditioner (strain/BondLaplacian.hpp) knows nothing of them, and the minimiser would drift along them by
// amounts that depend on the partition. They are
//   - the rigid motions when no atom is held: the three translations, and the rotation about each axis whose two
//     other axes are open (infinitesimal rotations about the ideal centroid; a wire periodic along x turns about x);
//   - the floppy atoms of a bare open box: an atom with one bond, on an atom with two bonds, turns freely on a cone
//     about that atom's other bond (the one angle term there keeps the angle, not its azimuth); its motion along
//     the cone's tangent at the ideal site is removed.
// Remove() is the orthogonal projection onto the complement of all of them, from sums over the atoms and the ideal
// geometry alone (no stored basis): the same linear map on any ranks and partition.
#include <petscvec.h>

#include <array>
#include <vector>

#include "strain/KeatingEnergy.hpp"

namespace tbpeta {

class ZeroEnergyMotions {
public:
  // The zero-energy motions of the energy's structure. The energy must outlive this object. Collective.
  static PetscErrorCode Create(MPI_Comm comm, const KeatingEnergy &energy, ZeroEnergyMotions *out);
  // y -= its part along the zero-energy motions (y in the displacements' layout). Collective.
  PetscErrorCode Remove(Vec y) const;
  int rigidCount() const { return (int)modes_.size(); }
  PetscInt floppyAtoms() const { return floppy_total_; }

private:
  struct Floppy {
    PetscInt atom; // owned
    Vec3 tangent;  // unit
  };
  Vec3 Arm(PetscInt i) const;                 // ideal site i relative to the centroid (nm)
  void RigidModes(PetscInt i, Vec3 *r) const; // r[k] for each k of modes_
  void FindFloppyAtoms(const KeatingEnergy &energy);
  PetscErrorCode InvertGram(MPI_Comm comm);

  const Structure *s_ = nullptr;
  MPI_Comm comm_ = MPI_COMM_NULL;
  double a_nm_ = 0;
  std::vector<int> modes_; // rigid modes: 0-2 translation along, 3-5 rotation about axis m - 3
  Vec3 centroid_{0, 0, 0};
  std::vector<Floppy> floppy_;
  PetscInt floppy_total_ = 0;
  std::array<std::array<double, 6>, 6> inverse_gram_{}; // of the rigid modes with their floppy components removed
};

} // namespace tbpeta
