#include "geometry/Structure.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "support/LogEvents.hpp"
#include "support/Progress.hpp"

namespace tbpeta {

BoxIndexer::BoxIndexer(const PlaneBox &box) : box_(box) {
  const int ex = box.extent(0), ey = box.extent(1);
  line_start_.assign((size_t)ex * ey, 0);
  int n = 0;
  for (int x = 0; x < ex; ++x)
    for (int y = 0; y < ey; ++y) {
      line_start_[(size_t)x * ey + y] = n;
      n += ZincblendeLattice::lineCount(box.lo[0] + x, box.lo[1] + y, box.lo[2], box.hi[2]);
    }
  total_ = n;
}

int BoxIndexer::localIndex(PlaneIndex p) const {
  const int ey = box_.extent(1);
  // atoms on a line are 4 planes apart; count those in [lo_z, p.z)
  return line_start_[(size_t)(p.x - box_.lo[0]) * ey + (p.y - box_.lo[1])] + ZincblendeLattice::lineCount(p.x, p.y, box_.lo[2], p.z);
}

std::array<double, 3> Structure::position(PetscInt site, double a_nm) const {
  const PlaneIndex &p = sites[site];
  const double q = a_nm / 4;
  const std::array<double, 3> u = displacementOf(site);
  return {p.x * q + u[0], p.y * q + u[1], p.z * q + u[2]};
}

std::vector<PetscInt> Structure::canonicalAtoms() const {
  std::vector<PetscInt> atoms(owned);
  for (PetscInt i = 0; i < owned; ++i) atoms[i] = (PetscInt)lattice.canonicalIndex(sites[i]);
  return atoms;
}

namespace {

// The atom sites inside this rank's box, in the box's lexicographic order.
PetscErrorCode EnumerateOwnedAtoms(Structure *s) {
  PetscFunctionBeginUser;
  s->sites.reserve(s->owned + s->owned / 4);
  for (int x = s->box.lo[0]; x < s->box.hi[0]; ++x)
    for (int y = s->box.lo[1]; y < s->box.hi[1]; ++y) {
      const int r = ZincblendeLattice::lineResidue(x, y);
      if (r < 0) continue;
      for (int z = s->box.lo[2] + ((r - s->box.lo[2]) % 4 + 4) % 4; z < s->box.hi[2]; z += 4) s->sites.push_back({x, y, z});
    }
  PetscCheck((PetscInt)s->sites.size() == s->owned, PETSC_COMM_SELF, PETSC_ERR_PLIB, "atom enumeration disagrees with the box count");
  PetscFunctionReturn(0);
}

// The bonds of the owned atoms, from the lattice; a neighbour outside the box becomes a halo atom (once).
void FindBonds(const std::vector<PetscInt> &offsets, Structure *s) {
  const BoxIndexer mine(s->box);
  std::unordered_map<long long, int> halo_site; // canonical index -> site index
  std::unordered_map<int, BoxIndexer> indexers; // neighbour ranks' boxes, built once each
  s->bonds.resize(s->owned);
  s->wraps.resize(s->owned);
  Progress progress("building the structure");
  for (PetscInt i = 0; i < s->owned; ++i) {
    (void)progress.Loop(i, s->owned, "bonds of atom"); // prints on rank 0 only; nothing to fail collectively
    const PlaneIndex p = s->sites[i];
    auto &w = s->wraps[i];
    for (int b = 0; b < 4; ++b) {
      PlaneIndex q;
      std::array<int, 3> wrap;
      for (int a = 0; a < 3; ++a) w[3 * b + a] = 0;
      if (!s->lattice.neighbour(p, b, &q, &wrap)) {
        s->bonds[i][b] = -1;
        continue;
      }
      for (int a = 0; a < 3; ++a) w[3 * b + a] = (std::int8_t)(wrap[a] > 0 ? 1 : wrap[a] < 0 ? -1 : 0);
      if (s->box.contains(q)) {
        s->bonds[i][b] = mine.localIndex(q);
        continue;
      }
      auto [it, fresh] = halo_site.emplace(s->lattice.canonicalIndex(q), (int)s->sites.size());
      s->bonds[i][b] = it->second;
      if (!fresh) continue;
      const int owner = s->partition.ownerOf(q);
      auto ind = indexers.find(owner);
      if (ind == indexers.end()) ind = indexers.emplace(owner, BoxIndexer(s->partition.box(owner))).first;
      s->sites.push_back(q);
      s->halo_global.push_back(offsets[owner] + ind->second.localIndex(q));
    }
  }
}

// The halo in ascending global order, so that the off-process columns of H come sorted.
void SortHalo(Structure *s) {
  const PetscInt nh = (PetscInt)s->halo_global.size();
  std::vector<PetscInt> order(nh), new_site(nh), hg(nh);
  std::vector<PlaneIndex> hs(nh);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](PetscInt a, PetscInt b) { return s->halo_global[a] < s->halo_global[b]; });
  for (PetscInt t = 0; t < nh; ++t) {
    new_site[order[t]] = s->owned + t;
    hs[t] = s->sites[s->owned + order[t]];
    hg[t] = s->halo_global[order[t]];
  }
  std::copy(hs.begin(), hs.end(), s->sites.begin() + s->owned);
  s->halo_global = std::move(hg);
  for (auto &bond : s->bonds)
    for (auto &j : bond)
      if (j >= s->owned) j = (int)new_site[j - s->owned];
}

