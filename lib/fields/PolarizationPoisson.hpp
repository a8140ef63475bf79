#pragma once
// The potential of a polarisation: div(eps0 epsr grad phi) = div P (the polarisation charge rho = -div P), in finite
// volumes on the Poisson grid (PoissonGrid.hpp): one cell of side h around each node, epsr on a face the harmonic mean
// and P on a face the mean of its two nodes, so P may jump at the dot's surface. Periodic axes wrap; on an open axis
// the end nodes hold phi = 0 or a given boundary function. The system is symmetric positive definite (semi-definite,
// with the constants as null space, when every axis is periodic: phi then has mean zero) and is solved by KSP with the
// prefix piezo_, CG and GAMG by default. Logged as TbPoisson.
#include <functional>
#include <string>
#include <vector>

#include "fields/PoissonGrid.hpp"

namespace tbpeta {

// Peak resident memory of the solve per grid node (complex scalars: the 7-point operator, GAMG's hierarchy, the node
// fields and the Krylov vectors), measured by bench_fields: 1,620 to 1,740 bytes from 0.27 to 2.9 million nodes.
inline constexpr double kPoissonBytesPerNode = 1750;
// The solve's bytes on each of `ranks` ranks (the grid's nodes split evenly), before anything is built: for the memory
// preflight.
inline double EstimatePoissonBytes(const PoissonGridGeometry &grid, int ranks) {
  return (double)grid.totalNodes() / ranks * kPoissonBytesPerNode;
}

struct PoissonProblem {
  PoissonGridGeometry grid;
  double host_eps = 1;                                           // at nodes no atom reaches
  std::function<double(const std::array<double, 3> &)> boundary; // V at an open end node (nm); empty: 0
};

struct PoissonReport {
  PetscInt iterations = 0;
  double residual_norm = 0;
  std::string reason;
  double seconds = 0;
  long long nodes = 0;
  double spacing_nm = 0;
  double memory_mb =
      0; // resident memory the solve added (grid, operator, multigrid, vectors), largest rank; freed after
  std::string ksp_type, pc_type;
};

// phi (V) at each target site (planes, electronic frame) from this rank's sources; the node fields come back in
// *node_fields when asked (a global vector of the fields DMDA, for tests and maps). Collective; a solve that does not
// converge is a one-line PETSC_ERR_NOT_CONVERGED naming -piezo_ksp_max_it.
PetscErrorCode SolvePolarizationPotential(MPI_Comm comm, const PoissonProblem &problem,
                                          const std::vector<PolarizationSource> &sources,
                                          const std::vector<std::array<double, 3>> &targets, std::vector<double> *phi,
                                          PoissonReport *report);

// -help: the Poisson solver's KSP options (prefix piezo_) with tbpeta's defaults. Collective.
PetscErrorCode ListPoissonOptions(MPI_Comm comm);

} // namespace tbpeta
