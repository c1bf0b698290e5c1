// Interventions as arm components: the new arm keys and their checks, the
// prompt they compose (tools paragraph, fragments, skills), the agent settings in each kind's
// command line, the two token-budget conventions, the tool policy as hpcab-tool's MCP server
// enforces it, and the treatment arms an experiment derives from a control.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "harness/agents.h"
#include "harness/arm.h"
#include "harness/experiment.h"
#include "harness/judge_client.h"
#include "harness/mcp.h"
#include "harness/plan.h"
#include "harness/schema.h"
#include "harness/tool_policy.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class TempDir {
 public:
  TempDir() {
    std::string t = (fs::temp_directory_path() / "hpcab-interv-test-XXXXXX").string();
    path_ = mkdtemp(t.data());
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const std::string kBase = "NAME=x\nKERNELS=tsvc_2_s000\nAGENT=identity\n";
const std::string kClaude =
    "NAME=cc\nKERNELS=tsvc_2_s000\nAGENT=claude-code\nMODEL=m\nINFERENCE_URLS=http://h:1\n";

Arm parse_ok(const std::string& text) {
  auto a = parse_arm(text, "arm.env", "/arms");
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message);
  return a.ok() ? *a : Arm{};
}

std::string parse_error(const std::string& text) {
  auto a = parse_arm(text, "arm.env", "/arms");
  EXPECT_FALSE(a.ok()) << text;
  return a.ok() ? "" : a.error().message;
}

TEST(Interventions, ArmKeysParseWithDefaults) {
  Arm d = parse_ok(kBase);
  EXPECT_TRUE(d.tools.empty());
  EXPECT_EQ(d.tool_names(), (std::vector<std::string>{"task", "baseline", "score", "submit"}));
  EXPECT_EQ(d.token_budget_kind, "weighted");
  EXPECT_EQ(d.prompt_fragments_dir, default_fragments_dir());
  EXPECT_TRUE(d.agent_settings.disallowed_tools.empty());

  Arm a = parse_ok(kBase +
                   "TOOLS=submit, task\nTOKEN_BUDGET=100\nTOKEN_BUDGET_KIND=total\n"
                   "PROMPT_FRAGMENTS=base,hints\nPROMPT_FRAGMENTS_DIR=frag\nSKILLS=sk\n");
  EXPECT_EQ(a.tools, (std::vector<std::string>{"task", "submit"}));  // kToolNames order
  EXPECT_EQ(a.token_budget_kind, "total");
  EXPECT_EQ(a.prompt_fragments, (std::vector<std::string>{"base", "hints"}));
  EXPECT_EQ(a.prompt_fragments_dir, fs::path("/arms/frag"));
  EXPECT_EQ(a.skills_dir, fs::path("/arms/sk"));

  // Claude Code: web tools off by default (the paper's runs); an arm may say otherwise.
  Arm c = parse_ok(kClaude + "AGENT_MAX_TURNS=50\n");
  EXPECT_EQ(c.agent_settings.disallowed_tools, (std::vector<std::string>{"WebFetch", "WebSearch"}));
  EXPECT_EQ(c.agent_settings.max_turns, 50);
  EXPECT_TRUE(
      parse_ok(kClaude + "AGENT_DISALLOWED_TOOLS=none\n").agent_settings.disallowed_tools.empty());
  EXPECT_EQ(parse_ok(kClaude + "AGENT_DISALLOWED_TOOLS=Bash(rm:*),WebFetch\n")
                .agent_settings.disallowed_tools,
            (std::vector<std::string>{"Bash(rm:*)", "WebFetch"}));

  // JSON arms take the same keys in lower case, lists as arrays.
  auto j = parse_arm(
      R"({"name": "j", "kernels": ["tsvc_2_s000"], "agent": "identity",
          "tools": ["task", "submit"], "token_budget_kind": "total"})",
      "arm.json", "/arms");
  ASSERT_TRUE(j.ok()) << j.error().message;
  EXPECT_EQ(j->tools, (std::vector<std::string>{"task", "submit"}));
}

