#pragma once
// What an eigen-solve returns to the application: the states it found (levels counted with their multiplicity),
// ascending, with their residuals, and the counters of its run, so that solvers can be compared on the same
// operator. A plain value: the eigenvectors stay in the solver (EPS) and are read one at a time (EigenSolve.hpp).
#include <petscsys.h>

#include <string>
#include <vector>

namespace tbpeta {

struct EigenStates {
  std::vector<double> values;     // eV, ascending, each state once (a Kramers pair appears twice)
  std::vector<double> residuals;  // ||H x - lambda x||_2 of each state (0 where no vector was computed)
  std::vector<PetscInt> index;    // each state's index in the EPS (EPSGetEigenpair)
  bool vectors = false;           // the solver holds the eigenvectors
  PetscInt iterations = 0;        // EPS iterations: restarts for SLEPc's solvers, first-pass steps for nemo
  PetscInt requested = 0;         // states asked for
  PetscInt products = 0;          // products y = Hx during the solve (-1: H does not count them)
  PetscInt vectors_held = -1;     // vectors of H's size the solver allocated at its peak (-1: not measured)
  double seconds = 0;             // wall time of the solve, max over the ranks
  double peak_rss_mb = -1;        // VmHWM during the solve, max over the ranks (-1: not measured)
  std::string solver;             // e.g. "krylovschur + sinvert", "nemo: Lanczos (NEMO 3-D style, ...)"
  bool complete = true;           // every wanted state converged (false: the solver stopped at its limit first)
  std::vector<double> unresolved; // values whose vectors are no eigenvectors of H (residual above the limit)
  double residual_limit = 0;      // the limit: kResidualLimit * (||H||_inf + |target|)
};

} // namespace tbpeta
