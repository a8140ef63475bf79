#include "geometry/Structure.hpp"

#include <algorithm>

#include "support/LogEvents.hpp"
#include "support/Progress.hpp"

namespace tbpeta {

BoxIndexer::BoxIndexer(const PlaneBox &box) : box_(box) {
  const int ex = box.extent(0), ey = box.extent(1);
  int per_residue[4]; // a line's atoms depend on its z residue alone: four counts serve every line of the box
  for (int r = 0; r < 4; ++r) per_residue[r] = ZincblendeLattice::residueCount(r, box.lo[2], box.hi[2]);
  line_start_.resize((size_t)ex * ey);
  int n = 0;
  for (int x = 0; x < ex; ++x)
    for (int y = 0; y < ey; ++y) {
      line_start_[(size_t)x * ey + y] = n;
      const int r = ZincblendeLattice::lineResidue(box.lo[0] + x, box.lo[1] + y);
      n += r < 0 ? 0 : per_residue[r];
    }
  total_ = n;
}

int BoxIndexer::localIndex(PlaneIndex p) const {
  // atoms on a line are 4 planes apart and p is one of them: those in [lo_z, p.z) are p.z - 4, p.z - 8, ... >= lo_z
  return lineStart(p.x, p.y) + (p.z - box_.lo[2]) / 4;
}

std::array<double, 3> Structure::position(PetscInt site, double a_nm) const {
  const PlaneIndex &p = sites[site];
  const double q = a_nm / 4;
  const std::array<double, 3> u = displacementOf(site);
  return {p.x * q + u[0], p.y * q + u[1], p.z * q + u[2]};
}

namespace {

template <class V>
double CapacityBytes(const V &v) {
  return (double)v.capacity() * sizeof(typename V::value_type);
}

} // namespace

double Structure::bytes() const {
  return CapacityBytes(sites) + CapacityBytes(material) + CapacityBytes(displacement) + CapacityBytes(potential) +
         CapacityBytes(*bonds.share()) + CapacityBytes(wraps) + CapacityBytes(halo_global) + CapacityBytes(offsets);
}

double Structure::EstimateBytes(long long owned, long long halo, bool displacements, bool potential) {
  const double site = sizeof(PlaneIndex) + sizeof(std::uint8_t) + (displacements ? 3 * sizeof(double) : 0);
  const double owned_bytes =
      site + sizeof(std::array<int, 4>) + sizeof(std::uint32_t) + (potential ? sizeof(double) : 0);
  return (double)owned * owned_bytes + (double)halo * (site + sizeof(PetscInt));
}

CanonicalRuns Structure::canonicalRuns() const {
  CanonicalRuns runs;
  for (PetscInt i = 0, n; i < owned; i += n) { // line by line: the atoms of a line are consecutive in both orders
    n = lineLength(i);
    runs.append(i, n, (PetscInt)lattice.canonicalIndex(sites[i]));
  }
  return runs;
}

std::vector<PetscInt> Structure::canonicalAtoms() const {
  std::vector<PetscInt> atoms(owned);
  canonicalRuns().forEach([&](PetscInt a, PetscInt c) { atoms[a] = c; });
  return atoms;
}

namespace {

// At least as many as the bonds from this rank's atoms to other ranks' atoms: 4 per atom on a face of the box that
// meets another rank (no face does on an axis the box spans whole). Sizes the halo's arrays once, so that no growth
// touches more fresh memory than they need.
PetscInt HaloBondBound(const Structure &s) {
  PlaneBox inner = s.box;
  for (int a = 0; a < 3; ++a) {
    const int planes = s.lattice.planes()[a];
    if (s.box.lo[a] == 0 && s.box.hi[a] == planes) continue;
    const bool periodic = s.lattice.periodic()[a];
    if (s.box.lo[a] > 0 || periodic) ++inner.lo[a];
    if (s.box.hi[a] < planes || periodic) --inner.hi[a];
  }
  return 4 * (s.owned - (PetscInt)inner.countAtoms());
}

// The atom sites inside this rank's box, in the box's lexicographic order (room left for up to `halo` halo sites).
PetscErrorCode EnumerateOwnedAtoms(PetscInt halo, Structure *s) {
  PetscFunctionBeginUser;
  s->sites.reserve(s->owned + halo);
  for (int x = s->box.lo[0]; x < s->box.hi[0]; ++x)
    for (int y = s->box.lo[1]; y < s->box.hi[1]; ++y) {
      const int r = ZincblendeLattice::lineResidue(x, y);
      if (r < 0) continue;
      for (int z = s->box.lo[2] + ((r - s->box.lo[2]) % 4 + 4) % 4; z < s->box.hi[2]; z += 4)
        s->sites.push_back({x, y, z});
    }
  PetscCheck((PetscInt)s->sites.size() == s->owned, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "atom enumeration disagrees with the box count");
  PetscFunctionReturn(0);
}

// The bonds of the owned atoms from the lattice, one atom's (Bond) or a whole line's at once (Line): the neighbour's
// site index (-1: dangling) and the wrap signs per axis. A neighbour outside the box is a halo atom: its bonds are
// collected with its global index and numbered at the end (Finish), in ascending global order.
class BondFinder {
public:
  // halo_bonds: at least the bonds into the halo (HaloBondBound), for the halo's arrays.
  BondFinder(const BoxIndexer &mine, PetscInt halo_bonds, Structure *s)
      : s_(s), mine_(mine), global_(s->partition, s->offsets) {
    halo_.reserve(halo_bonds), s->halo_global.reserve(halo_bonds);
  }