TEST(Interventions, BadArmValuesAreRefusedWithTheReason) {
  EXPECT_NE(parse_error(kBase + "TOOLS=task,grep\n").find("unknown tool 'grep'"),
            std::string::npos);
  EXPECT_NE(parse_error(kBase + "TOOLS=task,task\n").find("twice"), std::string::npos);
  EXPECT_NE(parse_error(kBase + "TOKEN_BUDGET_KIND=cheap\n").find("weighted"), std::string::npos);
  EXPECT_NE(parse_error(kBase + "PROMPT_FRAGMENTS=base\nPROMPT_TEMPLATE=p.md\n")
                .find("exclude each other"),
            std::string::npos);
  EXPECT_NE(parse_error(kBase + "PROMPT_FRAGMENTS=Base\n").find("lower-case"), std::string::npos);
  EXPECT_NE(parse_error(kBase + "PROMPT_FRAGMENTS_DIR=f\n").find("PROMPT_FRAGMENTS is required"),
            std::string::npos);
  // Settings a kind's CLI cannot take are refused, not dropped.
  EXPECT_NE(parse_error(kBase + "AGENT_MAX_TURNS=5\n").find("not supported for AGENT=identity"),
            std::string::npos);
  const std::string codex =
      "NAME=cx\nKERNELS=tsvc_2_s000\nAGENT=codex\nMODEL=m\nINFERENCE_URLS=http://h:1\n";
  EXPECT_NE(parse_error(codex + "AGENT_MAX_TURNS=5\n").find("no turn cap"), std::string::npos);
  EXPECT_NE(parse_error(codex + "AGENT_DISALLOWED_TOOLS=WebFetch\n").find("only web_search"),
            std::string::npos);
  EXPECT_NE(parse_error(kClaude + "AGENT_ARGS=--x\nAGENT_COMMAND=claude -p hi\n")
                .find("exclude each other"),
            std::string::npos);
  EXPECT_NE(parse_error(kClaude + "AGENT_ARGS=--dir {nope}\n").find("{nope}"), std::string::npos);
}

TEST(Interventions, LoadArmChecksFragmentsAndSkillsExist) {
  TempDir t;
  write(t.path() / "a.env", kBase + "PROMPT_FRAGMENTS=base,missing\n");
  auto a = load_arm(t.path() / "a.env");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("fragment 'missing'"), std::string::npos);
  write(t.path() / "b.env", kBase + "SKILLS=nowhere\n");
  auto b = load_arm(t.path() / "b.env");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("SKILLS"), std::string::npos);
  write(t.path() / "c.env", kBase + "PROMPT_FRAGMENTS=base,hardware\n");
  EXPECT_TRUE(load_arm(t.path() / "c.env").ok());  // the shipped fragments
}

TEST(Interventions, ShippedBaseFragmentIsTheBuiltInTemplate) {
  EXPECT_EQ(slurp(default_fragments_dir() / "base.md"), std::string(kDefaultPromptTemplate));
}

TEST(Interventions, FragmentsComposeTheTemplateInOrder) {
  TempDir t;
  write(t.path() / "f" / "one.md", "first {kernel}\n\n\n");
  write(t.path() / "f" / "two.md", "second\n");
  Arm a = parse_ok(
      kBase + "PROMPT_FRAGMENTS=two,one\nPROMPT_FRAGMENTS_DIR=" + (t.path() / "f").string() + "\n");
  auto text = prompt_template_text(a);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, "second\n\nfirst {kernel}\n\n\n");
  Arm none = parse_ok(kBase);
  EXPECT_EQ(*prompt_template_text(none), std::string(kDefaultPromptTemplate));
}

