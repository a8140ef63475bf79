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
// second pass), never a basis. The ST must be a plain shift (the solver applies H itself). The operator's
// OperatorProperties give the Kramers block (time-reversal symmetry with spin) and the canonical numbering that makes
// the start vector the same on any number of ranks; the memory estimate reads the Kramers block from the properties H
// will carry (TbEPSEstimateVectors' planned properties), the same fact from the same source. Its own options (prefix
// as the EPS's, NemoOptions.hpp): -eps_nemo_valence, -eps_nemo_check_every, -eps_nemo_seed,
// -eps_nemo_multiplicity_passes, -eps_nemo_multiplicity_bound, -eps_nemo_vectors, -eps_nemo_checkpoint FILE,
// -eps_nemo_checkpoint_every, -eps_nemo_stop_after, -eps_nemo_ritz_batch. What it composes (SolverTraits.hpp):
// its description, vector estimate, warnings, traits, question, product cap, hints and a centre (TbEPSSetCentre: it
// runs on A - c I for an operator whose spectrum is far from centred on 0, as the folded spectrum's [0, rho]).
#include <slepceps.h>

#include "solvers/SolverType.hpp"
#include "solvers/lanczos/LanczosSolve.hpp"

#define EPSNEMO "nemo"

namespace tbpeta {

// The type's entry for RegisterEigenSolverType: its constructor, its options listed under -help, and the -lanczos_*
// options it replaced.
EigenSolverType NemoSolverType();

// States below the target (default: half of nev); no effect on other types. Logically collective.
PetscErrorCode EPSNemoSetValence(EPS eps, PetscInt valence);
// What the last solve did (null for another type). Not collective.
PetscErrorCode EPSNemoGetReport(EPS eps, const lanczos::LanczosReport **report);

} // namespace tbpeta
