#include "solvers/lanczos/NemoLanczos.hpp"

#include <slepc/private/epsimpl.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "solvers/EpsOptionPrefix.hpp"
#include "operator/OperatorProperties.hpp"
#include "solvers/SolverTraits.hpp"
#include "solvers/SortCriterion.hpp"
#include "support/ErrorReporting.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

namespace {

using lanczos::Check;
using lanczos::LanczosOptions;
using lanczos::LanczosReport;

struct EPS_Nemo {
  LanczosOptions opts;              // the type's own settings; the question comes from the EPS at each solve
  PetscInt valence = PETSC_DEFAULT; // states below the target (default nev / 2)
  PetscReal centre = 0;
  PetscInt pairs = -1; // H time-reversal symmetric with spin (Kramers pairs): 1/0, -1 not known yet
  LanczosReport report;
};

EPS_Nemo *NemoCtx(EPS eps) { return static_cast<EPS_Nemo *>(eps->data); }

PetscErrorCode EPSSetFromOptions_Nemo(EPS eps, PetscOptionItems *PetscOptionsObject) {
  EPS_Nemo *ctx = NemoCtx(eps);
  LanczosOptions &o = ctx->opts;
  PetscInt seed = (PetscInt)o.seed, valence = ctx->valence == PETSC_DEFAULT ? eps->nev / 2 : ctx->valence;
  PetscBool vectors = o.vectors ? PETSC_TRUE : PETSC_FALSE, bound = o.multiplicity_bound ? PETSC_TRUE : PETSC_FALSE,
            ck_set = PETSC_FALSE, valence_set = PETSC_FALSE;
  char ck[PETSC_MAX_PATH_LEN];
  const std::string p = OptionPrefix(eps);
  MPI_Comm comm = PetscObjectComm((PetscObject)eps);
  PetscFunctionBeginUser;
  std::snprintf(ck, sizeof ck, "%s", o.checkpoint.c_str());
  PetscOptionsHeadBegin(PetscOptionsObject, "EPS nemo: Lanczos in the style of NEMO 3-D (tbpeta)");
  PetscCall(PetscOptionsInt(
      "-eps_nemo_valence", "States (with multiplicity) below the target; the rest of -eps_nev above it (default: half)",
      "EPSNemoSetValence", valence, &valence, &valence_set));
  PetscCall(PetscOptionsInt("-eps_nemo_check_every", "Steps between convergence checks of the tridiagonal", "EPSNEMO",
                            o.check_every, &o.check_every, nullptr));
  PetscCall(PetscOptionsInt("-eps_nemo_seed", "Seed of the start vector (>= 0): the same vector on any number of ranks",
                            "EPSNEMO", seed, &seed, nullptr));
  PetscCall(PetscOptionsInt("-eps_nemo_multiplicity_passes",
                            "Restarted passes for degeneracy beyond Kramers pairs (0: Kramers pairs only)", "EPSNEMO",
                            o.multiplicity_passes, &o.multiplicity_passes, nullptr));
  PetscCall(PetscOptionsBool("-eps_nemo_multiplicity_bound",
                             "A restarted pass stops once the Christoffel function of its tridiagonal bounds the start "
                             "vector's weight at every level below the floor (false: it runs its fixed length)",
                             "EPSNEMO", bound, &bound, nullptr));
  PetscCall(PetscOptionsBool("-eps_nemo_vectors",
                             "Eigenvectors by a second pass (false: eigenvalues only, no restarted passes)", "EPSNEMO",
                             vectors, &vectors, nullptr));
  PetscCall(PetscOptionsString("-eps_nemo_checkpoint",
                               "File: save every pass there, and continue from it when it exists (none by default)",
                               "EPSNEMO", ck, ck, sizeof ck, &ck_set));
  PetscCall(PetscOptionsInt("-eps_nemo_checkpoint_every",
                            "Steps of the first and the second pass between checkpoint "
                            "writes",
                            "EPSNEMO", o.checkpoint_every, &o.checkpoint_every, nullptr));
  PetscCall(PetscOptionsInt("-eps_nemo_stop_after",
                            "End the run at the first checkpoint written after this many products of H, to continue "
                            "later with the same command (0: never; needs -eps_nemo_checkpoint)",
                            "EPSNEMO", o.stop_after, &o.stop_after, nullptr));
  PetscCall(PetscOptionsInt("-eps_nemo_ritz_batch",
                            "Lanczos vectors the second pass adds to the eigenvectors in one sweep over them (each "
                            "beyond 2 held as one more vector during that pass)",
                            "EPSNEMO", o.ritz_batch, &o.ritz_batch, nullptr));
  PetscOptionsHeadEnd();
  PetscCheck(!valence_set || valence >= 0, comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_valence must be >= 0, got %" PetscInt_FMT, p.c_str(), valence);
  PetscCheck(o.check_every >= 1, comm, PETSC_ERR_USER_INPUT, "%seps_nemo_check_every must be >= 1, got %" PetscInt_FMT,
             p.c_str(), o.check_every);
  PetscCheck(seed >= 0, comm, PETSC_ERR_USER_INPUT, "%seps_nemo_seed must be >= 0, got %" PetscInt_FMT, p.c_str(),
             seed);
  PetscCheck(o.multiplicity_passes >= 0, comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_multiplicity_passes must be >= 0, got %" PetscInt_FMT, p.c_str(), o.multiplicity_passes);
  PetscCheck(o.checkpoint_every >= 1, comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_checkpoint_every must be >= 1, got %" PetscInt_FMT, p.c_str(), o.checkpoint_every);
  PetscCheck(o.ritz_batch >= 1 && o.ritz_batch <= 64, comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_ritz_batch must be between 1 and 64, got %" PetscInt_FMT, p.c_str(), o.ritz_batch);
  PetscCheck(!ck_set || ck[0], comm, PETSC_ERR_USER_INPUT, "%seps_nemo_checkpoint needs a file name", p.c_str());
  PetscCheck(o.stop_after >= 0, comm, PETSC_ERR_USER_INPUT, "%seps_nemo_stop_after must be >= 0, got %" PetscInt_FMT,
             p.c_str(), o.stop_after);
  PetscCheck(o.stop_after == 0 || ck[0], comm, PETSC_ERR_USER_INPUT,
             "%seps_nemo_stop_after needs %seps_nemo_checkpoint FILE: the run continues from there", p.c_str(),
             p.c_str());
  if (valence_set) ctx->valence = valence;
  o.seed = (unsigned long long)seed, o.vectors = vectors, o.checkpoint = ck, o.multiplicity_bound = bound;
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
    o->nev_valence = ctx->valence == PETSC_DEFAULT ? eps->nev / 2 : ctx->valence;
    PetscCheck(o->nev_valence <= eps->nev, comm, PETSC_ERR_USER_INPUT,
               "%seps_nemo_valence %" PetscInt_FMT " exceeds %seps_nev %" PetscInt_FMT, p.c_str(), o->nev_valence,
               p.c_str(), eps->nev);
    o->nev_conduction = eps->nev - o->nev_valence;
    PetscCheck(std::isfinite(o->gap_center), comm, PETSC_ERR_USER_INPUT, "%seps_target: %g is not a finite energy",
               p.c_str(), o->gap_center);
    break;
  case EPS_SMALLEST_REAL: o->gap_center = -DBL_MAX, o->nev_valence = 0, o->nev_conduction = eps->nev; break;
  case EPS_LARGEST_REAL: o->gap_center = DBL_MAX, o->nev_valence = eps->nev, o->nev_conduction = 0; break;
  case EPS_ALL: o->window[0] = eps->inta, o->window[1] = eps->intb; break;
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
  LanczosOptions o = ctx->opts;
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
  ctx->pairs = pairs;
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
  LanczosOptions o = ctx->opts;
  Mat A;
  const OperatorProperties *props;
  PetscFunctionBeginUser;
  PetscCall(EPSGetOperators(eps, &A, nullptr));
  PetscCall(OperatorGetProperties(A, &props));
  PetscCall(Question(eps, &o));
  o.tol = eps->tol, o.max_steps = eps->max_it, o.centre = ctx->centre;
  o.kramers_block = props ? props->kramers_block : 0;
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
  PetscCheck(NemoCtx(eps)->opts.vectors, PetscObjectComm((PetscObject)eps), PETSC_ERR_USER_INPUT,
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
  const LanczosOptions &o = ctx->opts;
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
      ctx->valence == PETSC_DEFAULT ? "half of nev" : std::to_string(ctx->valence).c_str(), o.multiplicity_passes,
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
  NemoCtx(eps)->valence = valence;
  return 0;
}
PetscErrorCode EPSNemoSetCentre_Nemo(EPS eps, PetscReal centre) {
  NemoCtx(eps)->centre = centre;
  return 0;
}
PetscErrorCode EPSNemoSetKramersPairs_Nemo(EPS eps, PetscBool pairs) {
  NemoCtx(eps)->pairs = pairs ? 1 : 0;
  return 0;
}
PetscErrorCode EPSNemoGetReport_Nemo(EPS eps, const LanczosReport **report) {
  *report = &NemoCtx(eps)->report;
  return 0;
}

// The recurrence's 3 vectors and the states; with vectors the second pass's window (ritz_batch - 2 more). The EPS's
// columns hold the states asked for. A Kramers pair holds one vector, so there the first pass's states leave half of
// the columns to the new directions of the restarted passes (at most one per level); without pairs those are as many
// again beyond the columns.
PetscErrorCode EPSEstimateVectors_Nemo(EPS eps, PetscInt nev, PetscInt *vectors) {
  const LanczosOptions &o = NemoCtx(eps)->opts;
  *vectors = 3 + (o.vectors ? nev + lanczos::SecondPassWindow(o.ritz_batch) : 0) +
             (o.vectors && o.multiplicity_passes > 0 && NemoCtx(eps)->pairs != 1 ? nev : 0);
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
// above, whole levels).
PetscErrorCode EPSGetTraits_Nemo(EPS eps, TbEPSTraits *t) {
  t->own_vector_algebra = t->reports_progress = true;
  t->splits_at_centre = eps->which == EPS_TARGET_MAGNITUDE || eps->which == EPS_TARGET_REAL || !eps->which;
  t->returns_vectors = NemoCtx(eps)->opts.vectors;
  return 0;
}

PetscErrorCode EPSSetQuestion_Nemo(EPS eps, PetscInt nv, PetscInt nc, PetscReal centre) {
  PetscFunctionBeginUser;
  PetscCall(TbEPSSetQuestion_Default(eps, nv, nc, centre));
  NemoCtx(eps)->valence = nv;
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

constexpr const char *kNemoComposed[] = {"EPSNemoSetValence_C",      "EPSNemoSetCentre_C", "EPSNemoGetReport_C",
                                         "EPSNemoSetKramersPairs_C", "TbEPSDescribe_C",    "TbEPSEstimateVectors_C",
                                         "TbEPSPrintWarnings_C",     "TbEPSGetTraits_C",   "TbEPSSetQuestion_C",
                                         "TbEPSSetProductCap_C"};

PetscErrorCode EPSDestroy_Nemo(EPS eps) {
  PetscFunctionBeginUser;
  delete NemoCtx(eps);
  eps->data = nullptr;
  for (const char *name : kNemoComposed)
    PetscCall(PetscObjectComposeFunction((PetscObject)eps, name, (void (*)(void)) nullptr));
  PetscFunctionReturn(0);
}

} // namespace

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
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "EPSNemoSetValence_C", EPSNemoSetValence_Nemo));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "EPSNemoSetCentre_C", EPSNemoSetCentre_Nemo));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "EPSNemoGetReport_C", EPSNemoGetReport_Nemo));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "EPSNemoSetKramersPairs_C", EPSNemoSetKramersPairs_Nemo));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "TbEPSDescribe_C", EPSDescribe_Nemo));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "TbEPSEstimateVectors_C", EPSEstimateVectors_Nemo));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "TbEPSPrintWarnings_C", EPSPrintWarnings_Nemo));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "TbEPSGetTraits_C", EPSGetTraits_Nemo));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "TbEPSSetQuestion_C", EPSSetQuestion_Nemo));
  PetscCall(PetscObjectComposeFunction((PetscObject)eps, "TbEPSSetProductCap_C", EPSSetProductCap_Nemo));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSNemoSetValence(EPS eps, PetscInt valence) {
  PetscFunctionBeginUser;
  PetscTryMethod(eps, "EPSNemoSetValence_C", (EPS, PetscInt), (eps, valence));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSNemoSetCentre(EPS eps, PetscReal centre) {
  PetscFunctionBeginUser;
  PetscTryMethod(eps, "EPSNemoSetCentre_C", (EPS, PetscReal), (eps, centre));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSNemoSetKramersPairs(EPS eps, PetscBool pairs) {
  PetscFunctionBeginUser;
  PetscTryMethod(eps, "EPSNemoSetKramersPairs_C", (EPS, PetscBool), (eps, pairs));
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
