#pragma once
// What one stage of a run hands to its results file (io/ResultsFile): per-atom groups, tables and root attributes, as
// values that own their arrays. They live at the bottom so that each stage makes its own in its own layer (strain/ in
// strain, composition/ in geometry, fields/ in fields, compare/ in study, optics/ in application) and the application
// only collects them (application/RunOutput: RunResults).
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tbpeta {

// Named numbers (float64 attributes, solver counters) and named strings (string attributes).
using NamedValues = std::vector<std::pair<std::string, double>>;
using NamedTexts = std::vector<std::pair<std::string, std::string>>;

// A per-atom field: `components` numbers per owned atom of this rank, in the structure's owned-atom order (1: dataset
// (N,) of the file, else (N,c)); the writer puts every rank's rows in canonical order.
struct AtomField {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

// A group of per-atom fields (e.g. strain/) with its attributes.
struct AtomGroup {
  std::string name;
  std::vector<AtomField> fields;
  NamedValues values; // float64 attributes
  NamedTexts text;    // string attributes
};

// A table of one entry per row (rank 0's): group `group` with one dataset per column, int64, float64, int8 or
// variable-length strings; a column of numbers may hold several values per row (width).
struct TableColumn {
  std::string name;
  std::variant<std::vector<long long>, std::vector<double>, std::vector<signed char>, std::vector<std::string>> values;
  size_t width = 0; // numbers only: 0, a dataset (rows,); w > 0, (rows, w) from row-major values
};
struct TableForOutput {
  std::string group;
  std::vector<TableColumn> columns;
};

// One stage's share of the file: any of its groups, tables and root attributes.
// Every member has a default, so that a part names only what it has: ResultsPart{.tables = {table}}.
struct ResultsPart {
  std::vector<AtomGroup> groups{};
  std::vector<TableForOutput> tables{};
  NamedTexts attributes{}; // root attributes, strings
  NamedValues values{};    // root attributes, float64
};

} // namespace tbpeta
