#include "tbpeta/FoldedSpectrum.hpp"

#include <petsctime.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <tuple>

#include "tbpeta/LogEvents.hpp"

namespace tbpeta {

namespace {

struct FoldedContext {
  Mat H = nullptr;   // referenced
  PetscScalar sigma = 0;
  Vec work = nullptr; // (H - sigma) x
  PetscInt applications = 0;
  PetscInt h_products = 0;
};

PetscErrorCode FoldedMult(Mat F, Vec x, Vec y) {
  FoldedContext *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(F, &ctx));
  PetscCall(MatMult(ctx->H, x, ctx->work));          // w = H x
  PetscCall(VecAXPY(ctx->work, -ctx->sigma, x));      // w = (H - sigma) x
  PetscCall(MatMult(ctx->H, ctx->work, y));          // y = H w
  PetscCall(VecAXPY(y, -ctx->sigma, ctx->work));      // y = (H - sigma) w
  ctx->applications += 1;
  ctx->h_products += 2;
  PetscFunctionReturn(0);
}

PetscErrorCode FoldedCreateVecs(Mat F, Vec *right, Vec *left) {
  FoldedContext *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(F, &ctx));
  PetscCall(MatCreateVecs(ctx->H, right, left));
  PetscFunctionReturn(0);
}

PetscErrorCode FoldedDestroy(Mat F) {
  FoldedContext *ctx;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(F, &ctx));
  PetscCall(VecDestroy(&ctx->work));
  PetscCall(MatDestroy(&ctx->H));
  delete ctx;
  PetscFunctionReturn(0);
}

bool IsOneOf(const char *name, std::initializer_list<const char *> names) {
  if (!name) return false;
  for (const char *n : names)
    if (std::string(name) == n) return true;
  return false;
}

} // namespace

PetscErrorCode CreateFoldedOperator(Mat H, double sigma, Mat *F) {
  PetscInt m, n, M, N;
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetLocalSize(H, &m, &n));
  PetscCall(MatGetSize(H, &M, &N));
  PetscCheck(M == N && m == n, comm, PETSC_ERR_ARG_SIZ, "the folded operator needs a square H with equal row and column layouts");
  auto *ctx = new FoldedContext;
  ctx->H = H;
  ctx->sigma = sigma;
  PetscCall(PetscObjectReference((PetscObject)H));
  PetscCall(MatCreateVecs(H, &ctx->work, nullptr));
  PetscCall(MatCreateShell(comm, m, n, M, N, ctx, F));
  PetscCall(MatShellSetOperation(*F, MATOP_MULT, (void (*)(void))FoldedMult));
  PetscCall(MatShellSetOperation(*F, MATOP_MULT_HERMITIAN_TRANSPOSE, (void (*)(void))FoldedMult));
  PetscCall(MatShellSetOperation(*F, MATOP_CREATE_VECS, (void (*)(void))FoldedCreateVecs));
  PetscCall(MatShellSetOperation(*F, MATOP_DESTROY, (void (*)(void))FoldedDestroy));
  PetscCall(MatSetOption(*F, MAT_HERMITIAN, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*F, "folded operator (H - sigma)^2"));
  PetscFunctionReturn(0);
}

PetscErrorCode FoldedOperatorProducts(Mat F, PetscInt *h_products) {
  FoldedContext *ctx;
  PetscBool shell;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)F, MATSHELL, &shell));
  PetscCheck(shell, PetscObjectComm((PetscObject)F), PETSC_ERR_ARG_WRONG, "not a folded operator (CreateFoldedOperator)");
  PetscCall(MatShellGetContext(F, &ctx));
  *h_products = ctx->h_products;
  PetscFunctionReturn(0);
}

PetscErrorCode FoldedOptionsFromOptions(MPI_Comm comm, double default_shift, FoldedOptions *options) {
  PetscReal shift = default_shift;
  PetscInt nev = 8;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Folded-spectrum method (-solver folded; its EPS takes the prefix folded_: -folded_eps_type, -folded_eps_tol, ...)", nullptr);
  PetscCall(PetscOptionsReal("-folded_shift", "Energy sigma (eV) whose nearest states are wanted; default: midgap of the host", "FoldedOptionsFromOptions", shift, &shift, nullptr));
  PetscCall(PetscOptionsInt("-folded_nev", "Number of states nearest the shift", "FoldedOptionsFromOptions", nev, &nev, nullptr));
  PetscOptionsEnd();
  PetscCheck(!PetscIsInfOrNanReal(shift), comm, PETSC_ERR_USER_INPUT, "-folded_shift must be a finite energy in eV");
  PetscCheck(nev >= 1, comm, PETSC_ERR_USER_INPUT, "-folded_nev %" PetscInt_FMT " is not a number of states (need >= 1)", nev);
  options->shift = shift;
  options->nev = nev;
  PetscFunctionReturn(0);
}

PetscErrorCode CheckSlepcCombination(EPS eps, bool has_stored_matrix) {
  EPSType type;
  EPSWhich which;
  ST st;
  STType sttype;
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)eps, &comm));
  PetscCall(EPSGetType(eps, &type));
  PetscCall(EPSGetWhichEigenpairs(eps, &which));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STGetType(st, &sttype));
  const bool invert = IsOneOf(sttype, {STSINVERT, STCAYLEY});
  const bool target = which == EPS_TARGET_MAGNITUDE || which == EPS_TARGET_REAL || which == EPS_TARGET_IMAGINARY;
  PetscCheck(!(IsOneOf(type, {EPSARPACK}) && target && !invert), comm, PETSC_ERR_USER_INPUT,
             "-eps_type arpack with a target needs -st_type sinvert (ARPACK would return the largest eigenvalues); or use the folded operator (-solver folded -folded_eps_type arpack)");
  bool stored = has_stored_matrix;
  if (stored) {
    Mat A = nullptr;
    PetscCall(EPSGetOperators(eps, &A, nullptr)); // null when not set yet
    if (A) {
      PetscBool shell;
      PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSHELL, &shell));
      stored = !shell;
    }
  }
  PetscCheck(!(invert && !stored), comm, PETSC_ERR_USER_INPUT, "st_type %s: shift-and-invert needs the stored matrix, not a matrix-free operator such as the folded spectrum's", sttype);
  PetscFunctionReturn(0);
}

