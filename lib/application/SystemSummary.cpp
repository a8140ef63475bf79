#include "application/SystemSummary.hpp"

#include <string>
#include <vector>

#include "operator/OperatorProperties.hpp"

namespace tbpeta {

namespace {
const char *basisName(BasisModel b) { return b == BasisModel::sp3sstar ? "sp3s*" : "sp3d5s*"; }

// Every region of the structure with the cations it holds (a later region wins where they overlap) and their mean
// composition x, the fraction of the regions' materials their draws used; then the rest (the host).
PetscErrorCode PrintRegions(MPI_Comm comm, const TightBindingSystem &sys) {
  const Structure &s = sys.structure;
  const auto &regions = sys.nano.regions();
  if (regions.empty()) return 0;
  std::vector<double> sums(2 * (regions.size() + 1), 0.0); // per region and the host: cations, sum of x
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < s.owned; ++i) {
    if (s.sublattice(i) != Sublattice::cation) continue;
    const int r = sys.nano.regionOf(s.sites[i]), k = r < 0 ? (int)regions.size() : r;
    sums[2 * k] += 1, sums[2 * k + 1] += sys.nano.composition(s.sites[i]);
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, sums.data(), (PetscMPIInt)sums.size(), MPI_DOUBLE, MPI_SUM, comm));
  for (size_t r = 0; r <= regions.size(); ++r) {
    const double n = sums[2 * r], x = n > 0 ? sums[2 * r + 1] / n : 0;
    if (r == regions.size()) {
      PetscCall(PetscPrintf(comm, "  outside        %.0f cations, mean x %.4f%s\n", n, x,
                            sys.nano.interdiffusion() ? " (interdiffused)" : ""));
      break;
    }
    const DotRegion &d = regions[r];
    const auto &c = d.anchor;
    std::string wl = d.wetting_layers > 0 ? " on " + std::to_string(d.wetting_layers) + " ML of wetting layer" : "";
    PetscCall(PetscPrintf(comm, "  region %-7zu %s %s at (%.3f, %.3f, %.3f) nm%s (%s): %.0f cations, mean x %.4f\n",
                          r + 1, sys.model.materials[d.material].material.c_str(), d.shape.describe().c_str(), c[0],
                          c[1], c[2], wl.c_str(), d.where.c_str(), n, x));
  }
  PetscFunctionReturn(0);
}
// The operator line: the matrix or the operator kind, rows and bytes of H per atom (none without H: -solve false).
PetscErrorCode PrintOperator(MPI_Comm comm, const Structure &s, Mat H) {
  const OperatorProperties *op;
  double op_bytes;
  PetscFunctionBeginUser;
  if (!H) PetscFunctionReturn(0);
  PetscCall(OperatorGetProperties(H, &op));
  PetscCheck(op, comm, PETSC_ERR_ARG_WRONG, "PrintSystemSummary: not an operator built by tbpeta");
  PetscCall(OperatorTotalBytes(H, &op_bytes));
  if (op->has_entries) {
    const char *type = op->kind == "baij" ? "MATMPIBAIJ" : "MATMPIAIJ";
    PetscCall(PetscPrintf(comm,
                          "  matrix         %s, %" PetscInt_FMT " rows, %.0f non-zeros, %.0f bytes of H per atom\n",
                          type, op->rows, op->nonzeros, op_bytes / (double)s.total()));
  } else
    PetscCall(PetscPrintf(comm,
                          "  operator       %s, %" PetscInt_FMT " rows, %.0f bytes of H per atom (-hamiltonian %s)\n",
                          op->description.c_str(), op->rows, op_bytes / (double)s.total(), op->kind.c_str()));
  PetscFunctionReturn(0);
}
} // namespace

PetscErrorCode PrintSystemSummary(MPI_Comm comm, const TightBindingSystem &sys, Mat H, double vbm, double cbm) {
  const Structure &s = sys.structure;
  const TightBindingModel &m = sys.model;
  PetscFunctionBeginUser;
  PetscInt mins[2] = {s.owned, s.halo()}, maxs[2] = {s.owned, s.halo()};
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, mins, 2, MPIU_INT, MPI_MIN, comm));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, maxs, 2, MPIU_INT, MPI_MAX, comm));
  std::vector<PetscInt> cations(m.materials.size(), 0);
  for (PetscInt i = 0; i < s.owned; ++i)
    if (s.sublattice(i) == Sublattice::cation) ++cations[s.material[i]];
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, cations.data(), (PetscMPIInt)cations.size(), MPIU_INT, MPI_SUM, comm));
  const auto &c = sys.spec.cell;
  PetscCall(PetscPrintf(comm, "tbpeta: %s %s, parameter set %s (%s%s), %s\n",
                        m.materials[0].anion == m.materials[0].cation ? "diamond" : "zincblende",
                        m.materials[0].material.c_str(), m.set.c_str(), basisName(m.basis),
                        m.spin_orbit ? " + spin-orbit" : "", StrainDescription(sys).c_str()));
  PetscCall(PetscPrintf(
      comm, "  supercell      %d x %d x %d cells (a = %.5f nm), periodic %d,%d,%d, k = (%.4g, %.4g, %.4g) 2pi/a\n",
      c.cells[0], c.cells[1], c.cells[2], sys.a_nm, c.periodic[0], c.periodic[1], c.periodic[2], c.k[0], c.k[1],
      c.k[2]));
  std::string mats;
  for (size_t i = 0; i < m.materials.size(); ++i)
    mats +=
        (i ? ", " : "") + m.materials[i].cation + " (" + m.materials[i].material + ") " + std::to_string(cations[i]);
  PetscCall(PetscPrintf(comm, "  atoms          %" PetscInt_FMT " (cations: %s)\n", s.total(), mats.c_str()));
  PetscCall(PrintRegions(comm, sys));
  PetscCall(PetscPrintf(comm, "  orbitals/atom  %d (%d rows per atom with spin)\n", m.orbitals(), m.blockSize()));
  PetscCall(PrintOperator(comm, s, H));
  const auto &g = sys.partition.grid();
  PetscCall(PetscPrintf(comm,
                        "  process grid   %d x %d x %d (%s), owned atoms per rank min %" PetscInt_FMT
                        " max %" PetscInt_FMT ", halo atoms min %" PetscInt_FMT " max %" PetscInt_FMT "\n",
                        g[0], g[1], g[2], partitionName(sys.spec.partition.kind), mins[0], maxs[0], mins[1], maxs[1]));
  PetscCall(PetscPrintf(
      comm, "  host bulk      VBM %.4f eV, CBM %.4f eV (8-atom cell at Gamma), default -eps_target = midgap %.4f eV\n",
      vbm, cbm, 0.5 * (vbm + cbm)));
  PetscFunctionReturn(0);
}

} // namespace tbpeta
