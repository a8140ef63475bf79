#pragma once
// NEMO 3-D's first phase for a whole calculation: with -strain keating, the atoms of the system's structure are
// relaxed before H is built. With -strain_pad_cells the strain domain is a larger box (host cells around the
// electronic box on its open faces, with its own partition over the same ranks); it is relaxed and dropped, and the
// displacements of the electronic box's atoms move over by a PETSc scatter.
#include <petscsys.h>

#include "model/TightBindingSystem.hpp"
#include "strain/Relaxation.hpp"
#include "strain/StrainTensor.hpp"

namespace tbpeta {

// A relaxation and its per-atom results for the owned atoms of the electronic structure, evaluated in the strain
// domain (so an atom on a face of a padded box has its strain from all four of its bonds).
struct SystemStrain {
  RelaxationReport report;
  std::vector<Voigt> tensors; // StrainTensors
  std::vector<double> energy; // eV, the Keating terms centred at each atom
  // With -piezo and a padded strain domain, the domain's own atoms and tensors (the polarisation lives there too),
  // the electronic box's planes at +origin in it; empty otherwise (the domain is the electronic box). ReleaseDomain
  // frees them once the fields are computed.
  bool padded = false;
  Structure domain;
  std::vector<Voigt> domain_tensors;
  std::array<int, 3> origin{0, 0, 0};
  void ReleaseDomain() {
    domain = Structure{};
    domain_tensors = {};
  }
};

// Relaxes sys->structure (built) as sys->spec.strain asks; nothing happens with -strain none. A relaxation that stops
// before its tolerance is an error (PETSC_ERR_NOT_CONVERGED, one line) unless -strain_allow_unconverged. Collective.
PetscErrorCode RelaxSystem(MPI_Comm comm, TightBindingSystem *sys, SystemStrain *strain);

// -help: the relaxation's SNES options (prefix strain_) with the defaults of tbpeta. Collective.
PetscErrorCode ListRelaxationOptions(MPI_Comm comm);

} // namespace tbpeta
