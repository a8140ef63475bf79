#include "solvers/SolverPolicy.hpp"

#include <cmath>
#include <initializer_list>
#include <string>

#include "solvers/EpsOptionPrefix.hpp"
#include "operator/OperatorProperties.hpp"
#include "solvers/SolverTraits.hpp"
#include "support/BlasLimits.hpp"

namespace tbpeta {

namespace {

bool IsOneOf(const char *name, std::initializer_list<const char *> names) {
  if (!name) return false;
  for (const char *n : names)
    if (std::string(name) == n) return true;
  return false;
}

// A solver whose vector algebra goes through SLEPc's BV (every SLEPc type) calls the BLAS's zgemv on a rank's rows:
// refused where the BLAS in use cannot (BlasLimits.hpp). tbpeta's types do their own vector algebra and say so by
// their traits (SolverTraits.hpp; the folded spectrum's inner solver is checked when the folded one sets up).
PetscErrorCode CheckBlasRows(EPS eps, Mat A, const std::string &p, const char *type) {
  TbEPSTraits traits;
  PetscInt rows, size;
  MPI_Comm comm = PetscObjectComm((PetscObject)eps);
  PetscFunctionBeginUser;
  PetscCall(TbEPSGetTraits(eps, &traits));
  const PetscInt limit = BlasGemvRowLimit();
  if (traits.own_vector_algebra || limit == PETSC_MAX_INT) PetscFunctionReturn(0);
  PetscCall(MatGetLocalSize(A, &rows, nullptr));
  PetscCall(MatGetSize(A, &size, nullptr));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &rows, 1, MPIU_INT, MPI_MAX, comm));
  PetscCheck(rows <= limit, comm, PETSC_ERR_USER_INPUT,
             "%seps_type %s: %" PetscInt_FMT
             " rows on a rank are more than this machine's BLAS can take in SLEPc's orthogonalisation (OpenBLAS's %s "
             "kernels overrun their buffer above %" PetscInt_FMT "): use at least %" PetscInt_FMT
             " ranks, or -eps_type nemo, or set OPENBLAS_CORETYPE to a core this CPU has (e.g. Haswell)",
             p.c_str(), type, rows, BlasKernelName().c_str(), limit, size / limit + 1);
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode SolverPolicyFromOptions(MPI_Comm comm, SolverPolicy *policy) {
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Dense LAPACK on H", "tbpeta");
  PetscCall(PetscOptionsInt("-dense_max_rows",
                            "Largest H that -eps_type lapack may densify (16 n^2 bytes on every rank, O(n^3) time)",
                            "CheckEigenSolver", policy->dense_max_rows, &policy->dense_max_rows, nullptr));
  PetscOptionsEnd();
  PetscCheck(policy->dense_max_rows >= 0, comm, PETSC_ERR_USER_INPUT,
             "-dense_max_rows must be >= 0, got %" PetscInt_FMT, policy->dense_max_rows);
  PetscFunctionReturn(0);
}

PetscErrorCode CheckEigenSolver(EPS eps, Mat A, const SolverPolicy &policy) {
  EPSType type;
  EPSWhich which;
  ST st;
  STType sttype;
  PetscScalar target;
  PetscInt n;
  bool entries;
  MPI_Comm comm = PetscObjectComm((PetscObject)eps);
  const std::string p = OptionPrefix(eps);
  PetscFunctionBeginUser;
  PetscCall(EPSGetType(eps, &type));
  PetscCall(EPSGetWhichEigenpairs(eps, &which));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STGetType(st, &sttype));
  PetscCall(EPSGetTarget(eps, &target));
  PetscCall(OperatorHasEntries(A, &entries));
  PetscCall(MatGetSize(A, &n, nullptr));
  PetscInt nev;
  PetscCall(EPSGetDimensions(eps, &nev, nullptr, nullptr));
  PetscCheck(which == EPS_ALL || nev <= n, comm, PETSC_ERR_USER_INPUT,
             "%seps_nev %" PetscInt_FMT " asks for more states than H has rows (%" PetscInt_FMT ")", p.c_str(), nev, n);
  const bool invert = IsOneOf(sttype, {STSINVERT, STCAYLEY});
  const bool targeted = which == EPS_TARGET_MAGNITUDE || which == EPS_TARGET_REAL || which == EPS_TARGET_IMAGINARY;
  PetscCheck(!targeted || std::isfinite(PetscRealPart(target)), comm, PETSC_ERR_USER_INPUT,
             "%seps_target: %g is not a finite energy (eV)", p.c_str(), (double)PetscRealPart(target));
  PetscCheck(!(IsOneOf(type, {EPSARPACK}) && targeted && !invert), comm, PETSC_ERR_USER_INPUT,
             "%seps_type arpack with a target needs %sst_type sinvert (ARPACK would return the largest eigenvalues); "
             "or run ARPACK on the folded spectrum (-eps_type folded: docs/solvers.md)",
             p.c_str(), p.c_str());
  PetscCheck(!invert || entries, comm, PETSC_ERR_USER_INPUT,
             "%sst_type %s: shift-and-invert factors the matrix: it needs -hamiltonian aij or baij, not an operator "
             "(-hamiltonian shell or stored_blocks, the folded spectrum's)",
             p.c_str(), sttype);
  PetscCall(CheckBlasRows(eps, A, p, type));
  if (!IsOneOf(type, {EPSLAPACK})) PetscFunctionReturn(0);
  PetscCheck(entries, comm, PETSC_ERR_USER_INPUT,
             "%seps_type lapack densifies the entries of H: it needs -hamiltonian aij or baij, not an operator "
             "(-hamiltonian shell or stored_blocks)",
             p.c_str());
  PetscCheck(n <= policy.dense_max_rows, comm, PETSC_ERR_USER_INPUT,
             "%seps_type lapack densifies H: %" PetscInt_FMT
             " rows would need %.1f GB on every rank and O(n^3) time; refused above -dense_max_rows %" PetscInt_FMT
             " (use an iterative solver)",
             p.c_str(), n, 16.0 * n * (double)n / 1e9, policy.dense_max_rows);
  PetscFunctionReturn(0);
}

} // namespace tbpeta
