// tbpeta: electronic states of a zincblende/diamond nanostructure in nearest-neighbour empirical tight binding.
// Builds the structure and its Hamiltonian as a distributed PETSc matrix (each rank its own atoms), solves for the
// states near the gap with SLEPc (-eps_* options pass through), and writes them to HDF5 (-output FILE.h5).
static const char help[] = "tbpeta: electronic states of semiconductor nanostructures in empirical tight binding (sp3s*, sp3d5s*, spin-orbit).\n"
                           "Run with -help for every option and its default; see README.md for worked examples.\n\n";

#include <slepceps.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "application/ApplicationMain.hpp"
#include "solvers/EigenSolver.hpp"
#include "support/InterruptSignal.hpp"
#include "support/LogEvents.hpp"
#include "application/MemoryPreflight.hpp"
#include "support/ResidentMemory.hpp"
#include "io/ResultsWriter.hpp"
#include "solvers/SlepcSolver.hpp"
#include "study/SolverComparison.hpp"
#include "operator/Hamiltonian.hpp"
#include "model/TightBindingSystem.hpp"

using namespace tbpeta;

namespace {

const char *basisName(BasisModel b) { return b == BasisModel::sp3sstar ? "sp3s*" : "sp3d5s*"; }

PetscErrorCode PrintSummary(MPI_Comm comm, const TightBindingSystem &sys, const HamiltonianInfo &info, const HamiltonianOptions &hopts) {
  const Structure &s = sys.structure;
  const TightBindingModel &m = sys.model;
  PetscFunctionBeginUser;
  PetscInt mins[2] = {s.owned, s.halo()}, maxs[2] = {s.owned, s.halo()};
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, mins, 2, MPIU_INT, MPI_MIN, comm));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, maxs, 2, MPIU_INT, MPI_MAX, comm));
  std::vector<PetscInt> cations(m.materials.size(), 0);
  for (PetscInt i = 0; i < s.owned; ++i)
    if (s.sublattice(i) == Sublattice::cation) ++cations[s.material[i]];
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, cations.data(), (PetscMPIInt)cations.size(), MPIU_INT, MPI_SUM, comm));
  const auto &c = sys.cell;
  PetscCall(PetscPrintf(comm, "tbpeta: %s %s, parameter set %s (%s%s), unstrained\n", m.materials[0].anion == m.materials[0].cation ? "diamond" : "zincblende",
                        m.materials[0].material.c_str(), m.set.c_str(), basisName(m.basis), m.spin_orbit ? " + spin-orbit" : ""));
  PetscCall(PetscPrintf(comm, "  supercell      %d x %d x %d cells (a = %.5f nm), periodic %d,%d,%d, k = (%.4g, %.4g, %.4g) 2pi/a\n", c.cells[0], c.cells[1], c.cells[2], sys.a_nm,
                        c.periodic[0], c.periodic[1], c.periodic[2], c.k[0], c.k[1], c.k[2]));
  std::string mats;
  for (size_t i = 0; i < m.materials.size(); ++i) mats += (i ? ", " : "") + m.materials[i].cation + " (" + m.materials[i].material + ") " + std::to_string(cations[i]);
  PetscCall(PetscPrintf(comm, "  atoms          %" PetscInt_FMT " (cations: %s)\n", s.total, mats.c_str()));
  if (sys.nano_spec.shape != DotShape::none) {
    const char *shape = sys.nano_spec.shape == DotShape::sphere ? "sphere" : sys.nano_spec.shape == DotShape::dome ? "dome" : "box";
    const auto &ce = sys.nano.spec().center;
    PetscCall(PetscPrintf(comm, "  dot            %s %s at (%.3f, %.3f, %.3f) nm\n", sys.nano_spec.dot_material.c_str(), shape, ce[0], ce[1], ce[2]));
  }
  PetscCall(PetscPrintf(comm, "  orbitals/atom  %d (%d rows per atom with spin)\n", m.orbitals(), m.blockSize()));
  if (hopts.kind == HamiltonianKind::stored)
    PetscCall(PetscPrintf(comm, "  matrix         %s, %" PetscInt_FMT " rows, %.0f non-zeros, %.0f bytes of H per atom\n", hopts.format == MatrixFormat::aij ? "MATMPIAIJ" : "MATMPIBAIJ",
                          info.rows, info.nonzeros, info.bytes / (double)s.total));
  else
    PetscCall(PetscPrintf(comm, "  operator       %s, %" PetscInt_FMT " rows, %.0f bytes of H per atom (-hamiltonian %s)\n", HamiltonianDescription(hopts).c_str(), info.rows,
                          info.bytes / (double)s.total, HamiltonianKindName(hopts.kind)));
  const auto &g = sys.partition.grid();
  PetscCall(PetscPrintf(comm, "  process grid   %d x %d x %d (%s), owned atoms per rank min %" PetscInt_FMT " max %" PetscInt_FMT ", halo atoms min %" PetscInt_FMT " max %" PetscInt_FMT "\n", g[0], g[1],
                        g[2], partitionName(sys.partition_kind), mins[0], maxs[0], mins[1], maxs[1]));
  PetscFunctionReturn(0);
}

