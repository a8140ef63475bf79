#include "operator/BondCommutator.hpp"

#include <cmath>
#include <complex>

#include "model/StrainedBonds.hpp"
#include "operator/HamiltonianBlocks.hpp"

namespace tbpeta {

std::array<double, 3> StrainedPosition(const Structure &s, PetscInt site) {
  const PlaneIndex &p = s.sites[site];
  std::array<double, 3> r = StrainedIdealBond({p.x, p.y, p.z}, s.a_nm / 4, s.strain); // linear in the planes
  const std::array<double, 3> u = s.displacementOf(site);
  for (int a = 0; a < 3; ++a) r[a] += u[a];
  return r;
}

namespace {

// The lattice vector (planes) from the site held for bond b's neighbour to the image that owned atom i bonds to:
// zero, or a multiple of the supercell's size along the periodic axes that the bond crosses.
std::array<int, 3> ImagePlanes(const Structure &s, PetscInt i, int b) {
  const PlaneIndex &p = s.sites[i], &q = s.sites[s.bonds[i][b]];
  const std::array<int, 3> d = ZincblendeLattice::bondVector(p, b);
  return {p.x + d[0] - q.x, p.y + d[1] - q.y, p.z + d[2] - q.z};
}

bool Crosses(const std::array<int, 3> &w) { return w[0] != 0 || w[1] != 0 || w[2] != 0; }

// K_axis: the bonds that cross a periodic face, each block H_ij times the image offset's component (eV nm).
PetscErrorCode AssembleImageBonds(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                                  std::array<double, 3> k, OwnedMat K[3]) {
  using Complex = std::complex<double>;
  const double q = s.a_nm / 4;
  PetscInt crossing = 0;
  PetscFunctionBeginUser;
  std::vector<PetscInt> dnnz(s.owned, 0), onnz(s.owned, 0);
  for (PetscInt i = 0; i < s.owned; ++i)
    for (int b = 0; b < 4; ++b)
      if (s.bonds[i][b] >= 0 && Crosses(ImagePlanes(s, i, b)))
        ++(s.bonds[i][b] < s.owned ? dnnz[i] : onnz[i]), ++crossing;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &crossing, 1, MPIU_INT, MPI_SUM, comm));
  if (crossing == 0) PetscFunctionReturn(0);
  const HamiltonianBlocks blocks(s, model, k);
  const int bs = blocks.blockSize();
  std::vector<Complex> blk((size_t)bs * bs), weighted(blk.size());
  for (int axis = 0; axis < 3; ++axis) {
    PetscCall(MatCreate(comm, K[axis].out()));
    PetscCall(MatSetSizes(K[axis], s.owned * bs, s.owned * bs, PETSC_DETERMINE, PETSC_DETERMINE));
    PetscCall(MatSetType(K[axis], MATBAIJ));
    PetscCall(MatSeqBAIJSetPreallocation(K[axis], bs, 0, dnnz.data()));
    PetscCall(MatMPIBAIJSetPreallocation(K[axis], bs, 0, dnnz.data(), 0, onnz.data()));
    for (PetscInt i = 0; i < s.owned; ++i)
      for (int b = 0; b < 4; ++b) {
        if (s.bonds[i][b] < 0) continue;
        const std::array<int, 3> w = ImagePlanes(s, i, b);
        if (!Crosses(w)) continue;
        const std::array<double, 3> off = StrainedIdealBond(w, q, s.strain); // nm
        blocks.bond(i, b, blk.data());
        for (size_t e = 0; e < blk.size(); ++e) weighted[e] = blk[e] * off[axis];
        const PetscInt row = s.globalIndex(i), col = s.globalIndex(s.bonds[i][b]);
        // ADD: two bonds of one atom may reach two images of the same neighbour in a supercell one cell wide
        PetscCall(MatSetValuesBlocked(K[axis], 1, &row, 1, &col, reinterpret_cast<PetscScalar *>(weighted.data()),
                                      ADD_VALUES));
      }
    PetscCall(MatAssemblyBegin(K[axis], MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(K[axis], MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode BondCommutator::Create(MPI_Comm comm, const Structure &s, const TightBindingModel &model,
                                      std::array<double, 3> k, Mat H, BondCommutator *out) {
  PetscInt m;
  PetscFunctionBeginUser;
  PetscCheck(s.a_nm > 0, comm, PETSC_ERR_ARG_WRONGSTATE,
             "the momentum operator needs the structure's lattice constant");
  out->H_ = H;
  out->bs_ = model.blockSize();
  PetscCall(MatGetLocalSize(H, &m, nullptr));
  PetscCheck(m == s.owned * out->bs_, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "H has %" PetscInt_FMT " local rows, not %" PetscInt_FMT, m, s.owned * out->bs_);
  // The centre of the supercell's sites, so that R stays small beside the bonds.
  std::array<double, 3> centre = StrainedIdealBond(s.lattice.planes(), s.a_nm / 8, s.strain);
  out->position_.resize((size_t)s.owned);
  for (PetscInt i = 0; i < s.owned; ++i) {
    out->position_[i] = StrainedPosition(s, i);
    for (int a = 0; a < 3; ++a) out->position_[i][a] -= centre[a];
  }
  PetscCall(MatCreateVecs(H, out->work_.out(), nullptr));
  PetscCall(AssembleImageBonds(comm, s, model, k, out->K_));
  PetscFunctionReturn(0);
}

PetscErrorCode BondCommutator::ScaleRows(int axis, Vec x, double sign, Vec y) const {
  const PetscScalar *px;
  PetscScalar *py;
  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &px));
  PetscCall(VecGetArray(y, &py));
  const size_t atoms = position_.size();
  for (size_t i = 0; i < atoms; ++i) {
    const double r = position_[i][axis];
    for (int c = 0; c < bs_; ++c) {
      const size_t row = i * (size_t)bs_ + c;
      py[row] = sign == 0 ? r * px[row] : py[row] + sign * r * px[row];
    }
  }
  PetscCall(VecRestoreArray(y, &py));
  PetscCall(VecRestoreArrayRead(x, &px));
  PetscFunctionReturn(0);
}

PetscErrorCode BondCommutator::Apply(int axis, Vec x, Vec y) const {
  PetscFunctionBeginUser;
  PetscCheck(axis >= 0 && axis < 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "axis %d", axis);
  PetscCall(ScaleRows(axis, x, 0, work_));    // w = R x
  PetscCall(MatMult(H_, work_, y));           // y = H R x
  PetscCall(MatMult(H_, x, work_));           // w = H x
  PetscCall(ScaleRows(axis, work_, -1.0, y)); // y -= R H x
  if (K_[axis].get()) PetscCall(MatMultAdd(K_[axis], x, y, y));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