  // Bond b of owned atom i, into s->bonds[i][b] and its wraps.
  void Bond(PetscInt i, int b) {
    const PlaneIndex p = s_->sites[i];
    std::uint32_t &w = s_->wraps[i];
    PlaneIndex q;
    std::array<int, 3> wrap;
    const bool bonded = s_->lattice.neighbour(p, b, &q, &wrap);
    w = (w & ~Structure::BondWrapMask(b)) |
        (bonded ? Structure::BondWraps(b, WrapSign(wrap[0]), WrapSign(wrap[1]), WrapSign(wrap[2]))
                : Structure::BondWraps(b, 0, 0, 0));
    if (!bonded) {
      s_->bonds[i][b] = -1;
      return;
    }
    if (s_->box.contains(q)) s_->bonds[i][b] = mine_.localIndex(q);
    else halo_.push_back({global_(q), (int)i, b, q});
  }

  // Bond b of the atoms of the line through p, its first atom in the box: the neighbour's local index is *first for
  // that atom and grows by *step per atom along the line (-1 and step 0 for an open x or y face), with the wraps in x
  // and y. This holds for every atom of the line but the one at the end the bond points to in z, which Bond must
  // answer. Returns whether the neighbouring line lies outside the box (halo atoms, each for Bond).
  bool Line(PlaneIndex p, int b, int *first, int *step, std::uint32_t *w) const {
    const std::array<int, 3> d = ZincblendeLattice::bondVector(p, b);
    int c[2] = {p.x + d[0], p.y + d[1]};
    int sign[2] = {0, 0};
    *first = -1, *step = 0, *w = Structure::BondWraps(b, 0, 0, 0);
    for (int a = 0; a < 2; ++a) {
      int wrap;
      if (!s_->lattice.intoCell(a, &c[a], &wrap)) return false;
      sign[a] = WrapSign(wrap);
    }
    *w = Structure::BondWraps(b, sign[0], sign[1], 0);
    const PlaneBox &box = s_->box;
    if (c[0] < box.lo[0] || c[0] >= box.hi[0] || c[1] < box.lo[1] || c[1] >= box.hi[1]) return true;
    *first = mine_.lineStart(c[0], c[1]) + (p.z + d[2] - box.lo[2] + 4) / 4 - 1,
    *step = 1; // floor((z' - lo_z) / 4), z' >= lo_z - 1
    return false;
  }

