#pragma once
// The checkpoint of a Lanczos solve (-eps_nemo_checkpoint FILE), written to FILE.partial and renamed to FILE when
// complete (a failed write or a crash leaves no .partial and the previous checkpoint in place). Three stages:
//  - during and after the first pass: T, the last two Lanczos vectors, the seed, the rank count and the matrix size;
//  - during the second pass: T, where the pass is, its last two Lanczos vectors and the eigenvectors' partial sums,
//    for the question they answer;
//  - after the second pass, and again after each restarted pass: T and the states found so far (values, residuals,
//    vectors) with what the passes did, for the question they answer.
// The file is HDF5 through PETSc's viewer, every part named (h5dump -A FILE shows the header):
//   /            attributes format "tbpeta Lanczos checkpoint", version 3, stage "first pass" | "second pass" |
//                "states", ranks, rows, seed, steps, first_pass_converged
//   /T           alpha (steps), beta (steps + 1), on rank 0 when written
//   /first_pass  v_previous, v
//   /question    one attribute per entry of CheckpointQuestion (valence, conduction, target, ...)
//   /second_pass attributes newest, next, beta, sums; v_previous, v, sum_0 .. sum_{sums-1}
//   /states      attributes count and the StatesRecord's fields by name; values, residuals, state_0 ..
// Vectors are written with block size 1, whatever H's. The positional PETSc binary files of earlier versions (format
// versions 1 and 2) are refused in one line. A run given an existing FILE continues from it, so its result is bit for
// bit that of an uninterrupted run: from the first pass's last step, or from the states after the last pass written.
// The file is opened once per continued run: its header and T at once, the rest of its stage when the pass that needs
// it comes. A checkpoint made on another rank count, for another matrix size or seed, or for another H (its first
// step is recomputed and must agree bit for bit) is refused in one line, and so are states made for another
// question. The run's options (LanczosOptions) give the file, the seed, the question and the prefix of the messages,
// which name -<prefix>eps_nemo_checkpoint.
#include <petscviewer.h>

#include <memory>
#include <string>
#include <vector>

#include "solvers/lanczos/LanczosOptions.hpp"
#include "solvers/lanczos/LanczosRecurrence.hpp"
#include "solvers/lanczos/StateColumns.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta::lanczos {

// What the passes after the first did; saved with the states, so that a continued run reports the whole run.
struct StatesRecord {
  PetscInt second_pass_steps = 0;     // 0 without vectors
  PetscInt multiplicity_passes = 0;   // restarted passes run
  PetscInt multiplicity_steps = 0;    // their steps (both passes of each)
  PetscInt extra_states = 0;          // states (with partners) the restarted passes added
  bool multiplicity_complete = true;  // false: the last allowed pass still found new states
  bool multiplicity_finished = false; // a restarted pass found nothing new: no further one is due
  int partners_dropped = 0;           // Kramers partners that were no eigenvectors (H not time-reversal symmetric)
  double low = 0, high = 0;           // the restarted passes' window: the second pass's states (eV of H - centre)
};

// One entry of the question the states answer: its name in the file, how a message names it, its value.
struct QuestionEntry {
  const char *key;
  std::string label;
  double value;
};

// The question a checkpoint's states answer, from the run's options: states saved for another are refused.
std::vector<QuestionEntry> CheckpointQuestion(const LanczosOptions &opts);

// Whether opts.checkpoint exists; one line when it exists but cannot be read, or its directory is not writable.
// Collective.
PetscErrorCode CheckCheckpointPath(MPI_Comm comm, const LanczosOptions &opts, bool *exists);

// Saves T (alpha[0..m), beta[0..m]) and r.vprev, r.v; `done`: the pass had stopped converged. Collective.
PetscErrorCode SaveCheckpoint(Recurrence &r, const LanczosOptions &opts, const std::vector<double> &alpha,
                              const std::vector<double> &beta, bool done);

// Where a second pass is: r.v = v_newest, r.vprev = v_{newest-1} (formed, none pending), the sums hold v_0 ..
// v_{next-1} (next = newest, or newest + 1 when r.v is added already), beta = beta_newest (the next step's).
struct SecondPassPosition {
  PetscInt newest = 0, next = 0;
  double beta = 0;
};

// What a checkpoint holds beyond T.
enum class CheckpointStage { FirstPass, SecondPass, States };

// A checkpoint a run continues from, open until the last part of its stage is read.
struct OpenCheckpoint {
  OwnedViewer viewer; // closed once the stage's parts are read
  CheckpointStage stage = CheckpointStage::FirstPass;
  bool done = false;  // the first pass had stopped converged
  PetscInt steps = 0; // of T
  PetscInt count = 0; // the second pass's sums, or the states
  std::string option; // "-eps_nemo_checkpoint FILE", for the messages
};

// Opens opts.checkpoint and loads T into alpha, beta, after checking that the first step of this H from the same
// start vector reproduces the file's; a first-pass checkpoint also loads its last two vectors into r.vprev, r.v (and
// is closed). *ck: what else the file holds; a second pass or states are for this question (another question is
// refused), and the first pass they follow had converged (done). Collective.
PetscErrorCode LoadCheckpoint(Recurrence &r, const LanczosOptions &opts, std::vector<double> *alpha,
                              std::vector<double> *beta, std::shared_ptr<OpenCheckpoint> *ck);

// Saves T, where the second pass is (r.v and r.vprev formed: Materialise) and its n partial sums, the columns
// [first, first + n) of `sums`. Collective.
PetscErrorCode SaveSecondPass(Recurrence &r, const LanczosOptions &opts, const std::vector<double> &alpha,
                              const std::vector<double> &beta, const SecondPassPosition &at, StateColumns *sums,
                              PetscInt first, PetscInt n);

// Loads the second pass of ck (stage SecondPass) into r.vprev, r.v and the columns [first, first + n) of `sums` (n
// as saved, else refused), and closes it. Collective.
PetscErrorCode LoadSecondPass(Recurrence &r, OpenCheckpoint &ck, StateColumns *sums, PetscInt first, PetscInt n,
                              SecondPassPosition *at);

// Saves T and the states with their record (the first pass converged). Collective.
PetscErrorCode SaveCheckpointStates(Recurrence &r, const LanczosOptions &opts, const std::vector<double> &alpha,
                                    const std::vector<double> &beta, const StatesRecord &record, StateColumns *states);

// Appends the states of ck (stage States) to `states` (with vectors), reads their record, and closes it. Collective.
PetscErrorCode LoadCheckpointStates(MPI_Comm comm, OpenCheckpoint &ck, StatesRecord *record, StateColumns *states);

} // namespace tbpeta::lanczos
