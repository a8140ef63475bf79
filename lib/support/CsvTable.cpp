#include "support/CsvTable.hpp"

#include <sstream>

namespace tbpeta {

std::vector<std::string> CsvFields(const std::string &line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else if (c != '\r') out.back() += c;
  }
  return out;
}

bool CsvTable::Parse(const std::string &text, CsvTable *table, std::string *error) {
  std::istringstream in(text);
  CsvTable t;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    if (t.header_.empty() && line[0] == '#') {
      t.comments_.push_back(line.substr(line.size() > 1 && line[1] == ' ' ? 2 : 1));
      continue;
    }
    std::vector<std::string> fields = CsvFields(line);
    if (t.header_.empty()) {
      t.header_ = fields;
      continue;
    }
    if (fields.size() != t.header_.size()) {
      *error = "line " + std::to_string(number) + " has " + std::to_string(fields.size()) + " fields, the header " +
               std::to_string(t.header_.size());
      return false;
    }
    t.cells_.push_back(std::move(fields));
  }
  if (t.header_.empty()) {
    *error = "no header line";
    return false;
  }
  *table = std::move(t);
  return true;
}

int CsvTable::column(const std::string &name) const {
  for (size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return (int)i;
  return -1;
}

} // namespace tbpeta
