#include "study/LevelComparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace tbpeta {

void AddNote(std::string *note, const std::string &text) {
  if (!text.empty()) *note += (note->empty() ? "" : "; ") + text;
}

std::vector<ComparedLevel> Levels(const std::vector<double> &v, double tol) {
  std::vector<ComparedLevel> out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i + 1;
    double sum = v[i];
    while (j < v.size() && v[j] - v[j - 1] <= tol) sum += v[j++];
    out.push_back({sum / (double)(j - i), i, j - i});
    i = j;
  }
  return out;
}

namespace {

// Whether level k is at the edge of its run's window, where the window may have cut it: for a run asked for the
// states nearest its centre, a level about as far from the centre as the farthest (the recentring leaves the two
// ends 2e-6 of the half-width apart); for a run that splits at the centre (the Lanczos: nv below, nc above) or a row
// without centre, the lowest or the highest level.
bool AtWindowEdge(const ComparisonRow &r, const std::vector<ComparedLevel> &levels, size_t k, double level_tol) {
  if (std::isnan(r.center) || r.splits_at_centre) return k == 0 || k + 1 == levels.size();
  double far = 0;
  for (const ComparedLevel &l : levels) far = std::max(far, std::fabs(l.value - r.center));
  return std::fabs(levels[k].value - r.center) >= far - (level_tol + 1e-5 * far);
}

// "a, b, c" (at most three, then "...") of energies in eV.
std::string EnergyList(const std::vector<double> &e) {
  std::string s;
  for (size_t i = 0; i < e.size() && i < 3; ++i) s += (i ? ", " : "") + FormatText("%.6f", e[i]);
  if (e.size() > 3) s += ", ...";
  return s + " eV";
}

} // namespace

void CompareWithReference(std::vector<ComparisonRow> &rows, double level_tol, int multiplicity) {
  const size_t unit = (size_t)std::max(1, multiplicity);
  // Levels whose multiplicity the symmetry rules out (one state of a Kramers pair): the solver missed a state.
  std::vector<std::vector<double>> incomplete(rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    for (const ComparedLevel &l : Levels(rows[i].values, level_tol))
      if (l.count % unit) incomplete[i].push_back(l.value);
  int ref = -1;
  for (int pass = 0; pass < 3 && ref < 0; ++pass) // converged and complete, converged, any
    for (size_t i = 0; i < rows.size(); ++i) {
      const ComparisonRow &r = rows[i];
      if (r.skipped || r.values.empty() || (pass < 2 && !r.converged) || (pass == 0 && !incomplete[i].empty()))
        continue;
      if (ref < 0 || r.max_residual < rows[ref].max_residual) ref = (int)i;
    }
  for (ComparisonRow &r : rows)
    r.reference = false, r.levels_compared = 0, r.max_deviation = std::numeric_limits<double>::quiet_NaN(),
    r.note = r.run_note;
  if (ref < 0) return;
  const ComparisonRow &rr = rows[ref];
  const std::vector<ComparedLevel> R = Levels(rr.values, level_tol);
  std::vector<std::string> notes(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    ComparisonRow &row = rows[i];
    if (row.values.empty()) continue;
    const std::vector<ComparedLevel> L = Levels(row.values, level_tol);
    std::vector<int> of_ref(R.size(), -1), of_row(L.size(), -1);
    for (size_t b = 0; b < R.size(); ++b) {
      // Within half the distance to the neighbouring reference levels: at most one reference level per row level.
      double radius = kCompareMatchTolerance;
      if (b > 0) radius = std::min(radius, 0.5 * (R[b].value - R[b - 1].value));
      if (b + 1 < R.size()) radius = std::min(radius, 0.5 * (R[b + 1].value - R[b].value));
      int best = -1;
      for (size_t a = 0; a < L.size(); ++a)
        if (std::fabs(L[a].value - R[b].value) < radius &&
            (best < 0 || std::fabs(L[a].value - R[b].value) < std::fabs(L[best].value - R[b].value)))
          best = (int)a;
      if (best >= 0) of_ref[b] = best, of_row[best] = (int)b;
    }
    double dev = 0;
    std::vector<double> cut, differ, missing, extra;
    for (size_t b = 0; b < R.size(); ++b) {
      const int a = of_ref[b];
      if (a < 0) {
        if (R[b].value > L.front().value && R[b].value < L.back().value) missing.push_back(R[b].value);
        continue;
      }
      const size_t fewer = std::min(L[a].count, R[b].count);
      if (L[a].count == R[b].count) {
        for (size_t k = 0; k < R[b].count; ++k)
          dev = std::max(dev, std::fabs(row.values[L[a].first + k] - rr.values[R[b].first + k]));
        ++row.levels_compared;
      } else if (fewer % unit) continue; // an incomplete level, flagged as such
      else if (L[a].count < R[b].count ? AtWindowEdge(row, L, a, level_tol) : AtWindowEdge(rr, R, b, level_tol))
        cut.push_back(R[b].value); // the window of the one with fewer ends there
      else differ.push_back(R[b].value);
    }
    for (size_t a = 0; a < L.size(); ++a)
      if (of_row[a] < 0 && L[a].value > R.front().value && L[a].value < R.back().value) extra.push_back(L[a].value);
    if (row.levels_compared) row.max_deviation = dev;
    std::string &note = notes[i];
    if ((int)i == ref) AddNote(&note, "reference (smallest residual)");
    else if (row.levels_compared < (PetscInt)std::min(L.size(), R.size()))
      AddNote(&note, FormatText("compared on %" PetscInt_FMT " of %zu levels", row.levels_compared, L.size()));
    if (!incomplete[i].empty())
      AddNote(&note, FormatText("INCOMPLETE levels (multiplicity not a multiple of %zu) at ", unit) +
                         EnergyList(incomplete[i]));
    if (!cut.empty()) AddNote(&note, "edge level cut at " + EnergyList(cut));
    if (!differ.empty()) AddNote(&note, "MULTIPLICITY differs from the reference at " + EnergyList(differ));
    if (!missing.empty()) AddNote(&note, "MISSING levels of the reference at " + EnergyList(missing));
    if (!extra.empty()) AddNote(&note, "EXTRA levels, not in the reference, at " + EnergyList(extra));
  }
  for (size_t i = 0; i < rows.size(); ++i) AddNote(&rows[i].note, notes[i]);
  rows[ref].reference = true;
}

} // namespace tbpeta
