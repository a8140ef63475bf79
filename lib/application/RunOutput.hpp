#pragma once
// -output FILE.h5 of a run (ResultsFile): the states (densities whenever the solver returned eigenvectors, the vectors
// themselves with -output_vectors), the structure in canonical order (with its strain, composition and fields), the
// solver's counters and, when given, the comparison of solvers.
#include <slepceps.h>

#include <span>
#include <string>

#include "io/ResultsFile.hpp"
#include "fields/SystemFields.hpp"
#include "model/TightBindingSystem.hpp"
#include "solvers/EigenStates.hpp"
#include "strain/SystemRelaxation.hpp"

namespace tbpeta {

struct RunOutputOptions {
  std::string path;           // -output (empty: none)
  bool write_vectors = false; // -output_vectors
};

// Reads -output and -output_vectors, and refuses a path that cannot be written (OutputPath). Collective.
PetscErrorCode RunOutputOptionsFromOptions(MPI_Comm comm, RunOutputOptions *opts);

// eps: the solver that holds the states' eigenvectors (nullptr: none). Shown in -log_view as TbOutput. Collective.
PetscErrorCode WriteRunOutput(MPI_Comm comm, const RunOutputOptions &opts, const TightBindingSystem &sys,
                              const EigenStates &states, EPS eps, double gap_center, const SystemStrain &strain,
                              const SystemFields &fields, std::span<const TableForOutput> tables = {});

} // namespace tbpeta
