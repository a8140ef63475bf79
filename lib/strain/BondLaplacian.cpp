#include "strain/BondLaplacian.hpp"

#include <vector>

#include "support/LogEvents.hpp"

namespace tbpeta {

namespace {

// A relative shift of the diagonal: a structure held nowhere (free or periodic) has the constant vector in the
// Laplacian's null space, as its energy has the rigid translations; the shift keeps the multigrid's coarsest solve
// regular and lies far below the lowest elastic mode of a large box (about 1e-4 of the diagonal at 200 planes).
constexpr double kRelativeShift = 1e-8;

} // namespace

PetscErrorCode BondLaplacian::Attach(SNES snes, const KeatingEnergy *energy) {
  MPI_Comm comm = PetscObjectComm((PetscObject)snes);
  KSP ksp;
  PC pc;
  PetscBool shell;
  PetscFunctionBeginUser;
  energy_ = energy;
  PetscCall(ZeroEnergyMotions::Create(comm, *energy, &zero_));
  PetscCall(CreateHessian(comm));
  PetscCall(SNESSetJacobian(snes, hessian_, hessian_, ComputeJacobian, this));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCSHELL, &shell));
  if (shell) {
    PetscCall(PCShellSetContext(pc, this));
    PetscCall(PCShellSetApply(pc, Apply));
    PetscCall(PCShellSetName(pc, "tbpeta bond Laplacian, one multigrid cycle per Cartesian component (KSP prefix "
                                 "strain_laplacian_), zero-energy motions removed"));
  }
  PetscFunctionReturn(0);
}

// The approximate Hessian: the Laplacian per component, a shell of block size 3 (the vectors a KSP makes from it
// are strided as the displacements), with a diagonal for -strain_pc_type jacobi.
PetscErrorCode BondLaplacian::CreateHessian(MPI_Comm comm) {
  const PetscInt n = 3 * energy_->structure().owned;
  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, hessian_.out()));
  PetscCall(MatSetSizes(hessian_, n, n, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetBlockSize(hessian_, 3));
  PetscCall(MatSetType(hessian_, MATSHELL));
  PetscCall(MatShellSetContext(hessian_, this));
  PetscCall(MatSetUp(hessian_));
  PetscCall(MatShellSetOperation(hessian_, MATOP_MULT, (void (*)(void))Mult));
  PetscCall(MatShellSetOperation(hessian_, MATOP_GET_DIAGONAL, (void (*)(void))GetDiagonal));
  PetscCall(MatSetOption(hessian_, MAT_SYMMETRIC, PETSC_TRUE));
  PetscFunctionReturn(0);
}

// The Laplacian does not depend on the displacements: it is built once, when first asked for.
PetscErrorCode BondLaplacian::ComputeJacobian(SNES, Vec, Mat, Mat, void *ctx) {
  BondLaplacian *self = static_cast<BondLaplacian *>(ctx);
  PetscFunctionBeginUser;
  if (!self->laplacian_) PetscCall(self->Assemble());
  PetscFunctionReturn(0);
}

