// How each AGENT kind is started: command templates, environment and workspace files.
//
// The model agents' command lines and variables follow each CLI's own documentation (checked
// 2026; the CLIs change often, so an arm can always replace the template with AGENT_COMMAND):
//   claude-code     Claude Code CLI reference and env-vars pages (code.claude.com/docs/en/
//                   cli-reference, /env-vars): `-p` print mode, `--model`,
//                   `--dangerously-skip-permissions`, `--mcp-config FILE`, `--strict-mcp-config`,
//                   `--output-format stream-json` (which requires `--verbose` in print mode);
//                   ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY (always used in -p mode),
//                   ANTHROPIC_MODEL and ANTHROPIC_DEFAULT_{OPUS,SONNET,HAIKU}_MODEL,
//                   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, CLAUDE_CONFIG_DIR. IS_SANDBOX=1 is
//                   the (undocumented, anthropics/claude-code#3490) switch that lets
//                   --dangerously-skip-permissions run as root in a container.
//   mini-swe-agent  mini-swe-agent.com/latest/usage/mini and src/minisweagent/run/mini.py:
//                   `mini -y/--yolo --exit-immediately -l/--cost-limit 0 -m MODEL -t TASK`;
//                   MSWEA_CONFIGURED (skips the interactive first-run setup),
//                   MSWEA_COST_TRACKING=ignore_errors (litellm has no price for a proxied
//                   model), MSWEA_GLOBAL_CONFIG_DIR (where its .env and trajectory go); litellm's
//                   `openai/<model>` with OPENAI_API_BASE / OPENAI_BASE_URL.
//   openhands       docs.openhands.dev/openhands/usage/cli/headless and openhands_cli/
//                   locations.py: `openhands --headless --json --override-with-envs
//                   --exit-without-confirmation --file FILE`; LLM_MODEL, LLM_BASE_URL,
//                   LLM_API_KEY (read only with --override-with-envs), OPENHANDS_WORK_DIR,
//                   OPENHANDS_PERSISTENCE_DIR (holds mcp.json), OPENHANDS_SUPPRESS_BANNER;
//                   RUNTIME=local for the older `python -m openhands.core.main` entry point.
//   codex           developers.openai.com/codex/noninteractive and the CLI reference:
//                   `codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox
//                   --model M --cd DIR PROMPT`; CODEX_HOME/config.toml with a model provider
//                   (base_url, env_key, wire_api) and [mcp_servers.<name>]. Stdin is closed:
//                   `codex exec` (and `claude -p`) otherwise read piped stdin as extra context.
#include "harness/agents.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/arm.h"
#include "harness/builtin.h"  // kBuiltinKinds
#include "harness/plan.h"

