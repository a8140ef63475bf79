#include "Roofline.hpp"

#include <algorithm>

#include "SystemProbes.hpp"

namespace tbpeta::bench {

namespace {

using Lanes4 = double __attribute__((vector_size(32)));
constexpr int kChains = 12; // independent fma chains: more than latency x pipes (4 x 2 on AVX2 cores)

// `iters` rounds of kChains independent 4-lane fmas; the result kept so that none is dropped.
double FmaChains(long iters, double scale) {
  Lanes4 a[kChains];
  for (int k = 0; k < kChains; ++k) a[k] = Lanes4{1.0 + k, 2.0 + k, 3.0 + k, 4.0 + k};
  const Lanes4 m = {scale, scale, scale, scale}, c = {1e-9, 2e-9, 3e-9, 4e-9};
  for (long i = 0; i < iters; ++i)
    for (int k = 0; k < kChains; ++k) a[k] = a[k] * m + c;
  double sum = 0;
  for (int k = 0; k < kChains; ++k) sum += a[k][0] + a[k][1] + a[k][2] + a[k][3];
  return sum;
}

} // namespace

PetscErrorCode FmaPeakGFlops(MPI_Comm comm, double seconds, double *gflops) {
  volatile double scale = 1.0 - 1e-12, sink = 0; // not known to the compiler: the loop cannot be folded
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  long iters = 1 << 20;
  const auto run = [&]() -> PetscErrorCode {
    sink = sink + FmaChains(iters, scale);
    return 0;
  };
  double dt = 0, best = 1e30;
  PetscCall(TimeOnRanks(comm, run, &dt)); // the length of a run of about `seconds`, from a short one
  iters = std::max(1L, (long)((double)iters * seconds / std::max(dt, 1e-6)));
  for (int rep = 0; rep < 3; ++rep) {
    PetscCall(TimeOnRanks(comm, run, &dt));
    best = std::min(best, dt);
  }
  *gflops = 2.0 * 4 * kChains * (double)iters * size / best / 1e9;
  PetscFunctionReturn(0);
}

ProductWork CountProductWork(const Structure &s, const TightBindingModel &model, const HamiltonianOptions &opts,
                             double matrix_bytes) {
  const OperatorCounts c = CountOperator(s, model);
  const OperatorKind *kind = FindOperatorKind(opts.kind);
  const double rows = c.rows_per_atom, spins = rows / c.orbitals;
  ProductWork w;
  // a real block entry on a complex x entry: 2 multiply-adds per spin; the diagonal: 2 multiplies per row
  w.flops = c.bonds * 4.0 * c.orbitals * c.orbitals * spins + c.owned * 2.0 * rows;
  w.bytes = 16.0 * rows * (2 * c.owned + c.halo); // x and y once each, the halo's entries once
  w.bytes += kind && kind->streamed_bytes ? kind->streamed_bytes(c, opts) : matrix_bytes;
  return w;
}

double Roofline::floor(const ProductWork &w) const { return std::max(flopFloor(w), byteFloor(w)); }

std::string Roofline::limit(const ProductWork &w) const { return flopFloor(w) >= byteFloor(w) ? "flops" : "bytes"; }

} // namespace tbpeta::bench
