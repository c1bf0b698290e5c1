// How each AGENT kind is started (harness/agents.h): the rendered command lines, run for real
// with /bin/sh against stand-in programs that record their argv, so quoting is checked by the
// shell that will parse it; the environment per kind; the files written into the workspace.
#include "harness/agents.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/process.h"
#include "harness/arm.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A prompt that breaks any naive quoting: both quote kinds, command substitution, backticks,
// variables, globs, a backslash, newlines and a leading dash on a line.
const std::string kHostilePrompt =
    "# Task: it's \"tsvc_2_s000\"\n$(touch pwned) `touch pwned2` ${HOME} $HOME * ?\n"
    "back\\slash 'single' ''' end\n-n --flag\n\n";

// A folder per test whose name itself needs quoting (a space and a single quote), holding the
// workspace and a bin/ of stand-ins named like the real CLIs.
class AgentsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "hpcab agents 'q' XXXXXX").string();
    root_ = mkdtemp(t.data());
    ws_ = root_ / "work space";
    fs::create_directories(ws_);
    fs::create_directories(root_ / "bin");
    // Each stand-in writes its argv, NUL-separated, to $ARGV_OUT (named after the program).
    for (const char* name : {"claude", "mini", "openhands", "codex", "hpcab-tool"}) {
      fs::path p = root_ / "bin" / name;
      std::ofstream(p) << "#!/bin/sh\n: > \"$ARGV_OUT\"\nfor a in \"$@\"; do printf '%s\\0' "
                          "\"$a\" >> \"$ARGV_OUT\"; done\n";
      fs::permissions(p, fs::perms::owner_all);
    }
  }
  void TearDown() override { fs::remove_all(root_); }

  AgentContext context(const std::string& kind) const {
    AgentContext c;
    c.kind = kind;
    c.workspace = ws_.string();
    c.prompt_file = (ws_ / "PROMPT.md").string();
    c.prompt = kHostilePrompt;
    c.kernel = "tsvc_2_s000";
    c.language = "c";
    c.model = "qwen3-coder";
    c.model_url = "http://127.0.0.1:41234";
    c.judge_url = "http://127.0.0.1:8800";
    c.rank = 1;
    c.run_id = "arm/tsvc_2_s000/0#1";
    c.worker = 3;
    c.tool_path = (root_ / "bin" / "hpcab-tool").string();
    c.reference_c = "/corpus/loop_level_reasoning/tsvc_2_s000/reference.c";
    c.library_dir = (root_ / "libs").string();
    return c;
  }

  // Runs `line` with /bin/sh -c in the workspace, the stand-ins first on PATH; returns the argv
  // the program received (without argv[0]).
  std::vector<std::string> run(const std::string& line) const {
    ProcessOptions o;
    o.argv = {"/bin/sh", "-c", line};
    o.cwd = ws_.string();
    o.extra_env = {"PATH=" + (root_ / "bin").string() + ":/usr/bin:/bin",
                   "ARGV_OUT=" + (root_ / "argv").string()};
    o.timeout_s = 30;
    auto r = run_process(o);
    EXPECT_TRUE(r.ok());
    EXPECT_TRUE(r.ok() && r->success()) << line << "\n" << (r.ok() ? r->output : "");
    std::vector<std::string> args;
    std::string all = slurp(root_ / "argv");
    std::size_t start = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all[i] == '\0') {
        args.push_back(all.substr(start, i - start));
        start = i + 1;
      }
    }
    return args;
  }

  fs::path root_, ws_;
};

// The argument after `flag`.
std::string after(const std::vector<std::string>& args, const std::string& flag) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == flag) return args[i + 1];
  }
  return "<" + flag + " missing>";
}

bool has(const std::vector<std::string>& args, const std::string& a) {
  return std::find(args.begin(), args.end(), a) != args.end();
}

