#pragma once
// The piezoelectric polarisation of one atom from its local strain (strain/StrainTensor.hpp: tensor components relative
// to the atom's own material's lattice, cubic axes), in Voigt form with engineering shears e1 = eps_xx, e2 = eps_yy,
// e3 = eps_zz, e4 = 2 eps_yz, e5 = 2 eps_xz, e6 = 2 eps_xy (the form of S/PHI/nX and tiberCAD; Bester et al., PRL 96,
// 187602 (2006)):
//   Px = e14 e4 + B114 e1 e4 + B124 e4 (e2 + e3) + B156 e5 e6, and cyclic for y (e5) and z (e6).
// First order sets the B's to zero (FieldParameters::coefficients). An anion takes the mean of its bonded cations'
// coefficients and permittivities (a random alloy: linear in the local composition).
#include <array>

#include "geometry/Structure.hpp"
#include "model/FieldParameters.hpp"
#include "strain/StrainTensor.hpp"

namespace tbpeta {

inline std::array<double, 3> Polarization(const Voigt &t, const PiezoCoefficients &c) {
  const double e1 = t[0], e2 = t[1], e3 = t[2], e4 = 2 * t[3], e5 = 2 * t[4], e6 = 2 * t[5];
  return {c.e14 * e4 + c.B114 * e1 * e4 + c.B124 * e4 * (e2 + e3) + c.B156 * e5 * e6,
          c.e14 * e5 + c.B114 * e2 * e5 + c.B124 * e5 * (e3 + e1) + c.B156 * e4 * e6,
          c.e14 * e6 + c.B114 * e3 * e6 + c.B124 * e6 * (e1 + e2) + c.B156 * e4 * e5};
}

// The coefficients and static permittivity of each material of a run.
struct MaterialFields {
  std::vector<PiezoCoefficients> coefficients;
  std::vector<double> eps;
};

// Owned atom i of s: its coefficients and permittivity (a cation its material's, an anion the mean over its bonded
// cations; an anion without bonds its own label's).
inline void AtomFields(const Structure &s, const MaterialFields &m, PetscInt i, PiezoCoefficients *c, double *eps) {
  if (s.sublattice(i) == Sublattice::cation) {
    *c = m.coefficients[s.material[i]], *eps = m.eps[s.material[i]];
    return;
  }
  PiezoCoefficients sum;
  double e = 0;
  int n = 0;
  for (int b = 0; b < 4; ++b) {
    const int j = s.bonds[i][b];
    if (j < 0 || s.material[j] == kNoMaterial) continue;
    const PiezoCoefficients &cj = m.coefficients[s.material[j]];
    sum.e14 += cj.e14, sum.B114 += cj.B114, sum.B124 += cj.B124, sum.B156 += cj.B156, e += m.eps[s.material[j]], ++n;
  }
  if (n == 0) {
    *c = m.coefficients[s.material[i]], *eps = m.eps[s.material[i]];
    return;
  }
  *c = {sum.e14 / n, sum.B114 / n, sum.B124 / n, sum.B156 / n};
  *eps = e / n;
}

} // namespace tbpeta
