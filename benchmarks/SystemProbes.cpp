#include "SystemProbes.hpp"

#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "support/Help.hpp"

namespace tbpeta::bench {

double MaxOverRanks(MPI_Comm comm, double v) {
  double r = v;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, comm);
  return r;
}

double SumOverRanks(MPI_Comm comm, double v) {
  double r = v;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_SUM, comm);
  return r;
}

void CpuSeconds(double *user, double *sys) {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  *user = u.ru_utime.tv_sec + 1e-6 * u.ru_utime.tv_usec;
  *sys = u.ru_stime.tv_sec + 1e-6 * u.ru_stime.tv_usec;
}

double MinorFaults() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_minflt;
}

double FirstTouchSecondsPerGb(size_t bytes, bool huge) {
  constexpr size_t kHuge = size_t(2) << 20;
  bytes = (bytes + kHuge - 1) / kHuge * kHuge;
  void *m = mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NAN;
  char *p = reinterpret_cast<char *>((reinterpret_cast<std::uintptr_t>(m) + kHuge - 1) / kHuge * kHuge);
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
  (void)madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#endif
  const double t0 = MPI_Wtime();
  std::memset(p, 1, bytes);
  const double t = MPI_Wtime() - t0;
  munmap(m, bytes + kHuge);
  return t / (bytes / 1e9);
}

PetscErrorCode TriadGBs(MPI_Comm comm, double mb, double *gbs) {
  const size_t n = (size_t)(mb * 1048576 / 8);
  std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
  double best = 1e30;
  PetscMPIInt size;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  for (int rep = 0; rep < 6; ++rep) {
    const double s = 1.0 + 1e-3 * rep;
    double dt;
    PetscCall(TimeOnRanks(
        comm,
        [&]() -> PetscErrorCode {
          for (size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
          return 0;
        },
        &dt));
    if (rep > 0) best = std::min(best, dt); // the first touches the pages
  }
  volatile double sink = a[n / 2];
  (void)sink;
  *gbs = 24.0 * (double)n * size / best / 1e9;
  PetscFunctionReturn(0);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double FitExponent(const std::vector<double> &x, const std::vector<double> &y) {
  const size_t n = x.size();
  if (n < 2) return NAN;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

PetscErrorCode BulkGaAsCube(MPI_Comm comm, const std::string &set, int n, SystemSpec *spec) {
  PetscFunctionBeginUser;
  *spec = SystemSpec{};
  spec->model.set = set, spec->model.host = "GaAs", spec->cell.cells = {n, n, n};
  PetscCall(PartitionSpecFromOptions(comm, &spec->partition));
  PetscFunctionReturn(0);
}

PetscErrorCode ListPartitionOptions(MPI_Comm comm) {
  PartitionSpec partition;
  PetscFunctionBeginUser;
  if (HelpRequested()) PetscCall(PartitionSpecFromOptions(comm, &partition));
  PetscFunctionReturn(0);
}

} // namespace tbpeta::bench
