#include "solvers/lanczos/LanczosCheckpoint.hpp"

#include <petscviewerhdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>

#include "solvers/lanczos/CheckpointParts.hpp"
#include "support/CrashReport.hpp"

namespace tbpeta::lanczos {

namespace {

constexpr const char *kCheckpointFormat = "tbpeta Lanczos checkpoint";
constexpr PetscInt kCheckpointVersion = 3; // 1 and 2: the positional PETSc binary files of earlier versions

const char *StageName(CheckpointStage s) {
  return s == CheckpointStage::FirstPass ? "first pass" : s == CheckpointStage::SecondPass ? "second pass" : "states";
}

std::string CheckpointOption(const LanczosOptions &o) {
  return o.option_prefix + "eps_nemo_checkpoint " + o.checkpoint;
}

} // namespace

std::vector<QuestionEntry> CheckpointQuestion(const LanczosOptions &o) {
  const std::string p = o.option_prefix;
  return {{"valence", p + "eps_nemo_valence (states below the target)", (double)o.nev_valence},
          {"conduction", p + "eps_nev - " + p + "eps_nemo_valence (states above)", (double)o.nev_conduction},
          {"target", p + "eps_target", o.gap_center},
          {"interval_given", p + "eps_interval given", (double)o.window_set},
          {"interval_a", p + "eps_interval a", o.window[0]},
          {"interval_b", p + "eps_interval b", o.window[1]},
          {"tol", p + "eps_tol", o.tol},
          {"check_every", p + "eps_nemo_check_every", (double)o.check_every},
          {"kramers_block", "the Kramers block", (double)o.kramers_block},
          {"centre", "the solver's centre", o.centre}};
}

PetscErrorCode CheckCheckpointPath(MPI_Comm comm, const LanczosOptions &opts, bool *exists) {
  PetscMPIInt rank;
  const std::string &path = opts.checkpoint, o = CheckpointOption(opts);
  int state[2] = {0, 0}; // exists, problem (1: not readable, 2: directory not writable)
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    state[0] = access(path.c_str(), F_OK) == 0;
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    if (state[0] && access(path.c_str(), R_OK) != 0) state[1] = 1;
    else if (access(dir.c_str(), W_OK) != 0) state[1] = 2;
  }
  PetscCallMPI(MPI_Bcast(state, 2, MPI_INT, 0, comm));
  PetscCheck(state[1] != 1, comm, PETSC_ERR_USER_INPUT, "%s: the file exists but cannot be read", o.c_str());
  PetscCheck(state[1] != 2, comm, PETSC_ERR_USER_INPUT, "%s: its directory does not exist or is not writable",
             o.c_str());
  *exists = state[0];
  PetscFunctionReturn(0);
}

namespace {

// Writes the file through `write` under FILE.partial, renamed to FILE once every rank has written its part; the
// partial file is removed after a failure, and by the crash handler after a crash.
PetscErrorCode WriteAtomically(MPI_Comm comm, const LanczosOptions &o,
                               const std::function<PetscErrorCode(PetscViewer)> &write) {
  PetscMPIInt rank;
  PetscViewer vw = nullptr; // closed here, before the rename, whatever the write did
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  const std::string tmp = o.checkpoint + ".partial";
  RemovedOnCrash guard(tmp);
  PetscErrorCode ierr = PetscViewerHDF5Open(comm, tmp.c_str(), FILE_MODE_WRITE, &vw);
  if (!ierr) ierr = write(vw);
  const PetscErrorCode closed = PetscViewerDestroy(&vw);
  if (!ierr) ierr = closed;
  int ok = ierr == 0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm));
  if (ok && rank == 0) ok = std::rename(tmp.c_str(), o.checkpoint.c_str()) == 0;
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, comm));
  if (!ok && rank == 0) std::remove(tmp.c_str());
  PetscCall(ierr);
  PetscCheck(ok, comm, PETSC_ERR_FILE_WRITE, "%s: could not write the checkpoint (disk full?)",
             CheckpointOption(o).c_str());
  PetscFunctionReturn(0);
}

