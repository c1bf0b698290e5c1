// How each AGENT kind of an arm is started (SPEC §6): its command
// template, the environment its model client reads, and the files it needs in its workspace.
// The daemon (harness/daemon.h) adds the variables every agent gets (JUDGE_URL, JUDGE_RANK,
// RUN_ID, KERNEL, LANGUAGE, AGENT, HPCAB_SUBMISSION_POLICY, HPCAB_TOOL_STATE, HPCAB_USAGE_URL,
// PATH with hpcab-tool first), starts the command with /bin/sh -c in its own process group and
// enforces the limits; this file only says what to run.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace hpcab::harness {

// Everything a command template or an agent's environment may need about one episode attempt.
struct AgentContext {
  std::string kind;           // the arm's AGENT
  std::string agent_command;  // the arm's AGENT_COMMAND ('' = the kind's default template)
  // The arm's agent settings (Arm::AgentSettings), applied to the kind's built-in template only:
  // an AGENT_COMMAND is used as written.
  int max_turns = 0;
  std::vector<std::string> disallowed_tools;
  std::string extra_args;
  std::string workspace;    // absolute; the agent's working directory
  std::string prompt_file;  // absolute; <workspace>/PROMPT.md
  std::string prompt;       // the rendered prompt text
  std::string kernel, language, model;
  // The metering proxy's base URL without a path, http://127.0.0.1:<port>; '' for agents
  // without a model (built-in optimizers, and `command` arms with no INFERENCE_URLS).
  std::string model_url;
  std::string judge_url;
  int rank = 0;
  std::string run_id;
  int worker = 0;
  std::string tool_path;    // absolute path of the hpcab-tool binary
  std::string reference_c;  // absolute path of the kernel's corpus reference.c (built-ins)
  std::string library_dir;  // absolute; where autopar built-ins put libraries for the judge
  // The variables hpcab-tool reads (JUDGE_URL, JUDGE_RANK, RUN_ID, AGENT, KERNEL, LANGUAGE,
  // HPCAB_SUBMISSION_POLICY, HPCAB_TOOL_STATE, JUDGE_TOKEN, ...), as the daemon sets them for
  // the agent. Written into the MCP server entries of the agent's configuration, because several
  // MCP clients start stdio servers with a minimal environment rather than their own (the MCP
  // Python SDK used by OpenHands, Codex). Values derived from the fields above (judge_url, rank,
  // run_id, kind, kernel, language) fill in whatever this map lacks.
  std::map<std::string, std::string> tool_env;
};

// The folder, inside the workspace, that holds the agents' configuration files and state
// (MCP configuration, CODEX_HOME, OpenHands and mini-swe-agent settings, Claude Code's config).
inline constexpr std::string_view kAgentFilesDir = ".hpcab-agent";

// `s` as one POSIX shell word: in single quotes, each embedded ' written as '\''.
std::string shell_quote(std::string_view s);

// The environment an `hpcab-tool mcp` server entry carries: ctx.tool_env over the values derived
// from ctx (JUDGE_URL, JUDGE_RANK, RUN_ID, AGENT, KERNEL, LANGUAGE).
std::map<std::string, std::string> mcp_server_env(const AgentContext& ctx);

// The kind's built-in command template (with {placeholders}, see kCommandPlaceholders in
// harness/arm.h). '' for `command`, which has none (its arm must set AGENT_COMMAND).
std::string default_command_template(std::string_view kind);

// The command line the daemon runs with /bin/sh -c: AGENT_COMMAND (for `replay` it is the
// folder of prepared sources, not a command) or the kind's template plus the agent settings
// (agent_settings_args), with every placeholder replaced by its value as one shell-quoted word.
// Errors: an unknown kind, a `command` arm without AGENT_COMMAND, an unknown placeholder.
Result<std::string> agent_command_line(const AgentContext& ctx);

// The arguments the agent settings add to the kind's template (before its `< /dev/null`):
// claude-code `--disallowedTools 'A,B' --max-turns N`, mini-swe-agent `-c mini.yaml -c
// agent.step_limit=N`, then AGENT_ARGS as written. Codex's web_search goes into its config.toml.
std::string agent_settings_args(const AgentContext& ctx);

// The variables this kind's model client reads (base URLs pointing at the proxy, a dummy API
// key, the model name, config file locations), plus HPCAB_REFERENCE_C / HPCAB_LIBRARY_DIR for
// the built-ins. The daemon adds them on top of the common variables.
std::map<std::string, std::string> agent_environment(const AgentContext& ctx);

// Writes the files the kind needs in its workspace before it starts (for example an MCP
// configuration naming `hpcab-tool mcp`). A no-op for kinds that need none.
Status write_agent_files(const AgentContext& ctx);

}  // namespace hpcab::harness