// The matrix and its solver, timed as the preconditioner's setup.
PetscErrorCode BondLaplacian::Assemble() {
  MPI_Comm comm = PetscObjectComm((PetscObject)hessian_.get());
  const LogEvents *ev;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->strain_pc_setup, 0, 0, 0, 0));
  PetscCall(AssembleLaplacian(comm));
  PetscCall(MatCreateVecs(laplacian_, x1_.out(), y1_.out()));
  PetscCall(CreateLaplacianSolver(comm, solver_.out()));
  PetscCall(KSPSetOperators(solver_, laplacian_, laplacian_));
  PetscCall(KSPSetUp(solver_));
  PetscCall(PetscLogEventEnd(ev->strain_pc_setup, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

// L = sum over bonds of w (e_i - e_j)(e_i - e_j)^T, each rank its owned atoms' rows. A held atom keeps only its
// diagonal and its columns are dropped from the other rows: the displacement it is held at (zero) is known.
PetscErrorCode BondLaplacian::AssembleLaplacian(MPI_Comm comm) {
  const Structure &s = energy_->structure();
  std::vector<PetscInt> d_nnz(s.owned, 1), o_nnz(s.owned, 0);
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < s.owned; ++i)
    for (int b = 0; b < 4; ++b) {
      const int j = s.bonds[i][b];
      if (j >= 0 && j != i) ++(j < s.owned ? d_nnz : o_nnz)[i];
    }
  PetscCall(MatCreateAIJ(comm, s.owned, s.owned, PETSC_DETERMINE, PETSC_DETERMINE, 0, d_nnz.data(), 0, o_nnz.data(),
                         laplacian_.out()));
  PetscCall(MatSetOption(laplacian_, MAT_NEW_NONZERO_ALLOCATION_ERR,
                         PETSC_FALSE)); // a 1-cell periodic axis repeats a neighbour
  for (PetscInt i = 0; i < s.owned; ++i) {
    const PetscInt gi = s.globalIndex(i);
    PetscScalar diagonal = 0;
    for (int b = 0; b < 4; ++b) {
      const int j = s.bonds[i][b];
      if (j < 0 || j == i) continue;
      const double w = energy_->BondStiffness(i, b);
      diagonal += w;
      if (energy_->holds(i) || energy_->holds(j)) continue;
      const PetscInt gj = s.globalIndex(j);
      const PetscScalar off = -w;
      PetscCall(MatSetValues(laplacian_, 1, &gi, 1, &gj, &off, ADD_VALUES));
    }
    if (diagonal == 0.0) diagonal = 1; // an atom without bonds: nothing moves it
    diagonal *= 1 + kRelativeShift;
    PetscCall(MatSetValues(laplacian_, 1, &gi, 1, &gi, &diagonal, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(laplacian_, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(laplacian_, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(laplacian_, MAT_SPD, PETSC_TRUE));
  PetscFunctionReturn(0);
}

PetscErrorCode BondLaplacian::CreateLaplacianSolver(MPI_Comm comm, KSP *ksp) {
  PC pc;
  PetscFunctionBeginUser;
  PetscCall(KSPCreate(comm, ksp));
  PetscCall(KSPSetOptionsPrefix(*ksp, "strain_laplacian_"));
  PetscCall(KSPSetType(*ksp, KSPPREONLY));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, PCGAMG));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscFunctionReturn(0);
}

// y = L x (solve false) or y = (the Laplacian's KSP: one multigrid cycle) x (solve true), component by component.
PetscErrorCode BondLaplacian::PerComponent(Vec x, Vec y, bool solve) {
  PetscFunctionBeginUser;
  PetscCheck(laplacian_, PetscObjectComm((PetscObject)x), PETSC_ERR_ORDER,
             "the relaxation's bond Laplacian is used before the SNES computed its Jacobian");
  for (PetscInt c = 0; c < 3; ++c) {
    PetscCall(VecStrideGather(x, c, x1_, INSERT_VALUES));
    if (solve) PetscCall(KSPSolve(solver_, x1_, y1_));
    else PetscCall(MatMult(laplacian_, x1_, y1_));
    PetscCall(VecStrideScatter(y1_, c, y, INSERT_VALUES));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode BondLaplacian::Mult(Mat J, Vec x, Vec y) {
  BondLaplacian *self;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(J, &self));
  PetscCall(self->PerComponent(x, y, false));
  PetscFunctionReturn(0);
}

PetscErrorCode BondLaplacian::GetDiagonal(Mat J, Vec d) {
  BondLaplacian *self;
  const PetscScalar *l;
  PetscScalar *a;
  PetscInt n;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(J, &self));
  PetscCheck(self->laplacian_, PetscObjectComm((PetscObject)J), PETSC_ERR_ORDER,
             "the relaxation's bond Laplacian is used before the SNES computed its Jacobian");
  PetscCall(MatGetDiagonal(self->laplacian_, self->y1_));
  PetscCall(VecGetLocalSize(self->y1_, &n));
  PetscCall(VecGetArrayRead(self->y1_, &l));
  PetscCall(VecGetArray(d, &a)); // d may come without the block size: written entry by entry
  for (PetscInt i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) a[3 * i + c] = l[i];
  PetscCall(VecRestoreArray(d, &a));
  PetscCall(VecRestoreArrayRead(self->y1_, &l));
  PetscFunctionReturn(0);
}

// The multigrid cycle leaves a held atom's value not exactly zero, and knows nothing of the motions of zero energy:
// the step moves neither. Its aggregates depend on the partition, so a step with any part along those motions
// would leave the relaxed atoms where the partition put them; without it they are the same on any ranks.
PetscErrorCode BondLaplacian::Apply(PC pc, Vec x, Vec y) {
  BondLaplacian *self;
  const LogEvents *ev;
  PetscScalar *a;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->strain_pc_apply, 0, 0, 0, 0));
  PetscCall(PCShellGetContext(pc, &self));
  PetscCall(self->PerComponent(x, y, true));
  PetscCall(VecGetArray(y, &a));
  for (PetscInt i : self->energy_->held())
    for (int c = 0; c < 3; ++c) a[3 * i + c] = 0;
  PetscCall(VecRestoreArray(y, &a));
  PetscCall(self->zero_.Remove(y));
  PetscCall(PetscLogEventEnd(ev->strain_pc_apply, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
