#pragma once
// What every eigen-solver of tbpeta returns: the states it found (levels counted with their multiplicity) and the
// counters of its run, so that solvers can be compared on the same operator.
#include <petscvec.h>

#include <string>
#include <vector>

namespace tbpeta {

struct EigenStates {
  std::vector<double> values;    // eV, ascending, each state once (a Kramers pair appears twice)
  std::vector<double> residuals; // ||H x - lambda x||_2 of each state, same order (0 where no vector was computed)
  std::vector<Vec> vectors;      // eigenvectors when requested (same order); owned by the caller: DestroyVectors()
  PetscInt iterations = 0;       // solver iterations (restarts for SLEPc, Lanczos steps for the Lanczos solvers)
  PetscInt requested = 0;        // states asked for
  PetscInt products = 0;         // products y = Hx (or applications of the operator) during the solve
  PetscInt vectors_held = 0;     // work vectors of matrix size the solver allocated (counted, not declared)
  double seconds = 0;            // wall time of the solve
  double peak_rss_mb = 0;        // VmHWM during the solve, max over ranks
  std::string solver;            // e.g. "krylovschur + sinvert"
  bool complete = true;          // every wanted state converged (false: the solver stopped at its limit first)

  void DestroyVectors() {
    for (Vec &v : vectors) VecDestroy(&v);
    vectors.clear();
  }
};

} // namespace tbpeta
