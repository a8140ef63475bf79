#include "support/LargeArrays.hpp"

#include <malloc.h>
#include <sys/mman.h>

namespace tbpeta {

void ReturnFreedMemory() {
  constexpr int kMiB = 1 << 20;
  (void)mallopt(M_MMAP_THRESHOLD, 32 * kMiB); // the largest threshold glibc's own adaptive rule would reach
  (void)mallopt(M_TRIM_THRESHOLD, 64 * kMiB);
  (void)mallopt(M_MMAP_MAX, 65536); // glibc's default
}

void TrimFreedHeap() { (void)malloc_trim(0); }

void *AllocateLarge(std::size_t bytes) {
  constexpr std::size_t kHuge = std::size_t(2) << 20;
#ifdef MADV_HUGEPAGE
  if (bytes >= kHuge / 8) { // one huge page against 64 or more faults of 4 KiB
    const std::size_t len = (bytes + kHuge - 1) / kHuge * kHuge;
    if (void *p = std::aligned_alloc(kHuge, len)) {
      (void)madvise(p, len, MADV_HUGEPAGE); // advice only: without huge pages the memory is still good
      return p;
    }
  }
#endif
  return std::malloc(bytes ? bytes : 1);
}

} // namespace tbpeta
