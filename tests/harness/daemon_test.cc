// End to end: the harness daemon running scripted agents (shell scripts calling the real
// hpcab-tool and, through the metering proxy, fake inference servers) against real judges on
// 127.0.0.1: pinning and ranks, token totals, budgets 124/125 and their rerun,
// crash relaunch, restart after kill -9, the lock, a graceful stop, final submissions.
#include "harness/daemon.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "harness/arm.h"
#include "harness/episode_db.h"
#include "harness/plan.h"
#include "tests/harness/fake_llm.h"
#include "tests/judge/judge_process.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using judge::test::Judge;
using judge::test::slurp;

const std::string kBin = HPCAB_BINARY_DIR;

// The model client of the scripted agents: one request through the proxy at $MODEL_URL.
// Exit 0 answered, 10 refused for budget (402), 11 another HTTP error, 12 no answer.
constexpr const char* kLlmClient = R"PY(
import json, os, sys, urllib.request, urllib.error
base = os.environ["MODEL_URL"]
kind = sys.argv[1]
if kind.startswith("anthropic"):
    url = base + "/v1/messages"
    body = {"model": "m", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}]}
else:
    url = base + "/v1/chat/completions"
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
if kind.endswith("stream"):
    body["stream"] = True
req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={
    "Content-Type": "application/json", "x-api-key": "dummy", "anthropic-version": "2023-06-01",
    "Authorization": "Bearer dummy"})
try:
    with urllib.request.urlopen(req, timeout=30) as r:
        r.read()
    sys.exit(0)
except urllib.error.HTTPError as e:
    print(e.code, e.read()[:300])
    sys.exit(10 if e.code == 402 else 11)
except Exception as e:
    print("no answer:", e)
    sys.exit(12)
)PY";

class DaemonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-daemon-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    std::ofstream(dir_ / "llm.py") << kLlmClient;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Writes an agent script and returns the AGENT_COMMAND that runs it.
  std::string agent(const std::string& name, const std::string& body) {
    fs::path p = dir_ / (name + ".sh");
    std::ofstream(p) << "#!/bin/sh\nD='" << dir_.string() << "'\n" << body << "\n";
    return "sh " + p.string();
  }

  Arm arm(const std::string& text) {
    fs::path p = dir_ / "arm.env";
    std::ofstream(p) << text << "\nSTATE_DB=" << (dir_ / "harness.db").string() << "\n";
    auto a = load_arm(p);
    EXPECT_TRUE(a) << (a ? "" : a.error().message);
    return a ? *a : Arm{};
  }

  DaemonOptions options() {
    DaemonOptions o;
    o.workspace_root = dir_ / "ws";
    o.tool_path = kBin + "/hpcab-tool";
    o.corpus_dir = default_corpus_dir();
    o.term_grace_s = 0.5;
    o.judge_timeout_s = 20;
    o.log = &log_;
    return o;
  }

  std::vector<EpisodeRow> rows(const std::string& arm_name) {
    auto db = EpisodeDb::open((dir_ / "harness.db").string());
    EXPECT_TRUE(db);
    auto r = (*db)->list(arm_name);
    EXPECT_TRUE(r);
    return r ? *r : std::vector<EpisodeRow>{};
  }

  std::vector<std::string> lines(const std::string& file) {
    std::istringstream in(slurp(dir_ / file));
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) {
      if (!l.empty()) out.push_back(l);
    }
    return out;
  }

  fs::path dir_;
  std::ostringstream log_;
};

// Processes whose command line contains `needle` (a leftover agent).
int processes_with(const std::string& needle) {
  int n = 0;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmd = slurp(e.path() / "cmdline");
    for (char& c : cmd) c = c == '\0' ? ' ' : c;
    if (cmd.find(needle) != std::string::npos && std::stoi(name) != getpid()) ++n;
  }
  return n;
}

// A cuda arm with two judges, of which only rank 1 reports a GPU (an explicit device
// list: nothing is opened to report it): every episode runs against rank 1. With no GPU judge
// the arm fails before any episode is queued.
TEST_F(DaemonTest, GpuArmsRunOnlyOnJudgesReportingAGpu) {
  Judge j0(json{{"rank", 0}, {"gpu_devices", "none"}});
  Judge j1(json{{"rank", 1}, {"gpu_devices", {"/dev/nvidia0"}}});
  const std::string cmd = agent("gpu", R"SH(
echo "$JUDGE_RANK $JUDGE_URL" >> "$D/seen"
)SH");
  Arm a =
      arm("NAME=gpu\nKERNELS=tsvc_2_s000,tsvc_2_s111,tsvc_2_s212\nLANGUAGE=cuda\nAGENT=command\n"
          "AGENT_COMMAND=" +
          cmd + "\nWORKERS=2\nWALL_BUDGET_S=60\nMAX_RELAUNCHES=0\nJUDGE_URLS=" + j0.url() + "," +
          j1.url());
  auto s = run_arm(a, options());
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->counts.finished, 3) << log_.str();
  ASSERT_EQ(lines("seen").size(), 3u);
  for (const auto& l : lines("seen")) EXPECT_EQ(l, "1 " + j1.url());
  for (const auto& r : rows("gpu")) {
    ASSERT_TRUE(r.rank);
    EXPECT_EQ(*r.rank, 1) << r.id;
    EXPECT_EQ(r.judge_url, j1.url());
  }
  EXPECT_NE(log_.str().find("judges reporting a GPU: " + j1.url()), std::string::npos)
      << log_.str();

  Arm none =
      arm("NAME=gpu-none\nKERNELS=tsvc_2_s000\nLANGUAGE=hip\nAGENT=command\nAGENT_COMMAND=" + cmd +
          "\nJUDGE_URLS=" + j0.url());
  auto failed = run_arm(none, options());
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().message.find("LANGUAGE=hip"), std::string::npos)
      << failed.error().message;
  EXPECT_NE(failed.error().message.find(j0.url() + ": no GPU"), std::string::npos)
      << failed.error().message;
  EXPECT_TRUE(rows("gpu-none").empty()) << "nothing is queued for an arm that cannot run";
}

