#pragma once
// Degeneracy beyond Kramers (e.g. the 4-fold levels of a symmetric dot): restarted passes. Pass p starts from a new
// seeded vector made orthogonal to every state found so far, runs as many steps as the first pass needed (plus a
// quarter), and looks at the window of the levels found. A converged level of the pass is a new direction only when
// the start vector reached it: the squared first components of T's eigenvectors at that value (the start vector's
// weight in the eigenspace) are about 1/N for a random start and below eps^2 for a level already found, which comes
// back through rounding alone. Only new directions are accumulated by the pass's second run, so no vector is held
// that would be thrown away. Each is orthogonalised against the found states and kept when at least half its norm
// remains and its residual is small (a safeguard), with its Kramers partner. The passes stop at the first that adds
// nothing, or at opts.multiplicity_passes.
#include <functional>

#include "solvers/lanczos/LanczosCheckpoint.hpp"
#include "solvers/lanczos/LanczosOptions.hpp"
#include "solvers/lanczos/LanczosPasses.hpp"

namespace tbpeta::lanczos {

// Whether a restarted pass is still due after the passes `record` counts (the one rule for running them and for
// ending a slice of -eps_nemo_stop_after before them: a run with nothing left to do finishes).
bool RestartedPassDue(const LanczosOptions &opts, const PassResult &first, const StateColumns &states,
                      const StatesRecord &record);

// first: the first pass's spec and result; states: the states found so far, added to; record: what the passes did,
// continued where it stands (the passes it counts, from a checkpoint, are not run again); after_pass: called after
// each pass (the checkpoint). Collective.
PetscErrorCode MultiplicityPasses(Recurrence &r, const LanczosOptions &opts, const PassSpec &first_spec,
                                  const PassResult &first, StateColumns *states, StatesRecord *record,
                                  const std::function<PetscErrorCode()> &after_pass);

// Appends the Kramers partner of state j (when opts.kramers_block > 0): with vectors Theta x if its residual shows an
// eigenvector (else record->partners_dropped), without vectors the value once more. Collective.
PetscErrorCode AddKramersPartner(Recurrence &r, const LanczosOptions &opts, PetscInt j, double scale,
                                 StateColumns *states, StatesRecord *record);

} // namespace tbpeta::lanczos
