#include "solvers/lanczos/LanczosCheckpoint.hpp"

#include <unistd.h>

#include <cstdio>
#include <functional>

#include "support/CrashReport.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta::lanczos {

namespace {

// Version 1: the first pass only (7 header entries); version 2 adds the stage and the states (9 entries).
constexpr PetscInt kCheckpointMagic = 0x7bc1a2c0, kCheckpointVersion = 2, kHeader = 9, kHeaderV1 = 7;
constexpr PetscInt kStageFirstPass = 0, kStageStates = 1, kStageSecondPass = 2;

struct Header {
  PetscInt ranks = 0, rows = 0, seed = 0, steps = 0, done = 0, stage = kStageFirstPass, states = 0;
};

std::string OptionText(const CheckpointFile &ck) { return ck.prefix + "eps_nemo_checkpoint " + ck.path; }

} // namespace

PetscErrorCode CheckCheckpointPath(MPI_Comm comm, const std::string &prefix, const std::string &path, bool *exists) {
  PetscMPIInt rank;
  const std::string o = prefix + "eps_nemo_checkpoint " + path;
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

PetscErrorCode OpenBinary(MPI_Comm comm, const std::string &path, PetscFileMode mode, PetscViewer *viewer) {
  PetscFunctionBeginUser;
  PetscCall(PetscViewerCreate(comm, viewer));
  PetscCall(PetscViewerSetType(*viewer, PETSCVIEWERBINARY));
  PetscCall(PetscViewerBinarySetSkipInfo(*viewer, PETSC_TRUE));
  PetscCall(PetscViewerFileSetMode(*viewer, mode));
  PetscCall(PetscViewerFileSetName(*viewer, path.c_str()));
  PetscFunctionReturn(0);
}

// The header and T, the part every stage begins with.
PetscErrorCode WriteHead(PetscViewer vw, const Header &h, const std::vector<double> &alpha,
                         const std::vector<double> &beta) {
  PetscFunctionBeginUser;
  const PetscInt header[kHeader] = {
      kCheckpointMagic, kCheckpointVersion, h.ranks, h.rows, h.seed, h.steps, h.done, h.stage, h.states};
  PetscCall(PetscViewerBinaryWrite(vw, header, kHeader, PETSC_INT));
  PetscCall(PetscViewerBinaryWrite(vw, alpha.data(), h.steps, PETSC_DOUBLE));
  PetscCall(PetscViewerBinaryWrite(vw, beta.data(), h.steps + 1, PETSC_DOUBLE));
  PetscFunctionReturn(0);
}

PetscErrorCode HeaderOf(Recurrence &r, const CheckpointFile &ck, const std::vector<double> &alpha, bool done,
                        Header *h) {
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(r.comm, &size));
  PetscCall(VecGetSize(r.v, &h->rows));
  h->ranks = size, h->seed = (PetscInt)ck.seed, h->steps = (PetscInt)alpha.size(), h->done = done;
  PetscFunctionReturn(0);
}

// Writes the file through `write` under FILE.partial, renamed to FILE once every rank has written its part; the
// partial file is removed after a failure, and by the crash handler after a crash.
PetscErrorCode WriteAtomically(MPI_Comm comm, const CheckpointFile &ck,
                               const std::function<PetscErrorCode(PetscViewer)> &write) {
  PetscMPIInt rank;
  PetscViewer vw = nullptr; // closed here, before the rename, whatever the write did
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  const std::string tmp = ck.path + ".partial";
  RemovedOnCrash guard(tmp);
  PetscErrorCode ierr = OpenBinary(comm, tmp, FILE_MODE_WRITE, &vw);
  if (!ierr) ierr = write(vw);
  const PetscErrorCode closed = PetscViewerDestroy(&vw);
  if (!ierr) ierr = closed;
  int ok = ierr == 0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm));
  if (ok && rank == 0) ok = std::rename(tmp.c_str(), ck.path.c_str()) == 0;
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, comm));
  if (!ok && rank == 0) std::remove(tmp.c_str());
  PetscCall(ierr);
  PetscCheck(ok, comm, PETSC_ERR_FILE_WRITE, "%s: could not write the checkpoint (disk full?)", OptionText(ck).c_str());
  PetscFunctionReturn(0);
}

