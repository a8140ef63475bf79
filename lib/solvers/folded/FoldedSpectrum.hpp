#pragma once
// The folded-spectrum method (Wang & Zunger 1994) as a SLEPc eigen-solver type, EPSFOLDED ("folded"): the -eps_nev
// states of H nearest sigma = -eps_target are the smallest eigenvalues of F = (H - sigma I)^2 (FoldedOperator),
// which is Hermitian positive semi-definite, so an extremal eigen-solver (any SLEPc EPS, ARPACK included, or
// tbpeta's nemo) finds interior states of H without factorising anything. The inner solver on F is an EPS with the
// options prefix "<prefix>folded_" (-folded_eps_type krylovschur|arpack|nemo|..., -folded_eps_tol, default 1e-12,
// -folded_eps_max_it, default 100,000, because folding squares the level spacings). Each eigenvalue of H is the
// Rayleigh quotient x^H H x of the unit eigenvector (the square root of the folded value would lose the sign of
// lambda - sigma). The eigenvectors are the inner solver's own (no copy).
//
// A subtlety of folding: the levels sigma - d and sigma + d are one eigenvalue d^2 of F, so an eigenvector of F may
// mix them; such a vector is no eigenvector of H (its residual with H is about d), and the application says so.
// An inner solver that can run on F - c I (TbEPSTakesCentre: nemo) gets c about half of F's largest eigenvalue (10
// power iterations, 20 products of H): centred, its vectors stay normalised.
//
// -eps_folded_filter chebyshev replaces (H - sigma)^2 by F = 1 - p(H) (ChebyshevFilter), p a Jackson-damped
// Chebyshev filter of degree -eps_folded_filter_degree centred on sigma: the same question (the states nearest
// sigma, from the smallest eigenvalues of F, with eigenvalues recovered from H), with the rest of the spectrum
// pressed towards 1 instead of spread up to (||H|| + |sigma|)^2, at d products of H per application.
#include <slepceps.h>

#include "solvers/SolverType.hpp"

#define EPSFOLDED "folded"

namespace tbpeta {

// The type's entry for RegisterEigenSolverType: its constructor, its options listed under -help (-eps_folded_* and
// its inner solver's -folded_eps_*), and the -folded_* options it replaced.
EigenSolverType FoldedSolverType();

// The eigen-solver on (H - sigma)^2 (created with the outer EPS; set up by its first solve). Not collective.
PetscErrorCode EPSFoldedGetInner(EPS eps, EPS *inner);

} // namespace tbpeta