  // The halo atoms after the owned ones, in ascending global order (the off-process columns of H come sorted), each
  // once, and the bonds to them.
  void Finish() {
    std::sort(halo_.begin(), halo_.end(), [](const HaloBond &x, const HaloBond &y) { return x.global < y.global; });
    for (size_t t = 0; t < halo_.size(); ++t) {
      const HaloBond &h = halo_[t];
      if (t == 0 || h.global != halo_[t - 1].global) s_->sites.push_back(h.site), s_->halo_global.push_back(h.global);
      s_->bonds[h.atom][h.bond] = (int)s_->sites.size() - 1;
    }
  }

private:
  static int WrapSign(int wrap) { return (wrap > 0) - (wrap < 0); }
  struct HaloBond {
    PetscInt global;
    int atom, bond;
    PlaneIndex site;
  };
  Structure *s_;
  const BoxIndexer &mine_;
  SiteNumbering global_; // the halo atoms' global indices
  std::vector<HaloBond> halo_;
};

// The bonds of the owned atoms, line by line (the owned atoms' order). Along a line of the box (atoms 4 planes apart)
// bond b of each atom reaches the next atom of one neighbouring line, with the same wrap, except at the end the bond
// points to (z - 1 or z + 1): only there can it leave the box in z, wrap in z or meet a z face. So per line and bond
// the neighbouring line is found once and the lattice asked for that end atom alone. A neighbouring line outside the
// box holds halo atoms, each asked for.
void FindBonds(const BoxIndexer &mine, PetscInt halo_bonds, Structure *s) {
  BondFinder finder(mine, halo_bonds, s);
  s->bonds.reserve(s->owned);
  s->wraps.reserve(s->owned);
  Progress progress("building the structure");
  for (PetscInt i = 0, n; i < s->owned; i += n) {
    const PlaneIndex p = s->sites[i];
    n = s->lineLength(i);
    if (i % 4096 < n) (void)progress.Loop(i - i % 4096, s->owned, "bonds of atom"); // rank 0 prints; nothing to fail
    std::array<int, 4> first, step;
    std::uint32_t w = 0, wb;
    bool halo[4];
    for (int b = 0; b < 4; ++b) halo[b] = finder.Line(p, b, &first[b], &step[b], &wb), w |= wb;
    for (PetscInt k = 0; k < n; ++k) {
      std::array<int, 4> j;
      for (int b = 0; b < 4; ++b) j[b] = first[b] + step[b] * (int)k;
      s->bonds.push_back(j), s->wraps.push_back(w);
    }
    for (int b = 0; b < 4; ++b) {
      if (halo[b]) // every atom's neighbour is a halo atom
        for (PetscInt k = 0; k < n; ++k) finder.Bond(i + k, b);
      else finder.Bond(i + (ZincblendeLattice::bondVector(p, b)[2] < 0 ? 0 : n - 1), b); // the end the bond points to
    }
  }
  finder.Finish();
}

// Cations take the material of their region; an owned anion is labelled with the most common material of its bonded
// cations (its on-site energies are the average over them: HamiltonianBlocks).
void AssignMaterials(const Nanostructure &nano, Structure *s) {
  if (nano.hostOnly()) { // every atom of the host
    s->material.assign(s->sites.size(), 0);
    for (size_t i = s->owned; i < s->sites.size(); ++i)
      if (ZincblendeLattice::sublatticeOf(s->sites[i]) == Sublattice::anion) s->material[i] = kNoMaterial;
    return;
  }
  s->material.assign(s->sites.size(), kNoMaterial);
  for (size_t i = 0; i < s->sites.size(); ++i)
    if (ZincblendeLattice::sublatticeOf(s->sites[i]) == Sublattice::cation)
      s->material[i] = nano.cationMaterial(s->sites[i]);
  for (PetscInt i = 0; i < s->owned; ++i) {
    if (s->sublattice(i) != Sublattice::anion) continue;
    std::uint8_t m[4];
    int nm = 0;
    for (int b = 0; b < 4; ++b)
      if (s->bonds[i][b] >= 0) m[nm++] = s->material[s->bonds[i][b]];
    std::uint8_t best = 0;
    int best_votes = 0;
    for (int a = 0; a < nm; ++a) { // the most votes; a tie goes to the lower material
      const int votes = (int)std::count(m, m + nm, m[a]);
      if (votes > best_votes || (votes == best_votes && m[a] < best)) best_votes = votes, best = m[a];
    }
    s->material[i] = best;
  }
}

} // namespace

PetscErrorCode Structure::Create(MPI_Comm comm, const ZincblendeLattice &lattice, const PlanePartition &partition,
                                 const Nanostructure &nano, Structure *out) {
  PetscMPIInt rank, size;
  const LogEvents *ev;
  PetscFunctionBeginUser;
  PetscCall(GetLogEvents(&ev));
  PetscCall(PetscLogEventBegin(ev->structure, 0, 0, 0, 0));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(partition.size() == size, comm, PETSC_ERR_ARG_SIZ, "process grid has %d ranks, communicator %d",
             partition.size(), size);
  Structure s;
  s.lattice = lattice;
  s.partition = partition;
  s.rank = rank;
  s.box = partition.box(rank);
  const BoxIndexer mine(s.box);
  s.owned = mine.count();
  // Global numbering: the rank offsets from every rank's box, counted by the lattice's closed form (nothing gathered).
  s.offsets.assign(size + 1, 0);
  for (int r = 0; r < size; ++r) s.offsets[r + 1] = s.offsets[r] + (PetscInt)partition.box(r).countAtoms();
  PetscCheck(s.offsets[rank + 1] - s.offsets[rank] == s.owned, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "the box's atom count disagrees with its indexer");
  const PetscInt halo_bonds = HaloBondBound(s);
  PetscCall(EnumerateOwnedAtoms(halo_bonds, &s));
  PetscCall(PetscLogEventEnd(ev->structure, 0, 0, 0, 0));

  PetscCall(PetscLogEventBegin(ev->neighbours, 0, 0, 0, 0));
  FindBonds(mine, halo_bonds, &s);
  PetscCall(PetscLogEventEnd(ev->neighbours, 0, 0, 0, 0));

  PetscCall(PetscLogEventBegin(ev->structure, 0, 0, 0, 0));
  AssignMaterials(nano, &s); // no displacements stored until a relaxation sets them (24 bytes per atom less to touch)
  PetscCall(PetscLogEventEnd(ev->structure, 0, 0, 0, 0));
  *out = std::move(s);
  PetscFunctionReturn(0);
}

} // namespace tbpeta
