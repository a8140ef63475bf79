#include "strain/KeatingEnergy.hpp"

#include <cmath>

#include "strain/DisplacementField.hpp"
#include "support/LogEvents.hpp"

namespace tbpeta {

namespace {

// The materials that atoms of the structure carry, over all ranks.
PetscErrorCode UsedMaterials(MPI_Comm comm, const Structure &s, size_t count, std::vector<int> *used) {
  PetscFunctionBeginUser;
  used->assign(count, 0);
  for (PetscInt i = 0; i < s.owned; ++i)
    if (s.material[i] < count) (*used)[s.material[i]] = 1;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, used->data(), (int)count, MPI_INT, MPI_MAX, comm));
  PetscFunctionReturn(0);
}

} // namespace

PetscErrorCode KeatingEnergy::Create(MPI_Comm comm, const Structure &s, const TightBindingModel &model, double a_nm,
                                     StrainFix fix, KeatingEnergy *out) {
  KeatingEnergy k;
  std::vector<int> used;
  PetscFunctionBeginUser;
  PetscCall(UsedMaterials(comm, s, model.materials.size(), &used));
  for (size_t m = 0; m < model.materials.size(); ++m) {
    const MaterialParameters &p = model.materials[m];
    PetscCheck(!used[m] || p.keating.given(), comm, PETSC_ERR_USER_INPUT,
               "-strain keating: material %s (%s) has no Keating constants (keys keating_alpha, keating_beta in N/m); "
               "add them to its parameter file or use -strain none",
               p.material.c_str(), p.source.c_str());
    k.binary_.push_back({std::sqrt(3.0) / 4.0 * p.a_lattice / 10.0, p.keating.alpha * kEvPerNewtonMetreNm2,
                         p.keating.beta * kEvPerNewtonMetreNm2});
  }
  k.s_ = &s;
  k.comm_ = comm;
  k.a_nm_ = a_nm;
  k.fix_ = fix;
  k.eps_ = s.strain; // a homogeneously strained box (bulk under strain); SetHomogeneousStrain may change it
  k.SetIdealBonds();
  for (PetscInt i = 0; i < s.owned; ++i)
    if (k.holds(i)) k.held_.push_back(i);
  *out = std::move(k);
  PetscFunctionReturn(0);
}

PetscErrorCode KeatingEnergy::CreateDisplacement(Vec *u) const {
  PetscFunctionBeginUser;
  PetscCall(CreateDisplacementVec(comm_, *s_, u));
  PetscFunctionReturn(0);
}

void KeatingEnergy::SetHomogeneousStrain(const std::array<double, 6> &voigt) {
  eps_ = voigt;
  SetIdealBonds();
}

void KeatingEnergy::SetIdealBonds() {
  const double e[3][3] = {{eps_[0], eps_[5], eps_[4]}, {eps_[5], eps_[1], eps_[3]}, {eps_[4], eps_[3], eps_[2]}};
  for (int side = 0; side < 2; ++side)
    for (int b = 0; b < 4; ++b) {
      Vec3 d;
      for (int c = 0; c < 3; ++c)
        d[c] = (side == (int)Sublattice::anion ? 1 : -1) * ZincblendeLattice::kAnionBonds[b][c] * a_nm_ / 4.0;
      for (int r = 0; r < 3; ++r) ideal_[side][b][r] = d[r] + e[r][0] * d[0] + e[r][1] * d[1] + e[r][2] * d[2];
    }
}

// The terms centred at owned atom i: energy, dE/dr per bond and the site of each bond's neighbour.
double KeatingEnergy::AtomTerms(PetscInt i, const PetscScalar *u, Vec3 *grad, int *neighbours, int *n) const {
  KeatingBond bond[4];
  *n = 0;
  for (int b = 0; b < 4; ++b) {
    const int j = s_->bonds[i][b];
    if (j < 0) continue;
    const Binary &m = binary_[BondMaterial(i, b)];
    const Vec3 &d = idealBond(i, b);
    KeatingBond &k = bond[*n];
    for (int c = 0; c < 3; ++c) k.r[c] = d[c] + PetscRealPart(u[3 * j + c]) - PetscRealPart(u[3 * i + c]);
    k.d0 = m.d0, k.alpha = m.alpha, k.beta = m.beta;
    grad[*n] = {0, 0, 0};
    neighbours[(*n)++] = j;
  }
  return KeatingAtomTerms(*n, bond, grad);
}

