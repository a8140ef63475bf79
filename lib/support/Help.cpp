#include "support/Help.hpp"

namespace tbpeta {

bool HelpRequested() {
  PetscBool help = PETSC_FALSE;
  (void)PetscOptionsHasHelp(nullptr, &help);
  return help;
}

} // namespace tbpeta
