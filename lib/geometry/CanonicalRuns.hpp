#pragma once
// The canonical (rank-independent, lexicographic) numbering of a rank's owned atoms, stored as runs that are
// consecutive in both the local and the canonical order: whole atom lines, merged where one continues the previous
// (a slab that spans y and z is one run). A few integers per line instead of one per atom.
#include <petscsys.h>

#include <algorithm>
#include <vector>

namespace tbpeta {

struct CanonicalRuns {
  std::vector<PetscInt> start; // first local atom of each run, and the owned count after the last
  std::vector<PetscInt> first; // canonical index of each run's first atom

  bool empty() const { return first.empty(); }
  // Appends local atoms [atom, atom + n) numbered canonically from `canonical` on (atom: the owned atoms so far).
  void append(PetscInt atom, PetscInt n, PetscInt canonical) {
    if (start.empty()) start.push_back(0);
    if (first.empty() || first.back() + (atom - start[start.size() - 2]) != canonical) first.push_back(canonical);
    else start.pop_back(); // continues the last run
    start.push_back(atom + n);
  }
  // The canonical index of local atom `atom` (inside the runs).
  PetscInt canonical(PetscInt atom) const {
    const size_t r = (size_t)(std::upper_bound(start.begin(), start.end(), atom) - start.begin()) - 1;
    return first[r] + (atom - start[r]);
  }
  // f(local atom, canonical index) for every atom of the runs, in local order.
  template <class F>
  void forEach(F &&f) const {
    for (size_t r = 0; r < first.size(); ++r)
      for (PetscInt a = start[r]; a < start[r + 1]; ++a) f(a, first[r] + (a - start[r]));
  }
  bool operator==(const CanonicalRuns &) const = default;
};

} // namespace tbpeta
