#pragma once
// Storage for large arrays (per-atom tables, matrix entries) in transparent huge pages where the kernel offers them.
// Each first touch of a fresh 4 KiB page is a page fault; on this project's virtual machines one costs about 10 µs
// (2.6 s per GB), more than computing what the page holds. A block of 256 KiB or more is therefore aligned to 2 MiB
// and advised with MADV_HUGEPAGE: one fault per 2 MiB page where the kernel has one free.
#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace tbpeta {

// Blocks from 32 MiB up (the vectors of H at scale) mapped on their own, so that freeing one returns it to the system,
// and the heap's free top returned from 64 MiB. A library that PETSc loads (SuperLU_DIST) turns both off in its
// constructor (mallopt M_MMAP_MAX 0, M_TRIM_THRESHOLD -1): every vector a run ever freed would then stay resident, and
// a vector freed to make room for a larger one would leave a hole. Call it at the start of main. Not collective.
void ReturnFreedMemory();

// Hands the heap's free pages back to the system (malloc_trim), not only its free top: a phase that frees many
// middle-sized blocks (the relaxation's and the Poisson solve's PETSc objects) otherwise leaves them resident
// beneath the next phase's vectors, which are mapped afresh. Call it between phases. Not collective.
void TrimFreedHeap();

// Uninitialised memory for `bytes` (never null for bytes = 0), freed with std::free; null when out of memory.
void *AllocateLarge(std::size_t bytes);

// std::allocator's contract on AllocateLarge.
template <class T>
struct LargeArrayAllocator {
  using value_type = T;
  LargeArrayAllocator() = default;
  template <class U>
  LargeArrayAllocator(const LargeArrayAllocator<U> &) {}
  T *allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    void *p = AllocateLarge(n * sizeof(T));
    if (!p) throw std::bad_alloc();
    return static_cast<T *>(p);
  }
  void deallocate(T *p, std::size_t) { std::free(p); }
  template <class U>
  bool operator==(const LargeArrayAllocator<U> &) const {
    return true;
  }
};

// A per-atom array: a std::vector in huge pages once it reaches 256 KiB.
template <class T>
using LargeVector = std::vector<T, LargeArrayAllocator<T>>;

} // namespace tbpeta
