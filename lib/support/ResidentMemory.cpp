#include "support/ResidentMemory.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace tbpeta {

double ProcStatusKb(const char *field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(field);
  while (std::getline(f, line))
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') return std::atof(line.c_str() + n + 1);
  return -1;
}

bool ResetPeakResident() {
  FILE *f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool ok = std::fputs("5", f) >= 0;
  return std::fclose(f) == 0 && ok;
}

PetscErrorCode PeakResidentMb(MPI_Comm comm, double *max_over_ranks, double *sum_over_ranks) {
  double mb = ProcStatusKb("VmHWM") / 1024.0, mx = 0, sum = 0;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Allreduce(&mb, &mx, 1, MPI_DOUBLE, MPI_MAX, comm));
  PetscCallMPI(MPI_Allreduce(&mb, &sum, 1, MPI_DOUBLE, MPI_SUM, comm));
  if (max_over_ranks) *max_over_ranks = mx;
  if (sum_over_ranks) *sum_over_ranks = sum;
  PetscFunctionReturn(0);
}

double NodeMemAvailableMb() {
  std::ifstream f("/proc/meminfo");
  std::string key, unit;
  double kb;
  while (f >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb / 1024.0;
  return -1;
}

} // namespace tbpeta
