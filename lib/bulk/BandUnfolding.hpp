#pragma once
// Bulk band structure of one material of a model, from the same periodic 8-atom cubic cell and stored Hamiltonian
// as any structure (no separate small code). H(k) of the cubic cell holds the fcc (primitive) bands at k + G for the
// four G in {0, (1,0,0), (0,1,0), (0,0,1)} (2 pi / a). Projecting its eigenvectors onto the fcc translations
//   P(k) = 1/4 sum_t exp(-i k.t) T_t,  t in {0, (0,2,2), (2,0,2), (2,2,0)} (planes, a/4),
// with (T_t c)(atom r) = c(atom r') exp(i k.W) for r + t = r' + W (r' in the cell, W the wrap removed: the phase
// convention of AssembleHamiltonian), unfolds them: the multiplicity of the primitive band at k in a degenerate
// group of eigenvalues is Re tr(V^H P V). Every k gives exactly 2 atoms x rows per atom primitive bands (checked).
#include <petscsys.h>

#include <array>
#include <vector>

#include "bulk/KPath.hpp"
#include "bulk/KPoint.hpp"
#include "model/BulkCell.hpp"

namespace tbpeta {

// hbar^2 / (2 m0) in eV Angstrom^2: the bands' kinetic scale (effective masses, momentum matrix elements).
inline constexpr double kHbar2Over2m0 = 3.80998;

// The primitive (fcc) bands of one material of a model. Holds the periodic 1x1x1 cubic cell; every evaluation
// assembles H(k) on PETSC_COMM_SELF and diagonalises it densely (not collective).
class BulkBands {
public:
  // eps: a homogeneous strain (Voigt, tensor components) of the crystal, its atoms relaxed inside (StrainedBulk.hpp);
  // k is then in units of the strained cell's reciprocal vectors (the same fractions: X stays X).
  static PetscErrorCode Create(const TightBindingModel &model, int material, BulkBands *out,
                               const std::array<double, 6> &eps = {0, 0, 0, 0, 0, 0});
  // All primitive band energies at k (eV, absolute, ascending); exactly bandCount() of them.
  PetscErrorCode At(KPoint k, std::vector<double> *energies) const;
  // The primitive states at k: each degenerate group of the cubic cell's eigenvectors V projected by P(k), its range
  // (of dimension the group's multiplicity) orthonormalised; in the cubic cell's basis at k, as cell() builds H(k).
  struct PrimitiveStates {
    std::vector<double> energies;     // bandCount() of them, eV, absolute, ascending
    std::vector<PetscScalar> vectors; // column j (rows entries) belongs to energies[j]
    PetscInt rows = 0;                // rows of the cubic cell's H
  };
  PetscErrorCode States(KPoint k, PrimitiveStates *states) const;
  const BulkCell &cell() const { return cell_; }
  int bandCount() const { return 2 * model().blockSize(); }
  int valenceBands() const { return 4 * (model().spin_orbit ? 2 : 1); }     // 4 per atom pair, x2 with spin
  double latticeConstant() const { return model().materials[0].a_lattice; } // Angstrom
  const TightBindingModel &model() const { return cell_.model; }

private:
  BulkCell cell_; // the one material's cubic cell
  struct Image {
    int atom;                // site index of r' = r + t wrapped into the cell
    std::array<int, 3> wrap; // W in planes
  };
  std::array<std::array<Image, 8>, 4> images_; // per fcc translation t, per atom r
};

// The bands at every sample (rows: samples; columns: bands, absolute eV), the samples shared round-robin over the
// ranks of comm and gathered on all. Collective.
PetscErrorCode BandsAlongPath(MPI_Comm comm, const BulkBands &bands, const std::vector<PathSample> &samples,
                              std::vector<std::vector<double>> *energies);

} // namespace tbpeta
