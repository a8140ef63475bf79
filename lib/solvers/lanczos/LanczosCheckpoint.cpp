#include "solvers/lanczos/LanczosCheckpoint.hpp"

#include <unistd.h>

#include <cstdio>

namespace tbpeta::lanczos {

namespace {

constexpr PetscInt kCheckpointMagic = 0x7bc1a2c0, kCheckpointVersion = 1;

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
  PetscCheck(state[1] != 2, comm, PETSC_ERR_USER_INPUT, "%s: its directory does not exist or is not writable", o.c_str());
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

// Writes T, v_{m-1} and v_m to `tmp`.
PetscErrorCode WriteCheckpointFile(Recurrence &r, const std::string &tmp, unsigned long long seed, const std::vector<double> &alpha, const std::vector<double> &beta, bool done) {
  PetscViewer vw;
  PetscMPIInt size;
  PetscInt N;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(r.comm, &size));
  PetscCall(VecGetSize(r.v, &N));
  const PetscInt m = (PetscInt)alpha.size();
  const PetscInt header[7] = {kCheckpointMagic, kCheckpointVersion, (PetscInt)size, N, (PetscInt)seed, m, done};
  PetscCall(OpenBinary(r.comm, tmp, FILE_MODE_WRITE, &vw));
  PetscCall(PetscViewerBinaryWrite(vw, header, 7, PETSC_INT));
  PetscCall(PetscViewerBinaryWrite(vw, alpha.data(), m, PETSC_DOUBLE));
  PetscCall(PetscViewerBinaryWrite(vw, beta.data(), m + 1, PETSC_DOUBLE));
  PetscCall(VecView(r.vprev, vw));
  PetscCall(VecView(r.v, vw));
  PetscCall(PetscViewerDestroy(&vw));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode SaveCheckpoint(Recurrence &r, const std::string &prefix, const std::string &path, unsigned long long seed, const std::vector<double> &alpha, const std::vector<double> &beta, bool done) {
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(r.comm, &rank));
  PetscCall(Materialise(r)); // v_m formed now (the next step's product then forms nothing: the same bits)
  const std::string tmp = path + ".partial";
  const PetscErrorCode ierr = WriteCheckpointFile(r, tmp, seed, alpha, beta, done);
  int ok = ierr == 0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, r.comm));
  if (ok && rank == 0) ok = std::rename(tmp.c_str(), path.c_str()) == 0;
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, r.comm));
  if (!ok && rank == 0) std::remove(tmp.c_str());
  PetscCall(ierr);
  PetscCheck(ok, r.comm, PETSC_ERR_FILE_WRITE, "%seps_nemo_checkpoint %s: could not write the checkpoint (disk full?)", prefix.c_str(), path.c_str());
  PetscFunctionReturn(0);
}

PetscErrorCode LoadCheckpoint(Recurrence &r, const std::string &prefix, const std::string &path, unsigned long long seed, std::vector<double> *alpha, std::vector<double> *beta, bool *done) {
  PetscViewer vw;
  PetscMPIInt size;
  PetscInt N, header[7], got;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(r.comm, &size));
  PetscCall(VecGetSize(r.v, &N));
  PetscCall(OpenBinary(r.comm, path, FILE_MODE_READ, &vw));
  PetscCall(PetscViewerBinaryRead(vw, header, 7, &got, PETSC_INT));
  const std::string o = prefix + "eps_nemo_checkpoint " + path;
  const char *p = o.c_str();
  PetscCheck(got == 7 && header[0] == kCheckpointMagic && header[1] == kCheckpointVersion, r.comm, PETSC_ERR_USER_INPUT,
             "%s is not a tbpeta Lanczos checkpoint (version %" PetscInt_FMT ")", p, kCheckpointVersion);
  PetscCheck(header[2] == size, r.comm, PETSC_ERR_USER_INPUT, "%s was made on %" PetscInt_FMT " ranks; this run has %d (continue it on the same rank count)", p, header[2],
             (int)size);
  PetscCheck(header[3] == N, r.comm, PETSC_ERR_USER_INPUT, "%s was made for a matrix of %" PetscInt_FMT " rows; this H has %" PetscInt_FMT " (another structure)", p, header[3], N);
  PetscCheck(header[4] == (PetscInt)seed, r.comm, PETSC_ERR_USER_INPUT, "%s was made with %seps_nemo_seed %" PetscInt_FMT "; this run uses %llu", p, prefix.c_str(), header[4], seed);
  const PetscInt m = header[5];
  *done = header[6] == 1;
  PetscCheck(m >= 1, r.comm, PETSC_ERR_USER_INPUT, "%s holds no step", p);
  alpha->assign(m, 0), beta->assign(m + 1, 0);
  PetscCall(PetscViewerBinaryRead(vw, alpha->data(), m, &got, PETSC_DOUBLE));
  PetscCheck(got == m, r.comm, PETSC_ERR_USER_INPUT, "%s is truncated", p);
  PetscCall(PetscViewerBinaryRead(vw, beta->data(), m + 1, &got, PETSC_DOUBLE));
  PetscCheck(got == m + 1, r.comm, PETSC_ERR_USER_INPUT, "%s is truncated", p);
  // The same H: the first step from the same start vector must agree bit for bit (the three vectors are free yet).
  double a, b;
  PetscCall(StartVector(r, seed));
  PetscCall(Step(r, 0.0, &a, &b));
  PetscCheck(a == (*alpha)[0] && (m < 2 || b == (*beta)[1]), r.comm, PETSC_ERR_USER_INPUT,
             "%s was made for another Hamiltonian (its first Lanczos step differs from this H's)", p);
  PetscCall(VecLoad(r.vprev, vw));
  PetscCall(VecLoad(r.v, vw));
  r.pending = false, r.newest = m;
  PetscCall(PetscViewerDestroy(&vw));
  PetscFunctionReturn(0);
}

} // namespace tbpeta::lanczos
