#pragma once
// One row of the comparison of eigen-solvers: what a run found and what it cost, and what the comparison with the
// reference run says about it.
#include <petscsys.h>

#include <limits>
#include <string>
#include <vector>

namespace tbpeta {

struct ComparisonRow {
  std::string solver;              // e.g. "lanczos", "slepc krylovschur harmonic", "folded arpack"
  PetscInt states = 0;             // states found, with multiplicity
  PetscInt requested = 0;          // states asked for
  double max_deviation = std::numeric_limits<double>::quiet_NaN(); // max |lambda - lambda_ref| (eV) over the levels both found
  double max_residual = std::numeric_limits<double>::quiet_NaN();  // max ||Hx - lambda x|| of its states
  PetscInt products = 0;           // products y = Hx
  PetscInt iterations = 0;
  PetscInt vectors_held = 0;       // vectors of matrix size, measured from the allocations during the solve
  double seconds = 0;
  double peak_rss_mb = 0;          // VmHWM during the solve, max over ranks
  bool converged = true;           // false: stopped by the product cap ("not converged within N products")
  std::string note;                // the run's own note (run_note), then the comparison's
  std::string run_note;            // what the run itself noted (cap, skipped, uncounted vectors); kept when compared again
  // Added by the comparison:
  std::string run;                 // its name in -compare_runs, e.g. "folded_arpack"
  double center = std::numeric_limits<double>::quiet_NaN(); // eV: its gap centre (Lanczos), target (SLEPc) or shift (folded)
  double solver_mb = 0;            // peak during the solve minus the resident size just before it, max over ranks
  bool reference = false;          // the run the others are compared with (CompareWithReference)
  bool skipped = false;            // not run (the note says why)
  PetscInt levels_compared = 0;    // levels with equal multiplicity in this run and the reference
  std::vector<double> values, residuals; // the states counted (eV), ascending
};

} // namespace tbpeta