// The part every stage begins with: the header and T.
PetscErrorCode WriteHead(PetscViewer vw, Recurrence &r, const LanczosOptions &o, CheckpointStage stage,
                         const std::vector<double> &alpha, const std::vector<double> &beta, bool done) {
  PetscMPIInt size;
  PetscInt rows;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(r.comm, &size));
  PetscCall(VecGetSize(r.v, &rows));
  PetscCall(parts::PutString(vw, "/", "format", kCheckpointFormat));
  PetscCall(parts::PutInt(vw, "/", "version", kCheckpointVersion));
  PetscCall(parts::PutString(vw, "/", "stage", StageName(stage)));
  PetscCall(parts::PutInt(vw, "/", "ranks", size));
  PetscCall(parts::PutInt(vw, "/", "rows", rows));
  PetscCall(parts::PutInt(vw, "/", "seed", (PetscInt)o.seed));
  PetscCall(parts::PutInt(vw, "/", "steps", (PetscInt)alpha.size()));
  PetscCall(parts::PutBool(vw, "/", "first_pass_converged", done));
  PetscCall(PetscViewerHDF5PushGroup(vw, "/T"));
  PetscCall(parts::PutReals(vw, r.comm, "alpha", alpha));
  PetscCall(parts::PutReals(vw, r.comm, "beta", beta));
  PetscCall(PetscViewerHDF5PopGroup(vw));
  if (stage == CheckpointStage::FirstPass) PetscFunctionReturn(0);
  for (const QuestionEntry &q : CheckpointQuestion(o)) PetscCall(parts::PutReal(vw, "/question", q.key, q.value));
  PetscFunctionReturn(0);
}

