// tbpeta-halo: what each decomposition of a structure has to communicate. For each number of domains P of
// -domains, the grid tbpeta would use (-partition slab|column|cube, or -da_processors_x/y/z), then every domain's
// owned atoms and halo atoms (atoms of other domains bonded to an owned atom), counted from the actual bonds of the
// lattice. Serial: any P, also far beyond the ranks at hand; P beyond the planes of an axis gives empty domains.
static const char help[] = "tbpeta-halo: owned and halo atoms of every domain of a slab, column or cube decomposition, "
                           "from the actual bonds.\n"
                           "  -cells nx,ny,nz, -periodic px,py,pz   the supercell (as tbpeta)\n"
                           "  -partition slab|column|cube           decomposition (default cube), or "
                           "-da_processors_x/y/z for an explicit grid\n"
                           "  -domains P1,P2,...                    numbers of domains (default 1,2,4,8,16,32,64)\n"
                           "  -csv FILE                             also write the table as CSV\n\n";

#include <petscsys.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "application/ApplicationMain.hpp"
#include "geometry/HaloAnalysis.hpp"
#include "geometry/PlanePartition.hpp"
#include "geometry/SupercellSpec.hpp"
#include "support/TextFile.hpp"
#include "io/OutputPath.hpp"

using namespace tbpeta;

namespace {

PetscErrorCode Run(MPI_Comm comm, int *) {
  SupercellSpec spec;
  PartitionSpec partition;
  PetscInt domains[256] = {1, 2, 4, 8, 16, 32, 64}, ndomains = 256;
  PetscBool domains_set = PETSC_FALSE, has_csv = PETSC_FALSE;
  char csv[PETSC_MAX_PATH_LEN] = "";
  PetscFunctionBeginUser;
  PetscCall(SupercellSpecFromOptions(comm, SupercellSpec{}, &spec));
  PetscCall(PartitionSpecFromOptions(comm, &partition));
  PetscOptionsBegin(comm, nullptr, "tbpeta-halo", "tbpeta");
  PetscCall(PetscOptionsIntArray("-domains", "Numbers of domains P", "tbpeta-halo", domains, &ndomains, &domains_set));
  PetscCall(PetscOptionsString("-csv", "Also write the table as CSV", "tbpeta-halo", csv, csv, sizeof csv, &has_csv));
  PetscOptionsEnd();
  if (has_csv) PetscCall(CheckOutputFile(comm, csv, "-csv", ".csv")); // before the work, not after it
  if (HelpRequested()) PetscFunctionReturn(0);
  if (!domains_set) ndomains = 7;
  PetscCheck(ndomains > 0, comm, PETSC_ERR_USER_INPUT,
             "-domains needs one or more numbers of domains, e.g. -domains 2,4,8");
  const auto &g = partition.grid;
  const bool explicit_grid = g[0] || g[1] || g[2];
  const PartitionKind kind = partition.kind;
  for (PetscInt i = 0; i < ndomains; ++i) {
    PetscCheck(domains[i] >= 1, comm, PETSC_ERR_USER_INPUT,
               "-domains: %" PetscInt_FMT " is not a number of domains (need P >= 1)", domains[i]);
    if (explicit_grid) {
      const PetscInt product = (g[0] ? g[0] : 1) * (g[1] ? g[1] : 1) * (g[2] ? g[2] : 1);
      PetscCheck(product == domains[i], comm, PETSC_ERR_USER_INPUT,
                 "-da_processors_x/y/z: the grid multiplies to %" PetscInt_FMT ", not to -domains %" PetscInt_FMT,
                 product, domains[i]);
    }
  }

  const ZincblendeLattice lattice(spec.cells, spec.periodic);
  const auto &planes = lattice.planes();
  PetscCall(PetscPrintf(
      comm,
      "tbpeta-halo: %lld atoms (%d x %d x %d cells, %d x %d x %d atomic planes, periodic %d,%d,%d), %s decomposition\n",
      lattice.totalAtoms(), spec.cells[0], spec.cells[1], spec.cells[2], planes[0], planes[1], planes[2],
      spec.periodic[0], spec.periodic[1], spec.periodic[2], explicit_grid ? "explicit" : partitionName(kind)));
  PetscCall(PetscPrintf(comm, "%8s  %-14s %12s %12s %10s %13s %7s\n", "P", "grid", "owned min", "owned max", "halo max",
                        "halo/owned", "empty"));
  std::ostringstream out;
  out << "partition,domains,px,py,pz,atoms,owned_min,owned_max,halo_max,halo_over_owned,empty_domains\n";
  for (PetscInt i = 0; i < ndomains; ++i) {
    const int P = (int)domains[i];
    const std::array<int, 3> grid = explicit_grid
                                        ? std::array<int, 3>{g[0] ? g[0] : 1, g[1] ? g[1] : 1, g[2] ? g[2] : 1}
                                        : AnalysisGrid(kind, P, planes);
    const HaloCounts h = CountHalo(lattice, PlanePartition(planes, grid));
    const double ratio = h.ownedMax() > 0 ? (double)h.haloMax() / (double)h.ownedMax() : 0;
    char gtext[64];
    std::snprintf(gtext, sizeof gtext, "%d x %d x %d", grid[0], grid[1], grid[2]);
    PetscCall(PetscPrintf(comm, "%8d  %-14s %12lld %12lld %10lld %13.4f %7d\n", P, gtext, h.ownedMin(), h.ownedMax(),
                          h.haloMax(), ratio, h.emptyDomains()));
    out << (explicit_grid ? "explicit" : partitionName(kind)) << ',' << P << ',' << grid[0] << ',' << grid[1] << ','
        << grid[2] << ',' << lattice.totalAtoms() << ',' << h.ownedMin() << ',' << h.ownedMax() << ',' << h.haloMax()
        << ',' << ratio << ',' << h.emptyDomains() << '\n';
  }
  if (has_csv) {
    PetscCall(WriteTextFile(comm, csv, out.str(), "-csv"));
    PetscCall(PetscPrintf(comm, "wrote %s\n", csv));
  }
  PetscFunctionReturn(0);
}

} // namespace

int main(int argc, char **argv) { return ApplicationMain(argc, argv, help, "tbpeta-halo", Run); }
