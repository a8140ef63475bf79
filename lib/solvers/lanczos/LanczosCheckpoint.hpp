#pragma once
// The checkpoint of a Lanczos solve (-eps_nemo_checkpoint FILE), written to FILE.partial and renamed to FILE when
// complete (a failed write or a crash leaves no .partial and the previous checkpoint in place). Two stages:
//  - during and after the first pass: T, the last two Lanczos vectors, the seed, the rank count and the matrix size;
//  - during the second pass: T, where the pass is, its last two Lanczos vectors and the eigenvectors' partial sums,
//    for the question they answer;
//  - after the second pass, and again after each restarted pass: T and the states found so far (values, residuals,
//    vectors) with what the passes did, for the question they answer.
// A run given an existing FILE continues from it, so its result is bit for bit that of an uninterrupted run: from
// the first pass's last step, or from the states after the last pass written. A checkpoint made on another rank
// count, for another matrix size or seed, or for another H (its first step is recomputed and must agree bit for
// bit) is refused in one line, and so are states made for another question. `prefix`: the option prefix of the
// messages ("-" + the EPS's prefix), which name -<prefix>eps_nemo_checkpoint.
#include <petscviewer.h>

#include <string>
#include <vector>

#include "solvers/lanczos/LanczosRecurrence.hpp"
#include "solvers/lanczos/StateColumns.hpp"

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

// The question the states answer, by name and value: states saved for another question are refused.
struct CheckpointQuestion {
  std::vector<std::string> names;
  std::vector<double> values;
  void Add(const std::string &name, double value) { names.push_back(name), values.push_back(value); }
};

// Where a checkpoint is and whose run it belongs to.
struct CheckpointFile {
  std::string path;
  std::string prefix = "-"; // of the options named in messages
  unsigned long long seed = 1;
  CheckpointQuestion question;
};

// Whether FILE exists; one line when it exists but cannot be read, or its directory is not writable. Collective.
PetscErrorCode CheckCheckpointPath(MPI_Comm comm, const std::string &prefix, const std::string &path, bool *exists);

// Saves T (alpha[0..m), beta[0..m]) and r.vprev, r.v; `done`: the pass had stopped converged. Collective.
PetscErrorCode SaveCheckpoint(Recurrence &r, const CheckpointFile &ck, const std::vector<double> &alpha,
                              const std::vector<double> &beta, bool done);

// Where a second pass is: r.v = v_newest, r.vprev = v_{newest-1} (formed, none pending), the sums hold v_0 ..
// v_{next-1} (next = newest, or newest + 1 when r.v is added already), beta = beta_newest (the next step's).
struct SecondPassPosition {
  PetscInt newest = 0, next = 0;
  double beta = 0;
};

// What a checkpoint holds beyond T.
enum class CheckpointStage { FirstPass, SecondPass, States };

// Loads T into alpha, beta, after checking that the first step of this H from the same start vector reproduces the
// file's; a first-pass checkpoint also loads its last two vectors into r.vprev, r.v. *stage: what else the file
// holds; a second pass or states are for this question (another question is refused), and the first pass they
// follow had converged (*done). Collective.
PetscErrorCode LoadCheckpoint(Recurrence &r, const CheckpointFile &ck, std::vector<double> *alpha,
                              std::vector<double> *beta, bool *done, CheckpointStage *stage);

// Saves T, where the second pass is (r.v and r.vprev formed: Materialise) and its n partial sums, the columns
// [first, first + n) of `sums`. Collective.
PetscErrorCode SaveSecondPass(Recurrence &r, const CheckpointFile &ck, const std::vector<double> &alpha,
                              const std::vector<double> &beta, const SecondPassPosition &at, StateColumns *sums,
                              PetscInt first, PetscInt n);

// Loads a second pass saved by SaveSecondPass into r.vprev, r.v and the columns [first, first + n) of `sums` (n as
// saved, else refused). Collective.
PetscErrorCode LoadSecondPass(Recurrence &r, const CheckpointFile &ck, StateColumns *sums, PetscInt first, PetscInt n,
                              SecondPassPosition *at);

// Saves T and the states with their record (the first pass converged). Collective.
PetscErrorCode SaveCheckpointStates(Recurrence &r, const CheckpointFile &ck, const std::vector<double> &alpha,
                                    const std::vector<double> &beta, const StatesRecord &record, StateColumns *states);

// Appends the file's states to `states` (with vectors) and reads their record. Collective.
PetscErrorCode LoadCheckpointStates(MPI_Comm comm, const CheckpointFile &ck, StatesRecord *record,
                                    StateColumns *states);

} // namespace tbpeta::lanczos
