#include "study/ComparisonReport.hpp"

#include <algorithm>
#include <functional>
#include <cmath>
#include <limits>

#include "study/LevelComparison.hpp"

namespace tbpeta {

namespace {

std::string Cell(const char *fmt, double v) { return std::isnan(v) ? "-" : FormatText(fmt, v); }

} // namespace

std::vector<ComparisonRatio> RatiosToLanczos(std::span<const ComparisonRow> rows) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<ComparisonRatio> out;
  // the base: the first converged run that splits its states at the centre (the Lanczos)
  const auto base = std::find_if(rows.begin(), rows.end(), [](const ComparisonRow &r) {
    return r.splits_at_centre && r.converged && r.products > 0;
  });
  if (base == rows.end()) return out;
  for (const ComparisonRow &r : rows) {
    if (&r == &*base || r.skipped || r.seconds <= 0) continue;
    ComparisonRatio q;
    q.solver = r.solver;
    q.products =
        r.products > 0 ? (double)r.products / (double)base->products : nan; // shift-and-invert: LU solves, no products
    q.seconds = base->seconds > 0 ? r.seconds / base->seconds : nan;
    q.solver_mb =
        base->solver_mb >= 1 ? r.solver_mb / base->solver_mb : nan; // below 1 MB the page-level measurement is noise
    q.vectors =
        base->vectors_held > 0 && r.vectors_held > 0 ? (double)r.vectors_held / (double)base->vectors_held : nan;
    q.lower_bound = !r.converged;
    out.push_back(q);
  }
  return out;
}

PetscErrorCode PrintComparison(MPI_Comm comm, std::span<const ComparisonRow> rows, double level_tol) {
  PetscFunctionBeginUser;
  size_t w = 6;
  for (const ComparisonRow &r : rows) w = std::max(w, r.solver.size());
  const int iw = (int)w;
  PetscCall(PetscPrintf(comm, "%-*s %5s %4s %11s %9s %9s %7s %7s %8s %8s %8s  %s\n", iw, "solver", "found", "conv",
                        "max|dE| eV", "max resid", "products", "iters", "vectors", "time s", "peak MB", "own MB",
                        "note"));
  for (const ComparisonRow &r : rows) {
    const std::string found = FormatText("%" PetscInt_FMT "/%" PetscInt_FMT, r.states(), r.requested);
    if (r.skipped) {
      PetscCall(PetscPrintf(comm, "%-*s %5s %4s %11s %9s %9s %7s %7s %8s %8s %8s  %s\n", iw, r.solver.c_str(), "-", "-",
                            "-", "-", "-", "-", "-", "-", "-", "-", r.note.c_str()));
      continue;
    }
    PetscCall(PetscPrintf(comm,
                          "%-*s %5s %4s %11s %9s %9" PetscInt_FMT " %7" PetscInt_FMT " %7s %8.2f %8.1f %8.1f  %s\n", iw,
                          r.solver.c_str(), found.c_str(), r.converged ? "yes" : "NO",
                          Cell("%.2e", r.max_deviation).c_str(), Cell("%.2e", r.max_residual).c_str(), r.products,
                          r.iterations, r.vectors_held > 0 ? std::to_string(r.vectors_held).c_str() : "-", r.seconds,
                          r.peak_rss_mb, r.solver_mb, r.note.c_str()));
  }
  if (std::any_of(rows.begin(), rows.end(), [](const ComparisonRow &r) { return !r.values.empty(); }))
    PetscCall(PetscPrintf(comm, "levels (eV, x multiplicity):\n"));
  for (const ComparisonRow &r : rows) {
    if (r.values.empty()) continue;
    std::string list;
    for (const ComparedLevel &l : Levels(r.values, level_tol))
      list += FormatText("%s%.6f x%zu", list.empty() ? "" : ", ", l.value, l.count);
    PetscCall(PetscPrintf(comm, "  %-*s %s\n", iw, r.solver.c_str(), list.c_str()));
  }
  const std::vector<ComparisonRatio> ratios = RatiosToLanczos(rows);
  if (ratios.empty()) {
    PetscCall(PetscPrintf(comm, "ratios: no converged Lanczos run to compare with\n"));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscPrintf(comm, "ratios to the NEMO 3-D-style Lanczos (own MB = peak during the solve - resident before "
                              "it; >= : not converged, a lower bound):\n"));
  for (const ComparisonRatio &q : ratios) {
    const char *ge = q.lower_bound ? ">=" : "  ";
    PetscCall(PetscPrintf(comm, "  %-*s products %s%8s  time %s%8s  own memory %8s  vectors %8s\n", iw,
                          q.solver.c_str(), ge, Cell("%.2fx", q.products).c_str(), ge, Cell("%.2fx", q.seconds).c_str(),
                          Cell("%.2fx", q.solver_mb).c_str(), Cell("%.2fx", q.vectors).c_str()));
  }
  PetscFunctionReturn(0);
}

TableForOutput ComparisonTable(std::span<const ComparisonRow> rows) {
  TableForOutput t;
  t.group = "compare";
  auto text = [&](const char *name, auto field) {
    std::vector<std::string> v;
    for (const ComparisonRow &r : rows) v.push_back(r.*field);
    t.columns.push_back({name, v});
  };
  auto integer = [&](const char *name, auto field) {
    std::vector<long long> v;
    for (const ComparisonRow &r : rows) v.push_back((long long)std::invoke(field, r)); // a field, or states()
    t.columns.push_back({name, v});
  };
  auto real = [&](const char *name, auto field) {
    std::vector<double> v;
    for (const ComparisonRow &r : rows) v.push_back(r.*field);
    t.columns.push_back({name, v});
  };
  auto flag = [&](const char *name, auto field) {
    std::vector<signed char> v;
    for (const ComparisonRow &r : rows) v.push_back((signed char)(r.*field));
    t.columns.push_back({name, v});
  };
  text("solver", &ComparisonRow::solver), text("run", &ComparisonRow::run);
  integer("states", &ComparisonRow::states), integer("requested", &ComparisonRow::requested);
  real("max_deviation", &ComparisonRow::max_deviation), real("max_residual", &ComparisonRow::max_residual);
  integer("products", &ComparisonRow::products), integer("iterations", &ComparisonRow::iterations);
  integer("vectors_held", &ComparisonRow::vectors_held), real("seconds", &ComparisonRow::seconds);
  real("peak_rss_mb", &ComparisonRow::peak_rss_mb), real("solver_mb", &ComparisonRow::solver_mb);
  real("center", &ComparisonRow::center), integer("levels_compared", &ComparisonRow::levels_compared);
  flag("converged", &ComparisonRow::converged), flag("reference", &ComparisonRow::reference);
  flag("skipped", &ComparisonRow::skipped), text("note", &ComparisonRow::note);
  return t;
}

} // namespace tbpeta