// 4 workers x 2 inference URLs x 2 judges: every worker keeps its pin, sends its rank, and the
// episode database counts exactly the tokens the fake servers reported.
TEST_F(DaemonTest, PinsWorkersRoundRobinAndCountsEveryToken) {
  Judge j0(json{{"rank", 0}});
  Judge j1(json{{"rank", 1}});
  test::FakeLlm m0, m1;
  m0.start();
  m1.start();
  const std::string cmd = agent("pin", R"SH(
echo "$HPCAB_WORKER $JUDGE_RANK $JUDGE_URL $KERNEL $RUN_ID" >> "$D/seen"
hpcab-tool task > task.out 2> task.err || exit 5
python3 "$D/llm.py" openai || exit 6
python3 "$D/llm.py" anthropic-stream || exit 6
python3 "$D/llm.py" openai-stream || exit 6
sleep 0.3
)SH");
  Arm a = arm(
      "NAME=pin\nKERNELS=tsvc_2_s000,tsvc_2_s111,tsvc_2_s212,tsvc_2_s231,tsvc_2_s271,tsvc_2_s311,"
      "tsvc_2_s321,tsvc_2_s4112\nAGENT=command\n"
      "AGENT_COMMAND=" +
      cmd +
      "\nWORKERS=4\nWALL_BUDGET_S=60\nMAX_RELAUNCHES=0\n"
      "INFERENCE_URLS=" +
      m0.url() + "," + m1.url() + "\nJUDGE_URLS=" + j0.url() + "," + j1.url());
  auto s = run_arm(a, options());
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->counts.finished, 8) << log_.str();
  EXPECT_EQ(s->reached_judge, 8);

  const std::string judges[2] = {j0.url(), j1.url()};
  const std::string models[2] = {m0.url(), m1.url()};
  std::set<int> workers_seen;
  for (const auto& l : lines("seen")) {
    std::istringstream in(l);
    int w = -1, rank = -1;
    std::string url, kernel, run_id;
    in >> w >> rank >> url >> kernel >> run_id;
    ASSERT_GE(w, 0);
    workers_seen.insert(w);
    EXPECT_EQ(rank, w % 2) << l;
    EXPECT_EQ(url, judges[w % 2]) << l;
  }
  EXPECT_EQ(workers_seen.size(), 4u) << "every worker should have run an episode";

  test::FakeTotals per_model[2];
  int64_t in = 0, cached = 0, out = 0, requests = 0;
  for (const auto& r : rows("pin")) {
    EXPECT_EQ(r.status, "finished") << r.id << " " << r.exit_reason;
    EXPECT_EQ(r.exit_code, 0) << r.id;
    ASSERT_TRUE(r.worker && r.rank);
    EXPECT_EQ(*r.rank, *r.worker % 2);
    EXPECT_EQ(r.judge_url, judges[*r.worker % 2]);
    EXPECT_EQ(r.inference_url, models[*r.worker % 2]);
    EXPECT_EQ(r.requests, 3) << r.id;
    auto& t = per_model[*r.worker % 2];
    t.requests += r.requests;
    t.input += r.input_tokens;
    t.cached += r.cached_tokens;
    t.output += r.output_tokens;
    in += r.input_tokens;
    cached += r.cached_tokens;
    out += r.output_tokens;
    requests += r.requests;
  }
  // Each fake server saw exactly the requests of the workers pinned to it.
  for (int i = 0; i < 2; ++i) {
    auto t = (i == 0 ? m0 : m1).totals();
    EXPECT_EQ(per_model[i].requests, t.requests) << "inference " << i;
    EXPECT_EQ(per_model[i].input, t.input) << "inference " << i;
    EXPECT_EQ(per_model[i].cached, t.cached) << "inference " << i;
    EXPECT_EQ(per_model[i].output, t.output) << "inference " << i;
  }
  EXPECT_EQ(requests, 24);
  EXPECT_GT(in, 0);
  EXPECT_GT(cached, 0);
  EXPECT_GT(out, 0);
}

