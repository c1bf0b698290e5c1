// Real clients against the harness: the official openai and @anthropic-ai/sdk
// npm SDKs drive the metering proxy in front of the fake model, and Claude Code and Codex each
// run one episode through the harness's own agent kinds (their default command lines and
// environments, harness/agents.cc) against the scripted fake (call score, then submit, then
// text) and a real judge. Everything npm comes from tests/agent-clients/node_modules, which
// scripts/install-deps.sh installs with npm ci; nothing is downloaded here. Without node or the
// packages a test skips with the reason; with CI=true that is a failure.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "harness/arm.h"
#include "harness/daemon.h"
#include "harness/episode_db.h"
#include "harness/plan.h"
#include "harness/proxy.h"
#include "tests/harness/fake_llm.h"
#include "tests/judge/judge_process.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using judge::test::Judge;
using judge::test::slurp;

const fs::path kClients = HPCAB_AGENT_CLIENTS_DIR;
const std::string kBin = HPCAB_BINARY_DIR;
const std::string kReference =
    std::string(HPCAB_SOURCE_DIR) + "/tests/solutions/tsvc_2_s000_reference.c";

bool ci() {
  const char* v = std::getenv("CI");
  return v != nullptr && std::string(v) == "true";
}

// "" when node and every file in `need` (under tests/agent-clients) are there, else the reason.
std::string missing(const std::vector<std::string>& need) {
  if (std::system("command -v node >/dev/null 2>&1") != 0) {
    return "node is not installed (scripts/packages.txt: nodejs)";
  }
  for (const auto& f : need) {
    if (!fs::exists(kClients / f)) {
      return (kClients / f).string() + " is missing (run scripts/install-deps.sh: npm ci in " +
             kClients.string() + ")";
    }
  }
  return "";
}

#define REQUIRE_CLIENTS(...)                        \
  do {                                              \
    const std::string why = missing({__VA_ARGS__}); \
    if (!why.empty()) {                             \
      if (ci()) FAIL() << "CI=true, and " << why;   \
      GTEST_SKIP() << why;                          \
    }                                               \
  } while (0)

struct CommandRun {
  int exit_code = -1;
  std::string out;
};

// Runs a shell command line, stdout and stderr together.
CommandRun run_command(const std::string& command) {
  CommandRun r;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;)
    r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// The SDKs through the proxy: every call answered as the SDK expects, and the proxy's totals
// equal to what the fake reported.
TEST(AgentClients, OfficialSdksThroughTheProxyAreMeteredExactly) {
  REQUIRE_CLIENTS("node_modules/openai/package.json",
                  "node_modules/@anthropic-ai/sdk/package.json");
  test::FakeLlm fake;
  fake.start();
  fake.set_script({{"score", {{"source", "int k;"}}}});
  ProxyOptions opt;
  opt.upstream_url = fake.url() + "/v1";
  MeteringProxy proxy(opt, nullptr);
  auto port = proxy.start();
  ASSERT_TRUE(port.ok()) << port.error().message;
  proxy.set_episode("sdk", 0);
  const CommandRun r = run_command("node " + (kClients / "sdk_clients_test.mjs").string() +
                                   " http://127.0.0.1:" + std::to_string(*port));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json summary = json::parse(r.out.substr(r.out.rfind("{\"calls\"")));
  EXPECT_EQ(summary["calls"], 11);
  const auto f = fake.totals();
  const auto t = proxy.totals("sdk");
  EXPECT_EQ(f.requests, 11);
  EXPECT_EQ(fake.count_tokens_answers(), 1);
  EXPECT_EQ(fake.script_calls(), 3);  // one per API's tool call
  EXPECT_EQ(t.requests, f.requests + fake.count_tokens_answers());
  EXPECT_EQ(t.usage.input, f.input);
  EXPECT_EQ(t.usage.cached, f.cached);
  EXPECT_EQ(t.usage.output, f.output);
  EXPECT_GT(f.output, 0);
}

