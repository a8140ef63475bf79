#pragma once
// H applied atom by atom from its blocks, behind PETSc's Mat interface (a MATSHELL), so every solver that needs
// only products runs on it unchanged. The same rows, partition and numbering as the stored matrix; the halo of
// each product comes through a PETSc star forest (PetscSF), overlapped with the atoms that need no halo.
//
// The physics makes the blocks small: a bond block is the same real orbitals x orbitals block for both spins (times
// the Bloch phase on bonds that wrap a periodic face), so it is applied to both spin components and never formed as
// a complex 20 x 20; the on-site block is the diagonal, the 6 x 6 spin-orbit block on the p orbitals and the 4 x 4
// passivation on s and p. Where the bond blocks come from:
//  - per_bond   (-hamiltonian stored_blocks): tbpeta's stored product; each bond's real block is stored (3.2 kB per
//                atom for sp3d5s*, against about 14 kB per atom of complex AIJ entries and indices);
//  - shared     (-hamiltonian shell): the operator keeps only what defines H (each atom's neighbours, the index of
//                its on-site terms and bond blocks, the Bloch phases) and a table of the distinct blocks: in an
//                unstrained crystal one per cation material, bond direction and row atom (anion or cation), so
//                interfaces, alloys and surfaces cost table entries, not storage per bond;
//  - recomputed (-hamiltonian shell -shell_block_cache 0): every bond block recomputed from the Slater-Koster
//                integrals in every product, so the true cost of recomputing shows.
// Every product visits each row's terms in one fixed order, so two products of the same vector are identical bit
// for bit, on any number of ranks.
#include <petscmat.h>

#include <array>

#include "geometry/Structure.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

enum class BlockSource { per_bond, shared, recomputed };
const char *BlockSourceName(BlockSource source);

// Which atom kernel the product runs (-shell_kernel): tuned (the default), or reference: the kernel as it was before
// its tuning for the machine's roofline (its spin-orbit block tested entry by entry), kept so that the benchmarks time
// the gain side by side (bench_operators' shell_reference). The two give the same products to rounding.
enum class BlockKernel { tuned, reference };

// Builds the operator (MATSHELL, MAT_HERMITIAN; MatNorm 1, infinity and Frobenius exact); *bytes (optional): this
// rank's operator memory (its arrays, tables, halo buffer and star forest), without the solver's vectors. Collective.
PetscErrorCode CreateBlockHamiltonian(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                                      std::array<double, 3> k, BlockSource source, Mat *H, double *bytes,
                                      BlockKernel kernel = BlockKernel::tuned);

} // namespace tbpeta
