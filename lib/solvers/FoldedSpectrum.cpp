#include "solvers/FoldedSpectrum.hpp"

#include <petsctime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "support/LogEvents.hpp"
#include "solvers/SlepcSolver.hpp"

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

// Checks nev and the shift against H; *bound = ||H||_inf (Gershgorin bound of the spectrum), -1 (unknown) for a
// MatShell H.
PetscErrorCode CheckFoldedProblem(Mat H, const FoldedOptions &options, PetscReal *bound) {
  PetscInt n;
  PetscBool shell;
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(MatGetSize(H, &n, nullptr));
  PetscCheck(options.nev >= 1, comm, PETSC_ERR_USER_INPUT, "-folded_nev %" PetscInt_FMT " is not a number of states (need >= 1)", options.nev);
  PetscCheck(options.nev <= n, comm, PETSC_ERR_USER_INPUT, "-folded_nev %" PetscInt_FMT " asks for more states than H has (%" PetscInt_FMT ")", options.nev, n);
  *bound = -1;
  PetscCall(PetscObjectTypeCompare((PetscObject)H, MATSHELL, &shell));
  if (!shell) {
    // A shift beyond the Gershgorin bound |lambda| <= ||H||_inf lies outside the spectrum.
    PetscCall(MatNorm(H, NORM_INFINITY, bound));
    PetscCheck(std::fabs(options.shift) <= *bound, comm, PETSC_ERR_USER_INPUT, "-folded_shift %g eV is outside the spectrum of H (|E| <= %g eV)", options.shift, (double)*bound);
  }
  PetscFunctionReturn(0);
}

struct Recovered {
  double value = 0, residual = 0;
  Vec x = nullptr; // kept for the caller, or null
};

// The state of H that the approximate eigenvector x of F stands for: x normalised in place, value = x^H H x,
// residual = ||Hx - value x||. hx: work vector. One product of H.
PetscErrorCode RayleighWithH(Mat H, Vec x, Vec hx, Recovered *r) {
  PetscScalar rq;
  PetscReal nrm, res;
  PetscFunctionBeginUser;
  PetscCall(VecNormalize(x, &nrm));
  PetscCall(MatMult(H, x, hx));
  PetscCall(VecDot(hx, x, &rq)); // x^H (H x)
  r->value = PetscRealPart(rq);
  PetscCall(VecAXPY(hx, -r->value, x));
  PetscCall(VecNorm(hx, NORM_2, &res));
  r->residual = res;
  PetscFunctionReturn(0);
}

// Fills states (ascending; the vectors when want_vectors) from the recovered states, counts the products of H (F's
// and one per Rayleigh quotient), flags the vectors whose H residual shows them to be no eigenvectors of H (note in
// the solver string, report->unresolved). bound: Gershgorin bound of H, -1 if unknown.
PetscErrorCode FinishFoldedStates(Mat F, const FoldedOptions &options, PetscReal bound, std::vector<Recovered> &found, bool want_vectors, EigenStates *states,
                                  FoldedReport *report) {
  PetscInt folded_products;
  PetscFunctionBeginUser;
  std::stable_sort(found.begin(), found.end(), [](const Recovered &a, const Recovered &b) { return a.value < b.value; });
  double scale = std::max(bound, 0.0);
  for (const Recovered &r : found) scale = std::max(scale, std::fabs(r.value));
  report->residual_limit = kFoldedResidualLimit * (scale + std::fabs(options.shift));
  report->unresolved.clear();
  states->DestroyVectors();
  states->values.clear(), states->residuals.clear();
  for (const Recovered &r : found) {
    states->values.push_back(r.value);
    states->residuals.push_back(r.residual);
    if (want_vectors) states->vectors.push_back(r.x);
    if (r.residual > report->residual_limit) report->unresolved.push_back(r.value);
  }
  if (!report->unresolved.empty()) {
    char note[200];
    std::snprintf(note, sizeof note, "; %zu states with ||Hx - Ex|| > %.1e eV: mixed levels sigma -/+ d (one eigenvalue d^2 of F) or unconverged", report->unresolved.size(),
                  report->residual_limit);
    states->solver += note;
  }
  PetscCall(FoldedOperatorProducts(F, &folded_products));
  states->products = folded_products + (PetscInt)found.size();
  PetscFunctionReturn(0);
}

