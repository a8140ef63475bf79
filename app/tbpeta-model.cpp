// tbpeta-model: the strong- and weak-scaling model of one product y = Hx,
//   T(P) = (N/P) t_atom + m tau + N_halo B 16 bytes / b,
// for slabs (m = 2), columns (m = 8) and cubes (m = 26), N_halo the largest domain's halo counted from the
// structure's geometry (tbpeta-halo's count), under the machine settings of 2001 and of today (or given). Default
// structure: the lecture's 44 nm silicon cube (81^3 cells, 4.25 million atoms, sp3d5s* with spin: B = 20), P from 1
// to 32768, 3000 Lanczos steps.
static const char help[] =
    "tbpeta-model: modelled time and efficiency of one product against P for slab, column and cube decompositions.\n"
    "  -cells nx,ny,nz -periodic px,py,pz   the structure (default 81,81,81 open: the 44 nm Si cube of the lecture)\n"
    "  -model_settings a,b                  machine settings: 2001, today, measured (default 2001,today)\n"
    "  -model_measured_dir DIR              where 'measured' reads this machine's sweeps (default results/study):\n"
    "                                       pingpong.csv (bench_pingpong) and operators.csv (bench_operators)\n"
    "  -model_measured_operator V           the operator whose product gives t_atom (default shell)\n"
    "  -model_t_atom s -model_latency s -model_bandwidth B/s   a setting of your own (named 'given')\n"
    "  -model_rows_per_atom B               rows per atom (default 20: sp3d5s* with spin)\n"
    "  -model_steps n                       Lanczos steps for the total time (default 3000)\n"
    "  -domains P1,P2,...                   (default 1,2,4,...,32768)\n"
    "  -model_weak_atoms n                  atoms per processor for weak scaling (default 50000)\n"
    "  -model_efficiency e -model_bandwidth_at P   bandwidth needed for efficiency e at P (default 0.8 at 100)\n"
    "  -csv FILE                            also write the strong-scaling rows as CSV\n\n";

#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "application/ApplicationMain.hpp"
#include "geometry/HaloAnalysis.hpp"
#include "study/MeasuredMachine.hpp"
#include "study/ScalingModel.hpp"
#include "support/OptionLists.hpp"
#include "geometry/SupercellSpec.hpp"
#include "support/TextFile.hpp"
#include "io/OutputPath.hpp"

using namespace tbpeta;

