#pragma once
// A benchmark's CSV with its columns declared once: each column a name and how a row writes its value, so that the
// header and the values cannot part. Optionally the settings (BenchOptions) first, the same on every row.
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "BenchOptions.hpp"

namespace tbpeta::bench {

template <class Row>
struct Column {
  std::string name;
  std::function<std::string(const Row &)> value;
};

// A number as an ostream writes it (6 significant digits unless asked).
inline std::string Text(double x, int precision = 6) {
  std::ostringstream o;
  o.precision(precision);
  o << x;
  return o.str();
}

// The header and one line per row.
template <class Row>
std::string CsvText(const std::vector<Column<Row>> &columns, const std::vector<Row> &rows,
                    const BenchOptions *settings = nullptr) {
  const auto line = [&](const std::string &first, auto &&field) {
    std::string text = first;
    bool any = !first.empty();
    for (const Column<Row> &c : columns) {
      text += (any ? "," : "") + field(c);
      any = true;
    }
    return text + "\n";
  };
  std::string text = line(settings ? SettingsCsvHeader(*settings) : "", [](const Column<Row> &c) { return c.name; });
  const std::string values = settings ? SettingsCsvValues(*settings) : "";
  for (const Row &r : rows) text += line(values, [&](const Column<Row> &c) { return c.value(r); });
  return text;
}

} // namespace tbpeta::bench
