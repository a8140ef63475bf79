#include "support/BlasLimits.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>

namespace tbpeta {

std::string BlasKernelName() {
  // OpenBLAS's own query, when OpenBLAS is loaded (PETSc's dependencies load libopenblas.so.0 on Debian).
  using CoreName = char *(*)();
  const auto f = reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  std::string name = f ? f() : "";
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  return name;
}

PetscInt BlasGemvRowLimit() {
  const std::string name = BlasKernelName();
  for (const char *bad : {"prescott", "atom", "opteron", "bulldozer", "piledriver", "steamroller", "excavator"})
    if (name == bad) return (PetscInt(1) << 23) - 1; // 128 MiB of complex doubles
  return PETSC_MAX_INT;
}

} // namespace tbpeta
