// The memory preflight: each rank counts its atoms and halo from the planes of its box (nothing allocated), H's
// bytes per atom come from EstimateHamiltonianBytes on two tiny periodic cells of the host (the estimate is affine
// in the atoms: a per-atom part and a constant part), the vectors from the solver's options.
#include "application/MemoryPreflight.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>

#include "fields/SystemFields.hpp"
#include "geometry/HaloAnalysis.hpp"
#include "model/BulkCell.hpp"
#include "support/ResidentMemory.hpp"

namespace tbpeta {

namespace {

constexpr double kMB = 1048576.0;

// Bytes of H of kind `hopts` per owned atom and per structure, from periodic bulk cells of 1 and 2 cubic cells of the
// host (8 and 64 atoms, every bond present, no halo).
PetscErrorCode HamiltonianBytesPerAtom(const TightBindingSystem &sys, const HamiltonianOptions &hopts, double *per_atom,
                                       double *constant) {
  double bytes[2];
  PetscFunctionBeginUser;
  for (int n = 1; n <= 2; ++n) {
    BulkCell cell;
    PetscCall(CreateBulkCell(sys.model, 0, n, &cell));
    bytes[n - 1] = EstimateHamiltonianBytes(cell.structure, cell.model, hopts);
  }
  *per_atom = (bytes[1] - bytes[0]) / 56.0;
  *constant = std::max(0.0, bytes[0] - 8 * *per_atom);
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode EstimateRunMemory(MPI_Comm comm, const TightBindingSystem &sys, const HamiltonianOptions &hopts,
                                 PetscInt vectors_held, MemoryEstimate *est) {
  PetscMPIInt rank;
  double per_atom = 0, constant = 0;
  FieldsEstimate fields;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  const DomainHalo d = CountDomainHalo(sys.lattice, sys.partition, rank);
  const double bs = sys.model.blockSize();
  PetscCall(HamiltonianBytesPerAtom(sys, hopts, &per_atom, &constant));
  PetscCall(EstimateSystemFields(comm, sys, &fields)); // what the on-site terms allocate while they compute
  bool open = false;
  for (int a = 0; a < 3; ++a) open = open || !sys.spec.cell.periodic[a];
  MemoryEstimate e;
  // Structure: per owned atom its site, material, bonds and wraps; per halo atom its site, material and global index;
  // each atom's displacement only when a relaxation sets them; the potential on an owned atom when an on-site term is
  // on (and as much again in the shell of an unstrained H, which keeps its own copy).
  const double displacement = sys.spec.strain.on() ? 3 * sizeof(double) : 0;
  const double potential = fields.on ? (sys.spec.strain.on() ? 1 : 2) * sizeof(double) : 0;
  const double owned_bytes =
      sizeof(PlaneIndex) + sizeof(std::uint8_t) + displacement + potential + 4 * sizeof(int) + sizeof(std::uint32_t);
  const double halo_bytes = sizeof(PlaneIndex) + sizeof(std::uint8_t) + displacement + sizeof(PetscInt);
  e.structure = (double)d.owned * owned_bytes + (double)d.halo * halo_bytes;
  // H: its own arrays, the halo buffers (at most three vectors of the halo's rows) and the dangling-bond blocks.
  e.hamiltonian =
      per_atom * (double)d.owned + constant + 3 * (double)d.halo * bs * sizeof(PetscScalar) + (open ? 1024.0 * 32 : 0);
  e.vectors = (double)vectors_held * (double)d.owned * bs * sizeof(PetscScalar);
  e.fields = fields.compute_bytes;
  const double rss_kb = ProcStatusKb("VmRSS");
  e.runtime = rss_kb > 0 ? rss_kb * 1024.0 : 0;
  e.vectors_held = vectors_held;
  double parts[4] = {e.structure, e.hamiltonian, e.vectors, e.runtime};
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, parts, 4, MPI_DOUBLE, MPI_MAX, comm));
  e.structure = parts[0], e.hamiltonian = parts[1], e.vectors = parts[2], e.runtime = parts[3];
  *est = e;
  PetscFunctionReturn(0);
}

PetscErrorCode MemoryLimitFromOptions(MPI_Comm comm, double *limit_mb, bool *given) {
  PetscReal limit = 0;
  PetscBool set = PETSC_FALSE;
  PetscFunctionBeginUser;
  // The default: what this node has free, shared by the ranks on it.
  MPI_Comm node;
  PetscMPIInt on_node;
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_size(node, &on_node));
  PetscCallMPI(MPI_Comm_free(&node));
  double available = NodeMemAvailableMb();
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &available, 1, MPI_DOUBLE, MPI_MIN, comm));
  const double fallback = available > 0 ? available / on_node : 0;
  PetscOptionsBegin(comm, nullptr, "Memory preflight", "tbpeta");
  PetscCall(PetscOptionsReal("-memory_limit",
                             "Refuse a run whose estimated memory per rank exceeds this many MB (default: MemAvailable "
                             "of the node / ranks on the node)",
                             "tbpeta", fallback, &limit, &set));
  PetscOptionsEnd();
  if (set)
    PetscCheck(std::isfinite(limit) && limit > 0, comm, PETSC_ERR_USER_INPUT,
               "-memory_limit: must be a positive number of MB per rank, got %g", (double)limit);
  *limit_mb = set ? limit : fallback;
  *given = set;
  PetscFunctionReturn(0);
}

PetscErrorCode CheckMemoryFits(MPI_Comm comm, const TightBindingSystem &sys, const HamiltonianOptions &hopts,
                               const MemoryEstimate &est, double limit_mb, bool given) {
  PetscMPIInt size;
  PetscFunctionBeginUser;
  if (limit_mb <= 0 || est.total() <= limit_mb * kMB)
    PetscFunctionReturn(0); // no limit known (no /proc/meminfo), or it fits
  PetscCallMPI(MPI_Comm_size(comm, &size));
  std::string hints;
  const double scalable = est.structure + est.hamiltonian + est.vectors, room = limit_mb * kMB - est.runtime;
  if (room > 0)
    hints += "about " + std::to_string((long long)std::ceil(size * scalable / room)) + " ranks (mpiexec -n)";
  if (hopts.kind != "shell") {
    HamiltonianOptions shell = hopts;
    shell.kind = "shell";
    MemoryEstimate on_the_fly;
    PetscCall(EstimateRunMemory(comm, sys, shell, est.vectors_held, &on_the_fly));
    char text[160];
    std::snprintf(text, sizeof text, "-hamiltonian shell (then %.0f MB per rank)", on_the_fly.total() / kMB);
    hints += (hints.empty() ? "" : ", ") + std::string(text);
  }
  if (est.vectors > 0.25 * est.total())
    hints += (hints.empty() ? "" : ", or ") + std::string("fewer states (-eps_nev)");
  SETERRQ(comm, PETSC_ERR_USER_INPUT,
          "-memory_limit: this run needs about %.0f MB per rank (structure %.0f MB, H %s %.0f MB, %" PetscInt_FMT
          " solver vectors %.0f MB, runtime %.0f MB) but %s %.0f MB per rank; to fit, use %s",
          est.total() / kMB, est.structure / kMB, hopts.kind.c_str(), est.hamiltonian / kMB, est.vectors_held,
          est.vectors / kMB, est.runtime / kMB,
          given ? "-memory_limit is" : "the node has (MemAvailable / ranks on the node)", limit_mb,
          hints.empty() ? "a machine with more memory" : hints.c_str());
}

} // namespace tbpeta