TEST(Agents, ShellQuoteMakesOneWord) {
  EXPECT_EQ(shell_quote("plain"), "'plain'");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("$(x) `y` \"z\""), "'$(x) `y` \"z\"'");
}

TEST(Agents, DefaultTemplatesUseOnlyKnownPlaceholders) {
  for (auto kind : kAgentKinds) {
    std::string t = default_command_template(kind);
    if (kind == "command") {
      EXPECT_EQ(t, "");
      continue;
    }
    EXPECT_FALSE(t.empty()) << kind;
    // The arm loader's check accepts them as an AGENT_COMMAND would be accepted.
    auto arm = parse_arm("NAME=x\nKERNELS=all\nAGENT=command\nAGENT_COMMAND=" + t + "\n", "t", "/");
    EXPECT_TRUE(arm.ok()) << kind << ": " << (arm.ok() ? "" : arm.error().message);
  }
  EXPECT_EQ(default_command_template("gpt"), "");
  EXPECT_EQ(default_command_template("numba-jit"), "{tool_path} builtin numba-jit");
}

TEST_F(AgentsTest, ClaudeCodeCommandLine) {
  auto line = agent_command_line(context("claude-code"));
  ASSERT_TRUE(line.ok()) << line.error().message;
  auto args = run(*line);
  EXPECT_EQ(after(args, "-p"), kHostilePrompt);  // byte for byte, newlines included
  EXPECT_EQ(after(args, "--model"), "qwen3-coder");
  EXPECT_EQ(after(args, "--mcp-config"), (ws_ / ".hpcab-agent" / "mcp.json").string());
  EXPECT_TRUE(has(args, "--dangerously-skip-permissions"));
  EXPECT_TRUE(has(args, "--strict-mcp-config"));
  EXPECT_EQ(after(args, "--output-format"), "stream-json");
  EXPECT_TRUE(has(args, "--verbose"));  // stream-json in print mode requires it
  EXPECT_FALSE(fs::exists(ws_ / "pwned"));
  EXPECT_FALSE(fs::exists(ws_ / "pwned2"));
}

TEST_F(AgentsTest, MiniSweAgentCommandLine) {
  auto line = agent_command_line(context("mini-swe-agent"));
  ASSERT_TRUE(line.ok()) << line.error().message;
  auto args = run(*line);
  EXPECT_EQ(after(args, "--task"), kHostilePrompt);
  EXPECT_EQ(after(args, "--model"), "openai/qwen3-coder");  // litellm: OpenAI-compatible proxy
  EXPECT_TRUE(has(args, "--yolo"));
  EXPECT_TRUE(has(args, "--exit-immediately"));
  EXPECT_EQ(after(args, "--cost-limit"), "0");
  EXPECT_FALSE(fs::exists(ws_ / "pwned"));
}

TEST_F(AgentsTest, OpenHandsCommandLine) {
  auto line = agent_command_line(context("openhands"));
  ASSERT_TRUE(line.ok()) << line.error().message;
  auto args = run(*line);
  EXPECT_EQ(after(args, "--file"), (ws_ / "PROMPT.md").string());
  for (const char* flag :
       {"--headless", "--json", "--override-with-envs", "--exit-without-confirmation"}) {
    EXPECT_TRUE(has(args, flag)) << flag;
  }
}

TEST_F(AgentsTest, CodexCommandLine) {
  auto line = agent_command_line(context("codex"));
  ASSERT_TRUE(line.ok()) << line.error().message;
  auto args = run(*line);
  ASSERT_FALSE(args.empty());
  EXPECT_EQ(args[0], "exec");
  EXPECT_EQ(args.back(), kHostilePrompt);
  EXPECT_EQ(after(args, "--model"), "qwen3-coder");
  EXPECT_EQ(after(args, "--cd"), ws_.string());
  EXPECT_TRUE(has(args, "--skip-git-repo-check"));
  EXPECT_TRUE(has(args, "--dangerously-bypass-approvals-and-sandbox"));
  EXPECT_FALSE(fs::exists(ws_ / "pwned"));
}

