#pragma once
// The relaxation: the atoms of a structure moved to the minimum of the Keating energy (strain/KeatingEnergy.hpp)
// by PETSc's nonlinear solvers (SNES with the options prefix strain_, F(u) = dE/du = 0 with E given to the line
// search as the objective). Defaults (changed by -strain_snes_*): L-BFGS (SNESQN) whose initial inverse Hessian is
// one multigrid cycle on the bonds' Laplacian (strain/BondLaplacian.hpp), stopping when the largest force on an
// atom, |dE/du_i|, is below 1e-3 eV/nm (-strain_snes_atol), with no relative or step test.
#include <petscsnes.h>

#include <string>

#include "strain/KeatingEnergy.hpp"

namespace tbpeta {

// The SNES defaults of the relaxation, shown by -help.
inline constexpr double kRelaxForceTolerance = 1e-3;   // eV/nm, -strain_snes_atol
inline constexpr PetscInt kRelaxMaxIterations = 20000; // -strain_snes_max_it

struct RelaxationReport {
  bool relaxed = false; // a relaxation ran
  std::string model = "none", snes_type;
  PetscInt iterations = 0, evaluations = 0, atoms = 0;
  double energy = 0;    // eV, whole strain domain
  double max_force = 0; // eV/nm, largest |dE/du| of an atom
  double seconds = 0;
  bool converged = false;
  std::string reason; // SNES's converged reason
  double energyPerAtom() const { return atoms ? energy / atoms : 0; }
};

// The relaxation SNES on comm: prefix strain_, type and tolerances defaulted, options read. Collective.
PetscErrorCode CreateRelaxationSolver(MPI_Comm comm, SNES *snes);

// Minimises `energy` from its current displacement u (in: start, out: relaxed) and reports. Collective.
PetscErrorCode MinimiseEnergy(SNES snes, KeatingEnergy *energy, Vec u, RelaxationReport *report);

// The largest force on an atom, |dE/du_i| (eV/nm), of a gradient in the energy's layout. Collective.
PetscErrorCode MaxAtomForce(Vec gradient, double *max_force);

} // namespace tbpeta
