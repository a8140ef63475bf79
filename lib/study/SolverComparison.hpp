#pragma once
// -compare: every eigen-solver of the comparison (ComparisonRuns) on the same H and the same question (the states
// nearest the gap centre), one row per run, compared on levels with their multiplicities against the run with the
// best residuals (LevelComparison). Allocation tracking is on during the comparison (the vectors each run holds are
// measured, SolveMemory).
//
// The question: nv valence + nc conduction states (counted with multiplicity) around the gap centre E. The Lanczos
// asks for nv below and nc above E; the SLEPc and folded runs for the nv + nc states nearest their target (the only
// question a target can ask). The two differ when the levels are not balanced around E (in a dot the valence levels
// are denser: the 8 states nearest the host's midgap can all be conduction states). So, by default
// (-compare_recenter), the runs after the Lanczos look around the middle of its states, where the nv + nc nearest
// states are exactly those; off the middle by 1e-6 of the half-width, since at the middle the folded spectrum sees
// the two edge levels as one. Without the recentring (or without a converged Lanczos first) the sets may differ at
// their edges; the comparison then uses the levels both found.
#include <petscmat.h>

#include <span>
#include <string>
#include <vector>

#include "operator/OperatorProperties.hpp"
#include "study/ComparisonRow.hpp"
#include "study/ComparisonRuns.hpp"

namespace tbpeta {

struct CompareOptions {
  PetscInt nev_valence = 4, nev_conduction = 4; // states below / above the gap centre, with multiplicity
  double gap_center = 0;                        // eV
  PetscInt max_products = 200000;               // cap per run
  PetscInt sinvert_max_rows =
      30000; // larger H: the sinvert run is skipped (MUMPS needed 350 s and 2.8 GB at 34,560 rows)
  PetscBool recenter = PETSC_TRUE; // the runs after the Lanczos look around the middle of its states
  double level_tol = 1e-6;         // eV: states closer than this are one level
  std::vector<ComparisonRun> runs; // in this order
  bool runs_given = false;         // -compare_runs was given
};

// Reads -compare_nev_valence, -compare_nev_conduction, -compare_gap_center (default: defaults.gap_center),
// -compare_max_products, -compare_sinvert_max_rows, -compare_recenter, -compare_level_tol and -compare_runs a,b,...
// (default all, in the order of ComparisonRuns), each defaulting to `defaults`. One-line PETSC_ERR_USER_INPUT naming
// the option for a bad value. Collective.
PetscErrorCode CompareOptionsFromOptions(MPI_Comm comm, const CompareOptions &defaults, CompareOptions *opts);

// Runs opts.runs on H, one row each, and compares them (CompareWithReference). Prints one progress line per run and
// the recentring. A state whose residual exceeds kResidualLimit * (||H||_inf + |E|) is no eigenvector of H (a folded
// run's mix of E - d and E + d) and is not counted (note). Rows are identical on every rank. earlier: rows of the
// same question measured before (another job of bench_solvers), put first and compared with the new ones; a converged
// Lanczos among them sets the centre of the new runs. PETSC_ERR_USER_INPUT when more states are wanted than H has
// rows. Collective.
PetscErrorCode CompareSolvers(Mat H, const CompareOptions &opts, std::vector<ComparisonRow> *rows,
                              std::span<const ComparisonRow> earlier = {});

// The vectors of H's size the largest run is expected to hold (EstimateVectorsHeld of each run's solver), for the
// memory estimate made before H exists (planned: the properties H will carry, PlannedOperatorProperties). Collective.
PetscErrorCode EstimateComparisonVectors(MPI_Comm comm, const CompareOptions &opts, const OperatorProperties &planned,
                                         PetscInt *vectors);

} // namespace tbpeta
