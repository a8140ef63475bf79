#pragma once
// Which material each cation has: the host, an embedded dot (-dot_material, -dot_shape sphere|dome|box) and
// random cation alloys (-host_alloy M,x, -dot_alloy M,x, -alloy_seed s). The choice for a cation depends only on
// its plane coordinates and the seed (a counter-based hash of its canonical index), so the same atoms are
// substituted whatever the number of ranks.
#include <petscsys.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "geometry/ZincblendeLattice.hpp"

namespace tbpeta {

enum class DotShape { none, sphere, dome, box };

struct NanostructureSpec {
  std::string dot_material; // empty: no dot
  DotShape shape = DotShape::none;
  double radius = 0;                     // nm (sphere, dome)
  std::array<double, 3> size{0, 0, 0};   // nm (box)
  std::array<double, 3> center{0, 0, 0}; // nm
  bool center_set = false;
  int wetting_layers = 0; // monolayers of a/2 under a dome
  std::string host_alloy_material, dot_alloy_material;
  double host_alloy_x = 0, dot_alloy_x = 0;
  unsigned long long seed = 0;

  // Materials besides the host that the structure may contain, with the option that named each (for the model to
  // load them and to name the option in an error).
  std::vector<std::pair<std::string, std::string>> extraMaterials() const;
};

// Reads the dot and alloy options (names and numbers only; geometry is checked by Nanostructure::Create); an option
// that is not given keeps its value in `defaults` (and -help shows it). Collective.
PetscErrorCode NanostructureSpecFromOptions(MPI_Comm comm, const NanostructureSpec &defaults, NanostructureSpec *spec);

class Nanostructure {
public:
  // Resolves material names to indices of `material_names` (the model's table, [0] = host), sets the default centre
  // (the supercell centre) and refuses a dot that does not fit inside the supercell. a_nm: lattice constant.
  static PetscErrorCode Create(MPI_Comm comm, const NanostructureSpec &spec,
                               const std::vector<std::string> &material_names, const ZincblendeLattice &lattice,
                               double a_nm, Nanostructure *out);
  // Material index of the cation at p (anions take their materials from their bonded cations).
  std::uint8_t cationMaterial(PlaneIndex p) const;
  bool inDot(PlaneIndex p) const;
  // Whether every cation is of the host (no dot, no host alloy).
  bool hostOnly() const { return spec_.shape == DotShape::none && host_alloy_ < 0; }
  const NanostructureSpec &spec() const { return spec_; }
  // The same nanostructure seen from a larger box (a padded strain domain) whose site p is this one's p - origin
  // (plane units): the same dot, and the same alloy atoms inside this box (atoms outside it draw their own).
  Nanostructure Shifted(std::array<int, 3> origin) const;

private:
  NanostructureSpec spec_;
  ZincblendeLattice lattice_;
  double a_nm_ = 0;
  int dot_ = -1, host_alloy_ = -1, dot_alloy_ = -1;
  std::array<int, 3> origin_{0, 0, 0};
};

} // namespace tbpeta
