#pragma once
// Building a whole system from an options string, as the application does, for tests.
#include <petscsys.h>

#include <algorithm>
#include <functional>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "model/TightBindingSystem.hpp"
#include "operator/Hamiltonian.hpp"
#include "solvers/DenseSpectrum.hpp"
#include "solvers/EigenSolve.hpp"
#include "test_support.hpp"

namespace tbpeta::test {

// A diagonal matrix with the spectrum e (a known answer for the eigen-solvers), rows split by PETSc.
inline PetscErrorCode DiagonalMatrix(MPI_Comm comm, const std::vector<double> &e, Mat *A) {
  PetscInt rstart, rend;
  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(comm, PETSC_DECIDE, PETSC_DECIDE, (PetscInt)e.size(), (PetscInt)e.size(), 1, nullptr, 0,
                         nullptr, A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; ++i) PetscCall(MatSetValue(*A, i, i, e[i], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

// Replaces the options database with `options` and builds the system on comm.
inline PetscErrorCode BuildFromOptions(MPI_Comm comm, const std::string &options, TightBindingSystem *sys) {
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsClear(nullptr));
  PetscCall(PetscOptionsInsertString(nullptr, options.c_str()));
  PetscCall(TightBindingSystemFromOptions(comm, true, sys));
  PetscFunctionReturn(0);
}

// A displacement of up to 0.012 nm per component from a hash of the atom's site: the same atom gets the same
// displacement on every rank and through every periodic face.
inline void DisplaceAtoms(Structure *s) {
  s->StoreDisplacements();
  for (size_t i = 0; i < s->sites.size(); ++i) {
    const PlaneIndex &p = s->sites[i];
    for (int c = 0; c < 3; ++c) {
      const unsigned long long key =
          ((unsigned long long)p.x * 1315423911ULL + (unsigned long long)p.y) * 2654435761ULL +
          (unsigned long long)p.z; // wraps: unsigned
      unsigned long long z = 0x9e3779b97f4a7c15ULL * (key * 3 + (unsigned long long)c + 1);
      z ^= z >> 31;
      z *= 0xbf58476d1ce4e5b9ULL;
      z ^= z >> 29;
      s->displacement[i][c] = 0.012 * ((double)(z & 0xffff) / 32768.0 - 1.0);
    }
  }
}

// y = H x for H of `kind` with its own options as on the command line (e.g. "shell", "-shell_block_cache 0") and x the
// hashed vector (HashedVector); `adjust` may change the built operator before the product.
inline PetscErrorCode HashedProduct(const TightBindingSystem &sys, const std::string &kind, const std::string &options,
                                    Vec *y, const std::function<PetscErrorCode(Mat)> &adjust = nullptr) {
  HamiltonianOptions opts;
  Mat H;
  Vec x;
  PetscFunctionBeginUser;
  PetscCall(HamiltonianOptionsOf(kind, options, &opts));
  PetscCall(CreateHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.spec.cell.k, opts, &H));
  if (adjust) PetscCall(adjust(H));
  PetscCall(HashedVector(H, &x));
  PetscCall(VecDuplicate(x, y));
  PetscCall(MatMult(H, x, *y));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

// Every eigenvalue of the system's H (small systems only).
inline PetscErrorCode SpectrumFromOptions(MPI_Comm comm, const std::string &options, std::vector<double> *values,
                                          const std::string &kind = "aij") {
  TightBindingSystem sys;
  Mat H;
  HamiltonianOptions opts;
  PetscFunctionBeginUser;
  PetscCall(BuildFromOptions(comm, options, &sys));
  opts.kind = kind;
  PetscCall(CreateHamiltonian(comm, sys.structure, sys.model, sys.spec.cell.k, opts, &H));
  PetscCall(AllEigenvalues(H, values));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

// H of `kind` (with its properties, products counted; check_finite as CreateHamiltonian).
inline PetscErrorCode MakeOperator(const TightBindingSystem &sys, const std::string &kind, Mat *H,
                                   bool block_cache = true, bool check_finite = true) {
  HamiltonianOptions opts;
  PetscFunctionBeginUser;
  PetscCall(HamiltonianOptionsOf(kind, block_cache ? "" : "-shell_block_cache 0", &opts));
  PetscCall(CreateHamiltonian(PETSC_COMM_WORLD, sys.structure, sys.model, sys.spec.cell.k, opts, H, check_finite));
  PetscFunctionReturn(0);
}

// An eigen-solve as the application makes it: the options of `options` (replacing the database), tbpeta's defaults
// with `target`, the states read back. The EPS is given to `keep` (for its vectors; the caller destroys it), or
// destroyed.
inline PetscErrorCode SolveWith(Mat H, double target, const std::string &options, EigenStates *states,
                                SolveMeter *meter = nullptr, EPS *keep = nullptr) {
  EPS eps;
  MPI_Comm comm;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)H, &comm));
  PetscCall(PetscOptionsClear(nullptr));
  PetscCall(PetscOptionsInsertString(nullptr, options.c_str()));
  PetscCall(CreateEigenSolver(comm, nullptr, target, &eps));
  const PetscErrorCode ierr = SolveEigenproblem(eps, H, SolverPolicy{}, states, meter);
  if (keep && !ierr) *keep = eps;
  else PetscCall(EPSDestroy(&eps));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

// The largest ||H x_k - lambda_k x_k|| of the states' vectors, and the largest | ||x_k|| - 1 |. Collective.
inline PetscErrorCode CheckVectors(Mat H, EPS eps, const EigenStates &states, double *residual, double *norm_error) {
  Vec x, r;
  PetscFunctionBeginUser;
  *residual = 0, *norm_error = 0;
  PetscCall(MatCreateVecs(H, &x, &r));
  for (size_t k = 0; k < states.values.size(); ++k) {
    PetscReal nrm, res;
    PetscCall(StateVector(eps, states, k, x));
    PetscCall(VecNorm(x, NORM_2, &nrm));
    PetscCall(MatMult(H, x, r));
    PetscCall(VecAXPY(r, -states.values[k], x));
    PetscCall(VecNorm(r, NORM_2, &res));
    *residual = std::max(*residual, (double)res);
    *norm_error = std::max(*norm_error, std::fabs((double)nrm - 1.0));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(0);
}

// A message of the first error of f (errors returned, not printed), and its code.
template <class F>
PetscErrorCode FirstMessage(F &&f, std::string *message) {
  PetscPushErrorHandler(
      [](MPI_Comm, int, const char *, const char *, PetscErrorCode n, PetscErrorType p, const char *mess,
         void *ctx) -> PetscErrorCode {
        if (p == PETSC_ERROR_INITIAL) *(std::string *)ctx = mess ? mess : "";
        return n;
      },
      message);
  PetscErrorCode ierr = f();
  PetscPopErrorHandler();
  return ierr;
}

// Runs a PETSc call with errors returned instead of printed; gives its error code.
template <class F>
PetscErrorCode Quietly(F &&f) {
  PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  PetscErrorCode ierr = f();
  PetscPopErrorHandler();
  return ierr;
}

// The canonical indices of the cations of material m, gathered from every rank (the atoms a shape or region took).
inline std::set<long long> CationsOf(const TightBindingSystem &sys, int m) {
  const Structure &s = sys.structure;
  std::vector<long long> mine;
  for (PetscInt i = 0; i < s.owned; ++i)
    if (s.sublattice(i) == Sublattice::cation && s.material[i] == m)
      mine.push_back(s.lattice.canonicalIndex(s.sites[i]));
  int n = (int)mine.size(), size;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  std::vector<int> counts(size), displs(size, 0);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, PETSC_COMM_WORLD);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<long long> all(displs.back() + counts.back());
  MPI_Allgatherv(mine.data(), n, MPI_LONG_LONG, all.data(), counts.data(), displs.data(), MPI_LONG_LONG,
                 PETSC_COMM_WORLD);
  return {all.begin(), all.end()};
}

} // namespace tbpeta::test
