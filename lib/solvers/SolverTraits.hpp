#pragma once
// What tbpeta asks of an eigen-solver beyond SLEPc's EPS interface, answered by the solver's type itself through
// functions composed on the EPS, as SLEPc's own types compose theirs (EPSKrylovSchurSetRestart_C, ...). A type
// registered with RegisterEigenSolverType (RegisterSolvers.hpp) composes those it needs in its EPSCreate_* from one
// table (TbEPSComposeFunctions), which its EPSDestroy_* clears again; one that composes none is treated as SLEPc's own
// solvers are. Every other layer asks only through these functions and never names a type.
//
//   composed function        signature                                               default (SLEPc's solvers)
//   TbEPSDescribe_C          (EPS, char *text, size_t size)                          "<type> + <st type>"
//   TbEPSEstimateVectors_C   (EPS, PetscInt nev, const OperatorProperties &planned,  its basis ncv (or SLEPc's
//                             PetscInt *vectors)                                     default) + nev
//   TbEPSPrintWarnings_C     (EPS)                                                   none
//   TbEPSGetTraits_C         (EPS, TbEPSTraits *)                                    TbEPSTraits{}
//   TbEPSSetQuestion_C       (EPS, PetscInt nv, PetscInt nc, PetscReal centre)       the nv + nc states nearest the
//                                                                                    centre
//   TbEPSSetProductCap_C     (EPS, PetscInt rows, PetscInt products)                 restarts that keep it within
//                                                                                    the cap
//   TbEPSSetCentre_C         (EPS, PetscReal centre)                                 none: it cannot run on A - c I
//   TbEPSGetHint_C           (EPS, TbEPSHint, char *text, size_t size)               TbEPSGetHint's texts
#include <slepceps.h>

#include <span>
#include <string>

#include "operator/OperatorProperties.hpp"

namespace tbpeta {

// What a solver is, for the code that runs and compares solvers.
struct TbEPSTraits {
  bool own_vector_algebra = false; // its vectors never pass through SLEPc's BV and the BLAS (no BLAS row limit applies)
  bool reports_progress = false;   // it prints its own progress lines (no iteration monitor needed)
  bool splits_at_centre = false;   // it answers "nv states below and nc above the centre", whole levels (possibly more
                                   // than nv + nc states), not "the nv + nc states nearest the centre"
  bool returns_vectors = true;     // the eigenvectors can be read after the solve
  bool tolerance_of_own_scale = false; // its tolerance is relative to its own spectral scale, not to each value: a
                                       // clustered end of the spectrum (a folded operator's) needs no tighter default
};

// What a user is told to change, in the type's own options (a message's second half, after "; ").
enum class TbEPSHint {
  vectors,    // to have the eigenvectors returned, after a solver that returns none
  both_sides, // to have states on both sides of the centre
  limits,     // to let a run that stopped at its limits go further
};

// One composed function of a type's table: its name and the function (cast to PETSc's generic function type).
struct TbEPSFunction {
  const char *name;
  PetscVoidFunction function;
};
template <class F>
TbEPSFunction TbEPSFn(const char *name, F *f) {
  return {name, (PetscVoidFunction)f};
}

// Composes every function of `table` on eps (the type's EPSCreate_*), or with clear removes them all (its
// EPSDestroy_*): one table per type for both. Not collective.
PetscErrorCode TbEPSComposeFunctions(EPS eps, std::span<const TbEPSFunction> table, bool clear = false);

// "krylovschur + sinvert", "folded (krylovschur + shift)", "nemo: Lanczos (...)": the solver line's text. Not
// collective.
PetscErrorCode TbEPSDescribe(EPS eps, std::string *text);
// The vectors of H's size the solver holds at its peak for nev states (the memory preflight), for an operator of the
// `planned` properties (OperatorProperties H will carry: its Kramers block, its rows). Not collective.
PetscErrorCode TbEPSEstimateVectors(EPS eps, PetscInt nev, const OperatorProperties &planned, PetscInt *vectors);
// The solver's own warnings after a solve (rank 0 prints). Collective.
PetscErrorCode TbEPSPrintWarnings(EPS eps);
// What the solver is. Not collective.
PetscErrorCode TbEPSGetTraits(EPS eps, TbEPSTraits *traits);
// Asks for nv states below and nc above `centre` (eV), in the solver's own terms. Logically collective.
PetscErrorCode TbEPSSetQuestion(EPS eps, PetscInt nv, PetscInt nc, double centre);
// At most about `products` products of H (an operator of `rows` rows), unless the user set an iteration limit.
// Logically collective.
PetscErrorCode TbEPSSetProductCap(EPS eps, PetscInt rows, PetscInt products);
// Whether the solver can run on A - c I instead of its operator A (TbEPSSetCentre_C composed): for an operator whose
// spectrum is far from centred on 0, as a folded operator's [0, rho]. Not collective.
PetscErrorCode TbEPSTakesCentre(EPS eps, bool *takes);
// Runs on A - centre I and reports the eigenvalues of A; nothing for a type that cannot (TbEPSTakesCentre). Logically
// collective.
PetscErrorCode TbEPSSetCentre(EPS eps, PetscReal centre);
// What to change, in the solver's own options with its prefix: defaults "choose an -eps_type that returns
// eigenvectors", "set -eps_target between them, or raise -eps_nev", "raise -eps_max_it". Not collective.
PetscErrorCode TbEPSGetHint(EPS eps, TbEPSHint what, std::string *hint);

// The defaults, for types that compose some functions and keep SLEPc's behaviour for the others.
PetscErrorCode TbEPSSetQuestion_Default(EPS eps, PetscInt nv, PetscInt nc, double centre);
PetscErrorCode TbEPSSetProductCap_Default(EPS eps, PetscInt rows, PetscInt products);
PetscErrorCode TbEPSEstimateVectors_Default(EPS eps, PetscInt nev, PetscInt *vectors);
std::string TbEPSHint_Default(EPS eps, TbEPSHint what);

// SLEPc's default basis size ncv for nev values: Krylov-Schur's max(2 nev, nev + 15), ARPACK's max(20, 2 nev + 1).
PetscInt SlepcDefaultBasis(PetscInt nev, bool arpack);

} // namespace tbpeta
