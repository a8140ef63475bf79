#pragma once
// The eigen-solve of every program: an EPS of any type (SLEPc's own, and tbpeta's nemo and folded, RegisterSolvers)
// on H with tbpeta's defaults, checked against H (SolverPolicy), run, and read back as EigenStates with the counters
// every solver reports the same way: the products of H (counted on H), iterations, wall time, and the residual
// ||Hx - lambda x|| of every state. The eigenvectors stay in the EPS.
#include <slepceps.h>

#include "solvers/EigenStates.hpp"
#include "solvers/SolverPolicy.hpp"
#include "solvers/SolverTraits.hpp"

namespace tbpeta {

// A returned vector whose residual exceeds kResidualLimit * (||H||_inf + |target|) is no eigenvector of H (a folded
// run's mix of sigma - d and sigma + d, or an unconverged vector): the states are returned, and flagged.
inline constexpr double kResidualLimit = 1e-6;

// tbpeta's defaults on an EPS: the Hermitian problem, the 8 states nearest `target` (eV; the host's midgap), type
// nemo. Not collective.
PetscErrorCode SetEigenSolverDefaults(EPS eps, double target);

// An EPS with the defaults, then the user's options with `prefix` (nullptr: none), and a monitor that stops the solve
// on SIGINT/SIGTERM and prints progress lines. Collective.
PetscErrorCode CreateEigenSolver(MPI_Comm comm, const char *prefix, double target, EPS *eps);

// Extra measurements of a solve (memory), taken by the study tools around it: Begin just before, End just after
// (with the states filled). The solve itself measures nothing but time and products.
class SolveMeter {
public:
  virtual ~SolveMeter() = default;
  virtual PetscErrorCode Begin(Mat H) = 0;
  virtual PetscErrorCode End(Mat H, EigenStates *states) = 0;
};

// Solves eps on H and reads the states back (ascending) with their residuals and counters; states->unresolved lists
// the vectors that are no eigenvectors of H. Errors: the policy's refusals (PETSC_ERR_USER_INPUT). Collective.
PetscErrorCode SolveEigenproblem(EPS eps, Mat H, const SolverPolicy &policy, EigenStates *states,
                                 SolveMeter *meter = nullptr);

// One warning line each for vectors that are no eigenvectors of H and for a nemo solve that stopped at its limit.
// Collective (rank 0 prints).
PetscErrorCode PrintSolveWarnings(EPS eps, const EigenStates &states);

// The unit eigenvector of state k (ascending order of states) into x (a vector of H's layout). Collective.
PetscErrorCode StateVector(EPS eps, const EigenStates &states, size_t k, Vec x);

// The vectors of H's size the solver is expected to hold at its peak, from its settings (TbEPSEstimateVectors: the
// type's own estimate; SLEPc's solvers their basis ncv + the states), for an operator of the `planned` properties
// (operator/Hamiltonian's PlannedOperatorProperties before H exists; OperatorGetProperties after). Printed before the
// solve, next to what is measured after it. Not collective.
PetscErrorCode EstimateVectorsHeld(EPS eps, const OperatorProperties &planned, PetscInt *vectors);

// -help: the options of the eigen-solver the options choose (CreateEigenSolver's EPS: SLEPc's own and its type's),
// then those of every other registered type of tbpeta's, each in a section of its own (EigenSolverType::list_options).
// Outside -help it reads only the chosen solver's options, so that another type's option given is reported unread.
// Collective.
PetscErrorCode ListEigenSolverOptions(MPI_Comm comm, double target);

} // namespace tbpeta
