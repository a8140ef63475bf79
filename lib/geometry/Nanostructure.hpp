#pragma once
// Which material each cation has: the host, the regions of the structure (an embedded dot of the -dot_* options,
// a vertical stack of it, or the regions of a -structure_file; a later region wins where they overlap), graded or
// interdiffused compositions, and random cation alloys (-host_alloy M,x, -dot_alloy M,x, -alloy_seed s). A cation
// belongs to a region when its ideal site lies inside the closed shape or the region's wetting layer (DotShapeKind);
// an anion takes its parameters from its bonded cations. Every draw depends only on the cation's canonical index and
// the seed (a counter-based hash), so the same atoms are substituted whatever the number of ranks.
#include <petscsys.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "geometry/DotRegion.hpp"
#include "geometry/Interdiffusion.hpp"
#include "geometry/ZincblendeLattice.hpp"

namespace tbpeta {

struct NanostructureSpec {
  RegionSpec dot;                       // the dot of the -dot_* options (material empty: no dot)
  int stack = 1;                        // -dot_stack: copies of the dot, one above the other
  double stack_spacing = 0;             // -dot_stack_spacing: from one base (wetting layer's top) to the next (nm)
  std::string structure_file;           // -structure_file: its regions replace the dot
  std::vector<RegionSpec> file_regions; // read from it
  double interdiffusion = 0;            // -dot_interdiffusion: diffusion length (nm); 0 sharp
  std::string host_alloy_material;
  double host_alloy_x = 0;
  unsigned long long seed = 0;

  // The regions in order: the structure file's, or the dot and its stack.
  std::vector<RegionSpec> regions() const;
  // Materials besides the host that the structure may contain, with the option (or file line) that named each (for
  // the model to load them and to name the option in an error).
  std::vector<std::pair<std::string, std::string>> extraMaterials() const;
};

// Reads the dot, stack, structure-file, composition and alloy options (an option that is not given keeps its value in
// `defaults`, and -help shows it); geometry is checked by Nanostructure::Create. Collective.
PetscErrorCode NanostructureSpecFromOptions(MPI_Comm comm, const NanostructureSpec &defaults, NanostructureSpec *spec);

class Nanostructure {
public:
  // Resolves material names to indices of `material_names` (the model's table, [0] = host), places each region (by
  // default at the supercell's centre), refuses a region that does not fit inside the supercell and computes the
  // interdiffused composition if asked. a_nm: lattice constant. Collective.
  static PetscErrorCode Create(MPI_Comm comm, const NanostructureSpec &spec,
                               const std::vector<std::string> &material_names, const ZincblendeLattice &lattice,
                               double a_nm, Nanostructure *out);
  // Material index of the cation at p (anions take their materials from their bonded cations).
  std::uint8_t cationMaterial(PlaneIndex p) const;
  // The local fraction of the regions' materials (other than the host) that the cation at p was drawn with: x of
  // InxGa1-xAs in a GaAs host.
  double composition(PlaneIndex p) const;
  // The last region that contains the ideal site p (-1: none).
  int regionOf(PlaneIndex p) const;
  bool inDot(PlaneIndex p) const { return regionOf(p) >= 0; }
  // Whether every cation is of the host (no region, no host alloy).
  bool hostOnly() const { return regions_.empty() && host_alloy_ < 0; }
  const NanostructureSpec &spec() const { return spec_; }
  const std::vector<DotRegion> &regions() const { return regions_; }
  // The interdiffused composition (null when sharp).
  const Interdiffusion *interdiffusion() const { return diffused_.get(); }
  // The same nanostructure seen from a larger box (a padded strain domain) whose site p is this one's p - origin
  // (plane units): the same regions, and the same alloy atoms inside this box (atoms outside it draw their own).
  Nanostructure Shifted(std::array<int, 3> origin) const;

private:
  PlaneIndex Unshifted(PlaneIndex p) const { return {p.x - origin_[0], p.y - origin_[1], p.z - origin_[2]}; }
  std::uint64_t DrawIndex(PlaneIndex q) const;
  int DrawDiffused(PlaneIndex q, std::uint64_t id) const;

  NanostructureSpec spec_;
  ZincblendeLattice lattice_;
  double a_nm_ = 0;
  std::vector<DotRegion> regions_;
  std::shared_ptr<const Interdiffusion> diffused_;
  std::vector<std::pair<int, double>> alloy_of_; // per material: its alloy partner and fraction (-1: none)
  int host_alloy_ = -1;
  std::array<int, 3> origin_{0, 0, 0};
};

} // namespace tbpeta
