#pragma once
// The memory a run will need on each rank, estimated before anything large is allocated (the structure, H, the
// solver's vectors), and the refusal of a run that cannot fit (-memory_limit MB per rank; default: the memory
// available on the node shared by its ranks) with the option that would make it fit.
#include <petscsys.h>

#include <algorithm>

#include "model/TightBindingSystem.hpp"
#include "operator/Hamiltonian.hpp"

namespace tbpeta {

// Bytes on the largest rank (each part's maximum over the ranks).
struct MemoryEstimate {
  double structure = 0;   // atoms, bonds and halo of the rank (Structure)
  double hamiltonian = 0; // H of the chosen kind (EstimateHamiltonianBytes)
  double vectors = 0;     // the solver's vectors of H's size
  double runtime = 0;     // MPI, PETSc, SLEPc and the executable, measured resident before the structure
  double fields = 0;      // the Poisson solve of -piezo (grid, operator, multigrid, vectors), freed before H is built
  PetscInt vectors_held = 0;
  double total() const { return structure + runtime + std::max(hamiltonian + vectors, fields); }
};

// The estimate for the system's lattice, partition and model (its structure not built yet: counted from the
// planes of each rank's box, CountDomainHalo), H of kind `hopts` and `vectors_held` vectors. Collective.
PetscErrorCode EstimateRunMemory(MPI_Comm comm, const TightBindingSystem &sys, const HamiltonianOptions &hopts,
                                 PetscInt vectors_held, MemoryEstimate *est);

// -memory_limit MB per rank (default: MemAvailable of the node / ranks on the node). Collective.
PetscErrorCode MemoryLimitFromOptions(MPI_Comm comm, double *limit_mb, bool *given);

// Refuses (one line, PETSC_ERR_USER_INPUT, collective) a run whose estimate exceeds the limit, naming the parts and
// what would make it fit: more ranks, -hamiltonian shell (with its estimate) or fewer states.
PetscErrorCode CheckMemoryFits(MPI_Comm comm, const TightBindingSystem &sys, const HamiltonianOptions &hopts,
                               const MemoryEstimate &est, double limit_mb, bool given);

} // namespace tbpeta
