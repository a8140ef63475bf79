#pragma once
// Paths through the high-symmetry points of the fcc Brillouin zone: the points a path may use, a path read from its
// letters (-path, -points_per_segment), its samples, and the place on it of a continuous sample coordinate.
#include <petscsys.h>

#include <string>
#include <vector>

#include "bulk/KPoint.hpp"

namespace tbpeta {

// The high-symmetry points of the fcc Brillouin zone that a path may use (2 pi / a):
// G = (0,0,0), X = (1,0,0), W = (1,1/2,0), L = (1/2,1/2,1/2), K = (3/4,3/4,0), U = (1,1/4,1/4).
struct SymmetryPoint {
  char letter;
  KPoint k;
};
const std::vector<SymmetryPoint> &HighSymmetryPoints();
inline constexpr const char *kDefaultBandPath = "G,X,W,L,G,K";
inline constexpr int kDefaultPointsPerSegment = 40;

struct BandPath {
  std::vector<std::string> labels; // one letter per corner
  std::vector<KPoint> corners;
  int points_per_segment = kDefaultPointsPerSegment;
  int segments() const { return (int)corners.size() - 1; }
  // The segment from corner i to corner i + 1.
  KPoint step(int i) const { return corners[i + 1] - corners[i]; }
};

// Parses a comma-separated list of point letters (e.g. "G,X,W,L,G,K"). One-line PETSC_ERR_USER_INPUT naming -path
// (and listing the allowed letters) for an unknown letter, fewer than 2 points or two equal consecutive points.
PetscErrorCode ParseBandPath(MPI_Comm comm, const std::string &spec, int points_per_segment, BandPath *path);
// Reads -path (default kDefaultBandPath) and -points_per_segment (default 40, >= 1). Collective.
PetscErrorCode BandPathFromOptions(MPI_Comm comm, BandPath *path);

struct PathSample {
  KPoint k;
  double distance = 0; // cumulative path length, 2 pi / a
  int segment = 0;   // segment the sample belongs to (a corner belongs to the segment it starts; the last to the last)
  std::string label; // the corner's letter, empty between corners
};
// points_per_segment samples per segment, corners shared: segments * points_per_segment + 1 samples.
std::vector<PathSample> SamplePath(const BandPath &path);

// The place on the path of the continuous sample coordinate s in [0, segments * points_per_segment] (sample j at
// s = j): its segment, the fraction of the way along it, its k and its distance from the start (2 pi / a).
struct PathPosition {
  int segment = 0;
  double fraction = 0;
  KPoint k;
  double distance = 0;
};
PathPosition PositionOnPath(const BandPath &path, double s);

} // namespace tbpeta
