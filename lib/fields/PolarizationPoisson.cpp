#include "fields/PolarizationPoisson.hpp"

#include <petscksp.h>

#include "support/LogEvents.hpp"

namespace tbpeta {

namespace {

constexpr double kEpsilon0 = 8.8541878128e-12; // F/m

using OwnedNullSpace = Owned<MatNullSpace, MatNullSpaceDestroy>;

// One row of the finite-volume system at interior node (i, j, k): the six faces' harmonic-mean permittivities, and
// in the right side the polarisation's flux through them and the known potentials of boundary neighbours.
struct PoissonRow {
  MatStencil cols[7];
  PetscScalar vals[7];
  int n = 0;
  double rhs = 0;
};

PoissonRow InteriorRow(const PoissonProblem &pb, PetscScalar ****F, PetscInt i, PetscInt j, PetscInt k) {
  const PoissonGridGeometry &g = pb.grid;
  const double scale = g.spacingNm() * 1e-9 / kEpsilon0; // V per (C/m^2)
  const double e0 = PetscRealPart(F[k][j][i][3]);
  PoissonRow row;
  double diag = 0;
  for (int a = 0; a < 3; ++a)
    for (int s = -1; s <= 1; s += 2) {
      const PetscInt nb[3] = {i + (a == 0) * s, j + (a == 1) * s, k + (a == 2) * s};
      const double e1 = PetscRealPart(F[nb[2]][nb[1]][nb[0]][3]);
      const double ef = 2 * e0 * e1 / (e0 + e1);
      const double Pf = 0.5 * (PetscRealPart(F[k][j][i][a]) + PetscRealPart(F[nb[2]][nb[1]][nb[0]][a]));
      row.rhs -= scale * s * Pf;
      diag += ef;
      if (g.boundaryNode(a, nb[a])) {
        if (pb.boundary)
          row.rhs += ef * pb.boundary({g.positionNm(0, nb[0]), g.positionNm(1, nb[1]), g.positionNm(2, nb[2])});
        continue;
      }
      row.cols[row.n] = MatStencil{nb[2], nb[1], nb[0], 0};
      row.vals[row.n++] = -ef;
    }
  row.cols[row.n] = MatStencil{k, j, i, 0};
  row.vals[row.n++] = diag;
  return row;
}

// The operator and right side on the owned nodes; an end node of an open axis is a row of its own value.
PetscErrorCode AssemblePoisson(const PoissonProblem &pb, DM da, DM fda, Vec node_fields, Mat A, Vec b) {
  const PoissonGridGeometry &g = pb.grid;
  Vec local;
  PetscScalar ****F, ***rhs;
  PetscInt xs, ys, zs, xm, ym, zm;
  PetscFunctionBeginUser;
  PetscCall(DMGetLocalVector(fda, &local));
  PetscCall(DMGlobalToLocal(fda, node_fields, INSERT_VALUES, local));
  PetscCall(DMDAVecGetArrayDOFRead(fda, local, &F));
  PetscCall(DMDAVecGetArray(da, b, &rhs));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; ++k)
    for (PetscInt j = ys; j < ys + ym; ++j)
      for (PetscInt i = xs; i < xs + xm; ++i) {
        if (g.boundaryNode(0, i) || g.boundaryNode(1, j) || g.boundaryNode(2, k)) {
          MatStencil row{k, j, i, 0};
          const double d = 6 * PetscRealPart(F[k][j][i][3]);
          const PetscScalar v = d;
          PetscCall(MatSetValuesStencil(A, 1, &row, 1, &row, &v, INSERT_VALUES));
          rhs[k][j][i] =
              pb.boundary ? d * pb.boundary({g.positionNm(0, i), g.positionNm(1, j), g.positionNm(2, k)}) : 0.0;
          continue;
        }
        const PoissonRow r = InteriorRow(pb, F, i, j, k);
        MatStencil row{k, j, i, 0};
        PetscCall(MatSetValuesStencil(A, 1, &row, r.n, r.cols, r.vals, INSERT_VALUES));
        rhs[k][j][i] = r.rhs;
      }
  PetscCall(DMDAVecRestoreArray(da, b, &rhs));
  PetscCall(DMDAVecRestoreArrayDOFRead(fda, local, &F));
  PetscCall(DMRestoreLocalVector(fda, &local));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscFunctionReturn(0);
}

PetscErrorCode CreatePoissonSolver(MPI_Comm comm, KSP *ksp) {
  PC pc;
  PetscFunctionBeginUser;
  PetscCall(KSPCreate(comm, ksp));
  PetscCall(KSPSetOptionsPrefix(*ksp, "piezo_"));
  PetscCall(KSPSetType(*ksp, KSPCG));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, PCGAMG));
  PetscCall(KSPSetTolerances(*ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscFunctionReturn(0);
}

// Solves A phi = b (the constants removed when every axis is periodic) and reports.
PetscErrorCode SolvePoisson(MPI_Comm comm, const PoissonGridGeometry &g, Mat A, Vec b, Vec phi, PoissonReport *report) {
  OwnedKSP ksp;
  OwnedNullSpace constants;
  KSPConvergedReason reason;
  KSPType type;
  PC pc;
  PCType pctype;
  PetscFunctionBeginUser;
  if (g.periodic[0] && g.periodic[1] && g.periodic[2]) {
    PetscCall(MatNullSpaceCreate(comm, PETSC_TRUE, 0, nullptr, constants.out()));
    PetscCall(MatSetNullSpace(A, constants));
    PetscCall(MatNullSpaceRemove(constants, b));
  }
  PetscCall(CreatePoissonSolver(comm, ksp.out()));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSolve(ksp, b, phi));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, &report->iterations));
  PetscCall(KSPGetResidualNorm(ksp, &report->residual_norm));
  PetscCall(KSPGetType(ksp, &type));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &pctype));
  report->reason = KSPConvergedReasons[reason], report->ksp_type = type, report->pc_type = pctype;
  PetscCheck(reason > 0, comm, PETSC_ERR_NOT_CONVERGED,
             "-piezo: the Poisson solve of the polarisation's potential did not converge (%s after %" PetscInt_FMT
             " iterations); nothing written (raise -piezo_ksp_max_it, or try another -piezo_pc_type)",
             report->reason.c_str(), report->iterations);
  if (constants) PetscCall(MatNullSpaceRemove(constants, phi));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode SolvePolarizationPotential(MPI_Comm comm, const PoissonProblem &problem,
                                          const std::vector<PolarizationSource> &sources,
                                          const std::vector<std::array<double, 3>> &targets, std::vector<double> *phi,
                                          PoissonReport *report) {
  const PoissonGridGeometry &g = problem.grid;
  OwnedDM da, fda;
  OwnedVec fields, b, x;
  OwnedMat A;
  const LogEvents *ev;
  PetscFunctionBeginUser;
  for (int a = 0; a < 3; ++a)
    PetscCheck(g.nodes[a] >= 3, comm, PETSC_ERR_USER_INPUT,
               "-piezo_grid: %" PetscInt_FMT " Poisson nodes along %c; a grid needs 3 or more (raise -piezo_grid)",
               g.nodes[a], "xyz"[a]);
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->poisson, 0, 0, 0, 0));
  const double start = MPI_Wtime();
  PetscCall(CreatePoissonDMs(comm, g, &da, &fda));
  PetscCall(DMCreateGlobalVector(fda, fields.out()));
  PetscCall(DepositSources(g, fda, sources, problem.host_eps, fields));
  PetscCall(DMCreateMatrix(da, A.out()));
  PetscCall(DMCreateGlobalVector(da, b.out()));
  PetscCall(VecDuplicate(b, x.out()));
  PetscCall(AssemblePoisson(problem, da, fda, fields, A, b));
  PetscCall(SolvePoisson(comm, g, A, b, x, report));
  PetscCall(InterpolateAtSites(g, da, x, targets, phi));
  report->seconds = MPI_Wtime() - start;
  report->nodes = g.totalNodes(), report->spacing_nm = g.spacingNm();
  PetscCall(PetscLogEventEnd(ev->poisson, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode ListPoissonOptions(MPI_Comm comm) {
  OwnedKSP ksp;
  PetscFunctionBeginUser;
  PetscCall(CreatePoissonSolver(comm, ksp.out()));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