// v itself when it is ghosted (the SNES's vectors are duplicates of the ghosted u, so no copy and no memory of
// its own), else a ghosted work vector made when first needed.
PetscErrorCode KeatingEnergy::Ghosted(Vec v, OwnedVec *work, Vec *ghosted) {
  Vec local;
  PetscInt n = 0;
  PetscFunctionBeginUser;
  PetscCall(VecGhostGetLocalForm(v, &local)); // a sequential Vec is its own local form: the size tells
  if (local) PetscCall(VecGetLocalSize(local, &n));
  if (local) PetscCall(VecGhostRestoreLocalForm(v, &local));
  if (n == 3 * (PetscInt)s_->sites.size()) {
    *ghosted = v;
    PetscFunctionReturn(0);
  }
  if (!work->get()) PetscCall(CreateDisplacement(work->out()));
  *ghosted = *work;
  PetscFunctionReturn(0);
}

// u with its halo filled (*ghosted: u or a copy of it) and its local form (owned, then halo).
PetscErrorCode KeatingEnergy::LocalDisplacements(Vec u, Vec *ghosted, const PetscScalar **local, Vec *held) {
  PetscFunctionBeginUser;
  PetscCall(Ghosted(u, &u_, ghosted));
  if (*ghosted != u) PetscCall(VecCopy(u, *ghosted));
  PetscCall(VecGhostUpdateBegin(*ghosted, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGhostUpdateEnd(*ghosted, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGhostGetLocalForm(*ghosted, held));
  PetscCall(VecGetArrayRead(*held, local));
  PetscFunctionReturn(0);
}

PetscErrorCode KeatingEnergy::Evaluate(Vec u, PetscReal *energy, Vec gradient) {
  const LogEvents *ev;
  const PetscScalar *ua;
  PetscScalar *ga = nullptr;
  Vec ug, ul, gg = nullptr, gl = nullptr;
  double e = 0;
  Vec3 grad[4];
  int nb[4], n;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(gradient ? ev->strain_gradient : ev->strain_energy, 0, 0, 0, 0));
  PetscCall(LocalDisplacements(u, &ug, &ua, &ul));
  if (gradient) {
    PetscCall(Ghosted(gradient, &g_, &gg));
    PetscCall(VecGhostGetLocalForm(gg, &gl));
    PetscCall(VecSet(gl, 0.0));
    PetscCall(VecGetArray(gl, &ga));
  }
  for (PetscInt i = 0; i < s_->owned; ++i) {
    e += AtomTerms(i, ua, grad, nb, &n);
    if (!ga) continue;
    for (int b = 0; b < n; ++b)
      for (int c = 0; c < 3; ++c) {
        ga[3 * nb[b] + c] += grad[b][c];
        ga[3 * i + c] -= grad[b][c];
      }
  }
  PetscCall(VecRestoreArrayRead(ul, &ua));
  PetscCall(VecGhostRestoreLocalForm(ug, &ul));
  if (gradient) {
    PetscCall(VecRestoreArray(gl, &ga));
    PetscCall(VecGhostRestoreLocalForm(gg, &gl));
    PetscCall(VecGhostUpdateBegin(gg, ADD_VALUES, SCATTER_REVERSE));
    PetscCall(VecGhostUpdateEnd(gg, ADD_VALUES, SCATTER_REVERSE));
    if (!held_.empty()) {
      PetscScalar *g;
      PetscCall(VecGetArray(gg, &g));
      for (PetscInt i : held_)
        for (int c = 0; c < 3; ++c) g[3 * i + c] = 0;
      PetscCall(VecRestoreArray(gg, &g));
    }
    if (gg != gradient) PetscCall(VecCopy(gg, gradient));
  }
  PetscCallMPI(MPI_Allreduce(&e, energy, 1, MPIU_REAL, MPI_SUM, comm_));
  ++evaluations_;
  PetscCall(PetscLogFlops(gradient ? 120.0 * s_->owned : 70.0 * s_->owned));
  PetscCall(PetscLogEventEnd(gradient ? ev->strain_gradient : ev->strain_energy, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode KeatingEnergy::AtomEnergies(Vec u, std::vector<double> *energy) {
  const PetscScalar *ua;
  Vec ug, ul;
  Vec3 grad[4];
  int nb[4], n;
  PetscFunctionBeginUser;
  PetscCall(LocalDisplacements(u, &ug, &ua, &ul));
  energy->resize(s_->owned);
  for (PetscInt i = 0; i < s_->owned; ++i) (*energy)[i] = AtomTerms(i, ua, grad, nb, &n);
  PetscCall(VecRestoreArrayRead(ul, &ua));
  PetscCall(VecGhostRestoreLocalForm(ug, &ul));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
