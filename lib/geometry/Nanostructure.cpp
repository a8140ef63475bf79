#include "geometry/Nanostructure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "geometry/StructureFile.hpp"
#include "support/CounterHash.hpp"
#include "support/OptionLists.hpp"

namespace tbpeta {

std::vector<RegionSpec> NanostructureSpec::regions() const {
  if (!structure_file.empty()) return file_regions;
  std::vector<RegionSpec> out;
  if (dot.material.empty()) return out;
  for (int k = 0; k < stack; ++k) {
    RegionSpec r = dot;
    r.center[2] += k * stack_spacing;
    if (k > 0) r.where = "-dot_stack " + std::to_string(stack) + " (dot " + std::to_string(k + 1) + ")";
    out.push_back(r);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> NanostructureSpec::extraMaterials() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const RegionSpec &r : regions()) {
    const std::string by = structure_file.empty() ? "-dot_material" : r.where;
    out.emplace_back(r.material, by);
    if (!r.alloy_material.empty()) out.emplace_back(r.alloy_material, structure_file.empty() ? "-dot_alloy" : r.where);
  }
  if (!host_alloy_material.empty()) out.emplace_back(host_alloy_material, "-host_alloy");
  return out;
}

namespace {
// A cation's draw depends only on (seed, canonical index, stream).
inline double uniform(std::uint64_t seed, std::uint64_t index, std::uint64_t stream) {
  return UnitInterval(MixBits(MixBits(seed ^ (stream * 0xd1b54a32d192ed03ULL)) + index));
}
enum Stream : std::uint64_t { kHostAlloy = 1, kRegionAlloy = 2, kComposition = 3 };

// The dot's shape and sizes from the options.
PetscErrorCode ReadDotShape(MPI_Comm comm, RegionSpec *dot, PetscBool *shape_none) {
  const char *shapes[] = {"none",    "sphere",   "dome",      "box",      "lens", "cone",
                          "pyramid", "cylinder", "ellipsoid", "DotShape", "DOT_", nullptr};
  PetscEnum shape = (PetscEnum)dot->shape;
  PetscBool set = PETSC_FALSE;
  ShapeSize &s = dot->size;
  int count = 2;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Embedded dot: shape and sizes (nm)", "tbpeta");
  PetscCall(PetscOptionsEnum("-dot_shape", "Dot shape (none: no dot)", "tbpeta", shapes, shape, &shape, &set));
  PetscCall(PetscOptionsReal("-dot_radius", "Radius of a sphere or dome", "tbpeta", s.radius, &s.radius, nullptr));
  PetscCall(PetscOptionsReal("-dot_height", "Height of a lens, cone, pyramid, cylinder or ellipsoid", "tbpeta",
                             s.height, &s.height, nullptr));
  PetscCall(PetscOptionsReal("-dot_top_diameter", "Top diameter of a truncated cone (0: a full cone)", "tbpeta",
                             s.top_diameter, &s.top_diameter, nullptr));
  PetscCall(PetscOptionsReal("-dot_base", "Base edge of a pyramid (along [100] and [010])", "tbpeta", s.base, &s.base,
                             nullptr));
  PetscOptionsEnd();
  PetscCall(OptionsGetRealTuple(comm, "-dot_size", "Box dot size x,y,z", 3, s.size.data(), &set));
  PetscCall(OptionsGetRealList(comm, "-dot_diameter",
                               "Base diameter of a lens, cone, cylinder or ellipsoid: D, or D[110],D[1-10]", 1, 2,
                               s.diameter.data(), &count, &set));
  if (set && count == 1) s.diameter[1] = s.diameter[0];
  *shape_none = (DotShape)shape == DotShape::none ? PETSC_TRUE : PETSC_FALSE;
  if (!*shape_none) dot->shape = (DotShape)shape;
  PetscFunctionReturn(0);
}

// "M,x" -> material and fraction; a one-line error names the option.
PetscErrorCode ParseAlloy(MPI_Comm comm, const char *option, const char *value, std::string *material, double *x) {
  PetscFunctionBeginUser;
  const std::string err = ParseAlloyText(value, material, x);
  PetscCheck(err.empty(), comm, PETSC_ERR_USER_INPUT, "%s: %s", option, err.c_str());
  PetscFunctionReturn(0);
}

// The dot's material, place, wetting layer, composition and alloy.
PetscErrorCode ReadDotFilling(MPI_Comm comm, RegionSpec *dot, PetscBool *material_set) {
  char material[64], alloy[128] = "";
  PetscInt wl = dot->wetting_layers;
  PetscBool alloy_set = PETSC_FALSE, center_set = PETSC_FALSE, set = PETSC_FALSE;
  double center[3] = {dot->center[0], dot->center[1], dot->center[2]};
  int count = 2;
  PetscFunctionBeginUser;
  std::snprintf(material, sizeof material, "%s", dot->material.c_str());
  PetscOptionsBegin(comm, nullptr, "Embedded dot: material and composition", "tbpeta");
  PetscCall(PetscOptionsString("-dot_material", "Material of the embedded dot (empty: no dot)", "tbpeta", material,
                               material, sizeof(material), material_set));
  PetscCall(PetscOptionsInt("-dot_wetting_layers",
                            "Wetting layer under a dot that sits on a plane, in monolayers of a/2", "tbpeta", wl, &wl,
                            nullptr));
  PetscCall(PetscOptionsString("-dot_alloy", "Random cation alloy inside the dot: MATERIAL,x", "tbpeta", alloy, alloy,
                               sizeof(alloy), &alloy_set));
  PetscOptionsEnd();
  PetscCall(OptionsGetRealTuple(comm, "-dot_center",
                                "Dot centre x,y,z (nm) (default: supercell centre; the centre of the base for a dot "
                                "that sits on a plane)",
                                3, center, &center_set));
  PetscCall(OptionsGetRealList(comm, "-dot_composition",
                               "Fraction of the dot material at the base and the apex: x, or x_base,x_apex", 1, 2,
                               dot->composition.data(), &count, &set));
  if (set && count == 1) dot->composition[1] = dot->composition[0];
  for (double x : dot->composition)
    PetscCheck(x >= 0 && x <= 1, comm, PETSC_ERR_USER_INPUT, "-dot_composition: %g is outside [0, 1]", x);
  PetscCheck(wl >= 0, comm, PETSC_ERR_USER_INPUT, "-dot_wetting_layers: %" PetscInt_FMT "; must be 0 or more", wl);
  dot->material = material;
  dot->wetting_layers = (int)wl;
  if (center_set) dot->center = {center[0], center[1], center[2]}, dot->center_set = true;
  if (alloy_set) PetscCall(ParseAlloy(comm, "-dot_alloy", alloy, &dot->alloy_material, &dot->alloy_x));
  PetscFunctionReturn(0);
}

// The stack, the structure file, the interdiffusion and the host's alloy.
PetscErrorCode ReadStructureOptions(MPI_Comm comm, NanostructureSpec *s) {
  char file[PETSC_MAX_PATH_LEN], host_alloy[128] = "";
  PetscInt stack = s->stack, seed = (PetscInt)s->seed;
  PetscBool file_set = PETSC_FALSE, ha_set = PETSC_FALSE;
  PetscFunctionBeginUser;
  std::snprintf(file, sizeof file, "%s", s->structure_file.c_str());
  PetscOptionsBegin(comm, nullptr, "Nanostructure: stacks, structure files, interdiffusion and alloys", "tbpeta");
  PetscCall(PetscOptionsInt("-dot_stack", "Dots stacked along z, each on its wetting layer", "tbpeta", stack, &stack,
                            nullptr));
  PetscCall(PetscOptionsReal("-dot_stack_spacing", "Period of the stack (nm): from one wetting layer's top to the next",
                             "tbpeta", s->stack_spacing, &s->stack_spacing, nullptr));
  PetscCall(PetscOptionsString("-structure_file", "Regions of the structure, one per line (replaces the -dot_* dot)",
                               "tbpeta", file, file, sizeof(file), &file_set));
  PetscCall(PetscOptionsReal("-dot_interdiffusion",
                             "Diffusion length sqrt(Dt) of the regions' composition (nm; 0: sharp)", "tbpeta",
                             s->interdiffusion, &s->interdiffusion, nullptr));
  PetscCall(PetscOptionsString("-host_alloy",
                               "Random cation alloy of the host: MATERIAL,x (e.g. AlAs,0.3 for Al0.3Ga0.7As)", "tbpeta",
                               host_alloy, host_alloy, sizeof(host_alloy), &ha_set));
  PetscCall(PetscOptionsInt("-alloy_seed", "Seed of the alloy disorder (the same atoms on any number of ranks)",
                            "tbpeta", seed, &seed, nullptr));
  PetscOptionsEnd();
  PetscCheck(stack >= 1, comm, PETSC_ERR_USER_INPUT, "-dot_stack: %" PetscInt_FMT "; must be 1 or more", stack);
  PetscCheck(stack == 1 || s->stack_spacing > 0, comm, PETSC_ERR_USER_INPUT,
             "-dot_stack_spacing: %g nm; a stack of %" PetscInt_FMT " dots needs a positive spacing", s->stack_spacing,
             stack);
  PetscCheck(s->interdiffusion >= 0, comm, PETSC_ERR_USER_INPUT,
             "-dot_interdiffusion: %g nm; must be 0 (sharp) or positive", s->interdiffusion);
  PetscCheck(seed >= 0, comm, PETSC_ERR_USER_INPUT, "-alloy_seed: %" PetscInt_FMT "; must be 0 or more", seed);
  s->stack = (int)stack;
  s->seed = (unsigned long long)seed;
  if (file_set) s->structure_file = file;
  if (ha_set) PetscCall(ParseAlloy(comm, "-host_alloy", host_alloy, &s->host_alloy_material, &s->host_alloy_x));
  PetscFunctionReturn(0);
}
} // namespace

PetscErrorCode NanostructureSpecFromOptions(MPI_Comm comm, const NanostructureSpec &defaults, NanostructureSpec *spec) {
  NanostructureSpec s = defaults;
  PetscBool shape_none = PETSC_FALSE, material_set = PETSC_FALSE;
  PetscFunctionBeginUser;
  s.dot.where = "-dot_*";
  PetscCall(ReadDotFilling(comm, &s.dot, &material_set));
  PetscCall(ReadDotShape(comm, &s.dot, &shape_none));
  PetscCall(ReadStructureOptions(comm, &s));
  // -dot_shape none removes a dot the defaults had; with a -dot_material of the user's own it is a contradiction.
  PetscCheck(!shape_none || !material_set || s.dot.material.empty(), comm, PETSC_ERR_USER_INPUT,
             "-dot_shape none conflicts with -dot_material %s", s.dot.material.c_str());
  if (shape_none) s.dot.material.clear();
  PetscCheck(s.dot.alloy_material.empty() || !s.dot.material.empty(), comm, PETSC_ERR_USER_INPUT,
             "-dot_alloy needs a dot: give -dot_material");
  PetscCheck(s.dot.wetting_layers == 0 || s.dot.material.empty() || SitsOnPlane(s.dot.shape), comm,
             PETSC_ERR_USER_INPUT, "-dot_wetting_layers: a %s has no base plane (only the %s of %s take one)",
             DotShapeName(s.dot.shape), "shapes that sit on a plane", "dome, lens, cone, pyramid, cylinder, ellipsoid");
  if (!s.structure_file.empty()) {
    PetscCheck(!material_set || s.dot.material.empty(), comm, PETSC_ERR_USER_INPUT,
               "-structure_file %s replaces the -dot_* dot: give -dot_material or -structure_file, not both",
               s.structure_file.c_str());
    PetscCheck(s.stack == 1, comm, PETSC_ERR_USER_INPUT,
               "-dot_stack: stacks the -dot_* dot; with -structure_file %s write one line per dot",
               s.structure_file.c_str());
    s.dot.material.clear();
    PetscCall(ReadStructureFile(comm, s.structure_file, &s.file_regions));
  }
  *spec = s;
  PetscFunctionReturn(0);
}

namespace {
// The names of a region's sizes in its errors: the options, or the structure file's keys after "FILE:line: ".
ShapeSizeNames SizeNames(const std::string &where) {
  if (!where.empty() && where[0] == '-')
    return {"-dot_radius", "-dot_size", "-dot_diameter", "-dot_height", "-dot_top_diameter", "-dot_base"};
  const std::string p = where + ": ";
  return {p + "radius", p + "size", p + "diameter", p + "height", p + "top", p + "base"};
}

// The options that place and size the -dot_* dot of a shape, for the error of a dot that does not fit.
std::string DotOptions(DotShape shape) {
  switch (shape) {
  case DotShape::sphere:
  case DotShape::dome: return "-dot_radius/-dot_center";
  case DotShape::box: return "-dot_size/-dot_center";
  case DotShape::pyramid: return "-dot_base/-dot_height/-dot_center";
  default: return "-dot_diameter/-dot_height/-dot_center";
  }
}

// Places region r (its shape checked, its materials resolved) and refuses one that leaves the supercell.
PetscErrorCode PlaceRegion(MPI_Comm comm, const RegionSpec &r, const std::vector<std::string> &names,
                           const ZincblendeLattice &lattice, double a_nm, DotRegion *out) {
  auto index = [&](const std::string &m) {
    auto it = std::find(names.begin(), names.end(), m);
    return it == names.end() ? -1 : (int)(it - names.begin());
  };
  PetscFunctionBeginUser;
  const std::string err = ShapeGeometry::Make(r.shape, r.size, SizeNames(r.where), &out->shape);
  PetscCheck(err.empty(), comm, PETSC_ERR_USER_INPUT, "%s", err.c_str());
  out->a_nm = a_nm, out->wetting_layers = r.wetting_layers, out->where = r.where;
  out->material = index(r.material), out->composition = r.composition;
  out->alloy_material = r.alloy_material.empty() ? -1 : index(r.alloy_material), out->alloy_x = r.alloy_x;
  PetscCheck(out->material >= 0 && (r.alloy_material.empty() || out->alloy_material >= 0), comm, PETSC_ERR_PLIB,
             "%s: material %s was not loaded", r.where.c_str(), r.material.c_str());
  for (int a = 0; a < 3; ++a) out->anchor[a] = r.center_set ? r.center[a] : lattice.cells()[a] * a_nm / 2;
  const std::array<double, 3> lo = out->lower(), hi = out->upper();
  const std::string who = r.where == "-dot_*" ? DotOptions(r.shape) : r.where;
  for (int a = 0; a < 3; ++a) {
    const double L = lattice.cells()[a] * a_nm, l = std::isinf(lo[a]) ? 0 : lo[a], h = std::isinf(hi[a]) ? L : hi[a];
    PetscCheck(l >= -1e-9 && h <= L + 1e-9, comm, PETSC_ERR_USER_INPUT,
               "%s: the %s spans %.4g..%.4g nm along %c, outside the supercell (0..%.4g nm, -cells %d)", who.c_str(),
               out->shape.describe().c_str(), l, h, "xyz"[a], L, lattice.cells()[a]);
  }
  PetscFunctionReturn(0);
}
} // namespace

PetscErrorCode Nanostructure::Create(MPI_Comm comm, const NanostructureSpec &spec,
                                     const std::vector<std::string> &names, const ZincblendeLattice &lattice,
                                     double a_nm, Nanostructure *out) {
  PetscFunctionBeginUser;
  Nanostructure n;
  n.spec_ = spec;
  n.lattice_ = lattice;
  n.a_nm_ = a_nm;
  NanostructureSpec placed = spec; // the dot's default centre, the supercell's, before the stack is stacked on it
  if (!placed.dot.center_set)
    for (int a = 0; a < 3; ++a) placed.dot.center[a] = lattice.cells()[a] * a_nm / 2;
  placed.dot.center_set = true;
  for (const RegionSpec &r : placed.regions())
    PetscCall(PlaceRegion(comm, r, names, lattice, a_nm, &n.regions_.emplace_back()));
  auto it = std::find(names.begin(), names.end(), spec.host_alloy_material);
  n.host_alloy_ = spec.host_alloy_material.empty() || it == names.end() ? -1 : (int)(it - names.begin());
  n.alloy_of_.assign(names.size(), {-1, 0.0});
  for (const DotRegion &r : n.regions_) n.alloy_of_[r.material] = {r.alloy_material, r.alloy_x};
  if (spec.interdiffusion > 0 && !n.regions_.empty())
    n.diffused_ = std::make_shared<const Interdiffusion>(n.regions_, lattice, spec.interdiffusion);
  *out = std::move(n);
  PetscFunctionReturn(0);
}

Nanostructure Nanostructure::Shifted(std::array<int, 3> origin) const {
  Nanostructure n = *this;
  for (int a = 0; a < 3; ++a) n.origin_[a] += origin[a];
  return n;
}

int Nanostructure::regionOf(PlaneIndex p) const {
  const PlaneIndex q = Unshifted(p);
  for (int r = (int)regions_.size() - 1; r >= 0; --r)
    if (regions_[r].contains(q)) return r;
  return -1;
}

// Inside the supercell a cation draws by its canonical index; outside it (the strain domain's padding) by its
// coordinates, in a range canonical indices never reach.
std::uint64_t Nanostructure::DrawIndex(PlaneIndex q) const {
  const auto &n = lattice_.planes();
  const bool inside = q.x >= 0 && q.y >= 0 && q.z >= 0 && q.x < n[0] && q.y < n[1] && q.z < n[2];
  return inside ? (std::uint64_t)lattice_.canonicalIndex(q)
                : (1ULL << 62) + MixBits(((std::uint64_t)(std::uint32_t)q.x << 42) ^
                                         ((std::uint64_t)(std::uint32_t)q.y << 21) ^ (std::uint64_t)(std::uint32_t)q.z);
}

// The material an interdiffused cation draws from the local fractions (-1: the background).
int Nanostructure::DrawDiffused(PlaneIndex q, std::uint64_t id) const {
  double c[256];
  diffused_->fractions(q, c);
  const double u = uniform(spec_.seed, id, kComposition);
  double sum = 0;
  for (size_t m = 0; m < diffused_->materials().size(); ++m)
    if (u < (sum += c[m])) return diffused_->materials()[m];
  return -1;
}

std::uint8_t Nanostructure::cationMaterial(PlaneIndex p) const {
  const PlaneIndex q = Unshifted(p);
  const int r = regionOf(p);
  const std::uint64_t id = DrawIndex(q);
  int m = -1;
  std::pair<int, double> alloy{-1, 0.0};
  if (diffused_) m = DrawDiffused(q, id), alloy = m >= 0 ? alloy_of_[m] : alloy;
  else if (r >= 0) {
    const DotRegion &R = regions_[r];
    if (R.pure() || uniform(spec_.seed, id, kComposition) < R.fraction(q))
      m = R.material, alloy = {R.alloy_material, R.alloy_x};
  }
  if (m < 0 && r >= 0 && regions_[r].material == 0) // a region of the host's own material keeps its alloy
    m = 0, alloy = {regions_[r].alloy_material, regions_[r].alloy_x};
  if (m >= 0) {
    if (alloy.first >= 0 && uniform(spec_.seed, id, kRegionAlloy) < alloy.second) return (std::uint8_t)alloy.first;
    return (std::uint8_t)m;
  }
  if (host_alloy_ >= 0 && uniform(spec_.seed, id, kHostAlloy) < spec_.host_alloy_x) return (std::uint8_t)host_alloy_;
  return 0;
}

double Nanostructure::composition(PlaneIndex p) const {
  const PlaneIndex q = Unshifted(p);
  if (diffused_) {
    double c[256], sum = 0;
    diffused_->fractions(q, c);
    for (size_t m = 0; m < diffused_->materials().size(); ++m) sum += c[m];
    return sum;
  }
  const int r = regionOf(p);
  return r >= 0 && regions_[r].material != 0 ? regions_[r].fraction(q) : 0.0;
}

} // namespace tbpeta
