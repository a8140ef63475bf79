#include "solvers/folded/FoldedSpectrum.hpp"

#include <slepc/private/epsimpl.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <string>
#include <vector>

#include "solvers/EpsOptionPrefix.hpp"
#include "operator/OperatorProperties.hpp"
#include "solvers/SortCriterion.hpp"
#include "solvers/SolveMonitor.hpp"
#include "solvers/SolverPolicy.hpp"
#include "solvers/SolverTraits.hpp"
#include "solvers/folded/ChebyshevFilter.hpp"
#include "solvers/folded/FoldedOperator.hpp"
#include "solvers/folded/SpectrumEstimates.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

namespace {

enum class FoldFilter { square, chebyshev };

struct EPS_Folded {
  EPS inner = nullptr;
  Mat F = nullptr;
  FoldFilter filter = FoldFilter::square;
  PetscInt degree = 30;            // of the Chebyshev filter
  double bounds[2] = {0, 0};       // H's spectrum for the Chebyshev filter (found at set-up)
  bool shares_inner_basis = false; // eps->V is the inner solver's BV
  bool monitored = false;          // the inner solver has its interrupt and progress monitor
};

EPS_Folded *Ctx(EPS eps) { return static_cast<EPS_Folded *>(eps->data); }

const char *const kFoldedOptionsTitle = "EPS folded: the states nearest the target from a folded operator (tbpeta)";

// The inner EPS on F, with the defaults of the folded problem (set before the user's -folded_eps_* options).
PetscErrorCode InnerEPS(EPS eps, EPS *inner) {
  EPS_Folded *ctx = Ctx(eps);
  PetscFunctionBeginUser;
  if (!ctx->inner) {
    PetscCall(EPSCreate(PetscObjectComm((PetscObject)eps), &ctx->inner));
    PetscCall(PetscObjectIncrementTabLevel((PetscObject)ctx->inner, (PetscObject)eps, 1));
    PetscCall(EPSSetProblemType(ctx->inner, EPS_HEP));
    PetscCall(EPSSetWhichEigenpairs(ctx->inner, EPS_SMALLEST_REAL)); // F >= 0: smallest real = smallest magnitude
    PetscCall(EPSSetType(ctx->inner, EPSKRYLOVSCHUR));
  }
  const std::string prefix = OptionPrefix(eps).substr(1) + "folded_";
  PetscCall(EPSSetOptionsPrefix(ctx->inner, prefix.c_str()));
  *inner = ctx->inner;
  PetscFunctionReturn(0);
}

// The type's own options, inside an options block (EPSSetFromOptions, or ListFoldedOptions for -help).
PetscErrorCode ReadFoldedOptions(PetscOptionItems *PetscOptionsObject, MPI_Comm comm, const std::string &p,
                                 EPS_Folded *ctx) {
  char filter[64] = "square";
  PetscFunctionBeginUser;
  if (ctx->filter == FoldFilter::chebyshev) std::snprintf(filter, sizeof filter, "chebyshev");
  PetscCall(PetscOptionsString(
      "-eps_folded_filter",
      "The operator: square (H - sigma)^2, or chebyshev 1 - p(H) (a damped Chebyshev filter centred on sigma)",
      "EPSFOLDED", filter, filter, sizeof filter, nullptr));
  PetscCall(PetscOptionsInt("-eps_folded_filter_degree",
                            "Degree of the Chebyshev filter (products of H per application)", "EPSFOLDED", ctx->degree,
                            &ctx->degree, nullptr));
  const std::string name = filter;
  PetscCheck(name == "square" || name == "chebyshev", comm, PETSC_ERR_USER_INPUT,
             "%seps_folded_filter: '%s' is not allowed (allowed: square, chebyshev)", p.c_str(), filter);
  PetscCheck(ctx->degree >= 2, comm, PETSC_ERR_USER_INPUT,
             "%seps_folded_filter_degree must be >= 2, got %" PetscInt_FMT, p.c_str(), ctx->degree);
  ctx->filter = name == "square" ? FoldFilter::square : FoldFilter::chebyshev;
  PetscFunctionReturn(0);
}

PetscErrorCode EPSSetFromOptions_Folded(EPS eps, PetscOptionItems *PetscOptionsObject) {
  EPS_Folded *ctx = Ctx(eps);
  EPS inner;
  PetscFunctionBeginUser;
  PetscOptionsHeadBegin(PetscOptionsObject, kFoldedOptionsTitle);
  PetscCall(ReadFoldedOptions(PetscOptionsObject, PetscObjectComm((PetscObject)eps), OptionPrefix(eps), ctx));
  PetscOptionsHeadEnd();
  PetscCall(InnerEPS(eps, &inner));
  PetscCall(EPSSetFromOptions(inner));
  if (!Ctx(eps)->monitored) PetscCall(InstallSolveMonitor(inner, "the folded spectrum's solve on (H - sigma)^2"));
  Ctx(eps)->monitored = true;
  PetscFunctionReturn(0);
}

// sigma inside the spectrum of H (Gershgorin: |lambda| <= ||H||_inf, where H can tell its norm). (SLEPc itself caps
// nev at the rows of H.)
PetscErrorCode CheckQuestion(EPS eps, Mat H, double sigma) {
  PetscBool norm;
  PetscReal bound;
  const std::string p = OptionPrefix(eps);
  MPI_Comm comm = PetscObjectComm((PetscObject)eps);
  PetscFunctionBeginUser;
  PetscCheck(eps->which == EPS_TARGET_MAGNITUDE || eps->which == EPS_TARGET_REAL, comm, PETSC_ERR_USER_INPUT,
             "%seps_type folded finds the states nearest %seps_target (which = target magnitude)", p.c_str(),
             p.c_str());
  PetscCheck(std::isfinite(sigma), comm, PETSC_ERR_USER_INPUT, "%seps_target: %g is not a finite energy (eV)",
             p.c_str(), sigma);
  PetscCall(MatHasOperation(H, MATOP_NORM, &norm));
  if (!norm) PetscFunctionReturn(0);
  PetscCall(MatNorm(H, NORM_INFINITY, &bound));
  PetscCheck(std::fabs(sigma) <= bound, comm, PETSC_ERR_USER_INPUT,
             "%seps_target %g eV is outside the spectrum of H (|E| <= %g eV)", p.c_str(), sigma, (double)bound);
  PetscFunctionReturn(0);
}

// Folding squares the distances between levels, so the wanted end of F's spectrum is tightly clustered: SLEPc's
// solvers get far more restarts than their default and the accuracy the Rayleigh quotients need (tol 1e-12, 100,000
// iterations) unless given -folded_eps_tol / -folded_eps_max_it; a solver whose tolerance is relative to its own
// spectral scale (TbEPSTraits::tolerance_of_own_scale) keeps its defaults.
PetscErrorCode FoldedTolerances(EPS inner) {
  TbEPSTraits traits;
  PetscReal tol;
  PetscInt max_it;
  PetscFunctionBeginUser;
  PetscCall(TbEPSGetTraits(inner, &traits));
  if (traits.tolerance_of_own_scale) PetscFunctionReturn(0);
  PetscCall(EPSGetTolerances(inner, &tol, &max_it));
  PetscCall(EPSSetTolerances(inner, tol == PETSC_DEFAULT ? 1e-12 : tol, max_it == PETSC_DEFAULT ? 100000 : max_it));
  PetscFunctionReturn(0);
}

// The folded operator the options chose. The Chebyshev filter maps H's spectrum, bounded by 30 Lanczos steps (widened
// by 1 % of its width: a filter of degree d grows like cosh(d x) just outside it), to [-1, 1].
PetscErrorCode CreateFilterOperator(EPS_Folded *ctx, Mat H, double sigma, const std::string &p) {
  PetscFunctionBeginUser;
  if (ctx->filter == FoldFilter::square) {
    PetscCall(CreateFoldedOperator(H, sigma, &ctx->F));
    PetscFunctionReturn(0);
  }
  PetscCall(SpectrumBoundsEstimate(H, 30, 0.01, &ctx->bounds[0], &ctx->bounds[1]));
  PetscCheck(ctx->bounds[0] < sigma && sigma < ctx->bounds[1], PetscObjectComm((PetscObject)H), PETSC_ERR_USER_INPUT,
             "%seps_target %g eV is outside the spectrum of H [%g, %g] eV", p.c_str(), sigma, ctx->bounds[0],
             ctx->bounds[1]);
  ChebyshevFilterSpec spec;
  spec.sigma = sigma;
  spec.degree = ctx->degree;
  spec.lo = ctx->bounds[0];
  spec.hi = ctx->bounds[1];
  PetscCall(CreateChebyshevFilterOperator(H, spec, &ctx->F));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSSetUp_Folded(EPS eps) {
  EPS_Folded *ctx = Ctx(eps);
  EPS inner;
  Mat H;
  PetscBool shift;
  PetscInt ncv, mpd;
  const std::string p = OptionPrefix(eps);
  PetscFunctionBeginUser;
  EPSCheckHermitianDefinite(eps);
  EPSCheckStandard(eps);
  EPSCheckUnsupported(eps, EPS_FEATURE_BALANCE | EPS_FEATURE_ARBITRARY | EPS_FEATURE_REGION | EPS_FEATURE_EXTRACTION |
                               EPS_FEATURE_STOPPING | EPS_FEATURE_TWOSIDED);
  EPSCheckIgnored(eps, EPS_FEATURE_CONVERGENCE);
  PetscCall(PetscObjectTypeCompare((PetscObject)eps->st, STSHIFT, &shift));
  PetscCheck(shift, PetscObjectComm((PetscObject)eps), PETSC_ERR_USER_INPUT,
             "%sst_type %s: the folded spectrum applies H itself (choose the inner solver with %sfolded_eps_type)",
             p.c_str(), ((PetscObject)eps->st)->type_name, p.c_str());
  if (!eps->which) eps->which = EPS_TARGET_MAGNITUDE;
  PetscCall(EPSGetOperators(eps, &H, nullptr));
  PetscCall(CheckQuestion(eps, H, PetscRealPart(eps->target)));
  if (ctx->shares_inner_basis) PetscCall(BVDestroy(&eps->V)); // a basis of its own again (one column until the solve)
  ctx->shares_inner_basis = false;
  eps->ncv = eps->mpd = 1;
  if (eps->max_it == PETSC_DEFAULT) eps->max_it = 1;
  if (eps->tol == PETSC_DEFAULT) eps->tol = 1e-12;
  PetscCall(EPSAllocateSolution(eps, 0));
  PetscCall(MatDestroy(&ctx->F));
  PetscCall(CreateFilterOperator(ctx, H, PetscRealPart(eps->target), p));
  PetscCall(InnerEPS(eps, &inner));
  PetscCall(EPSSetOperators(inner, ctx->F, nullptr));
  PetscCall(EPSGetDimensions(inner, nullptr, &ncv, &mpd));
  PetscCall(EPSSetDimensions(inner, eps->nev, ncv, mpd));
  PetscCall(FoldedTolerances(inner));
  PetscCall(CheckEigenSolver(inner, ctx->F, SolverPolicy{}));
  PetscFunctionReturn(0);
}

// A solver that runs better on a centred spectrum and can run on a shifted operator (TbEPSTakesCentre) gets F - c I
// with c about half of F's largest eigenvalue (anything in [rho/4, 3 rho/4] does; the estimate comes from below, so
// c <= rho/2). The Chebyshev filter's F lies in [0, 1] by construction.
PetscErrorCode CentreForInner(const EPS_Folded &ctx) {
  bool takes;
  double rho = 1;
  PetscFunctionBeginUser;
  PetscCall(TbEPSTakesCentre(ctx.inner, &takes));
  if (!takes) PetscFunctionReturn(0);
  if (ctx.filter == FoldFilter::square) PetscCall(LargestEigenvalueEstimate(ctx.F, 10, &rho));
  PetscCall(TbEPSSetCentre(ctx.inner, 0.5 * rho));
  PetscFunctionReturn(0);
}

// Moves the inner solver's kept eigenvectors (its nkeep smallest) to the front of its basis, in order of column.
PetscErrorCode KeptToFront(EPS inner, PetscInt nkeep) {
  BV V;
  PetscFunctionBeginUser;
  PetscCall(EPSGetBV(inner, &V));
  std::vector<PetscInt> kept(inner->perm, inner->perm + nkeep);
  std::sort(kept.begin(), kept.end());
  for (PetscInt k = 0; k < nkeep; ++k)
    PetscCall(BVCopyColumn(V, kept[k], k)); // kept[k] >= k: no kept column is overwritten
  PetscFunctionReturn(0);
}

// The state of H that column k of V stands for: normalised in place, eigr = x^H H x, errest from ||Hx - eigr x||.
PetscErrorCode RayleighWithH(EPS eps, Mat H, BV V, PetscInt k, Vec hx) {
  Vec x;
  PetscScalar rq;
  PetscReal res;
  PetscFunctionBeginUser;
  PetscCall(BVGetColumn(V, k, &x));
  PetscCall(VecNormalize(x, nullptr));
  PetscCall(MatMult(H, x, hx));
  PetscCall(VecDot(hx, x, &rq)); // x^H (H x)
  PetscCall(VecAXPY(hx, -PetscRealPart(rq), x));
  PetscCall(VecNorm(hx, NORM_2, &res));
  PetscCall(BVRestoreColumn(V, k, &x));
  eps->eigr[k] = PetscRealPart(rq);
  eps->eigi[k] = 0;
  eps->perm[k] = k;
  eps->errest[k] = res / std::max(1.0, std::fabs(PetscRealPart(rq)));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSSolve_Folded(EPS eps) {
  EPS_Folded *ctx = Ctx(eps);
  Mat H;
  OwnedVec hx;
  BV V;
  PetscInt nconv;
  EPSConvergedReason reason;
  PetscFunctionBeginUser;
  PetscCall(EPSGetOperators(eps, &H, nullptr));
  PetscCall(BVDestroy(&eps->V)); // the inner solver's basis will hold the states
  PetscCall(CentreForInner(*ctx));
  PetscCall(EPSSolve(ctx->inner));
  PetscCall(EPSGetConverged(ctx->inner, &nconv));
  PetscCall(EPSGetConvergedReason(ctx->inner, &reason));
  const PetscInt nkeep = std::min(nconv, eps->nev);
  PetscCall(MatCreateVecs(H, nullptr, hx.out()));
  if (nkeep > 0) PetscCall(EPSGetEigenvector(ctx->inner, 0, hx, nullptr)); // the inner solver's vectors, made now
  PetscCall(EPSGetBV(ctx->inner, &V));
  PetscCall(KeptToFront(ctx->inner, nkeep));
  if (nkeep > eps->ncv) {
    PetscCall(PetscFree4(eps->eigr, eps->eigi, eps->errest, eps->perm));
    PetscCall(PetscMalloc4(nkeep, &eps->eigr, nkeep, &eps->eigi, nkeep, &eps->errest, nkeep, &eps->perm));
    eps->ncv = eps->mpd = nkeep;
  }
  for (PetscInt k = 0; k < nkeep; ++k) PetscCall(RayleighWithH(eps, H, V, k, hx));
  hx.reset();
  PetscCall(PetscObjectReference((PetscObject)V));
  eps->V = V;
  ctx->shares_inner_basis = true;
  eps->nconv = nkeep;
  PetscCall(EPSGetIterationNumber(ctx->inner, &eps->its));
  eps->reason = nkeep >= eps->nev && reason > 0 ? EPS_CONVERGED_TOL : EPS_DIVERGED_ITS;
  PetscFunctionReturn(0);
}

PetscErrorCode EPSComputeVectors_Folded(EPS) { return 0; } // the columns are the unit eigenvectors already
PetscErrorCode EPSBackTransform_Folded(EPS) { return 0; }  // the values are Rayleigh quotients with H

PetscErrorCode EPSSetDefaultST_Folded(EPS eps) {
  PetscFunctionBeginUser;
  if (!((PetscObject)eps->st)->type_name) PetscCall(STSetType(eps->st, STSHIFT));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSView_Folded(EPS eps, PetscViewer viewer) {
  EPS inner;
  PetscBool ascii;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  if (Ctx(eps)->filter == FoldFilter::square)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "  folded spectrum: the smallest eigenvalues of (H - %g)^2, states of H by "
                                     "Rayleigh quotients; the solver on it:\n",
                                     (double)PetscRealPart(eps->target)));
  else
    PetscCall(PetscViewerASCIIPrintf(
        viewer,
        "  Chebyshev filter: the smallest eigenvalues of 1 - p(H), p of degree %" PetscInt_FMT
        " centred on %g on [%g, %g], states of H by Rayleigh quotients; the solver on it:\n",
        Ctx(eps)->degree, (double)PetscRealPart(eps->target), Ctx(eps)->bounds[0], Ctx(eps)->bounds[1]));
  PetscCall(InnerEPS(eps, &inner));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(EPSView(inner, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSFoldedGetInner_Folded(EPS eps, EPS *inner) { return InnerEPS(eps, inner); }

// "folded (<the inner solver's description>)".
PetscErrorCode EPSDescribe_Folded(EPS eps, char *text, size_t size) {
  EPS inner;
  std::string of;
  PetscFunctionBeginUser;
  PetscCall(InnerEPS(eps, &inner));
  PetscCall(TbEPSDescribe(inner, &of));
  std::snprintf(text, size, "folded (%s)", of.c_str());
  PetscFunctionReturn(0);
}

// The inner solver's vectors and the work vector (H - sigma) x of the folded operator (which carries H's Kramers block
// and numbering: the inner solver's estimate is for H's planned properties).
PetscErrorCode EPSEstimateVectors_Folded(EPS eps, PetscInt nev, const OperatorProperties &planned, PetscInt *vectors) {
  EPS inner;
  PetscFunctionBeginUser;
  PetscCall(InnerEPS(eps, &inner));
  PetscCall(TbEPSEstimateVectors(inner, nev, planned, vectors));
  *vectors += 1;
  PetscFunctionReturn(0);
}

// Its vector algebra is its inner solver's, which is checked when the folded one sets up.
PetscErrorCode EPSGetTraits_Folded(EPS, TbEPSTraits *t) {
  t->own_vector_algebra = true;
  return 0;
}

// Two products of H per product of F: the inner solver gets half the cap, for the folded question's nev.
PetscErrorCode EPSSetProductCap_Folded(EPS eps, PetscInt rows, PetscInt products) {
  EPS inner;
  PetscInt ncv, mpd;
  PetscFunctionBeginUser;
  PetscCall(InnerEPS(eps, &inner));
  PetscCall(EPSGetDimensions(inner, nullptr, &ncv, &mpd));
  PetscCall(EPSSetDimensions(inner, eps->nev, ncv, mpd));
  PetscCall(TbEPSSetProductCap(inner, rows, std::max<PetscInt>(1, products / 2)));
  PetscFunctionReturn(0);
}

// A run stopped at its limits: the inner solver's (its own options, with its prefix); the rest as SLEPc's.
PetscErrorCode EPSGetHint_Folded(EPS eps, TbEPSHint what, char *text, size_t size) {
  EPS inner;
  PetscFunctionBeginUser;
  PetscCall(InnerEPS(eps, &inner));
  std::string hint;
  if (what == TbEPSHint::limits) PetscCall(TbEPSGetHint(inner, what, &hint));
  std::snprintf(text, size, "%s", hint.c_str()); // empty: the default
  PetscFunctionReturn(0);
}

// What the type composes on its EPS: composed by EPSCreate_Folded, cleared by EPSDestroy_Folded.
std::span<const TbEPSFunction> FoldedFunctions() {
  static const TbEPSFunction table[] = {
      TbEPSFn("EPSFoldedGetInner_C", EPSFoldedGetInner_Folded),     TbEPSFn("TbEPSDescribe_C", EPSDescribe_Folded),
      TbEPSFn("TbEPSEstimateVectors_C", EPSEstimateVectors_Folded), TbEPSFn("TbEPSGetTraits_C", EPSGetTraits_Folded),
      TbEPSFn("TbEPSSetProductCap_C", EPSSetProductCap_Folded),     TbEPSFn("TbEPSGetHint_C", EPSGetHint_Folded),
  };
  return table;
}

PetscErrorCode EPSDestroy_Folded(EPS eps) {
  EPS_Folded *ctx = Ctx(eps);
  PetscFunctionBeginUser;
  PetscCall(EPSDestroy(&ctx->inner));
  PetscCall(MatDestroy(&ctx->F));
  delete ctx;
  eps->data = nullptr;
  PetscCall(TbEPSComposeFunctions(eps, FoldedFunctions(), true));
  PetscFunctionReturn(0);
}

PetscErrorCode EPSCreate_Folded(EPS eps) {
  PetscFunctionBeginUser;
  eps->data = new EPS_Folded;
  eps->categ = EPS_CATEGORY_OTHER;
  eps->useds = PETSC_FALSE;
  eps->ops->solve = EPSSolve_Folded;
  eps->ops->setup = EPSSetUp_Folded;
  eps->ops->setfromoptions = EPSSetFromOptions_Folded;
  eps->ops->destroy = EPSDestroy_Folded;
  eps->ops->view = EPSView_Folded;
  eps->ops->backtransform = EPSBackTransform_Folded;
  eps->ops->computevectors = EPSComputeVectors_Folded;
  eps->ops->setupsort = EPSSetUpSort_Tbpeta;
  eps->ops->setdefaultst = EPSSetDefaultST_Folded;
  PetscCall(TbEPSComposeFunctions(eps, FoldedFunctions()));
  PetscFunctionReturn(0);
}

// Under -help, when another type is chosen: its own options (-eps_folded_*) in a section of their own, and its inner
// solver's (-folded_eps_*) from a folded EPS made here (its own section, beside the chosen EPS's, PETSc lists once).
PetscErrorCode ListFoldedOptions(MPI_Comm comm, double target) {
  OwnedEPS eps;
  EPS_Folded defaults;
  PetscFunctionBeginUser;
  PetscCall(EPSCreate(comm, eps.out()));
  PetscCall(EPSSetProblemType(eps, EPS_HEP));
  PetscCall(EPSSetType(eps, EPSFOLDED));
  PetscCall(EPSSetTarget(eps, target));
  PetscCall(EPSSetFromOptions(eps));
  PetscOptionsBegin(comm, nullptr, kFoldedOptionsTitle, "EPS");
  PetscCall(ReadFoldedOptions(PetscOptionsObject, comm, "", &defaults));
  PetscOptionsEnd();
  PetscFunctionReturn(0);
}

} // namespace

EigenSolverType FoldedSolverType() {
  EigenSolverType t;
  t.name = EPSFOLDED;
  t.create = EPSCreate_Folded;
  t.list_options = ListFoldedOptions;
  t.renamed = {{"-folded_shift", "-eps_target (with -eps_type folded)"},
               {"-folded_nev", "-eps_nev (with -eps_type folded)"},
               {"-folded_solver", "-folded_eps_type (krylovschur, arpack, nemo, ...)"}};
  return t;
}

PetscErrorCode EPSFoldedGetInner(EPS eps, EPS *inner) {
  PetscFunctionBeginUser;
  *inner = nullptr;
  PetscUseMethod(eps, "EPSFoldedGetInner_C", (EPS, EPS *), (eps, inner));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
