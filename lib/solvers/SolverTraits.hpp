#pragma once
// What tbpeta asks of an eigen-solver beyond SLEPc's EPS interface, answered by the solver's type itself through
// functions composed on the EPS, as SLEPc's own types compose theirs (EPSKrylovSchurSetRestart_C, ...). A type
// registered with EPSRegister composes those it needs in its EPSCreate_*; one that composes none is treated as
// SLEPc's own solvers are. The generic layers (solvers/EigenSolve, study/) ask only through these functions and
// never test a type's name.
//
//   composed function        signature                                         default (SLEPc's solvers)
//   TbEPSDescribe_C          (EPS, char *text, size_t size)                    "<type> + <st type>"
//   TbEPSEstimateVectors_C   (EPS, PetscInt nev, PetscInt *vectors)            its basis ncv (or SLEPc's default) + nev
//   TbEPSPrintWarnings_C     (EPS)                                             none
//   TbEPSGetTraits_C         (EPS, TbEPSTraits *)                              TbEPSTraits{}
//   TbEPSSetQuestion_C       (EPS, PetscInt nv, PetscInt nc, PetscReal centre)  the nv + nc states nearest the centre
//   TbEPSSetProductCap_C     (EPS, PetscInt rows, PetscInt products)           restarts that keep it within the cap
#include <slepceps.h>

#include <string>

namespace tbpeta {

// What a solver is, for the code that runs and compares solvers.
struct TbEPSTraits {
  bool own_vector_algebra = false; // its vectors never pass through SLEPc's BV and the BLAS (no BLAS row limit applies)
  bool reports_progress = false;   // it prints its own progress lines (no iteration monitor needed)
  bool splits_at_centre = false;   // it answers "nv states below and nc above the centre", whole levels (possibly more
                                   // than nv + nc states), not "the nv + nc states nearest the centre"
  bool returns_vectors = true;     // the eigenvectors can be read after the solve
};

// "krylovschur + sinvert", "folded (krylovschur + shift)", "nemo: Lanczos (...)": the solver line's text. Not
// collective.
PetscErrorCode TbEPSDescribe(EPS eps, std::string *text);
// The vectors of H's size the solver holds at its peak for nev states (the memory preflight). Not collective.
PetscErrorCode TbEPSEstimateVectors(EPS eps, PetscInt nev, PetscInt *vectors);
// The solver's own warnings after a solve (rank 0 prints). Collective.
PetscErrorCode TbEPSPrintWarnings(EPS eps);
// What the solver is. Not collective.
PetscErrorCode TbEPSGetTraits(EPS eps, TbEPSTraits *traits);
// Asks for nv states below and nc above `centre` (eV), in the solver's own terms. Logically collective.
PetscErrorCode TbEPSSetQuestion(EPS eps, PetscInt nv, PetscInt nc, double centre);
// At most about `products` products of H (an operator of `rows` rows), unless the user set an iteration limit.
// Logically collective.
PetscErrorCode TbEPSSetProductCap(EPS eps, PetscInt rows, PetscInt products);

// The defaults, for types that compose some functions and keep SLEPc's behaviour for the others.
PetscErrorCode TbEPSSetQuestion_Default(EPS eps, PetscInt nv, PetscInt nc, double centre);
PetscErrorCode TbEPSSetProductCap_Default(EPS eps, PetscInt rows, PetscInt products);
PetscErrorCode TbEPSEstimateVectors_Default(EPS eps, PetscInt nev, PetscInt *vectors);

// SLEPc's default basis size ncv for nev values: Krylov-Schur's max(2 nev, nev + 15), ARPACK's max(20, 2 nev + 1).
PetscInt SlepcDefaultBasis(PetscInt nev, bool arpack);

} // namespace tbpeta
