#pragma once
// A counter-based hash (splitmix64, Steele, Lea & Flood, OOPSLA 2014): the same input gives the same bits on any
// machine and rank, so random choices made per atom or per row (alloy draws, Lanczos start vectors) do not depend on
// the number of ranks or the order of the work.
#include <cstdint>

namespace tbpeta {

constexpr std::uint64_t MixBits(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The top 53 bits of a hash as a double in [0, 1).
constexpr double UnitInterval(std::uint64_t bits) { return (double)(bits >> 11) * 0x1.0p-53; }

} // namespace tbpeta
