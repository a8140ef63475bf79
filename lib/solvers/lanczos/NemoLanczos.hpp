#pragma once
// The NEMO 3-D-style Lanczos (LanczosSolve) as a SLEPc eigen-solver type, EPSNEMO ("nemo", tbpeta's default):
// -eps_type chooses it among SLEPc's own solvers, and -eps_view, -eps_monitor, -eps_nev, -eps_target, -eps_interval,
// -eps_tol, -eps_max_it, EPSGetEigenpair, EPSGetConverged and the options prefix work for it as for them.
//
// The question (levels counted with their multiplicity, a Kramers pair twice):
//  - a target (-eps_target; which = target magnitude or target real): the nev states around it, -eps_nemo_valence
//    of them below it (default nev/2) and the rest above (NEMO 3-D's "4 + 4 around the gap centre");
//  - smallest real / largest real: the nev lowest / highest states;
//  - an interval (-eps_interval a,b): every state in [a, b].
// Defaults: -eps_tol 1e-10 (relative to the spectral scale of T), -eps_max_it 20000 (steps of the first pass).
// -eps_ncv and -eps_mpd do not apply: the solver holds 3 vectors + the states (+ -eps_nemo_ritz_batch - 2 during a
// second pass), never a basis. The ST must be a plain
// shift (the solver applies H itself). The operator's OperatorProperties give the Kramers block (time-reversal
// symmetry with spin) and the canonical numbering that makes the start vector the same on any number of ranks.
// Its own options (prefix as the EPS's): -eps_nemo_valence, -eps_nemo_check_every, -eps_nemo_seed,
// -eps_nemo_multiplicity_passes, -eps_nemo_vectors, -eps_nemo_checkpoint FILE, -eps_nemo_checkpoint_every,
// -eps_nemo_ritz_batch.
#include <slepceps.h>

#include "solvers/lanczos/LanczosSolve.hpp"

#define EPSNEMO "nemo"

namespace tbpeta {

// The type's constructor, for EPSRegister.
PetscErrorCode EPSCreate_Nemo(EPS eps);

// States below the target (default: half of nev); no effect on other types. Logically collective.
PetscErrorCode EPSNemoSetValence(EPS eps, PetscInt valence);
// Runs the recurrence on A - centre I (for an operator whose spectrum is far from centred on 0, as the folded
// spectrum's [0, rho]); the eigenvalues are reported for A. A capability other types do not have: query
// "EPSNemoSetCentre_C" to know whether an EPS takes it. Logically collective.
PetscErrorCode EPSNemoSetCentre(EPS eps, PetscReal centre);
// Whether H will be time-reversal symmetric with spin (Kramers pairs, one vector per pair), for the memory estimate
// before the operator exists (EPSSetUp learns it from the operator); no effect on other types. Not collective.
PetscErrorCode EPSNemoSetKramersPairs(EPS eps, PetscBool pairs);
// What the last solve did (null for another type). Not collective.
PetscErrorCode EPSNemoGetReport(EPS eps, const lanczos::LanczosReport **report);

} // namespace tbpeta
