#pragma once
// Eigenvalues of H with SLEPc. The -eps_* and -st_* options pass through to SLEPc; tbpeta only sets what SLEPc
// cannot know: the problem is Hermitian, and by default the wanted states are those nearest a target energy
// (the host's midgap unless -eps_target is given).
#include <slepceps.h>

#include <vector>

#include "tbpeta/EigenStates.hpp"

namespace tbpeta {

// Solves for the states of H nearest `default_target` (eV) unless the options say otherwise. Collective.
PetscErrorCode SolveWithSlepc(Mat H, double default_target, EigenStates *states);

// Every eigenvalue of a small H (dense LAPACK through SLEPc's EPSLAPACK), ascending. Collective.
PetscErrorCode AllEigenvalues(Mat H, std::vector<double> *values);

} // namespace tbpeta