TEST(Interventions, ToolsParagraphDescribesOnlyTheArmsTools) {
  const std::string all = tools_text("single");
  EXPECT_NE(all.find("hpcab-tool score"), std::string::npos);
  EXPECT_NE(all.find("MCP tools: task, baseline, score, submit."), std::string::npos);
  // The blind setup: no score tool, one submission.
  const std::string blind = tools_text("single", {"task", "baseline", "submit"});
  EXPECT_EQ(blind.find("hpcab-tool score"), std::string::npos);
  EXPECT_NE(blind.find("MCP tools: task, baseline, submit."), std::string::npos);
  EXPECT_NE(blind.find("no score tool"), std::string::npos);
  EXPECT_NE(blind.find("submit once"), std::string::npos);
  EXPECT_EQ(blind.find("score until"), std::string::npos);
  const std::string probes = tools_text("multiple", {"task", "submit", "profile", "syntax-check"});
  EXPECT_NE(probes.find("hpcab-tool profile FILE"), std::string::npos);
  EXPECT_NE(probes.find("hpcab-tool syntax-check FILE"), std::string::npos);
  EXPECT_NE(probes.find("MCP tools: task, submit, profile, syntax-check."), std::string::npos);
  EXPECT_EQ(all.find("hpcab-tool profile"), std::string::npos);  // off by default
}

// The shipped skill packets (deploy/arms/skills/<packet>/SKILL.md): each names itself and says
// in one line what it is for (the front matter agents such as Claude Code index skills by), and
// has real content. The shipped prompt variants render with every placeholder filled.
TEST(Interventions, ShippedSkillPacketsAndPromptVariantsAreComplete) {
  const fs::path arms = fs::path(HPCAB_SOURCE_DIR) / "deploy" / "arms";
  std::vector<std::string> packets;
  for (const auto& e : fs::directory_iterator(arms / "skills")) {
    packets.push_back(e.path().filename().string());
    const std::string text = slurp(e.path() / "SKILL.md");
    EXPECT_EQ(text.rfind("---\nname: " + packets.back() + "\ndescription: ", 0), 0u)
        << packets.back();
    EXPECT_GE(std::count(text.begin(), text.end(), '\n'), 12) << packets.back();
    auto listed = list_skills(e.path());
    ASSERT_TRUE(listed.ok());
    EXPECT_EQ(*listed, std::vector<std::string>{"skills/SKILL.md"});
  }
  std::sort(packets.begin(), packets.end());
  EXPECT_EQ(packets, (std::vector<std::string>{"c-openmp", "cpp", "cuda", "fortran", "gpu", "hip",
                                               "perf-toolkit", "python-numba"}));
  json task = {{"kernel", "gemm"},
               {"signature", "void gemm_fp64(...);"},
               {"reference_numpy", "def gemm(): pass"},
               {"abi_doc", "ABI TEXT"}};
  Budget b;
  std::map<std::string, std::size_t> sizes;
  for (const char* variant : {"base", "compact", "terse"}) {
    const std::string templ = slurp(arms / "fragments" / (std::string(variant) + ".md"));
    auto prompt =
        render_prompt(templ, task, "c", b, "single", {"task", "submit"}, {"skills/SKILL.md"});
    ASSERT_TRUE(prompt.ok()) << variant << ": " << prompt.error().message;
    EXPECT_NE(prompt->find("gemm"), std::string::npos) << variant;
    EXPECT_FALSE(std::regex_search(*prompt, std::regex(R"(\{[a-z_]+\})"))) << variant << *prompt;
    EXPECT_NE(prompt->find("skills/SKILL.md"), std::string::npos) << variant;
    sizes[variant] = prompt->size();
  }
  EXPECT_LT(sizes["compact"], sizes["base"]);
  EXPECT_LT(sizes["terse"], sizes["compact"]);
}