// About the largest eigenvalue of F >= 0: the Rayleigh quotient after `steps` power iterations (it approaches it
// from below), from a start vector fixed by the canonical rows (empty: global rows), so by no rank count.
PetscErrorCode LargestEigenvalueEstimate(Mat F, std::span<const PetscInt> canonical_rows, PetscInt steps, double *rho) {
  Vec x, y;
  PetscScalar *a, rq = 0;
  PetscInt n, rstart;
  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(F, &x, &y));
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetOwnershipRange(x, &rstart, nullptr));
  PetscCall(VecGetArray(x, &a));
  for (PetscInt i = 0; i < n; ++i) { // golden-ratio sequence in (-1/2, 1/2): spread over every eigenvector
    const double row = (double)(canonical_rows.empty() ? rstart + i : canonical_rows[i]);
    a[i] = row * 0.6180339887498949 - std::floor(row * 0.6180339887498949) - 0.5;
  }
  PetscCall(VecRestoreArray(x, &a));
  PetscCall(VecNormalize(x, nullptr));
  for (PetscInt k = 0; k < steps; ++k) {
    PetscCall(MatMult(F, x, y));
    PetscCall(VecDot(y, x, &rq)); // x^H F x
    PetscCall(VecNormalize(y, nullptr));
    std::swap(x, y);
  }
  *rho = std::max(PetscRealPart(rq), 0.0);
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(0);
}

} // namespace

const char *FoldedSolverName(FoldedSolver solver) { return solver == FoldedSolver::lanczos ? "lanczos" : "slepc"; }

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
  char solver[64];
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(solver, FoldedSolverName(FoldedSolver::slepc), sizeof solver));
  PetscOptionsBegin(comm, nullptr, "Folded-spectrum method (-solver folded; its EPS takes the prefix folded_: -folded_eps_type, -folded_eps_tol, ...)", nullptr);
  PetscCall(PetscOptionsReal("-folded_shift", "Energy sigma (eV) whose nearest states are wanted; default: midgap of the host", "FoldedOptionsFromOptions", shift, &shift, nullptr));
  PetscCall(PetscOptionsInt("-folded_nev", "Number of states nearest the shift", "FoldedOptionsFromOptions", nev, &nev, nullptr));
  PetscCall(PetscOptionsString("-folded_solver", "Eigen-solver on (H - sigma)^2: slepc (EPS, -folded_eps_* options) or lanczos (-lanczos_tol, -lanczos_max_steps, ...)",
                               "FoldedOptionsFromOptions", solver, solver, sizeof solver, nullptr));
  PetscOptionsEnd();
  PetscCheck(!PetscIsInfOrNanReal(shift), comm, PETSC_ERR_USER_INPUT, "-folded_shift must be a finite energy in eV");
  PetscCheck(nev >= 1, comm, PETSC_ERR_USER_INPUT, "-folded_nev %" PetscInt_FMT " is not a number of states (need >= 1)", nev);
  const bool lanczos = std::string(solver) == FoldedSolverName(FoldedSolver::lanczos);
  PetscCheck(lanczos || std::string(solver) == FoldedSolverName(FoldedSolver::slepc), comm, PETSC_ERR_USER_INPUT, "-folded_solver %s is not a folded-spectrum solver (slepc or lanczos)",
             solver);
  options->shift = shift;
  options->nev = nev;
  options->solver = lanczos ? FoldedSolver::lanczos : FoldedSolver::slepc;
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
  PetscCheck(!(invert && !stored), comm, PETSC_ERR_USER_INPUT, "-st_type %s: shift-and-invert factors the matrix: it needs -hamiltonian stored, not an operator (-hamiltonian shell or stored_blocks, the folded spectrum's)", sttype);
  PetscFunctionReturn(0);
}

PetscErrorCode FoldedSolveWithSlepc(Mat H, const FoldedOptions &options, bool want_vectors, EigenStates *states, FoldedReport *report) {
  EPS eps;
  Mat F;
  Vec x, hx;
  PetscInt nconv;
  PetscReal bound;
  PetscLogDouble t0, t1;
  const LogEvents *ev;
  MPI_Comm comm;
  FoldedReport local_report;
  FoldedReport &rep = report ? *report : local_report;
  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(CheckFoldedProblem(H, options, &bound));
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
  PetscCall(StopOnInterrupt(eps, "the folded-spectrum SLEPc solve"));
  PetscCall(PetscLogEventBegin(ev->solve, 0, 0, 0, 0));
  PetscCall(EPSSolve(eps));
  PetscCall(PetscLogEventEnd(ev->solve, 0, 0, 0, 0));
  PetscCall(EPSGetConverged(eps, &nconv));
  PetscCall(EPSGetIterationNumber(eps, &states->iterations));
  EPSType type;
  PetscCall(EPSGetType(eps, &type));
  states->solver = std::string("folded (") + type + ")";
  states->requested = options.nev;

  // The states of H from the nev smallest folded values that converged.
  const PetscInt nkeep = std::min(nconv, options.nev);
  PetscCall(MatCreateVecs(H, &x, &hx));
  std::vector<Recovered> found(nkeep);
  for (PetscInt i = 0; i < nkeep; ++i) {
    PetscCall(EPSGetEigenvector(eps, i, x, nullptr));
    PetscCall(RayleighWithH(H, x, hx, &found[i]));
    if (want_vectors) {
      PetscCall(VecDuplicate(x, &found[i].x));
      PetscCall(VecCopy(x, found[i].x));
    }
  }
  PetscCall(FinishFoldedStates(F, options, bound, found, want_vectors, states, &rep));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&hx));
  PetscCall(EPSDestroy(&eps));
  PetscCall(MatDestroy(&F));
  PetscCall(PetscTime(&t1));
  states->seconds = t1 - t0;
  PetscFunctionReturn(0);
}