namespace hpcab::harness {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The model agents' credentials: the metering proxy replaces them when it holds the real key.
constexpr const char* kDummyKey = "hpcab-dummy-key";

bool known_kind(std::string_view kind) {
  return std::find(std::begin(kAgentKinds), std::end(kAgentKinds), kind) != std::end(kAgentKinds);
}

bool is_builtin(std::string_view kind) {
  return std::find(std::begin(kBuiltinKinds), std::end(kBuiltinKinds), kind) !=
         std::end(kBuiltinKinds);
}

fs::path files_dir(const AgentContext& ctx) { return fs::path(ctx.workspace) / kAgentFilesDir; }

std::string with_v1(const std::string& base) { return base + "/v1"; }

// A TOML basic string.
std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04X", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// A python-dotenv value: single-quoted, with \ and ' escaped (python-dotenv decodes both).
std::string dotenv_value(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

Status write_file(const fs::path& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return Error{"cannot create " + path.parent_path().string() + ": " + ec.message()};
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Error{"cannot write " + path.string()};
  return Ok{};
}

Status make_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{"cannot create " + dir.string() + ": " + ec.message()};
  return Ok{};
}

// {"mcpServers": {"hpcab": {...}}}: the format Claude Code and OpenHands both read.
json mcp_servers_json(const AgentContext& ctx, bool with_type) {
  json server = {
      {"command", ctx.tool_path}, {"args", json::array({"mcp"})}, {"env", mcp_server_env(ctx)}};
  if (with_type) server["type"] = "stdio";
  return {{"mcpServers", {{"hpcab", server}}}};
}

std::string codex_config(const AgentContext& ctx) {
  std::string t =
      "# Written by hpcab-harness for one episode (this folder is CODEX_HOME). The model is\n"
      "# reached through the harness's metering proxy; the judge through hpcab-tool.\n";
  t += "model = " + toml_string(ctx.model) + "\n";
  if (!ctx.model_url.empty()) t += "model_provider = \"hpcab\"\n";
  t += "approval_policy = \"never\"\n";
  t += "sandbox_mode = \"danger-full-access\"\n";
  // AGENT_DISALLOWED_TOOLS=web_search (the default): Codex's built-in web search off.
  if (std::find(ctx.disallowed_tools.begin(), ctx.disallowed_tools.end(), "web_search") !=
      ctx.disallowed_tools.end()) {
    t += "web_search = \"disabled\"\n";
  }
  if (!ctx.model_url.empty()) {
    t += "\n[model_providers.hpcab]\n";
    t += "name = \"hpcab metering proxy\"\n";
    t += "base_url = " + toml_string(with_v1(ctx.model_url)) + "\n";
    t += "env_key = \"OPENAI_API_KEY\"\n";
    // Current Codex speaks only the Responses API (wire_api "chat" was removed in 2026).
    t += "wire_api = \"responses\"\n";
  }
  t += "\n[mcp_servers.hpcab]\n";
  t += "command = " + toml_string(ctx.tool_path) + "\n";
  t += "args = [\"mcp\"]\n";
  std::string env;
  for (const auto& [k, v] : mcp_server_env(ctx)) {
    env += (env.empty() ? "" : ", ") + toml_string(k) + " = " + toml_string(v);
  }
  t += "env = { " + env + " }\n";
  return t;
}

// mini-swe-agent's variables that also go into its global .env (some versions load that file
// with override=True, so it must agree with the process environment).
std::map<std::string, std::string> mini_env(const AgentContext& ctx) {
  std::map<std::string, std::string> env = {
      {"MSWEA_CONFIGURED", "true"},
      {"MSWEA_COST_TRACKING", "ignore_errors"},
      {"MSWEA_MODEL_NAME", "openai/" + ctx.model},
      {"OPENAI_API_KEY", kDummyKey},
  };
  if (!ctx.model_url.empty()) {
    env["OPENAI_API_BASE"] = with_v1(ctx.model_url);
    env["OPENAI_BASE_URL"] = with_v1(ctx.model_url);
  }
  return env;
}

}  // namespace

std::string shell_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::map<std::string, std::string> mcp_server_env(const AgentContext& ctx) {
  std::map<std::string, std::string> env = {
      {"JUDGE_URL", ctx.judge_url}, {"JUDGE_RANK", std::to_string(ctx.rank)},
      {"RUN_ID", ctx.run_id},       {"AGENT", ctx.kind},
      {"KERNEL", ctx.kernel},       {"LANGUAGE", ctx.language}};
  for (const auto& [k, v] : ctx.tool_env) env[k] = v;
  return env;
}

std::string default_command_template(std::string_view kind) {
  if (kind == "claude-code") {
    return "claude -p {prompt} --model {model} --dangerously-skip-permissions --mcp-config "
           "{workspace}/.hpcab-agent/mcp.json --strict-mcp-config --output-format stream-json "
           "--verbose < /dev/null";
  }
  if (kind == "mini-swe-agent") {
    return "mini --yolo --exit-immediately --cost-limit 0 --model openai/{model} --task {prompt}";
  }
  if (kind == "openhands") {
    return "openhands --headless --json --override-with-envs --exit-without-confirmation --file "
           "{prompt_file}";
  }
  if (kind == "codex") {
    return "codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox --model "
           "{model} --cd {workspace} {prompt} < /dev/null";
  }
  if (kind == "identity") return "{tool_path} builtin identity";
  // The prepared-sources folder (AGENT_COMMAND) is appended as one quoted word.
  if (kind == "replay") return "{tool_path} builtin replay --dir";
  if (kind == "autopar-gcc") return "{tool_path} builtin autopar-gcc";
  if (kind == "autopar-polly") return "{tool_path} builtin autopar-polly";
  if (kind == "numba-jit") return "{tool_path} builtin numba-jit";
  return "";  // `command`, or an unknown kind
}

