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

// -help's line of a size: "Height of a lens, cone, pyramid, cylinder or ellipsoid".
std::string SizeHelp(const ShapeParameter &p) { return std::string(p.what) + " of a " + ShapesTaking(p) + p.tail; }

// The dot's shape among the registered ones, and every registered size (each once, whichever shapes share it, so that
// -help lists them all with their defaults: the program's, or the parameter's own).
PetscErrorCode ReadDotShape(MPI_Comm comm, RegionSpec *dot, PetscBool *shape_none) {
  std::vector<const char *> names{"none"};
  for (const DotShapeKind &k : DotShapes()) names.push_back(k.name);
  const std::vector<const ShapeParameter *> params = DotShapeParameters();
  std::vector<std::array<double, 3>> v(params.size());
  for (size_t i = 0; i < params.size(); ++i)
    for (int j = 0; j < params[i]->max_count; ++j) v[i][j] = dot->size.get(params[i]->key, j);
  PetscInt shape = 0;
  PetscBool set = PETSC_FALSE;
  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, nullptr, "Embedded dot: shape and sizes (nm)", "tbpeta");
  PetscCall(PetscOptionsEList("-dot_shape", "Dot shape (none: no dot)", "tbpeta", names.data(), (PetscInt)names.size(),
                              dot->shape.c_str(), &shape, &set));
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i]->max_count == 1)
      PetscCall(
          PetscOptionsReal(params[i]->option, SizeHelp(*params[i]).c_str(), "tbpeta", v[i][0], &v[i][0], nullptr));
  PetscOptionsEnd();
  for (size_t i = 0; i < params.size(); ++i) {
    const ShapeParameter &p = *params[i];
    int count = p.max_count;
    PetscBool given = PETSC_FALSE;
    if (p.max_count > 1) // a list: read as text, its length checked (OptionLists)
      PetscCall(OptionsGetRealList(comm, p.option, SizeHelp(p).c_str(), p.min_count, p.max_count, v[i].data(), &count,
                                   &given));
    for (int j = count; j < p.max_count; ++j) v[i][j] = v[i][count - 1]; // D is D,D
    dot->size.set(p.key, std::vector<double>(v[i].begin(), v[i].begin() + p.max_count));
  }
  *shape_none = set && shape == 0 ? PETSC_TRUE : PETSC_FALSE;
  if (set && shape > 0) dot->shape = names[shape];
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
  const DotShapeKind *kind = FindDotShape(s.dot.shape);
  PetscCheck(kind || s.dot.material.empty(), comm, PETSC_ERR_USER_INPUT,
             "-dot_shape: '%s' is not a shape (allowed: %s)", s.dot.shape.c_str(), DotShapeNames().c_str());
  PetscCheck(s.dot.wetting_layers == 0 || s.dot.material.empty() || kind->sits_on_plane, comm, PETSC_ERR_USER_INPUT,
             "-dot_wetting_layers: a %s has no base plane (only the %s of %s take one)", kind->name,
             "shapes that sit on a plane", DotShapeNames(true).c_str());
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
// The options that place and size the -dot_* dot of a shape, for the error of a dot that does not fit.
std::string DotOptions(const DotShapeKind &kind) {
  std::string out;
  for (const ShapeParameter *p : kind.parameters)
    if (p->required) out += std::string(p->option) + "/";
  return out + "-dot_center";
}

// Places region r (its shape checked, its materials resolved) and refuses one that leaves the supercell.
PetscErrorCode PlaceRegion(MPI_Comm comm, const RegionSpec &r, const std::vector<std::string> &names,
                           const ZincblendeLattice &lattice, double a_nm, DotRegion *out) {
  auto index = [&](const std::string &m) {
    auto it = std::find(names.begin(), names.end(), m);
    return it == names.end() ? -1 : (int)(it - names.begin());
  };
  PetscFunctionBeginUser;
  const DotShapeKind *kind = FindDotShape(r.shape);
  PetscCheck(kind, comm, PETSC_ERR_USER_INPUT, "%s: '%s' is not a shape (allowed: %s)", r.where.c_str(),
             r.shape.c_str(), DotShapeNames().c_str());
  // The errors name a size by its option for the -dot_* dot (and its stack), by FILE:line and key in a file.
  const ShapeSizeNames size_names{!r.where.empty() && r.where[0] == '-' ? "" : r.where};
  const std::string err = ShapeGeometry::Make(*kind, r.size, size_names, &out->shape);
  PetscCheck(err.empty(), comm, PETSC_ERR_USER_INPUT, "%s", err.c_str());
  out->a_nm = a_nm, out->wetting_layers = r.wetting_layers, out->where = r.where;
  out->material = index(r.material), out->composition = r.composition;
  out->alloy_material = r.alloy_material.empty() ? -1 : index(r.alloy_material), out->alloy_x = r.alloy_x;
  PetscCheck(out->material >= 0 && (r.alloy_material.empty() || out->alloy_material >= 0), comm, PETSC_ERR_PLIB,
             "%s: material %s was not loaded", r.where.c_str(), r.material.c_str());
  for (int a = 0; a < 3; ++a) out->anchor[a] = r.center_set ? r.center[a] : lattice.cells()[a] * a_nm / 2;
  const std::array<double, 3> lo = out->lower(), hi = out->upper();
  const std::string who = r.where == "-dot_*" ? DotOptions(*kind) : r.where;
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
