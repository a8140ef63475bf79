#include "geometry/Interdiffusion.hpp"

#include <algorithm>
#include <cmath>

namespace tbpeta {

namespace {
// Grid index i holds the cation plane 2i + 1, at (i + 1/2) h nm with h = a/2.
int FloorIndex(double nm, double h) { return (int)std::max(-1e9, std::floor(nm / h - 0.5)); }
int CeilIndex(double nm, double h) { return (int)std::min(1e9, std::ceil(nm / h - 0.5)); }

// The Gaussian of variance 2 L^2 integrated over each voxel of width h: taps -K..K.
std::vector<double> VoxelWeights(double h, double length, int K) {
  std::vector<double> w(2 * K + 1);
  for (int d = -K; d <= K; ++d)
    w[d + K] = 0.5 * (std::erf((d + 0.5) * h / (2 * length)) - std::erf((d - 0.5) * h / (2 * length)));
  return w;
}
} // namespace

Interdiffusion::Interdiffusion(const std::vector<DotRegion> &regions, const ZincblendeLattice &lattice, double length)
    : lattice_(lattice) {
  if (regions.empty()) return;
  const double h = regions[0].a_nm / 2, reach = 6 * std::sqrt(2.0) * length + h;
  const int K = (int)std::ceil(reach / h);
  for (const DotRegion &r : regions)
    if (r.material != 0 && std::find(materials_.begin(), materials_.end(), r.material) == materials_.end())
      materials_.push_back(r.material);
  std::sort(materials_.begin(), materials_.end());
  for (int a = 0; a < 3; ++a) {
    const int N = 2 * lattice.cells()[a];
    int lo = 0, hi = N;
    if (!lattice.periodic()[a]) { // an open axis only as far as the regions reach
      lo = N, hi = 0;
      for (const DotRegion &r : regions)
        lo = std::min(lo, FloorIndex(r.lower()[a] - reach, h)),
        hi = std::max(hi, CeilIndex(r.upper()[a] + reach, h) + 1);
      lo = std::clamp(lo, 0, N), hi = std::clamp(hi, lo, N);
    }
    lo_[a] = lo, n_[a] = hi - lo;
  }
  const long long per = points();
  field_.assign(per * materials_.size(), 0.0);
  for (int i = 0; i < n_[0]; ++i)
    for (int j = 0; j < n_[1]; ++j)
      for (int k = 0; k < n_[2]; ++k) {
        const PlaneIndex p{2 * (lo_[0] + i) + 1, 2 * (lo_[1] + j) + 1, 2 * (lo_[2] + k) + 1};
        for (auto r = regions.rbegin(); r != regions.rend(); ++r) {
          if (!r->contains(p)) continue;
          const auto m = std::find(materials_.begin(), materials_.end(), r->material);
          if (m != materials_.end())
            field_[(m - materials_.begin()) * per + ((long long)i * n_[1] + j) * n_[2] + k] = r->fraction(p);
          break;
        }
      }
  const std::vector<double> w = VoxelWeights(h, length, K);
  for (int a = 0; a < 3; ++a) Blur(a, w);
}

int Interdiffusion::GridIndex(int axis, int g) const {
  const int N = 2 * lattice_.cells()[axis];
  g = lattice_.periodic()[axis] ? ((g % N) + N) % N : std::clamp(g, 0, N - 1);
  return g >= lo_[axis] && g < lo_[axis] + n_[axis] ? g - lo_[axis] : -1;
}

// One axis of the separable smoothing: every line along `axis` convolved with the weights, the line read beyond its
// ends by the boundary rule (wrap, continue at an open face, zero beyond the held range).
void Interdiffusion::Blur(int axis, const std::vector<double> &w) {
  const int K = ((int)w.size() - 1) / 2, n = n_[axis];
  const std::array<long long, 3> stride{(long long)n_[1] * n_[2], n_[2], 1};
  const int o1 = axis == 0 ? 1 : 0, o2 = axis == 2 ? 1 : 2; // the other two axes
  std::vector<double> line(n), out(n);
  for (size_t m = 0; m < materials_.size(); ++m)
    for (int i = 0; i < n_[o1]; ++i)
      for (int j = 0; j < n_[o2]; ++j) {
        double *base = field_.data() + m * points() + i * stride[o1] + j * stride[o2];
        for (int t = 0; t < n; ++t) line[t] = base[t * stride[axis]];
        for (int t = 0; t < n; ++t) {
          double s = 0;
          for (int d = -K; d <= K; ++d) {
            const int g = GridIndex(axis, lo_[axis] + t + d);
            if (g >= 0) s += w[d + K] * line[g];
          }
          out[t] = s;
        }
        for (int t = 0; t < n; ++t) base[t * stride[axis]] = out[t];
      }
}

void Interdiffusion::fractions(PlaneIndex p, double *c) const {
  const int q[3] = {p.x, p.y, p.z};
  long long idx = 0;
  for (int a = 0; a < 3; ++a) {
    const int g = GridIndex(a, (q[a] - 1) / 2); // cation planes are odd: exact
    if (g < 0) {
      std::fill(c, c + materials_.size(), 0.0);
      return;
    }
    idx = idx * n_[a] + g;
  }
  for (size_t m = 0; m < materials_.size(); ++m) c[m] = field_[m * points() + idx];
}

} // namespace tbpeta