TEST(Interventions, SkillsAreCopiedReadOnlyAndNamedInThePrompt) {
  TempDir t;
  write(t.path() / "skills-src" / "openmp" / "SKILL.md", "use omp\n");
  write(t.path() / "skills-src" / "notes.txt", "n\n");
  fs::create_directories(t.path() / "ws");
  auto listed = list_skills(t.path() / "skills-src");
  ASSERT_TRUE(listed.ok());
  auto copied = install_skills(t.path() / "skills-src", t.path() / "ws");
  ASSERT_TRUE(copied.ok()) << copied.error().message;
  EXPECT_EQ(*copied, (std::vector<std::string>{"skills/notes.txt", "skills/openmp/SKILL.md"}));
  EXPECT_EQ(*listed, *copied);
  EXPECT_EQ(slurp(t.path() / "ws" / "skills" / "openmp" / "SKILL.md"), "use omp\n");
  const auto perms = fs::status(t.path() / "ws" / "skills" / "notes.txt").permissions();
  EXPECT_EQ(perms & (fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write),
            fs::perms::none);
  // A second install into the same workspace is refused.
  EXPECT_FALSE(install_skills(t.path() / "skills-src", t.path() / "ws").ok());

  json task = {{"kernel", "k"}, {"signature", "sig"}, {"reference_numpy", "ref"}, {"abi_doc", "a"}};
  Budget b;
  auto appended = render_prompt("T {kernel}", task, "c", b, "single", {}, *copied);
  ASSERT_TRUE(appended.ok());
  EXPECT_EQ(appended->rfind("T k\n\n## Skills\n", 0), 0u) << *appended;
  EXPECT_NE(appended->find("- `skills/openmp/SKILL.md`"), std::string::npos);
  auto placed = render_prompt("{skills}END", task, "c", b, "single", {}, *copied);
  ASSERT_TRUE(placed.ok());
  EXPECT_EQ(placed->rfind("## Skills", 0), 0u);
  EXPECT_NE(placed->find("END"), std::string::npos);
  auto without = render_prompt("T {skills}|", task, "c", b, "single", {}, {});
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(*without, "T |");
  EXPECT_NE(skills_text({"a", "b", "c"}, 2).find("and 1 more files"), std::string::npos);
}

TEST(Interventions, TokenBudgetConventions) {
  Arm w = parse_ok(kBase + "TOKEN_BUDGET=1000\nTOKEN_WEIGHTS=1,0.1,2\nLIMIT_RERUN_FACTOR=3\n");
  Budget bw = episode_budget(w);
  EXPECT_EQ(bw.kind, "weighted");
  EXPECT_DOUBLE_EQ(bw.budget_weights().output, 2.0);
  EXPECT_DOUBLE_EQ(bw.budget_weights().cached, 0.1);
  EXPECT_NE(budget_sentence(bw).find("1000 weighted tokens"), std::string::npos);

  Arm t = parse_ok(kBase + "TOKEN_BUDGET=1000\nTOKEN_WEIGHTS=1,0.1,2\nTOKEN_BUDGET_KIND=total\n");
  Budget bt = episode_budget(t);
  // Total tokens: every kind counts 1 toward the budget; the recorded weights are unchanged.
  const TokenWeights tw = bt.budget_weights();
  EXPECT_DOUBLE_EQ(tw.input, 1.0);
  EXPECT_DOUBLE_EQ(tw.cached, 1.0);
  EXPECT_DOUBLE_EQ(tw.output, 1.0);
  EXPECT_DOUBLE_EQ(bt.weights.output, 2.0);
  TokenUsage u{100, 50, 10, true};
  EXPECT_DOUBLE_EQ(tw.cost(u), 160.0);
  EXPECT_NE(budget_sentence(bt).find("1000 tokens (input, cached input and output tokens each "
                                     "count 1)"),
            std::string::npos);
  // The rerun rule is the same in both conventions: the budget times LIMIT_RERUN_FACTOR.
  EXPECT_EQ(episode_budget(t, 3.0).tokens, 3000);
  EXPECT_EQ(episode_budget(t, 3.0).kind, "total");
}

