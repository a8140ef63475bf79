// bench_pingpong: MPI latency and bandwidth between rank 0 and rank 1 (a ping-pong of messages from 8 bytes to
// 16 MB), the tau and b of the scaling model's `measured` setting. A printed benchmark, not a test.
//
//   mpiexec -n 2 bench_pingpong [-bench_max_bytes 16777216] [-bench_repeats 50] [-bench_csv FILE]
// Per size: the best of the repeats' half round trips (latency) and bytes / that time (bandwidth). The summary
// line gives the latency of the smallest message and the bandwidth of the largest.
static const char help[] = "bench_pingpong: MPI latency and bandwidth between two ranks.\n"
                           "  -bench_max_bytes N   largest message (default 16777216)\n"
                           "  -bench_repeats N     round trips per size (default 50)\n"
                           "  -bench_csv FILE      also write the table as CSV\n\n";

#include <petscsys.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include "application/ApplicationMain.hpp"
#include "support/TextFile.hpp"
#include "io/OutputPath.hpp"

using namespace tbpeta;

namespace {

PetscErrorCode Run(MPI_Comm comm, int *) {
  PetscInt max_bytes = 16 << 20, repeats = 50;
  char csv[PETSC_MAX_PATH_LEN] = "";
  PetscBool has_csv = PETSC_FALSE;
  PetscMPIInt size, rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscOptionsBegin(comm, nullptr, "bench_pingpong", "tbpeta");
  PetscCall(PetscOptionsInt("-bench_max_bytes", "Largest message in bytes", "bench_pingpong", max_bytes, &max_bytes,
                            nullptr));
  PetscCall(PetscOptionsInt("-bench_repeats", "Round trips per size", "bench_pingpong", repeats, &repeats, nullptr));
  PetscCall(PetscOptionsString("-bench_csv", "Also write the table as CSV", "bench_pingpong", csv, csv, sizeof csv,
                               &has_csv));
  PetscOptionsEnd();
  if (has_csv) PetscCall(CheckOutputFile(comm, csv, "-bench_csv", ".csv")); // before the measurements, not after them
  if (HelpRequested()) PetscFunctionReturn(0);
  PetscCheck(size == 2, comm, PETSC_ERR_USER_INPUT, "bench_pingpong runs on exactly 2 ranks (mpiexec -n 2), not %d",
             size);
  PetscCheck(max_bytes >= 8 && repeats >= 1, comm, PETSC_ERR_USER_INPUT,
             "-bench_max_bytes must be >= 8 and -bench_repeats >= 1");
  std::vector<char> buf((size_t)max_bytes, 1);
  struct Row {
    long bytes;
    double seconds;
  };
  std::vector<Row> rows;
  for (long bytes = 8; bytes <= max_bytes; bytes *= 4) {
    double best = 1e30;
    for (PetscInt r = -2; r < repeats; ++r) { // two warm-up round trips
      PetscCallMPI(MPI_Barrier(comm));
      const double t0 = MPI_Wtime();
      if (rank == 0) {
        PetscCallMPI(MPI_Send(buf.data(), (int)bytes, MPI_CHAR, 1, 0, comm));
        PetscCallMPI(MPI_Recv(buf.data(), (int)bytes, MPI_CHAR, 1, 0, comm, MPI_STATUS_IGNORE));
      } else {
        PetscCallMPI(MPI_Recv(buf.data(), (int)bytes, MPI_CHAR, 0, 0, comm, MPI_STATUS_IGNORE));
        PetscCallMPI(MPI_Send(buf.data(), (int)bytes, MPI_CHAR, 0, 0, comm));
      }
      if (r >= 0) best = std::min(best, (MPI_Wtime() - t0) / 2);
    }
    PetscCallMPI(MPI_Bcast(&best, 1, MPI_DOUBLE, 0, comm));
    rows.push_back({bytes, best});
  }
  PetscCall(PetscPrintf(comm, "bench_pingpong: rank 0 <-> rank 1, best of %d round trips per size\n%12s %12s %12s\n",
                        (int)repeats, "bytes", "one way us", "MB/s"));
  for (const Row &r : rows)
    PetscCall(PetscPrintf(comm, "%12ld %12.2f %12.1f\n", r.bytes, r.seconds * 1e6, r.bytes / r.seconds / 1e6));
  PetscCall(PetscPrintf(comm, "latency %.2f us (8 bytes), bandwidth %.1f MB/s (%ld bytes)\n",
                        rows.front().seconds * 1e6, rows.back().bytes / rows.back().seconds / 1e6, rows.back().bytes));
  if (has_csv) {
    std::ostringstream f;
    f << "bytes,one_way_s,bandwidth_bytes_per_s\n";
    for (const Row &r : rows) f << r.bytes << ',' << r.seconds << ',' << r.bytes / r.seconds << '\n';
    PetscCall(WriteTextFile(comm, csv, f.str(), "-bench_csv"));
  }
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "bench_pingpong", Run); }
