#pragma once
// The memory a run will need on each rank, estimated before anything large is allocated, and the refusal of a run that
// cannot fit (-memory_limit MB per rank; default: the memory available on the node shared by its ranks) with the
// option that would make it fit. The estimate is a list of terms, each estimated by its owner from counts: the
// structure (Structure::EstimateBytes), the relaxation of -strain (EstimateSystemRelaxation), H (its kind's
// estimate_bytes), the Poisson solve of -piezo (EstimatePoissonBytes), the solver's vectors (its EPS type's) and the
// runtime (measured).
#include <petscsys.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/TightBindingSystem.hpp"
#include "operator/Hamiltonian.hpp"

namespace tbpeta {

// When a term's bytes are resident: the whole run, the relaxation or the Poisson solve of the fields (each freed before
// the next phase), or H and the solve.
enum class MemoryPhase { whole_run, relaxation, fields, solve };

struct PreflightTerm {
  std::string name; // as printed: "structure", "H aij", "solver about 13 vectors", "runtime", ...
  double bytes = 0; // on the largest rank
  MemoryPhase phase = MemoryPhase::whole_run;
};

// Bytes on the largest rank (each term's maximum over the ranks).
struct MemoryEstimate {
  std::vector<PreflightTerm> terms; // in the order printed
  PetscInt vectors_held = 0;
  double phase(MemoryPhase p) const; // the sum of the terms of phase p
  // The whole run's terms and the largest of the phases (the relaxation and the fields' Poisson solve are freed
  // before H is built).
  double total() const {
    return phase(MemoryPhase::whole_run) +
           std::max({phase(MemoryPhase::relaxation), phase(MemoryPhase::fields), phase(MemoryPhase::solve)});
  }
  double bytesOf(const std::string &name_start) const; // of the terms whose name starts so
};

// The estimate for the system's lattice, partition and model (its structure not built yet: counted from the planes of
// each rank's box), H of kind `*hopts` (nullptr: no H, -solve false) and `vectors_held` vectors. Collective.
PetscErrorCode EstimateRunMemory(MPI_Comm comm, const TightBindingSystem &sys, const HamiltonianOptions *hopts,
                                 PetscInt vectors_held, MemoryEstimate *est);

// Prints the estimate: "memory estimate per rank (largest): T MB = structure S MB + H aij H MB + ... (limit L MB)",
// and each term of the phases before H (the relaxation, the fields) on a line of its own. Collective.
PetscErrorCode PrintMemoryEstimate(MPI_Comm comm, const MemoryEstimate &est, double limit_mb);

// -memory_limit MB per rank (default: MemAvailable of the node / ranks on the node). Collective.
PetscErrorCode MemoryLimitFromOptions(MPI_Comm comm, double *limit_mb, bool *given);

// Refuses (one line, PETSC_ERR_USER_INPUT, collective) a run whose estimate exceeds the limit, naming the terms and
// what would make it fit: more ranks, -hamiltonian shell (with its estimate) or fewer states.
PetscErrorCode CheckMemoryFits(MPI_Comm comm, const TightBindingSystem &sys, const HamiltonianOptions &hopts,
                               const MemoryEstimate &est, double limit_mb, bool given);

} // namespace tbpeta
