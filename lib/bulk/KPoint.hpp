#pragma once
// A wave vector of the bulk crystal in units of 2 pi / a (a: the cubic lattice constant), a value with the
// arithmetic of a vector. Written component by component in the order x, y, z, so that every result is the same to
// the bit as the loops it replaces (a + f (b - a), a dot product summed x first, a unit vector divided by its norm).
#include <array>
#include <cmath>

namespace tbpeta {

struct KPoint {
  std::array<double, 3> c{0, 0, 0};

  double &operator[](int i) { return c[i]; }
  double operator[](int i) const { return c[i]; }
  const double *begin() const { return c.data(); }
  const double *end() const { return c.data() + 3; }
  // H(k) and the bond commutator take the three components.
  operator const std::array<double, 3> &() const { return c; }
};

inline KPoint operator+(const KPoint &a, const KPoint &b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline KPoint operator-(const KPoint &a, const KPoint &b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline KPoint operator-(const KPoint &a) { return {-a[0], -a[1], -a[2]}; }
inline KPoint operator*(double s, const KPoint &a) { return {s * a[0], s * a[1], s * a[2]}; }
inline KPoint operator/(const KPoint &a, double s) { return {a[0] / s, a[1] / s, a[2] / s}; }

inline double dot(const KPoint &a, const KPoint &b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline double norm(const KPoint &a) { return std::sqrt(dot(a, a)); }
inline KPoint unit(const KPoint &a) { return a / norm(a); }
// The point a fraction f of the way from a to b.
inline KPoint along(const KPoint &a, const KPoint &b, double f) { return a + f * (b - a); }

} // namespace tbpeta
