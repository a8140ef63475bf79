// bench_pingpong: MPI latency and bandwidth between rank 0 and rank 1 (a ping-pong of messages from 8 bytes to
// 16 MB), the tau and b of the scaling model's `measured` setting. A printed benchmark, not a test.
//
//   mpiexec -n 2 bench_pingpong [options: -help lists them with their defaults]
// Per size: the best of the repeats' half round trips (latency) and bytes / that time (bandwidth). The summary
// line gives the latency of the smallest message and the bandwidth of the largest.
static const char help[] = "bench_pingpong: MPI latency and bandwidth between two ranks.\n"
                           "Run with -help for every option and its default.\n\n";

#include <petscsys.h>

#include <algorithm>
#include <string>
#include <vector>

#include "BenchOptions.hpp"
#include "CsvColumns.hpp"
#include "application/ApplicationMain.hpp"
#include "support/TextFile.hpp"

using namespace tbpeta;

namespace {

struct Settings {
  PetscInt max_bytes = 0, repeats = 0;
  std::string csv;
};

bench::BenchOptions Options(Settings *s) {
  return {{"-bench_max_bytes", "Largest message in bytes", "16777216", &s->max_bytes},
          {"-bench_repeats", "Round trips per size", "50", &s->repeats},
          bench::CsvFileOption(&s->csv, "Also write the table as CSV")};
}

struct Row {
  long bytes;
  double seconds;
};

const std::vector<bench::Column<Row>> kColumns = {
    {"bytes", [](const Row &r) { return std::to_string(r.bytes); }},
    {"one_way_s", [](const Row &r) { return bench::Text(r.seconds); }},
    {"bandwidth_bytes_per_s", [](const Row &r) { return bench::Text(r.bytes / r.seconds); }}};

PetscErrorCode Run(MPI_Comm comm, int *) {
  Settings b;
  PetscMPIInt size, rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(bench::ReadBenchOptions(comm, "bench_pingpong", Options(&b)));
  if (HelpRequested()) PetscFunctionReturn(0);
  PetscCheck(size == 2, comm, PETSC_ERR_USER_INPUT, "bench_pingpong runs on exactly 2 ranks (mpiexec -n 2), not %d",
             size);
  PetscCheck(b.max_bytes >= 8 && b.repeats >= 1, comm, PETSC_ERR_USER_INPUT,
             "-bench_max_bytes must be >= 8 and -bench_repeats >= 1");
  std::vector<char> buf((size_t)b.max_bytes, 1);
  std::vector<Row> rows;
  for (long bytes = 8; bytes <= b.max_bytes; bytes *= 4) {
    double best = 1e30;
    for (PetscInt r = -2; r < b.repeats; ++r) { // two warm-up round trips
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
                        (int)b.repeats, "bytes", "one way us", "MB/s"));
  for (const Row &r : rows)
    PetscCall(PetscPrintf(comm, "%12ld %12.2f %12.1f\n", r.bytes, r.seconds * 1e6, r.bytes / r.seconds / 1e6));
  PetscCall(PetscPrintf(comm, "latency %.2f us (8 bytes), bandwidth %.1f MB/s (%ld bytes)\n",
                        rows.front().seconds * 1e6, rows.back().bytes / rows.back().seconds / 1e6, rows.back().bytes));
  if (!b.csv.empty()) PetscCall(WriteTextFile(comm, b.csv, bench::CsvText(kColumns, rows), "-bench_csv"));
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "bench_pingpong", Run); }
