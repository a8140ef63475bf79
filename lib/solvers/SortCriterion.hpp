#pragma once
// The order in which an EPS of tbpeta's returns its states (EPSSolve sorts them by eps->sc): nearest the target for
// which = target magnitude/real, ascending for smallest real and for an interval, descending for largest real.
// SLEPc's own EPSSetUpSort_Basic is not exported from its shared library, so tbpeta's types set it here.
#include <slepceps.h>

namespace tbpeta {

// The setupsort operation of tbpeta's EPS types. Not collective.
PetscErrorCode EPSSetUpSort_Tbpeta(EPS eps);

} // namespace tbpeta
