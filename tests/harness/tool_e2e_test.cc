// End to end: the real `hpcab-tool` binary, as an agent runs it (environment from the harness,
// a child process), against a real hpcab-judge on 127.0.0.1.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "harness/arm.h"
#include "harness/daemon.h"
#include "harness/episode_db.h"
#include "tests/harness/fake_llm.h"
#include "tests/judge/judge_process.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using judge::test::Judge;
using judge::test::slurp;

const std::string kTool = std::string(HPCAB_BINARY_DIR) + "/hpcab-tool";
const std::string kReference =
    std::string(HPCAB_SOURCE_DIR) + "/tests/solutions/tsvc_2_s000_reference.c";

struct ToolRun {
  int exit_code = -1;
  std::string out, err;
};

// Runs hpcab-tool with `args`, exactly the environment `env` (plus PATH), `input` on stdin.
ToolRun run_tool(const std::vector<std::string>& args,
                 const std::map<std::string, std::string>& env, const std::string& input = "") {
  std::string tmpl = (fs::temp_directory_path() / "hpcab-tool-e2e-XXXXXX").string();
  const fs::path dir = mkdtemp(tmpl.data());
  std::ofstream(dir / "stdin") << input;
  pid_t pid = fork();
  if (pid == 0) {
    int in = open((dir / "stdin").c_str(), O_RDONLY);
    int out = open((dir / "stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open((dir / "stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    if (chdir(dir.c_str()) != 0) _exit(126);  // the workspace: where a marker would go
    std::vector<std::string> envs = {"PATH=/usr/bin:/bin"};
    for (const auto& [k, v] : env) envs.push_back(k + "=" + v);
    std::vector<char*> envp;
    for (auto& e : envs) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> argv = {kTool};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execve(kTool.c_str(), cargv.data(), envp.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ToolRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir / "stdout");
  r.err = slurp(dir / "stderr");
  fs::remove_all(dir);
  return r;
}

std::map<std::string, std::string> agent_env(const Judge& j) {
  return {{"JUDGE_URL", j.url()}, {"JUDGE_RANK", "0"}, {"RUN_ID", "tool-e2e"}, {"AGENT", "e2e"}};
}

TEST(ToolE2E, TaskPrintsTheSpec) {
  Judge j;
  auto r = run_tool({"task", "tsvc_2_s000"}, agent_env(j));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json t = json::parse(r.out);
  EXPECT_EQ(t["kernel"], "tsvc_2_s000");
  EXPECT_EQ(t["symbol"], "tsvc_2_s000_fp64");
  EXPECT_NE(t["signature"].get<std::string>().find("tsvc_2_s000_fp64"), std::string::npos);
  EXPECT_NE(r.out.find("\n  \"kernel\""), std::string::npos);  // pretty-printed

  // The kernel from KERNEL; the baseline command too.
  auto env = agent_env(j);
  env["KERNEL"] = "tsvc_2_s000";
  auto b = run_tool({"task"}, env);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(json::parse(b.out)["kernel"], "tsvc_2_s000");
}

TEST(ToolE2E, ErrorsAreClearAndNonZero) {
  Judge j;
  auto env = agent_env(j);
  env["JUDGE_RANK"] = "1";  // this judge serves rank 0: 421, nothing graded
  auto wrong_rank = run_tool({"task", "tsvc_2_s000"}, env);
  EXPECT_EQ(wrong_rank.exit_code, 1);
  EXPECT_NE(wrong_rank.err.find("HTTP 421"), std::string::npos) << wrong_rank.err;
  EXPECT_TRUE(wrong_rank.out.empty());

  auto unknown = run_tool({"task", "no_such_kernel"}, agent_env(j));
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("HTTP 404"), std::string::npos) << unknown.err;

  auto no_url = run_tool({"task", "tsvc_2_s000"}, {});
  EXPECT_EQ(no_url.exit_code, 2);
  EXPECT_NE(no_url.err.find("JUDGE_URL"), std::string::npos) << no_url.err;

  // A port nothing listens on (the judge's, after it stops): waited out for the outage wait
  // (2 s here), with a line naming the judge, then exit 3.
  auto dead = agent_env(j);
  dead["HPCAB_OUTAGE_WAIT_S"] = "2";
  j.stop();
  const auto t0 = std::chrono::steady_clock::now();
  auto refused = run_tool({"score", kReference, "--kernel", "tsvc_2_s000"}, dead);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(refused.exit_code, 3);
  EXPECT_NE(refused.err.find("unreachable"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("judge " + j.url() + " unreachable since "), std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("giving up on POST /score"), std::string::npos) << refused.err;
  EXPECT_GE(took, 2.0);
  EXPECT_LT(took, 30.0);
  // --outage-wait 0: at once.
  auto at_once =
      run_tool({"score", kReference, "--kernel", "tsvc_2_s000", "--outage-wait", "0"}, dead);
  EXPECT_EQ(at_once.exit_code, 3);
}

TEST(ToolE2E, ScoreTheReferenceIsOk) {
  Judge j;
  auto env = agent_env(j);
  env["KERNEL"] = "tsvc_2_s000";
  auto r = run_tool({"score", kReference}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  json g = json::parse(r.out);
  EXPECT_EQ(g["verdict"], "ok") << r.out;
  EXPECT_EQ(g["kernel"], "tsvc_2_s000");
  EXPECT_EQ(g["language"], "c");
}

// syntax-check: the judge's diagnostics for a broken source, ok for the reference; refused
// (exit 6, nothing sent) where the arm's TOOLS leave it out, as every tool.
TEST(ToolE2E, SyntaxCheckReturnsTheJudgesDiagnostics) {
  Judge j;
  auto env = agent_env(j);
  env["KERNEL"] = "tsvc_2_s000";
  env["HPCAB_TOOLS"] = "task,score,syntax-check";
  auto broken = run_tool(
      {"syntax-check", std::string(HPCAB_TEST_SOLUTIONS) + "/tsvc_2_s000_syntax_error.c"}, env);
  ASSERT_EQ(broken.exit_code, 0) << broken.err << broken.out;
  json b = json::parse(broken.out);
  EXPECT_EQ(b["verdict"], "build_error");
  ASSERT_FALSE(b["diagnostics"].empty()) << broken.out;
  EXPECT_EQ(b["diagnostics"][0]["line"], 8);
  auto good = run_tool({"syntax-check", kReference}, env);
  ASSERT_EQ(good.exit_code, 0) << good.err;
  EXPECT_EQ(json::parse(good.out)["verdict"], "ok");
  env["HPCAB_TOOLS"] = "task,score";
  EXPECT_EQ(run_tool({"syntax-check", kReference}, env).exit_code, 6);
}

// profile: the judge's profiler answer (time per call, counters, hotspots, roofline), nothing
// recorded.
TEST(ToolE2E, ProfileReturnsTheJudgesProfile) {
  Judge j;
  auto env = agent_env(j);
  env["KERNEL"] = "tsvc_2_s000";
  env["HPCAB_TOOLS"] = "task,profile";
  auto r = run_tool({"profile", kReference}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  json p = json::parse(r.out);
  EXPECT_GT(p["time_per_call_ns"].get<double>(), 0) << r.out;
  EXPECT_TRUE(p["counters"].is_object()) << r.out;
  EXPECT_TRUE(p["roofline"].is_object()) << r.out;
  EXPECT_EQ(p["recorded"], false);
}

TEST(ToolE2E, McpSessionOverStdio) {
  Judge j;
  auto env = agent_env(j);
  env["KERNEL"] = "tsvc_2_s000";
  auto rpc = [](int id, const std::string& method, json params) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump() +
           "\n";
  };
  const std::string input =
      rpc(1, "initialize",
          {{"protocolVersion", "2025-06-18"},
           {"capabilities", json::object()},
           {"clientInfo", {{"name", "e2e"}, {"version", "0"}}}}) +
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})" + "\n" +
      rpc(2, "tools/list", json::object()) +
      rpc(3, "tools/call", {{"name", "score"}, {"arguments", {{"source_file", kReference}}}}) +
      rpc(4, "no/such/method", json::object());
  auto r = run_tool({"mcp"}, env, input);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<json> replies;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    json m = json::parse(line, nullptr, false);
    ASSERT_FALSE(m.is_discarded()) << "not one JSON message per line: " << line;
    replies.push_back(m);
  }
  ASSERT_EQ(replies.size(), 4u) << r.out;  // nothing for the notification
  // The score runs on its own thread, so the error for request 4 may come before its reply:
  // replies are matched by id, as JSON-RPC clients do.
  std::sort(replies.begin(), replies.end(),
            [](const json& a, const json& b) { return a["id"] < b["id"]; });
  for (std::size_t i = 0; i < replies.size(); ++i) {
    EXPECT_EQ(replies[i]["jsonrpc"], "2.0");
    EXPECT_EQ(replies[i]["id"], static_cast<int>(i) + 1);
  }
  EXPECT_EQ(replies[0]["result"]["protocolVersion"], "2025-06-18");
  EXPECT_EQ(replies[0]["result"]["serverInfo"]["name"], "hpcab-tool");
  EXPECT_EQ(replies[1]["result"]["tools"].size(), 4u);
  const json& call = replies[2]["result"];
  EXPECT_EQ(call["isError"], false) << call.dump();
  json grade = json::parse(call["content"][0]["text"].get<std::string>());
  EXPECT_EQ(grade["verdict"], "ok") << grade.dump();
  EXPECT_EQ(call["structuredContent"]["verdict"], "ok");
  EXPECT_EQ(replies[3]["error"]["code"], -32601);
}

TEST(ToolE2E, SingleSubmissionPolicyRefusesTheSecondSubmit) {
  Judge j;
  auto env = agent_env(j);
  env["KERNEL"] = "tsvc_2_s000";
  env["HPCAB_SUBMISSION_POLICY"] = "single";
  std::string tmpl = (fs::temp_directory_path() / "hpcab-tool-state-XXXXXX").string();
  const fs::path state = mkdtemp(tmpl.data());
  env["HPCAB_TOOL_STATE"] = state.string();
  auto first = run_tool({"submit", kReference}, env);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(json::parse(first.out)["verdict"], "ok");
  EXPECT_TRUE(fs::exists(state / ".hpcab-submitted.tool-e2e"));
  auto second = run_tool({"submit", kReference}, env);
  EXPECT_EQ(second.exit_code, 4);
  EXPECT_NE(second.err.find("already submitted"), std::string::npos) << second.err;
  EXPECT_TRUE(second.out.empty());
  // The judge recorded exactly one submission for this run, carrying the agent's name.
  auto store = j.store();
  judge::SubmissionFilter filter;
  filter.run_id = "tool-e2e";
  auto page = store->list_submissions(filter);
  ASSERT_TRUE(page.ok()) << page.error().message;
  EXPECT_EQ(page->total, 1);
  filter.optimizer = "e2e";
  EXPECT_EQ(store->list_submissions(filter)->total, 1);
  fs::remove_all(state);
}

}  // namespace
}  // namespace hpcab::harness

