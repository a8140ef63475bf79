#pragma once
// A CSV table read by column name, so that a tool that reads another tool's CSV does not depend on the order of its
// columns: lines starting with '#' before the header are comments, the first other line is the header, a field in
// double quotes may hold commas. Pure C++ (no PETSc).
#include <string>
#include <vector>

namespace tbpeta {

// The fields of one CSV line.
std::vector<std::string> CsvFields(const std::string &line);

class CsvTable {
public:
  // Parses `text`; false with *error for a text without header or a row with another number of fields than it.
  static bool Parse(const std::string &text, CsvTable *table, std::string *error);
  // The index of a column, -1 when there is none of that name.
  int column(const std::string &name) const;
  size_t rows() const { return cells_.size(); }
  const std::string &at(size_t row, int column) const { return cells_[row][(size_t)column]; }
  const std::vector<std::string> &comments() const { return comments_; }
  const std::vector<std::string> &header() const { return header_; }

private:
  std::vector<std::string> comments_, header_;
  std::vector<std::vector<std::string>> cells_;
};

} // namespace tbpeta
