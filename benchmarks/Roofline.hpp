#pragma once
// The roofline of a product y = H x: the machine's two ceilings measured in the same run (the FMA peak at the block
// kernels' vector width, and the triad bandwidth, SystemProbes), and a product's two floors from counts made from the
// structure (its multiply-adds, and the bytes it must move: x, y, the halo and the operator's per-atom arrays). A
// product can be no faster than the larger floor; how far above it a kernel runs says what limits it.
#include <petscsys.h>

#include <string>

#include "geometry/Structure.hpp"
#include "model/TightBindingModel.hpp"
#include "operator/OperatorKind.hpp"

namespace tbpeta::bench {

// GFlop/s of a kept loop of independent 4-lane fmas (the width of the block kernels' Pair4), on every rank of comm at
// once (the sum over the ranks: a shared core or a throttled chip shows). Best of 3 runs of about `seconds`.
// Compiled with the kernels' flags (-O3 -march=native). Collective.
PetscErrorCode FmaPeakGFlops(MPI_Comm comm, double seconds, double *gflops);

// What one product must do, counted from the structure (this rank's atoms; summed over the ranks by the caller).
struct ProductWork {
  double flops = 0; // real multiply-adds x 2 of the bond blocks and the diagonal (the kernels' useful work)
  double bytes = 0; // x and y once each, the halo's entries once, the operator's arrays streamed per product
};

// The work of one product of H of the kind `opts` names on this rank's atoms of s (the model's orbitals and spins;
// a strained model: every atom its own diagonal, and what the kind evaluates each bond from). The operator's own
// bytes are those its kind says a product streams (OperatorKind::streamed_bytes), or, for a kind that streams all of
// its bytes (a stored matrix), matrix_bytes: its bytes on this rank.
ProductWork CountProductWork(const Structure &s, const TightBindingModel &model, const HamiltonianOptions &opts,
                             double matrix_bytes = 0);

// The two floors of a product and where it runs against them.
struct Roofline {
  double peak_gflops = 0, triad_gbs = 0; // the machine's ceilings on the ranks of the run
  double flopFloor(const ProductWork &w) const { return w.flops / (peak_gflops * 1e9); }
  double byteFloor(const ProductWork &w) const { return w.bytes / (triad_gbs * 1e9); }
  double floor(const ProductWork &w) const;
  // "flops" or "bytes": the larger floor
  std::string limit(const ProductWork &w) const;
};

} // namespace tbpeta::bench
