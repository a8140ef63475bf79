#include "solvers/RegisterSolvers.hpp"

#include "solvers/folded/FoldedSpectrum.hpp"
#include "solvers/lanczos/NemoLanczos.hpp"

namespace tbpeta {

PetscErrorCode RegisterEigenSolvers() {
  static bool registered = false;
  PetscFunctionBeginUser;
  if (registered) PetscFunctionReturn(0);
  PetscCall(EPSRegister(EPSNEMO, EPSCreate_Nemo));
  PetscCall(EPSRegister(EPSFOLDED, EPSCreate_Folded));
  registered = true;
  PetscFunctionReturn(0);
}

const char *DefaultEigenSolverType() { return EPSNEMO; }

} // namespace tbpeta
