#pragma once
// The block operator's arithmetic: a real orbitals x orbitals block applied to the S spin components of a neighbour's
// x at once, the Bloch phase, and the kernel of one atom (on-site terms, then its four bonds in a fixed order).
// Compiled with the product kernels' flags (-O3 -march=native, lib/CMakeLists.txt).
#include <cmath>
#include <complex>
#include <cstring>
#include <utility>
#if defined(__FMA__)
#include <immintrin.h>
#endif

#include "operator/block/BlockOperator.hpp"

namespace tbpeta::block {

// Two rows' (re, im), and one row's: GCC/Clang vector types, lowered to whatever the target has (AVX2 here).
using Pair4 = double __attribute__((vector_size(32)));
using Pair2 = double __attribute__((vector_size(16)));

// acc + b x with one rounding per lane: an explicit fused multiply-add where the target has one, so that every kernel
// that inlines it rounds alike (the compiler's contraction of acc += b * x may differ from one inlining to another).
template <class V> // Pair4 or Pair2
inline V Fma(V b, V x, V acc) {
#if defined(__FMA__)
  if constexpr (sizeof(V) == 32) return (V)_mm256_fmadd_pd((__m256d)b, (__m256d)x, (__m256d)acc);
  else return (V)_mm_fmadd_pd((__m128d)b, (__m128d)x, (__m128d)acc);
#else
  return acc + b * x;
#endif
}

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
      for (int sp = 0; sp < S; ++sp) a[sp][k] = Fma(bb, xx[sp], a[sp][k]);
    }
    if constexpr (N % 2) {
      const Pair2 bl = {Bc[N - 1], Bc[N - 1]};
      for (int sp = 0; sp < S; ++sp) last[sp] = Fma(bl, xc[sp], last[sp]);
    }
  }
  for (int sp = 0; sp < S; ++sp) {
    std::memcpy(acc[sp], a[sp], sizeof a[sp]);
    if constexpr (N % 2) std::memcpy(acc[sp][N - 1], &last[sp], sizeof last[sp]);
  }
}

// Row pairs [K0, K1) of an atom as the kernels accumulate them, in vector registers, (re, im, re, im) each, and with
// Last an odd N's last row.
template <int N, int S, int K0, int K1, bool Last>
struct RowRange {
  Pair4 a[S][K1 - K0]{};
  Pair2 last[S]{};
  void Load(const double (*acc)[N][2]) {
    for (int sp = 0; sp < S; ++sp) {
      std::memcpy(a[sp], acc[sp][2 * K0], sizeof a[sp]);
      if constexpr (Last) std::memcpy(&last[sp], acc[sp][N - 1], sizeof last[sp]);
    }
  }
  void Store(double (*acc)[N][2]) const {
    for (int sp = 0; sp < S; ++sp) {
      std::memcpy(acc[sp][2 * K0], a[sp], sizeof a[sp]);
      if constexpr (Last) std::memcpy(acc[sp][N - 1], &last[sp], sizeof last[sp]);
    }
  }
};

// AddBlockProduct's rows of r0 and r1 for two atoms' x at once (x0 into r0, x1 into r1), held in registers: each pair
// of B loaded and spread once for both, each row taking its columns in the same order as AddBlockProduct (the same
// bits).
template <int N, int S, int K0, int K1, bool Last>
inline void AddBlockProductPair(const double *Bt, const double *x0, const double *x1, RowRange<N, S, K0, K1, Last> &r0,
                                RowRange<N, S, K0, K1, Last> &r1) {
  for (int c = 0; c < N; ++c) {
    const double *Bc = Bt + c * N;
    Pair2 xc0[S], xc1[S];
    Pair4 xx0[S], xx1[S];
    for (int sp = 0; sp < S; ++sp) {
      std::memcpy(&xc0[sp], x0 + 2 * (sp * N + c), sizeof xc0[sp]);
      std::memcpy(&xc1[sp], x1 + 2 * (sp * N + c), sizeof xc1[sp]);
      xx0[sp] = __builtin_shufflevector(xc0[sp], xc0[sp], 0, 1, 0, 1);
      xx1[sp] = __builtin_shufflevector(xc1[sp], xc1[sp], 0, 1, 0, 1);
    }
    for (int k = K0; k < K1; ++k) {
      Pair2 b;
      std::memcpy(&b, Bc + 2 * k, sizeof b);
      const Pair4 bb = __builtin_shufflevector(b, b, 0, 0, 1, 1);
      for (int sp = 0; sp < S; ++sp) {
        r0.a[sp][k - K0] = Fma(bb, xx0[sp], r0.a[sp][k - K0]);
        r1.a[sp][k - K0] = Fma(bb, xx1[sp], r1.a[sp][k - K0]);
      }
    }
    if constexpr (Last) {
      const Pair2 bl = {Bc[N - 1], Bc[N - 1]};
      for (int sp = 0; sp < S; ++sp) {
        r0.last[sp] = Fma(bl, xc0[sp], r0.last[sp]);
        r1.last[sp] = Fma(bl, xc1[sp], r1.last[sp]);
      }
    }
  }
}

// An n x n row-major block, in place, column by column (the layout AddBlockProduct reads).
inline void StoreByColumns(int n, double *B) {
  for (int r = 0; r < n; ++r)
    for (int c = r + 1; c < n; ++c) std::swap(B[r * n + c], B[c * n + r]);
}

// acc += phase t on rows [r0, r1), each entry an explicit pair of fmas (the same rounding wherever it is inlined).
template <int N, int S>
inline void AddPhased(Complex phase, const double (*t)[N][2], double (*acc)[N][2], int r0 = 0, int r1 = N) {
  const double pr = phase.real(), pi = phase.imag();
  for (int sp = 0; sp < S; ++sp)
    for (int r = r0; r < r1; ++r) {
      acc[sp][r][0] = std::fma(pr, t[sp][r][0], std::fma(-pi, t[sp][r][1], acc[sp][r][0]));
      acc[sp][r][1] = std::fma(pr, t[sp][r][1], std::fma(pi, t[sp][r][0], acc[sp][r][1]));
    }
}

// The kernel of an atom of norb orbitals and `spins` spin components (5 or 10, 1 or 2); `reference`: the kernel as it
// was before its tuning (BlockKernel::reference), kept as the benchmarks' yardstick.
AtomKernel KernelFor(int norb, int spins, bool reference);
// The kernel of two consecutive interior atoms of one configuration (BlockOperator::apply_pair).
AtomPairKernel PairKernelFor(int norb, int spins);

} // namespace tbpeta::block
