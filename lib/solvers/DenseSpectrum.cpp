#include "solvers/DenseSpectrum.hpp"

#include <petscblaslapack.h>

#include <algorithm>

#include "operator/OperatorProperties.hpp"
#include "solvers/SolverPolicy.hpp"
#include "support/PetscHandle.hpp"

namespace tbpeta {

namespace {

// H on this rank as a dense column-major array.
PetscErrorCode DenseCopy(Mat H, PetscInt n, std::vector<PetscScalar> *a) {
  struct SubMatrices { // MatCreateSubMatrices' array, freed whatever happens after it
    Mat *m = nullptr;
    ~SubMatrices() {
      if (m) (void)MatDestroySubMatrices(1, &m);
    }
  } copy;
  OwnedMat dense;
  OwnedIS all;
  const PetscScalar *v;
  PetscFunctionBeginUser;
  PetscCall(ISCreateStride(PETSC_COMM_SELF, n, 0, 1, all.out()));
  IS rows = all;
  PetscCall(MatCreateSubMatrices(H, 1, &rows, &rows, MAT_INITIAL_MATRIX, &copy.m));
  PetscCall(MatConvert(copy.m[0], MATSEQDENSE, MAT_INITIAL_MATRIX, dense.out()));
  PetscCall(MatDenseGetArrayRead(dense, &v));
  a->assign(v, v + n * n);
  PetscCall(MatDenseRestoreArrayRead(dense, &v));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode AllEigenvalues(Mat H, std::vector<double> *values) {
  PetscInt n;
  bool entries;
  std::vector<PetscScalar> a, work(1);
  PetscBLASInt bn, lwork = -1, info;
  MPI_Comm comm = PetscObjectComm((PetscObject)H);
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(H, &n, nullptr));
  PetscCall(OperatorHasEntries(H, &entries));
  PetscCheck(entries, comm, PETSC_ERR_USER_INPUT,
             "the dense spectrum needs the entries of H: -hamiltonian aij or baij, not an operator");
  PetscCheck(n <= kDenseMaxRows, comm, PETSC_ERR_USER_INPUT,
             "the dense spectrum of %" PetscInt_FMT " rows is refused above %" PetscInt_FMT " rows", n, kDenseMaxRows);
  PetscCall(DenseCopy(H, n, &a));
  PetscCall(PetscBLASIntCast(n, &bn));
  std::vector<PetscReal> w(n), rwork(std::max<PetscInt>(1, 3 * n - 2));
  if (n > 0) {
    PetscCallBLAS("LAPACKheev",
                  LAPACKheev_("N", "L", &bn, a.data(), &bn, w.data(), work.data(), &lwork, rwork.data(), &info));
    lwork = (PetscBLASInt)PetscRealPart(work[0]);
    work.resize(std::max<PetscBLASInt>(1, lwork));
    PetscCallBLAS("LAPACKheev",
                  LAPACKheev_("N", "L", &bn, a.data(), &bn, w.data(), work.data(), &lwork, rwork.data(), &info));
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK zheev failed (info %d)", (int)info);
  }
  values->assign(w.begin(), w.end()); // ascending
  PetscFunctionReturn(0);
}

} // namespace tbpeta
