#pragma once
// The passes of the Lanczos solver over one Recurrence.
//  - First pass: the recurrence with a check of T every `check_every` steps, until every wanted level has converged
//    and the wanted list is the same at two consecutive checks (never before min_steps), or max_steps; optionally
//    checkpointed (LanczosCheckpoint).
//  - Second pass: the recurrence again from the same start vector, accumulating x_i = sum_j s_ij v_j for the found
//    values only (s_i: the eigenvector of T at the check where value i first converged, before copies of it
//    appear), into columns of the eigenvector store; it must reproduce the first pass bit for bit. With a checkpoint
//    it saves where it is every `checkpoint_every` steps, and continues from there.
// The eigenvectors live in StateColumns (StateColumns.hpp).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "solvers/lanczos/LanczosCheckpoint.hpp"
#include "solvers/lanczos/LanczosOptions.hpp"
#include "solvers/lanczos/LanczosRecurrence.hpp"
#include "solvers/lanczos/StateColumns.hpp"
#include "solvers/lanczos/TridiagonalAnalysis.hpp"
#include "support/Progress.hpp"

namespace tbpeta::lanczos {

struct Record {
  double value;
  int step; // first check at which the value had converged
};

// The vectors a second pass holds beyond the recurrence's three to add `ritz_batch` Lanczos vectors per sweep: the
// batch's last two are the recurrence's v and v_{j-1}.
inline PetscInt SecondPassWindow(PetscInt ritz_batch) { return ritz_batch > 2 ? ritz_batch - 2 : 0; }

// One pass: what differs from pass to pass (its start vector, seeded and orthogonal to the states of `deflate`; what
// it wants; how long it runs; whether it is checkpointed), beside the run's settings, which every pass shares: the
// tolerance and the steps between checks, the checkpoint file and its writes, the second pass's batch, the prefix of
// the messages (opts).
struct PassSpec {
  const LanczosOptions *opts = nullptr; // the run's settings (LanczosSolve's)
  unsigned long long seed = 1;
  StateColumns *deflate = nullptr;
  Wanted want;
  PetscInt min_steps = 0, max_steps = 0;
  const char *label = "lanczos";
  bool checkpointed = false; // saved to and continued from opts->checkpoint (the first pass only)
  std::function<PetscErrorCode(PetscInt, const Check &)> monitor; // at each check (may be empty)
  // At each check after the pass's own test: *stop ends the pass there (may be empty).
  std::function<PetscErrorCode(const std::vector<double> &alpha, const std::vector<double> &beta, bool *stop)> enough;
  Progress *progress = nullptr; // progress lines of a long pass (may be null)
};

struct PassResult {
  std::vector<double> alpha, beta{0.0};
  std::vector<Record> records;
  Check chk;
  bool converged = false, invariant = false;
  std::vector<Level> found, unconverged;
  PetscInt resumed_from = 0;
  // The checkpoint the pass continued from (null: started afresh): what it held beyond T, the first pass only, a
  // second pass under way (LoadSecondPass), or the states of the passes after this one (LoadCheckpointStates).
  std::shared_ptr<OpenCheckpoint> loaded;
  CheckpointStage LoadedStage() const { return loaded ? loaded->stage : CheckpointStage::FirstPass; }
};

PetscErrorCode FirstPass(Recurrence &r, const PassSpec &spec, PassResult *res);

// After a checkpoint was written: ends the run with PETSC_ERR_NOT_CONVERGED and one line (where it stopped, how to
// continue) once it has made spec.opts->stop_after products of H.
PetscErrorCode StopIfAsked(const Recurrence &r, const PassSpec &spec, const std::string &where);

// Accumulates the vectors of res.found into new columns [*first, *first + found) of `store` (values set, residuals
// computed); *steps: the steps repeated; PETSC_ERR_PLIB when the recurrence does not reproduce the first pass.
PetscErrorCode SecondPass(Recurrence &r, const PassSpec &spec, const PassResult &res, StateColumns *store,
                          PetscInt *first, PetscInt *steps);

} // namespace tbpeta::lanczos