// Cations take the material of their region; an owned anion is labelled with the most common material of its bonded
// cations (its on-site energies are the average over them: HamiltonianBlocks).
void AssignMaterials(const Nanostructure &nano, Structure *s) {
  s->material.assign(s->sites.size(), kNoMaterial);
  for (size_t i = 0; i < s->sites.size(); ++i)
    if (ZincblendeLattice::sublatticeOf(s->sites[i]) == Sublattice::cation) s->material[i] = nano.cationMaterial(s->sites[i]);
  for (PetscInt i = 0; i < s->owned; ++i) {
    if (s->sublattice(i) != Sublattice::anion) continue;
    int votes[256] = {0};
    std::uint8_t best = 0;
    int best_votes = 0;
    for (int b = 0; b < 4; ++b) {
      const int j = s->bonds[i][b];
      if (j < 0) continue;
      const std::uint8_t m = s->material[j];
      if (++votes[m] > best_votes || (votes[m] == best_votes && m < best)) {
        best_votes = votes[m];
        best = m;
      }
    }
    s->material[i] = best;
  }
}

} // namespace

PetscErrorCode Structure::Create(MPI_Comm comm, const ZincblendeLattice &lattice, const PlanePartition &partition, const Nanostructure &nano, Structure *out) {
  PetscMPIInt rank, size;
  const LogEvents *ev;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->structure, 0, 0, 0, 0));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(partition.size() == size, comm, PETSC_ERR_ARG_SIZ, "process grid has %d ranks, communicator %d", partition.size(), size);
  Structure s;
  s.lattice = lattice;
  s.partition = partition;
  s.rank = rank;
  s.box = partition.box(rank);
  s.owned = BoxIndexer(s.box).count();
  // Global numbering: rank offsets from every rank's count (one integer per rank).
  std::vector<PetscInt> counts(size), offsets(size + 1, 0);
  PetscCallMPI(MPI_Allgather(&s.owned, 1, MPIU_INT, counts.data(), 1, MPIU_INT, comm));
  for (int r = 0; r < size; ++r) offsets[r + 1] = offsets[r] + counts[r];
  s.global_offset = offsets[rank];
  s.total = offsets[size];
  PetscCall(EnumerateOwnedAtoms(&s));
  PetscCall(PetscLogEventEnd(ev->structure, 0, 0, 0, 0));

  PetscCall(PetscLogEventBegin(ev->neighbours, 0, 0, 0, 0));
  FindBonds(offsets, &s);
  SortHalo(&s);
  PetscCall(PetscLogEventEnd(ev->neighbours, 0, 0, 0, 0));

  PetscCall(PetscLogEventBegin(ev->structure, 0, 0, 0, 0));
  AssignMaterials(nano, &s); // no displacements stored until a relaxation sets them (24 bytes per atom less to touch)
  PetscCall(PetscLogEventEnd(ev->structure, 0, 0, 0, 0));
  *out = std::move(s);
  PetscFunctionReturn(0);
}

} // namespace tbpeta