PetscErrorCode FoldedSolveWithLanczos(Mat H, const FoldedOptions &options, std::span<const PetscInt> canonical_rows, PetscInt kramers_block, bool want_vectors,
                                      EigenStates *states, FoldedReport *report) {
  Mat F;
  Vec hx;
  PetscReal bound;
  PetscLogDouble t0, t1;
  MPI_Comm comm;
  LanczosOptions lo;
  EigenStates on_f;
  FoldedReport local_report;
  FoldedReport &rep = report ? *report : local_report;
  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(CheckFoldedProblem(H, options, &bound));
  lo.kramers_block = kramers_block;
  PetscCall(LanczosOptionsFromOptions(comm, options.shift, &lo));
  PetscCall(CreateFoldedOperator(H, options.shift, &F));
  // The Lanczos forms beta^2 as ||w||^2 - alpha^2 (one reduction per step), which amplifies the error in the norm
  // of each new vector by about (alpha / beta)^2 per step: on the spectrum [0, ||F||] of F (alpha ~ 2 beta) the
  // tridiagonal has eigenvalues < 0 within some 30 steps. Centred, F - c I with c ~ ||F|| / 2 (anything in
  // [||F|| / 4, 3 ||F|| / 4] does), it is stable, and the Krylov spaces are the same. The estimate of ||F|| comes from
  // below, so c <= ||F|| / 2.
  double rho = 0;
  PetscCall(LargestEigenvalueEstimate(F, canonical_rows, 10, &rho));
  const double centre = 0.5 * rho;
  PetscCall(MatShift(F, -centre));
  // The options.nev smallest eigenvalues of F - c >= -c: all "above" a gap centre just below -c, below it by far
  // more than rounding (eps ||F||), so that a level at sigma itself is not lost.
  lo.window_set = false, lo.nev_valence = 0, lo.nev_conduction = options.nev, lo.gap_center = -centre - 1e-8 * rho;
  PetscCall(LanczosSolve(F, lo, canonical_rows, true, &on_f, &rep.lanczos)); // the vectors give the values
  PetscCheck(on_f.vectors.size() == on_f.values.size(), comm, PETSC_ERR_USER_INPUT, "-folded_solver lanczos needs the Lanczos eigenvectors (not -lanczos_vectors false)");
  states->iterations = rep.lanczos.steps;
  states->requested = on_f.requested;
  states->solver = "folded (lanczos)";
  if (!rep.lanczos.converged) {
    char note[160];
    std::snprintf(note, sizeof note, "; not converged within %d steps: %zu wanted levels of F unconverged", (int)rep.lanczos.steps, rep.lanczos.unconverged.size());
    states->solver += note;
  }
  for (double &mu : rep.lanczos.unconverged) mu += centre; // eigenvalues of F

  PetscCall(MatCreateVecs(H, nullptr, &hx));
  std::vector<Recovered> found(on_f.vectors.size());
  for (size_t i = 0; i < found.size(); ++i) {
    PetscCall(RayleighWithH(H, on_f.vectors[i], hx, &found[i]));
    if (want_vectors) found[i].x = on_f.vectors[i];
    else PetscCall(VecDestroy(&on_f.vectors[i]));
  }
  on_f.vectors.clear(); // owned by found (or destroyed)
  PetscCall(FinishFoldedStates(F, options, bound, found, want_vectors, states, &rep));
  PetscCall(VecDestroy(&hx));
  PetscCall(MatDestroy(&F));
  PetscCall(PetscTime(&t1));
  states->seconds = t1 - t0;
  PetscFunctionReturn(0);
}

PetscErrorCode FoldedSolve(Mat H, const FoldedOptions &options, std::span<const PetscInt> canonical_rows, PetscInt kramers_block, bool want_vectors, EigenStates *states,
                           FoldedReport *report) {
  PetscFunctionBeginUser;
  if (options.solver == FoldedSolver::lanczos) PetscCall(FoldedSolveWithLanczos(H, options, canonical_rows, kramers_block, want_vectors, states, report));
  else PetscCall(FoldedSolveWithSlepc(H, options, want_vectors, states, report));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