AgentContext context(const std::string& kind, const Arm& arm) {
  AgentContext c;
  c.kind = kind;
  c.agent_command = arm.agent_command;
  c.max_turns = arm.agent_settings.max_turns;
  c.disallowed_tools = arm.agent_settings.disallowed_tools;
  c.extra_args = arm.agent_settings.extra_args;
  c.workspace = "/ws";
  c.prompt_file = "/ws/PROMPT.md";
  c.prompt = "do it";
  c.kernel = "k";
  c.language = "c";
  c.model = "m";
  c.model_url = "http://127.0.0.1:9";
  c.judge_url = "http://j:1";
  c.run_id = "r#1";
  c.tool_path = "/bin/hpcab-tool";
  return c;
}

TEST(Interventions, AgentSettingsInEachKindsCommandLine) {
  Arm c = parse_ok(kClaude + "AGENT_MAX_TURNS=40\nAGENT_ARGS=--effort high\n");
  auto line = agent_command_line(context("claude-code", c));
  ASSERT_TRUE(line.ok()) << line.error().message;
  EXPECT_NE(line->find(" --disallowedTools 'WebFetch,WebSearch' --max-turns 40 --effort high < "
                       "/dev/null"),
            std::string::npos)
      << *line;
  EXPECT_NE(line->find("--mcp-config '/ws'/.hpcab-agent/mcp.json --strict-mcp-config"),
            std::string::npos);
  Arm open = parse_ok(kClaude + "AGENT_DISALLOWED_TOOLS=none\n");
  EXPECT_EQ(agent_command_line(context("claude-code", open))->find("--disallowedTools"),
            std::string::npos);

  const std::string mini =
      "NAME=mi\nKERNELS=tsvc_2_s000\nAGENT=mini-swe-agent\nMODEL=m\nINFERENCE_URLS=http://h:1\n";
  auto ml = agent_command_line(context("mini-swe-agent", parse_ok(mini + "AGENT_MAX_TURNS=7\n")));
  ASSERT_TRUE(ml.ok());
  EXPECT_NE(ml->find("-c mini.yaml -c agent.step_limit=7"), std::string::npos) << *ml;

  // Codex: web search off in its config (the default), extra args before the stdin redirect.
  const std::string codex =
      "NAME=cx\nKERNELS=tsvc_2_s000\nAGENT=codex\nMODEL=m\nINFERENCE_URLS=http://h:1\n";
  TempDir t;
  Arm cx = parse_ok(codex + "AGENT_ARGS=--ephemeral\n");
  AgentContext cc = context("codex", cx);
  cc.workspace = t.path().string();
  auto cl = agent_command_line(cc);
  ASSERT_TRUE(cl.ok());
  EXPECT_NE(cl->find(" --ephemeral < /dev/null"), std::string::npos) << *cl;
  ASSERT_TRUE(write_agent_files(cc).ok());
  const std::string toml = slurp(t.path() / ".hpcab-agent" / "codex" / "config.toml");
  EXPECT_NE(toml.find("web_search = \"disabled\""), std::string::npos);
  // Root keys come before the first table (TOML).
  EXPECT_LT(toml.find("web_search"), toml.find("[model_providers"));
  Arm cx_web = parse_ok(codex + "AGENT_DISALLOWED_TOOLS=none\n");
  AgentContext cw = context("codex", cx_web);
  cw.workspace = (t.path() / "w2").string();
  ASSERT_TRUE(write_agent_files(cw).ok());
  EXPECT_EQ(slurp(t.path() / "w2" / ".hpcab-agent" / "codex" / "config.toml").find("web_search"),
            std::string::npos);

  // An AGENT_COMMAND is used as written: no settings are added to it.
  Arm own = parse_ok(kClaude + "AGENT_COMMAND=claude -p {prompt}\n");
  EXPECT_EQ(*agent_command_line(context("claude-code", own)), "claude -p 'do it'");
}

