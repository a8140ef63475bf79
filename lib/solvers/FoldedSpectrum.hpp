#pragma once
// The folded-spectrum method (Wang & Zunger 1994): the states of H nearest an energy sigma are the smallest
// eigenvalues of F = (H - sigma I)^2, which is Hermitian positive semi-definite, so an extremal eigen-solver (any
// SLEPc EPS, including ARPACK, which cannot find interior eigenvalues of H by itself) finds interior states of H
// without factorising anything. F is a MatShell applied with two products of H; the eigenvalues of H are recovered
// as Rayleigh quotients x^H H x / x^H x (the square root of the folded value would lose the sign of lambda - sigma).
// The price: the folded spectrum squares the gaps near sigma and the spread of the spectrum, so it needs many
// more iterations (and a tight tolerance) than a solver on H.
//
// Two solvers on F (-folded_solver): SLEPc EPS (default), or tbpeta's Lanczos (LanczosSolver.hpp) on F for its
// folded_nev smallest eigenvalues. Both recover the states of H the same way. A subtlety of folding: the levels
// sigma - d and sigma + d have the same eigenvalue d^2 of F, so an eigenvector of F may mix them (the single-vector
// Lanczos sees such a pair as one level of F; SLEPc returns any basis of the pair). Such a vector is no eigenvector
// of H: its residual with H is about d. It is returned with that residual and flagged (FoldedReport::unresolved, a
// note in the solver string, a warning from SolveFromOptions), never passed off as a state of H.
//
// Options (all listed by -help):
//   -folded_shift E   sigma in eV (default: the caller's gap centre, the host's midgap)
//   -folded_nev n     states wanted (default 8)
//   -folded_solver slepc|lanczos   the eigen-solver on F (default slepc)
//   -folded_eps_*, -folded_st_*  the EPS of the folded run takes the options prefix "folded_", e.g.
//                     -folded_eps_type arpack|krylovschur|lanczos, -folded_eps_tol 1e-14, -folded_eps_ncv 40.
//   -lanczos_tol, -lanczos_max_steps, -lanczos_check_every, -lanczos_seed, -lanczos_monitor  the Lanczos on F
//                     (-lanczos_nev_*, -lanczos_gap_center and -lanczos_window belong to -solver lanczos only).
#include <slepceps.h>

#include <span>
#include <vector>

#include "solvers/EigenStates.hpp"
#include "solvers/LanczosSolver.hpp"

namespace tbpeta {

// F = (H - sigma I)^2 as a MatShell on H's communicator and layout (H is referenced, not copied). One work vector
// of H's size is allocated here and freed with F. MatMult and MatMultHermitianTranspose (equal: F is Hermitian) and
// MatCreateVecs (from H) are provided. Collective.
PetscErrorCode CreateFoldedOperator(Mat H, double sigma, Mat *F);
// Products y = Hx that F has made so far (2 per application of F). Not collective.
PetscErrorCode FoldedOperatorProducts(Mat F, PetscInt *h_products);

enum class FoldedSolver { slepc, lanczos };
const char *FoldedSolverName(FoldedSolver solver);

struct FoldedOptions {
  double shift = 0; // sigma, eV
  PetscInt nev = 8; // states wanted
  FoldedSolver solver = FoldedSolver::slepc;
};

// Reads -folded_shift (default `default_shift`), -folded_nev (default 8) and -folded_solver (default slepc);
// PETSC_ERR_USER_INPUT, one line, for nev < 1 and an unknown solver name. Collective.
PetscErrorCode FoldedOptionsFromOptions(MPI_Comm comm, double default_shift, FoldedOptions *options);

// H residuals above kFoldedResidualLimit * (spectral bound of H + |sigma|) mark a vector as no eigenvector of H.
// Converged states of either solver stay orders of magnitude below; a mix of sigma - d and sigma + d with weights
// |a|^2, |b|^2 has the residual 2 |a b| d.
inline constexpr double kFoldedResidualLimit = 1e-6;

// What a folded run did beyond EigenStates.
struct FoldedReport {
  double residual_limit = 0;      // eV, the limit above (for this H and sigma)
  std::vector<double> unresolved; // Rayleigh quotients (eV) of the returned vectors whose H residual exceeds it
  LanczosReport lanczos;          // -folded_solver lanczos: the run on F - c I (T, steps, ...); its `unconverged`
                                  // are shifted back to eigenvalues of F (eV^2)
};

// The states of H nearest options.shift from the options.nev smallest eigenvalues of F, by options.solver. Each
// value is the Rayleigh quotient with H and each residual ||Hx - lambda x|| with the unit eigenvector; states
// ascending; a degenerate level appears once per eigenvector. Counters: products = all products with H (2 per
// application of F, plus 1 per state for the Rayleigh quotient and residual); iterations = EPS restarts or Lanczos
// steps; solver = "folded (<eps type>)" or "folded (lanczos)", followed by "; ..." notes when some states are
// unresolved (see above) or, for the Lanczos, not converged. vectors_held and peak_rss_mb are left to the caller
// (SolveFromOptions measures them). With want_vectors the unit eigenvectors are returned in states->vectors (owned
// by the caller). Errors (PETSC_ERR_USER_INPUT): nev above the rows of H, a shift outside the Gershgorin bound of a
// stored H, a Lanczos told not to compute vectors (-lanczos_vectors false). Collective.
//  - FoldedSolveWithSlepc: EPS_HEP, smallest real eigenvalues of F; the EPS reads the options with prefix
//    "folded_" and refuses the combinations of CheckSlepcCombination (F is a MatShell: no shift-and-invert).
//  - FoldedSolveWithLanczos: LanczosSolve on F - c I, c about ||F|| / 2 from 10 power iterations (20 products of
//    H; centred, the Lanczos recurrence keeps its vectors normalised), with nev_conduction = options.nev,
//    nev_valence = 0 and the gap centre just below -c, the other settings from -lanczos_* (LanczosOptionsFromOptions);
//    always with the second pass, since the vectors give the values. canonical_rows and kramers_block as for
//    LanczosSolve (F is time-reversal symmetric when H is, so Kramers partners carry over).
//  - FoldedSolve: the one options.solver names.
PetscErrorCode FoldedSolveWithSlepc(Mat H, const FoldedOptions &options, bool want_vectors, EigenStates *states, FoldedReport *report = nullptr);
PetscErrorCode FoldedSolveWithLanczos(Mat H, const FoldedOptions &options, std::span<const PetscInt> canonical_rows, PetscInt kramers_block, bool want_vectors,
                                      EigenStates *states, FoldedReport *report = nullptr);
PetscErrorCode FoldedSolve(Mat H, const FoldedOptions &options, std::span<const PetscInt> canonical_rows, PetscInt kramers_block, bool want_vectors, EigenStates *states,
                           FoldedReport *report = nullptr);

// Refuses (PETSC_ERR_USER_INPUT, one line) EPS settings that would silently answer another question; call after
// EPSSetFromOptions, before EPSSolve:
//  (a) -eps_type arpack with a target (which = target magnitude/real/imaginary) and an ST other than sinvert or
//      cayley: ARPACK would return the largest eigenvalues, not those nearest the target;
//  (b) -st_type sinvert or cayley when the operator is not a stored matrix (has_stored_matrix false, or the EPS
//      operator is a MATSHELL): shift-and-invert needs the stored matrix (-hamiltonian stored).
// Collective (reads the EPS only).
PetscErrorCode CheckSlepcCombination(EPS eps, bool has_stored_matrix);

} // namespace tbpeta