// Reads the header (of either version) and checks it against this run.
PetscErrorCode ReadHeader(MPI_Comm comm, PetscViewer vw, const CheckpointFile &ck, PetscInt rows, Header *h) {
  PetscMPIInt size;
  PetscInt raw[kHeader] = {0}, got;
  const std::string o = OptionText(ck);
  const char *p = o.c_str();
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscViewerBinaryRead(vw, raw, kHeaderV1, &got, PETSC_INT));
  const bool known = got == kHeaderV1 && raw[0] == kCheckpointMagic && (raw[1] == 1 || raw[1] == kCheckpointVersion);
  PetscCheck(known, comm, PETSC_ERR_USER_INPUT,
             "%s is not a tbpeta Lanczos checkpoint (version 1 or %" PetscInt_FMT ")", p, kCheckpointVersion);
  if (raw[1] == kCheckpointVersion) {
    PetscCall(PetscViewerBinaryRead(vw, raw + kHeaderV1, kHeader - kHeaderV1, &got, PETSC_INT));
    PetscCheck(got == kHeader - kHeaderV1, comm, PETSC_ERR_USER_INPUT, "%s is truncated", p);
  }
  h->ranks = raw[2], h->rows = raw[3], h->seed = raw[4], h->steps = raw[5], h->done = raw[6], h->stage = raw[7],
  h->states = raw[8];
  PetscCheck(h->ranks == size, comm, PETSC_ERR_USER_INPUT,
             "%s was made on %" PetscInt_FMT " ranks; this run has %d (continue it on the same rank count)", p,
             h->ranks, (int)size);
  PetscCheck(h->rows == rows, comm, PETSC_ERR_USER_INPUT,
             "%s was made for a matrix of %" PetscInt_FMT " rows; this H has %" PetscInt_FMT " (another structure)", p,
             h->rows, rows);
  PetscCheck(h->seed == (PetscInt)ck.seed, comm, PETSC_ERR_USER_INPUT,
             "%s was made with %seps_nemo_seed %" PetscInt_FMT "; this run uses %llu", p, ck.prefix.c_str(), h->seed,
             ck.seed);
  PetscCheck(h->steps >= 1, comm, PETSC_ERR_USER_INPUT, "%s holds no step", p);
  PetscCheck(h->stage == kStageFirstPass ||
                 ((h->stage == kStageStates || h->stage == kStageSecondPass) && h->done && h->states >= 0),
             comm, PETSC_ERR_USER_INPUT, "%s is damaged (stage %" PetscInt_FMT ")", p, h->stage);
  PetscFunctionReturn(0);
}

PetscErrorCode ReadDoubles(MPI_Comm comm, PetscViewer vw, const CheckpointFile &ck, PetscInt n,
                           std::vector<double> *x) {
  PetscInt got = 0;
  PetscFunctionBeginUser;
  x->assign((size_t)n, 0.0);
  if (n > 0) PetscCall(PetscViewerBinaryRead(vw, x->data(), n, &got, PETSC_DOUBLE));
  PetscCheck(got == n, comm, PETSC_ERR_USER_INPUT, "%s is truncated", OptionText(ck).c_str());
  PetscFunctionReturn(0);
}

// The question a stage beyond the first pass answers (CheckQuestion reads it): its count, then its values.
PetscErrorCode WriteQuestion(PetscViewer vw, const CheckpointFile &ck) {
  const std::vector<double> &q = ck.question.values;
  const double count = (double)q.size();
  PetscFunctionBeginUser;
  PetscCall(PetscViewerBinaryWrite(vw, &count, 1, PETSC_DOUBLE));
  PetscCall(PetscViewerBinaryWrite(vw, q.data(), (PetscInt)q.size(), PETSC_DOUBLE));
  PetscFunctionReturn(0);
}

// The states part's question, after T: refused when it is not this run's.
PetscErrorCode CheckQuestion(MPI_Comm comm, PetscViewer vw, const CheckpointFile &ck) {
  std::vector<double> count, saved;
  const CheckpointQuestion &q = ck.question;
  PetscFunctionBeginUser;
  PetscCall(ReadDoubles(comm, vw, ck, 1, &count));
  PetscCheck(count[0] == (double)q.values.size(), comm, PETSC_ERR_USER_INPUT,
             "%s holds states of another version of the solver", OptionText(ck).c_str());
  PetscCall(ReadDoubles(comm, vw, ck, (PetscInt)q.values.size(), &saved));
  for (size_t i = 0; i < saved.size(); ++i)
    PetscCheck(
        saved[i] == q.values[i], comm, PETSC_ERR_USER_INPUT,
        "%s holds the states of another question (%s %g, this run %g): give another file, or remove it to start afresh",
        OptionText(ck).c_str(), q.names[i].c_str(), saved[i], q.values[i]);
  PetscFunctionReturn(0);
}

std::vector<double> RecordValues(const StatesRecord &s) {
  return {(double)s.second_pass_steps,
          (double)s.multiplicity_passes,
          (double)s.multiplicity_steps,
          (double)s.extra_states,
          (double)s.multiplicity_complete,
          (double)s.multiplicity_finished,
          (double)s.partners_dropped,
          s.low,
          s.high};
}

