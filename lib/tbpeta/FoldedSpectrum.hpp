#pragma once
// The folded-spectrum method (Wang & Zunger 1994): the states of H nearest an energy sigma are the smallest
// eigenvalues of F = (H - sigma I)^2, which is Hermitian positive semi-definite, so an extremal eigen-solver (any
// SLEPc EPS, including ARPACK, which cannot find interior eigenvalues of H by itself) finds interior states of H
// without factorising anything. F is a MatShell applied with two products of H; the eigenvalues of H are recovered
// as Rayleigh quotients x^H H x / x^H x (the square root of the folded value would lose the sign of lambda - sigma).
// The price: the folded spectrum squares the gaps near sigma and the spread of the spectrum, so it needs many
// more iterations (and a tight tolerance) than a solver on H.
//
// Options (all listed by -help):
//   -folded_shift E   sigma in eV (default: the caller's gap centre, the host's midgap)
//   -folded_nev n     states wanted (default 8)
//   -folded_eps_*, -folded_st_*  the EPS of the folded run takes the options prefix "folded_", e.g.
//                     -folded_eps_type arpack|krylovschur|lanczos, -folded_eps_tol 1e-14, -folded_eps_ncv 40.
#include <slepceps.h>

#include "tbpeta/EigenStates.hpp"

namespace tbpeta {

// F = (H - sigma I)^2 as a MatShell on H's communicator and layout (H is referenced, not copied). One work vector
// of H's size is allocated here and freed with F. MatMult and MatMultHermitianTranspose (equal: F is Hermitian) and
// MatCreateVecs (from H) are provided. Collective.
PetscErrorCode CreateFoldedOperator(Mat H, double sigma, Mat *F);
// Products y = Hx that F has made so far (2 per application of F). Not collective.
PetscErrorCode FoldedOperatorProducts(Mat F, PetscInt *h_products);

struct FoldedOptions {
  double shift = 0; // sigma, eV
  PetscInt nev = 8; // states wanted
};

// Reads -folded_shift (default `default_shift`) and -folded_nev (default 8); PETSC_ERR_USER_INPUT, one line, for
// nev < 1. Collective.
PetscErrorCode FoldedOptionsFromOptions(MPI_Comm comm, double default_shift, FoldedOptions *options);

// The options.nev states of H nearest options.shift by SLEPc EPS on the folded operator (EPS_HEP, smallest real
// eigenvalues of F; the EPS reads the options with prefix "folded_"). Each value is the Rayleigh quotient with H
// and each residual ||Hx - lambda x|| with the unit eigenvector; states ascending; a degenerate level appears once
// per eigenvector. Counters: products = all products with H (2 per application of F, plus 1 per state for the
// Rayleigh quotient and residual), iterations = EPS restarts, vectors_held = EPS basis (ncv) + the work vector of F
// + the vectors made here, solver = "folded (<eps type>)". With want_vectors the unit eigenvectors are returned
// in states->vectors (owned by the caller). Refuses the combinations of CheckSlepcCombination (the operator is a
// MatShell, so no shift-and-invert). Collective.
PetscErrorCode FoldedSolveWithSlepc(Mat H, const FoldedOptions &options, bool want_vectors, EigenStates *states);

// Refuses (PETSC_ERR_USER_INPUT, one line) EPS settings that would silently answer another question; call after
// EPSSetFromOptions, before EPSSolve:
//  (a) -eps_type arpack with a target (which = target magnitude/real/imaginary) and an ST other than sinvert or
//      cayley: ARPACK would return the largest eigenvalues, not those nearest the target;
//  (b) -st_type sinvert or cayley when the operator is not a stored matrix (has_stored_matrix false, or the EPS
//      operator is a MATSHELL): shift-and-invert needs the stored matrix (-hamiltonian stored).
// Collective (reads the EPS only).
PetscErrorCode CheckSlepcCombination(EPS eps, bool has_stored_matrix);

} // namespace tbpeta
