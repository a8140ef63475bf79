#include "solvers/lanczos/NemoLanczos.hpp"

#include <slepc/private/epsimpl.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "operator/OperatorProperties.hpp"
#include "solvers/EpsOptionPrefix.hpp"
#include "solvers/SolverTraits.hpp"
#include "solvers/lanczos/NemoOptions.hpp"
#include "solvers/SortCriterion.hpp"
#include "support/ErrorReporting.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

namespace {

using lanczos::Check;
using lanczos::LanczosOptions;
using lanczos::LanczosReport;

struct EPS_Nemo {
  lanczos::NemoSettings settings; // the type's own settings; the question comes from the EPS at each solve
  PetscReal centre = 0;           // the recurrence runs on A - centre I (TbEPSSetCentre)
  LanczosReport report;
};

EPS_Nemo *NemoCtx(EPS eps) { return static_cast<EPS_Nemo *>(eps->data); }

PetscErrorCode EPSSetFromOptions_Nemo(EPS eps, PetscOptionItems *PetscOptionsObject) {
  PetscFunctionBeginUser;
  PetscOptionsHeadBegin(PetscOptionsObject, lanczos::kNemoOptionsTitle);
  PetscCall(lanczos::ReadNemoOptions(PetscOptionsObject, PetscObjectComm((PetscObject)eps), OptionPrefix(eps), eps->nev,
                                     &NemoCtx(eps)->settings));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

// The question of the EPS as the Lanczos asks it; a one-line error for a `which` it cannot answer.
PetscErrorCode Question(EPS eps, LanczosOptions *o) {
  EPS_Nemo *ctx = NemoCtx(eps);
  const std::string p = OptionPrefix(eps);
  MPI_Comm comm = PetscObjectComm((PetscObject)eps);
  PetscFunctionBeginUser;
  o->window_set = eps->which == EPS_ALL;
  switch (eps->which) {
  case EPS_TARGET_MAGNITUDE:
  case EPS_TARGET_REAL:
    o->gap_center = PetscRealPart(eps->target);
    o->nev_valence = ctx->settings.valence == PETSC_DEFAULT ? eps->nev / 2 : ctx->settings.valence;
    PetscCheck(o->nev_valence <= eps->nev, comm, PETSC_ERR_USER_INPUT,
               "%seps_nemo_valence %" PetscInt_FMT " exceeds %seps_nev %" PetscInt_FMT, p.c_str(), o->nev_valence,
               p.c_str(), eps->nev);
    o->nev_conduction = eps->nev - o->nev_valence;
    PetscCheck(std::isfinite(o->gap_center), comm, PETSC_ERR_USER_INPUT, "%seps_target: %g is not a finite energy",
               p.c_str(), o->gap_center);
    break;
  case EPS_SMALLEST_REAL:
    o->gap_center = -DBL_MAX;
    o->nev_valence = 0;
    o->nev_conduction = eps->nev;
    break;
  case EPS_LARGEST_REAL:
    o->gap_center = DBL_MAX;
    o->nev_valence = eps->nev;
    o->nev_conduction = 0;
    break;
  case EPS_ALL:
    o->window[0] = eps->inta;
    o->window[1] = eps->intb;
    break;
  default:
    SETERRQ(comm, PETSC_ERR_USER_INPUT,
            "%seps_type nemo finds the states around a target (%seps_target_magnitude or %seps_target_real), the "
            "smallest or largest real ones, or all in %seps_interval",
            p.c_str(), p.c_str(), p.c_str(), p.c_str());
  }
  PetscFunctionReturn(0);
}

// Eigenvalues only: a basis of columns of length 0 on every rank, so that SLEPc's bookkeeping works and no vector of
// H's size is allocated.
PetscErrorCode AllocateValuesOnly(EPS eps) {
  PetscInt m = 0;
  OwnedVec t;
  PetscFunctionBeginUser;
  if (!eps->V) PetscCall(EPSGetBV(eps, &eps->V));
  PetscCall(BVGetSizes(eps->V, nullptr, nullptr, &m));
  if (!m) {
    PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)eps), 0, 0, t.out()));
    PetscCall(BVSetSizesFromVec(eps->V, t, eps->ncv));
  }
  PetscCall(EPSAllocateSolution(eps, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSSetUp_Nemo(EPS eps) {
  EPS_Nemo *ctx = NemoCtx(eps);
  PetscBool shift;
  LanczosOptions o = ctx->settings.opts;
  const std::string p = OptionPrefix(eps);
  PetscFunctionBeginUser;
  EPSCheckHermitianDefinite(eps);
  EPSCheckStandard(eps);
  EPSCheckUnsupported(eps, EPS_FEATURE_BALANCE | EPS_FEATURE_ARBITRARY | EPS_FEATURE_REGION | EPS_FEATURE_EXTRACTION |
                               EPS_FEATURE_STOPPING | EPS_FEATURE_TWOSIDED);
  EPSCheckIgnored(eps, EPS_FEATURE_CONVERGENCE);
  PetscCall(PetscObjectTypeCompare((PetscObject)eps->st, STSHIFT, &shift));
  PetscCheck(
      shift, PetscObjectComm((PetscObject)eps), PETSC_ERR_USER_INPUT,
      "%sst_type %s: the nemo solver applies H itself and takes no spectral transformation (leave %sst_type at shift)",
      p.c_str(), ((PetscObject)eps->st)->type_name, p.c_str());
  if (eps->max_it == PETSC_DEFAULT) eps->max_it = 20000;
  if (eps->tol == PETSC_DEFAULT) eps->tol = 1e-10;
  if (!eps->which) eps->which = EPS_TARGET_MAGNITUDE;
  PetscCheck(eps->tol > 0 && eps->tol < 1, PetscObjectComm((PetscObject)eps), PETSC_ERR_USER_INPUT,
             "%seps_tol must be in (0, 1) for the nemo solver, got %g", p.c_str(), (double)eps->tol);
  PetscCall(Question(eps, &o));
  // Room for the states expected (whole Kramers pairs); a window's count is known only after the first pass.
  Mat A;
  const OperatorProperties *props;
  PetscCall(EPSGetOperators(eps, &A, nullptr));
  PetscCall(OperatorGetProperties(A, &props));
  const bool pairs = props && props->kramers_block > 0;
  eps->ncv = o.window_set ? 1
                          : std::max<PetscInt>(1, pairs ? 2 * ((o.nev_valence + 1) / 2 + (o.nev_conduction + 1) / 2)
                                                        : o.nev_valence + o.nev_conduction);
  eps->mpd = eps->ncv;
  if (o.vectors) PetscCall(EPSAllocateSolution(eps, 0));
  else PetscCall(AllocateValuesOnly(eps));
  PetscFunctionReturn(0);
}

// At every check: SLEPc's monitors (-eps_monitor) with the wanted values and their relative error estimates.
PetscErrorCode MonitorCheck(EPS eps, PetscReal centre, PetscInt step, const Check &chk) {
  const size_t n = chk.wanted.size();
  std::vector<PetscScalar> eigr(std::max<size_t>(n, 1)), eigi(std::max<size_t>(n, 1), 0.0);
  std::vector<PetscReal> errest(std::max<size_t>(n, 1), 0.0);
  PetscInt nconv = 0;
  PetscFunctionBeginUser;
  for (size_t i = 0; i < n; ++i) {
    eigr[i] = chk.wanted[i].value + centre;
    errest[i] = chk.wanted[i].error / chk.scale;
    nconv += chk.wanted[i].converged;
  }
  PetscCall(EPSMonitor(eps, step, nconv, eigr.data(), eigi.data(), errest.data(), (PetscInt)n));
  PetscFunctionReturn(0);
}

// Room in the EPS's arrays for n states.
PetscErrorCode EnsureSolutionArrays(EPS eps, PetscInt n, bool vectors) {
  PetscInt m;
  PetscFunctionBeginUser;
  if (n > eps->ncv) {
    PetscCall(PetscFree4(eps->eigr, eps->eigi, eps->errest, eps->perm));
    PetscCall(PetscMalloc4(n, &eps->eigr, n, &eps->eigi, n, &eps->errest, n, &eps->perm));
    eps->ncv = eps->mpd = n;
  }
  PetscCall(BVGetSizes(eps->V, nullptr, nullptr, &m));
  if (!vectors && n > m) PetscCall(BVResize(eps->V, n, PETSC_FALSE)); // columns of length 0
  PetscFunctionReturn(0);
}

PetscErrorCode EPSSolve_Nemo(EPS eps) {
  EPS_Nemo *ctx = NemoCtx(eps);
  LanczosOptions o = ctx->settings.opts;
  Mat A;
  const OperatorProperties *props;
  PetscFunctionBeginUser;
  PetscCall(EPSGetOperators(eps, &A, nullptr));
  PetscCall(OperatorGetProperties(A, &props));
  PetscCall(Question(eps, &o));
  o.tol = eps->tol;
  o.max_steps = eps->max_it;
  o.centre = ctx->centre;
  o.kramers_block = props ? props->kramers_block : 0; // as PlannedOperatorProperties gave the estimate
  o.option_prefix = OptionPrefix(eps);
  o.monitor = [&](const char *, PetscInt step, const Check &chk) { return MonitorCheck(eps, ctx->centre, step, chk); };
  lanczos::StateColumns states(eps->V, o.vectors, o.kramers_block);
  PetscCall(LanczosSolve(A, o, &states, &ctx->report));
  PetscCall(states.MoveIntoBV());
  const PetscInt n = states.count();
  PetscCall(EnsureSolutionArrays(eps, n, o.vectors));
  for (PetscInt i = 0; i < n; ++i) {
    eps->eigr[i] = states.values[i] + ctx->centre;
    eps->eigi[i] = 0;
    eps->errest[i] = states.residuals[i] / std::max(1.0, std::fabs(PetscRealPart(eps->eigr[i])));
    eps->perm[i] = i;
  }
  eps->nconv = n;
  eps->its = ctx->report.steps;
  eps->reason = ctx->report.converged ? EPS_CONVERGED_TOL : EPS_DIVERGED_ITS;
  PetscFunctionReturn(0);
}

// The columns are the eigenvectors already (or were never computed).
PetscErrorCode EPSComputeVectors_Nemo(EPS eps) {
  PetscFunctionBeginUser;
  PetscCheck(NemoCtx(eps)->settings.opts.vectors, PetscObjectComm((PetscObject)eps), PETSC_ERR_USER_INPUT,
             "the eigenvectors were not computed (%seps_nemo_vectors false)", OptionPrefix(eps).c_str());
  PetscFunctionReturn(0);
}

// The values are of the operator itself: nothing to transform back.
PetscErrorCode EPSBackTransform_Nemo(EPS) { return 0; }

PetscErrorCode EPSSetDefaultST_Nemo(EPS eps) {
  PetscFunctionBeginUser;
  if (!((PetscObject)eps->st)->type_name) PetscCall(STSetType(eps->st, STSHIFT));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSView_Nemo(EPS eps, PetscViewer viewer) {
  EPS_Nemo *ctx = NemoCtx(eps);
  const LanczosOptions &o = ctx->settings.opts;
  const PetscInt valence = ctx->settings.valence;
  PetscBool ascii;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(
      viewer,
      "  NEMO 3-D-style Lanczos: 3 vectors + the states, no reorthogonalisation; check every %" PetscInt_FMT
      " steps, seed %llu; second pass: %" PetscInt_FMT " Lanczos vectors per sweep\n",
      o.check_every, o.seed, o.ritz_batch));
  PetscCall(PetscViewerASCIIPrintf(
      viewer, "  states below the target: %s; multiplicity passes %" PetscInt_FMT "; eigenvectors %s%s%s\n",
      valence == PETSC_DEFAULT ? "half of nev" : std::to_string(valence).c_str(), o.multiplicity_passes,
      o.vectors ? "yes" : "no", o.checkpoint.empty() ? "" : "; checkpoint ", o.checkpoint.c_str()));
  if (ctx->report.steps)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "  last solve: %" PetscInt_FMT " steps, %" PetscInt_FMT " products, %" PetscInt_FMT
                                     " reductions, %" PetscInt_FMT " restarted passes\n",
                                     ctx->report.steps, ctx->report.products, ctx->report.reductions,
                                     ctx->report.passes.multiplicity_passes));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSNemoSetValence_Nemo(EPS eps, PetscInt valence) {
  NemoCtx(eps)->settings.valence = valence;
  return 0;
}
PetscErrorCode EPSSetCentre_Nemo(EPS eps, PetscReal centre) {
  NemoCtx(eps)->centre = centre;
  return 0;
}
PetscErrorCode EPSNemoGetReport_Nemo(EPS eps, const LanczosReport **report) {
  *report = &NemoCtx(eps)->report;
  return 0;
}

// The recurrence's 3 vectors and the states; with vectors the second pass's window (ritz_batch - 2 more). The EPS's
// columns hold the states asked for. A Kramers pair holds one vector, so there the first pass's states leave half of
// the columns to the new directions of the restarted passes (at most one per level); without pairs those are as many
// again beyond the columns. Whether H will have pairs: the Kramers block of its planned properties, the one the
// solve reads from H's own (EPSSetUp_Nemo, EPSSolve_Nemo).
PetscErrorCode EPSEstimateVectors_Nemo(EPS eps, PetscInt nev, const OperatorProperties &planned, PetscInt *vectors) {
  const LanczosOptions &o = NemoCtx(eps)->settings.opts;
  *vectors = 3 + (o.vectors ? nev + lanczos::SecondPassWindow(o.ritz_batch) : 0) +
             (o.vectors && o.multiplicity_passes > 0 && planned.kramers_block == 0 ? nev : 0);
  return 0;
}

PetscErrorCode EPSDescribe_Nemo(EPS eps, char *text, size_t size) {
  std::snprintf(text, size, "%s", lanczos::LanczosDescription(NemoCtx(eps)->report).c_str());
  return 0;
}

// The levels that had not converged when the solve stopped at its step limit.
PetscErrorCode EPSPrintWarnings_Nemo(EPS eps) {
  const LanczosReport &r = NemoCtx(eps)->report;
  std::string list;
  PetscFunctionBeginUser;
  if (r.converged || r.steps == 0) PetscFunctionReturn(0);
  for (double x : r.unconverged) list += (list.empty() ? "" : ", ") + std::to_string(x);
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)eps),
                        "%s: warning: the Lanczos stopped at %" PetscInt_FMT
                        " steps (%seps_max_it) with %zu wanted levels not converged: %s eV\n",
                        ProgramName(), r.steps, OptionPrefix(eps).c_str(), r.unconverged.size(), list.c_str()));
  PetscFunctionReturn(0);
}

