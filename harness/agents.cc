// TEMPORARY local stub (not committed): helper A's implementation replaces it.
#include "harness/agents.h"
namespace hpcab::harness {
namespace {
std::string q(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}
}  // namespace
std::string default_command_template(std::string_view kind) {
  if (kind == "identity") return "hpcab-tool builtin identity";
  return "";
}
Result<std::string> agent_command_line(const AgentContext& ctx) {
  std::string t =
      ctx.agent_command.empty() ? default_command_template(ctx.kind) : ctx.agent_command;
  if (t.empty()) return Error{"no command"};
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '{') {
      auto e = t.find('}', i);
      std::string name = t.substr(i + 1, e - i - 1);
      std::string v = name == "workspace"     ? ctx.workspace
                      : name == "kernel"      ? ctx.kernel
                      : name == "prompt_file" ? ctx.prompt_file
                      : name == "model_url"   ? ctx.model_url
                      : name == "run_id"      ? ctx.run_id
                      : name == "rank"        ? std::to_string(ctx.rank)
                      : name == "worker"      ? std::to_string(ctx.worker)
                      : name == "judge_url"   ? ctx.judge_url
                                              : "";
      out += q(v);
      i = e;
    } else
      out += t[i];
  }
  return out;
}
std::map<std::string, std::string> agent_environment(const AgentContext& ctx) {
  std::map<std::string, std::string> e;
  if (!ctx.model_url.empty()) {
    e["OPENAI_BASE_URL"] = ctx.model_url + "/v1";
    e["ANTHROPIC_BASE_URL"] = ctx.model_url;
  }
  return e;
}
Status write_agent_files(const AgentContext&) { return Ok{}; }
}  // namespace hpcab::harness
