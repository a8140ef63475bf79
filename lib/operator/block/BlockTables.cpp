#include "operator/block/BlockTables.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <vector>

#include "operator/block/BlockKernels.hpp"
#include "support/Progress.hpp"

namespace tbpeta::block {

namespace {

// Fills the operator's per-atom tables (neighbours, block and phase indices, on-site configurations, interior and
// boundary atoms) and the blocks of the chosen source, and sums H's infinity and Frobenius norms on the way (every
// bond of one key contributes the same row sums). An unstrained H with shared or recomputed blocks has few distinct
// atoms: their terms are computed once per configuration (AtomConfiguration) and copied, which makes the tables'
// build several times faster than evaluating every atom's on-site terms, blocks and norms.
class TableBuilder {
public:
  TableBuilder(const Structure &s, const HamiltonianBlocks &blocks, BlockOperator *op)
      : s_(s), blocks_(blocks), op_(op), key_slot_(blocks.bondKeys(), -1), B_((size_t)op->norb * op->norb),
        rowsum_(op->bs), onsite_blk_((size_t)op->bs * op->bs) {}

  void Atoms() {
    if (op_->source == BlockSource::per_bond) { // exactly one block per bond: no growth beyond it
      size_t bonds = 0;
      for (PetscInt i = 0; i < s_.owned; ++i)
        for (int b = 0; b < 4; ++b) bonds += s_.bonds[i][b] >= 0;
      op_->blocks.reserve(bonds * B_.size());
    }
    const bool shared_terms = !op_->perAtomOnsite() && op_->source != BlockSource::per_bond;
    if (op_->source == BlockSource::per_bond) op_->terms.reserve(s_.owned); // every atom its own blocks
    else op_->terms_of.reserve(s_.owned);
    Progress progress("building H (" + std::string(BlockSourceName(op_->source)) + " blocks)");
    PetscInt lead = 0;
    for (PetscInt line = 0, n; line < s_.owned; line += n) { // line by line: one sublattice per line of atoms
      n = s_.lineLength(line);
      const bool anion = s_.sublattice(line) == Sublattice::anion;
      if (line % 4096 < n) (void)progress.Loop(line - line % 4096, s_.owned, "blocks of atom"); // prints on rank 0 only
      for (PetscInt i = line; i < line + n; ++i) {
        lead = std::max(lead, Bonds(i));
        // By reference: a copy on the stack was read back in wider loads than it was stored in, a store-forwarding
        // stall on every atom.
        if (shared_terms) Append(Configured(i, anion));
        else Append(Terms(i));
      }
    }
    op_->blocks.shrink_to_fit(), op_->onsites.shrink_to_fit(), op_->terms.shrink_to_fit(),
        op_->boundary.shrink_to_fit();
    op_->lead = (size_t)lead, op_->interior_atoms = (size_t)s_.owned - op_->boundary.size();
  }
  double norm_inf = 0, fro2 = 0; // this rank's

private:
  // What an atom contributes to the tables and the norms; entry: its terms' index in op->terms once stored.
  struct Contribution {
    AtomTerms terms;
    double row_max = 0, fro2 = 0;
    std::int32_t entry = -1;
  };
  // What decides an unstrained atom's terms: its sublattice and material, per bond the bonded cation's material (an
  // anion's on-site energies average them; the block's key) or a dangling bond, and the bond's wrap (its Bloch phase;
  // left out at k = 0, where every phase is 1).
  struct AtomConfiguration {
    std::uint64_t materials, wraps;
    bool operator==(const AtomConfiguration &o) const { return materials == o.materials && wraps == o.wraps; }
  };
  struct ConfigurationHash {
    size_t operator()(const AtomConfiguration &c) const {
      return (size_t)((c.materials * 0x9E3779B97F4A7C15ULL) ^ (c.wraps * 0xC2B2AE3D27D4EB4FULL));
    }
  };

  void Append(const Contribution &c) {
    if (op_->source == BlockSource::per_bond) op_->terms.push_back(c.terms);
    else op_->terms_of.push_back(c.entry >= 0 ? c.entry : Entry(c.terms));
    norm_inf = std::max(norm_inf, c.row_max), fro2 += c.fro2;
  }

  // The index of `t` in op->terms (added when new).
  std::int32_t Entry(const AtomTerms &t) {
    if (!op_->terms.empty() && op_->terms[last_entry_] == t) return last_entry_;
    auto [it, added] = entries_.try_emplace(t, (std::int32_t)op_->terms.size());
    if (added) op_->terms.push_back(t);
    return last_entry_ = it->second;
  }