TEST_F(AgentsTest, BuiltinsRunTheToolByItsAbsolutePath) {
  for (const char* kind : {"identity", "autopar-gcc", "autopar-polly"}) {
    auto line = agent_command_line(context(kind));
    ASSERT_TRUE(line.ok()) << line.error().message;
    EXPECT_EQ(line->rfind(shell_quote(context(kind).tool_path), 0), 0u) << *line;
    auto args = run(*line);
    EXPECT_EQ(args, (std::vector<std::string>{"builtin", kind})) << *line;
  }
}

TEST_F(AgentsTest, ReplayAppendsTheFolderAsOneAbsoluteWord) {
  auto c = context("replay");
  c.agent_command = (root_ / "prepared it's").string();
  auto line = agent_command_line(c);
  ASSERT_TRUE(line.ok()) << line.error().message;
  EXPECT_EQ(run(*line), (std::vector<std::string>{"builtin", "replay", "--dir",
                                                  (root_ / "prepared it's").string()}));

  // Placeholders take their plain values; a relative folder is the daemon's working directory's.
  c.agent_command = "prepared/{language}";
  line = agent_command_line(c);
  ASSERT_TRUE(line.ok()) << line.error().message;
  EXPECT_EQ(after(run(*line), "--dir"), (fs::current_path() / "prepared" / "c").string());

  c.agent_command = "";
  auto missing = agent_command_line(c);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("folder of prepared sources"), std::string::npos);
}

TEST_F(AgentsTest, CustomCommandGetsEveryPlaceholderAsOneWord) {
  auto c = context("command");
  // The stand-in records argv like any program would see it.
  c.agent_command =
      "{tool_path} {workspace} {prompt_file} {prompt} {kernel} {language} {model} {model_url} "
      "{judge_url} {rank} {run_id} {worker} {tool_path} ${PATH+set} {literal braces}";
  auto line = agent_command_line(c);
  ASSERT_TRUE(line.ok()) << line.error().message;
  auto args = run(*line);
  EXPECT_EQ(args, (std::vector<std::string>{
                      ws_.string(), (ws_ / "PROMPT.md").string(), kHostilePrompt, "tsvc_2_s000",
                      "c", "qwen3-coder", "http://127.0.0.1:41234", "http://127.0.0.1:8800", "1",
                      "arm/tsvc_2_s000/0#1", "3", c.tool_path, "set", "{literal", "braces}"}))
      << *line;
}

TEST_F(AgentsTest, Errors) {
  auto c = context("command");
  auto none = agent_command_line(c);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("AGENT=command needs AGENT_COMMAND"), std::string::npos)
      << none.error().message;

  c.agent_command = "run {prompt_fil}";
  auto typo = agent_command_line(c);
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.error().message.find("unknown placeholder {prompt_fil}"), std::string::npos)
      << typo.error().message;

  auto unknown = agent_command_line(context("gpt"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("unknown AGENT 'gpt'"), std::string::npos);

  // AGENT_COMMAND replaces a model agent's template.
  c = context("claude-code");
  c.agent_command = "claude --version";
  EXPECT_EQ(*agent_command_line(c), "claude --version");
}

