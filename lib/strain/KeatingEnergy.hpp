#pragma once
// The Keating valence-force-field energy of a whole structure and its exact gradient with respect to the atomic
// displacements, distributed over the structure's partition: each rank evaluates the terms centred at its owned
// atoms (strain/KeatingTerms.hpp); the displacements of its halo come through the ghost scatter of a ghosted
// PETSc Vec (block size 3, the structure's global atom numbering) and the gradient contributions for halo atoms go
// back with ADD_VALUES. An actual bond vector is r = (1 + eps) d + u_j - u_i, with d the ideal bond of the lattice
// (constant a_nm), eps a homogeneous strain of the whole box (zero unless set: elastic constants, strained bulk)
// and u the displacements; so a bond across a periodic face needs no wrap. A bond takes d0 = (sqrt 3 / 4) a,
// alpha and beta of its binary (the cation's material); bonds that leave an open face have no terms (free surface).
// Displacements are real numbers held in complex Vecs (this PETSc is complex), in nm; energies in eV.
#include <petscvec.h>

#include <array>
#include <vector>

#include "geometry/Structure.hpp"
#include "model/StrainSpec.hpp"
#include "model/TightBindingModel.hpp"
#include "strain/KeatingTerms.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

class KeatingEnergy {
public:
  // Refuses (one line, naming the material and the key) a material of the model without Keating constants.
  // The structure must outlive this object. Collective.
  static PetscErrorCode Create(MPI_Comm comm, const Structure &s, const TightBindingModel &model, double a_nm,
                               StrainFix fix, KeatingEnergy *out);

  // A zero displacement field in this energy's layout (ghosted, block size 3). Collective.
  PetscErrorCode CreateDisplacement(Vec *u) const;
  // E(u) and, if gradient is not null, dE/du (rows of held atoms are zero). u need not be ghosted. Collective.
  PetscErrorCode Evaluate(Vec u, PetscReal *energy, Vec gradient);
  // Energy (eV) of the terms centred at each owned atom; their sum over all ranks is E(u). Collective.
  PetscErrorCode AtomEnergies(Vec u, std::vector<double> *energy);
  // A homogeneous strain of the whole box (Voigt xx, yy, zz, yz, xz, xy; tensor components) applied to the ideal
  // bonds before the displacements.
  void SetHomogeneousStrain(const std::array<double, 6> &voigt);

  PetscInt evaluations() const { return evaluations_; }
  const Structure &structure() const { return *s_; }
  double latticeConstant() const { return a_nm_; }
  // Harmonic stiffness of bond b of owned atom i, alpha + beta of its binary (eV/nm^2): the preconditioner's weight.
  double BondStiffness(PetscInt i, int b) const {
    const Binary &m = binary_[BondMaterial(i, b)];
    return m.alpha + m.beta;
  }
  // Owned atoms held in place (-strain_fix): their gradient rows are zero.
  const std::vector<PetscInt> &held() const { return held_; }
  // Whether some atoms are held in place (on any rank).
  bool holdsAtoms() const { return fix_ == StrainFix::zmin; }
  // Whether the atom at a site (owned or halo) is held in place.
  bool holds(PetscInt site) const { return fix_ == StrainFix::zmin && s_->sites[site].z == 0; }
  // Ideal bond b of owned atom i under the homogeneous strain (nm).
  const Vec3 &idealBond(PetscInt i, int b) const { return ideal_[(int)s_->sublattice(i)][b]; }

private:
  struct Binary {
    double d0 = 0, alpha = 0, beta = 0; // nm, eV/nm^2
  };
  std::uint8_t BondMaterial(PetscInt i, int b) const {
    return s_->sublattice(i) == Sublattice::cation ? s_->material[i] : s_->material[s_->bonds[i][b]];
  }
  PetscErrorCode Ghosted(Vec v, OwnedVec *work, Vec *ghosted);
  PetscErrorCode LocalDisplacements(Vec u, Vec *ghosted, const PetscScalar **local, Vec *held);
  double AtomTerms(PetscInt i, const PetscScalar *u, Vec3 *grad, int *neighbours, int *n) const;
  void SetIdealBonds();

  const Structure *s_ = nullptr;
  MPI_Comm comm_ = MPI_COMM_NULL;
  double a_nm_ = 0;
  std::array<double, 6> eps_{0, 0, 0, 0, 0, 0};
  std::vector<Binary> binary_;                 // per material of the model
  std::array<std::array<Vec3, 4>, 2> ideal_{}; // [sublattice][bond]
  StrainFix fix_ = StrainFix::none;
  std::vector<PetscInt> held_; // owned atoms held in place (-strain_fix)
  OwnedVec u_, g_;             // ghosted work vectors, for vectors that are not ghosted themselves
  PetscInt evaluations_ = 0;
};

} // namespace tbpeta
