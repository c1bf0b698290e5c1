#include "harness/tool_policy.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace hpcab::harness {

namespace {

template <typename List>
bool contains(const List& items, std::string_view v) {
  return std::find(std::begin(items), std::end(items), v) != std::end(items);
}

std::string trim(std::string_view s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::string names_text() {
  std::string out;
  for (auto n : kToolNames) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

}  // namespace

bool is_tool_name(std::string_view name) { return contains(kToolNames, name); }
bool is_implemented_tool(std::string_view name) { return contains(kImplementedTools, name); }

bool ToolSet::allows(std::string_view name) const { return contains(allowed, name); }

ToolRefusal ToolSet::check(std::string_view name, std::string* message) const {
  if (!allows(name)) {
    if (message) {
      *message =
          "tool '" + std::string(name) + "' is not available in this arm (TOOLS=" + text() + ")";
    }
    return ToolRefusal::kNotAllowed;
  }
  if (!is_implemented_tool(name)) {
    if (message) {
      *message = "tool '" + std::string(name) +
                 "' is named in TOOLS but not implemented by this hpcab-tool (implemented: task, "
                 "baseline, score, submit, profile, syntax-check)";
    }
    return ToolRefusal::kNotImplemented;
  }
  return ToolRefusal::kNone;
}

std::string ToolSet::text() const {
  std::string out;
  for (const auto& n : allowed) out += (out.empty() ? "" : ",") + n;
  return out;
}

ToolSet ToolSet::all_implemented() {
  ToolSet s;
  for (auto n : kImplementedTools) s.allowed.emplace_back(n);
  return s;
}

ToolSet ToolSet::defaults() {
  ToolSet s;
  for (auto n : kDefaultTools) s.allowed.emplace_back(n);
  return s;
}

Result<ToolSet> parse_tool_set(std::string_view text, const std::string& where) {
  std::vector<std::string> given;
  std::stringstream ss{std::string(text)};
  for (std::string item; std::getline(ss, item, ',');) {
    std::string t = trim(item);
    if (t.empty()) continue;
    if (!is_tool_name(t)) {
      return Error{where + ": unknown tool '" + t + "' (known: " + names_text() + ")"};
    }
    if (contains(given, t)) return Error{where + ": tool '" + t + "' is listed twice"};
    given.push_back(t);
  }
  if (given.empty()) {
    return Error{where + ": expected a comma list of tools (" + names_text() + ")"};
  }
  ToolSet s;
  for (auto n : kToolNames) {
    if (contains(given, n)) s.allowed.emplace_back(n);
  }
  return s;
}

Result<ToolSet> tool_set_from_env() {
  const char* v = std::getenv(kToolsEnv);
  if (!v || !*v) return ToolSet::defaults();
  return parse_tool_set(v, kToolsEnv);
}

}  // namespace hpcab::harness
