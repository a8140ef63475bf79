#pragma once
// NEMO 3-D's first phase for a whole calculation: with -strain keating, the atoms of the system's structure are
// relaxed before H is built. With -strain_pad_cells the strain domain is a larger box (host cells around the
// electronic box on its open faces, with its own partition over the same ranks); it is relaxed and dropped, and the
// displacements of the electronic box's atoms move over by a PETSc scatter.
#include <petscsys.h>

#include "geometry/HaloAnalysis.hpp"
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

// What the relaxation holds on this rank at its peak, for the memory preflight (bytes; 0 with -strain none): the
// padded strain domain's structure when there is one and, per owned atom of the strain domain, PETSc's allocations
// (3 vectors of 3 complex numbers per L-BFGS pair kept, -strain_snes_qn_m, and 1,127 bytes on one rank, 1,924 on
// more: the SNES's and the line search's vectors, the ghosted displacement, the bonds' Laplacian and its GAMG
// hierarchy, parallel GAMG keeping more) and the Keating energy's own arrays with the strain tensors (80 bytes).
// PETSc's part is its peak under -malloc_view on 92,160 and 175,616 atoms at -strain_snes_qn_m 5, 10 and 20 on one
// rank (to 0.1 %) and on 2 and 3 ranks (to 1 %); the rest is VmHWM less that and the runtime. Freed before H is
// built. Collective.
PetscErrorCode EstimateSystemRelaxation(MPI_Comm comm, const TightBindingSystem &sys, double *bytes);

// The atoms this rank owns and holds as halo in the strain domain: the padded one's with -strain_pad_cells (its own
// partition), else the electronic box's. Collective.
PetscErrorCode CountStrainDomain(MPI_Comm comm, const TightBindingSystem &sys, DomainHalo *counts);

// -help: the relaxation's SNES options (prefix strain_) with the defaults of tbpeta. Collective.
PetscErrorCode ListRelaxationOptions(MPI_Comm comm);

} // namespace tbpeta
