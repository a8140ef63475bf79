#pragma once
// Interband optical transitions between the levels of a solve, from their momentum matrix elements
// (optics/MomentumElements), in forms that do not depend on the basis a solver picked inside a degenerate level:
// every quantity is a sum over both levels' whole subspaces (every Kramers pair, every multiplet of a symmetric dot).
//   momentum2[e] = sum_{c in C, v in V} 2 |e.p_cv|^2 / m0 = sum |e.M_cv|^2 / (hbar^2 / 2 m0)   (eV)
//   f[e]         = momentum2[e] / (E_c - E_v)                                                  (oscillator strength)
// for e along x, y, z, [110] and [1-10]; TE = (x + y) / 2 (in-plane light of random polarisation), TM = z; the degree
// of polarisation as cleaved-edge photoluminescence measures it, one in-plane direction at a time (Usman et al., PRB
// 84, 115321 (2011)): DOP[110] = ([110] - z) / ([110] + z) and DOP[1-10] likewise; the in-plane anisotropy
// ([110] - [1-10]) / ([110] + [1-10]); and the spontaneous-emission rate of one electron in
// level C (averaged over its g_C states) into the empty level V, in a medium of refractive index n:
//   rate = n e^2 w^2 (f_x + f_y + f_z) / (6 pi eps0 m0 c^3) / g_C,   w = (E_c - E_v) / hbar,
// that is, with the orientation-averaged f = (f_x + f_y + f_z) / 3 of the pair, n e^2 w^2 f / (2 pi eps0 m0 c^3) / g_C.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "optics/MomentumElements.hpp"

namespace tbpeta {

inline constexpr double kHbar2Over2m0EvNm2 = 0.0380998; // hbar^2 / 2 m0, eV nm^2
inline constexpr int kPolarisations = 5;
inline constexpr const char *kPolarisationNames[kPolarisations] = {"x", "y", "z", "[110]", "[1-10]"};

// A level: states [first, first + count) of an ascending list, equal within the tolerance.
struct Level {
  size_t first = 0, count = 0;
  double energy = 0; // the mean of its states' energies
};
// Groups ascending energies into levels: a state joins the level before it when within `tolerance` eV of its last.
std::vector<Level> GroupLevels(const std::vector<double> &energies, double tolerance);

struct Transition {
  size_t c_level = 0, v_level = 0; // indices into the conduction and valence levels
  double energy = 0;               // E_c - E_v, eV
  std::array<double, kPolarisations> momentum2{}, f{};
  double te = 0, tm = 0;         // TE = (x + y) / 2 and TM = z of momentum2, eV
  std::array<double, 2> dop{};   // DOP[110], DOP[1-10]
  double anisotropy = 0;         // ([110] - [1-10]) / ([110] + [1-10])
  double rate = 0, lifetime = 0; // 1/s, s
};

// Every (conduction level, valence level) pair of the elements, conduction levels outer. energies_c and energies_v:
// the energies of M's conduction and valence states (ascending within each list), eV.
std::vector<Transition> ComputeTransitions(const MomentumElements &M, const std::vector<double> &energies_c,
                                           const std::vector<double> &energies_v, double tolerance,
                                           double refractive_index, std::vector<Level> *levels_c,
                                           std::vector<Level> *levels_v);

// The spontaneous-emission rate (1/s) for the summed oscillator strength f_x + f_y + f_z of a transition of energy
// `energy` eV, in a medium of index n, for one initial state.
double RadiativeRate(double energy, double f_sum, double refractive_index);

} // namespace tbpeta