namespace {

constexpr PartitionKind kKinds[] = {PartitionKind::slab, PartitionKind::column, PartitionKind::cube};

std::string Seconds(double s) {
  char buf[32];
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.3g s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
  return buf;
}

// Every option of the tool.
struct ModelSettings {
  SupercellSpec spec;
  std::vector<MachineSetting> settings;
  PetscInt rows_per_atom = 20, steps = 3000, weak_atoms = 50000, bandwidth_at = 100;
  PetscReal efficiency = 0.8;
  std::vector<int> domains;
  std::string csv;
};

PetscErrorCode ReadSettings(MPI_Comm comm, ModelSettings *ms) {
  char settings_text[256] = "2001,today", csv[PETSC_MAX_PATH_LEN] = "",
       measured_dir[PETSC_MAX_PATH_LEN] = "results/study", measured_operator[64] = "shell";
  PetscReal t_atom = -1, latency = -1, bandwidth = -1;
  PetscInt domains[64], ndomains = 64;
  PetscBool domains_set = PETSC_FALSE, t_set = PETSC_FALSE, l_set = PETSC_FALSE, b_set = PETSC_FALSE,
            has_csv = PETSC_FALSE;
  SupercellSpec lecture; // the lecture's 44 nm silicon cube, open
  PetscFunctionBeginUser;
  lecture.cells = {81, 81, 81}, lecture.periodic = {false, false, false};
  PetscCall(SupercellSpecFromOptions(comm, lecture, &ms->spec));
  PetscOptionsBegin(comm, nullptr, "tbpeta-model", "tbpeta");
  PetscCall(PetscOptionsString("-model_settings", "Machine settings: 2001, today, measured", "tbpeta-model",
                               settings_text, settings_text, sizeof settings_text, nullptr));
  PetscCall(PetscOptionsReal("-model_t_atom", "Compute seconds per atom per product (a setting 'given')",
                             "tbpeta-model", t_atom, &t_atom, &t_set));
  PetscCall(PetscOptionsReal("-model_latency", "Seconds per message", "tbpeta-model", latency, &latency, &l_set));
  PetscCall(PetscOptionsReal("-model_bandwidth", "Network bandwidth, bytes/s", "tbpeta-model", bandwidth, &bandwidth,
                             &b_set));
  PetscCall(PetscOptionsInt("-model_rows_per_atom", "Rows per atom B (orbitals x spins)", "tbpeta-model",
                            ms->rows_per_atom, &ms->rows_per_atom, nullptr));
  PetscCall(PetscOptionsInt("-model_steps", "Lanczos steps (one product each) for the total time", "tbpeta-model",
                            ms->steps, &ms->steps, nullptr));
  PetscCall(PetscOptionsIntArray("-domains", "Numbers of processors P (default 1,2,4,...,32768)", "tbpeta-model",
                                 domains, &ndomains, &domains_set));
  PetscCall(PetscOptionsInt("-model_weak_atoms", "Atoms per processor for weak scaling", "tbpeta-model", ms->weak_atoms,
                            &ms->weak_atoms, nullptr));
  PetscCall(PetscOptionsReal("-model_efficiency", "Efficiency for the bandwidth-needed table", "tbpeta-model",
                             ms->efficiency, &ms->efficiency, nullptr));
  PetscCall(PetscOptionsInt("-model_bandwidth_at", "P for the bandwidth-needed table", "tbpeta-model", ms->bandwidth_at,
                            &ms->bandwidth_at, nullptr));
  PetscCall(PetscOptionsString("-csv", "Also write the strong-scaling rows as CSV", "tbpeta-model", csv, csv,
                               sizeof csv, &has_csv));
  PetscCall(PetscOptionsString("-model_measured_dir", "Where the measured setting reads pingpong.csv and operators.csv",
                               "tbpeta-model", measured_dir, measured_dir, sizeof measured_dir, nullptr));
  PetscCall(PetscOptionsString(
      "-model_measured_operator", "Operator (bench_operators variant) whose product gives the measured t_atom",
      "tbpeta-model", measured_operator, measured_operator, sizeof measured_operator, nullptr));
  PetscOptionsEnd();
  if (has_csv) PetscCall(CheckOutputFile(comm, csv, "-csv", ".csv")); // before the work, not after it
  if (domains_set) ms->domains.assign(domains, domains + ndomains);
  else
    for (int p = 1; p <= 32768; p *= 2) ms->domains.push_back(p);
  ms->csv = has_csv ? csv : "";
  for (const std::string &name : SplitList(settings_text)) {
    if (name.empty()) continue;
    MachineSetting m;
    if (name == "measured") PetscCall(MeasuredMachineSetting(comm, measured_dir, measured_operator, &m));
    else
      PetscCheck(MachinePreset(name, &m), comm, PETSC_ERR_USER_INPUT,
                 "-model_settings: %s is not a setting (2001, today, measured; or give -model_t_atom, -model_latency "
                 "and -model_bandwidth)",
                 name.c_str());
    ms->settings.push_back(m);
  }
  if (t_set || l_set || b_set) {
    PetscCheck(t_set && l_set && b_set, comm, PETSC_ERR_USER_INPUT,
               "-model_t_atom, -model_latency and -model_bandwidth go together (a setting of your own)");
    PetscCheck(t_atom > 0 && latency >= 0 && bandwidth > 0, comm, PETSC_ERR_USER_INPUT,
               "-model_t_atom %g s, -model_latency %g s, -model_bandwidth %g B/s: need t_atom > 0, latency >= 0, "
               "bandwidth > 0",
               (double)t_atom, (double)latency, (double)bandwidth);
    ms->settings.push_back({"given", t_atom, latency, bandwidth});
  }
  PetscFunctionReturn(0);
}

PetscErrorCode CheckSettings(MPI_Comm comm, const ModelSettings &ms) {
  PetscFunctionBeginUser;
  PetscCheck(!ms.settings.empty(), comm, PETSC_ERR_USER_INPUT, "-model_settings: no setting to model");
  PetscCheck(ms.rows_per_atom >= 1 && ms.steps >= 1 && ms.weak_atoms >= 8, comm, PETSC_ERR_USER_INPUT,
             "-model_rows_per_atom, -model_steps must be >= 1 and -model_weak_atoms >= 8");
  PetscCheck(ms.efficiency > 0 && ms.efficiency <= 1 && ms.bandwidth_at >= 2, comm, PETSC_ERR_USER_INPUT,
             "-model_efficiency must be in (0, 1] and -model_bandwidth_at >= 2");
  PetscCheck(!ms.domains.empty(), comm, PETSC_ERR_USER_INPUT,
             "-domains needs one or more numbers of processors, e.g. -domains 2,4,8");
  for (int P : ms.domains)
    PetscCheck(P >= 1, comm, PETSC_ERR_USER_INPUT, "-domains: %d is not a number of processors (need P >= 1)", P);
  PetscFunctionReturn(0);
}

// Strong scaling: the halo of every P counted once, then every setting; the rows also go to `out` (CSV).
PetscErrorCode PrintStrongScaling(MPI_Comm comm, const ModelSettings &ms, const ZincblendeLattice &lattice,
                                  std::ostringstream &out) {
  const auto &planes = lattice.planes();
  const double N = (double)lattice.totalAtoms();
  PetscFunctionBeginUser;
  out << "setting,partition,domains,px,py,pz,atoms_max,halo_max,compute_s,latency_s,transfer_s,product_s,efficiency,"
         "total_s\n";
  for (PartitionKind kind : kKinds) {
    PetscCall(PetscPrintf(comm, "\nstrong scaling, %s (m = %d messages per product):\n", partitionName(kind),
                          MessagesPerProduct(kind)));
    PetscCall(PetscPrintf(comm, "%7s %-14s %10s %9s", "P", "grid", "atoms max", "halo max"));
    for (const MachineSetting &m : ms.settings)
      PetscCall(PetscPrintf(comm, " | %-6s %10s %6s %9s", m.name.c_str(), "product", "eff", "total"));
    PetscCall(PetscPrintf(comm, "\n"));
    for (int P : ms.domains) {
      const auto grid = AnalysisGrid(kind, P, planes);
      const HaloCounts h = CountHalo(lattice, PlanePartition(planes, grid));
      char gtext[48];
      std::snprintf(gtext, sizeof gtext, "%dx%dx%d%s", grid[0], grid[1], grid[2], h.emptyDomains() ? "*" : "");
      PetscCall(PetscPrintf(comm, "%7d %-14s %10lld %9lld", P, gtext, h.ownedMax(), h.haloMax()));
      for (const MachineSetting &m : ms.settings) {
        const ModelPoint t = ModelProduct(m, P, kind, (double)h.ownedMax(), (double)h.haloMax(), (int)ms.rows_per_atom);
        const double eff = N * m.t_atom / (P * t.time());
        PetscCall(PetscPrintf(comm, " | %-6s %10s %5.1f%% %9s", "", Seconds(t.time()).c_str(), 100 * eff,
                              Seconds(ms.steps * t.time()).c_str()));
        out << m.name << ',' << partitionName(kind) << ',' << P << ',' << grid[0] << ',' << grid[1] << ',' << grid[2]
            << ',' << h.ownedMax() << ',' << h.haloMax() << ',' << t.compute << ',' << t.latency << ',' << t.transfer
            << ',' << t.time() << ',' << eff << ',' << ms.steps * t.time() << '\n';
      }
      PetscCall(PetscPrintf(comm, "\n"));
    }
  }
  PetscCall(PetscPrintf(comm, "(* the grid has empty domains: P beyond the planes of an axis)\n"));
  PetscCall(PetscPrintf(
      comm, "1-D limit: slabs stop at one atomic plane each, P = %d here; beyond it slabs add empty domains.\n",
      planes[0]));
  PetscFunctionReturn(0);
}

// Weak scaling: a cube of weak_atoms x P atoms, the central domain's compute against its product.
PetscErrorCode PrintWeakScaling(MPI_Comm comm, const ModelSettings &ms) {
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm,
                        "\nweak scaling at %d atoms per processor (open cubes of about P x that many atoms; the "
                        "central domain's compute / product):\n",
                        (int)ms.weak_atoms));
  PetscCall(PetscPrintf(comm, "%7s %8s %12s", "P", "cells", "atoms"));
  for (PartitionKind kind : kKinds)
    for (const MachineSetting &m : ms.settings)
      PetscCall(PetscPrintf(comm, " %6s-%-6s", partitionName(kind), m.name.c_str()));
  PetscCall(PetscPrintf(comm, "   (efficiency)\n"));
  for (int P : ms.domains) {
    const int cells = std::max(1, (int)std::lround(std::cbrt((double)ms.weak_atoms * P / 8.0)));
    const ZincblendeLattice weak({cells, cells, cells}, {false, false, false});
    PetscCall(PetscPrintf(comm, "%7d %8d %12lld", P, cells, weak.totalAtoms()));
    for (PartitionKind kind : kKinds) {
      const auto grid = AnalysisGrid(kind, P, weak.planes());
      const PlanePartition part(weak.planes(), grid);
      const DomainHalo d = CountDomainHalo(weak, part, part.rankOf({grid[0] / 2, grid[1] / 2, grid[2] / 2}));
      for (const MachineSetting &m : ms.settings) {
        if (d.owned == 0) { // slabs beyond one plane each: the 1-D limit
          PetscCall(PetscPrintf(comm, " %13s", "1-D limit"));
          continue;
        }
        const ModelPoint t = ModelProduct(m, P, kind, (double)d.owned, (double)d.halo, (int)ms.rows_per_atom);
        PetscCall(PetscPrintf(comm, " %12.1f%%", 100 * t.compute / t.time()));
      }
    }
    PetscCall(PetscPrintf(comm, "\n"));
  }
  PetscFunctionReturn(0);
}

