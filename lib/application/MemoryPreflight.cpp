// The memory preflight: each owner estimates its term from this rank's counts, before anything is built (the atoms and
// halo from the planes of the rank's box, CountDomainHalo; H's entries and bonds, CountOperator), the solver's vectors
// come from its EPS type, the runtime is measured; each term's largest rank is taken.
#include "application/MemoryPreflight.hpp"

#include <cmath>
#include <cstdio>

#include "fields/SystemFields.hpp"
#include "geometry/HaloAnalysis.hpp"
#include "strain/SystemRelaxation.hpp"
#include "support/ResidentMemory.hpp"

namespace tbpeta {

namespace {

constexpr double kMB = 1048576.0;

bool BeforeH(MemoryPhase p) { return p == MemoryPhase::relaxation || p == MemoryPhase::fields; }

// "structure 12 MB, H aij 3 MB, ...", the terms of the phases before H marked so.
std::string ListTerms(const MemoryEstimate &est) {
  std::string list;
  for (const PreflightTerm &t : est.terms) {
    char text[160];
    std::snprintf(text, sizeof text, "%s%s %.0f MB%s", list.empty() ? "" : ", ", t.name.c_str(), t.bytes / kMB,
                  BeforeH(t.phase) ? " before H" : "");
    list += text;
  }
  return list;
}

} // namespace

double MemoryEstimate::phase(MemoryPhase p) const {
  double sum = 0;
  for (const PreflightTerm &t : terms)
    if (t.phase == p) sum += t.bytes;
  return sum;
}

double MemoryEstimate::bytesOf(const std::string &name_start) const {
  double sum = 0;
  for (const PreflightTerm &t : terms)
    if (t.name.rfind(name_start, 0) == 0) sum += t.bytes;
  return sum;
}

PetscErrorCode EstimateRunMemory(MPI_Comm comm, const TightBindingSystem &sys, const HamiltonianOptions *hopts,
                                 PetscInt vectors_held, MemoryEstimate *est) {
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  const DomainHalo d = CountDomainHalo(sys.lattice, sys.partition, rank);
  FieldsEstimate fields; // the on-site terms: a potential on every owned atom when one is on, and their computation
  PetscCall(EstimateSystemFields(comm, sys, &fields));
  const bool potential = fields.on;
  enum { structure, hamiltonian, vectors, runtime, relaxation, fields_compute, terms };
  double bytes[terms];
  bytes[structure] = Structure::EstimateBytes(d.owned, d.halo, sys.spec.strain.on(), potential);
  bytes[hamiltonian] =
      hopts ? EstimateHamiltonianBytes(CountOperator(sys.lattice, sys.partition, rank, sys.model, potential), *hopts)
            : 0;
  bytes[vectors] = (double)vectors_held * (double)d.owned * sys.model.blockSize() * sizeof(PetscScalar);
  bytes[runtime] = std::max(0.0, ProcStatusKb("VmRSS") * 1024.0); // MPI, PETSc, SLEPc and the executable, now
  PetscCall(EstimateSystemRelaxation(comm, sys, &bytes[relaxation]));
  bytes[fields_compute] = fields.compute_bytes;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, bytes, terms, MPI_DOUBLE, MPI_MAX, comm));
  MemoryEstimate e;
  e.vectors_held = vectors_held;
  e.terms = {
      {"structure", bytes[structure], MemoryPhase::whole_run},
      {"H " + (hopts ? hopts->kind : std::string("none")), bytes[hamiltonian], MemoryPhase::solve},
      {"solver about " + std::to_string((long long)vectors_held) + " vectors", bytes[vectors], MemoryPhase::solve},
      {"runtime", bytes[runtime], MemoryPhase::whole_run}};
  if (bytes[relaxation] > 0) e.terms.push_back({"relaxation", bytes[relaxation], MemoryPhase::relaxation});
  if (bytes[fields_compute] > 0) e.terms.push_back({fields.compute, bytes[fields_compute], MemoryPhase::fields});
  *est = std::move(e);
  PetscFunctionReturn(0);
}

PetscErrorCode PrintMemoryEstimate(MPI_Comm comm, const MemoryEstimate &est, double limit_mb) {
  std::string sum;
  PetscFunctionBeginUser;
  for (const PreflightTerm &t : est.terms) {
    if (BeforeH(t.phase)) continue;
    char text[160];
    std::snprintf(text, sizeof text, "%s%s %.1f MB", sum.empty() ? "" : " + ", t.name.c_str(), t.bytes / kMB);
    sum += text;
  }
  PetscCall(PetscPrintf(comm, "memory estimate per rank (largest): %.1f MB = %s (limit %.0f MB)\n", est.total() / kMB,
                        sum.c_str(), limit_mb));
  for (const PreflightTerm &t : est.terms)
    if (BeforeH(t.phase))
      PetscCall(PetscPrintf(comm, "  (the %s before H: %.1f MB, counted in place of H and the vectors when larger)\n",
                            t.name.c_str(), t.bytes / kMB));
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
  const double runtime = est.bytesOf("runtime"), scalable = est.total() - runtime, room = limit_mb * kMB - runtime;
  if (room > 0)
    hints += "about " + std::to_string((long long)std::ceil(size * scalable / room)) + " ranks (mpiexec -n)";
  if (hopts.kind != "shell") {
    HamiltonianOptions shell;
    shell.kind = "shell";
    MemoryEstimate on_the_fly;
    PetscCall(EstimateRunMemory(comm, sys, &shell, est.vectors_held, &on_the_fly));
    char text[160];
    std::snprintf(text, sizeof text, "-hamiltonian shell (then %.0f MB per rank)", on_the_fly.total() / kMB);
    hints += (hints.empty() ? "" : ", ") + std::string(text);
  }
  if (est.bytesOf("solver") > 0.25 * est.total())
    hints += (hints.empty() ? "" : ", or ") + std::string("fewer states (-eps_nev)");
  SETERRQ(comm, PETSC_ERR_USER_INPUT,
          "-memory_limit: this run needs about %.0f MB per rank (%s) but %s %.0f MB per rank; to fit, use %s",
          est.total() / kMB, ListTerms(est).c_str(),
          given ? "-memory_limit is" : "the node has (MemAvailable / ranks on the node)", limit_mb,
          hints.empty() ? "a machine with more memory" : hints.c_str());
}

} // namespace tbpeta
