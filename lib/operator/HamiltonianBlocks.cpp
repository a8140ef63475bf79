#include "operator/HamiltonianBlocks.hpp"

#include <cstring>

#include <algorithm>
#include <cmath>

namespace tbpeta {

namespace {

// Orbitals of the basis, as indices into the full order (s, p, d, s*).
std::vector<int> basisOrbitals(BasisModel m) {
  if (m == BasisModel::sp3sstar) return {kS, kPx, kPy, kPz, kSstar};
  return {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
}

OrbitalBlock DirectionBlock(const MaterialParameters &m, int b) {
  const double inv = 1.0 / std::sqrt(3.0);
  const auto &d = ZincblendeLattice::kAnionBonds[b];
  return anionCationBlock(m.bond, d[0] * inv, d[1] * inv, d[2] * inv);
}

// The non-zero entries of each row of a block (rows of the anion: B; of the cation: B^T), ascending in column.
void FillPattern(const OrbitalBlock &B, const std::vector<int> &orbs, bool cation_rows,
                 HamiltonianBlocks::BondPattern *P) {
  const int norb = (int)orbs.size();
  P->start.assign(norb + 1, 0);
  P->col.clear(), P->v.clear();
  for (int r = 0; r < norb; ++r) {
    for (int c = 0; c < norb; ++c) {
      const double v = cation_rows ? B[orbs[c]][orbs[r]] : B[orbs[r]][orbs[c]];
      if (v == 0) continue;
      P->col.push_back(c);
      P->v.push_back(v);
    }
    P->start[r + 1] = (int)P->col.size();
  }
}

// A block with every entry that some bond direction makes non-zero: the sum of the absolute blocks of two bonds of
// general direction (no entry vanishes on both by accident).
OrbitalBlock GeneralDirectionBlock(const MaterialParameters &m) {
  const double dirs[2][3] = {{0.31, 0.52, 0.79}, {-0.67, 0.23, 0.41}};
  OrbitalBlock sum{};
  for (const auto &d : dirs) {
    const double norm = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const OrbitalBlock B = anionCationBlock(m.bond, d[0] / norm, d[1] / norm, d[2] / norm);
    for (int r = 0; r < kFullOrbitals; ++r)
      for (int c = 0; c < kFullOrbitals; ++c) sum[r][c] += std::fabs(B[r][c]);
  }
  return sum;
}

} // namespace

HamiltonianBlocks::HamiltonianBlocks(const Structure &s, const TightBindingModel &model, std::array<double, 3> k,
                                     bool with_patterns)
    : s_(s), model_(model), k_(k) {
  orbs_ = basisOrbitals(model.basis);
  norb_ = (int)orbs_.size();
  bs_ = model.blockSize();
  spins_ = model.spin_orbit ? 2 : 1;
  bond_.resize(model.materials.size());
  for (size_t m = 0; m < model.materials.size(); ++m)
    for (int b = 0; b < 4; ++b) bond_[m][b] = DirectionBlock(model.materials[m], b);
  strained_ = model.strained.on;
  if (!with_patterns) return;
  pattern_.resize(model.materials.size());
  for (size_t m = 0; m < model.materials.size(); ++m)
    for (int b = 0; b < 4; ++b)
      for (int o = 0; o < 2; ++o) FillPattern(bond_[m][b], orbs_, o == 1, &pattern_[m][b][o]);
  if (!strained_) return;
  strained_pattern_.resize(model.materials.size());
  for (size_t m = 0; m < model.materials.size(); ++m)
    for (int o = 0; o < 2; ++o)
      FillPattern(GeneralDirectionBlock(model.materials[m]), orbs_, o == 1, &strained_pattern_[m][o]);
}

int HamiltonianBlocks::MostBondEntries(const TightBindingModel &model) {
  const std::vector<int> orbs = basisOrbitals(model.basis);
  size_t most = 0;
  BondPattern P;
  for (const MaterialParameters &m : model.materials)
    for (int b = 0; b < 4; ++b)
      for (int o = 0; o < 2; ++o) {
        FillPattern(model.strained.on ? GeneralDirectionBlock(m) : DirectionBlock(m, b), orbs, o == 1, &P);
        most = std::max(most, P.col.size());
      }
  return (int)most * (model.spin_orbit ? 2 : 1);
}

OrbitalBlock HamiltonianBlocks::strainedBlock(PetscInt i, int b) const {
  const bool anion = s_.sublattice(i) == Sublattice::anion;
  const PetscInt j = s_.bonds[i][b], an = anion ? i : j, ca = anion ? j : i;
  const std::array<double, 3> ua = s_.displacementOf(an), uc = s_.displacementOf(ca);
  const BondVector v = MakeBondVector(ZincblendeLattice::kAnionBonds[b], s_.a_nm / 4, s_.strain,
                                      {uc[0] - ua[0], uc[1] - ua[1], uc[2] - ua[2]});
  return StrainedBondBlock(model_.materials[s_.material[ca]], model_.strained.scaling, v);
}

const HamiltonianBlocks::BondPattern &HamiltonianBlocks::bondPattern(PetscInt i, int b, BondPattern *scratch) const {
  const int key = bondKey(i, b);
  if (!strained_) return patternOfKey(key);
  const BondPattern &P = strained_pattern_[key / 8][key % 2];
  const OrbitalBlock B = strainedBlock(i, b);
  const bool cation_rows = key % 2 == 1;
  scratch->start = P.start, scratch->col = P.col;
  scratch->v.resize(P.col.size());
  for (int r = 0; r < norb_; ++r)
    for (int e = P.start[r]; e < P.start[r + 1]; ++e)
      scratch->v[e] = cation_rows ? B[orbs_[P.col[e]]][orbs_[r]] : B[orbs_[r]][orbs_[P.col[e]]];
  return *scratch;
}

void HamiltonianBlocks::bondBlockOf(PetscInt i, int b, double *B) const {
  const int key = bondKey(i, b);
  if (!strained_) return bondBlock(key, B);
  const OrbitalBlock full = strainedBlock(i, b);
  const bool anion_row = key % 2 == 0;
  for (int r = 0; r < norb_; ++r)
    for (int c = 0; c < norb_; ++c) B[r * norb_ + c] = anion_row ? full[orbs_[r]][orbs_[c]] : full[orbs_[c]][orbs_[r]];
}

int HamiltonianBlocks::bondKey(PetscInt i, int b) const {
  const bool anion = s_.sublattice(i) == Sublattice::anion;
  const int cation = anion ? s_.bonds[i][b] : (int)i;
  return s_.material[cation] * 8 + b * 2 + (anion ? 0 : 1);
}

void HamiltonianBlocks::bondBlock(int key, double *B) const {
  const OrbitalBlock &full = bond_[key / 8][(key / 2) % 4];
  const bool anion_row = key % 2 == 0;
  for (int r = 0; r < norb_; ++r)
    for (int c = 0; c < norb_; ++c) B[r * norb_ + c] = anion_row ? full[orbs_[r]][orbs_[c]] : full[orbs_[c]][orbs_[r]];
}

void HamiltonianBlocks::RecomputeBondBlock(const TightBindingModel &model, int key, double *B, bool by_columns) {
  // No allocation here: this runs for every bond in every product of the shell without block cache.
  static constexpr int kSp3sstar[] = {kS, kPx, kPy, kPz, kSstar}, kSp3d5sstar[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const bool small = model.basis == BasisModel::sp3sstar;
  const int *orbs = small ? kSp3sstar : kSp3d5sstar, norb = small ? 5 : 10;
  const OrbitalBlock full = DirectionBlock(model.materials[key / 8], (key / 2) % 4);
  // Anion rows take the direction block as it is, cation rows its transpose; column-major storage is the transpose.
  const bool transpose = (key % 2 == 1) != by_columns;
  if (!small) { // the full basis: no index map
    if (!transpose) std::memcpy(B, full.data(), sizeof full);
    else
      for (int r = 0; r < 10; ++r)
        for (int c = 0; c < 10; ++c) B[r * 10 + c] = full[c][r];
    return;
  }
  for (int r = 0; r < norb; ++r)
    for (int c = 0; c < norb; ++c) B[r * norb + c] = transpose ? full[orbs[c]][orbs[r]] : full[orbs[r]][orbs[c]];
}

HamiltonianBlocks::Complex HamiltonianBlocks::bondPhase(PetscInt i, int b) const {
  const bool anion = s_.sublattice(i) == Sublattice::anion;
  // Phase of the anion -> cation coupling: the anion sees the cation's image at +wrap; the cation sees the
  // anion's at -wrap, so its row takes the exact conjugate.
  const int sign = anion ? 1 : -1;
  double theta = 0;
  for (int a = 0; a < 3; ++a) theta += k_[a] * sign * s_.wrap(i, b, a) * s_.lattice.planes()[a];
  theta *= M_PI / 2; // k in 2pi/a, wrap in planes of a/4
  Complex phase = theta == 0 ? Complex(1) : Complex(std::cos(theta), std::sin(theta));
  if (!anion) phase = std::conj(phase);
  return phase;
}

OnSiteEnergies HamiltonianBlocks::averagedOnsite(PetscInt i, double *shift) const {
  const bool anion = s_.sublattice(i) == Sublattice::anion;
  OnSiteEnergies e{};
  *shift = 0;
  int n = 0;
  auto add = [&](int m) {
    const auto &src = anion ? model_.materials[m].anion_onsite : model_.materials[m].cation_onsite;
    e.s += src.s, e.p += src.p, e.d += src.d, e.sstar += src.sstar, e.lambda_so += src.lambda_so;
    *shift += model_.vbo[m];
    ++n;
  };
  if (anion) {
    for (int b = 0; b < 4; ++b)
      if (s_.bonds[i][b] >= 0) add(s_.material[s_.bonds[i][b]]);
    if (n == 0) add(s_.material[i]);
  } else add(s_.material[i]);
  const double w = 1.0 / n;
  e.s *= w, e.p *= w, e.d *= w, e.sstar *= w, e.lambda_so *= w, *shift *= w;
  return e;
}

void HamiltonianBlocks::onsite(PetscInt i, Complex *blk) const {
  std::fill(blk, blk + bs_ * bs_, Complex(0));
  const OnSiteTerms t = onsiteTerms(i);
  for (int sp = 0; sp < spins_; ++sp)
    for (int o = 0; o < norb_; ++o) blk[(sp * norb_ + o) * bs_ + sp * norb_ + o] = t.diag[o];
  if (model_.spin_orbit) {
    const auto so = spinOrbitP(t.lambda);
    // (x,y,z) up -> rows 1..3, (x,y,z) down -> rows norb+1..norb+3
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) {
        const int R = (r / 3) * norb_ + 1 + r % 3, C = (c / 3) * norb_ + 1 + c % 3;
        blk[R * bs_ + C] += so[r][c];
      }
  }
  for (int b = 0; b < 4; ++b) { // bond by bond onto the diagonal (the sum of onsiteTerms may round differently)
    if (s_.bonds[i][b] >= 0) continue;
    const auto v = ZincblendeLattice::bondVector(s_.sites[i], b);
    const auto pas = danglingBondShift(model_.passivation_shift, v[0], v[1], v[2]);
    for (int sp = 0; sp < spins_; ++sp)
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) blk[(sp * norb_ + r) * bs_ + sp * norb_ + c] += pas[r][c];
  }
}

// Each bond's on-site correction, bond by bond in a fixed order (the same sum on every rank).
void HamiltonianBlocks::addOnsiteCorrection(PetscInt i, std::array<double, kFullOrbitals> *diag) const {
  if (!strained_ || !model_.strained.onsite || model_.strained.scaling == BondScaling::harrison) return;
  const bool anion = s_.sublattice(i) == Sublattice::anion;
  for (int b = 0; b < 4; ++b) {
    const int j = s_.bonds[i][b];
    if (j < 0) continue;
    const int m = s_.material[anion ? j : i];
    AddOnsiteCorrection(model_.materials[m], model_.vbo[m], bond_[m][b], strainedBlock(i, b), orbs_.data(), norb_,
                        anion, diag);
  }
}
void HamiltonianBlocks::bond(PetscInt i, int b, Complex *blk) const {
  std::fill(blk, blk + bs_ * bs_, Complex(0));
  BondPattern scratch;
  const BondPattern &P = bondPattern(i, b, &scratch);
  const Complex phase = bondPhase(i, b);
  for (int r = 0; r < norb_; ++r)
    for (int e = P.start[r]; e < P.start[r + 1]; ++e) {
      const Complex z = P.v[e] * phase;
      for (int sp = 0; sp < spins_; ++sp) blk[(sp * norb_ + r) * bs_ + sp * norb_ + P.col[e]] = z;
    }
}

HamiltonianBlocks::OnSiteTerms HamiltonianBlocks::onsiteTerms(PetscInt i, bool with_potential) const {
  OnSiteTerms t;
  double shift;
  const OnSiteEnergies e = averagedOnsite(i, &shift);
  auto diag = onsiteEnergies(e);
  for (int o = 0; o < kFullOrbitals; ++o) diag[o] += shift;
  addOnsiteCorrection(i, &diag);
  const double potential = s_.potential.empty() || !with_potential ? 0.0 : s_.potential[i]; // every orbital's
  for (int o = 0; o < norb_; ++o) t.diag[o] = diag[orbs_[o]] + potential;
  t.lambda = model_.spin_orbit ? e.lambda_so : 0;
  for (int b = 0; b < 4; ++b) {
    if (s_.bonds[i][b] >= 0) continue;
    const auto v = ZincblendeLattice::bondVector(s_.sites[i], b);
    const auto pas = danglingBondShift(model_.passivation_shift, v[0], v[1], v[2]);
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) t.passivation[r][c] += pas[r][c];
    t.passivated = true;
  }
  return t;
}

} // namespace tbpeta