TEST_F(AgentsTest, EnvironmentPerKind) {
  auto claude = agent_environment(context("claude-code"));
  EXPECT_EQ(claude["ANTHROPIC_BASE_URL"], "http://127.0.0.1:41234");  // Anthropic style: no /v1
  EXPECT_FALSE(claude["ANTHROPIC_API_KEY"].empty());
  EXPECT_EQ(claude.count("ANTHROPIC_AUTH_TOKEN"), 0u);
  EXPECT_EQ(claude["ANTHROPIC_MODEL"], "qwen3-coder");
  EXPECT_EQ(claude["ANTHROPIC_DEFAULT_HAIKU_MODEL"], "qwen3-coder");
  EXPECT_EQ(claude["CLAUDE_CONFIG_DIR"], (ws_ / ".hpcab-agent" / "claude").string());
  EXPECT_EQ(claude["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"], "1");
  EXPECT_EQ(claude["IS_SANDBOX"], "1");
  EXPECT_EQ(claude["ENABLE_TOOL_SEARCH"], "false");

  auto mini = agent_environment(context("mini-swe-agent"));
  EXPECT_EQ(mini["OPENAI_API_BASE"], "http://127.0.0.1:41234/v1");
  EXPECT_EQ(mini["OPENAI_BASE_URL"], "http://127.0.0.1:41234/v1");
  EXPECT_FALSE(mini["OPENAI_API_KEY"].empty());
  EXPECT_EQ(mini["MSWEA_MODEL_NAME"], "openai/qwen3-coder");
  EXPECT_EQ(mini["MSWEA_CONFIGURED"], "true");
  EXPECT_EQ(mini["MSWEA_COST_TRACKING"], "ignore_errors");
  EXPECT_EQ(mini["MSWEA_GLOBAL_CONFIG_DIR"], (ws_ / ".hpcab-agent" / "mini-swe-agent").string());

  auto oh = agent_environment(context("openhands"));
  EXPECT_EQ(oh["LLM_BASE_URL"], "http://127.0.0.1:41234/v1");
  EXPECT_EQ(oh["LLM_MODEL"], "openai/qwen3-coder");
  EXPECT_FALSE(oh["LLM_API_KEY"].empty());
  EXPECT_EQ(oh["RUNTIME"], "local");
  EXPECT_EQ(oh["OPENHANDS_WORK_DIR"], ws_.string());
  EXPECT_EQ(oh["OPENHANDS_PERSISTENCE_DIR"], (ws_ / ".hpcab-agent" / "openhands").string());

  auto codex = agent_environment(context("codex"));
  EXPECT_EQ(codex["CODEX_HOME"], (ws_ / ".hpcab-agent" / "codex").string());
  EXPECT_EQ(codex["OPENAI_BASE_URL"], "http://127.0.0.1:41234/v1");
  EXPECT_FALSE(codex["OPENAI_API_KEY"].empty());

  auto cmd = agent_environment(context("command"));
  EXPECT_EQ(cmd["OPENAI_BASE_URL"], "http://127.0.0.1:41234/v1");
  EXPECT_EQ(cmd["ANTHROPIC_BASE_URL"], "http://127.0.0.1:41234");
  EXPECT_EQ(cmd["HPCAB_MODEL_URL"], "http://127.0.0.1:41234");
  EXPECT_EQ(cmd["HPCAB_MODEL"], "qwen3-coder");
  auto no_model = context("command");
  no_model.model_url.clear();
  no_model.model.clear();
  EXPECT_TRUE(agent_environment(no_model).empty());

  for (const char* kind : {"identity", "replay", "autopar-gcc", "autopar-polly"}) {
    auto b = context(kind);
    b.model.clear();
    b.model_url.clear();
    auto env = agent_environment(b);
    EXPECT_EQ(env,
              (std::map<std::string, std::string>{
                  {"HPCAB_REFERENCE_C", "/corpus/loop_level_reasoning/tsvc_2_s000/reference.c"},
                  {"HPCAB_LIBRARY_DIR", (root_ / "libs").string()}}))
        << kind;
  }
}