  bool HasHaloBond(PetscInt i) const {
    for (int j : s_.bonds[i])
      if (j >= s_.owned) return true;
    return false;
  }

  // Whether atom i is an interior or a boundary atom; returns how far ahead of it its owned neighbours lie (a local,
  // not op->lead: a running maximum kept in memory was a chain of stores and loads through every bond).
  PetscInt Bonds(PetscInt i) {
    const std::array<int, 4> &nb = s_.bonds[i];
    PetscInt ahead = 0;
    for (int j : nb)
      if (j < s_.owned) ahead = std::max<PetscInt>(ahead, j - i);
    if (HasHaloBond(i)) op_->boundary.push_back(i);
    else if (!op_->interior.empty() && op_->interior.back()[1] == i) ++op_->interior.back()[1];
    else op_->interior.push_back({i, i + 1});
    return ahead;
  }

  AtomConfiguration ConfigurationOf(PetscInt i, bool anion) const {
    std::uint64_t m = (std::uint64_t)anion | (std::uint64_t)s_.material[i] << 1, w = 0;
    for (int b = 0; b < 4; ++b) {
      const int j = s_.bonds[i][b];
      const std::uint64_t mb =
          j < 0 ? 0xff : (anion ? s_.material[j] : 0); // a cation's neighbours' materials play no part
      m |= mb << (9 + 8 * b);
    }
    if (!blocks_.noBlochPhases()) w = s_.wraps[i]; // two bits per bond and axis
    return {m, w};
  }

  // The terms of atom i from its configuration's first atom. Atoms along a line mostly share the previous atom's
  // configuration, which is checked before the table.
  const Contribution &Configured(PetscInt i, bool anion) {
    const AtomConfiguration c = ConfigurationOf(i, anion);
    if (last_ && c == last_->first) return last_->second;
    auto it = configurations_.find(c);
    if (it == configurations_.end()) {
      Contribution t = Terms(i);
      t.entry = Entry(t.terms);
      it = configurations_.emplace(c, t).first;
    }
    last_ = &*it; // elements of an unordered_map stay where they are when it grows
    return it->second;
  }

  // The terms of atom i, evaluated.
  Contribution Terms(PetscInt i) {
    Contribution t;
    atom_fro2_ = 0;
    t.terms.onsite = OnsiteIndex(i);
    if (op_->perAtomOnsite()) OnsiteNorms(i); // every atom its own diagonal (or potential)
    else {
      for (int r = 0; r < op_->bs; ++r) rowsum_[r] = onsite_rowsum_[(size_t)t.terms.onsite * op_->bs + r];
      atom_fro2_ += onsite_fro_[t.terms.onsite];
    }
    for (int b = 0; b < 4; ++b)
      if (s_.bonds[i][b] >= 0) Bond(i, b, &t.terms.block[b], &t.terms.phase[b]);
    for (int r = 0; r < op_->bs; ++r) t.row_max = std::max(t.row_max, rowsum_[r]);
    t.fro2 = atom_fro2_;
    return t;
  }

  // The index of atom i's on-site configuration in op->onsites (a new one is added, with its norms).
  int OnsiteIndex(PetscInt i) {
    HamiltonianBlocks::OnSiteTerms t = blocks_.onsiteTerms(i, op_->potential.empty());
    if (op_->own_diagonal) { // the atom's own diagonal; the configurations share the rest
      op_->diag.insert(op_->diag.end(), t.diag.begin(), t.diag.begin() + op_->norb);
      t.diag.fill(0);
    }
    const bool so = op_->spins == 2;
    for (size_t n = 0; n < op_->onsites.size(); ++n) {
      const OnSite &o = op_->onsites[n];
      if (o.diag == t.diag && o.passivated == t.passivated && o.passivation == t.passivation && o.spin_orbit == so &&
          (!so || o.so == spinOrbitP(t.lambda)))
        return (int)n;
    }
    OnSite o;
    o.diag = t.diag, o.passivated = t.passivated, o.passivation = t.passivation, o.spin_orbit = so;
    if (so) o.so = spinOrbitP(t.lambda);
    if (so) ListSpinOrbitEntries(op_->norb, &o, &op_->so_entries);
    op_->onsites.push_back(o);
    if (!op_->perAtomOnsite()) { // the norms of the configuration, shared by its atoms
      OnsiteNorms(i);
      onsite_rowsum_.insert(onsite_rowsum_.end(), rowsum_.begin(), rowsum_.end());
      onsite_fro_.push_back(onsite_f_);
    }
    return (int)op_->onsites.size() - 1;
  }

