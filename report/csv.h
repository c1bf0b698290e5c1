// RFC 4180 CSV: the observations file and the tables behind every summary and figure. Fields
// are quoted when they hold a comma, a quote, CR or LF; embedded quotes are doubled; lines end
// with CRLF-free "\n" (what spreadsheet tools, pandas and R all read).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace hpcab::report {

using CsvRow = std::vector<std::string>;

std::string csv_field(std::string_view s);
std::string csv_line(const CsvRow& row);

// Parses a whole CSV text (quoted fields may span lines). Errors name the line of an
// unterminated quote or a quote in the middle of an unquoted field.
Result<std::vector<CsvRow>> parse_csv(std::string_view text);

// A parsed table with a header: rows as maps are what readers of a versioned file want.
struct CsvTable {
  CsvRow header;
  std::vector<CsvRow> rows;
  // Column index of `name`, or -1.
  int column(std::string_view name) const;
};
Result<CsvTable> parse_csv_table(std::string_view text, const std::string& label);

}  // namespace hpcab::report