// Its own vector algebra and progress lines; a target splits the states at it (-eps_nemo_valence below, the rest
// above, whole levels); its tolerance is relative to the spectral scale of T.
PetscErrorCode EPSGetTraits_Nemo(EPS eps, TbEPSTraits *t) {
  t->own_vector_algebra = true;
  t->reports_progress = true;
  t->splits_at_centre = eps->which == EPS_TARGET_MAGNITUDE || eps->which == EPS_TARGET_REAL || !eps->which;
  t->returns_vectors = NemoCtx(eps)->settings.opts.vectors;
  t->tolerance_of_own_scale = true;
  return 0;
}

// In its own options: the vectors come from a second pass; the states split at the target by -eps_nemo_valence.
PetscErrorCode EPSGetHint_Nemo(EPS eps, TbEPSHint what, char *text, size_t size) {
  const std::string p = OptionPrefix(eps);
  std::string hint;
  if (what == TbEPSHint::vectors) hint = "drop " + p + "eps_nemo_vectors false";
  if (what == TbEPSHint::both_sides) hint = "set " + p + "eps_nemo_valence or " + p + "eps_target between them";
  std::snprintf(text, size, "%s", hint.c_str()); // empty: the default
  return 0;
}

PetscErrorCode EPSSetQuestion_Nemo(EPS eps, PetscInt nv, PetscInt nc, PetscReal centre) {
  PetscFunctionBeginUser;
  PetscCall(TbEPSSetQuestion_Default(eps, nv, nc, centre));
  NemoCtx(eps)->settings.valence = nv;
  PetscFunctionReturn(0);
}

