#pragma once
// The blocks of H, atom by atom, for every operator that applies H (the stored matrices and the block operators):
// on-site blocks (an anion takes the average over its bonded cations' materials, NEMO 3-D's convention; spin-orbit
// on the p orbitals; dangling-bond passivation on open faces) and bond blocks (Slater-Koster, one real
// orbitals x orbitals block per cation material, bond direction and row atom, the same for both spins, times the
// Bloch phase exp(i k.T) on bonds that wrap around a periodic face). The cation rows use the exact transpose of the
// anion rows' numbers and the conjugate phase, so H is Hermitian to the last bit.
// With a strained model (TightBindingModel::strained) every bond takes its actual anion->cation vector (ideal bond
// plus the displacement difference; model/StrainedBonds): its own block, computed from the same numbers for both of
// its rows, and the on-site correction of both its atoms. The stored pattern of a strained bond is that of a bond of
// general direction (entries zero only by the ideal bond's symmetry are kept). Dangling bonds keep the ideal
// direction for their passivation (as NEMO 3-D).
#include <array>
#include <complex>
#include <vector>

#include "model/SlaterKoster.hpp"
#include "geometry/Structure.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

class HamiltonianBlocks {
public:
  using Complex = std::complex<double>;
  // with_patterns: also each bond block's stored pattern (bondPattern, bondCount, patternOfKey), which only the stored
  // matrices and their counts read; the block operators keep dense blocks and skip building them.
  HamiltonianBlocks(const Structure &s, const TightBindingModel &model, std::array<double, 3> k,
                    bool with_patterns = true);

  int blockSize() const { return bs_; }  // rows per atom (orbitals x spins)
  int orbitals() const { return norb_; } // orbitals per spin
  int spins() const { return spins_; }   // 2 with spin-orbit, else 1

  // The stored integrals of one bond block: row r (orbital of the row atom) holds col[start[r] .. start[r+1]),
  // orbitals of the neighbour, ascending, with their values v (never zero); the same for both spins.
  struct BondPattern {
    std::vector<int> start, col;
    std::vector<double> v;
  };
  bool strained() const { return strained_; }
  // The stored integrals of bond b of owned atom i: the shared pattern of its key, or (strained) *scratch filled.
  const BondPattern &bondPattern(PetscInt i, int b, BondPattern *scratch) const;
  // The dense real block of bond b of owned atom i (orbitals x orbitals, row-major, rows of atom i).
  void bondBlockOf(PetscInt i, int b, double *B) const;
  // Which of the distinct real bond blocks bond b of owned atom i uses: (cation material, b, row atom anion or
  // cation), in [0, bondKeys()).
  int bondKey(PetscInt i, int b) const;
  int bondKeys() const { return (int)bond_.size() * 8; }
  const BondPattern &patternOfKey(int key) const { return pattern_[key / 8][(key / 2) % 4][key % 2]; }
  // The dense real block of `key` (orbitals x orbitals, row-major, rows of the row atom), from the table built once,
  // or recomputed from the Slater-Koster integrals (the same numbers, for operators that keep no table; by_columns:
  // column-major, the layout the block operator's product reads, written directly rather than transposed after).
  void bondBlock(int key, double *B) const;
  static void RecomputeBondBlock(const TightBindingModel &model, int key, double *B, bool by_columns = false);
  // The Bloch phase of the rows of owned atom i along bond b (1 unless the bond wraps a periodic face at k != 0).
  Complex bondPhase(PetscInt i, int b) const;

  // Upper bounds of the stored entries of the on-site block (the diagonal, the 12 of spin-orbit on the p orbitals, the
  // 12 off the diagonal of the passivation on s and p of each spin) and the exact count of a bond block's.
  int onsiteBound(bool dangling) const { return OnsiteBound(model_, dangling); }
  static int OnsiteBound(const TightBindingModel &model, bool dangling) {
    const int bs = model.blockSize(), spins = model.spin_orbit ? 2 : 1;
    return std::min(bs * bs, bs + (model.spin_orbit ? 12 : 0) + (dangling ? 12 * spins : 0));
  }
  // The most entries any bond block of the model stores (both spins), over its materials, bond directions and row
  // atoms; strained, a bond of general direction's. Without a structure: for the memory estimates.
  static int MostBondEntries(const TightBindingModel &model);
  int bondCount(PetscInt i, int b) const {
    const int key = bondKey(i, b);
    return (int)(strained_ ? strained_pattern_[key / 8][key % 2] : patternOfKey(key)).col.size() * spins_;
  }

  // Bond block of owned atom i along bond b (bs x bs, row-major: rows of atom i, columns of its neighbour).
  void bond(PetscInt i, int b, Complex *blk) const;
  // On-site block of owned atom i (bs x bs, row-major).
  void onsite(PetscInt i, Complex *blk) const;
  // The same as its parts: diagonal energies of the orbitals (both spins), the spin-orbit block on
  // (x up, y up, z up, x down, y down, z down), the passivation on (s, px, py, pz) of each spin.
  struct OnSiteTerms {
    std::array<double, kFullOrbitals> diag{}; // in the basis order, valence-band offset included
    double lambda = 0;
    bool passivated = false;
    PassivationBlock passivation{}; // sum over the dangling bonds
    bool operator==(const OnSiteTerms &o) const {
      return diag == o.diag && lambda == o.lambda && passivated == o.passivated && passivation == o.passivation;
    }
  };
  // with_potential false leaves out the atom's potential (Structure::potential), for an operator that adds it itself.
  OnSiteTerms onsiteTerms(PetscInt i, bool with_potential = true) const;
  // Whether every bond's Bloch phase is 1 (k = 0), so that the wraps play no part in H.
  bool noBlochPhases() const { return k_ == std::array<double, 3>{0, 0, 0}; }

private:
  OnSiteEnergies averagedOnsite(PetscInt i, double *shift) const;
  // The full anion-row block of bond b of owned atom i, from the bond's actual vector (strained model).
  OrbitalBlock strainedBlock(PetscInt i, int b) const;
  void addOnsiteCorrection(PetscInt i, std::array<double, kFullOrbitals> *diag) const;

  const Structure &s_;
  const TightBindingModel &model_;
  std::array<double, 3> k_;
  std::vector<int> orbs_;
  int norb_ = 0, bs_ = 0, spins_ = 1;
  std::vector<std::array<OrbitalBlock, 4>> bond_; // per material and bond direction
  std::vector<std::array<std::array<BondPattern, 2>, 4>>
      pattern_; // per material, bond direction, row atom (anion, cation)
  bool strained_ = false;
  std::vector<std::array<BondPattern, 2>> strained_pattern_; // per material, row atom: the columns of a general bond
};

} // namespace tbpeta
