#pragma once
// The block operator's data (BlockHamiltonian.hpp): what a product needs of each owned atom (its on-site
// configuration, its bonds' blocks and Bloch phases), the tables of distinct terms, the strained bonds' definitions,
// and the halo's star forest. Built by the tables (BlockTables), applied by the kernels (BlockKernels) in the products
// (BlockProducts), behind a MatShell (BlockShell.cpp).
#include <petscmat.h>
#include <petscsf.h>

#include <array>
#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "operator/HamiltonianBlocks.hpp"
#include "operator/block/BlockHamiltonian.hpp"
#include "operator/block/StrainedBondKernel.hpp"
#include "support/LargeArrays.hpp"

namespace tbpeta::block {

using Complex = std::complex<double>;

// A non-zero entry of the spin-orbit block, as the product applies it: acc[dst] += v x[src] (offsets in doubles of an
// atom's (re, im) pairs).
struct SpinOrbitEntry {
  std::uint8_t dst = 0, src = 0;
  double re = 0, im = 0;
};

// The on-site terms of one distinct atom configuration (material, neighbours' materials, dangling bonds).
struct OnSite {
  std::array<double, kFullOrbitals> diag{}; // per orbital of the basis, both spins
  bool passivated = false;
  PassivationBlock passivation{};
  bool spin_orbit = false;
  SpinOrbitBlock so{};
  // Its non-zero entries in BlockOperator::so_entries, from so_first: a loop without a test per entry (L.S has 12 of
  // 36).
  std::int32_t so_first = 0, so_count = 0;
};

// Appends the non-zero entries of o's spin-orbit block to `entries`, row by row and each row's in column order (the
// order the stored matrix sums them), and marks where they are in o.
void ListSpinOrbitEntries(int norb, OnSite *o, std::vector<SpinOrbitEntry> *entries);

// What a product needs of one owned atom besides its neighbours: its on-site terms, and per bond its block and Bloch
// phase. Atoms of one configuration share one entry.
struct AtomTerms {
  std::array<std::int32_t, 4> block{-1, -1, -1, -1}; // in `blocks` (per_bond, shared) or the key to recompute; a
                                                     // strained bond evaluated in the product finds its key itself
  std::array<std::uint8_t, 4> phase{};               // in `phases` (0: exactly 1)
  std::int32_t onsite = 0;                           // in `onsites`
  bool operator==(const AtomTerms &) const = default;
};
struct AtomTermsHash {
  size_t operator()(const AtomTerms &t) const {
    size_t h = (size_t)t.onsite * 0x9E3779B97F4A7C15ULL;
    for (int b = 0; b < 4; ++b) h = (h ^ ((size_t)(std::uint32_t)t.block[b] << 8 | t.phase[b])) * 0xC2B2AE3D27D4EB4FULL;
    return h;
  }
};

// Everything a product needs: its own tables, and the structure's bonds, shared; nothing else of the Structure is kept.
struct BlockOperator {
  BlockSource source = BlockSource::shared;
  TightBindingModel model; // for the recomputed blocks
  int bs = 0, norb = 0, spins = 1;
  void (*apply)(const BlockOperator &, PetscInt, const double *, const double *,
                double *) = nullptr; // the atom kernel for norb, spins (BlockKernels)
  // The kernel of interior atoms i and i + 1 of one configuration (same terms) at once, where the atoms share their
  // blocks from the table (an unstrained shell with its block cache); null otherwise.
  void (*apply_pair)(const BlockOperator &, PetscInt, const double *, double *, double *) = nullptr;
  bool pairs(PetscInt i) const { return apply_pair && terms_of[i] == terms_of[i + 1]; }
  PetscInt owned = 0, halo = 0;
  // Per owned atom and bond: the neighbour's site (owned, or owned + halo index), -1 dangling; the structure's bonds,
  // shared rather than copied.
  std::shared_ptr<const LargeVector<std::array<int, 4>>> bonds;
  const std::array<int, 4> *nbr = nullptr;
  LargeVector<AtomTerms> terms;       // the distinct atoms' terms; per_bond (a block per bond): each owned atom's
  LargeVector<std::int32_t> terms_of; // per owned atom: its entry in `terms`; empty when they are per atom
  // The owned atoms without a halo neighbour, as runs [first, end) of consecutive atoms (a single run on one rank or in
  // a slab; a box split along y or z has a run per x plane or line), and those with one.
  std::vector<std::array<PetscInt, 2>> interior;
  std::size_t interior_atoms = 0;
  LargeVector<PetscInt> boundary;
  std::size_t lead =
      0; // how far in the interior atoms an atom's interior neighbours reach ahead of it, at most: the
         // largest j - i over bonds i -> j between owned atoms (positions in the interior skip the boundary)
  std::vector<double> blocks; // norb x norb real blocks, each stored by columns (StoreByColumns)
  std::vector<Complex> phases{Complex(1)};
  std::vector<OnSite> onsites;
  std::vector<SpinOrbitEntry> so_entries; // the onsites' non-zero spin-orbit entries (OnSite::so_first, so_count)
  // Every atom's own diagonal (norb per owned atom; the onsites then hold only spin-orbit and passivation) when the
  // diagonal differs from atom to atom: under strain (the bonds' on-site corrections) or with a potential on the atoms
  // (Structure::potential, the one place for per-atom on-site terms, HamiltonianBlocks::onsiteTerms).
  bool own_diagonal = false;
  LargeVector<double> diag;
  // An unstrained H with a potential on the atoms: the configurations keep sharing their diagonal and the product adds
  // each atom's potential (eV, 8 bytes per atom) to it, as the stored matrix does (diagonal + potential). Empty
  // otherwise (a strained H folds the potential into its own diagonal).
  LargeVector<double> potential;
  bool perAtomOnsite() const { return own_diagonal || !potential.empty(); } // on-site norms atom by atom
  // A strained H: for the blocks recomputed in the product (shared, recomputed) what defines each bond: the
  // displacements and cation materials of owned and halo atoms, the row atoms' sublattices, the plane spacing.
  bool strained = false;
  LargeVector<std::array<double, 3>> u;
  LargeVector<std::uint8_t> material, anion;
  double q = 0;
  std::array<std::array<double, 3>, 4> ideal{}; // the anion->cation ideal bonds, under the box's homogeneous strain
  bool box_strained = false;
  std::vector<RowIntegrals> rows; // per material: from the anion's rows, from the cation's
  // The halo: each halo atom's bs entries of x, gathered from its owner by a star forest whose unit is one atom's bs
  // scalars (each owner's rank and atom from the halo atom's global index and the structure's rank offsets: no index
  // analysis).
  PetscSF halo_sf = nullptr;
  MPI_Datatype unit = MPI_DATATYPE_NULL;
  PetscScalar *ghost = nullptr; // the halo's entries, written by every product (never read before)
  // H's infinity and Frobenius norms: this rank's (the largest row sum, the sum of squares) until the first MatNorm
  // sums them over the ranks, so that a build whose norms nobody asks for makes no reduction for them.
  double norm_inf = 0, fro2 = 0;
  bool norms_global = false;
  double bytes = 0; // this rank's operator memory

  const AtomTerms &termsOf(PetscInt i) const { return terms[terms_of.empty() ? i : terms_of[i]]; }
};

// The kernel of one atom: y_i = (H x)_i from this rank's x (xl) and its halo (xg, null for interior atoms).
using AtomKernel = void (*)(const BlockOperator &, PetscInt, const double *, const double *, double *);
// The kernel of interior atoms i and i + 1 at once: y_i into y0, y_{i+1} into y1.
using AtomPairKernel = void (*)(const BlockOperator &, PetscInt, const double *, double *, double *);

// MATOP_DESTROY of the shell: the halo's star forest, buffers and the operator. Collective.
PetscErrorCode DestroyBlockOperator(Mat H);

} // namespace tbpeta::block
