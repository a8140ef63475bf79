#pragma once
// The comparison of eigen-solvers' answers on levels with their multiplicities: states closer than level_tol form a
// level; the reference is the run with the best residuals among the complete ones, and every other run's levels are
// matched to it and compared state by state, with flags for what differs.
#include <span>
#include <string>
#include <vector>

#include "study/ComparisonRow.hpp"

#include "support/TextFormat.hpp"

namespace tbpeta {

// A level of a row: the mean of its states and where they are in the row's values.
struct ComparedLevel {
  double value;
  size_t first, count;
};
// Runs of ascending values closer than `tol`.
std::vector<ComparedLevel> Levels(const std::vector<double> &values, double tol);

// Picks the reference and sets every row's max_deviation, levels_compared and note (its run_note, then the
// comparison's notes; so rows can be compared again). multiplicity: states per level the symmetry guarantees
// (2: Kramers pairs, spin-orbit at k = 0); a level with another count is INCOMPLETE (a Krylov solver from one start
// vector sees the second state of a degenerate level only through rounding, and may stop with one state of a pair and
// a farther state instead). The reference: the converged row without incomplete levels with the smallest max
// residual (else the converged row, else any row with states, with the smallest max residual). A level of a row
// matches the nearest reference level closer than kCompareMatchTolerance and than half the distance to that level's
// neighbours. Equal multiplicities: compared state by state. Otherwise, when the level is at the window's edge of the
// run with fewer states of it, that window cut the level (noted, not compared); else flagged. The window's edge: for
// a run asked for the states nearest its center, the levels about as far from it as the farthest; for the Lanczos
// (or a row without center), its lowest and highest level. Reference levels inside the row's range that the row
// lacks, and levels of the row inside the reference's range that the reference lacks, are flagged. Flags are in
// capitals.
inline constexpr double kCompareMatchTolerance = 1e-3; // eV
void CompareWithReference(std::vector<ComparisonRow> &rows, double level_tol, int multiplicity = 1);

// Appends "; text" to a note.
void AddNote(std::string *note, const std::string &text);

} // namespace tbpeta