class AgentCliE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-agent-cli-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    const char* path = std::getenv("PATH");
    old_path_ = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    // The harness's default command lines call `claude` and `codex` from PATH (the daemon passes
    // PATH on to the agent).
    ::setenv("PATH", ((kClients / "node_modules/.bin").string() + ":" + old_path_).c_str(), 1);
  }
  void TearDown() override {
    ::setenv("PATH", old_path_.c_str(), 1);
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // One episode of `agent` on tsvc_2_s000 against the scripted fake and a real judge; checks
  // the judge recorded the submission under the episode's run id and the metered tokens equal
  // the fake's totals. Returns the last request body the model got (the whole conversation).
  std::string Episode(const std::string& agent, const std::string& extra_arm_lines = "") {
    std::string last_body;
    EpisodeChecks(agent, extra_arm_lines, &last_body);
    return last_body;
  }
  void EpisodeChecks(const std::string& agent, const std::string& extra_arm_lines,
                     std::string* last_body) {
    Judge j;
    test::FakeLlm model;
    model.start();
    const std::string source = slurp(kReference);
    model.set_script({{"score", {{"source", source}}}, {"submit", {{"source", source}}}},
                     "Submitted the reference.");
    const fs::path arm_file = dir_ / "arm.env";
    std::ofstream(arm_file) << "NAME=" << agent << "\nKERNELS=tsvc_2_s000\nAGENT=" << agent
                            << "\nMODEL=fake-model\nWALL_BUDGET_S=300\nINFERENCE_URLS="
                            << model.url() << "\nJUDGE_URLS=" << j.url() << "\n"
                            << extra_arm_lines << "STATE_DB=" << (dir_ / "harness.db").string()
                            << "\n";
    auto arm = load_arm(arm_file);
    ASSERT_TRUE(arm) << arm.error().message;
    DaemonOptions o;
    o.workspace_root = dir_ / "ws";
    o.tool_path = kBin + "/hpcab-tool";
    o.corpus_dir = default_corpus_dir();
    o.term_grace_s = 2;
    o.judge_timeout_s = 120;
    std::ostringstream log;
    o.log = &log;
    auto s = run_arm(*arm, o);
    ASSERT_TRUE(s) << s.error().message;
    auto db = EpisodeDb::open((dir_ / "harness.db").string());
    ASSERT_TRUE(db);
    auto rows = (*db)->list(agent);
    ASSERT_TRUE(rows);
    ASSERT_EQ(rows->size(), 1u);
    const EpisodeRow& r = (*rows)[0];
    const std::string agent_log = AgentLogs();
    EXPECT_EQ(r.exit_reason, "submitted") << log.str() << agent_log;
    EXPECT_EQ(model.script_calls(), 2) << "the agent called score and submit once each\n"
                                       << agent_log;
    ASSERT_TRUE(r.final_submission_id.has_value()) << log.str() << agent_log;
    EXPECT_EQ(r.final_verdict, "ok");
    // The judge recorded it under the episode's run id (the harness's "<episode>#<attempt>").
    const std::string run_id = r.id + "#" + std::to_string(r.attempt);
    auto page = j.get("/results?run_id=" + r.id + "%23" + std::to_string(r.attempt));
    EXPECT_EQ(page.status, 200) << page.body;
    EXPECT_NE(page.body.find(run_id), std::string::npos) << page.body;
    EXPECT_NE(page.body.find("results/" + std::to_string(*r.final_submission_id) + "/source"),
              std::string::npos)
        << page.body;
    // Every token the model reported was metered to this episode, and nothing else.
    const auto t = model.totals();
    EXPECT_GE(t.requests, 3);  // score, submit, the final text (plus any side requests)
    EXPECT_EQ(r.input_tokens, t.input);
    EXPECT_EQ(r.cached_tokens, t.cached);
    EXPECT_EQ(r.output_tokens, t.output);
    *last_body = model.last_body();
  }

  // The agents' own output, for failure messages.
  std::string AgentLogs() const {
    std::string out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir_ / "ws", ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const auto name = it->path().filename().string();
      if (it->is_regular_file() &&
          (name.find(".log") != std::string::npos || name.find("stdout") != std::string::npos ||
           name.find("stderr") != std::string::npos)) {
        std::string text = slurp(it->path());
        if (text.size() > 4000) text = text.substr(text.size() - 4000);
        out += "\n--- " + it->path().string() + "\n" + text;
      }
    }
    return out;
  }

  fs::path dir_;
  std::string old_path_;
};

TEST_F(AgentCliE2E, ClaudeCodeRunsAnEpisodeThroughTheHarness) {
  REQUIRE_CLIENTS("node_modules/.bin/claude");
  // The kind's default command line and environment: the harness sets ENABLE_TOOL_SEARCH=false,
  // without which Claude Code 2.1 offers no mcp__hpcab__* tool to the (fake) model at all.
  Episode("claude-code");
}

// A skill packet and a prompt variant of deploy/arms reach the model through a real agent CLI:
// the compact prompt's text and the packet's listing are in the conversation the model gets.
TEST_F(AgentCliE2E, ClaudeCodeShowsTheModelASkillPacketAndTheCompactPrompt) {
  REQUIRE_CLIENTS("node_modules/.bin/claude");
  const std::string arms = std::string(HPCAB_SOURCE_DIR) + "/deploy/arms";
  const std::string body =
      Episode("claude-code", "SKILLS=" + arms + "/skills/c-openmp\nPROMPT_FRAGMENTS=compact\n" +
                                 "PROMPT_FRAGMENTS_DIR=" + arms + "/fragments\n");
  EXPECT_NE(body.find("definition of correct"), std::string::npos) << body.substr(0, 4000);
  EXPECT_NE(body.find("skills/SKILL.md"), std::string::npos) << body.substr(0, 4000);
  EXPECT_EQ(body.find("## NumPy reference"), std::string::npos);  // the base prompt's heading
}