Result<std::string> agent_command_line(const AgentContext& ctx) {
  if (!known_kind(ctx.kind)) return Error{"unknown AGENT '" + ctx.kind + "'"};
  std::map<std::string, std::string> raw = {{"workspace", ctx.workspace},
                                            {"prompt_file", ctx.prompt_file},
                                            {"prompt", ctx.prompt},
                                            {"kernel", ctx.kernel},
                                            {"language", ctx.language},
                                            {"model", ctx.model},
                                            {"model_url", ctx.model_url},
                                            {"judge_url", ctx.judge_url},
                                            {"rank", std::to_string(ctx.rank)},
                                            {"run_id", ctx.run_id},
                                            {"worker", std::to_string(ctx.worker)},
                                            {"tool_path", ctx.tool_path}};
  std::map<std::string, std::string> quoted;
  for (const auto& [k, v] : raw) quoted[k] = shell_quote(v);

  if (ctx.kind == "replay") {
    if (ctx.agent_command.empty()) {
      return Error{"AGENT=replay needs AGENT_COMMAND: the folder of prepared sources"};
    }
    // A folder, not a command: placeholders take their plain values ({language} picks a
    // subfolder, say), and a relative folder is the daemon's, not the workspace's.
    auto dir = render_template(ctx.agent_command, raw, "AGENT_COMMAND");
    if (!dir.ok()) return dir.error();
    auto line = render_template(default_command_template("replay"), quoted, "replay template");
    if (!line.ok()) return line.error();
    return *line + " " + shell_quote(fs::absolute(*dir).lexically_normal().string());
  }
  std::string templ = ctx.agent_command;
  if (templ.empty()) {
    templ = default_command_template(ctx.kind);
    if (templ.empty()) {
      return Error{"AGENT=" + ctx.kind + " needs AGENT_COMMAND (it has no built-in command)"};
    }
    if (const std::string extra = agent_settings_args(ctx); !extra.empty()) {
      static constexpr std::string_view kStdin = " < /dev/null";
      if (templ.size() >= kStdin.size() &&
          templ.compare(templ.size() - kStdin.size(), kStdin.size(), kStdin) == 0) {
        templ = templ.substr(0, templ.size() - kStdin.size()) + " " + extra + std::string(kStdin);
      } else {
        templ += " " + extra;
      }
    }
  }
  return render_template(
      templ, quoted,
      ctx.agent_command.empty() ? "the " + ctx.kind + " template" : std::string("AGENT_COMMAND"));
}

std::string agent_settings_args(const AgentContext& ctx) {
  std::string out;
  auto add = [&](const std::string& a) { out += (out.empty() ? "" : " ") + a; };
  if (ctx.kind == "claude-code") {
    if (!ctx.disallowed_tools.empty()) {
      std::string list;
      for (const auto& t : ctx.disallowed_tools) list += (list.empty() ? "" : ",") + t;
      add("--disallowedTools " + shell_quote(list));
    }
    if (ctx.max_turns > 0) add("--max-turns " + std::to_string(ctx.max_turns));
  } else if (ctx.kind == "mini-swe-agent" && ctx.max_turns > 0) {
    // A -c that is not the default config replaces it, so the default is named first.
    add("-c mini.yaml -c agent.step_limit=" + std::to_string(ctx.max_turns));
  }
  // AGENT_ARGS: shell text as the arm wrote it; it may use AGENT_COMMAND's {placeholders}
  // (checked when the arm is loaded), filled with the rest of the template.
  if (!ctx.extra_args.empty()) add(ctx.extra_args);
  return out;
}

