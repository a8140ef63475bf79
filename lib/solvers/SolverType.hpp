#pragma once
// One of tbpeta's eigen-solver types, as RegisterEigenSolverType (RegisterSolvers.hpp) registers it: its -eps_type
// name and constructor for SLEPc's EPSRegister, how it lists its own options under -help when another type is
// chosen, and the options it had under another name. A type's file defines a function returning its entry
// (NemoSolverType, FoldedSolverType); what the type answers beyond SLEPc's interface it composes on the EPS
// (SolverTraits.hpp).
#include <slepceps.h>

#include <vector>

#include "support/OptionRenames.hpp"

namespace tbpeta {

struct EigenSolverType {
  const char *name = nullptr;                  // -eps_type NAME
  PetscErrorCode (*create)(EPS eps) = nullptr; // EPSCreate_X: sets eps->ops and composes the type's functions
  // Lists the type's own options under -help in a section of its own (PETSc lists an EPS's options section once per
  // options prefix, with the chosen type's options only): called for every registered type but the chosen one.
  // `target`: the EPS's default target. null: the type has no options of its own. Collective.
  PetscErrorCode (*list_options)(MPI_Comm comm, double target) = nullptr;
  std::vector<RenamedOption> renamed; // options of earlier versions, refused in one line naming their successor
};

} // namespace tbpeta
