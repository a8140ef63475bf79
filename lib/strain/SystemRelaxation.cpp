#include "strain/SystemRelaxation.hpp"

#include "strain/DisplacementField.hpp"

namespace tbpeta {

namespace {

using OwnedSNES = Owned<SNES, SNESDestroy>;

// Relaxes the atoms of `domain`; u receives its displacement field.
PetscErrorCode RelaxDomain(MPI_Comm comm, const TightBindingSystem &sys, const Structure &domain, OwnedVec *u, RelaxationReport *report) {
  KeatingEnergy energy;
  OwnedSNES snes;
  PetscFunctionBeginUser;
  PetscCall(KeatingEnergy::Create(comm, domain, sys.model, sys.a_nm, sys.spec.strain.fix, &energy));
  PetscCall(energy.CreateDisplacement(u->out()));
  PetscCall(CreateRelaxationSolver(comm, snes.out()));
  PetscCall(MinimiseEnergy(snes, &energy, *u, report));
  PetscFunctionReturn(0);
}

// The padded strain domain: the electronic box with pad host cells on each open face, and its own partition.
PetscErrorCode CreatePaddedDomain(MPI_Comm comm, const TightBindingSystem &sys, std::array<int, 3> *origin, Structure *domain) {
  std::array<int, 3> cells = sys.lattice.cells();
  PlanePartition partition;
  PetscFunctionBeginUser;
  for (int a = 0; a < 3; ++a) {
    cells[a] += 2 * sys.spec.strain.pad[a];
    (*origin)[a] = 4 * sys.spec.strain.pad[a];
  }
  const ZincblendeLattice lattice(cells, sys.lattice.periodic());
  PetscCall(CreatePlanePartition(comm, lattice.planes(), sys.spec.partition, &partition));
  PetscCall(Structure::Create(comm, lattice, partition, sys.nano.Shifted(*origin), domain));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode RelaxSystem(MPI_Comm comm, TightBindingSystem *sys, RelaxationReport *report) {
  OwnedVec u;
  PetscFunctionBeginUser;
  *report = RelaxationReport{};
  if (!sys->spec.strain.on()) PetscFunctionReturn(0);
  if (!sys->spec.strain.padded()) {
    PetscCall(RelaxDomain(comm, *sys, sys->structure, &u, report));
    PetscCall(StoreDisplacements(comm, u, &sys->structure));
  } else {
    Structure domain;
    std::array<int, 3> origin;
    PetscCall(CreatePaddedDomain(comm, *sys, &origin, &domain));
    PetscCall(RelaxDomain(comm, *sys, domain, &u, report));
    PetscCall(TransferDisplacements(comm, domain, u, origin, &sys->structure));
  }
  PetscCheck(report->converged || sys->spec.strain.allow_unconverged, comm, PETSC_ERR_NOT_CONVERGED,
             "-strain keating: the relaxation stopped before its tolerance (%s after %" PetscInt_FMT " iterations, largest force %.3g eV/nm); nothing written (raise -strain_snes_max_it, or go on with -strain_allow_unconverged)",
             report->reason.c_str(), report->iterations, report->max_force);
  PetscFunctionReturn(0);
}

PetscErrorCode ListRelaxationOptions(MPI_Comm comm) {
  OwnedSNES snes;
  PetscFunctionBeginUser;
  PetscCall(CreateRelaxationSolver(comm, snes.out()));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