TEST_F(AgentsTest, WritesMcpConfigurationsNamingTheTool) {
  auto c = context("claude-code");
  c.tool_env = {{"HPCAB_SUBMISSION_POLICY", "single"},
                {"HPCAB_TOOL_STATE", ws_.string()},
                {"JUDGE_RANK", "1"}};
  ASSERT_TRUE(write_agent_files(c).ok());
  json claude = json::parse(slurp(ws_ / ".hpcab-agent" / "mcp.json"));
  const json& server = claude["mcpServers"]["hpcab"];
  EXPECT_EQ(server["command"], c.tool_path);
  EXPECT_EQ(server["args"], json::array({"mcp"}));
  EXPECT_EQ(server["type"], "stdio");
  EXPECT_EQ(server["env"]["JUDGE_URL"], "http://127.0.0.1:8800");
  EXPECT_EQ(server["env"]["JUDGE_RANK"], "1");
  EXPECT_EQ(server["env"]["RUN_ID"], "arm/tsvc_2_s000/0#1");
  EXPECT_EQ(server["env"]["AGENT"], "claude-code");
  EXPECT_EQ(server["env"]["KERNEL"], "tsvc_2_s000");
  EXPECT_EQ(server["env"]["HPCAB_SUBMISSION_POLICY"], "single");
  EXPECT_TRUE(fs::is_directory(ws_ / ".hpcab-agent" / "claude"));

  c.kind = "openhands";
  ASSERT_TRUE(write_agent_files(c).ok());
  json oh = json::parse(slurp(ws_ / ".hpcab-agent" / "openhands" / "mcp.json"));
  EXPECT_EQ(oh["mcpServers"]["hpcab"]["command"], c.tool_path);
  EXPECT_EQ(oh["mcpServers"]["hpcab"]["env"]["HPCAB_TOOL_STATE"], ws_.string());

  c.kind = "codex";
  c.model = "gpt \"5\"";
  ASSERT_TRUE(write_agent_files(c).ok());
  std::string toml = slurp(ws_ / ".hpcab-agent" / "codex" / "config.toml");
  EXPECT_NE(toml.find("model = \"gpt \\\"5\\\"\"\n"), std::string::npos) << toml;
  EXPECT_NE(toml.find("model_provider = \"hpcab\"\n"), std::string::npos) << toml;
  EXPECT_NE(toml.find("[model_providers.hpcab]\n"), std::string::npos) << toml;
  EXPECT_NE(toml.find("base_url = \"http://127.0.0.1:41234/v1\"\n"), std::string::npos) << toml;
  EXPECT_NE(toml.find("env_key = \"OPENAI_API_KEY\"\n"), std::string::npos) << toml;
  EXPECT_NE(toml.find("[mcp_servers.hpcab]\ncommand = \"" + c.tool_path + "\"\nargs = [\"mcp\"]"),
            std::string::npos)
      << toml;
  EXPECT_NE(toml.find("\"HPCAB_SUBMISSION_POLICY\" = \"single\""), std::string::npos) << toml;
  // Top-level keys come before the first table, or TOML would put them in that table.
  EXPECT_LT(toml.find("sandbox_mode"), toml.find("[model_providers"));

  c.kind = "mini-swe-agent";
  c.model = "qwen3-coder";
  ASSERT_TRUE(write_agent_files(c).ok());
  std::string dotenv = slurp(ws_ / ".hpcab-agent" / "mini-swe-agent" / ".env");
  EXPECT_NE(dotenv.find("MSWEA_CONFIGURED='true'\n"), std::string::npos) << dotenv;
  EXPECT_NE(dotenv.find("OPENAI_API_BASE='http://127.0.0.1:41234/v1'\n"), std::string::npos)
      << dotenv;
  EXPECT_NE(dotenv.find("MSWEA_MODEL_NAME='openai/qwen3-coder'\n"), std::string::npos) << dotenv;

  // Kinds that need nothing write nothing.
  const fs::path empty = root_ / "empty";
  fs::create_directories(empty);
  for (const char* kind : {"command", "identity", "replay", "autopar-gcc", "autopar-polly"}) {
    auto b = context(kind);
    b.workspace = empty.string();
    ASSERT_TRUE(write_agent_files(b).ok()) << kind;
  }
  EXPECT_TRUE(fs::is_empty(empty));
}

}  // namespace
}  // namespace hpcab::harness
