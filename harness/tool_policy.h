// Which agent tools an arm gives its agents (the TOOLS arm key; docs/harness.md
// "Interventions"). The harness passes the allowed set to hpcab-tool, its CLI and its MCP server,
// in HPCAB_TOOLS; the tools refuse a call outside it. Unset HPCAB_TOOLS means every implemented
// tool (what every arm got before TOOLS existed).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace hpcab::harness {

// Every tool name TOOLS accepts, in the order prompts list them.
inline constexpr std::string_view kToolNames[] = {"task",    "baseline",     "score", "submit",
                                                  "profile", "syntax-check", "search"};
// The tools hpcab-tool implements (every name TOOLS accepts).
inline constexpr std::string_view kImplementedTools[] = {
    "task", "baseline", "score", "submit", "profile", "syntax-check", "search"};
// What an arm without TOOLS gives (and hpcab-tool without HPCAB_TOOLS): the paper's base setup.
// The other tools are interventions an arm switches on.
inline constexpr std::string_view kDefaultTools[] = {"task", "baseline", "score", "submit"};

// The environment variable holding the allowed set (comma list, as TOOLS).
inline constexpr const char* kToolsEnv = "HPCAB_TOOLS";

// Why a call is refused (error codes; nothing branches on message text).
enum class ToolRefusal { kNone, kNotAllowed, kNotImplemented };

struct ToolSet {
  std::vector<std::string> allowed;  // in kToolNames order, no duplicates

  bool allows(std::string_view name) const;
  // kNone when `name` may be called; the message says which tools the arm gives.
  ToolRefusal check(std::string_view name, std::string* message) const;
  // "task,baseline,submit"
  std::string text() const;

  static ToolSet all_implemented();
  static ToolSet defaults();  // kDefaultTools
};

bool is_tool_name(std::string_view name);
bool is_implemented_tool(std::string_view name);

// Parses a TOOLS value: a comma list of kToolNames, at least one. `where` names the source.
Result<ToolSet> parse_tool_set(std::string_view text, const std::string& where);

// HPCAB_TOOLS from the environment; defaults() when unset or empty.
Result<ToolSet> tool_set_from_env();

}  // namespace hpcab::harness
