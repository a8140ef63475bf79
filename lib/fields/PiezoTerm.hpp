#pragma once
// The on-site term `piezo`: the potential of the piezoelectric polarisation of the relaxed strain (-piezo,
// -piezo_e14, -piezo_grid, -piezo_pad_cells, read with the system: model/FieldSpec). Every atom of the strain domain
// polarises (fields/Polarization.hpp), its padding too; PolarizationPoisson solves for phi on a grid over the domain
// and a host padding, and an electron on an atom gains -e phi. Its output: the polarisation (C/m^2) and the Poisson
// solve's grid and counters in fields/, the order and e14 choice as attributes.
#include <array>
#include <vector>

#include "fields/OnsiteTerm.hpp"
#include "fields/PolarizationPoisson.hpp"

namespace tbpeta {

class PiezoTerm : public OnsiteTerm {
public:
  explicit PiezoTerm(const FieldSpec &spec) : spec_(spec) {}
  bool on() const override { return spec_.piezoOn(); }
  PetscErrorCode Compute(MPI_Comm comm, const TightBindingSystem &sys, const SystemStrain &strain,
                         std::span<double> energy) override;
  PetscErrorCode PrintSummary(MPI_Comm comm) const override;
  void Output(AtomGroup *fields, ResultsPart *part) const override;
  PetscErrorCode EstimateBytes(MPI_Comm comm, const TightBindingSystem &sys, double *bytes) const override;
  std::string ComputeDescription() const override { return "piezoelectric Poisson solve"; }

  const PoissonReport &poisson() const { return poisson_; }
  const std::vector<std::array<double, 3>> &polarization() const { return polarization_; } // C/m^2 per owned atom

private:
  FieldSpec spec_;
  PoissonReport poisson_;
  std::vector<std::array<double, 3>> polarization_;
};

// The Poisson grid of a run with -piezo: the electronic box, its strain padding and -piezo_pad_cells on each open face,
// -piezo_grid nodes per lattice constant (the memory preflight counts its nodes).
PoissonGridGeometry SystemPoissonGrid(const TightBindingSystem &sys);

} // namespace tbpeta