// An inference server that reports no usage: the proxy counts each response's tokens itself,
// with the arm's TOKENIZER ("hi" 2 tokens in, "Hello world" 2 out: hello_world_vocabulary), or
// estimates them without one (1 in, 3 out), and the episode's rows say so.
TEST_F(DaemonTest, TokensWithoutUsageAreCountedWithTheArmsTokenizer) {
  Judge j;
  test::FakeLlm m;
  m.set_omit_usage(true);
  m.start();
  std::ofstream(dir_ / "vocab.tiktoken") << test::hello_world_vocabulary();
  const std::string cmd = agent("nousage", R"SH(
python3 "$D/llm.py" openai || exit 6
python3 "$D/llm.py" anthropic-stream || exit 6
python3 "$D/llm.py" openai-stream || exit 6
)SH");
  const std::string common = "\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + cmd +
                             "\nWALL_BUDGET_S=60\nMAX_RELAUNCHES=0\nINFERENCE_URLS=" + m.url() +
                             "\nJUDGE_URLS=" + j.url();
  Arm counted = arm("NAME=counted\nTOKENIZER=vocab.tiktoken" + common);
  ASSERT_TRUE(counted.tokenizer_vocab);
  ASSERT_TRUE(run_arm(counted, options()));
  Arm estimated = arm("NAME=estimated" + common);
  ASSERT_TRUE(run_arm(estimated, options()));
  EXPECT_EQ(m.totals().requests, 6);
  EXPECT_EQ(m.totals().input + m.totals().output, 0);  // the server reported nothing

  struct Want {
    const char* arm;
    int64_t input, output;
    const char* source;
  };
  auto db = EpisodeDb::open((dir_ / "harness.db").string());
  ASSERT_TRUE(db);
  for (const Want& w : {Want{"counted", 6, 6, "counted"}, Want{"estimated", 3, 9, "estimated"}}) {
    auto r = rows(w.arm);
    ASSERT_EQ(r.size(), 1u) << w.arm;
    EXPECT_EQ(r[0].status, "finished") << w.arm << " " << r[0].exit_reason << log_.str();
    EXPECT_EQ(r[0].requests, 3) << w.arm;
    EXPECT_EQ(r[0].input_tokens, w.input) << w.arm;
    EXPECT_EQ(r[0].cached_tokens, 0) << w.arm;
    EXPECT_EQ(r[0].output_tokens, w.output) << w.arm;
    EXPECT_DOUBLE_EQ(r[0].weighted_tokens, static_cast<double>(w.input + w.output)) << w.arm;
    EXPECT_EQ(tokens_source(r[0]), w.source) << w.arm;
    EXPECT_EQ(r[0].reported_requests, 0) << w.arm;
    auto reqs = (*db)->requests(r[0].id);
    ASSERT_TRUE(reqs);
    ASSERT_EQ(reqs->size(), 3u);
    for (const auto& q : *reqs) EXPECT_EQ(q.tokens_source, w.source) << w.arm << " " << q.route;
    auto c = (*db)->counts(w.arm);
    ASSERT_TRUE(c);
    EXPECT_NE(status_line(*c).find("3 requests, 3 " + std::string(w.source) + ")"),
              std::string::npos)
        << status_line(*c);
  }
}

// Wall clock: SIGTERM to the group, 124, one rerun with twice the budget, then 124 for good.
// A process that left the group (setsid) is swept too.
TEST_F(DaemonTest, WallBudgetEndsWith124AndRerunsOnceWithTwiceTheBudget) {
  Judge j;
  const std::string cmd = agent("slow", R"SH(
trap 'echo "$RUN_ID" >> "$D/terms"; exit 0' TERM
setsid sleep 3107 &
echo "$(grep -o 'You have [0-9]* seconds' PROMPT.md)" >> "$D/budgets"
while :; do sleep 0.05; done
)SH");
  // 2 s, not 1: under a loaded ctest -j the /task fetch and the shell's start-up may take a
  // second, and the trap must be in place before the deadline.
  Arm a = arm("NAME=wall\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + cmd +
              "\nWALL_BUDGET_S=2\nLIMIT_RERUN_FACTOR=2\nJUDGE_URLS=" + j.url());
  const auto t0 = std::chrono::steady_clock::now();
  auto s = run_arm(a, options());
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows("wall");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].exit_reason, "wall_budget");
  EXPECT_EQ(r[0].exit_code, 124);
  EXPECT_EQ(r[0].attempt, 2);
  EXPECT_EQ(r[0].limit_reruns, 1);
  EXPECT_DOUBLE_EQ(r[0].budget_factor, 2.0);
  // The rerun's prompt states the doubled budget it was held to.
  EXPECT_EQ(lines("budgets"),
            (std::vector<std::string>{"You have 2 seconds", "You have 4 seconds"}));
  // Both attempts got SIGTERM first (their trap ran).
  EXPECT_EQ(lines("terms"),
            (std::vector<std::string>{"wall/tsvc_2_s000/0#1", "wall/tsvc_2_s000/0#2"}));
  EXPECT_GE(took, 6.0);
  EXPECT_LT(took, 30.0);
  EXPECT_EQ(processes_with("sleep 3107"), 0) << "a setsid child outlived its episode";
}