// Whether the Bloch vector maps to itself under k -> -k (modulo the supercell's reciprocal lattice), so that with
// spin-orbit every level has a Kramers partner. Components on open axes play no role.
bool TimeReversalInvariant(const TightBindingSystem &sys) {
  for (int a = 0; a < 3; ++a) {
    if (!sys.cell.periodic[a]) continue;
    const double twice = 2 * sys.cell.k[a] * sys.cell.cells[a]; // 2k in units of the supercell's reciprocal vector
    if (std::fabs(twice - std::round(twice)) > 1e-12) return false;
  }
  return true;
}

// Writes -output FILE.h5 (and FILE.xmf): the states (densities always when the solver returned vectors, the vectors
// themselves with -output_vectors), the structure, the solver's counters and, when given, the comparison of solvers.
PetscErrorCode WriteOutput(MPI_Comm comm, const std::string &path, const TightBindingSystem &sys, const EigenStates &states, PetscInt block_size, double gap_center,
                           PetscBool write_vectors, std::span<const ComparisonRow> compare) {
  const Structure &s = sys.structure;
  const auto &mats = sys.model.materials;
  PetscFunctionBeginUser;
  std::vector<std::string> species{mats[0].anion}, names;
  std::map<std::string, int> species_index{{mats[0].anion, 0}};
  std::vector<int> cation_species;
  for (const auto &m : mats) {
    names.push_back(m.material);
    if (!species_index.count(m.cation)) {
      species_index[m.cation] = (int)species.size();
      species.push_back(m.cation);
    }
    cation_species.push_back(species_index[m.cation]);
  }
  std::vector<PetscInt> canonical(s.owned);
  std::vector<double> pos(3 * s.owned);
  std::vector<int> sp(s.owned), mat(s.owned);
  for (PetscInt i = 0; i < s.owned; ++i) {
    canonical[i] = (PetscInt)s.lattice.canonicalIndex(s.sites[i]);
    const auto r = s.position(i, sys.a_nm);
    for (int a = 0; a < 3; ++a) pos[3 * i + a] = r[a];
    mat[i] = s.material[i];
    sp[i] = s.sublattice(i) == Sublattice::anion ? 0 : cation_species[s.material[i]];
  }
  AtomsForOutput atoms;
  atoms.canonical_index = canonical;
  atoms.positions_nm = pos;
  atoms.species = sp;
  atoms.material = mat;
  atoms.total_atoms = s.total;
  atoms.species_names = species;
  atoms.material_names = names;
  char *all = nullptr;
  PetscCall(PetscOptionsGetAll(nullptr, &all));
  std::string options = all ? all : "";
  PetscCall(PetscFree(all));
  const LogEvents *ev;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->output, 0, 0, 0, 0));
  if (write_vectors && states.vectors.empty() && !states.values.empty())
    PetscCall(PetscPrintf(comm, "tbpeta: warning: -output_vectors: the solver returned no eigenvectors, so %s has no states/vectors\n", path.c_str()));
  StatesForOutput out;
  out.eigenvalues = states.values;
  out.residuals = states.residuals;
  out.vectors = states.vectors;
  out.block_size = block_size;
  out.write_vectors = write_vectors;
  SolverForOutput solver{states.solver,
                         {{"products", (double)states.products},
                          {"iterations", (double)states.iterations},
                          {"requested", (double)states.requested},
                          {"found", (double)states.values.size()},
                          {"vectors_held", (double)states.vectors_held},
                          {"complete", states.complete ? 1.0 : 0.0},
                          {"seconds", states.seconds},
                          {"peak_rss_mb", states.peak_rss_mb}}};
  PetscCall(WriteResults(comm, path, out, atoms, options,
                         {{"program", "tbpeta"}, {"strain", "unstrained"}, {"parameter_set", sys.model.set}, {"solver", states.solver}, {"energy_unit", "eV"}},
                         {{"gap_center", gap_center}}, solver, compare));
  PetscCall(PetscLogEventEnd(ev->output, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode Run(MPI_Comm comm, int *exit_code) {
  TightBindingSystem sys;
  char output[PETSC_MAX_PATH_LEN] = "";
  PetscBool has_output = PETSC_FALSE, output_vectors = PETSC_FALSE, help = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasHelp(nullptr, &help));
  PetscOptionsBegin(comm, nullptr, "Output", "tbpeta");
  PetscCall(PetscOptionsString("-output", "Write eigenvalues, residuals, densities |psi|^2 per atom, the structure and the solver's counters to this HDF5 file (.h5), with FILE.xmf for ParaView; none by default", "tbpeta", output, output, sizeof(output), &has_output));
  // Off by default: the vectors take n x rows x 16 bytes, as much as the solver's own copies of them.
  PetscCall(PetscOptionsBool("-output_vectors", "Also write the eigenvectors (states/vectors: n x rows x 16 bytes) to the -output file", "tbpeta", output_vectors, &output_vectors, nullptr));
  PetscOptionsEnd();
  if (has_output) PetscCall(CheckOutputPath(comm, output));

  // The structure is built only after the memory preflight: everything large comes after it.
  PetscCall(TightBindingSystemFromOptions(comm, false, &sys));
  HamiltonianOptions hopts;
  PetscCall(HamiltonianOptionsFromOptions(comm, &hopts));
  SolverKind solver;
  PetscCall(SolverKindFromOptions(comm, &solver));
  double memory_limit;
  bool memory_limit_given;
  PetscCall(MemoryLimitFromOptions(comm, &memory_limit, &memory_limit_given));
  for (const auto &w : sys.model.warnings) PetscCall(PetscPrintf(comm, "tbpeta: warning: %s\n", w.c_str()));
  double vbm, cbm;
  PetscCall(BulkBandEdges(sys.model, 0, &vbm, &cbm));
  if (help) {
    // Let SLEPc list its -eps_/-st_ options too, then stop: -help describes, it does not run.
    PetscCall(ListSolverOptions(comm, 0.5 * (vbm + cbm)));
    EPS eps;
    PetscCall(EPSCreate(comm, &eps));
    PetscCall(EPSSetFromOptions(eps));
    PetscCall(EPSDestroy(&eps));
    PetscFunctionReturn(0);
  }

  Mat H;
  HamiltonianInfo info;
  {
    // The memory estimate before anything large is allocated, against the measured peak printed after the solve;
    // a run that cannot fit stops here.
    PetscInt nvec;
    PetscCall(EstimateVectorsHeld(comm, solver, 0.5 * (vbm + cbm), &nvec));
    MemoryEstimate est;
    PetscCall(EstimateRunMemory(comm, sys, hopts, nvec, &est));
    const double MB = 1048576.0;
    PetscCall(PetscPrintf(comm, "memory estimate per rank (largest): %.1f MB = structure %.1f MB + H %s %.1f MB + solver about %" PetscInt_FMT " vectors %.1f MB + runtime %.1f MB (limit %.0f MB)\n",
                          est.total() / MB, est.structure / MB, HamiltonianKindName(hopts.kind), est.hamiltonian / MB, nvec, est.vectors / MB, est.runtime / MB, memory_limit));
    PetscCall(CheckMemoryFits(comm, sys, hopts, est, memory_limit, memory_limit_given));
  }
  PetscCall(Structure::Create(comm, sys.lattice, sys.partition, sys.nano, &sys.structure));
  PetscCall(CheckInterrupted(comm, "building the structure"));
  PetscCall(CreateHamiltonian(comm, sys.structure, sys.model, sys.cell.k, hopts, &H, &info));
  PetscCall(CheckInterrupted(comm, "building H"));
  PetscCall(PrintSummary(comm, sys, info, hopts));
  PetscCall(PetscPrintf(comm, "  host bulk      VBM %.4f eV, CBM %.4f eV (8-atom cell at Gamma), default -eps_target = midgap %.4f eV\n", vbm, cbm, 0.5 * (vbm + cbm)));

  EigenStates states;
  const auto rows = sys.structure.canonicalRows(info.block_size);
  const int kramers = sys.model.spin_orbit && TimeReversalInvariant(sys) ? info.block_size : 0;
  std::vector<ComparisonRow> compare;
  if (solver == SolverKind::compare) {
    // Every solver on this H; the file gets the reference run's states (no vectors: each run's are freed) and
    // the table.
    CompareOptions co;
    PetscCall(CompareOptionsFromOptions(comm, 0.5 * (vbm + cbm), &co));
    PetscCall(CompareSolvers(H, rows, kramers, co, &compare));
    PetscCall(PrintComparison(comm, compare, co.level_tol));
    for (const ComparisonRow &r : compare)
      if (r.reference) {
        states.values = r.values, states.residuals = r.residuals, states.solver = "compare, reference " + r.solver;
        states.products = r.products, states.iterations = r.iterations, states.vectors_held = r.vectors_held, states.seconds = r.seconds,
        states.peak_rss_mb = r.peak_rss_mb, states.requested = r.requested;
      }
  } else {
    PetscCall(SolveFromOptions(H, solver, 0.5 * (vbm + cbm), rows, kramers, true, &states));
    // A run stopped at its limits keeps what converged (marked incomplete); one that found nothing is an error.
    PetscCheck(states.complete || !states.values.empty(), comm, PETSC_ERR_NOT_CONVERGED,
               "%s: no state converged within the solver's limits (%" PetscInt_FMT " products of H, %" PetscInt_FMT " iterations); nothing written (raise -lanczos_max_steps, -eps_max_it or -folded_eps_max_it)",
               states.solver.c_str(), states.products, states.iterations);
    if (!states.complete)
      PetscCall(PetscPrintf(comm, "tbpeta: warning: incomplete: %zu of %" PetscInt_FMT " requested states converged within the solver's limits; they are kept%s\n", states.values.size(),
                            states.requested, has_output ? " and the output marks the run incomplete (solver/complete = 0)" : ""));
    PetscCall(PetscPrintf(comm, "eigenvalues (%s): %zu converged of %" PetscInt_FMT " requested, %" PetscInt_FMT " iterations, %" PetscInt_FMT " products of H, %.3f s, peak %.1f MB per rank, %" PetscInt_FMT " vectors held\n",
                          states.solver.c_str(), states.values.size(), states.requested, states.iterations, states.products, states.seconds, states.peak_rss_mb, states.vectors_held));
    PetscCall(PetscPrintf(comm, "  %5s  %14s  %12s\n", "state", "E (eV)", "||Hx-Ex||"));
    for (size_t i = 0; i < states.values.size(); ++i) PetscCall(PetscPrintf(comm, "  %5zu  %14.8f  %12.3e\n", i, states.values[i], states.residuals[i]));
  }
  if (has_output) {
    PetscCall(WriteOutput(comm, output, sys, states, info.block_size, 0.5 * (vbm + cbm), output_vectors, compare));
    PetscCall(PetscPrintf(comm, "wrote %s and %s\n", output, XdmfPath(output).c_str()));
  }
  double peak_max, peak_sum;
  PetscCall(PeakResidentMb(comm, &peak_max, &peak_sum));
  PetscCall(PetscPrintf(comm, "peak resident memory (VmHWM): %.1f MB on the largest rank, %.1f MB over all ranks\n", peak_max, peak_sum));
  states.DestroyVectors();
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "tbpeta", Run); }