// One product of H per step: the cap is the steps of the first pass (a user's -eps_max_it wins).
PetscErrorCode EPSSetProductCap_Nemo(EPS eps, PetscInt, PetscInt products) {
  PetscReal tol;
  PetscInt max_it;
  PetscFunctionBeginUser;
  PetscCall(EPSGetTolerances(eps, &tol, &max_it));
  if (max_it == PETSC_DEFAULT) PetscCall(EPSSetTolerances(eps, tol, std::max<PetscInt>(1, products)));
  PetscFunctionReturn(0);
}

// What the type composes on its EPS: composed by EPSCreate_Nemo, cleared by EPSDestroy_Nemo.
std::span<const TbEPSFunction> NemoFunctions() {
  static const TbEPSFunction table[] = {
      TbEPSFn("EPSNemoSetValence_C", EPSNemoSetValence_Nemo),
      TbEPSFn("EPSNemoGetReport_C", EPSNemoGetReport_Nemo),
      TbEPSFn("TbEPSSetCentre_C", EPSSetCentre_Nemo),
      TbEPSFn("TbEPSDescribe_C", EPSDescribe_Nemo),
      TbEPSFn("TbEPSEstimateVectors_C", EPSEstimateVectors_Nemo),
      TbEPSFn("TbEPSPrintWarnings_C", EPSPrintWarnings_Nemo),
      TbEPSFn("TbEPSGetTraits_C", EPSGetTraits_Nemo),
      TbEPSFn("TbEPSSetQuestion_C", EPSSetQuestion_Nemo),
      TbEPSFn("TbEPSSetProductCap_C", EPSSetProductCap_Nemo),
      TbEPSFn("TbEPSGetHint_C", EPSGetHint_Nemo),
  };
  return table;
}