// Tokens: the proxy refuses once the budget is spent, the episode ends with 125, and its one
// rerun gets a fresh budget twice as large; the totals count every attempt.
TEST_F(DaemonTest, TokenBudgetEndsWith125AndRerunsOnce) {
  Judge j;
  test::FakeLlm m;
  m.start();
  const std::string cmd = agent("spender", R"SH(
while python3 "$D/llm.py" openai >> "$D/llm.out"; do :; done
echo "$RUN_ID refused $?" >> "$D/refused"
sleep 30
)SH");
  Arm a = arm("NAME=tok\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + cmd +
              "\nWALL_BUDGET_S=60\nTOKEN_BUDGET=150\nINFERENCE_URLS=" + m.url() +
              "\nJUDGE_URLS=" + j.url());
  auto s = run_arm(a, options());
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows("tok");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].exit_reason, "token_budget") << log_.str();
  EXPECT_EQ(r[0].exit_code, 125);
  EXPECT_EQ(r[0].attempt, 2);
  EXPECT_EQ(r[0].limit_reruns, 1);
  auto t = m.totals();
  EXPECT_EQ(r[0].input_tokens, t.input);
  EXPECT_EQ(r[0].cached_tokens, t.cached);
  EXPECT_EQ(r[0].output_tokens, t.output);
  // The rerun could spend more than the first attempt: its budget was 300, not what was left.
  EXPECT_GE(t.requests, 3);
  auto db = EpisodeDb::open((dir_ / "harness.db").string());
  auto reqs = (*db)->requests("tok/tsvc_2_s000/0");
  ASSERT_TRUE(reqs);
  int refused = 0;
  for (const auto& q : *reqs) refused += q.status == 402;
  EXPECT_EQ(static_cast<int64_t>(reqs->size()), r[0].requests);
  // The agent either saw the refusal (402) or was stopped before asking again.
  EXPECT_LE(refused, 2);
  EXPECT_EQ(r[0].requests - refused, t.requests);
}

// Interventions reach the agent: the skills folder is in its workspace, read-only and
// named in PROMPT.md; its tools come as HPCAB_TOOLS and the prompt describes only those. With
// TOKEN_BUDGET_KIND=total the budget counts raw tokens: weights of 0 (a weighted cost that
// never grows) still end the episode with 125, and it is rerun once at LIMIT_RERUN_FACTOR.
TEST_F(DaemonTest, InterventionsReachTheAgentAndTotalTokenBudgetStopsIt) {
  Judge j;
  test::FakeLlm m;
  m.start();
  fs::create_directories(dir_ / "skills" / "omp");
  std::ofstream(dir_ / "skills" / "omp" / "SKILL.md") << "parallel for\n";
  const std::string cmd = agent("intervened", R"SH(
env > "$D/env.txt"
cp PROMPT.md "$D/prompt.md"
cat skills/omp/SKILL.md > "$D/skill.txt"
( echo x >> skills/omp/SKILL.md ) 2>/dev/null && echo writable > "$D/skill-writable"
while python3 "$D/llm.py" openai >> "$D/llm.out"; do :; done
sleep 30
)SH");
  Arm a =
      arm("NAME=interv\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + cmd +
          "\nWALL_BUDGET_S=60\nTOKEN_BUDGET=150\nTOKEN_BUDGET_KIND=total\n"
          "TOKEN_WEIGHTS=0,0,0\nLIMIT_RERUN_FACTOR=2\nTOOLS=task,baseline,submit\nSKILLS=" +
          (dir_ / "skills").string() + "\nINFERENCE_URLS=" + m.url() + "\nJUDGE_URLS=" + j.url());
  auto s = run_arm(a, options());
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows("interv");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].exit_reason, "token_budget") << log_.str();
  EXPECT_EQ(r[0].exit_code, 125);
  EXPECT_EQ(r[0].attempt, 2);
  EXPECT_EQ(r[0].limit_reruns, 1);
  EXPECT_DOUBLE_EQ(r[0].weighted_tokens, 0.0);  // recorded with TOKEN_WEIGHTS
  EXPECT_GE(r[0].input_tokens + r[0].cached_tokens + r[0].output_tokens, 300);

  EXPECT_EQ(slurp(dir_ / "skill.txt"), "parallel for\n");
  if (getuid() != 0) {
    EXPECT_FALSE(fs::exists(dir_ / "skill-writable"));
  }
  const std::string prompt = slurp(dir_ / "prompt.md");
  EXPECT_NE(prompt.find("## Skills"), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("`skills/omp/SKILL.md`"), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("MCP tools: task, baseline, submit."), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("no score tool"), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("tokens (input, cached input and output tokens each count 1)"),
            std::string::npos)
      << prompt;
  std::string env;
  for (const auto& e : fs::directory_iterator(dir_)) {
    if (e.path().filename().string().rfind("env", 0) == 0) env += slurp(e.path());
  }
  EXPECT_NE(env.find("HPCAB_TOOLS=task,baseline,submit\n"), std::string::npos) << env;
}

