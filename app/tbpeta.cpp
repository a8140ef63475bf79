// tbpeta: electronic states of a zincblende/diamond nanostructure in nearest-neighbour empirical tight binding.
// Builds the structure and its Hamiltonian (each rank its own atoms), solves for the states near the gap with any
// SLEPc eigen-solver type (tbpeta's nemo Lanczos by default, -eps_* options), or compares the solvers (-compare),
// and writes the results to HDF5 (-output FILE.h5).
static const char help[] = "tbpeta: electronic states of semiconductor nanostructures in empirical tight binding "
                           "(sp3s*, sp3d5s*, spin-orbit).\n"
                           "Run with -help for every option and its default; docs/ is the manual.\n\n";

#include <slepceps.h>

#include <algorithm>
#include <string>
#include <vector>

#include "application/ApplicationMain.hpp"
#include "application/MemoryPreflight.hpp"
#include "application/OpticsReport.hpp"
#include "application/OptionsCheck.hpp"
#include "optics/MomentumElements.hpp"
#include "solvers/SolverTraits.hpp"
#include "application/RunOutput.hpp"
#include "application/StatesReport.hpp"
#include "application/FieldsSummary.hpp"
#include "application/StrainSummary.hpp"
#include "application/SystemSummary.hpp"
#include "bulk/CellSpectrum.hpp"
#include "fields/SystemFields.hpp"
#include "geometry/CompositionOutput.hpp"
#include "operator/Hamiltonian.hpp"
#include "solvers/EigenSolve.hpp"
#include "strain/StrainOutput.hpp"
#include "strain/SystemRelaxation.hpp"
#include "study/ComparisonReport.hpp"
#include "study/SolverComparison.hpp"
#include "support/InterruptSignal.hpp"
#include "support/PetscHandle.hpp"
#include "support/ResidentMemory.hpp"

using namespace tbpeta;

