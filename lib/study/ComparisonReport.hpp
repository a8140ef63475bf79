#pragma once
// What the comparison of eigen-solvers reports: the table (aligned columns, every field), each run's levels with
// their multiplicities, the ratios of every run to the NEMO 3-D-style Lanczos, and the same rows as a table of the
// results file (compare/).
#include <petscsys.h>

#include <span>
#include <string>
#include <vector>

#include "support/ResultsPart.hpp"
#include "study/ComparisonRow.hpp"

namespace tbpeta {

// A ratio of one run to the NEMO 3-D-style Lanczos (NaN where not measurable).
struct ComparisonRatio {
  std::string solver;
  double products, seconds, solver_mb, vectors;
  bool lower_bound; // the run did not converge: its true ratio is larger
};
// The ratios of every other run that ran to the converged lanczos row (empty without one); products NaN for a run
// without products of H (shift-and-invert applies LU solves).
std::vector<ComparisonRatio> RatiosToLanczos(std::span<const ComparisonRow> rows);

// Prints the table, the levels (states closer than level_tol form one level) and the ratios. Collective (rank 0
// prints).
PetscErrorCode PrintComparison(MPI_Comm comm, std::span<const ComparisonRow> rows, double level_tol = 1e-6);

// The rows as the results file's table compare/: one dataset per column (the per-state values are left out).
TableForOutput ComparisonTable(std::span<const ComparisonRow> rows);

} // namespace tbpeta