PetscErrorCode FoldedSolveWithSlepc(Mat H, const FoldedOptions &options, bool want_vectors, EigenStates *states) {
  EPS eps;
  Mat F;
  Vec x, hx;
  PetscInt nconv, ncv, n;
  PetscLogDouble t0, t1;
  const LogEvents *ev;
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetSize(H, &n, nullptr));
  PetscCheck(options.nev >= 1, comm, PETSC_ERR_USER_INPUT, "-folded_nev %" PetscInt_FMT " is not a number of states (need >= 1)", options.nev);
  PetscCheck(options.nev <= n, comm, PETSC_ERR_USER_INPUT, "-folded_nev %" PetscInt_FMT " asks for more states than H has (%" PetscInt_FMT ")", options.nev, n);
  {
    // A shift beyond the Gershgorin bound |lambda| <= ||H||_inf lies outside the spectrum (stored H only).
    PetscBool shell;
    PetscCall(PetscObjectTypeCompare((PetscObject)H, MATSHELL, &shell));
    if (!shell) {
      PetscReal bound;
      PetscCall(MatNorm(H, NORM_INFINITY, &bound));
      PetscCheck(std::fabs(options.shift) <= bound, comm, PETSC_ERR_USER_INPUT, "-folded_shift %g eV is outside the spectrum of H (|E| <= %g eV)", options.shift, (double)bound);
    }
  }
  PetscCall(CreateFoldedOperator(H, options.shift, &F));
  PetscCall(EPSCreate(comm, &eps));
  PetscCall(EPSSetOptionsPrefix(eps, "folded_"));
  PetscCall(EPSSetOperators(eps, F, nullptr));
  PetscCall(EPSSetProblemType(eps, EPS_HEP));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_SMALLEST_REAL)); // F >= 0: smallest real = smallest magnitude
  PetscCall(EPSSetDimensions(eps, options.nev, PETSC_DEFAULT, PETSC_DEFAULT));
  // Folding squares the distances between levels, so the wanted end of the spectrum is tightly clustered: allow
  // far more restarts than SLEPc's default and ask for the accuracy the Rayleigh quotients need
  // (-folded_eps_max_it / -folded_eps_tol override).
  PetscCall(EPSSetTolerances(eps, 1e-12, 100000));
  PetscCall(EPSSetFromOptions(eps));
  PetscCall(CheckSlepcCombination(eps, false));
  PetscCall(PetscLogEventBegin(ev->solve, 0, 0, 0, 0));
  PetscCall(EPSSolve(eps));
  PetscCall(PetscLogEventEnd(ev->solve, 0, 0, 0, 0));
  PetscCall(EPSGetConverged(eps, &nconv));
  PetscCall(EPSGetIterationNumber(eps, &states->iterations));
  PetscCall(EPSGetDimensions(eps, nullptr, &ncv, nullptr));
  EPSType type;
  PetscCall(EPSGetType(eps, &type));
  states->solver = std::string("folded (") + type + ")";
  states->requested = options.nev;

  // Recover lambda = x^H H x (unit x) and ||Hx - lambda x|| for the nev smallest folded values that converged.
  const PetscInt nkeep = std::min(nconv, options.nev);
  PetscCall(MatCreateVecs(H, &x, &hx));
  PetscInt created = 2, rayleigh_products = 0;
  std::vector<std::tuple<double, double, Vec>> found;
  for (PetscInt i = 0; i < nkeep; ++i) {
    PetscScalar rq;
    PetscReal nrm, res;
    PetscCall(EPSGetEigenvector(eps, i, x, nullptr));
    PetscCall(VecNormalize(x, &nrm));
    PetscCall(MatMult(H, x, hx));
    ++rayleigh_products;
    PetscCall(VecDot(hx, x, &rq)); // x^H (H x)
    const double lambda = PetscRealPart(rq);
    PetscCall(VecAXPY(hx, -lambda, x));
    PetscCall(VecNorm(hx, NORM_2, &res));
    Vec keep = nullptr;
    if (want_vectors) {
      PetscCall(VecDuplicate(x, &keep));
      PetscCall(VecCopy(x, keep));
      ++created;
    }
    found.emplace_back(lambda, (double)res, keep);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return std::get<0>(a) < std::get<0>(b); });
  states->DestroyVectors();
  states->values.clear(), states->residuals.clear();
  for (auto &[lambda, res, v] : found) {
    states->values.push_back(lambda);
    states->residuals.push_back(res);
    if (want_vectors) states->vectors.push_back(v);
  }
  PetscInt folded_products;
  PetscCall(FoldedOperatorProducts(F, &folded_products));
  states->products = folded_products + rayleigh_products;
  states->vectors_held = ncv + 1 + created; // EPS basis, F's work vector, x, Hx and the returned vectors
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&hx));
  PetscCall(EPSDestroy(&eps));
  PetscCall(MatDestroy(&F));
  PetscCall(PetscTime(&t1));
  states->seconds = t1 - t0;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