  // Row sums of |on-site block| of atom i into rowsum_, its sum of squares onto fro2 (and into onsite_f_).
  void OnsiteNorms(PetscInt i) {
    const int bs = op_->bs;
    blocks_.onsite(i, onsite_blk_.data());
    double f = 0;
    for (int r = 0; r < bs; ++r) {
      double sum = 0;
      for (int c = 0; c < bs; ++c)
        sum += std::abs(onsite_blk_[(size_t)r * bs + c]), f += std::norm(onsite_blk_[(size_t)r * bs + c]);
      rowsum_[r] = sum;
    }
    onsite_f_ = f;
    if (op_->perAtomOnsite()) atom_fro2_ += f;
  }

  // Bond b of owned atom i: its block slot, its norms and its Bloch phase.
  void Bond(PetscInt i, int b, std::int32_t *block, std::uint8_t *phase_index) {
    const int key = blocks_.bondKey(i, b), nb = (int)B_.size();
    int slot;
    if (blocks_.strained()) blocks_.bondBlockOf(i, b, B_.data()); // for the norms
    if (op_->source == BlockSource::recomputed || (blocks_.strained() && op_->source == BlockSource::shared))
      slot = key; // computed in the product
    else if (op_->source == BlockSource::shared && key_slot_[key] >= 0) slot = key_slot_[key];
    else { // a new block: every bond's own (per_bond), or the first of its key
      if (!blocks_.strained()) blocks_.bondBlockOf(i, b, B_.data());
      slot = (int)(op_->blocks.size() / nb);
      op_->blocks.insert(op_->blocks.end(), B_.begin(), B_.end());
      StoreByColumns(op_->norb, op_->blocks.data() + (size_t)slot * nb);
      if (op_->source == BlockSource::shared) key_slot_[key] = slot;
    }
    *block = slot;
    if (blocks_.strained()) AddNorms(BlockNorms(B_.data()));
    else AddNorms(KeyNorms(key));
    const Complex phase = blocks_.bondPhase(i, b);
    if (phase == Complex(1)) return;
    auto it = std::find(op_->phases.begin(), op_->phases.end(), phase);
    if (it == op_->phases.end()) {
      op_->phases.push_back(phase); // at most 255: checked by the caller through the count
      it = op_->phases.end() - 1;
    }
    *phase_index = (std::uint8_t)std::min<std::ptrdiff_t>(it - op_->phases.begin(), 255);
  }

  void AddNorms(const std::pair<std::vector<double>, double> &norms) {
    const auto &[rows, f] = norms;
    for (int sp = 0; sp < op_->spins; ++sp)
      for (int r = 0; r < op_->norb; ++r) rowsum_[sp * op_->norb + r] += rows[r];
    atom_fro2_ += f * op_->spins;
  }

  // Row sums of |B| and sum |B|^2 of one block.
  std::pair<std::vector<double>, double> BlockNorms(const double *B) const {
    const int norb = op_->norb;
    std::pair<std::vector<double>, double> n{std::vector<double>(norb, 0.0), 0.0};
    for (int r = 0; r < norb; ++r)
      for (int c = 0; c < norb; ++c)
        n.first[r] += std::fabs(B[r * norb + c]), n.second += B[r * norb + c] * B[r * norb + c];
    return n;
  }

  // Row sums of |B| and sum |B|^2 of the block of a key.
  const std::pair<std::vector<double>, double> &KeyNorms(int key) {
    auto it = key_norms_.find(key);
    if (it != key_norms_.end()) return it->second;
    blocks_.bondBlock(key, B_.data());
    return key_norms_[key] = BlockNorms(B_.data());
  }

  const Structure &s_;
  const HamiltonianBlocks &blocks_;
  BlockOperator *op_;
  std::vector<int> key_slot_;
  std::vector<double> B_, rowsum_, onsite_rowsum_, onsite_fro_;
  double onsite_f_ = 0, atom_fro2_ = 0;
  std::vector<Complex> onsite_blk_;
  std::map<int, std::pair<std::vector<double>, double>> key_norms_;
  std::unordered_map<AtomConfiguration, Contribution, ConfigurationHash> configurations_;
  const std::pair<const AtomConfiguration, Contribution> *last_ = nullptr; // the previous atom's configuration
  std::unordered_map<AtomTerms, std::int32_t, AtomTermsHash> entries_;     // op->terms, by value
  std::int32_t last_entry_ = 0;
};

} // namespace

void BuildBlockTables(const Structure &s, const HamiltonianBlocks &blocks, BlockOperator *op, double *norm_inf,
                      double *fro2) {
  TableBuilder tables(s, blocks, op);
  tables.Atoms();
  *norm_inf = tables.norm_inf, *fro2 = tables.fro2;
}

} // namespace tbpeta::block
