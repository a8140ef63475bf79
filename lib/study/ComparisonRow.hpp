#pragma once
// One row of the comparison of eigen-solvers: the run's record of its solve (EigenStates: what it found and what it
// cost, its values and residuals being the states the comparison counts), and what the comparison with the reference
// run says about it.
#include <petscsys.h>

#include <limits>
#include <string>
#include <vector>

#include "solvers/EigenStates.hpp"

namespace tbpeta {

struct ComparisonRow : EigenStates {
  PetscInt states() const { return (PetscInt)values.size(); } // states found, with multiplicity
  double max_deviation =
      std::numeric_limits<double>::quiet_NaN(); // max |lambda - lambda_ref| (eV) over the levels both found
  double max_residual = std::numeric_limits<double>::quiet_NaN(); // max ||Hx - lambda x|| of its states
  bool converged = true; // false: stopped by the product cap ("not converged within N products")
  std::string note;      // the run's own note (run_note), then the comparison's
  std::string run_note;  // what the run itself noted (cap, skipped, uncounted vectors); kept when compared again
  // Added by the comparison:
  std::string run; // its name in -compare_runs, e.g. "folded_arpack"
  double center =
      std::numeric_limits<double>::quiet_NaN(); // eV: its gap centre (split), or target (SLEPc), or shift (folded)
  bool splits_at_centre = false; // its solver asks for nv below and nc above the centre (SolverTraits), whole levels
  double solver_mb = 0;          // peak during the solve minus the resident size just before it, max over ranks
  bool reference = false;        // the run the others are compared with (CompareWithReference)
  bool skipped = false;          // not run (the note says why)
  PetscInt levels_compared = 0;  // levels with equal multiplicity in this run and the reference
};

} // namespace tbpeta
