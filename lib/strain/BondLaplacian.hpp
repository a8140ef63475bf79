#pragma once
// The preconditioner of the relaxation. On long waves the Keating energy's Hessian acts like an elastic medium,
// which is spectrally close to the graph Laplacian of the bonds applied to each Cartesian component alone (weight
// alpha + beta of the bond's binary; held atoms fixed). One cycle of PETSc's algebraic multigrid (GAMG) on that
// Laplacian per component, with the motions of zero energy removed (strain/ZeroEnergyMotions.hpp), serves as the
// L-BFGS's initial inverse Hessian (SNESQN scale type jacobian). Its quality does not fall with the size of the box,
// so the number of iterations stays bounded; without it, L-BFGS needs a number of iterations that grows with the
// box's edge.
// Options: the SNES's KSP (-strain_ksp_type, default preonly; -strain_pc_type, default shell = this object) and
// the Laplacian's own KSP with the prefix strain_laplacian_ (default preonly with -strain_laplacian_pc_type gamg).
#include <petscsnes.h>

#include "strain/KeatingEnergy.hpp"
#include "strain/ZeroEnergyMotions.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

class BondLaplacian {
public:
  BondLaplacian() = default;
  // PETSc objects keep a pointer to this object: it neither copies nor moves.
  BondLaplacian(const BondLaplacian &) = delete;
  BondLaplacian &operator=(const BondLaplacian &) = delete;

  // Gives snes the approximate Hessian (the Laplacian per component, a shell Mat of the displacements' layout) and,
  // when its KSP's PC is of type shell, this preconditioner. The Laplacian and its hierarchy are built at the first
  // Jacobian evaluation, so a solver that never asks for them costs nothing. The energy must outlive this object,
  // and this object the solves of snes. Collective.
  PetscErrorCode Attach(SNES snes, const KeatingEnergy *energy);
  // The Laplacian's KSP: prefix strain_laplacian_, one GAMG cycle by default, options read (-help lists them).
  static PetscErrorCode CreateLaplacianSolver(MPI_Comm comm, KSP *ksp);

private:
  static PetscErrorCode ComputeJacobian(SNES snes, Vec u, Mat J, Mat P, void *ctx);
  static PetscErrorCode Mult(Mat J, Vec x, Vec y);
  static PetscErrorCode GetDiagonal(Mat J, Vec d);
  static PetscErrorCode Apply(PC pc, Vec x, Vec y);
  PetscErrorCode CreateHessian(MPI_Comm comm);
  PetscErrorCode Assemble();
  PetscErrorCode AssembleLaplacian(MPI_Comm comm);
  PetscErrorCode PerComponent(Vec x, Vec y, bool solve);

  const KeatingEnergy *energy_ = nullptr;
  ZeroEnergyMotions zero_; // removed from every preconditioned step
  OwnedMat hessian_, laplacian_;
  Owned<KSP, KSPDestroy> solver_;
  OwnedVec x1_, y1_; // one Cartesian component
};

} // namespace tbpeta