// What FILE is, from its first bytes on rank 0: 0 an HDF5 file, 1 a checkpoint of the positional format of earlier
// versions (its big-endian magic number first), 2 anything else.
PetscErrorCode PeekFormat(MPI_Comm comm, const std::string &path, int *kind) {
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  *kind = 2;
  if (rank == 0) {
    unsigned char b[8] = {0};
    FILE *f = std::fopen(path.c_str(), "rb");
    const size_t got = f ? std::fread(b, 1, sizeof b, f) : 0;
    if (f) std::fclose(f);
    const unsigned char hdf5[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'},
                        positional[4] = {0x7b, 0xc1, 0xa2, 0xc0};
    if (got == 8 && std::memcmp(b, hdf5, 8) == 0) *kind = 0;
    else if (got >= 4 && std::memcmp(b, positional, 4) == 0) *kind = 1;
  }
  PetscCallMPI(MPI_Bcast(kind, 1, MPI_INT, 0, comm));
  PetscFunctionReturn(0);
}

// Opens the checkpoint and reads its header, checked against this run (one line for each refusal).
PetscErrorCode OpenAndReadHeader(Recurrence &r, const LanczosOptions &o, OpenCheckpoint *ck) {
  PetscMPIInt size;
  PetscInt version = 0, ranks, rows, seed, N;
  PetscBool ours = PETSC_FALSE;
  std::string format, stage;
  int kind;
  const char *p = ck->option.c_str();
  PetscFunctionBeginUser;
  PetscCall(PeekFormat(r.comm, o.checkpoint, &kind));
  PetscCheck(kind != 1, r.comm, PETSC_ERR_USER_INPUT,
             "%s is a checkpoint of an earlier tbpeta in a positional format this version does not read: remove it "
             "to start afresh",
             p);
  PetscCheck(kind == 0, r.comm, PETSC_ERR_USER_INPUT, "%s is not a tbpeta Lanczos checkpoint", p);
  PetscCall(PetscViewerHDF5Open(r.comm, o.checkpoint.c_str(), FILE_MODE_READ, ck->viewer.out()));
  PetscViewer vw = ck->viewer;
  PetscCall(PetscViewerHDF5HasAttribute(vw, "/", "format", &ours));
  if (ours) PetscCall(parts::GetString(vw, "/", "format", &format));
  PetscCheck(format == kCheckpointFormat, r.comm, PETSC_ERR_USER_INPUT, "%s is not a tbpeta Lanczos checkpoint", p);
  PetscCall(parts::GetInt(vw, "/", "version", &version));
  PetscCheck(version == kCheckpointVersion, r.comm, PETSC_ERR_USER_INPUT,
             "%s has format version %" PetscInt_FMT "; this tbpeta reads version %" PetscInt_FMT
             ": remove it to start afresh",
             p, version, kCheckpointVersion);
  PetscCall(parts::GetInt(vw, "/", "ranks", &ranks));
  PetscCall(parts::GetInt(vw, "/", "rows", &rows));
  PetscCall(parts::GetInt(vw, "/", "seed", &seed));
  PetscCall(parts::GetInt(vw, "/", "steps", &ck->steps));
  PetscCall(parts::GetBool(vw, "/", "first_pass_converged", &ck->done));
  PetscCall(parts::GetString(vw, "/", "stage", &stage));
  PetscCallMPI(MPI_Comm_size(r.comm, &size));
  PetscCall(VecGetSize(r.v, &N));
  PetscCheck(ranks == size, r.comm, PETSC_ERR_USER_INPUT,
             "%s was made on %" PetscInt_FMT " ranks; this run has %d (continue it on the same rank count)", p, ranks,
             (int)size);
  PetscCheck(rows == N, r.comm, PETSC_ERR_USER_INPUT,
             "%s was made for a matrix of %" PetscInt_FMT " rows; this H has %" PetscInt_FMT " (another structure)", p,
             rows, N);
  PetscCheck(seed == (PetscInt)o.seed, r.comm, PETSC_ERR_USER_INPUT,
             "%s was made with %seps_nemo_seed %" PetscInt_FMT "; this run uses %llu", p, o.option_prefix.c_str(), seed,
             o.seed);
  PetscCheck(ck->steps >= 1, r.comm, PETSC_ERR_USER_INPUT, "%s holds no step", p);
  const CheckpointStage stages[] = {CheckpointStage::FirstPass, CheckpointStage::SecondPass, CheckpointStage::States};
  const auto named =
      std::find_if(std::begin(stages), std::end(stages), [&](CheckpointStage s) { return stage == StageName(s); });
  PetscCheck(named != std::end(stages) && (*named == CheckpointStage::FirstPass || ck->done), r.comm,
             PETSC_ERR_USER_INPUT, "%s is damaged (stage '%s')", p, stage.c_str());
  ck->stage = *named;
  PetscFunctionReturn(0);
}

// The question a second pass's or the states' stage answers: refused when it is not this run's.
PetscErrorCode CheckQuestion(MPI_Comm comm, const LanczosOptions &o, const OpenCheckpoint &ck) {
  PetscFunctionBeginUser;
  for (const QuestionEntry &q : CheckpointQuestion(o)) {
    PetscBool has;
    double saved;
    PetscCall(PetscViewerHDF5HasAttribute(ck.viewer, "/question", q.key, &has));
    PetscCheck(has, comm, PETSC_ERR_USER_INPUT, "%s holds states of another version of the solver (no %s)",
               ck.option.c_str(), q.key);
    PetscCall(parts::GetReal(ck.viewer, "/question", q.key, &saved));
    PetscCheck(saved == q.value, comm, PETSC_ERR_USER_INPUT,
               "%s holds the states of another question (%s %g, this run %g): give another file, or remove it to start "
               "afresh",
               ck.option.c_str(), q.label.c_str(), saved, q.value);
  }
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode SaveCheckpoint(Recurrence &r, const LanczosOptions &opts, const std::vector<double> &alpha,
                              const std::vector<double> &beta, bool done) {
  PetscFunctionBeginUser;
  PetscCall(Materialise(r)); // v_m formed now (the next step's product then forms nothing: the same bits)
  PetscCall(WriteAtomically(r.comm, opts, [&](PetscViewer vw) -> PetscErrorCode {
    PetscFunctionBeginUser;
    PetscCall(WriteHead(vw, r, opts, CheckpointStage::FirstPass, alpha, beta, done));
    PetscCall(PetscViewerHDF5PushGroup(vw, "/first_pass"));
    PetscCall(parts::PutVector(vw, "v_previous", r.vprev));
    PetscCall(parts::PutVector(vw, "v", r.v));
    PetscCall(PetscViewerHDF5PopGroup(vw));
    PetscFunctionReturn(0);
  }));
  PetscFunctionReturn(0);
}

PetscErrorCode SaveCheckpointStates(Recurrence &r, const LanczosOptions &opts, const std::vector<double> &alpha,
                                    const std::vector<double> &beta, const StatesRecord &s, StateColumns *states) {
  PetscFunctionBeginUser;
  PetscCall(WriteAtomically(r.comm, opts, [&](PetscViewer vw) -> PetscErrorCode {
    PetscFunctionBeginUser;
    PetscCall(WriteHead(vw, r, opts, CheckpointStage::States, alpha, beta, true));
    PetscCall(parts::PutInt(vw, "/states", "count", states->count()));
    PetscCall(parts::PutInt(vw, "/states", "second_pass_steps", s.second_pass_steps));
    PetscCall(parts::PutInt(vw, "/states", "multiplicity_passes", s.multiplicity_passes));
    PetscCall(parts::PutInt(vw, "/states", "multiplicity_steps", s.multiplicity_steps));
    PetscCall(parts::PutInt(vw, "/states", "extra_states", s.extra_states));
    PetscCall(parts::PutBool(vw, "/states", "multiplicity_complete", s.multiplicity_complete));
    PetscCall(parts::PutBool(vw, "/states", "multiplicity_finished", s.multiplicity_finished));
    PetscCall(parts::PutInt(vw, "/states", "partners_dropped", s.partners_dropped));
    PetscCall(parts::PutReal(vw, "/states", "window_low", s.low));
    PetscCall(parts::PutReal(vw, "/states", "window_high", s.high));
    PetscCall(PetscViewerHDF5PushGroup(vw, "/states"));
    PetscCall(parts::PutReals(vw, r.comm, "values", states->values));
    PetscCall(parts::PutReals(vw, r.comm, "residuals", states->residuals));
    for (PetscInt j = 0; j < states->count(); ++j)
      PetscCall(parts::PutColumn(vw, "state_" + std::to_string(j), states, j));
    PetscCall(PetscViewerHDF5PopGroup(vw));
    PetscFunctionReturn(0);
  }));
  PetscFunctionReturn(0);
}

PetscErrorCode LoadCheckpoint(Recurrence &r, const LanczosOptions &opts, std::vector<double> *alpha,
                              std::vector<double> *beta, std::shared_ptr<OpenCheckpoint> *loaded) {
  auto ck = std::make_shared<OpenCheckpoint>();
  PetscFunctionBeginUser;
  ck->option = CheckpointOption(opts);
  PetscCall(OpenAndReadHeader(r, opts, ck.get()));
  PetscCall(PetscViewerHDF5PushGroup(ck->viewer, "/T"));
  PetscCall(parts::GetReals(ck->viewer, r.comm, "alpha", ck->steps, alpha));
  PetscCall(parts::GetReals(ck->viewer, r.comm, "beta", ck->steps + 1, beta));
  PetscCall(PetscViewerHDF5PopGroup(ck->viewer));
  if (ck->stage != CheckpointStage::FirstPass) PetscCall(CheckQuestion(r.comm, opts, *ck));
  // The same H: the first step from the same start vector must agree bit for bit (the three vectors are free yet).
  double a, b;
  PetscCall(StartVector(r, opts.seed));
  PetscCall(Step(r, 0.0, &a, &b));
  PetscCheck(a == (*alpha)[0] && (ck->steps < 2 || b == (*beta)[1]), r.comm, PETSC_ERR_USER_INPUT,
             "%s was made for another Hamiltonian (its first Lanczos step differs from this H's)", ck->option.c_str());
  if (ck->stage == CheckpointStage::FirstPass) { // the first pass continues from its last two vectors
    PetscCall(PetscViewerHDF5PushGroup(ck->viewer, "/first_pass"));
    PetscCall(parts::GetVector(ck->viewer, "v_previous", r.vprev));
    PetscCall(parts::GetVector(ck->viewer, "v", r.v));
    PetscCall(PetscViewerHDF5PopGroup(ck->viewer));
    ck->viewer.reset();
  } else {
    PetscCall(parts::GetInt(ck->viewer, ck->stage == CheckpointStage::States ? "/states" : "/second_pass",
                            ck->stage == CheckpointStage::States ? "count" : "sums", &ck->count));
  }
  r.pending = false;
  r.newest = ck->steps;
  *loaded = std::move(ck);
  PetscFunctionReturn(0);
}

PetscErrorCode SaveSecondPass(Recurrence &r, const LanczosOptions &opts, const std::vector<double> &alpha,
                              const std::vector<double> &beta, const SecondPassPosition &at, StateColumns *sums,
                              PetscInt first, PetscInt n) {
  PetscFunctionBeginUser;
  PetscCall(WriteAtomically(r.comm, opts, [&](PetscViewer vw) -> PetscErrorCode {
    PetscFunctionBeginUser;
    PetscCall(WriteHead(vw, r, opts, CheckpointStage::SecondPass, alpha, beta, true));
    PetscCall(parts::PutInt(vw, "/second_pass", "sums", n));
    PetscCall(parts::PutInt(vw, "/second_pass", "newest", at.newest));
    PetscCall(parts::PutInt(vw, "/second_pass", "next", at.next));
    PetscCall(parts::PutReal(vw, "/second_pass", "beta", at.beta));
    PetscCall(PetscViewerHDF5PushGroup(vw, "/second_pass"));
    PetscCall(parts::PutVector(vw, "v_previous", r.vprev));
    PetscCall(parts::PutVector(vw, "v", r.v));
    for (PetscInt j = 0; j < n; ++j) PetscCall(parts::PutColumn(vw, "sum_" + std::to_string(j), sums, first + j));
    PetscCall(PetscViewerHDF5PopGroup(vw));
    PetscFunctionReturn(0);
  }));
  PetscFunctionReturn(0);
}

PetscErrorCode LoadSecondPass(Recurrence &r, OpenCheckpoint &ck, StateColumns *sums, PetscInt first, PetscInt n,
                              SecondPassPosition *at) {
  PetscFunctionBeginUser;
  PetscCheck(ck.stage == CheckpointStage::SecondPass && ck.count == n && ck.viewer, r.comm, PETSC_ERR_USER_INPUT,
             "%s holds a second pass of %" PetscInt_FMT " states; this run's has %" PetscInt_FMT, ck.option.c_str(),
             ck.count, n);
  PetscViewer vw = ck.viewer;
  PetscCall(parts::GetInt(vw, "/second_pass", "newest", &at->newest));
  PetscCall(parts::GetInt(vw, "/second_pass", "next", &at->next));
  PetscCall(parts::GetReal(vw, "/second_pass", "beta", &at->beta));
  PetscCheck(at->newest >= 1 && at->newest < ck.steps && (at->next == at->newest || at->next == at->newest + 1), r.comm,
             PETSC_ERR_USER_INPUT, "%s is damaged (second pass at step %" PetscInt_FMT ")", ck.option.c_str(),
             at->newest);
  PetscCall(PetscViewerHDF5PushGroup(vw, "/second_pass"));
  PetscCall(parts::GetVector(vw, "v_previous", r.vprev));
  PetscCall(parts::GetVector(vw, "v", r.v));
  for (PetscInt j = 0; j < n; ++j) {
    Column x(*sums, first + j);
    PetscCall(x.error());
    PetscCall(parts::GetVector(vw, ("sum_" + std::to_string(j)).c_str(), x.vec()));
  }
  PetscCall(PetscViewerHDF5PopGroup(vw));
  ck.viewer.reset();
  PetscFunctionReturn(0);
}

PetscErrorCode LoadCheckpointStates(MPI_Comm comm, OpenCheckpoint &ck, StatesRecord *s, StateColumns *states) {
  std::vector<double> values, residuals;
  PetscFunctionBeginUser;
  PetscCheck(ck.stage == CheckpointStage::States && ck.viewer, comm, PETSC_ERR_USER_INPUT, "%s holds no states",
             ck.option.c_str());
  PetscViewer vw = ck.viewer;
  PetscInt dropped;
  PetscCall(parts::GetInt(vw, "/states", "second_pass_steps", &s->second_pass_steps));
  PetscCall(parts::GetInt(vw, "/states", "multiplicity_passes", &s->multiplicity_passes));
  PetscCall(parts::GetInt(vw, "/states", "multiplicity_steps", &s->multiplicity_steps));
  PetscCall(parts::GetInt(vw, "/states", "extra_states", &s->extra_states));
  PetscCall(parts::GetBool(vw, "/states", "multiplicity_complete", &s->multiplicity_complete));
  PetscCall(parts::GetBool(vw, "/states", "multiplicity_finished", &s->multiplicity_finished));
  PetscCall(parts::GetInt(vw, "/states", "partners_dropped", &dropped));
  PetscCall(parts::GetReal(vw, "/states", "window_low", &s->low));
  PetscCall(parts::GetReal(vw, "/states", "window_high", &s->high));
  s->partners_dropped = (int)dropped;
  PetscCall(PetscViewerHDF5PushGroup(vw, "/states"));
  PetscCall(parts::GetReals(vw, comm, "values", ck.count, &values));
  PetscCall(parts::GetReals(vw, comm, "residuals", ck.count, &residuals));
  OwnedVec x; // each state read here first: a Kramers partner, Θ of its state, takes no vector (StateColumns)
  PetscCall(BVCreateVec(states->bv(), x.out()));
  for (PetscInt j = 0; j < ck.count; ++j) {
    PetscCall(parts::GetVector(vw, ("state_" + std::to_string(j)).c_str(), x));
    PetscCall(states->AppendCopy(x, values[j], residuals[j]));
  }
  PetscCall(PetscViewerHDF5PopGroup(vw));
  ck.viewer.reset();
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos
