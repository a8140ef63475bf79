#pragma once
// The bond-weighted operators of H: C_a = sum_ij H_ij d_ij,a over the bonds, d_ij the actual vector (nm) from atom i
// to the image of its neighbour j (relaxed, homogeneously strained, across periodic faces), the commutator [H, r_a]
// of the tight-binding basis that gives the momentum p = (i m0 / hbar) [H, r] (Graf & Vogl, PRB 51, 4940 (1995)).
// On-site blocks (spin-orbit, passivation, potentials) commute with r and drop out.
// Applied with H itself, of any operator kind: C_a x = H (R_a x) - R_a (H x) + K_a x, R_a the atoms' coordinates on
// the diagonal (about the supercell's centre, so that little cancels), and K_a the bonds whose neighbour is a periodic
// image, each weighted by the lattice vector between the image and the atom held (a sparse matrix of those bonds
// alone: none in an open structure). Two products of H per application, two vectors of H's size.
#include <petscmat.h>

#include <array>
#include <vector>

#include "geometry/Structure.hpp"
#include "model/TightBindingModel.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

class BondCommutator {
public:
  // H: the operator built from s and model at Bloch vector k (2 pi / a; CreateHamiltonian). Collective.
  static PetscErrorCode Create(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                               std::array<double, 3> k, Mat H, BondCommutator *out);
  // y = C_axis x (eV nm); x and y vectors of H's layout, not the same. Collective.
  PetscErrorCode Apply(int axis, Vec x, Vec y) const;
  // Whether some bond crosses a periodic face (K is not empty).
  bool hasImages() const { return K_[0].get() != nullptr; }

private:
  PetscErrorCode ScaleRows(int axis, Vec x, double sign, Vec y) const; // y += sign R_axis x (y = R x when sign 0)
  Mat H_ = nullptr;
  int bs_ = 0;
  std::vector<std::array<double, 3>> position_; // owned atoms, nm, about the supercell's centre
  OwnedMat K_[3];
  OwnedVec work_;
};

// The position (nm) of site `site` in the homogeneously strained lattice, with its displacement: (1 + strain) times
// the ideal site, plus u. Differences of these are the bonds H is built on.
std::array<double, 3> StrainedPosition(const Structure &s, PetscInt site);

} // namespace tbpeta
