#include "bulk/KPath.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace tbpeta {

namespace {

std::string AllowedPathLetters() {
  std::string s;
  for (const auto &p : HighSymmetryPoints()) s += std::string(s.empty() ? "" : ", ") + p.letter;
  return s;
}

} // namespace

const std::vector<SymmetryPoint> &HighSymmetryPoints() {
  static const std::vector<SymmetryPoint> points = {{'G', {0, 0, 0}},       {'X', {1, 0, 0}},
                                                    {'W', {1, 0.5, 0}},     {'L', {0.5, 0.5, 0.5}},
                                                    {'K', {0.75, 0.75, 0}}, {'U', {1, 0.25, 0.25}}};
  return points;
}

PetscErrorCode ParseBandPath(MPI_Comm comm, const std::string &spec, int points_per_segment, BandPath *path) {
  BandPath p;
  PetscFunctionBeginUser;
  PetscCheck(points_per_segment >= 1, comm, PETSC_ERR_USER_INPUT, "-points_per_segment %d: must be at least 1",
             points_per_segment);
  p.points_per_segment = points_per_segment;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    item = b == std::string::npos ? "" : item.substr(b, e - b + 1);
    const auto &pts = HighSymmetryPoints();
    auto it = std::find_if(pts.begin(), pts.end(),
                           [&](const SymmetryPoint &q) { return item.size() == 1 && item[0] == q.letter; });
    PetscCheck(it != pts.end(), comm, PETSC_ERR_USER_INPUT,
               "-path %s: unknown point '%s' (allowed letters: %s, comma-separated, e.g. %s)", spec.c_str(),
               item.c_str(), AllowedPathLetters().c_str(), kDefaultBandPath);
    PetscCheck(p.labels.empty() || p.labels.back() != item, comm, PETSC_ERR_USER_INPUT,
               "-path %s: point %s follows itself (allowed letters: %s, e.g. %s)", spec.c_str(), item.c_str(),
               AllowedPathLetters().c_str(), kDefaultBandPath);
    p.labels.push_back(item);
    p.corners.push_back(it->k);
  }
  PetscCheck(p.corners.size() >= 2, comm, PETSC_ERR_USER_INPUT,
             "-path %s: needs at least 2 points (allowed letters: %s, comma-separated, e.g. %s)", spec.c_str(),
             AllowedPathLetters().c_str(), kDefaultBandPath);
  *path = p;
  PetscFunctionReturn(0);
}

PetscErrorCode BandPathFromOptions(MPI_Comm comm, BandPath *path) {
  char spec[1024];
  PetscInt n = kDefaultPointsPerSegment;
  PetscFunctionBeginUser;
  std::snprintf(spec, sizeof(spec), "%s", kDefaultBandPath);
  const std::string help =
      std::string("Path of high-symmetry points, comma-separated letters of ") + AllowedPathLetters() + " (fcc, 2pi/a)";
  PetscOptionsBegin(comm, nullptr, "Band path", "tbpeta-bands");
  PetscCall(PetscOptionsString("-path", help.c_str(), "tbpeta-bands", spec, spec, sizeof(spec), nullptr));
  PetscCall(PetscOptionsInt("-points_per_segment", "k points per segment of the path (>= 1)", "tbpeta-bands", n, &n,
                            nullptr));
  PetscOptionsEnd();
  PetscCall(ParseBandPath(comm, spec, (int)n, path));
  PetscFunctionReturn(0);
}

std::vector<PathSample> SamplePath(const BandPath &path) {
  std::vector<PathSample> out;
  const int n = path.points_per_segment;
  double d0 = 0;
  for (int seg = 0; seg < path.segments(); ++seg) {
    const double len = norm(path.step(seg));
    for (int j = (seg == 0 ? 0 : 1); j <= n; ++j) {
      PathSample s;
      s.k = along(path.corners[seg], path.corners[seg + 1], (double)j / n);
      s.distance = d0 + len * j / n;
      s.segment = j == n && seg + 1 < path.segments() ? seg + 1 : seg;
      if (j == 0) s.label = path.labels[seg];
      if (j == n) s.label = path.labels[seg + 1];
      out.push_back(s);
    }
    d0 += len;
  }
  return out;
}

PathPosition PositionOnPath(const BandPath &path, double s) {
  const int n = path.points_per_segment, segs = path.segments();
  const int seg = std::clamp((int)std::floor(s / n), 0, segs - 1);
  const double f = std::clamp((s - seg * n) / n, 0.0, 1.0);
  double d = 0;
  for (int i = 0; i < seg; ++i) d += norm(path.step(i));
  d += f * norm(path.step(seg));
  return {seg, f, along(path.corners[seg], path.corners[seg + 1], f), d};
}

} // namespace tbpeta