TEST(ToolPolicy, ParsesAndRefusesWithCodes) {
  auto s = parse_tool_set("submit,profile,task", "TOOLS");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->text(), "task,submit,profile");
  std::string why;
  EXPECT_EQ(s->check("task", &why), ToolRefusal::kNone);
  EXPECT_EQ(s->check("score", &why), ToolRefusal::kNotAllowed);
  EXPECT_NE(why.find("TOOLS=task,submit,profile"), std::string::npos);
  EXPECT_EQ(s->check("profile", &why), ToolRefusal::kNone);
  EXPECT_EQ(s->check("syntax-check", &why), ToolRefusal::kNotAllowed);
  EXPECT_FALSE(parse_tool_set("", "TOOLS").ok());
  EXPECT_FALSE(parse_tool_set("task,ls", "TOOLS").ok());
}

json request(int id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

TEST(ToolPolicy, McpServerListsAndServesOnlyTheAllowedTools) {
  TempDir dir;
  std::mutex mu;
  std::vector<std::string> urls;
  Transport transport = [&](const std::string&, const std::string& url,
                            const std::string&) -> Result<HttpResult> {
    std::lock_guard lock(mu);
    urls.push_back(url);
    HttpResult r;
    r.status = 200;
    r.body = json{{"verdict", "ok"}, {"speedup", 1.0}, {"submission_id", 1}}.dump();
    return r;
  };
  JudgeSettings js;
  js.url = "http://judge.invalid:8800";
  js.state_dir = dir.path().string();
  js.outage.wait_s = 0;
  JudgeClient client(js, transport);
  auto tools = parse_tool_set("task,baseline,submit,syntax-check,profile,search", "TOOLS");
  ASSERT_TRUE(tools.ok());
  McpServer server(client, {"tsvc_2_s000", "c", *tools});
  ASSERT_TRUE(server.handle(request(1, "initialize",
                                    {{"protocolVersion", "2025-06-18"},
                                     {"capabilities", json::object()},
                                     {"clientInfo", {{"name", "t"}, {"version", "1"}}}})));
  auto list = server.handle(request(2, "tools/list"));
  ASSERT_TRUE(list);
  std::vector<std::string> names;
  for (const auto& t : (*list)["result"]["tools"]) names.push_back(t["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"task", "baseline", "submit", "profile",
                                             "syntax-check", "search"}));
  // search goes to HPCAB_SEARCH_URL, never to the judge: without one it is a tool error.
  auto search = server.handle(
      request(4, "tools/call", {{"name", "search"}, {"arguments", {{"query", "x"}}}}));
  ASSERT_TRUE(search && search->contains("result")) << search->dump();
  EXPECT_TRUE((*search)["result"]["isError"].get<bool>()) << search->dump();
  auto bad =
      server.handle(request(6, "tools/call", {{"name", "search"}, {"arguments", {{"query", 3}}}}));
  ASSERT_TRUE(bad && bad->contains("result"));
  EXPECT_TRUE((*bad)["result"]["isError"].get<bool>());

  auto score = server.handle(
      request(3, "tools/call", {{"name", "score"}, {"arguments", {{"source", "void f(void){}"}}}}));
  ASSERT_TRUE(score);
  ASSERT_TRUE(score->contains("error")) << score->dump();
  EXPECT_NE((*score)["error"]["message"].get<std::string>().find("not available in this arm"),
            std::string::npos);
  {
    std::lock_guard lock(mu);
    EXPECT_TRUE(urls.empty());  // nothing reached the judge
  }
  auto submit = server.handle(request(
      5, "tools/call", {{"name", "submit"}, {"arguments", {{"source", "void f(void){}"}}}}));
  ASSERT_TRUE(submit && submit->contains("result")) << submit->dump();
  std::lock_guard lock(mu);
  ASSERT_EQ(urls.size(), 1u);
  EXPECT_NE(urls[0].find("/submit"), std::string::npos);
}