namespace {

// Everything the options choose, read before anything large is built.
struct RunSettings {
  TightBindingSystem sys; // without its atoms yet
  HamiltonianOptions hopts;
  SolverPolicy policy;
  RunOutputOptions output;
  PetscBool compare = PETSC_FALSE;
  PetscBool solve = PETSC_TRUE; // -solve false: the structure (relaxed if asked) and its file, no H, no eigen-solve
  CompareOptions compare_opts;
  OpticsOptions optics;
  double memory_limit = 0; // MB per rank
  bool memory_limit_given = false;
  double vbm = 0, cbm = 0;
  double midgap() const { return 0.5 * (vbm + cbm); }
};

PetscErrorCode ReadSettings(MPI_Comm comm, RunSettings *rs) {
  SystemSpec spec;
  PetscFunctionBeginUser;
  PetscCall(RunOutputOptionsFromOptions(comm, &rs->output));
  PetscCall(SystemSpecFromOptions(comm, SystemSpec{}, &spec));
  PetscCall(CreateTightBindingSystem(comm, spec, &rs->sys));
  PetscCall(HamiltonianOptionsFromOptions(comm, &rs->hopts));
  PetscCall(SolverPolicyFromOptions(comm, &rs->policy));
  PetscCall(MemoryLimitFromOptions(comm, &rs->memory_limit, &rs->memory_limit_given));
  PetscOptionsBegin(comm, nullptr, "What to compute: a solve, a comparison of eigen-solvers, or the structure alone",
                    "tbpeta");
  PetscCall(PetscOptionsBool("-compare",
                             "Run every solver of -compare_runs on H and compare them (-compare_* options; each run's "
                             "EPS has the prefix <run>_)",
                             "tbpeta", rs->compare, &rs->compare, nullptr));
  PetscCall(PetscOptionsBool("-solve",
                             "Build H and solve for the states; false: build the structure, relax it if asked and "
                             "write -output (structure, composition, strain) only",
                             "tbpeta", rs->solve, &rs->solve, nullptr));
  PetscOptionsEnd();
  PetscCheck(rs->solve || !rs->compare, comm, PETSC_ERR_USER_INPUT, "-compare needs a solve: drop -solve false");
  PetscCall(OpticsOptionsFromOptions(comm, &rs->optics));
  PetscCheck(!rs->optics.on || (rs->solve && !rs->compare), comm, PETSC_ERR_USER_INPUT,
             "-optics needs the states of one solve: not with -compare or -solve false");
  for (const auto &w : rs->sys.model.warnings) PetscCall(PetscPrintf(comm, "tbpeta: warning: %s\n", w.c_str()));
  PetscCall(BulkBandEdges(rs->sys.model, 0, &rs->vbm, &rs->cbm));
  CompareOptions defaults;
  defaults.gap_center = rs->midgap();
  if (rs->compare) PetscCall(CompareOptionsFromOptions(comm, defaults, &rs->compare_opts));
  PetscFunctionReturn(0);
}

// -help: every option of the application, of its eigen-solvers (tbpeta's and SLEPc's) and of the comparison.
PetscErrorCode ListOptions(MPI_Comm comm, const RunSettings &rs) {
  CompareOptions co, defaults;
  PetscFunctionBeginUser;
  PetscCall(ListEigenSolverOptions(comm, rs.midgap()));
  defaults.gap_center = rs.midgap();
  PetscCall(CompareOptionsFromOptions(comm, defaults, &co));
  PetscCall(ListRelaxationOptions(comm));
  PetscCall(ListFieldOptions(comm));
  PetscFunctionReturn(0);
}

// -optics reads the states' vectors: a solver that returns none is refused before the work.
PetscErrorCode CheckOpticsSolver(EPS eps) {
  TbEPSTraits traits;
  EPSType type;
  std::string hint;
  PetscFunctionBeginUser;
  PetscCall(TbEPSGetTraits(eps, &traits));
  PetscCall(EPSGetType(eps, &type));
  PetscCall(TbEPSGetHint(eps, TbEPSHint::vectors, &hint));
  PetscCheck(traits.returns_vectors, PetscObjectComm((PetscObject)eps), PETSC_ERR_USER_INPUT,
             "-optics: the solver returns no eigenvectors (-eps_type %s as set); %s", type, hint.c_str());
  PetscFunctionReturn(0);
}

// The memory estimate before anything large is allocated; a run that cannot fit stops here.
PetscErrorCode Preflight(MPI_Comm comm, const RunSettings &rs, EPS eps) {
  PetscInt nvec;
  MemoryEstimate est;
  OperatorProperties planned; // what H will be, for the solver's estimate (the properties H will carry)
  PetscFunctionBeginUser;
  PetscCall(PlannedOperatorProperties(comm, rs.sys.model, rs.sys.lattice, rs.sys.spec.cell.k, rs.hopts, &planned));
  if (!rs.solve) nvec = 0;
  else if (rs.compare) PetscCall(EstimateComparisonVectors(comm, rs.compare_opts, planned, &nvec));
  else PetscCall(EstimateVectorsHeld(eps, planned, &nvec));
  if (rs.optics.on) { // after the solve: its states, and the momentum elements' vectors beside them
    PetscCall(CheckOpticsSolver(eps));
    PetscInt nev;
    PetscCall(EPSGetDimensions(eps, &nev, nullptr, nullptr));
    nvec = std::max(nvec, nev + kMomentumVectors);
  }
  PetscCall(EstimateRunMemory(comm, rs.sys, rs.solve ? &rs.hopts : nullptr, nvec, &est)); // -solve false: no H
  PetscCall(PrintMemoryEstimate(comm, est, rs.memory_limit));
  PetscCall(CheckMemoryFits(comm, rs.sys, rs.hopts, est, rs.memory_limit, rs.memory_limit_given));
  PetscFunctionReturn(0);
}

// -compare: every run on H; the file gets the reference run's states (no vectors: each run's are freed) and the table.
PetscErrorCode Compare(MPI_Comm comm, const RunSettings &rs, Mat H, EigenStates *states, RunResults *results) {
  std::vector<ComparisonRow> rows;
  PetscFunctionBeginUser;
  PetscCall(CompareSolvers(H, rs.compare_opts, &rows));
  PetscCall(PrintComparison(comm, rows, rs.compare_opts.level_tol));
  for (const ComparisonRow &r : rows)
    if (r.reference) {
      *states = r; // the reference run's record of its solve (its vectors went with its solver)
      states->solver = "compare, reference " + r.solver;
    }
  results->Add(ResultsPart{.tables = {ComparisonTable(rows)}});
  PetscFunctionReturn(0);
}

// The solve: states, warnings and the table of states; a run that found nothing is an error.
PetscErrorCode Solve(MPI_Comm comm, const RunSettings &rs, EPS eps, Mat H, EigenStates *states) {
  std::string hint;
  PetscFunctionBeginUser;
  PetscCall(SolveEigenproblem(eps, H, rs.policy, states));
  PetscCall(PrintSolveWarnings(eps, *states));
  // A run stopped at its limits keeps what converged (marked incomplete); one that found nothing is an error.
  PetscCall(TbEPSGetHint(eps, TbEPSHint::limits, &hint));
  PetscCheck(states->complete || !states->values.empty(), comm, PETSC_ERR_NOT_CONVERGED,
             "%s: no state converged within the solver's limits (%" PetscInt_FMT " products of H, %" PetscInt_FMT
             " iterations); nothing written (%s)",
             states->solver.c_str(), states->products, states->iterations, hint.c_str());
  if (!states->complete)
    PetscCall(
        PetscPrintf(comm,
                    "tbpeta: warning: incomplete: %zu of %" PetscInt_FMT
                    " requested states converged within the solver's limits; they are kept%s\n",
                    states->values.size(), states->requested,
                    rs.output.path.empty() ? "" : " and the output marks the run incomplete (solver/complete = 0)"));
  PetscCall(PetscPrintf(comm,
                        "eigenvalues (%s): %zu converged of %" PetscInt_FMT " requested, %" PetscInt_FMT
                        " iterations, %" PetscInt_FMT " products of H, %.3f s\n",
                        states->solver.c_str(), states->values.size(), states->requested, states->iterations,
                        states->products, states->seconds));
  PetscFunctionReturn(0);
}

PetscErrorCode Run(MPI_Comm comm, int *) {
  RunSettings rs;
  OwnedEPS eps;
  OwnedMat H;
  EigenStates states;
  SystemStrain strain;
  SystemFields fields;
  HostGap gap;
  StateBinding binding;
  RunResults results(rs.sys); // what -output writes, each stage's part added where it runs
  double peak_max, peak_sum;
  PetscFunctionBeginUser;
  PetscCall(ReadSettings(comm, &rs));
  results.Add(ResultsPart{.values = {{"gap_center", rs.midgap()}}});
  if (HelpRequested()) PetscCall(ListOptions(comm, rs)); // -help describes, it does not run
  if (HelpRequested()) PetscFunctionReturn(0);
  if (!rs.compare && rs.solve) PetscCall(CreateEigenSolver(comm, nullptr, rs.midgap(), eps.out()));
  // A misspelt option, named now rather than after the solve: every option the run will read has been read, or is
  // read here (the comparison's runs, the relaxation's solvers), and the listing of -help names the known ones.
  PetscCall(CheckOptionsBeforeWork(comm, "tbpeta", [&]() -> PetscErrorCode {
    RunSettings listed;
    PetscInt vectors;
    PetscFunctionBeginUser;
    PetscCall(ReadSettings(comm, &listed));
    PetscCall(ListOptions(comm, listed));
    if (listed.compare) {
      OperatorProperties planned;
      PetscCall(PlannedOperatorProperties(comm, listed.sys.model, listed.sys.lattice, listed.sys.spec.cell.k,
                                          listed.hopts, &planned));
      PetscCall(EstimateComparisonVectors(comm, listed.compare_opts, planned, &vectors)); // each run's options
    }
    PetscFunctionReturn(0);
  }));
  PetscCall(CheckStrainedModel(comm, rs.sys.model)); // before the relaxation, which may take long
  PetscCall(Preflight(comm, rs, eps));
  PetscCall(BuildStructure(comm, &rs.sys));
  PetscCall(CheckInterrupted(comm, "building the structure"));
  PetscCall(RelaxSystem(comm, &rs.sys, &strain));
  PetscCall(CheckInterrupted(comm, "relaxing the atoms"));
  results.Add([&] { return StrainOutput(rs.sys, strain); });
  results.Add([&] { return CompositionOutput(rs.sys.structure, rs.sys.nano); });
  PetscCall(ComputeSystemFields(comm, &rs.sys, &strain, &fields));
  PetscCall(CheckInterrupted(comm, "the potentials on the atoms"));
  results.Add([&] { return FieldsOutput(fields); });
  // The host's gap for the states' binding, computed before H so that -mat_view shows H, the last matrix assembled.
  if (rs.solve && !rs.compare && !rs.sys.nano.regions().empty()) PetscCall(ComputeHostGap(comm, rs.sys, &gap));
  if (rs.solve) {
    PetscCall(CreateHamiltonian(comm, rs.sys.structure, rs.sys.model, rs.sys.spec.cell.k, rs.hopts, H.out()));
    PetscCall(CheckInterrupted(comm, "building H"));
  }
  PetscCall(PrintSystemSummary(comm, rs.sys, H, rs.vbm, rs.cbm));
  PetscCall(PrintStrainSummary(comm, rs.sys, strain.report, strain.tensors));
  PetscCall(PrintFieldsSummary(comm, rs.sys, fields));
  if (!rs.solve) states.solver = "none (-solve false)";
  else if (rs.compare) PetscCall(Compare(comm, rs, H, &states, &results));
  else {
    PetscCall(Solve(comm, rs, eps, H, &states));
    PetscCall(ReportStates(comm, rs.sys, eps, states, gap, &binding));
    results.SetBinding(binding);
  }
  results.SetStates(states, eps);
  if (rs.solve && !rs.compare) PetscCall(ReportOptics(comm, rs.optics, rs.sys, H, eps, states, rs.midgap(), &results));
  PetscCall(WriteRunOutput(comm, rs.output, results));
  PetscCall(PeakResidentMb(comm, &peak_max, &peak_sum));
  PetscCall(PetscPrintf(comm, "peak resident memory (VmHWM): %.1f MB on the largest rank, %.1f MB over all ranks\n",
                        peak_max, peak_sum));
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "tbpeta", Run); }