// The bandwidth a network needs for the given efficiency at P.
PetscErrorCode PrintBandwidthNeeded(MPI_Comm comm, const ModelSettings &ms, const ZincblendeLattice &lattice) {
  const auto &planes = lattice.planes();
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "\nnetwork bandwidth needed for %.0f%% efficiency at P = %d on this structure:\n",
                        100 * ms.efficiency, (int)ms.bandwidth_at));
  for (PartitionKind kind : kKinds) {
    const auto grid = AnalysisGrid(kind, (int)ms.bandwidth_at, planes);
    const HaloCounts h = CountHalo(lattice, PlanePartition(planes, grid));
    for (const MachineSetting &m : ms.settings) {
      const double b =
          BandwidthForEfficiency(m, (double)lattice.totalAtoms(), (int)ms.bandwidth_at, kind, (double)h.ownedMax(),
                                 (double)h.haloMax(), (int)ms.rows_per_atom, ms.efficiency);
      if (b < 0)
        PetscCall(PetscPrintf(comm,
                              "  %-6s %-6s: not reachable (compute imbalance and latency alone exceed the budget)\n",
                              partitionName(kind), m.name.c_str()));
      else
        PetscCall(PetscPrintf(comm, "  %-6s %-6s: %.3g MB/s (setting has %.3g MB/s)\n", partitionName(kind),
                              m.name.c_str(), b / 1e6, m.bandwidth / 1e6));
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode Run(MPI_Comm comm, int *) {
  ModelSettings ms;
  std::ostringstream out;
  PetscFunctionBeginUser;
  PetscCall(ReadSettings(comm, &ms));
  if (HelpRequested()) PetscFunctionReturn(0);
  PetscCall(CheckSettings(comm, ms));
  const ZincblendeLattice lattice(ms.spec.cells, ms.spec.periodic);
  PetscCall(PetscPrintf(
      comm, "tbpeta-model: %lld atoms (%d x %d x %d cells, periodic %d,%d,%d), B = %d rows per atom, %d steps\n",
      lattice.totalAtoms(), ms.spec.cells[0], ms.spec.cells[1], ms.spec.cells[2], ms.spec.periodic[0],
      ms.spec.periodic[1], ms.spec.periodic[2], (int)ms.rows_per_atom, (int)ms.steps));
  for (const MachineSetting &m : ms.settings)
    PetscCall(PetscPrintf(comm, "  setting %-6s t_atom %s, latency %s, bandwidth %.3g MB/s\n", m.name.c_str(),
                          Seconds(m.t_atom).c_str(), Seconds(m.latency).c_str(), m.bandwidth / 1e6));
  PetscCall(PrintStrongScaling(comm, ms, lattice, out));
  PetscCall(PrintWeakScaling(comm, ms));
  PetscCall(PrintBandwidthNeeded(comm, ms, lattice));
  if (!ms.csv.empty()) {
    PetscCall(WriteTextFile(comm, ms.csv, out.str(), "-csv"));
    PetscCall(PetscPrintf(comm, "wrote %s\n", ms.csv.c_str()));
  }
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "tbpeta-model", Run); }
