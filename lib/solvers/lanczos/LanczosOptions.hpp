#pragma once
// What a Lanczos solve is asked and how it runs (LanczosSolve.hpp): the settings of the EPS type nemo.
#include <petscsys.h>

#include <functional>
#include <string>

#include "solvers/lanczos/TridiagonalAnalysis.hpp"

namespace tbpeta::lanczos {

struct LanczosOptions {
  PetscInt nev_valence = 4, nev_conduction = 4; // states (with multiplicity) just below / above gap_center
  double gap_center = 0;                        // eV
  bool window_set = false;                      // instead: all states inside [window[0], window[1]] (eV)
  double window[2] = {0, 0};
  PetscInt check_every = 50, max_steps = 20000;
  unsigned long long seed = 1;
  double tol = 1e-10;               // relative convergence tolerance on beta_{m+1} |s_m| (relative to T's scale)
  PetscInt multiplicity_passes = 4; // restarted passes for degeneracy beyond Kramers (0: Kramers only)
  bool multiplicity_bound = true;   // a restarted pass stops once the Christoffel bound decides its levels
  bool vectors = true;              // false: eigenvalues only (no second pass, no restarted passes)
  std::string checkpoint;           // the checkpoint file of the passes (empty: none; LanczosCheckpoint)
  PetscInt checkpoint_every = 1000; // steps of the first and the second pass between checkpoint writes
  PetscInt stop_after = 0;          // end the run at the first checkpoint written after this many products (0: never)
  PetscInt ritz_batch = 4;          // the second pass: Lanczos vectors added to the eigenvectors per sweep over them
  PetscInt kramers_block = 0;       // rows per atom block when H is time-reversal symmetric with spin
  std::string option_prefix = "-";  // of the options named in messages ("-" + the EPS's prefix)
  double centre = 0;                // run on H - centre I (a spectrum far from centred on 0, the folded operator's)
  std::function<PetscErrorCode(const char *pass, PetscInt step, const Check &)> monitor; // at every check
};

} // namespace tbpeta::lanczos