// The paper's one-component interventions with a real agent CLI: `hpcab-harness experiment`
// derives from a Claude Code control (base prompt, the four default tools) one treatment each
// with profile on, search on, a skill packet and the compact prompt; one scripted model serves
// them all (it calls search and profile where they are offered, then score and submit), and
// `hpcab report compare` prints an efficacy row per treatment from the experiment record alone.
TEST_F(AgentCliE2E, ClaudeCodeExperimentTogglesProfileSearchASkillAndAPromptVariant) {
  REQUIRE_CLIENTS("node_modules/.bin/claude");
  Judge j;
  test::FakeLlm model;
  model.start();
  const std::string source = slurp(kReference);
  model.set_script({{"search", {{"query", "tsvc s000 vectorize"}}},
                    {"profile", {{"source", source}}},
                    {"score", {{"source", source}}},
                    {"submit", {{"source", source}}}},
                   "Submitted the reference.", /*skip_unoffered=*/true);
  const std::string arms = std::string(HPCAB_SOURCE_DIR) + "/deploy/arms";
  const fs::path control = dir_ / "exp.env";
  std::ofstream(control) << "NAME=exp\nKERNELS=tsvc_2_s000\nAGENT=claude-code\nMODEL=fake-model\n"
                         << "WALL_BUDGET_S=300\nINFERENCE_URLS=" << model.url()
                         << "\nJUDGE_URLS=" << j.url() << "\nSEARCH_URL=" << model.url()
                         << "/search\nSEARCH_DOMAINS=gcc.gnu.org,python.org\nSTATE_DB="
                         << (dir_ / "harness.db").string() << "\n";
  const fs::path out = dir_ / "exp";
  const std::string tools = "TOOLS=task,baseline,score,submit";
  const CommandRun run = run_command(
      kBin + "/hpcab-harness experiment " + control.string() + " --vary " + tools +
      ",profile --vary " + tools + ",search --vary SKILLS=" + arms +
      "/skills/c-openmp --vary PROMPT_FRAGMENTS=compact --out " + out.string() + " --workspaces " +
      (dir_ / "ws").string() + " --judge-db " + (j.state() / "judge.db").string() + " --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.out << AgentLogs();
  // Every arm submitted: 2 scripted calls each, plus profile and search in their treatments.
  EXPECT_EQ(model.script_calls(), 5 * 2 + 2) << run.out << AgentLogs();
  EXPECT_EQ(model.search_queries(), (std::vector<std::string>{"tsvc s000 vectorize"}));

  // The treatments as the experiment record names them (SKILLS' name holds the path).
  const json e = json::parse(slurp(out / "experiment.json"));
  std::map<std::string, std::string> arm_of;  // "KEY=VALUE" -> treatment arm
  for (const auto& t : e["treatments"]) {
    arm_of[t["vary"]["key"].get<std::string>() + "=" + t["vary"]["value"].get<std::string>()] =
        t["arm"].get<std::string>();
  }
  ASSERT_EQ(arm_of.size(), 4u) << e.dump();
  const std::string search_arm = arm_of[tools + ",search"];
  auto db = EpisodeDb::open((dir_ / "harness.db").string());
  ASSERT_TRUE(db);
  std::vector<std::string> all = {"exp"};
  for (const auto& [vary, arm] : arm_of) all.push_back(arm);
  for (const std::string& arm : all) {
    auto rows = (*db)->list(arm);
    ASSERT_TRUE(rows && rows->size() == 1u) << arm << "\n" << run.out;
    EXPECT_EQ((*rows)[0].exit_reason, "submitted") << arm << AgentLogs();
    EXPECT_EQ((*rows)[0].final_verdict, "ok") << arm;
    auto searches = (*db)->searches((*rows)[0].id);
    ASSERT_TRUE(searches);
    EXPECT_EQ(searches->size(), arm == search_arm ? 1u : 0u) << arm;
  }
  // The skill packet and the compact prompt reached their treatments' workspaces only.
  const fs::path attempt = fs::path("tsvc_2_s000") / "0" / "attempt-1";
  const std::string skills_arm = arm_of["SKILLS=" + arms + "/skills/c-openmp"];
  EXPECT_TRUE(fs::exists(dir_ / "ws" / skills_arm / attempt / "skills" / "SKILL.md"));
  EXPECT_FALSE(fs::exists(dir_ / "ws" / "exp" / attempt / "skills"));
  const std::string compact =
      slurp(dir_ / "ws" / arm_of["PROMPT_FRAGMENTS=compact"] / attempt / "PROMPT.md");
  EXPECT_EQ(compact.find("## NumPy reference"), std::string::npos) << compact;  // base's heading
  EXPECT_NE(slurp(dir_ / "ws" / "exp" / attempt / "PROMPT.md").find("## NumPy reference"),
            std::string::npos);

  const CommandRun cmp =
      run_command(kBin + "/hpcab report compare " + (out / "experiment.json").string());
  ASSERT_EQ(cmp.exit_code, 0) << cmp.out;
  for (const auto& [vary, arm] : arm_of) {
    EXPECT_NE(cmp.out.find(arm + " vs exp: 1 pair"), std::string::npos) << arm << "\n" << cmp.out;
  }
  std::cout << cmp.out;  // the efficacy rows, for the log
}

TEST_F(AgentCliE2E, CodexRunsAnEpisodeThroughTheHarness) {
  REQUIRE_CLIENTS("node_modules/.bin/codex");
  Episode("codex");
}

}  // namespace
}  // namespace hpcab::harness