// The model says the prompt no longer fits its context window: 126, no relaunch (the agent
// exits non-zero right after) and no rerun (a larger budget would not make the window larger).
TEST_F(DaemonTest, ContextOverflowEndsWith126WithoutRelaunchOrRerun) {
  Judge j;
  test::FakeLlm m;
  m.start();
  m.set_error(test::FakeLlm::Error::kAnthropicPromptTooLong);
  const std::string cmd = agent("overflow", R"SH(
echo "$RUN_ID" >> "$D/launches"
python3 "$D/llm.py" anthropic
exit 3
)SH");
  Arm a = arm("NAME=ctx\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + cmd +
              "\nWALL_BUDGET_S=60\nMAX_RELAUNCHES=2\nINFERENCE_URLS=" + m.url() +
              "\nJUDGE_URLS=" + j.url());
  auto s = run_arm(a, options());
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows("ctx");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].exit_reason, "context_overflow") << log_.str();
  EXPECT_EQ(r[0].exit_code, 126);
  EXPECT_EQ(r[0].attempt, 1);
  EXPECT_EQ(r[0].limit_reruns, 0);
  EXPECT_EQ(lines("launches"), (std::vector<std::string>{"ctx/tsvc_2_s000/0#1"}));
  EXPECT_EQ(r[0].requests, 1);
}

// The agent sees an allow-listed environment: its episode's variables, a dummy key, and none
// of the daemon's secrets (the real upstream key, anything else in the daemon's environment).
TEST_F(DaemonTest, AgentEnvironmentIsAllowListed) {
  Judge j;
  test::FakeLlm m;
  m.start();
  setenv("HPCAB_TEST_DAEMON_SECRET", "s3cret-daemon-value", 1);
  const std::string cmd = agent("env", R"SH(
env > "$D/env.txt"
python3 "$D/llm.py" openai
)SH");
  Arm a = arm("NAME=env\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + cmd +
              "\nMODEL=m1\nINFERENCE_URLS=" + m.url() + "\nJUDGE_URLS=" + j.url());
  DaemonOptions o = options();
  o.upstream_api_key = "sk-real-upstream-key";
  auto s = run_arm(a, o);
  unsetenv("HPCAB_TEST_DAEMON_SECRET");
  ASSERT_TRUE(s) << s.error().message;
  const std::string env = slurp(dir_ / "env.txt");
  EXPECT_EQ(env.find("s3cret-daemon-value"), std::string::npos) << env;
  EXPECT_EQ(env.find("sk-real-upstream-key"), std::string::npos) << env;
  EXPECT_NE(env.find("JUDGE_URL=" + j.url() + "\n"), std::string::npos) << env;
  EXPECT_NE(env.find("JUDGE_RANK=0\n"), std::string::npos) << env;
  EXPECT_NE(env.find("RUN_ID=env/tsvc_2_s000/0#1\n"), std::string::npos) << env;
  EXPECT_NE(env.find("KERNEL=tsvc_2_s000\n"), std::string::npos) << env;
  EXPECT_NE(env.find("HPCAB_SUBMISSION_POLICY=single\n"), std::string::npos) << env;
  EXPECT_NE(env.find("PATH=" + kBin + ":"), std::string::npos) << env;
  EXPECT_NE(env.find("HPCAB_USAGE_URL=http://127.0.0.1:"), std::string::npos) << env;
  // The proxy put the real key on the upstream request; the agent only ever had a dummy.
  EXPECT_EQ(m.last_header("authorization"), "Bearer sk-real-upstream-key");
}

// A crashing agent is relaunched in the same workspace, within the same deadline.
TEST_F(DaemonTest, CrashedAgentIsRelaunchedUpToMaxRelaunches) {
  Judge j;
  const std::string flaky = agent("flaky", R"SH(
n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count
echo "$RUN_ID $n" >> "$D/launches"
[ "$n" -ge 3 ] && exit 0
exit 7
)SH");
  Arm a = arm("NAME=flaky\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + flaky +
              "\nMAX_RELAUNCHES=2\nWALL_BUDGET_S=60\nJUDGE_URLS=" + j.url());
  auto s = run_arm(a, options());
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows("flaky");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].exit_code, 0);
  EXPECT_EQ(r[0].attempt, 1) << "relaunches are not new attempts";
  EXPECT_EQ(lines("launches"),
            (std::vector<std::string>{"flaky/tsvc_2_s000/0#1 1", "flaky/tsvc_2_s000/0#1 2",
                                      "flaky/tsvc_2_s000/0#1 3"}));

  const std::string broken = agent("broken", "echo x >> \"$D/broken\"; exit 7");
  Arm b = arm("NAME=broken\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + broken +
              "\nMAX_RELAUNCHES=1\nWALL_BUDGET_S=60\nJUDGE_URLS=" + j.url());
  ASSERT_TRUE(run_arm(b, options()));
  r = rows("broken");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "failed");
  EXPECT_EQ(r[0].exit_reason, "crash");
  EXPECT_EQ(r[0].exit_code, 7);
  EXPECT_EQ(lines("broken").size(), 2u) << "one launch and one relaunch";
}

