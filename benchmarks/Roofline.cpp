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

ProductWork CountProductWork(const Structure &s, int norb, int spins, bool strained, OperatorStream stream,
                             double matrix_bytes) {
  ProductWork w;
  double bonds = 0;
  for (PetscInt i = 0; i < s.owned; ++i)
    for (int b = 0; b < 4; ++b) bonds += s.bonds[i][b] >= 0;
  const double owned = (double)s.owned, halo = (double)s.halo(), bs = (double)norb * spins;
  // a real block entry on a complex x entry: 2 multiply-adds per spin; the diagonal: 2 multiplies per row
  w.flops = bonds * 4.0 * norb * norb * spins + owned * 2.0 * bs;
  w.bytes = 16.0 * bs * (2 * owned + halo);
  switch (stream) {
  case OperatorStream::matrix: w.bytes += matrix_bytes; break;
  case OperatorStream::stored_blocks: // neighbours, the atom's own terms (4 block indices, 4 phases, its on-site)
    w.bytes += owned * (4 * sizeof(int) + 24) + bonds * norb * norb * sizeof(double); // AtomTerms: 24 B
    break;
  case OperatorStream::shell: // neighbours, the index of the atom's terms
    w.bytes += owned * (4 * sizeof(int) + sizeof(std::int32_t));
    break;
  }
  if (strained && stream != OperatorStream::matrix) // every atom's own diagonal
    w.bytes += owned * norb * sizeof(double);
  if (strained && stream == OperatorStream::shell) // what each bond is evaluated from: displacements, materials, sides
    w.bytes += owned * (3 * sizeof(double) + 2) + halo * (3 * sizeof(double) + 1);
  return w;
}

double Roofline::floor(const ProductWork &w) const { return std::max(flopFloor(w), byteFloor(w)); }

std::string Roofline::limit(const ProductWork &w) const { return flopFloor(w) >= byteFloor(w) ? "flops" : "bytes"; }

} // namespace tbpeta::bench
