#pragma once
// tbpeta's eigen-solvers as SLEPc EPS types, so that -eps_type chooses among SLEPc's own solvers and these. A new
// solver is one file defining its EigenSolverType (SolverType.hpp) and one line in the table of RegisterEigenSolvers
// (docs/development.md, "Add a solver type").
#include <slepceps.h>

#include <deque>

#include "solvers/SolverType.hpp"

namespace tbpeta {

// Registers a type: EPSRegister(name, create), its renamed options (support/OptionRenames), and its entry in the
// table that -help lists (a type registered again replaces its entry). After SlepcInitialize. Not collective.
PetscErrorCode RegisterEigenSolverType(const EigenSolverType &type);

// Registers tbpeta's types ("nemo", "folded"); after SlepcInitialize, once. Not collective.
PetscErrorCode RegisterEigenSolvers();

// The registered types, in the order registered. Not collective.
const std::deque<EigenSolverType> &RegisteredEigenSolverTypes();

// tbpeta's default eigen-solver type: "nemo", the NEMO 3-D-style Lanczos.
const char *DefaultEigenSolverType();

} // namespace tbpeta
