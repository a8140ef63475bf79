#include "study/ScalingModel.hpp"

namespace tbpeta {

bool MachinePreset(const std::string &name, MachineSetting *setting) {
  if (name == "2001") *setting = {"2001", 20e-6, 100e-6, 12.5e6};
  else if (name == "today") *setting = {"today", 0.5e-6, 2e-6, 12.5e9};
  else return false;
  return true;
}

ModelPoint ModelProduct(const MachineSetting &m, int domains, PartitionKind kind, double atoms_max, double halo_max,
                        int rows_per_atom) {
  ModelPoint p;
  p.compute = atoms_max * m.t_atom;
  if (domains > 1) {
    p.latency = MessagesPerProduct(kind) * m.latency;
    p.transfer = halo_max * rows_per_atom * 16.0 / m.bandwidth;
  }
  return p;
}

double BandwidthForEfficiency(const MachineSetting &m, double atoms, int domains, PartitionKind kind, double atoms_max,
                              double halo_max, int rows_per_atom, double efficiency) {
  const double t1 = atoms * m.t_atom, target = t1 / (domains * efficiency);
  const double left = target - atoms_max * m.t_atom - (domains > 1 ? MessagesPerProduct(kind) * m.latency : 0);
  if (left <= 0) return -1;
  return halo_max * rows_per_atom * 16.0 / left;
}

} // namespace tbpeta
