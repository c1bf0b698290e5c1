#include "report/csv.h"

namespace hpcab::report {

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_line(const CsvRow& row) {
  std::string out;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i) out += ',';
    out += csv_field(row[i]);
  }
  return out + "\n";
}

Result<std::vector<CsvRow>> parse_csv(std::string_view text) {
  std::vector<CsvRow> rows;
  CsvRow row;
  std::string field;
  bool quoted = false;      // inside a quoted field
  bool was_quoted = false;  // the current field was quoted (only a separator may follow)
  bool any = false;         // the current row has content
  int line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"') {
      if (!field.empty() || was_quoted) {
        return Error{"line " + std::to_string(line) + ": a quote inside an unquoted field"};
      }
      quoted = was_quoted = any = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
      was_quoted = false;
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        row.push_back(std::move(field));
        rows.push_back(std::move(row));
      }
      row.clear();
      field.clear();
      was_quoted = any = false;
      ++line;
    } else {
      if (was_quoted) {
        return Error{"line " + std::to_string(line) + ": text after a closing quote"};
      }
      field += c;
      any = true;
    }
  }
  if (quoted) return Error{"line " + std::to_string(line) + ": a quoted field is not closed"};
  if (any || !field.empty()) {
    row.push_back(std::move(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

int CsvTable::column(std::string_view name) const {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

Result<CsvTable> parse_csv_table(std::string_view text, const std::string& label) {
  auto rows = parse_csv(text);
  if (!rows) return Error{label + ": " + rows.error().message};
  if (rows->empty()) return Error{label + ": empty file (no header)"};
  CsvTable t;
  t.header = std::move(rows->front());
  for (std::size_t i = 1; i < rows->size(); ++i) {
    if ((*rows)[i].size() != t.header.size()) {
      return Error{label + ": row " + std::to_string(i + 1) + " has " +
                   std::to_string((*rows)[i].size()) + " fields, the header " +
                   std::to_string(t.header.size())};
    }
    t.rows.push_back(std::move((*rows)[i]));
  }
  return t;
}

}  // namespace hpcab::report
