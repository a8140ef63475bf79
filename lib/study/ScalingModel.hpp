#pragma once
// The strong-scaling model of one product y = Hx on P processors:
//   T(P) = (N/P) t_atom + m tau + N_halo B 16 bytes / b
// with N atoms, m messages per product (2 for slabs, 8 for columns, 26 for cubes), tau the message latency, B rows
// per atom (orbitals x spins), 16 bytes per complex entry, b the network bandwidth, and N_halo the largest domain's
// halo counted from the geometry of the structure (HaloAnalysis), not fitted.
#include <string>

#include "geometry/PlanePartition.hpp"

namespace tbpeta {

struct MachineSetting {
  std::string name;
  double t_atom = 0;    // s of compute per atom per product
  double latency = 0;   // s per message
  double bandwidth = 0; // bytes/s
};

// The presets: "2001" (t_atom 20 us, 100 Mbit/s Ethernet = 12.5 MB/s, 100 us latency) and "today" (0.5 us,
// 100 Gbit/s = 12.5 GB/s, 2 us). False for another name.
bool MachinePreset(const std::string &name, MachineSetting *setting);

inline int MessagesPerProduct(PartitionKind kind) {
  return kind == PartitionKind::slab ? 2 : kind == PartitionKind::column ? 8 : 26;
}

struct ModelPoint {
  double compute = 0, latency = 0, transfer = 0; // s per product
  double time() const { return compute + latency + transfer; }
};

// One product on P domains of `atoms_max` owned atoms (the largest domain) and `halo_max` halo atoms; P = 1
// (one domain) has no messages.
ModelPoint ModelProduct(const MachineSetting &m, int domains, PartitionKind kind, double atoms_max, double halo_max,
                        int rows_per_atom);

// The bandwidth (bytes/s) at which P domains reach `efficiency` (T(1) / (P T(P))), or a negative number when even an
// infinite bandwidth cannot (compute and latency alone are too slow).
double BandwidthForEfficiency(const MachineSetting &m, double atoms, int domains, PartitionKind kind, double atoms_max,
                              double halo_max, int rows_per_atom, double efficiency);

} // namespace tbpeta