PetscErrorCode EPSDestroy_Nemo(EPS eps) {
  PetscFunctionBeginUser;
  delete NemoCtx(eps);
  eps->data = nullptr;
  PetscCall(TbEPSComposeFunctions(eps, NemoFunctions(), true));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSCreate_Nemo(EPS eps) {
  PetscFunctionBeginUser;
  eps->data = new EPS_Nemo;
  eps->categ = EPS_CATEGORY_OTHER;
  eps->useds = PETSC_FALSE;
  eps->ops->solve = EPSSolve_Nemo;
  eps->ops->setup = EPSSetUp_Nemo;
  eps->ops->setfromoptions = EPSSetFromOptions_Nemo;
  eps->ops->destroy = EPSDestroy_Nemo;
  eps->ops->view = EPSView_Nemo;
  eps->ops->backtransform = EPSBackTransform_Nemo;
  eps->ops->computevectors = EPSComputeVectors_Nemo;
  eps->ops->setupsort = EPSSetUpSort_Tbpeta;
  eps->ops->setdefaultst = EPSSetDefaultST_Nemo;
  PetscCall(TbEPSComposeFunctions(eps, NemoFunctions()));
  PetscFunctionReturn(0);
}

} // namespace

EigenSolverType NemoSolverType() {
  EigenSolverType t;
  t.name = EPSNEMO;
  t.create = EPSCreate_Nemo;
  t.list_options = lanczos::ListNemoOptions;
  t.renamed = lanczos::NemoRenamedOptions();
  return t;
}

PetscErrorCode EPSNemoSetValence(EPS eps, PetscInt valence) {
  PetscFunctionBeginUser;
  PetscTryMethod(eps, "EPSNemoSetValence_C", (EPS, PetscInt), (eps, valence));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSNemoGetReport(EPS eps, const LanczosReport **report) {
  PetscErrorCode (*f)(EPS, const LanczosReport **) = nullptr;
  PetscFunctionBeginUser;
  *report = nullptr;
  PetscCall(PetscObjectQueryFunction((PetscObject)eps, "EPSNemoGetReport_C", &f));
  if (f) PetscCall(f(eps, report));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
