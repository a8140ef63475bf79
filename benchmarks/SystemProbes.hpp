#pragma once
// What the benchmarks measure of the machine beside their own work, and the systems they share: the largest and the
// sum over the ranks, a call timed on every rank, CPU seconds and page faults, the first touch of fresh memory, the
// STREAM-style triad bandwidth, medians and fitted exponents; the periodic bulk GaAs cube.
#include <petscsys.h>

#include <string>
#include <vector>

#include "model/TightBindingSystem.hpp"

namespace tbpeta::bench {

double MaxOverRanks(MPI_Comm comm, double v);
double SumOverRanks(MPI_Comm comm, double v);

// One call on every rank of comm, timed from a barrier to this rank's end: the largest time over the ranks.
template <class F>
PetscErrorCode TimeOnRanks(MPI_Comm comm, F &&call, double *seconds) {
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Barrier(comm));
  const double t0 = MPI_Wtime();
  PetscCall(call());
  double dt = MPI_Wtime() - t0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm));
  *seconds = dt;
  PetscFunctionReturn(0);
}

// User and system CPU seconds of this process so far.
void CpuSeconds(double *user, double *sys);
// Page faults of this process so far (minor: each the first touch of a fresh page).
double MinorFaults();

// Seconds per GB to first-touch `bytes` of fresh memory, the floor under any build that writes that much new memory:
// mapped anew (never memory the allocator recycles), 2 MiB-aligned and advised for transparent huge pages as the
// CSR arrays and per-atom tables are, or in plain 4 KiB pages (huge = false), as arrays below 256 KiB are.
double FirstTouchSecondsPerGb(size_t bytes, bool huge = true);

// STREAM triad a = b + s c on three arrays of `mb` MB per rank, all ranks at once; best of 5, aggregate GB/s
// (24 bytes moved per element: two reads, one write). Collective.
PetscErrorCode TriadGBs(MPI_Comm comm, double mb, double *gbs);

// The middle value (the mean of the two middle ones for an even count).
double Median(std::vector<double> v);
// Least-squares exponent p of y = c x^p; NaN with fewer than two points.
double FitExponent(const std::vector<double> &x, const std::vector<double> &y);

// A periodic bulk GaAs cube of n x n x n cells of the parameter set, partitioned by -partition and
// -da_processors_x/y/z.
PetscErrorCode BulkGaAsCube(MPI_Comm comm, const std::string &set, int n, SystemSpec *spec);
// -help: the partition's options, which each run reads for its own ranks.
PetscErrorCode ListPartitionOptions(MPI_Comm comm);

} // namespace tbpeta::bench