// The agent's submissions through hpcab-tool become the episode's final submission.
TEST_F(DaemonTest, RecordsTheFinalSubmission) {
  Judge j;
  const std::string cmd = agent("submitter", R"SH(
cp "$HPCAB_TEST_REFERENCE" mine.c
hpcab-tool submit mine.c > submit.json || exit 9
hpcab-tool submit mine.c > second.json 2> second.err
echo "$?" > "$D/second_exit"
)SH");
  const std::string reference =
      std::string(HPCAB_SOURCE_DIR) + "/tests/solutions/tsvc_2_s000_reference.c";
  Arm a = arm("NAME=sub\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=HPCAB_TEST_REFERENCE=" +
              reference + " " + cmd +
              "\nWALL_BUDGET_S=300\nSUBMISSION_POLICY=single\nJUDGE_URLS=" + j.url());
  auto s = run_arm(a, options());
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows("sub");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].exit_reason, "submitted") << log_.str();
  ASSERT_TRUE(r[0].final_submission_id.has_value());
  EXPECT_EQ(r[0].final_verdict, "ok");
  auto rec = j.get("/health");
  EXPECT_EQ(rec.status, 200);
  // The single policy refused the second submit (hpcab-tool exit 4).
  EXPECT_EQ(slurp(dir_ / "second_exit"), "4\n");
  // The arm's setup is recorded for research outputs.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ / "harness.db").c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT agent, setup_json, arm_text FROM arms WHERE name='sub'",
                               -1, &st, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "command");
  json setup = json::parse(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)));
  EXPECT_EQ(setup["submission_policy"], "single");
  EXPECT_EQ(setup["kernels"], json::array({"tsvc_2_s000"}));
  EXPECT_NE(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 2))).find("NAME=sub"),
            std::string::npos);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

// Only one daemon per (database, arm); a stop signal leaves the running episode interrupted,
// and the next daemon runs it again.
TEST_F(DaemonTest, OneDaemonPerArmAndAStopLeavesEpisodesForTheNextRun) {
  Judge j;
  // The trap is set before the start is announced: a stop right after the announcement must
  // find it in place.
  const std::string cmd = agent("waiter", R"SH(
trap 'echo "$RUN_ID" >> "$D/terms"; exit 0' TERM
echo "$RUN_ID" >> "$D/starts"
[ -f "$D/release" ] && exit 0
while :; do sleep 0.05; done
)SH");
  Arm a = arm("NAME=lock\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + cmd +
              "\nWALL_BUDGET_S=120\nJUDGE_URLS=" + j.url());
  std::atomic<bool> stop{false};
  DaemonOptions o = options();
  o.stop = &stop;
  Result<RunSummary> first = Error{"not run"};
  std::thread t([&] { first = run_arm(a, o); });
  for (int i = 0; i < 200 && lines("starts").empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(lines("starts").size(), 1u);
  std::ostringstream second_log;
  DaemonOptions o2 = options();
  o2.log = &second_log;
  auto second = run_arm(a, o2);
  ASSERT_FALSE(second);
  EXPECT_NE(second.error().message.find("already being run"), std::string::npos)
      << second.error().message;

  stop = true;
  t.join();
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_TRUE(first->interrupted);
  EXPECT_EQ(lines("terms"), (std::vector<std::string>{"lock/tsvc_2_s000/0#1"}));
  auto r = rows("lock");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "interrupted");

  std::ofstream(dir_ / "release") << "1";
  auto again = run_arm(a, options());
  ASSERT_TRUE(again) << again.error().message;
  r = rows("lock");
  EXPECT_EQ(r[0].status, "finished");
  EXPECT_EQ(r[0].attempt, 2);
}