StatesRecord RecordFrom(const std::vector<double> &v) {
  StatesRecord s;
  s.second_pass_steps = (PetscInt)v[0], s.multiplicity_passes = (PetscInt)v[1], s.multiplicity_steps = (PetscInt)v[2],
  s.extra_states = (PetscInt)v[3];
  s.multiplicity_complete = v[4] != 0, s.multiplicity_finished = v[5] != 0, s.partners_dropped = (int)v[6],
  s.low = v[7], s.high = v[8];
  return s;
}

} // namespace

PetscErrorCode SaveCheckpoint(Recurrence &r, const CheckpointFile &ck, const std::vector<double> &alpha,
                              const std::vector<double> &beta, bool done) {
  Header h;
  PetscFunctionBeginUser;
  PetscCall(Materialise(r)); // v_m formed now (the next step's product then forms nothing: the same bits)
  PetscCall(HeaderOf(r, ck, alpha, done, &h));
  PetscCall(WriteAtomically(r.comm, ck, [&](PetscViewer vw) -> PetscErrorCode {
    PetscFunctionBeginUser;
    PetscCall(WriteHead(vw, h, alpha, beta));
    PetscCall(VecView(r.vprev, vw));
    PetscCall(VecView(r.v, vw));
    PetscFunctionReturn(0);
  }));
  PetscFunctionReturn(0);
}

PetscErrorCode SaveCheckpointStates(Recurrence &r, const CheckpointFile &ck, const std::vector<double> &alpha,
                                    const std::vector<double> &beta, const StatesRecord &record, StateColumns *states) {
  Header h;
  PetscFunctionBeginUser;
  PetscCall(HeaderOf(r, ck, alpha, true, &h));
  h.stage = kStageStates, h.states = states->count();
  const std::vector<double> rec = RecordValues(record);
  PetscCall(WriteAtomically(r.comm, ck, [&](PetscViewer vw) -> PetscErrorCode {
    PetscFunctionBeginUser;
    PetscCall(WriteHead(vw, h, alpha, beta));
    PetscCall(WriteQuestion(vw, ck));
    PetscCall(PetscViewerBinaryWrite(vw, rec.data(), (PetscInt)rec.size(), PETSC_DOUBLE));
    PetscCall(PetscViewerBinaryWrite(vw, states->values.data(), h.states, PETSC_DOUBLE));
    PetscCall(PetscViewerBinaryWrite(vw, states->residuals.data(), h.states, PETSC_DOUBLE));
    for (PetscInt j = 0; j < h.states; ++j) {
      Column x(*states, j);
      PetscCall(x.error());
      PetscCall(VecView(x.vec(), vw));
    }
    PetscFunctionReturn(0);
  }));
  PetscFunctionReturn(0);
}

PetscErrorCode LoadCheckpoint(Recurrence &r, const CheckpointFile &ck, std::vector<double> *alpha,
                              std::vector<double> *beta, bool *done, CheckpointStage *stage) {
  OwnedViewer vw;
  PetscInt N;
  Header h;
  PetscFunctionBeginUser;
  PetscCall(VecGetSize(r.v, &N));
  PetscCall(OpenBinary(r.comm, ck.path, FILE_MODE_READ, vw.out()));
  PetscCall(ReadHeader(r.comm, vw, ck, N, &h));
  PetscCall(ReadDoubles(r.comm, vw, ck, h.steps, alpha));
  PetscCall(ReadDoubles(r.comm, vw, ck, h.steps + 1, beta));
  *done = h.done == 1;
  *stage = h.stage == kStageStates       ? CheckpointStage::States
           : h.stage == kStageSecondPass ? CheckpointStage::SecondPass
                                         : CheckpointStage::FirstPass;
  if (*stage != CheckpointStage::FirstPass) PetscCall(CheckQuestion(r.comm, vw, ck));
  // The same H: the first step from the same start vector must agree bit for bit (the three vectors are free yet).
  double a, b;
  PetscCall(StartVector(r, ck.seed));
  PetscCall(Step(r, 0.0, &a, &b));
  PetscCheck(a == (*alpha)[0] && (h.steps < 2 || b == (*beta)[1]), r.comm, PETSC_ERR_USER_INPUT,
             "%s was made for another Hamiltonian (its first Lanczos step differs from this H's)",
             OptionText(ck).c_str());
  if (*stage == CheckpointStage::FirstPass) { // the first pass continues from its last two vectors
    PetscCall(VecLoad(r.vprev, vw));
    PetscCall(VecLoad(r.v, vw));
  }
  r.pending = false, r.newest = h.steps;
  PetscFunctionReturn(0);
}

