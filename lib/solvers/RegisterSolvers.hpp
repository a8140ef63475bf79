#pragma once
// tbpeta's eigen-solvers as SLEPc EPS types, so that -eps_type chooses among SLEPc's own solvers and these. A new
// solver is one file with its EPSCreate_X and one line in RegisterEigenSolvers (docs/development.md).
#include <slepceps.h>

namespace tbpeta {

// Registers "nemo" (NemoLanczos.hpp) and "folded" (FoldedSpectrum.hpp); after SlepcInitialize, once. Not collective.
PetscErrorCode RegisterEigenSolvers();

// tbpeta's default eigen-solver type: "nemo", the NEMO 3-D-style Lanczos.
const char *DefaultEigenSolverType();

} // namespace tbpeta
