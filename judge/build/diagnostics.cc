#include "judge/build/diagnostics.h"

#include <optional>
#include <regex>
#include <sstream>

namespace hpcab::judge {

namespace {

std::vector<std::string> lines_of(const std::string& log) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

int number(const std::string& s) { return s.empty() ? 0 : std::stoi(s); }

// GCC, Clang, hipcc: "file:line[:col]: [fatal ]error|warning|note: message".
std::optional<Diagnostic> gcc_style(const std::string& line) {
  static const std::regex re(
      R"(^([^:\s][^:]*):(\d+):(?:(\d+):)? (?:fatal )?(error|warning|note): (.*)$)");
  std::smatch m;
  if (!std::regex_match(line, m, re)) return std::nullopt;
  return Diagnostic{m[1], number(m[2]), number(m[3]), m[4], m[5]};
}

// nvcc: "file(line): error|warning: message".
std::optional<Diagnostic> nvcc_style(const std::string& line) {
  static const std::regex re(R"(^([^(\s][^(]*)\((\d+)\): (error|warning)[^:]*: (.*)$)");
  std::smatch m;
  if (!std::regex_match(line, m, re)) return std::nullopt;
  return Diagnostic{m[1], number(m[2]), 0, m[3], m[4]};
}

// gfortran: a "file:line:col:" header, then the source line and a caret, then
// "Error: message" or "Warning: message" (a "Fatal Error:" too).
std::vector<Diagnostic> gfortran_style(const std::vector<std::string>& lines, std::size_t limit) {
  static const std::regex header(R"(^([^:\s][^:]*):(\d+):(\d+):$)");
  static const std::regex body(R"(^(?:Fatal )?(Error|Warning): (.*)$)");
  std::vector<Diagnostic> out;
  std::optional<Diagnostic> open;
  for (const auto& line : lines) {
    std::smatch m;
    if (std::regex_match(line, m, header)) {
      open = Diagnostic{m[1], number(m[2]), number(m[3]), "", ""};
    } else if (std::regex_match(line, m, body)) {
      Diagnostic d = open.value_or(Diagnostic{});
      d.severity = m[1] == "Error" ? "error" : "warning";
      d.message = m[2];
      out.push_back(d);
      open.reset();
    } else if (auto g = gcc_style(line)) {
      out.push_back(*g);  // the driver's own messages (a missing file) keep GCC's form
    }
    if (out.size() >= limit) break;
  }
  return out;
}

// CPython: "  File \"kernel.py\", line N" (the last such frame is the place), then the
// exception line "SyntaxError: message" that ends the traceback.
std::vector<Diagnostic> python_style(const std::vector<std::string>& lines) {
  static const std::regex frame(R"re(^\s*File "([^"]+)", line (\d+).*$)re");
  static const std::regex exc(R"(^([A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception|Warning)): (.*)$)");
  std::vector<Diagnostic> out;
  std::optional<Diagnostic> place;
  for (const auto& line : lines) {
    std::smatch m;
    if (std::regex_match(line, m, frame)) {
      place = Diagnostic{m[1], number(m[2]), 0, "error", ""};
    } else if (std::regex_match(line, m, exc)) {
      Diagnostic d = place.value_or(Diagnostic{"", 0, 0, "error", ""});
      d.message = std::string(m[1]) + ": " + std::string(m[2]);
      if (std::string(m[1]).find("Warning") != std::string::npos) d.severity = "warning";
      out.push_back(d);
      place.reset();
    }
  }
  return out;
}

}  // namespace

std::vector<Diagnostic> parse_diagnostics(const std::string& log, const std::string& language,
                                          std::size_t limit) {
  const std::vector<std::string> lines = lines_of(log);
  if (language == "fortran") return gfortran_style(lines, limit);
  if (language == "python") {
    auto out = python_style(lines);
    if (out.size() > limit) out.resize(limit);
    return out;
  }
  std::vector<Diagnostic> out;
  for (const auto& line : lines) {
    auto d = gcc_style(line);
    if (!d && language == "cuda") d = nvcc_style(line);
    if (d) out.push_back(*d);
    if (out.size() >= limit) break;
  }
  return out;
}

}  // namespace hpcab::judge
