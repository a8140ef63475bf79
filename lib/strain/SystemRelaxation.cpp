#include "strain/SystemRelaxation.hpp"

#include "strain/BondLaplacian.hpp"
#include "strain/DisplacementField.hpp"
#include "support/CrashReport.hpp"
#include "support/LargeArrays.hpp"

namespace tbpeta {

namespace {

// Relaxes the atoms of `domain` (its displacements set); u receives the displacement field, `fields` the strain
// tensor (6) and the energy (1) of each owned atom of the domain, block size 7.
PetscErrorCode RelaxDomain(MPI_Comm comm, const TightBindingSystem &sys, Structure *domain, OwnedVec *u,
                           OwnedVec *fields, RelaxationReport *report, std::vector<Voigt> *kept_tensors) {
  KeatingEnergy energy;
  OwnedSNES snes;
  std::vector<double> atom_energy;
  PetscScalar *a;
  PetscFunctionBeginUser;
  PetscCall(KeatingEnergy::Create(comm, *domain, sys.model, sys.a_nm, sys.spec.strain.fix, &energy));
  PetscCall(energy.CreateDisplacement(u->out()));
  PetscCall(CreateRelaxationSolver(comm, snes.out()));
  PetscCall(MinimiseEnergy(snes, &energy, *u, report));
  PetscCall(StoreDisplacements(comm, *u, domain));
  PetscCall(energy.AtomEnergies(*u, &atom_energy));
  const std::vector<Voigt> tensors = StrainTensors(*domain, sys.model, sys.a_nm);
  PetscCall(VecCreateMPI(comm, 7 * domain->owned, PETSC_DETERMINE, fields->out()));
  PetscCall(VecSetBlockSize(*fields, 7));
  PetscCall(VecGetArray(*fields, &a));
  for (PetscInt i = 0; i < domain->owned; ++i) {
    for (int k = 0; k < 6; ++k) a[7 * i + k] = tensors[i][k];
    a[7 * i + 6] = atom_energy[i];
  }
  PetscCall(VecRestoreArray(*fields, &a));
  if (kept_tensors) *kept_tensors = tensors;
  PetscFunctionReturn(0);
}

// The strain tensors and energies of the electronic box's owned atoms from the domain's fields.
PetscErrorCode ReadFields(Vec fields, PetscInt owned, SystemStrain *strain) {
  const PetscScalar *a;
  PetscFunctionBeginUser;
  strain->tensors.resize(owned);
  strain->energy.resize(owned);
  PetscCall(VecGetArrayRead(fields, &a));
  for (PetscInt i = 0; i < owned; ++i) {
    for (int k = 0; k < 6; ++k) strain->tensors[i][k] = PetscRealPart(a[7 * i + k]);
    strain->energy[i] = PetscRealPart(a[7 * i + 6]);
  }
  PetscCall(VecRestoreArrayRead(fields, &a));
  PetscFunctionReturn(0);
}

// The padded strain domain's lattice and partition over the same ranks: the electronic box with pad host cells on each
// open face, periodic where the box is and, with -strain_lateral periodic, along x and y; origin receives the box's
// first planes in it. Collective.
PetscErrorCode PaddedGrid(MPI_Comm comm, const TightBindingSystem &sys, std::array<int, 3> *origin,
                          ZincblendeLattice *lattice, PlanePartition *partition) {
  std::array<int, 3> cells = sys.lattice.cells();
  PetscFunctionBeginUser;
  for (int a = 0; a < 3; ++a) {
    cells[a] += 2 * sys.spec.strain.pad[a];
    (*origin)[a] = 4 * sys.spec.strain.pad[a];
  }
  *lattice = ZincblendeLattice(cells, sys.spec.strain.domainPeriodic(sys.lattice.periodic()));
  PetscCall(CreatePlanePartition(comm, lattice->planes(), sys.spec.partition, partition));
  PetscFunctionReturn(0);
}

// The padded strain domain, built.
PetscErrorCode CreatePaddedDomain(MPI_Comm comm, const TightBindingSystem &sys, std::array<int, 3> *origin,
                                  Structure *domain) {
  ZincblendeLattice lattice;
  PlanePartition partition;
  PetscFunctionBeginUser;
  PetscCall(PaddedGrid(comm, sys, origin, &lattice, &partition));
  PetscCall(Structure::Create(comm, lattice, partition, sys.nano.Shifted(*origin), domain));
  domain->a_nm = sys.a_nm;
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode RelaxSystem(MPI_Comm comm, TightBindingSystem *sys, SystemStrain *strain) {
  CrashPhase phase("the relaxation of the atoms");
  OwnedVec u, fields;
  RelaxationReport *report = &strain->report;
  PetscFunctionBeginUser;
  *strain = SystemStrain{};
  if (!sys->spec.strain.on()) PetscFunctionReturn(0);
  if (!sys->spec.strain.padded()) {
    PetscCall(RelaxDomain(comm, *sys, &sys->structure, &u, &fields, report, nullptr));
    PetscCall(ReadFields(fields, sys->structure.owned, strain));
  } else {
    Structure domain;
    std::array<int, 3> origin;
    OwnedVec electronic;
    const bool keep = sys->spec.fields.piezoOn(); // the polarisation of the padding is part of the field
    PetscCall(CreatePaddedDomain(comm, *sys, &origin, &domain));
    PetscCall(RelaxDomain(comm, *sys, &domain, &u, &fields, report, keep ? &strain->domain_tensors : nullptr));
    PetscCall(TransferDisplacements(comm, domain, u, origin, &sys->structure));
    PetscCall(TransferAtomValues(comm, domain, fields, 7, origin, sys->structure, electronic.out()));
    PetscCall(ReadFields(electronic, sys->structure.owned, strain));
    if (keep) strain->padded = true, strain->domain = std::move(domain), strain->origin = origin;
  }
  u.reset(), fields.reset();
  TrimFreedHeap(); // the solver's and the preconditioner's blocks, not left resident under H and the vectors
  PetscCheck(report->converged || sys->spec.strain.allow_unconverged, comm, PETSC_ERR_NOT_CONVERGED,
             "-strain keating: the relaxation stopped before its tolerance (%s after %" PetscInt_FMT
             " iterations, largest force %.3g eV/nm); nothing written (raise -strain_snes_max_it, or go on with "
             "-strain_allow_unconverged)",
             report->reason.c_str(), report->iterations, report->max_force);
  PetscFunctionReturn(0);
}

PetscErrorCode CountStrainDomain(MPI_Comm comm, const TightBindingSystem &sys, DomainHalo *counts) {
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!sys.spec.strain.padded()) {
    *counts = CountDomainHalo(sys.lattice, sys.partition, rank);
    PetscFunctionReturn(0);
  }
  std::array<int, 3> origin;
  ZincblendeLattice lattice;
  PlanePartition partition;
  PetscCall(PaddedGrid(comm, sys, &origin, &lattice, &partition));
  *counts = CountDomainHalo(lattice, partition, rank);
  PetscFunctionReturn(0);
}

PetscErrorCode EstimateSystemRelaxation(MPI_Comm comm, const TightBindingSystem &sys, double *bytes) {
  constexpr double kPetscBytesPerAtom[2] = {1127, 1924}, kOwnBytesPerAtom = 80; // one rank, more ranks
  PetscInt pairs = 10;                                                          // PETSc's default -strain_snes_qn_m
  DomainHalo d;
  PetscMPIInt size;
  PetscFunctionBeginUser;
  *bytes = 0;
  if (!sys.spec.strain.on()) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscOptionsGetInt(nullptr, "strain_", "-snes_qn_m", &pairs, nullptr));
  PetscCall(CountStrainDomain(comm, sys, &d));
  if (sys.spec.strain.padded()) *bytes += Structure::EstimateBytes(d.owned, d.halo, true, false); // beside the box's
  const double vector = 3 * sizeof(PetscScalar);                                                  // per atom
  *bytes += (double)d.owned * (3.0 * pairs * vector + kPetscBytesPerAtom[size > 1] + kOwnBytesPerAtom);
  PetscFunctionReturn(0);
}

PetscErrorCode ListRelaxationOptions(MPI_Comm comm) {
  OwnedSNES snes;
  Owned<KSP, KSPDestroy> laplacian;
  PetscFunctionBeginUser;
  PetscCall(CreateRelaxationSolver(comm, snes.out()));
  PetscCall(BondLaplacian::CreateLaplacianSolver(comm, laplacian.out()));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
