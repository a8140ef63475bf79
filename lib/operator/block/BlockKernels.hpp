#pragma once
// The block operator's arithmetic: a real orbitals x orbitals block applied to the S spin components of a neighbour's
// x at once, the Bloch phase, and the kernel of one atom (on-site terms, then its four bonds in a fixed order).
// Compiled with the product kernels' flags (-O3 -march=native, lib/CMakeLists.txt).
#include <complex>
#include <cstring>
#include <utility>

#include "operator/block/BlockOperator.hpp"

namespace tbpeta::block {

// Two rows' (re, im), and one row's: GCC/Clang vector types, lowered to whatever the target has (AVX2 here).
using Pair4 = double __attribute__((vector_size(32)));
using Pair2 = double __attribute__((vector_size(16)));

// acc[s][r] += sum_c B[r][c] x_s[c] for the S spin components of x (each N complex numbers as (re, im) pairs).
// Bt is B column by column (StoreByColumns): for each c, the rows come in pairs (B[r][c], B[r][c], B[r+1][c],
// B[r+1][c]), each multiplied by (x re, x im, x re, x im) into an accumulator of its own (no chain of dependent
// additions), and one pair of B serves both spins. Measured on the 10^6-atom dot (bench_operators, 1 rank): the
// product about 1.5x faster than the row-by-row loop, whose rows were chains of N dependent additions.
template <int N, int S>
inline void AddBlockProduct(const double *Bt, const double *x, double (*acc)[N][2]) {
  constexpr int P = N / 2; // row pairs; an odd N's last row apart
  Pair4 a[S][P];
  Pair2 last[S];
  for (int sp = 0; sp < S; ++sp) {
    std::memcpy(a[sp], acc[sp], sizeof a[sp]);
    if constexpr (N % 2) std::memcpy(&last[sp], acc[sp][N - 1], sizeof last[sp]);
  }
  for (int c = 0; c < N; ++c) {
    const double *Bc = Bt + c * N;
    Pair2 xc[S];
    Pair4 xx[S];
    for (int sp = 0; sp < S; ++sp) {
      std::memcpy(&xc[sp], x + 2 * (sp * N + c), sizeof xc[sp]);
      xx[sp] = __builtin_shufflevector(xc[sp], xc[sp], 0, 1, 0, 1);
    }
    for (int k = 0; k < P; ++k) {
      Pair2 b;
      std::memcpy(&b, Bc + 2 * k, sizeof b);
      const Pair4 bb = __builtin_shufflevector(b, b, 0, 0, 1, 1);
      for (int sp = 0; sp < S; ++sp) a[sp][k] += bb * xx[sp];
    }
    if constexpr (N % 2) {
      const Pair2 bl = {Bc[N - 1], Bc[N - 1]};
      for (int sp = 0; sp < S; ++sp) last[sp] += bl * xc[sp];
    }
  }
  for (int sp = 0; sp < S; ++sp) {
    std::memcpy(acc[sp], a[sp], sizeof a[sp]);
    if constexpr (N % 2) std::memcpy(acc[sp][N - 1], &last[sp], sizeof last[sp]);
  }
}

// An n x n row-major block, in place, column by column (the layout AddBlockProduct reads).
inline void StoreByColumns(int n, double *B) {
  for (int r = 0; r < n; ++r)
    for (int c = r + 1; c < n; ++c) std::swap(B[r * n + c], B[c * n + r]);
}

// acc += phase t.
template <int N, int S>
inline void AddPhased(Complex phase, const double (*t)[N][2], double (*acc)[N][2]) {
  const double pr = phase.real(), pi = phase.imag();
  for (int sp = 0; sp < S; ++sp)
    for (int r = 0; r < N; ++r) {
      acc[sp][r][0] += pr * t[sp][r][0] - pi * t[sp][r][1];
      acc[sp][r][1] += pr * t[sp][r][1] + pi * t[sp][r][0];
    }
}

// The kernel of an atom of norb orbitals and `spins` spin components (5 or 10, 1 or 2); `reference`: the kernel as it
// was before its tuning (BlockKernel::reference), kept as the benchmarks' yardstick.
AtomKernel KernelFor(int norb, int spins, bool reference);

} // namespace tbpeta::block
