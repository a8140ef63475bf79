#pragma once
// tbpeta's PetscLogEvents, so -log_view shows every phase that costs time.
#include <petsclog.h>

namespace tbpeta {

struct LogEvents {
  PetscClassId classid = 0;
  PetscLogEvent structure = 0;       // atoms of this rank and their materials
  PetscLogEvent neighbours = 0;      // bonds and halo from the lattice
  PetscLogEvent assembly = 0;        // Hamiltonian blocks and matrix assembly
  PetscLogEvent product = 0;         // products y = Hx timed by the application and benchmarks
  PetscLogEvent solve = 0;           // eigen-solve
  PetscLogEvent output = 0;          // HDF5 output
  PetscLogEvent strain_gradient = 0; // valence-force-field energy and gradient
  PetscLogEvent strain_energy = 0;   // valence-force-field energy alone (the line search)
  PetscLogEvent relaxation = 0;      // the whole relaxation (SNES solve)
  PetscLogEvent strain_pc_setup = 0; // the relaxation's preconditioner: bond Laplacian and its multigrid hierarchy
  PetscLogEvent strain_pc_apply = 0; // one application of it (a multigrid cycle per Cartesian component)
  PetscLogEvent lanczos_product = 0; // the product of a Lanczos step (fused with its first vector pass where offered)
  PetscLogEvent lanczos_vectors = 0; // the rest of a Lanczos step: reductions and vector passes
  PetscLogEvent lanczos_ritz = 0;    // the second pass's sums of Lanczos vectors into the eigenvectors
  PetscLogEvent fields = 0;          // the potentials on the atoms: polarisation, Poisson, applied field
  PetscLogEvent poisson = 0;         // the polarisation's Poisson problem: grid, deposition, assembly, KSP solve
  PetscLogEvent momentum = 0;        // the momentum matrix elements of the optical transitions (products of [H, r])
  PetscLogEvent binding = 0;         // whether the states are the dot's: the host's bulk gap, the dot fractions
};

// Registers the events once (idempotent) and returns them.
PetscErrorCode GetLogEvents(const LogEvents **events);

} // namespace tbpeta