std::map<std::string, std::string> agent_environment(const AgentContext& ctx) {
  std::map<std::string, std::string> env;
  if (!ctx.model.empty()) env["HPCAB_MODEL"] = ctx.model;
  if (!ctx.model_url.empty()) env["HPCAB_MODEL_URL"] = ctx.model_url;
  const fs::path dir = files_dir(ctx);
  const std::string v1 = ctx.model_url.empty() ? "" : with_v1(ctx.model_url);

  if (ctx.kind == "claude-code") {
    if (!ctx.model_url.empty()) env["ANTHROPIC_BASE_URL"] = ctx.model_url;
    // Only the API key: with ANTHROPIC_AUTH_TOKEN as well, Claude Code warns of an auth conflict.
    env["ANTHROPIC_API_KEY"] = kDummyKey;
    env["ANTHROPIC_MODEL"] = ctx.model;
    // Background requests (titles, summaries) use the "haiku" slot: keep every request on the
    // arm's model, which is the only one the upstream serves.
    for (const char* slot : {"ANTHROPIC_DEFAULT_OPUS_MODEL", "ANTHROPIC_DEFAULT_SONNET_MODEL",
                             "ANTHROPIC_DEFAULT_HAIKU_MODEL", "ANTHROPIC_SMALL_FAST_MODEL"}) {
      env[slot] = ctx.model;
    }
    env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] = "1";
    // Claude Code 2.1 defers MCP tools behind its ToolSearch tool by default: a request then
    // offers no mcp__hpcab__* tool until the model searches for one, which only Anthropic's own
    // models know to do, so an arm's vLLM or SGLang model would never see the judge's tools.
    env["ENABLE_TOOL_SEARCH"] = "false";
    env["CLAUDE_CONFIG_DIR"] = (dir / "claude").string();
    env["IS_SANDBOX"] = "1";
  } else if (ctx.kind == "mini-swe-agent") {
    for (const auto& [k, v] : mini_env(ctx)) env[k] = v;
    env["MSWEA_GLOBAL_CONFIG_DIR"] = (dir / "mini-swe-agent").string();
    env["MSWEA_SILENT_STARTUP"] = "1";
  } else if (ctx.kind == "openhands") {
    env["LLM_MODEL"] = "openai/" + ctx.model;
    if (!v1.empty()) env["LLM_BASE_URL"] = v1;
    env["LLM_API_KEY"] = kDummyKey;
    env["OPENHANDS_WORK_DIR"] = ctx.workspace;
    env["OPENHANDS_PERSISTENCE_DIR"] = (dir / "openhands").string();
    env["OPENHANDS_SUPPRESS_BANNER"] = "1";
    env["RUNTIME"] = "local";
  } else if (ctx.kind == "codex") {
    env["CODEX_HOME"] = (dir / "codex").string();
    env["OPENAI_API_KEY"] = kDummyKey;
    if (!v1.empty()) env["OPENAI_BASE_URL"] = v1;
  } else if (ctx.kind == "command") {
    // Any client: both API styles point at the proxy when the arm has a model.
    if (!ctx.model_url.empty()) {
      env["OPENAI_BASE_URL"] = v1;
      env["OPENAI_API_BASE"] = v1;
      env["OPENAI_API_KEY"] = kDummyKey;
      env["ANTHROPIC_BASE_URL"] = ctx.model_url;
      env["ANTHROPIC_API_KEY"] = kDummyKey;
    }
  } else if (is_builtin(ctx.kind)) {
    if (!ctx.reference_c.empty()) env["HPCAB_REFERENCE_C"] = ctx.reference_c;
    if (!ctx.library_dir.empty()) env["HPCAB_LIBRARY_DIR"] = ctx.library_dir;
  }
  return env;
}

Status write_agent_files(const AgentContext& ctx) {
  const fs::path dir = files_dir(ctx);
  if (ctx.kind == "claude-code") {
    if (auto s = write_file(dir / "mcp.json", mcp_servers_json(ctx, true).dump(2) + "\n"); !s) {
      return s;
    }
    return make_dir(dir / "claude");
  }
  if (ctx.kind == "openhands") {
    return write_file(dir / "openhands" / "mcp.json", mcp_servers_json(ctx, false).dump(2) + "\n");
  }
  if (ctx.kind == "codex") return write_file(dir / "codex" / "config.toml", codex_config(ctx));
  if (ctx.kind == "mini-swe-agent") {
    // mini-swe-agent has no MCP client: the agent uses the hpcab-tool command line (on PATH).
    std::string text = "# Written by hpcab-harness for one episode.\n";
    for (const auto& [k, v] : mini_env(ctx)) text += k + "=" + dotenv_value(v) + "\n";
    return write_file(dir / "mini-swe-agent" / ".env", text);
  }
  return Ok{};
}

}  // namespace hpcab::harness
