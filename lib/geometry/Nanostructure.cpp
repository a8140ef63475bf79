#include "geometry/Nanostructure.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <sstream>

#include "support/CounterHash.hpp"
#include "support/OptionLists.hpp"

namespace tbpeta {

std::vector<std::pair<std::string, std::string>> NanostructureSpec::extraMaterials() const {
  std::vector<std::pair<std::string, std::string>> out;
  if (!dot_material.empty()) out.emplace_back(dot_material, "-dot_material");
  if (!host_alloy_material.empty()) out.emplace_back(host_alloy_material, "-host_alloy");
  if (!dot_alloy_material.empty()) out.emplace_back(dot_alloy_material, "-dot_alloy");
  return out;
}

namespace {
// "M,x" -> material and fraction; a one-line error names the option.
PetscErrorCode ParseAlloy(MPI_Comm comm, const char *option, const char *value, std::string *material, double *x) {
  PetscFunctionBeginUser;
  const char *comma = std::strchr(value, ',');
  PetscCheck(comma && comma != value, comm, PETSC_ERR_USER_INPUT, "%s: expected MATERIAL,x (e.g. InAs,0.3), got '%s'",
             option, value);
  char *end = nullptr;
  double v = std::strtod(comma + 1, &end);
  PetscCheck(end != comma + 1 && *end == '\0', comm, PETSC_ERR_USER_INPUT,
             "%s: '%s' is not a number (expected MATERIAL,x with 0 <= x <= 1)", option, comma + 1);
  PetscCheck(v >= 0 && v <= 1, comm, PETSC_ERR_USER_INPUT, "%s: fraction %g is outside [0,1]", option, v);
  *material = std::string(value, comma - value);
  *x = v;
  PetscFunctionReturn(0);
}

// A cation's draw depends only on (seed, canonical index, stream).
inline double uniform(std::uint64_t seed, std::uint64_t index, std::uint64_t stream) {
  return UnitInterval(MixBits(MixBits(seed ^ (stream * 0xd1b54a32d192ed03ULL)) + index));
}
} // namespace

PetscErrorCode NanostructureSpecFromOptions(MPI_Comm comm, const NanostructureSpec &defaults, NanostructureSpec *spec) {
  char dot[64] = "", host_alloy[128] = "", dot_alloy[128] = "";
  const char *shapes[] = {"none", "sphere", "dome", "box", "DotShape", "DOT_", nullptr};
  PetscEnum shape = (PetscEnum)(defaults.shape == DotShape::none ? DotShape::sphere : defaults.shape);
  PetscBool dot_set = PETSC_FALSE, shape_set = PETSC_FALSE, ha_set = PETSC_FALSE, da_set = PETSC_FALSE,
            set = PETSC_FALSE, center_set = PETSC_FALSE;
  PetscReal radius = defaults.radius > 0 ? defaults.radius : 2.0;
  PetscInt wl = defaults.wetting_layers, seed = (PetscInt)defaults.seed;
  double size[3] = {4, 4, 4}, center[3] = {0, 0, 0};
  NanostructureSpec s = defaults;

  PetscFunctionBeginUser;
  std::snprintf(dot, sizeof dot, "%s", defaults.dot_material.c_str());
  for (int a = 0; a < 3; ++a)
    if (defaults.size[a] > 0) size[a] = defaults.size[a];
  PetscOptionsBegin(comm, nullptr, "Nanostructure (embedded dot and alloys)", "tbpeta");
  PetscCall(PetscOptionsString("-dot_material", "Material of the embedded dot (empty: no dot)", "tbpeta", dot, dot,
                               sizeof(dot), &dot_set));
  PetscCall(PetscOptionsEnum("-dot_shape",
                             "Dot shape: sphere, dome (half sphere on a wetting layer), box, or none (no dot)",
                             "tbpeta", shapes, shape, &shape, &shape_set));
  PetscCall(PetscOptionsReal("-dot_radius", "Dot radius (nm) of a sphere or dome", "tbpeta", radius, &radius, nullptr));
  PetscCall(PetscOptionsInt("-dot_wetting_layers", "Wetting-layer thickness under a dome, in monolayers of a/2",
                            "tbpeta", wl, &wl, nullptr));
  PetscCall(PetscOptionsString("-host_alloy",
                               "Random cation alloy of the host: MATERIAL,x (e.g. AlAs,0.3 for Al0.3Ga0.7As)", "tbpeta",
                               host_alloy, host_alloy, sizeof(host_alloy), &ha_set));
  PetscCall(PetscOptionsString("-dot_alloy", "Random cation alloy inside the dot: MATERIAL,x", "tbpeta", dot_alloy,
                               dot_alloy, sizeof(dot_alloy), &da_set));
  PetscCall(PetscOptionsInt("-alloy_seed", "Seed of the alloy disorder (the same atoms on any number of ranks)",
                            "tbpeta", seed, &seed, nullptr));
  PetscOptionsEnd();
  PetscCall(OptionsGetRealTuple(comm, "-dot_size", "Box dot size x,y,z (nm)", 3, size, &set));
  PetscCall(OptionsGetRealTuple(comm, "-dot_center",
                                "Dot centre x,y,z (nm) (default: supercell centre; base centre for a dome)", 3, center,
                                &center_set));
  s.center_set = center_set || defaults.center_set;

  // -dot_shape none removes a dot the defaults had; with a -dot_material of the user's own it is a contradiction.
  PetscCheck(!shape_set || (DotShape)shape != DotShape::none || !dot_set || !dot[0], comm, PETSC_ERR_USER_INPUT,
             "-dot_shape none conflicts with -dot_material %s", dot);
  s.dot_material = shape_set && (DotShape)shape == DotShape::none ? "" : dot;
  s.shape = s.dot_material.empty() ? DotShape::none : (DotShape)shape;
  PetscCheck(s.dot_material.empty() || s.shape != DotShape::none, comm, PETSC_ERR_USER_INPUT,
             "-dot_shape: must be sphere, dome or box when -dot_material is given");
  PetscCheck(radius > 0, comm, PETSC_ERR_USER_INPUT, "-dot_radius: %g nm; the radius must be positive", (double)radius);
  PetscCheck(wl >= 0, comm, PETSC_ERR_USER_INPUT, "-dot_wetting_layers: %" PetscInt_FMT "; must be 0 or more", wl);
  for (int a = 0; a < 3; ++a)
    PetscCheck(size[a] > 0, comm, PETSC_ERR_USER_INPUT, "-dot_size: every extent must be positive (got %g nm along %c)",
               size[a], "xyz"[a]);
  PetscCheck(seed >= 0, comm, PETSC_ERR_USER_INPUT, "-alloy_seed: %" PetscInt_FMT "; must be 0 or more", seed);
  s.radius = radius;
  s.wetting_layers = (int)wl;
  for (int a = 0; a < 3; ++a) {
    s.size[a] = size[a];
    if (center_set) s.center[a] = center[a];
  }
  if (ha_set) PetscCall(ParseAlloy(comm, "-host_alloy", host_alloy, &s.host_alloy_material, &s.host_alloy_x));
  if (da_set) {
    PetscCheck(!s.dot_material.empty(), comm, PETSC_ERR_USER_INPUT, "-dot_alloy needs a dot: give -dot_material");
    PetscCall(ParseAlloy(comm, "-dot_alloy", dot_alloy, &s.dot_alloy_material, &s.dot_alloy_x));
  }
  s.seed = (unsigned long long)seed;
  *spec = s;
  PetscFunctionReturn(0);
}

PetscErrorCode Nanostructure::Create(MPI_Comm comm, const NanostructureSpec &spec,
                                     const std::vector<std::string> &names, const ZincblendeLattice &lattice,
                                     double a_nm, Nanostructure *out) {
  auto index = [&](const std::string &m) {
    auto it = std::find(names.begin(), names.end(), m);
    return it == names.end() ? -1 : (int)(it - names.begin());
  };
  PetscFunctionBeginUser;
  Nanostructure n;
  n.spec_ = spec;
  n.lattice_ = lattice;
  n.a_nm_ = a_nm;
  n.dot_ = spec.dot_material.empty() ? -1 : index(spec.dot_material);
  n.host_alloy_ = spec.host_alloy_material.empty() ? -1 : index(spec.host_alloy_material);
  n.dot_alloy_ = spec.dot_alloy_material.empty() ? -1 : index(spec.dot_alloy_material);
  if (spec.shape != DotShape::none) {
    double L[3], lo[3], hi[3];
    for (int a = 0; a < 3; ++a) L[a] = lattice.cells()[a] * a_nm;
    if (!spec.center_set)
      for (int a = 0; a < 3; ++a) n.spec_.center[a] = L[a] / 2;
    const auto &c = n.spec_.center;
    for (int a = 0; a < 3; ++a) {
      const double half = spec.shape == DotShape::box ? spec.size[a] / 2 : spec.radius;
      lo[a] = c[a] - half;
      hi[a] = c[a] + half;
    }
    if (spec.shape == DotShape::dome) {
      lo[2] = c[2] - spec.wetting_layers * a_nm / 2;
      hi[2] = c[2] + spec.radius;
    }
    const char *what = spec.shape == DotShape::box ? "-dot_size/-dot_center" : "-dot_radius/-dot_center";
    for (int a = 0; a < 3; ++a)
      PetscCheck(lo[a] >= -1e-9 && hi[a] <= L[a] + 1e-9, comm, PETSC_ERR_USER_INPUT,
                 "%s: the dot spans %.3g..%.3g nm along %c, outside the supercell (0..%.3g nm, -cells %d)", what, lo[a],
                 hi[a], "xyz"[a], L[a], lattice.cells()[a]);
  }
  *out = n;
  PetscFunctionReturn(0);
}

Nanostructure Nanostructure::Shifted(std::array<int, 3> origin) const {
  Nanostructure n = *this;
  for (int a = 0; a < 3; ++a) n.origin_[a] += origin[a];
  return n;
}

bool Nanostructure::inDot(PlaneIndex p) const {
  if (spec_.shape == DotShape::none) return false;
  p = {p.x - origin_[0], p.y - origin_[1], p.z - origin_[2]};
  const double q = a_nm_ / 4;
  const double r[3] = {p.x * q - spec_.center[0], p.y * q - spec_.center[1], p.z * q - spec_.center[2]};
  const double eps = 1e-9;
  switch (spec_.shape) {
  case DotShape::sphere: return r[0] * r[0] + r[1] * r[1] + r[2] * r[2] <= spec_.radius * spec_.radius + eps;
  case DotShape::box:
    return std::fabs(r[0]) <= spec_.size[0] / 2 + eps && std::fabs(r[1]) <= spec_.size[1] / 2 + eps &&
           std::fabs(r[2]) <= spec_.size[2] / 2 + eps;
  case DotShape::dome:
    if (r[2] < 0) return r[2] >= -spec_.wetting_layers * a_nm_ / 2 - eps; // wetting layer under the dome
    return r[0] * r[0] + r[1] * r[1] + r[2] * r[2] <= spec_.radius * spec_.radius + eps;
  default: return false;
  }
}

std::uint8_t Nanostructure::cationMaterial(PlaneIndex p) const {
  const PlaneIndex q{p.x - origin_[0], p.y - origin_[1], p.z - origin_[2]};
  const auto &n = lattice_.planes();
  const bool inside = q.x >= 0 && q.y >= 0 && q.z >= 0 && q.x < n[0] && q.y < n[1] && q.z < n[2];
  // Outside this box (padding) an atom draws by its shifted coordinates, in a range canonical indices never reach.
  const auto id = [&] {
    return inside
               ? (std::uint64_t)lattice_.canonicalIndex(q)
               : (1ULL << 62) + MixBits(((std::uint64_t)(std::uint32_t)q.x << 42) ^
                                        ((std::uint64_t)(std::uint32_t)q.y << 21) ^ (std::uint64_t)(std::uint32_t)q.z);
  };
  if (inDot(p)) {
    if (dot_alloy_ >= 0 && uniform(spec_.seed, id(), 2) < spec_.dot_alloy_x) return (std::uint8_t)dot_alloy_;
    return (std::uint8_t)dot_;
  }
  if (host_alloy_ >= 0 && uniform(spec_.seed, id(), 1) < spec_.host_alloy_x) return (std::uint8_t)host_alloy_;
  return 0;
}

} // namespace tbpeta