// The real binary: kill -9 in the middle of an arm; the restarted daemon kills what the dead
// one left, reruns the interrupted episode, and never reruns a finished one.
TEST_F(DaemonTest, RestartAfterKill9ResumesWithoutDuplicatingFinishedEpisodes) {
  Judge j;
  const std::string cmd = agent("steady", R"SH(
echo "$RUN_ID" >> "$D/starts"
python3 -c "import time,os; time.sleep(2.5); open('$D/done','a').write(os.environ['RUN_ID']+'\n')"
)SH");
  const fs::path arm_file = dir_ / "arm.env";
  arm("NAME=k9\nKERNELS=tsvc_2_s000,tsvc_2_s111,tsvc_2_s212\nAGENT=command\nAGENT_COMMAND=" + cmd +
      "\nWALL_BUDGET_S=60\nJUDGE_URLS=" + j.url());
  auto start_daemon = [&] {
    pid_t pid = fork();
    if (pid == 0) {
      int devnull = open((dir_ / "daemon.log").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      dup2(devnull, 1);
      dup2(devnull, 2);
      execl((kBin + "/hpcab-harness").c_str(), "hpcab-harness", "run", arm_file.c_str(),
            "--workspaces", (dir_ / "ws").c_str(), "--progress-interval", "0.2", nullptr);
      _exit(127);
    }
    return pid;
  };
  pid_t d = start_daemon();
  // Wait until the first episode is done and the second is running.
  for (int i = 0; i < 400 && !(lines("done").size() == 1 && lines("starts").size() == 2); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ASSERT_EQ(lines("done").size(), 1u) << slurp(dir_ / "daemon.log");
  ASSERT_EQ(lines("starts").size(), 2u);
  kill(d, SIGKILL);
  int status = 0;
  waitpid(d, &status, 0);

  d = start_daemon();
  waitpid(d, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << slurp(dir_ / "daemon.log");
  auto r = rows("k9");
  ASSERT_EQ(r.size(), 3u);
  for (const auto& e : r) EXPECT_EQ(e.status, "finished") << e.id;
  EXPECT_EQ(r[0].attempt, 1);
  EXPECT_EQ(r[1].attempt, 2) << "the interrupted episode runs again as a new attempt";
  EXPECT_EQ(r[2].attempt, 1);
  // Every episode finished exactly once; the killed attempt never finished (it was swept).
  EXPECT_EQ(lines("done"), (std::vector<std::string>{"k9/tsvc_2_s000/0#1", "k9/tsvc_2_s111/0#2",
                                                     "k9/tsvc_2_s212/0#1"}));
  EXPECT_EQ(lines("starts"),
            (std::vector<std::string>{"k9/tsvc_2_s000/0#1", "k9/tsvc_2_s111/0#1",
                                      "k9/tsvc_2_s111/0#2", "k9/tsvc_2_s212/0#1"}));
}

// `hpcab-harness status` prints the status line and the episode table; `plan` the pinning.
TEST_F(DaemonTest, StatusAndPlanCommands) {
  Judge j;
  const std::string cmd = agent("quick", "exit 0");
  const fs::path arm_file = dir_ / "arm.env";
  Arm a = arm("NAME=st\nKERNELS=tsvc_2_s000,tsvc_2_s111\nAGENT=command\nAGENT_COMMAND=" + cmd +
              "\nWORKERS=3\nOUTAGE_WAIT_S=1\nJUDGE_URLS=" + j.url() + ",http://127.0.0.1:1");
  auto run_cli = [&](const std::string& sub) {
    std::string out;
    std::string command = kBin + "/hpcab-harness " + sub + " " + arm_file.string() + " 2>&1";
    FILE* f = popen(command.c_str(), "r");
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
    pclose(f);
    return out;
  };
  std::string plan = run_cli("plan");
  EXPECT_NE(plan.find("worker 1: judge http://127.0.0.1:1 rank 1"), std::string::npos) << plan;
  EXPECT_NE(plan.find("worker 2: judge " + j.url() + " rank 0"), std::string::npos) << plan;
  EXPECT_NE(plan.find("1 st/tsvc_2_s111/0"), std::string::npos) << plan;
  std::string before = run_cli("status");
  EXPECT_NE(before.find("st: done 0 | running 0 | queued 0"), std::string::npos) << before;
  EXPECT_NE(before.find("not yet enqueued 2"), std::string::npos) << before;

  // Worker 1 is pinned to a judge that is not there: its episode waits out OUTAGE_WAIT_S, ends
  // infra_failed and is handed out again; worker 1 retires and the others finish everything.
  auto s = run_arm(a, options());
  ASSERT_TRUE(s);
  for (const auto& r : rows("st")) EXPECT_EQ(r.status, "finished") << r.id << " " << log_.str();
  EXPECT_LE(s->retired_workers, 1);
  std::string after = run_cli("status");
  EXPECT_NE(after.find("st/tsvc_2_s000/0"), std::string::npos) << after;
  EXPECT_NE(after.find("st/tsvc_2_s111/0"), std::string::npos) << after;
  EXPECT_NE(after.find("st: done"), std::string::npos) << after;
}

// Two daemons share an arm as the Slurm launcher runs them on two agent nodes of 2 workers:
// `--shard 0/2 --worker-offset 0` and `--shard 1/2 --worker-offset 2`, one database each, at the
// same time. Together they run every episode exactly once, each only its own half, and their
// workers are the arm's workers 0..3, pinned to judges 0, 1, 2, 0 (rank = global worker % 3).
TEST_F(DaemonTest, ShardedDaemonsSplitTheArmAndPinGlobalWorkers) {
  Judge j0(json{{"rank", 0}});
  Judge j1(json{{"rank", 1}});
  Judge j2(json{{"rank", 2}});
  const std::string judges[3] = {j0.url(), j1.url(), j2.url()};
  const std::string cmd = agent("shard", R"SH(
echo "$HPCAB_WORKER $JUDGE_RANK $JUDGE_URL $RUN_ID" >> "$D/seen"
hpcab-tool task > task.out 2> task.err || exit 5
)SH");
  const fs::path arm_file = dir_ / "arm.env";
  Arm a =
      arm("NAME=sh\nKERNELS=tsvc_2_s000,tsvc_2_s111,tsvc_2_s212,tsvc_2_s231,tsvc_2_s271,tsvc_2_"
          "s311,tsvc_2_s321,tsvc_2_s4112\nAGENT=command\nAGENT_COMMAND=" +
          cmd + "\nWORKERS=2\nWALL_BUDGET_S=60\nMAX_RELAUNCHES=0\nJUDGE_URLS=" + judges[0] + "," +
          judges[1] + "," + judges[2]);
  const auto whole = plan_episodes(a);
  ASSERT_GE(whole.size(), 4u);
  auto cli = [&](const std::vector<std::string>& args, const std::string& log) {
    pid_t pid = fork();
    if (pid == 0) {
      int fd = open((dir_ / log).c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      dup2(fd, 1);
      dup2(fd, 2);
      std::vector<std::string> argv = {kBin + "/hpcab-harness"};
      argv.insert(argv.end(), args.begin(), args.end());
      std::vector<char*> c;
      for (auto& x : argv) c.push_back(x.data());
      c.push_back(nullptr);
      execv(c[0], c.data());
      _exit(127);
    }
    return pid;
  };
  auto exit_code = [](pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  const std::string db[2] = {(dir_ / "harness-0.db").string(), (dir_ / "harness-1.db").string()};
  auto run_args = [&](int node) {
    return std::vector<std::string>{"run",
                                    arm_file.string(),
                                    "--db",
                                    db[node],
                                    "--workspaces",
                                    (dir_ / "ws").string(),
                                    "--shard",
                                    std::to_string(node) + "/2",
                                    "--worker-offset",
                                    std::to_string(node * 2),
                                    "--progress-interval",
                                    "0.5"};
  };
  pid_t d0 = cli(run_args(0), "daemon-0.log");
  pid_t d1 = cli(run_args(1), "daemon-1.log");
  ASSERT_EQ(exit_code(d0), 0) << slurp(dir_ / "daemon-0.log");
  ASSERT_EQ(exit_code(d1), 0) << slurp(dir_ / "daemon-1.log");

  std::map<std::string, int> shard_of;  // episode id -> the daemon that ran it
  for (int node = 0; node < 2; ++node) {
    auto h = EpisodeDb::open(db[node]);
    ASSERT_TRUE(h);
    auto r = (*h)->list("sh");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->size(), plan_episodes(a, Shard{node, 2}).size());
    for (const auto& e : *r) {
      EXPECT_EQ(e.seq % 2, node) << e.id << " ran on node " << node;
      EXPECT_EQ(e.status, "finished") << e.id << " " << e.exit_reason;
      EXPECT_EQ(e.attempt, 1) << e.id;
      ASSERT_TRUE(e.worker && e.rank) << e.id;
      EXPECT_GE(*e.worker, node * 2) << e.id;
      EXPECT_LT(*e.worker, node * 2 + 2) << e.id;
      EXPECT_EQ(*e.rank, *e.worker % 3) << e.id;
      EXPECT_EQ(e.judge_url, judges[*e.worker % 3]) << e.id;
      EXPECT_TRUE(shard_of.emplace(e.id, node).second) << e.id << " is in both databases";
    }
  }
  EXPECT_EQ(shard_of.size(), whole.size()) << "the two shards do not cover the arm";
  for (const auto& e : whole) EXPECT_EQ(shard_of.count(e.id), 1u) << e.id << " never ran";

  // What the agents saw: their global worker number and the rank and judge it pins.
  std::set<int> workers_seen;
  std::set<std::string> runs;
  for (const auto& l : lines("seen")) {
    std::istringstream in(l);
    int w = -1, rank = -1;
    std::string url, run_id;
    in >> w >> rank >> url >> run_id;
    ASSERT_GE(w, 0) << l;
    workers_seen.insert(w);
    EXPECT_EQ(rank, w % 3) << l;
    EXPECT_EQ(url, judges[w % 3]) << l;
    EXPECT_TRUE(runs.insert(run_id).second) << run_id << " ran twice";
  }
  EXPECT_EQ(runs.size(), whole.size());
  EXPECT_LE(workers_seen.size(), 4u);
  EXPECT_TRUE(workers_seen.count(0) && workers_seen.count(2)) << "each node's first worker ran";

  // `plan` and `status` with the same flags show the shard; bad flags are usage errors (2).
  pid_t p = cli({"plan", arm_file.string(), "--shard", "1/2", "--worker-offset", "2"}, "plan.out");
  ASSERT_EQ(exit_code(p), 0);
  const std::string plan = slurp(dir_ / "plan.out");
  EXPECT_NE(plan.find("worker 2: judge " + judges[2] + " rank 2"), std::string::npos) << plan;
  EXPECT_NE(plan.find("worker 3: judge " + judges[0] + " rank 0"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("worker 0:"), std::string::npos) << plan;
  EXPECT_NE(plan.find("\n1 " + whole[1].id + "\n"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("\n0 " + whole[0].id + "\n"), std::string::npos) << plan;
  p = cli({"status", arm_file.string(), "--db", db[1], "--shard", "1/2", "--brief"}, "status.out");
  ASSERT_EQ(exit_code(p), 0);
  const std::string status = slurp(dir_ / "status.out");
  EXPECT_NE(status.find("sh shard 1/2: done " +
                        std::to_string(plan_episodes(a, Shard{1, 2}).size()) + " |"),
            std::string::npos)
      << status;
  EXPECT_EQ(status.find("not yet enqueued"), std::string::npos) << status;
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--shard", "2/2"},
                                              {"--shard", "0/0"},
                                              {"--shard", "1"},
                                              {"--worker-offset", "-1"},
                                              {"--worker-offset", "x"}}) {
    std::vector<std::string> args = {"plan", arm_file.string()};
    args.insert(args.end(), bad.begin(), bad.end());
    EXPECT_EQ(exit_code(cli(args, "bad.out")), 2) << bad[0] << " " << bad[1];
  }
  const std::string bad = slurp(dir_ / "bad.out");
  EXPECT_NE(bad.find("--shard '2/2': the shard index I must be below N"), std::string::npos) << bad;
  EXPECT_NE(bad.find("--worker-offset '-1' is not a non-negative integer"), std::string::npos)
      << bad;
}

}  // namespace
}  // namespace hpcab::harness
