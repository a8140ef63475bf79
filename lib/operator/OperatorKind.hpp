#pragma once
// A kind of operator for H, as -hamiltonian names it: how to build it, whether it has entries, what it costs, and the
// options of its own. The kinds are registered in OperatorKinds.cpp, one line each (or at run time with
// RegisterOperatorKind); a new kind is one file that defines its OperatorKind, plus that line.
#include <petscmat.h>

#include <any>
#include <array>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "geometry/PlanePartition.hpp"
#include "geometry/Structure.hpp"
#include "geometry/ZincblendeLattice.hpp"
#include "model/TightBindingModel.hpp"

namespace tbpeta {

// A kind's own settings, as its from_options read them (e.g. the shell's block cache): opaque to everything but the
// kind, which reads them back with SettingsOf. Empty: the kind's defaults.
class KindSettings {
public:
  KindSettings() = default;
  template <class S>
  explicit KindSettings(S settings) : value_(std::move(settings)) {}
  template <class S>
  const S *get() const {
    return std::any_cast<S>(&value_);
  }

private:
  std::any value_;
};

// What the options choose (read by HamiltonianOptionsFromOptions, or HamiltonianOptionsOf in code).
struct HamiltonianOptions {
  std::string kind = "aij"; // an OperatorKind's name
  KindSettings settings;    // the kind's own, from its from_options
};

// The settings of type S that opts carry, or S's defaults (a kind's create, describe and estimate read theirs so).
template <class S>
S SettingsOf(const HamiltonianOptions &opts) {
  const S *s = opts.settings.get<S>();
  return s ? *s : S{};
}

// This rank's share of H, counted before anything is built (for the memory estimates).
struct OperatorCounts {
  double owned = 0, halo = 0;    // atoms
  double entries = 0, bonds = 0; // non-zero entries of the owned rows (an upper bound), bonds of owned atoms
  double dangling_atoms = 0;     // owned atoms with a passivated bond
  int dangling_kinds = 0;        // of how many kinds (sublattice and which bonds are passivated)
  int rows_per_atom = 0, orbitals = 0, materials = 0;
  bool strained = false;  // a strained H: every atom its own diagonal, every bond its own block
  bool potential = false; // a potential on the atoms (Structure::potential)
};
// From a built structure (exact). Not collective.
OperatorCounts CountOperator(const Structure &s, const TightBindingModel &model);
// From the lattice, the partition and the model alone, nothing built (the memory preflight): rank `rank`'s owned and
// halo atoms, its bonds and passivated atoms, each bond with the most entries a bond of the model stores; the same as
// CountOperator of the structure when every material stores as many. Not collective.
OperatorCounts CountOperator(const ZincblendeLattice &lattice, const PlanePartition &partition, int rank,
                             const TightBindingModel &model, bool potential);

struct OperatorKind {
  const char *name; // -hamiltonian NAME
  bool has_entries; // a PETSc matrix whose entries can be factored or densified
  // A short description for the run's summary, e.g. "stored (aij)".
  std::string (*describe)(const HamiltonianOptions &opts);
  // Builds H at Bloch vector k (2 pi / a); *bytes: the operator's own memory on this rank (0: PETSc's MatGetInfo
  // counts it). Collective.
  PetscErrorCode (*create)(MPI_Comm comm, const Structure &s, const TightBindingModel &model, std::array<double, 3> k,
                           const HamiltonianOptions &opts, Mat *H, double *bytes);
  // The bytes H of this kind will take on this rank: its own arrays, its halo buffers and what it copies of the
  // structure.
  double (*estimate_bytes)(const OperatorCounts &c, const HamiltonianOptions &opts);
  // The kind's own options (nullptr: none), read in a PetscOptionsBegin/End section of its own so that -help lists
  // them with their defaults, checked after it in one line each (PETSC_ERR_USER_INPUT) and stored in *settings;
  // *given: the first of them the user set ("" none). HamiltonianOptionsFromOptions calls every kind's, so that -help
  // lists them all and an option of a kind that is not chosen is refused. Collective.
  PetscErrorCode (*from_options)(MPI_Comm comm, KindSettings *settings, std::string *given) = nullptr;
  // The bytes of its own that one product y = Hx streams on this rank, beside x, y and the halo (what it reads per atom
  // and per bond; tables that stay in cache are not counted). nullptr: all of its bytes, as a stored matrix streams
  // its entries (the benchmarks' roofline). Not collective.
  double (*streamed_bytes)(const OperatorCounts &c, const HamiltonianOptions &opts) = nullptr;
};

// Every kind, in the order -help lists them.
const std::deque<OperatorKind> &OperatorKinds();
// The kind called `name`, or nullptr.
const OperatorKind *FindOperatorKind(const std::string &name);
// Adds a kind at run time (after the built-in ones; a kind of the same name is replaced), before the options are
// read. Not collective (every rank registers the same kinds).
PetscErrorCode RegisterOperatorKind(const OperatorKind &kind);

} // namespace tbpeta
