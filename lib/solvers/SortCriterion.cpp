#include "solvers/SortCriterion.hpp"

#include <slepc/private/epsimpl.h>

namespace tbpeta {

PetscErrorCode EPSSetUpSort_Tbpeta(EPS eps) {
  PetscFunctionBeginUser;
  switch (eps->which) {
  case EPS_TARGET_MAGNITUDE:
    eps->sc->comparison = SlepcCompareTargetMagnitude;
    eps->sc->comparisonctx = &eps->target;
    break;
  case EPS_TARGET_REAL:
    eps->sc->comparison = SlepcCompareTargetReal;
    eps->sc->comparisonctx = &eps->target;
    break;
  case EPS_LARGEST_REAL:
    eps->sc->comparison = SlepcCompareLargestReal;
    eps->sc->comparisonctx = nullptr;
    break;
  default:
    eps->sc->comparison = SlepcCompareSmallestReal;
    eps->sc->comparisonctx = nullptr;
    break; // smallest real, an interval
  }
  eps->sc->map = nullptr;
  eps->sc->mapobj = nullptr;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