TEST(Experiment, VariationsAndNames) {
  auto v = parse_variation("agent=autopar-gcc");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->key, "AGENT");
  EXPECT_EQ(treatment_name("ctl", *v), "ctl.agent-autopar-gcc");
  EXPECT_EQ(treatment_name("ctl", {"TOOLS", "task, baseline,submit"}),
            "ctl.tools-task-baseline-submit");
  EXPECT_FALSE(parse_variation("AGENT").ok());
  auto infra = parse_variation("KERNELS=all");
  ASSERT_FALSE(infra.ok());
  EXPECT_NE(infra.error().message.find("not a component"), std::string::npos);
}

TEST(Experiment, TreatmentsDifferFromTheControlInExactlyTheVariedKey) {
  TempDir t;
  write(t.path() / "arms" / "frag" / "base.md", "{kernel}\n");
  write(t.path() / "arms" / "ctl.env",
        "NAME=ctl\nKERNELS=tsvc_2_s000\nAGENT=identity\nPROMPT_FRAGMENTS=base\n"
        "PROMPT_FRAGMENTS_DIR=frag\nSTATE_DB=" +
            (t.path() / "h.db").string() + "\n");
  auto e = plan_experiment(t.path() / "arms" / "ctl.env",
                           {{"AGENT", "autopar-gcc"}, {"TOOLS", "task,baseline,submit"}},
                           t.path() / "out", "", default_corpus_dir());
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->name, "ctl.experiment");
  ASSERT_EQ(e->treatments.size(), 2u);
  ASSERT_TRUE(write_experiment(*e).ok());

  auto entries_of = [](const fs::path& p) {
    auto en = arm_entries(slurp(p), p.string());
    EXPECT_TRUE(en.ok());
    std::map<std::string, std::string> m;
    if (en.ok()) {
      for (auto& [k, v] : *en) m[k] = v;
    }
    return m;
  };
  auto control = entries_of(t.path() / "arms" / "ctl.env");
  for (const auto& tr : e->treatments) {
    ASSERT_TRUE(fs::exists(tr.file)) << tr.file;
    auto m = entries_of(tr.file);
    std::vector<std::string> differing;
    for (const auto& [k, v] : m) {
      auto it = control.find(k);
      std::string before = it == control.end() ? "" : it->second;
      if (k == "PROMPT_FRAGMENTS_DIR") before = (t.path() / "arms" / "frag").string();
      if (v != before) differing.push_back(k);
    }
    std::vector<std::string> expected = {"NAME", tr.vary.key};
    std::sort(expected.begin(), expected.end());  // `differing` is in key order (a map)
    EXPECT_EQ(differing, expected) << tr.name;
    auto loaded = load_arm(tr.file);  // the relative fragments folder still resolves
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->name, tr.name);
  }
  const json j = json::parse(slurp(e->file));
  namespace x = schema::experiment;
  EXPECT_EQ(j[x::kControl][x::kArm], "ctl");
  EXPECT_EQ(j[x::kTreatments][0][x::kArm], "ctl.agent-autopar-gcc");
  EXPECT_EQ(j[x::kTreatments][0][x::kVary][x::kKey], "AGENT");
  EXPECT_EQ(j[x::kTreatments][1][x::kStateDb], (t.path() / "h.db").string());

  // A treatment equal to the control is no intervention.
  auto same = plan_experiment(t.path() / "arms" / "ctl.env", {{"AGENT", "identity"}},
                              t.path() / "out2", "", default_corpus_dir());
  ASSERT_FALSE(same.ok());
  EXPECT_NE(same.error().message.find("already has this value"), std::string::npos);
  // One that would not load fails before anything is written.
  auto bad = plan_experiment(t.path() / "arms" / "ctl.env", {{"AGENT", "claude-code"}},
                             t.path() / "out3", "", default_corpus_dir());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("MODEL is required"), std::string::npos);
  EXPECT_FALSE(fs::exists(t.path() / "out3"));
}

}  // namespace
}  // namespace hpcab::harness
