#pragma once
// The local strain of each atom from its bonds, the quantity NEMO 3-D papers plot: the deformation F that maps the
// atom's unstrained tetrahedron of neighbours (the bonds of each bond's binary, length (sqrt 3 / 4) a, ideal
// directions) onto its actual one, from the three edges r_b - r_0 against d_b - d_0 (b = 1, 2, 3; an internal shift
// of the atom itself drops out), and eps = (F + F^T) / 2 - 1, relative to each material's own lattice. An atom with
// three bonds (a surface atom) uses the three bonds themselves; with fewer its strain is reported as zero.
// Voigt order xx, yy, zz, yz, xz, xy (tensor components, not engineering shears).
#include <petscsys.h>

#include <array>
#include <vector>

#include "geometry/Nanostructure.hpp"
#include "geometry/Structure.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

using Voigt = std::array<double, 6>;

// One tensor per owned atom of s (its displacements of owned and halo atoms set); a_nm: the lattice's constant.
std::vector<Voigt> StrainTensors(const Structure &s, const TightBindingModel &model, double a_nm);

inline double Hydrostatic(const Voigt &e) { return e[0] + e[1] + e[2]; }
inline double Biaxial(const Voigt &e) { return e[2] - 0.5 * (e[0] + e[1]); }

struct StrainRange {
  double min = 0, mean = 0, max = 0;
  long long atoms = 0; // atoms counted (0: none in the region)
};

// The hydrostatic strain of the atoms inside the dot (cations of the dot and anions bonded to one), over all ranks.
// Collective.
PetscErrorCode HydrostaticInDot(MPI_Comm comm, const Structure &s, const Nanostructure &nano,
                                const std::vector<Voigt> &tensors, StrainRange *range);

} // namespace tbpeta