namespace hpcab::harness {
namespace {

// The search tool as an agent uses it: a daemon runs a command agent whose arm gives search
// (the fake's SearxNG-style endpoint, two domains, two results, two queries); the agent calls
// `hpcab-tool search` three times and then submits the reference. Every query is in the
// episode database with what the agent got, the third refused for the limit (exit 1), and the
// endpoint's URL never reaches the agent's environment.
TEST(SearchE2E, AnAgentsQueriesAreAnsweredLimitedAndRecordedWithTheEpisode) {
  Judge j;
  test::FakeLlm model;
  model.start();
  std::string tmpl = (fs::temp_directory_path() / "hpcab-search-e2e-XXXXXX").string();
  const fs::path dir = mkdtemp(tmpl.data());
  const std::string search = "hpcab-tool search";
  const std::string command = "sh -c '" + search + " \"loop tiling\" > q1.json; echo $? > q1.rc; " +
                              search + " \"openmp simd\" > q2.json; " + search +
                              " third > q3.json 2> q3.err; echo $? > q3.rc; "
                              "env > env.txt; hpcab-tool builtin identity'";
  std::ofstream(dir / "arm.env")
      << "NAME=search-e2e\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" << command
      << "\nINFERENCE_URLS=" << model.url() << "\nJUDGE_URLS=" << j.url()
      << "\nTOOLS=task,baseline,score,submit,search\nSEARCH_URL=" << model.url()
      << "/search?key=SECRETKEY\nSEARCH_DOMAINS=gcc.gnu.org,python.org\nSEARCH_RESULTS=2\n"
      << "SEARCH_MAX_QUERIES=2\nWALL_BUDGET_S=300\nSTATE_DB=" << (dir / "harness.db").string()
      << "\n";
  auto arm = load_arm(dir / "arm.env");
  ASSERT_TRUE(arm) << arm.error().message;
  DaemonOptions o;
  o.workspace_root = dir / "ws";
  o.tool_path = kTool;
  o.corpus_dir = default_corpus_dir();
  o.term_grace_s = 2;
  std::ostringstream log;
  o.log = &log;
  auto s = run_arm(*arm, o);
  ASSERT_TRUE(s) << s.error().message;
  auto db = EpisodeDb::open((dir / "harness.db").string());
  ASSERT_TRUE(db);
  auto rows = (*db)->list("search-e2e");
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].exit_reason, "submitted") << log.str();
  auto searches = (*db)->searches((*rows)[0].id);
  ASSERT_TRUE(searches) << searches.error().message;
  ASSERT_EQ(searches->size(), 3u) << log.str();
  EXPECT_EQ((*searches)[0].query, "loop tiling");
  EXPECT_EQ((*searches)[0].status, 200);
  EXPECT_EQ((*searches)[0].kept, 2);
  EXPECT_EQ((*searches)[2].query, "third");
  EXPECT_EQ((*searches)[2].status, 429);
  EXPECT_EQ((*searches)[2].error_code, "search_limit");
  EXPECT_EQ(model.search_queries(), (std::vector<std::string>{"loop tiling", "openmp simd"}));

  // What the agent saw: the kept results, the refusal's exit code, and no endpoint URL.
  fs::path ws;
  for (const auto& e : fs::recursive_directory_iterator(dir / "ws")) {
    if (e.path().filename() == "q1.json") ws = e.path().parent_path();
  }
  ASSERT_FALSE(ws.empty()) << log.str();
  const json q1 = json::parse(slurp(ws / "q1.json"));
  ASSERT_EQ(q1["results"].size(), 2u) << q1.dump();
  EXPECT_EQ(q1["results"][1]["url"], "https://docs.python.org/page2");
  EXPECT_EQ(json::parse((*searches)[0].results_json), q1["results"]);
  EXPECT_EQ(slurp(ws / "q1.rc"), "0\n");
  EXPECT_EQ(slurp(ws / "q3.rc"), "1\n") << slurp(ws / "q3.err");
  const std::string env = slurp(ws / "env.txt");
  EXPECT_NE(env.find("HPCAB_SEARCH_URL=http://127.0.0.1:"), std::string::npos);
  EXPECT_EQ(env.find("SECRETKEY"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hpcab::harness
