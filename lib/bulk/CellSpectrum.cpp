#include "bulk/CellSpectrum.hpp"

#include <petscblaslapack.h>
#include <petscmat.h>
#include <slepceps.h>

#include <algorithm>

#include "operator/Hamiltonian.hpp"
#include "support/ErrorReporting.hpp"
#include "support/PetscHandle.hpp"

// Divide and conquer (zheevd in complex builds): several times faster than zheev with eigenvectors; PETSc's
// petscblaslapack.h has no name for it, so declare it with PETSc's own name mangling.
#define TbpetaLAPACKheevd_ PETSCBLAS(heevd, HEEVD)
extern "C" void TbpetaLAPACKheevd_(const char *, const char *, const PetscBLASInt *, PetscScalar *,
                                   const PetscBLASInt *, PetscReal *, PetscScalar *, const PetscBLASInt *, PetscReal *,
                                   const PetscBLASInt *, PetscBLASInt *, const PetscBLASInt *, PetscBLASInt *);

namespace tbpeta {

namespace {

// H(k) of the cell as a dense column-major array (stored AIJ, checked finite).
PetscErrorCode DenseHamiltonian(const BulkCell &cell, std::array<double, 3> k, PetscBLASInt *n,
                                std::vector<PetscScalar> *A) {
  OwnedMat H;
  PetscInt rows, r0, r1;
  PetscFunctionBeginUser;
  PetscCall(CreateHamiltonian(PETSC_COMM_SELF, cell.structure, cell.model, k, HamiltonianOptions{}, H.out()));
  PetscCall(MatGetSize(H, &rows, nullptr));
  *n = (PetscBLASInt)rows;
  A->assign((size_t)rows * rows, 0.0);
  PetscCall(MatGetOwnershipRange(H, &r0, &r1));
  for (PetscInt r = r0; r < r1; ++r) {
    PetscInt nc;
    const PetscInt *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(H, r, &nc, &cols, &vals));
    for (PetscInt c = 0; c < nc; ++c) (*A)[(size_t)cols[c] * rows + r] = vals[c];
    PetscCall(MatRestoreRow(H, r, &nc, &cols, &vals));
  }
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode CellEigenvalues(const BulkCell &cell, std::array<double, 3> k, std::vector<double> *values) {
  OwnedMat H;
  OwnedEPS eps;
  PetscInt n, nconv;
  PetscFunctionBeginUser;
  PetscCall(CreateHamiltonian(PETSC_COMM_SELF, cell.structure, cell.model, k, HamiltonianOptions{}, H.out()));
  PetscCall(MatGetSize(H, &n, nullptr));
  PetscCall(EPSCreate(PETSC_COMM_SELF, eps.out()));
  PetscCall(EPSSetOperators(eps, H, nullptr));
  PetscCall(EPSSetProblemType(eps, EPS_HEP));
  PetscCall(EPSSetType(eps, EPSLAPACK));
  PetscCall(EPSSetDimensions(eps, n, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_SMALLEST_REAL));
  PetscCall(EPSSolve(eps));
  PetscCall(EPSGetConverged(eps, &nconv));
  values->resize(nconv);
  for (PetscInt i = 0; i < nconv; ++i) {
    PetscScalar lambda;
    PetscCall(EPSGetEigenvalue(eps, i, &lambda, nullptr));
    (*values)[i] = PetscRealPart(lambda);
  }
  std::sort(values->begin(), values->end());
  PetscFunctionReturn(0);
}

PetscErrorCode CellEigenpairs(const BulkCell &cell, std::array<double, 3> k, std::vector<double> *values,
                              std::vector<PetscScalar> *vectors) {
  PetscBLASInt n, lwork = -1, lrwork = -1, liwork = -1, iquery = 0, info = 0;
  std::vector<PetscScalar> A;
  PetscScalar query;
  PetscReal rquery;
  const char *job = "V";
  PetscFunctionBeginUser;
  PetscCall(DenseHamiltonian(cell, k, &n, &A));
  std::vector<PetscReal> w(n);
  TbpetaLAPACKheevd_(job, "L", &n, A.data(), &n, w.data(), &query, &lwork, &rquery, &lrwork, &iquery, &liwork, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK heevd workspace query failed (info %d)", (int)info);
  lwork = (PetscBLASInt)PetscRealPart(query), lrwork = (PetscBLASInt)rquery, liwork = iquery;
  std::vector<PetscScalar> work(lwork);
  std::vector<PetscReal> rwork(lrwork);
  std::vector<PetscBLASInt> iwork(liwork);
  TbpetaLAPACKheevd_(job, "L", &n, A.data(), &n, w.data(), work.data(), &lwork, rwork.data(), &lrwork, iwork.data(),
                     &liwork, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK heevd failed (info %d)", (int)info);
  values->assign(w.begin(), w.end());
  *vectors = std::move(A);
  PetscFunctionReturn(0);
}

PetscErrorCode BulkBandEdges(const TightBindingModel &model, int material, double *vbm, double *cbm) {
  BulkCell cell;
  std::vector<double> e;
  PetscFunctionBeginUser;
  const SameOnEveryRank redundant; // every rank computes this cell from the same parameters
  PetscCall(CreateBulkCell(model, material, 1, &cell));
  PetscCall(CellEigenvalues(cell, {0, 0, 0}, &e));
  // 8 atoms with 4 valence electron pairs per atom pair: 16 valence bands, doubled with spin.
  const size_t nval = 16 * (model.spin_orbit ? 2 : 1);
  *vbm = e[nval - 1];
  *cbm = e[nval];
  PetscFunctionReturn(0);
}

} // namespace tbpeta