PetscErrorCode SaveSecondPass(Recurrence &r, const CheckpointFile &ck, const std::vector<double> &alpha,
                              const std::vector<double> &beta, const SecondPassPosition &at, StateColumns *sums,
                              PetscInt first, PetscInt n) {
  Header h;
  PetscFunctionBeginUser;
  PetscCall(HeaderOf(r, ck, alpha, true, &h));
  h.stage = kStageSecondPass, h.states = n;
  const std::vector<double> where{(double)at.newest, (double)at.next, at.beta};
  PetscCall(WriteAtomically(r.comm, ck, [&](PetscViewer vw) -> PetscErrorCode {
    PetscFunctionBeginUser;
    PetscCall(WriteHead(vw, h, alpha, beta));
    PetscCall(WriteQuestion(vw, ck));
    PetscCall(PetscViewerBinaryWrite(vw, where.data(), 3, PETSC_DOUBLE));
    PetscCall(VecView(r.vprev, vw));
    PetscCall(VecView(r.v, vw));
    for (PetscInt j = first; j < first + n; ++j) {
      Column x(*sums, j);
      PetscCall(x.error());
      PetscCall(VecView(x.vec(), vw));
    }
    PetscFunctionReturn(0);
  }));
  PetscFunctionReturn(0);
}

PetscErrorCode LoadSecondPass(Recurrence &r, const CheckpointFile &ck, StateColumns *sums, PetscInt first, PetscInt n,
                              SecondPassPosition *at) {
  OwnedViewer vw;
  Header h;
  std::vector<double> skip, where;
  PetscInt rows;
  PetscFunctionBeginUser;
  PetscCall(VecGetSize(r.v, &rows));
  PetscCall(OpenBinary(r.comm, ck.path, FILE_MODE_READ, vw.out()));
  PetscCall(ReadHeader(r.comm, vw, ck, rows, &h));
  PetscCheck(h.stage == kStageSecondPass && h.states == n, r.comm, PETSC_ERR_USER_INPUT,
             "%s holds a second pass of %" PetscInt_FMT " states; this run's has %" PetscInt_FMT,
             OptionText(ck).c_str(), h.states, n);
  PetscCall(ReadDoubles(r.comm, vw, ck, 2 * h.steps + 1, &skip)); // T, read by LoadCheckpoint
  PetscCall(CheckQuestion(r.comm, vw, ck));
  PetscCall(ReadDoubles(r.comm, vw, ck, 3, &where));
  at->newest = (PetscInt)where[0], at->next = (PetscInt)where[1], at->beta = where[2];
  PetscCheck(at->newest >= 1 && at->newest < h.steps && (at->next == at->newest || at->next == at->newest + 1), r.comm,
             PETSC_ERR_USER_INPUT, "%s is damaged (second pass at %g)", OptionText(ck).c_str(), where[0]);
  PetscCall(VecLoad(r.vprev, vw));
  PetscCall(VecLoad(r.v, vw));
  for (PetscInt j = first; j < first + n; ++j) {
    Column x(*sums, j);
    PetscCall(x.error());
    PetscCall(VecLoad(x.vec(), vw));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode LoadCheckpointStates(MPI_Comm comm, const CheckpointFile &ck, StatesRecord *record,
                                    StateColumns *states) {
  OwnedViewer vw;
  Header h;
  std::vector<double> skip, rec, values, residuals;
  PetscInt rows;
  PetscFunctionBeginUser;
  PetscCall(OpenBinary(comm, ck.path, FILE_MODE_READ, vw.out()));
  PetscCall(BVGetSizes(states->bv(), nullptr, &rows, nullptr));
  PetscCall(ReadHeader(comm, vw, ck, rows, &h));
  PetscCheck(h.stage == kStageStates, comm, PETSC_ERR_USER_INPUT, "%s holds no states", OptionText(ck).c_str());
  PetscCall(ReadDoubles(comm, vw, ck, 2 * h.steps + 1, &skip)); // T, read by LoadCheckpoint
  PetscCall(CheckQuestion(comm, vw, ck));
  PetscCall(ReadDoubles(comm, vw, ck, (PetscInt)RecordValues(StatesRecord{}).size(), &rec));
  PetscCall(ReadDoubles(comm, vw, ck, h.states, &values));
  PetscCall(ReadDoubles(comm, vw, ck, h.states, &residuals));
  OwnedVec x; // each state read here first: a Kramers partner, Θ of its state, takes no vector (StateColumns)
  PetscCall(BVCreateVec(states->bv(), x.out()));
  for (PetscInt j = 0; j < h.states; ++j) {
    PetscCall(VecLoad(x, vw));
    PetscCall(states->AppendCopy(x, values[j], residuals[j]));
  }
  *record = RecordFrom(rec);
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos
