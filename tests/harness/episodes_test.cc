// Arm files, the episode plan and pinning, prompts, workspaces and the episode database.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "common/db.h"
#include "harness/arm.h"
#include "harness/episode_db.h"
#include "harness/plan.h"

namespace hpcab::harness {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// A fresh folder per test, removed at the end.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("hpcab-harness-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Arm parse_ok(const std::string& text) {
  auto a = parse_arm(text, "arm.env", "/arms");
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message);
  return a.ok() ? *a : Arm{};
}

std::string parse_error(const std::string& text, const std::string& label = "arm.env") {
  auto a = parse_arm(text, label, "/arms");
  EXPECT_FALSE(a.ok()) << "expected an error for:\n" << text;
  return a.ok() ? "" : a.error().message;
}

constexpr const char* kFullEnv = R"arm(# a full arm
NAME=claude-loops
KERNELS=tsvc_2_s000, track:machine_learning ,level:2
LANGUAGE="cpp"
AGENT=claude-code
AGENT_COMMAND='claude -p "$(cat {prompt_file})" --model {model}'
MODEL=claude-sonnet
export INFERENCE_URLS=http://10.0.0.1:8000/,http://10.0.0.2:8000
JUDGE_URLS=http://10.0.1.1:8800,http://10.0.1.2:8800   # rank 0, rank 1

WORKERS=4
REPETITIONS=3
WALL_BUDGET_S=1800
TOKEN_BUDGET=200000
TOKEN_WEIGHTS=1,0.25,2
SUBMISSION_POLICY=multiple
PROMPT_TEMPLATE=prompts/p.md
MAX_RELAUNCHES=1
LIMIT_RERUN_FACTOR=3
STATE_DB=/tmp/h.db
)arm";

TEST(ArmFile, EnvFormatParsesEveryKey) {
  Arm a = parse_ok(kFullEnv);
  EXPECT_EQ(a.name, "claude-loops");
  EXPECT_EQ(a.kernel_selectors,
            (std::vector<std::string>{"tsvc_2_s000", "track:machine_learning", "level:2"}));
  EXPECT_EQ(a.language, "cpp");
  EXPECT_EQ(a.agent, "claude-code");
  EXPECT_EQ(a.agent_command, "claude -p \"$(cat {prompt_file})\" --model {model}");
  EXPECT_EQ(a.model, "claude-sonnet");
  EXPECT_EQ(a.inference_urls,
            (std::vector<std::string>{"http://10.0.0.1:8000", "http://10.0.0.2:8000"}));
  EXPECT_EQ(a.judge_urls,
            (std::vector<std::string>{"http://10.0.1.1:8800", "http://10.0.1.2:8800"}));
  EXPECT_EQ(a.workers, 4);
  EXPECT_EQ(a.repetitions, 3);
  EXPECT_EQ(a.wall_budget_s, 1800);
  EXPECT_EQ(a.token_budget, 200000);
  EXPECT_DOUBLE_EQ(a.token_weights.input, 1);
  EXPECT_DOUBLE_EQ(a.token_weights.cached, 0.25);
  EXPECT_DOUBLE_EQ(a.token_weights.output, 2);
  EXPECT_EQ(a.submission_policy, "multiple");
  EXPECT_EQ(a.prompt_template, fs::path("/arms/prompts/p.md"));
  EXPECT_EQ(a.max_relaunches, 1);
  EXPECT_DOUBLE_EQ(a.limit_rerun_factor, 3);
  EXPECT_EQ(a.state_db, fs::path("/tmp/h.db"));
}

// GPU languages and RESIDENCY (device only for cuda and hip).
TEST(ArmFile, GpuLanguagesAndResidency) {
  const std::string base = "NAME=g\nKERNELS=all\nAGENT=identity\n";
  EXPECT_EQ(parse_ok(base).residency, "host");
  for (const char* lang : {"cuda", "hip"}) {
    Arm a = parse_ok(base + "LANGUAGE=" + lang + "\nRESIDENCY=device\n");
    EXPECT_EQ(a.language, lang);
    EXPECT_EQ(a.residency, "device");
  }
  EXPECT_NE(parse_error(base + "LANGUAGE=c\nRESIDENCY=device\n").find("RESIDENCY=device"),
            std::string::npos);
  EXPECT_NE(parse_error(base + "LANGUAGE=cuda\nRESIDENCY=gpu\n").find("host or device"),
            std::string::npos);
  EXPECT_EQ(parse_ok(base + "LANGUAGE=c\nRESIDENCY=host\n").residency, "host");
}

// LANGUAGE=python, and the built-in numba-jit that needs it.
TEST(ArmFile, PythonLanguageAndNumbaJit) {
  const std::string base = "NAME=py\nKERNELS=relu,elu\n";
  EXPECT_EQ(parse_ok(base + "AGENT=identity\nLANGUAGE=python\n").language, "python");
  Arm a = parse_ok(base + "AGENT=numba-jit\nLANGUAGE=python\n");
  EXPECT_EQ(a.agent, "numba-jit");
  EXPECT_EQ(a.language, "python");
  EXPECT_FALSE(a.uses_model());
  const std::string e = parse_error(base + "AGENT=numba-jit\n");
  EXPECT_NE(e.find("LANGUAGE=python"), std::string::npos) << e;
  EXPECT_NE(e.find("LANGUAGE is c"), std::string::npos) << e;
  EXPECT_NE(parse_error(base + "AGENT=identity\nLANGUAGE=numpy\n").find("python"),
            std::string::npos);
}

TEST(ArmFile, DefaultsForAMinimalBuiltinArm) {
  Arm a = parse_ok("NAME=ctl\nKERNELS=all\nAGENT=identity\n");
  EXPECT_EQ(a.language, "c");
  EXPECT_EQ(a.judge_urls, std::vector<std::string>{"http://127.0.0.1:8800"});
  EXPECT_TRUE(a.inference_urls.empty());
  EXPECT_EQ(a.workers, 1);
  EXPECT_EQ(a.repetitions, 1);
  EXPECT_EQ(a.token_budget, 0);
  EXPECT_DOUBLE_EQ(a.token_weights.input, 1);
  EXPECT_DOUBLE_EQ(a.token_weights.cached, 0.1);
  EXPECT_DOUBLE_EQ(a.token_weights.output, 1);
  EXPECT_EQ(a.submission_policy, "single");
  EXPECT_TRUE(a.prompt_template.empty());
  EXPECT_DOUBLE_EQ(a.limit_rerun_factor, 2);
  EXPECT_EQ(a.state_db, fs::path("var/harness.db"));
  EXPECT_FALSE(a.uses_model());
}

TEST(ArmFile, OutageSettings) {
  Arm d = parse_ok("NAME=x\nKERNELS=all\nAGENT=identity\n");
  EXPECT_DOUBLE_EQ(d.outage_wait_s, 600);
  EXPECT_DOUBLE_EQ(d.outage_backoff_max_s, 15);
  EXPECT_EQ(d.infra_retries, 2);
  Arm a = parse_ok(
      "NAME=x\nKERNELS=all\nAGENT=identity\nOUTAGE_WAIT_S=1800\nOUTAGE_BACKOFF_MAX_S=2.5\n"
      "INFRA_RETRIES=0\n");
  EXPECT_DOUBLE_EQ(a.outage_wait_s, 1800);
  EXPECT_DOUBLE_EQ(a.outage_backoff_max_s, 2.5);
  EXPECT_EQ(a.infra_retries, 0);
  EXPECT_DOUBLE_EQ(parse_ok("NAME=x\nKERNELS=all\nAGENT=identity\nOUTAGE_WAIT_S=0\n").outage_wait_s,
                   0);
  for (const char* bad : {"OUTAGE_WAIT_S=-1", "OUTAGE_WAIT_S=ten", "OUTAGE_WAIT_S=9999999",
                          "OUTAGE_BACKOFF_MAX_S=0", "INFRA_RETRIES=-1", "INFRA_RETRIES=101"}) {
    auto r = parse_arm(std::string("NAME=x\nKERNELS=all\nAGENT=identity\n") + bad + "\n", "arm.env",
                       "/arms");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("arm.env:4"), std::string::npos) << r.error().message;
  }
}

TEST(ArmFile, LibraryDirForTheAutoparBuiltins) {
  // Default: relative to the daemon's working directory, inside the judge's shared directory.
  EXPECT_EQ(parse_ok("NAME=x\nKERNELS=all\nAGENT=autopar-gcc\n").library_dir,
            fs::path("var/shared/libraries"));
  Arm env = parse_ok("NAME=x\nKERNELS=all\nAGENT=autopar-gcc\nLIBRARY_DIR=/srv/shared/libs\n");
  EXPECT_EQ(env.library_dir, fs::path("/srv/shared/libs"));
  auto json_arm = parse_arm(
      R"({"name":"x","kernels":"all","agent":"autopar-polly","library_dir":"shared/libs"})",
      "a.json", "/arms");
  ASSERT_TRUE(json_arm.ok()) << json_arm.error().message;
  EXPECT_EQ(json_arm->library_dir, fs::path("shared/libs"));  // not resolved against the arm

  std::string e = parse_error("NAME=x\nKERNELS=all\nAGENT=identity\nLIBRARY_DIR=\n");
  EXPECT_NE(e.find("arm.env:4 (LIBRARY_DIR): expected a folder path"), std::string::npos) << e;
  e = parse_error(R"({"name":"x","kernels":"all","agent":"identity","LIBRARY_DIR":"l"})", "a.json");
  EXPECT_NE(e.find("lower case: library_dir"), std::string::npos) << e;
}

TEST(ArmFile, JsonFormatMatchesEnv) {
  const char* text = R"arm({
    "name": "claude-loops",
    "kernels": ["tsvc_2_s000", "track:machine_learning", "level:2"],
    "language": "cpp",
    "agent": "claude-code",
    "agent_command": "claude -p \"$(cat {prompt_file})\" --model {model}",
    "model": "claude-sonnet",
    "inference_urls": ["http://10.0.0.1:8000/", "http://10.0.0.2:8000"],
    "judge_urls": "http://10.0.1.1:8800,http://10.0.1.2:8800",
    "workers": 4, "repetitions": 3, "wall_budget_s": 1800, "token_budget": 200000,
    "token_weights": {"input": 1, "cached": 0.25, "output": 2},
    "submission_policy": "multiple", "prompt_template": "prompts/p.md",
    "max_relaunches": 1, "limit_rerun_factor": 3, "state_db": "/tmp/h.db"
  })arm";
  auto j = parse_arm(text, "arm.json", "/arms");
  ASSERT_TRUE(j.ok()) << j.error().message;
  Arm e = parse_ok(kFullEnv);
  EXPECT_EQ(j->name, e.name);
  EXPECT_EQ(j->kernel_selectors, e.kernel_selectors);
  EXPECT_EQ(j->agent_command, e.agent_command);
  EXPECT_EQ(j->inference_urls, e.inference_urls);
  EXPECT_EQ(j->judge_urls, e.judge_urls);
  EXPECT_EQ(j->workers, e.workers);
  EXPECT_EQ(j->repetitions, e.repetitions);
  EXPECT_EQ(j->token_budget, e.token_budget);
  EXPECT_DOUBLE_EQ(j->token_weights.cached, e.token_weights.cached);
  EXPECT_EQ(j->prompt_template, e.prompt_template);
  EXPECT_DOUBLE_EQ(j->limit_rerun_factor, e.limit_rerun_factor);

  auto arr = parse_arm(R"({"name":"x","kernels":"all","agent":"identity",
                           "token_weights":[2, 0.5, 3]})",
                       "a.json", "/");
  ASSERT_TRUE(arr.ok()) << arr.error().message;
  EXPECT_DOUBLE_EQ(arr->token_weights.input, 2);
  EXPECT_DOUBLE_EQ(arr->token_weights.output, 3);
}

TEST(ArmFile, EnvErrorsNameFileLineKeyAndExpectation) {
  const std::string head = "NAME=x\nKERNELS=all\nAGENT=identity\n";
  std::string e = parse_error(head + "WORKERS=four\n");
  EXPECT_NE(e.find("arm.env:4"), std::string::npos) << e;
  EXPECT_NE(e.find("WORKERS"), std::string::npos) << e;
  EXPECT_NE(e.find("expected an integer"), std::string::npos) << e;

  e = parse_error(head + "WORKRES=4\n");
  EXPECT_NE(e.find("arm.env:4"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown key 'WORKRES'"), std::string::npos) << e;

  e = parse_error(head + "workers=4\n");
  EXPECT_NE(e.find("upper case"), std::string::npos) << e;

  e = parse_error(head + "LANGUAGE=rust\n");
  EXPECT_NE(e.find("c, cpp, fortran"), std::string::npos) << e;
  e = parse_error(head + "WORKERS=0\n");
  EXPECT_NE(e.find(">= 1"), std::string::npos) << e;
  e = parse_error(head + "TOKEN_WEIGHTS=1,2\n");
  EXPECT_NE(e.find("three weights"), std::string::npos) << e;
  e = parse_error(head + "SUBMISSION_POLICY=twice\n");
  EXPECT_NE(e.find("single or multiple"), std::string::npos) << e;
  e = parse_error(head + "JUDGE_URLS=127.0.0.1:8800\n");
  EXPECT_NE(e.find("http://"), std::string::npos) << e;
  e = parse_error(head + "LIMIT_RERUN_FACTOR=0.5\n");
  EXPECT_NE(e.find("LIMIT_RERUN_FACTOR"), std::string::npos) << e;
  e = parse_error(head + "NAME=y\n");
  EXPECT_NE(e.find("already set at arm.env:1"), std::string::npos) << e;
  e = parse_error(head + "JUDGE\n");
  EXPECT_NE(e.find("expected KEY=value"), std::string::npos) << e;
  e = parse_error(head + "MODEL=\"unterminated\n");
  EXPECT_NE(e.find("unterminated"), std::string::npos) << e;
  e = parse_error(head + "AGENT_COMMAND=run {prompt_fil}\n");
  EXPECT_NE(e.find("{prompt_fil}"), std::string::npos) << e;
  e = parse_error("NAME=x\nKERNELS=track:loops\nAGENT=identity\n");
  EXPECT_NE(e.find("unknown track 'loops'"), std::string::npos) << e;
  e = parse_error("NAME=x\nKERNELS=size:3\nAGENT=identity\n");
  EXPECT_NE(e.find("unknown selector kind"), std::string::npos) << e;

  e = parse_error("NAME=x\nAGENT=identity\n");
  EXPECT_NE(e.find("KERNELS is required"), std::string::npos) << e;
  e = parse_error("NAME=x\nKERNELS=all\nAGENT=claude-code\nINFERENCE_URLS=http://m:1\n");
  EXPECT_NE(e.find("MODEL is required for AGENT=claude-code"), std::string::npos) << e;
  e = parse_error("NAME=x\nKERNELS=all\nAGENT=codex\nMODEL=m\n");
  EXPECT_NE(e.find("INFERENCE_URLS is required"), std::string::npos) << e;
  e = parse_error("NAME=x\nKERNELS=all\nAGENT=command\n");
  EXPECT_NE(e.find("AGENT_COMMAND is required"), std::string::npos) << e;
  e = parse_error("NAME=x\nKERNELS=all\nAGENT=gpt\n");
  EXPECT_NE(e.find("expected one of"), std::string::npos) << e;
}

// Every group of keys rejects its bad values with the key's location, and the checks of the
// arm as a whole name their keys as the file spells them (upper case in env, lower in JSON).
TEST(ArmFile, EveryKeyGroupAndWholeArmCheckNamesItsKey) {
  const std::string head = "NAME=x\nKERNELS=all\nAGENT=identity\n";
  const std::vector<std::pair<std::string, std::string>> bad_values = {
      {"REPETITIONS=100001", "arm.env:4 (REPETITIONS): 100001 is implausibly large (max 100000)"},
      {"TOKEN_BUDGET=-1", "arm.env:4 (TOKEN_BUDGET): expected an integer >= 0, got -1"},
      {"TOKEN_WEIGHTS=1,-1,1", "arm.env:4 (TOKEN_WEIGHTS): weights must be >= 0, got -1"},
      {"TOKEN_BUDGET_KIND=all", "arm.env:4 (TOKEN_BUDGET_KIND): expected weighted"},
      {"PROMPT_TEMPLATE=", "arm.env:4 (PROMPT_TEMPLATE): expected a file path"},
      {"PROMPT_FRAGMENTS=Base", "arm.env:4 (PROMPT_FRAGMENTS): fragment name 'Base' must be"},
      {"SKILLS=", "arm.env:4 (SKILLS): expected a folder path"},
      {"AGENT_MAX_TURNS=100001", "arm.env:4 (AGENT_MAX_TURNS): 100001 is implausibly large"},
      {"AGENT_DISALLOWED_TOOLS=a b", "arm.env:4 (AGENT_DISALLOWED_TOOLS): tool name 'a b'"},
      {"OUTAGE_BACKOFF_MAX_S=0.001",
       "arm.env:4 (OUTAGE_BACKOFF_MAX_S): expected seconds between 0.01 and 604800, got 0.001"},
      {"OUTAGE_WAIT_S=604801", "arm.env:4 (OUTAGE_WAIT_S): expected seconds between 0 and 604800"},
      {"INFRA_RETRIES=101", "arm.env:4 (INFRA_RETRIES): 101 is implausibly large (max 100)"},
      {"STATE_DB=", "arm.env:4 (STATE_DB): expected a file path"},
      {"LIBRARY_DIR=", "arm.env:4 (LIBRARY_DIR): expected a folder path"},
      {"JUDGE_PORT=70000", "arm.env:4 (JUDGE_PORT): expected a port between 1 and 65535"},
      {"MIN_COVERAGE=2", "arm.env:4 (MIN_COVERAGE): expected a share of the arm's kernels"},
  };
  for (const auto& [line, want] : bad_values) {
    std::string e = parse_error(head + line + "\n");
    EXPECT_NE(e.find(want), std::string::npos) << line << ": " << e;
  }

  const std::vector<std::pair<std::string, std::string>> bad_arms = {
      {head + "LANGUAGE=c\nRESIDENCY=device\n",
       "arm.env: RESIDENCY=device is for LANGUAGE cuda or hip"},
      {head + "PROMPT_FRAGMENTS_DIR=f\n",
       "arm.env: PROMPT_FRAGMENTS is required when PROMPT_FRAGMENTS_DIR is set"},
      {"NAME=x\nKERNELS=all\nAGENT=replay\n",
       "arm.env: AGENT_COMMAND is required for AGENT=replay (the folder of prepared sources)"},
      {head + "AGENT_DISALLOWED_TOOLS=x\n",
       "arm.env: AGENT_DISALLOWED_TOOLS is not supported for AGENT=identity"},
      {"NAME=x\nKERNELS=all\nAGENT=command\nAGENT_COMMAND=run\nAGENT_ARGS=--x\n",
       "arm.env: AGENT_ARGS and AGENT_COMMAND exclude each other"},
      {head + "INFERENCE_NODES=1\n",
       "arm.env: INFERENCE_COMMAND is required when INFERENCE_NODES > 0"},
      {"NAME=x\nKERNELS=all\nAGENT=codex\nMODEL=m\nINFERENCE_URLS=http://m:1\n"
       "INFERENCE_NODES=1\nINFERENCE_COMMAND=serve\n",
       "arm.env: INFERENCE_URLS and INFERENCE_NODES > 0 exclude each other"},
  };
  for (const auto& [text, want] : bad_arms) {
    std::string e = parse_error(text);
    EXPECT_NE(e.find(want), std::string::npos) << text << ": " << e;
  }

  std::string e = parse_error(
      R"({"name":"x","kernels":"all","agent":"identity","agent_max_turns":3})", "a.json");
  EXPECT_NE(e.find("a.json: agent_max_turns is not supported for AGENT=identity"),
            std::string::npos)
      << e;
  e = parse_error(R"({"name":"x","kernels":"all","agent":"identity","residency":"device"})",
                  "a.json");
  EXPECT_NE(e.find("a.json: residency=device is for LANGUAGE cuda or hip"), std::string::npos) << e;
  e = parse_error(R"({"name":"x","kernels":"all","agent":"identity","inference_command":"s"})",
                  "a.json");
  EXPECT_NE(e.find("a.json: inference_command is set but inference_nodes is 0"), std::string::npos)
      << e;
}

TEST(ArmFile, JsonErrorsNameTheKey) {
  std::string e =
      parse_error(R"({"name":"x","kernels":"all","agent":"identity","workers":-2})", "a.json");
  EXPECT_NE(e.find("a.json: key 'workers'"), std::string::npos) << e;
  e = parse_error(R"({"name":"x","kernels":"all","agent":"identity","WORKERS":2})", "a.json");
  EXPECT_NE(e.find("lower case"), std::string::npos) << e;
  e = parse_error(R"({"name":"x","kernels":"all","agent":"identity","colour":2})", "a.json");
  EXPECT_NE(e.find("unknown key"), std::string::npos) << e;
  e = parse_error(R"({"name":"x","kernels":"all","agent":"identity","workers":true})", "a.json");
  EXPECT_NE(e.find("expected a string or a number"), std::string::npos) << e;
  e = parse_error(R"({"name":"x", )", "a.json");
  EXPECT_NE(e.find("not valid JSON"), std::string::npos) << e;
  e = parse_error(R"({"kernels":"all","agent":"identity"})", "a.json");
  EXPECT_NE(e.find("name is required"), std::string::npos) << e;
}

TEST(ArmFile, SelectorsResolveAgainstTheRealCorpus) {
  auto corpus = load_corpus(default_corpus_dir());
  ASSERT_TRUE(corpus.ok()) << corpus.error().message;
  auto ids = resolve_kernels({"track:loop_level_reasoning"}, *corpus);
  ASSERT_TRUE(ids.ok()) << ids.error().message;
  ASSERT_FALSE(ids->empty());
  EXPECT_TRUE(std::is_sorted(ids->begin(), ids->end()));
  std::size_t loops = 0;
  std::string first;
  for (const auto& m : *corpus) {
    if (m.track != "loop_level_reasoning") continue;
    ++loops;
    if (first.empty() || m.id < first) first = m.id;
  }
  EXPECT_EQ(ids->size(), loops);
  EXPECT_EQ(ids->front(), first);

  // Listed order across selectors, duplicates dropped at their second mention.
  auto mixed = resolve_kernels(
      {"tsvc_2_s111", "dwarf:dense_linear_algebra", "tsvc_2_s000", "tsvc_2_s111"}, *corpus);
  ASSERT_TRUE(mixed.ok()) << mixed.error().message;
  ASSERT_GE(mixed->size(), 3u);
  EXPECT_EQ((*mixed)[0], "tsvc_2_s111");
  EXPECT_EQ(mixed->back(), "tsvc_2_s000");
  EXPECT_NE(std::find(mixed->begin(), mixed->end(), "gemm"), mixed->end());

  // The paper's focus set by its tag, and a kernel by the original judge's path-style key.
  auto focus = resolve_kernels({"tag:llr-focus40"}, *corpus);
  ASSERT_TRUE(focus.ok()) << focus.error().message;
  EXPECT_EQ(focus->size(), 40u);
  EXPECT_NE(std::find(focus->begin(), focus->end(), "tsvc_2_s311"), focus->end());
  auto keyed = resolve_kernels({"scientific_computing/dense_linear_algebra/gemm"}, *corpus);
  ASSERT_TRUE(keyed.ok()) << keyed.error().message;
  EXPECT_EQ(*keyed, std::vector<std::string>{"gemm"});

  auto all = resolve_kernels({"all"}, *corpus);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), corpus->size());

  auto bad = resolve_kernels({"s999"}, *corpus);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("unknown kernel 's999'"), std::string::npos);
  bad = resolve_kernels({"level:99"}, *corpus);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("matches no kernel"), std::string::npos);
}

TEST(ArmFile, LoadArmResolvesKernelsAndChecksThePromptTemplate) {
  TempDir t;
  write(t.path() / "a.env",
        "NAME=x\nKERNELS=tsvc_2_s000,tsvc_2_s111\nAGENT=identity\nPROMPT_TEMPLATE=p.md\n");
  auto missing = load_arm(t.path() / "a.env");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("PROMPT_TEMPLATE"), std::string::npos);
  write(t.path() / "p.md", "{kernel}");
  auto a = load_arm(t.path() / "a.env");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->kernels, (std::vector<std::string>{"tsvc_2_s000", "tsvc_2_s111"}));
  EXPECT_EQ(a->prompt_template, t.path() / "p.md");
}

TEST(ArmFile, ExampleArmInDeployLoads) {
  auto a = load_arm(fs::path(HPCAB_SOURCE_DIR) / "deploy/arms/identity-demo.env");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->agent, "identity");
  EXPECT_FALSE(a->kernels.empty());
  EXPECT_EQ(a->judge_urls, std::vector<std::string>{"http://127.0.0.1:8800"});
}

// The Slurm launcher's keys are accepted, validated and stored; hpcab-harness ignores
// them (they change nothing else in the arm).
TEST(ArmFile, DeployKeysForTheSlurmLauncher) {
  Arm d = parse_ok("NAME=x\nKERNELS=all\nAGENT=identity\n");
  EXPECT_EQ(d.deploy.inference_nodes, 0);
  EXPECT_EQ(d.deploy.agent_nodes, 1);
  EXPECT_EQ(d.deploy.judge_nodes, 1);
  EXPECT_TRUE(d.deploy.inference_command.empty());
  EXPECT_EQ(d.deploy.inference_port, 8000);
  EXPECT_EQ(d.deploy.judge_port, 8800);
  EXPECT_TRUE(d.deploy.judge_config.empty());
  EXPECT_DOUBLE_EQ(d.deploy.min_coverage, 0);
  EXPECT_EQ(d.deploy.judge_startup_s, 600);
  EXPECT_EQ(d.deploy.inference_startup_s, 1800);

  // A model agent whose servers the launcher starts: no INFERENCE_URLS needed.
  Arm a = parse_ok(
      "NAME=x\nKERNELS=all\nAGENT=claude-code\nMODEL=Qwen/Qwen3-Coder\n"
      "INFERENCE_NODES=2\nAGENT_NODES=1\nJUDGE_NODES=4\n"
      "INFERENCE_COMMAND=vllm serve {model} --host {host} --port {port} # tp 8\n"
      "INFERENCE_PORT=9000\nJUDGE_PORT=9800\nJUDGE_CONFIG=judge.json\nMIN_COVERAGE=0.75\n"
      "JUDGE_STARTUP_S=120\nINFERENCE_STARTUP_S=3600\n");
  EXPECT_EQ(a.deploy.inference_nodes, 2);
  EXPECT_EQ(a.deploy.agent_nodes, 1);
  EXPECT_EQ(a.deploy.judge_nodes, 4);
  EXPECT_EQ(a.deploy.inference_command, "vllm serve {model} --host {host} --port {port}");
  EXPECT_EQ(a.deploy.inference_port, 9000);
  EXPECT_EQ(a.deploy.judge_port, 9800);
  EXPECT_EQ(a.deploy.judge_config, fs::path("/arms/judge.json"));
  EXPECT_DOUBLE_EQ(a.deploy.min_coverage, 0.75);
  EXPECT_EQ(a.deploy.judge_startup_s, 120);
  EXPECT_EQ(a.deploy.inference_startup_s, 3600);
  EXPECT_TRUE(a.inference_urls.empty());
  EXPECT_EQ(a.judge_urls, std::vector<std::string>{"http://127.0.0.1:8800"});  // untouched

  auto j = parse_arm(R"({"name":"x","kernels":"all","agent":"identity","inference_nodes":1,
                         "inference_command":"hpcab-fake-llm --port {port}","judge_nodes":2,
                         "min_coverage":1,"judge_config":"/etc/j.json"})",
                     "a.json", "/arms");
  ASSERT_TRUE(j.ok()) << j.error().message;
  EXPECT_EQ(j->deploy.inference_nodes, 1);
  EXPECT_EQ(j->deploy.judge_nodes, 2);
  EXPECT_DOUBLE_EQ(j->deploy.min_coverage, 1);
  EXPECT_EQ(j->deploy.judge_config, fs::path("/etc/j.json"));

  const std::string head = "NAME=x\nKERNELS=all\nAGENT=identity\n";
  std::string e = parse_error(head + "JUDGE_NODES=0\n");
  EXPECT_NE(e.find("arm.env:4 (JUDGE_NODES): expected an integer >= 1"), std::string::npos) << e;
  e = parse_error(head + "AGENT_NODES=two\n");
  EXPECT_NE(e.find("expected an integer"), std::string::npos) << e;
  e = parse_error(head + "INFERENCE_NODES=-1\n");
  EXPECT_NE(e.find(">= 0"), std::string::npos) << e;
  e = parse_error(head + "JUDGE_PORT=70000\n");
  EXPECT_NE(e.find("between 1 and 65535"), std::string::npos) << e;
  e = parse_error(head + "MIN_COVERAGE=1.5\n");
  EXPECT_NE(e.find("between 0 and 1"), std::string::npos) << e;
  e = parse_error(head + "JUDGE_STARTUP_S=0\n");
  EXPECT_NE(e.find(">= 1"), std::string::npos) << e;
  e = parse_error(head + "INFERENCE_NODES=1\nINFERENCE_COMMAND=serve --port {prot}\n");
  EXPECT_NE(e.find("unknown placeholder {prot} (known: model, host, port, index)"),
            std::string::npos)
      << e;
  e = parse_error(head + "INFERENCE_NODES=1\n");
  EXPECT_NE(e.find("INFERENCE_COMMAND is required when INFERENCE_NODES > 0"), std::string::npos)
      << e;
  e = parse_error(head + "INFERENCE_COMMAND=serve\n");
  EXPECT_NE(e.find("INFERENCE_COMMAND is set but INFERENCE_NODES is 0"), std::string::npos) << e;
  e = parse_error(head + "INFERENCE_NODES=1\nINFERENCE_COMMAND=serve\nINFERENCE_URLS=http://m:1\n");
  EXPECT_NE(e.find("exclude each other"), std::string::npos) << e;
  e = parse_error(head + "INFERENCE_NODES=1\nINFERENCE_COMMAND=vllm serve {model}\n");
  EXPECT_NE(e.find("MODEL is required when INFERENCE_COMMAND uses {model}"), std::string::npos)
      << e;
  e = parse_error(head + "judge_nodes=2\n");
  EXPECT_NE(e.find("upper case: JUDGE_NODES"), std::string::npos) << e;
  e = parse_error(R"({"name":"x","kernels":"all","agent":"identity","inference_nodes":1})",
                  "a.json");
  EXPECT_NE(e.find("inference_command is required"), std::string::npos) << e;
  // A model agent still needs INFERENCE_URLS when the launcher starts no servers.
  e = parse_error("NAME=x\nKERNELS=all\nAGENT=codex\nMODEL=m\nINFERENCE_NODES=0\n");
  EXPECT_NE(e.find("INFERENCE_URLS is required for AGENT=codex"), std::string::npos) << e;
}

TEST(ArmFile, JudgeConfigMustExistWhenLoaded) {
  TempDir t;
  write(t.path() / "a.env", "NAME=x\nKERNELS=tsvc_2_s000\nAGENT=identity\nJUDGE_CONFIG=j.json\n");
  auto missing = load_arm(t.path() / "a.env");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("JUDGE_CONFIG"), std::string::npos)
      << missing.error().message;
  write(t.path() / "j.json", "{}");
  auto a = load_arm(t.path() / "a.env");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->deploy.judge_config, t.path() / "j.json");
}

TEST(ArmFile, ExampleSlurmArmInDeployLoads) {
  auto a = load_arm(fs::path(HPCAB_SOURCE_DIR) / "deploy/arms/slurm-identity.env");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->deploy.inference_nodes, 0);
  EXPECT_EQ(a->deploy.agent_nodes, 1);
  EXPECT_EQ(a->deploy.judge_nodes, 2);
  EXPECT_DOUBLE_EQ(a->deploy.min_coverage, 1);
}

Arm pinned_arm() {
  Arm a;
  a.name = "pin";
  a.kernels = {"tsvc_2_s000", "tsvc_2_s111", "tsvc_2_s212"};
  a.repetitions = 2;
  a.workers = 4;
  a.inference_urls = {"http://inf0:8000", "http://inf1:8000"};
  a.judge_urls = {"http://judge0:8800", "http://judge1:8800"};
  return a;
}

TEST(Plan, EpisodesAreKernelTimesRepetitionWithStableIds) {
  Arm a = pinned_arm();
  auto plan = plan_episodes(a);
  ASSERT_EQ(plan.size(), 6u);
  // Repetition-major queue order: every kernel once before any repeats.
  EXPECT_EQ(plan[0].id, "pin/tsvc_2_s000/0");
  EXPECT_EQ(plan[1].id, "pin/tsvc_2_s111/0");
  EXPECT_EQ(plan[2].id, "pin/tsvc_2_s212/0");
  EXPECT_EQ(plan[3].id, "pin/tsvc_2_s000/1");
  EXPECT_EQ(plan[5].id, "pin/tsvc_2_s212/1");
  for (std::size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].seq, static_cast<int64_t>(i));
    EXPECT_EQ(plan[i].arm, "pin");
  }
  EXPECT_EQ(plan_episodes(a)[4].id, plan[4].id);  // deterministic
}

TEST(Plan, FourWorkersTwoInferenceUrlsTwoJudges) {
  Arm a = pinned_arm();
  const int ranks[] = {0, 1, 0, 1};
  for (int w = 0; w < 4; ++w) {
    Pin p = pin_worker(a, w);
    EXPECT_EQ(p.worker, w);
    EXPECT_EQ(p.rank, ranks[w]) << "worker " << w;
    EXPECT_EQ(p.inference_url, "http://inf" + std::to_string(w % 2) + ":8000");
    EXPECT_EQ(p.judge_url, "http://judge" + std::to_string(ranks[w]) + ":8800");
  }
  // Three judges: ranks follow w % 3 independently of the inference URLs.
  a.judge_urls.push_back("http://judge2:8800");
  EXPECT_EQ(pin_worker(a, 5).rank, 2);
  EXPECT_EQ(pin_worker(a, 5).inference_url, "http://inf1:8000");
  a.inference_urls.clear();
  EXPECT_EQ(pin_worker(a, 3).inference_url, "");
}

// A GPU arm's workers are pinned only to judges whose /health lists a GPU.
TEST(Plan, GpuArmsRouteOnlyToJudgesReportingAGpu) {
  Arm a = pinned_arm();
  a.judge_urls.push_back("http://judge2:8800");
  const nlohmann::json none = {{"status", "ok"}, {"gpus", nlohmann::json::array()}};
  const nlohmann::json one = {{"status", "ok"},
                              {"gpus", {{{"vendor", "nvidia"}, {"node", "/dev/nvidia0"}}}}};
  const std::vector<std::optional<nlohmann::json>> health = {none, std::nullopt, one};
  // A CPU arm uses every judge, whatever they report.
  auto cpu = gpu_judges(a, health);
  ASSERT_TRUE(cpu.ok());
  EXPECT_EQ(*cpu, (std::vector<int>{0, 1, 2}));
  for (const char* lang : {"cuda", "hip"}) {
    a.language = lang;
    auto route = gpu_judges(a, health);
    ASSERT_TRUE(route.ok()) << route.error().message;
    EXPECT_EQ(*route, std::vector<int>{2});
    for (int w = 0; w < 4; ++w) {
      Pin p = pin_worker(a, w, *route);
      EXPECT_EQ(p.judge_url, "http://judge2:8800") << w;
      EXPECT_EQ(p.rank, 2) << "the rank is the judge's index in JUDGE_URLS";
      EXPECT_EQ(p.inference_url, "http://inf" + std::to_string(w % 2) + ":8000");
    }
    // None with a GPU (one silent, one without "gpus", an old judge): the arm fails up front.
    auto failed = gpu_judges(a, {none, std::nullopt, nlohmann::json{{"status", "ok"}}});
    ASSERT_FALSE(failed.ok());
    const std::string& why = failed.error().message;
    EXPECT_NE(why.find(std::string("LANGUAGE=") + lang), std::string::npos) << why;
    EXPECT_NE(why.find("http://judge0:8800: no GPU"), std::string::npos) << why;
    EXPECT_NE(why.find("http://judge1:8800: no /health answer"), std::string::npos) << why;
    EXPECT_NE(why.find("no \"gpus\""), std::string::npos) << why;
  }
  // Two GPU judges share the workers round robin; an empty route is every judge.
  auto two = gpu_judges(a, {one, none, one});
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(pin_worker(a, 0, *two).rank, 0);
  EXPECT_EQ(pin_worker(a, 1, *two).rank, 2);
  EXPECT_EQ(pin_worker(a, 1, {}).rank, pin_worker(a, 1).rank);
}

// --shard I/N: the shards of one count partition the plan exactly, keeping ids and seq.
TEST(Plan, ShardsPartitionThePlanExactly) {
  Arm a = pinned_arm();
  a.kernels = {"tsvc_2_s000", "tsvc_2_s111", "tsvc_2_s212", "s1112", "s113"};
  a.repetitions = 3;
  const auto whole = plan_episodes(a);
  ASSERT_EQ(whole.size(), 15u);
  EXPECT_EQ(plan_episodes(a, Shard{0, 1}).size(), whole.size());
  for (int n : {1, 2, 3, 4, 15, 16}) {
    std::map<std::string, int64_t> seen;  // id -> seq
    for (int i = 0; i < n; ++i) {
      const auto part = plan_episodes(a, Shard{i, n});
      int64_t last = -1;
      for (const auto& e : part) {
        EXPECT_EQ(e.seq % n, i) << e.id << " in shard " << i << "/" << n;
        EXPECT_GT(e.seq, last) << "queue order within a shard";
        last = e.seq;
        EXPECT_TRUE(seen.emplace(e.id, e.seq).second) << e.id << " in two shards of " << n;
      }
      // Balanced: sizes differ by at most one.
      EXPECT_LE(part.size(), (whole.size() + n - 1) / n);
      EXPECT_GE(part.size(), whole.size() / n);
    }
    ASSERT_EQ(seen.size(), whole.size()) << n << " shards do not cover the plan";
    for (const auto& e : whole) EXPECT_EQ(seen[e.id], e.seq) << e.id;
  }
  // Shard 1/2 starts with the arm's second episode, id and seq unchanged.
  const auto odd = plan_episodes(a, Shard{1, 2});
  ASSERT_FALSE(odd.empty());
  EXPECT_EQ(odd[0].id, "pin/tsvc_2_s111/0");
  EXPECT_EQ(odd[0].seq, 1);
}

TEST(Plan, ParseShard) {
  auto ok = parse_shard("1/3");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->index, 1);
  EXPECT_EQ(ok->count, 3);
  EXPECT_EQ(parse_shard("0/1")->count, 1);
  EXPECT_NE(parse_shard("2/2").error().message.find("must be below N"), std::string::npos);
  EXPECT_NE(parse_shard("0/0").error().message.find("must be >= 1"), std::string::npos);
  for (const char* bad : {"", "1", "/2", "1/", "-1/2", "1/-2", "a/b", "1/2/3", "1 /2", "0x1/2"}) {
    auto r = parse_shard(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_NE(r.error().message.find("I/N"), std::string::npos) << bad;
    }
  }
}

// A daemon with --worker-offset K pins its worker v as the arm's worker K + v: A agent nodes of
// W workers each (offsets 0, W, 2W, ...) pin exactly as one daemon with A x W workers.
TEST(Plan, WorkerOffsetPinsAsTheGlobalWorker) {
  Arm a = pinned_arm();
  a.judge_urls = {"http://judge0:8800", "http://judge1:8800", "http://judge2:8800"};
  a.inference_urls = {"http://inf0:8000", "http://inf1:8000"};
  const int nodes = 2, workers = 2;  // AGENT_NODES 2, WORKERS 2: global workers 0..3
  std::vector<int> ranks;
  for (int node = 0; node < nodes; ++node) {
    for (int v = 0; v < workers; ++v) {
      Pin p = pin_worker(a, node * workers + v);
      EXPECT_EQ(p.worker, node * workers + v);
      ranks.push_back(p.rank);
      EXPECT_EQ(p.judge_url, "http://judge" + std::to_string(p.rank) + ":8800");
      EXPECT_EQ(p.inference_url, "http://inf" + std::to_string((node * workers + v) % 2) + ":8000");
    }
  }
  // Node 1's workers go on to judges 2 and 0 instead of repeating node 0's 0 and 1.
  EXPECT_EQ(ranks, (std::vector<int>{0, 1, 2, 0}));
}

json fake_task() {
  return {
      {"kernel", "tsvc_2_s000"},
      {"language", "c"},
      {"signature", "void tsvc_2_s000_fp64(double *restrict a) {\n}\n"},
      {"symbol", "tsvc_2_s000_fp64"},
      {"prototype", "void tsvc_2_s000_fp64(double *restrict a);"},
      {"reference_numpy", "def tsvc_2_s000(a, b):\n    a[:] = b + 1\n"},
      {"abi_doc", "C ABI: arrays sorted by name."},
      {"arrays",
       json::array(
           {{{"name", "a"}, {"dtype", "real"}, {"shape", json::array({"N"})}, {"intent", "out"}}})},
      {"sizes", {{"N", 32000}}},
      {"preset", "S"},
      {"rtol", 1e-9},
      {"atol", 1e-12}};
}

TEST(Prompt, BudgetSentenceCarriesTheEnforcedNumbers) {
  Arm a = pinned_arm();
  a.wall_budget_s = 1800;
  a.token_budget = 150000;
  a.token_weights = {1, 0.1, 1};
  Budget b = episode_budget(a);
  EXPECT_EQ(b.wall_s, 1800);
  EXPECT_EQ(b.tokens, 150000);
  std::string s = budget_sentence(b);
  EXPECT_NE(s.find("1800 seconds (30 min)"), std::string::npos) << s;
  EXPECT_NE(s.find("150000 weighted tokens"), std::string::npos) << s;
  EXPECT_NE(s.find("cached input token 0.1"), std::string::npos) << s;

  // The rerun after a limit: the sentence follows the multiplied budget.
  Budget rerun = episode_budget(a, 2.0);
  EXPECT_EQ(rerun.wall_s, 3600);
  EXPECT_EQ(rerun.tokens, 300000);
  std::string r = budget_sentence(rerun);
  EXPECT_NE(r.find("3600 seconds (1 h 0 min)"), std::string::npos) << r;
  EXPECT_NE(r.find("300000 weighted tokens"), std::string::npos) << r;

  a.token_budget = 0;
  std::string unlimited = budget_sentence(episode_budget(a));
  EXPECT_NE(unlimited.find("no token limit"), std::string::npos) << unlimited;
  EXPECT_EQ(unlimited.find("weighted tokens"), std::string::npos) << unlimited;
}

TEST(Prompt, RendersEveryPlaceholder) {
  Budget b{600, 1000, {}};
  std::string templ =
      "K={kernel} L={language}\n{budget_sentence}\n{tools}\nSIG:{signature}\nREF:{reference_numpy}"
      "\nABI:{abi}\nliteral { braces } and {Upper} and ${HOME} stay\n";
  auto p = render_prompt(templ, fake_task(), "c", b, "single");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_NE(p->find("K=tsvc_2_s000 L=c\n"), std::string::npos) << *p;
  EXPECT_NE(p->find(budget_sentence(b)), std::string::npos);
  EXPECT_NE(p->find("You may submit once"), std::string::npos);
  EXPECT_NE(p->find("SIG:void tsvc_2_s000_fp64"), std::string::npos);
  EXPECT_NE(p->find("REF:def tsvc_2_s000(a, b):"), std::string::npos);
  EXPECT_NE(p->find("ABI:C ABI: arrays sorted by name."), std::string::npos);
  EXPECT_NE(p->find("literal { braces } and {Upper} and ${HOME} stay"), std::string::npos);
  EXPECT_EQ(p->find("{kernel}"), std::string::npos);

  auto multi = render_prompt("{tools}", fake_task(), "c", b, "multiple");
  ASSERT_TRUE(multi.ok());
  EXPECT_NE(multi->find("several times"), std::string::npos);

  auto def = render_prompt(kDefaultPromptTemplate, fake_task(), "c", b, "single");
  ASSERT_TRUE(def.ok()) << def.error().message;
  EXPECT_NE(def->find("make `tsvc_2_s000` fast"), std::string::npos);
}

TEST(Prompt, UnknownPlaceholderIsAnError) {
  auto p = render_prompt("Hello {kernal}", fake_task(), "c", Budget{}, "single");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("unknown placeholder {kernal}"), std::string::npos)
      << p.error().message;
  EXPECT_NE(p.error().message.find("{kernel}"), std::string::npos);  // lists the known ones

  json incomplete = fake_task();
  incomplete.erase("reference_numpy");
  EXPECT_FALSE(render_prompt("{kernel}", incomplete, "c", Budget{}, "single").ok());
}

TEST(Workspace, WritesTaskFilesIntoAFreshFolder) {
  TempDir t;
  fs::path ws = t.path() / "episodes" / "tsvc_2_s000-0";
  json task = fake_task();
  ASSERT_TRUE(prepare_workspace(ws, task, "the prompt\n").ok());
  EXPECT_EQ(read(ws / "reference.py"), task["reference_numpy"].get<std::string>());
  EXPECT_EQ(read(ws / "kernel.c"), task["signature"].get<std::string>());
  EXPECT_EQ(read(ws / "PROMPT.md"), "the prompt\n");
  std::string abi = read(ws / "ABI.md");
  EXPECT_NE(abi.find("tsvc_2_s000_fp64"), std::string::npos) << abi;
  EXPECT_NE(abi.find("| a | real | (N) | out |"), std::string::npos) << abi;
  EXPECT_NE(abi.find("C ABI: arrays sorted by name."), std::string::npos) << abi;
  EXPECT_EQ(json::parse(read(ws / "task.json")), task);

  // Not fresh any more: refused, nothing overwritten.
  auto again = prepare_workspace(ws, task, "other\n");
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("not an empty folder"), std::string::npos);
  EXPECT_EQ(read(ws / "PROMPT.md"), "the prompt\n");

  task["language"] = "fortran";
  ASSERT_TRUE(prepare_workspace(t.path() / "f", task, "p").ok());
  EXPECT_TRUE(fs::exists(t.path() / "f" / "kernel.f90"));
  task["language"] = "cpp";
  ASSERT_TRUE(prepare_workspace(t.path() / "cpp", task, "p").ok());
  EXPECT_TRUE(fs::exists(t.path() / "cpp" / "kernel.cpp"));
  // Python: the stub module beside the NumPy reference.
  task["language"] = "python";
  ASSERT_TRUE(prepare_workspace(t.path() / "py", task, "p").ok());
  EXPECT_EQ(read(t.path() / "py" / "kernel.py"), task["signature"].get<std::string>());
  EXPECT_TRUE(fs::exists(t.path() / "py" / "reference.py"));
  EXPECT_EQ(stub_file_name("python"), "kernel.py");

  json broken = fake_task();
  broken.erase("abi_doc");
  EXPECT_FALSE(prepare_workspace(t.path() / "b", broken, "p").ok());
}

std::unique_ptr<EpisodeDb> open_db(const fs::path& p) {
  auto db = EpisodeDb::open(p.string());
  EXPECT_TRUE(db.ok()) << (db.ok() ? "" : db.error().message);
  return db.ok() ? std::move(*db) : nullptr;
}

// Claims, counts and lists only see the shard they are given; a shard never takes another's
// episodes even from a shared database.
TEST(EpisodeDb, ClaimCountsAndListHonourTheShard) {
  TempDir t;
  auto db = open_db(t.path() / "h.db");
  ASSERT_TRUE(db);
  Arm a = pinned_arm();  // 6 episodes
  ASSERT_EQ(*db->enqueue(plan_episodes(a, Shard{1, 2})), 3);
  EXPECT_EQ(db->counts("pin", Shard{1, 2})->queued, 3);
  EXPECT_EQ(db->counts("pin", Shard{0, 2})->queued, 0);
  EXPECT_EQ(db->counts("pin")->queued, 3);
  EXPECT_FALSE(db->claim("pin", pin_worker(a, 0), 1.0, Shard{0, 2})->has_value());
  ASSERT_EQ(*db->enqueue(plan_episodes(a)), 3);  // the other half
  std::vector<int64_t> seqs;
  for (;;) {
    auto c = db->claim("pin", pin_worker(a, 5), 2.0, Shard{1, 2});
    ASSERT_TRUE(c.ok());
    if (!*c) break;
    EXPECT_EQ((*c)->worker, 5);
    EXPECT_EQ((*c)->rank, 1);
    seqs.push_back((*c)->seq);
  }
  EXPECT_EQ(seqs, (std::vector<int64_t>{1, 3, 5}));
  EXPECT_EQ(db->counts("pin", Shard{1, 2})->running, 3);
  EXPECT_EQ(db->counts("pin", Shard{0, 2})->queued, 3);
  auto even = db->list("pin", Shard{0, 2});
  ASSERT_TRUE(even.ok());
  ASSERT_EQ(even->size(), 3u);
  for (const auto& r : *even) EXPECT_EQ(r.seq % 2, 0) << r.id;
  EXPECT_EQ(db->list("pin")->size(), 6u);
}

TEST(EpisodeDb, EnqueueTwiceIsIdempotent) {
  TempDir t;
  auto db = open_db(t.path() / "var" / "h.db");
  ASSERT_TRUE(db);
  EXPECT_EQ(db->schema_version(), 5);
  auto plan = plan_episodes(pinned_arm());
  auto n = db->enqueue(plan);
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(*n, 6);

  // Finish one, then enqueue the same plan again: nothing added, nothing reset.
  auto c = db->claim("pin", pin_worker(pinned_arm(), 0), 100.0);
  ASSERT_TRUE(c.ok() && *c);
  ASSERT_TRUE(db->finish((*c)->id, {"submitted", 0, 7, "ok"}, 101.0).ok());
  auto again = db->enqueue(plan);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 0);
  auto rows = db->list("pin");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 6u);
  EXPECT_EQ((*rows)[0].status, "finished");
  EXPECT_EQ((*rows)[0].final_submission_id, 7);
  auto counts = db->counts("pin");
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->finished, 1);
  EXPECT_EQ(counts->queued, 5);
  EXPECT_EQ(counts->total(), 6);
}

TEST(EpisodeDb, ClaimPinsTheWorkerAndFinishRecordsTheExit) {
  TempDir t;
  auto db = open_db(t.path() / "h.db");
  ASSERT_TRUE(db);
  Arm a = pinned_arm();
  ASSERT_TRUE(db->enqueue(plan_episodes(a)).ok());

  std::vector<std::string> claimed;
  for (int w = 0; w < 4; ++w) {
    auto c = db->claim("pin", pin_worker(a, w), 10.0 + w);
    ASSERT_TRUE(c.ok()) << c.error().message;
    ASSERT_TRUE(c->has_value());
    const EpisodeRow& r = **c;
    claimed.push_back(r.id);
    EXPECT_EQ(r.status, "running");
    EXPECT_EQ(r.worker, w);
    EXPECT_EQ(r.attempt, 1);
    EXPECT_EQ(r.rank, w % 2);
    EXPECT_EQ(r.judge_url, "http://judge" + std::to_string(w % 2) + ":8800");
    EXPECT_EQ(r.inference_url, "http://inf" + std::to_string(w % 2) + ":8000");
    EXPECT_EQ(r.started_at, 10.0 + w);
  }
  // Queue order is plan order.
  EXPECT_EQ(claimed, (std::vector<std::string>{"pin/tsvc_2_s000/0", "pin/tsvc_2_s111/0",
                                               "pin/tsvc_2_s212/0", "pin/tsvc_2_s000/1"}));

  ASSERT_TRUE(db->finish("pin/tsvc_2_s000/0", {"submitted", 0, 42, "ok"}, 20.0).ok());
  ASSERT_TRUE(db->fail("pin/tsvc_2_s111/0", {"crash", 139, std::nullopt, ""}, 21.0).ok());
  auto r = db->get("pin/tsvc_2_s000/0");
  ASSERT_TRUE(r.ok() && *r);
  EXPECT_EQ((*r)->status, "finished");
  EXPECT_EQ((*r)->exit_reason, "submitted");
  EXPECT_EQ((*r)->exit_code, 0);
  EXPECT_EQ((*r)->final_submission_id, 42);
  EXPECT_EQ((*r)->final_verdict, "ok");
  EXPECT_EQ((*r)->ended_at, 20.0);
  auto f = db->get("pin/tsvc_2_s111/0");
  ASSERT_TRUE(f.ok() && *f);
  EXPECT_EQ((*f)->status, "failed");
  EXPECT_EQ((*f)->exit_code, 139);
  EXPECT_FALSE((*f)->final_submission_id.has_value());

  // Finishing twice, or an episode that is not running, is refused.
  auto twice = db->finish("pin/tsvc_2_s000/0", {"submitted", 0, 43, "ok"}, 22.0);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("not running"), std::string::npos);
  EXPECT_FALSE(db->finish("pin/tsvc_2_s212/1", {"x", 0, std::nullopt, ""}, 22.0).ok());

  // Two more claims drain the queue; then nothing is waiting.
  EXPECT_TRUE(db->claim("pin", pin_worker(a, 0), 30.0)->has_value());
  EXPECT_TRUE(db->claim("pin", pin_worker(a, 1), 30.0)->has_value());
  auto none = db->claim("pin", pin_worker(a, 2), 30.0);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  auto counts = db->counts("pin");
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->running, 4);
  EXPECT_EQ(counts->finished, 1);
  EXPECT_EQ(counts->failed, 1);
  EXPECT_EQ(counts->waiting(), 0);
  // Another arm in the same file is a separate queue.
  auto other = db->claim("other-arm", pin_worker(a, 0), 30.0);
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->has_value());
}

TEST(EpisodeDb, ResumeAfterACrashRequeuesRunningWithoutDuplicatingFinished) {
  TempDir t;
  fs::path file = t.path() / "h.db";
  Arm a = pinned_arm();
  {
    // The first daemon: finishes two episodes, is killed with two running.
    auto db = open_db(file);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->enqueue(plan_episodes(a)).ok());
    for (int w = 0; w < 4; ++w) ASSERT_TRUE(db->claim("pin", pin_worker(a, w), 1.0)->has_value());
    ASSERT_TRUE(db->finish("pin/tsvc_2_s000/0", {"submitted", 0, 1, "ok"}, 2.0).ok());
    ASSERT_TRUE(db->finish("pin/tsvc_2_s111/0", {"submitted", 0, 2, "incorrect"}, 2.0).ok());
    // No clean shutdown: the object is dropped as a killed process would leave the file.
  }
  // The restarted daemon opens the same file, re-enqueues its plan and resumes.
  auto db = open_db(file);
  ASSERT_TRUE(db);
  ASSERT_EQ(*db->enqueue(plan_episodes(a)), 0);
  auto n = db->resume("pin", 5.0);
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(*n, 2);
  auto counts = db->counts("pin");
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->interrupted, 2);
  EXPECT_EQ(counts->queued, 2);
  EXPECT_EQ(counts->running, 0);
  EXPECT_EQ(counts->finished, 2);
  auto interrupted = db->get("pin/tsvc_2_s212/0");
  ASSERT_TRUE(interrupted.ok() && *interrupted);
  EXPECT_EQ((*interrupted)->status, "interrupted");
  EXPECT_EQ((*interrupted)->exit_reason, "daemon_died");

  // Interrupted episodes come back first, with a new attempt; finished ones never come back.
  std::vector<std::string> order;
  for (int w = 0;; ++w) {
    auto c = db->claim("pin", pin_worker(a, w % 4), 6.0);
    ASSERT_TRUE(c.ok()) << c.error().message;
    if (!c->has_value()) break;
    order.push_back((*c)->id);
    if ((*c)->id == "pin/tsvc_2_s212/0" || (*c)->id == "pin/tsvc_2_s000/1") {
      EXPECT_EQ((*c)->attempt, 2) << (*c)->id;
    } else {
      EXPECT_EQ((*c)->attempt, 1) << (*c)->id;
    }
    ASSERT_TRUE(db->finish((*c)->id, {"submitted", 0, 100 + w, "ok"}, 7.0).ok());
  }
  EXPECT_EQ(order, (std::vector<std::string>{"pin/tsvc_2_s212/0", "pin/tsvc_2_s000/1",
                                             "pin/tsvc_2_s111/1", "pin/tsvc_2_s212/1"}));
  auto rows = db->list("pin");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 6u);
  for (const auto& r : *rows) EXPECT_EQ(r.status, "finished") << r.id;
  EXPECT_EQ((*rows)[0].final_submission_id, 1);  // the first daemon's answer, untouched
  EXPECT_EQ((*rows)[0].attempt, 1);
  EXPECT_EQ(*db->resume("pin", 8.0), 0);
}

TEST(EpisodeDb, RequestRowsSumIntoEpisodeTotals) {
  TempDir t;
  auto db = open_db(t.path() / "h.db");
  ASSERT_TRUE(db);
  Arm a = pinned_arm();
  ASSERT_TRUE(db->enqueue(plan_episodes(a)).ok());
  auto c = db->claim("pin", pin_worker(a, 0), 1.0);
  ASSERT_TRUE(c.ok() && *c);
  const std::string id = (*c)->id;
  TokenWeights w{1, 0.1, 1};
  const RequestUsage reqs[] = {
      {1.5, "m", "/v1/chat/completions", 1000, 0, 200, 120.0, 200},
      {2.5, "m", "/v1/chat/completions", 300, 1000, 150, 80.0, 200},
      {3.5, "m", "/v1/messages", 50, 2000, 25, 40.0, 200},
  };
  EpisodeRow last;
  for (const auto& r : reqs) {
    auto row = db->add_request(id, r, w);
    ASSERT_TRUE(row.ok()) << row.error().message;
    last = *row;
  }
  EXPECT_EQ(last.input_tokens, 1350);
  EXPECT_EQ(last.cached_tokens, 3000);
  EXPECT_EQ(last.output_tokens, 375);
  EXPECT_EQ(last.requests, 3);
  EXPECT_NEAR(last.weighted_tokens, 1350 + 300 + 375, 1e-9);

  auto stored = db->requests(id);
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(stored->size(), 3u);
  int64_t in = 0, cached = 0, out = 0;
  for (const auto& r : *stored) {
    in += r.input;
    cached += r.cached;
    out += r.output;
  }
  auto row = db->get(id);
  ASSERT_TRUE(row.ok() && *row);
  EXPECT_EQ((*row)->input_tokens, in);
  EXPECT_EQ((*row)->cached_tokens, cached);
  EXPECT_EQ((*row)->output_tokens, out);
  EXPECT_EQ((*stored)[2].route, "/v1/messages");

  auto counts = db->counts("pin");
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->requests, 3);
  EXPECT_EQ(counts->input_tokens + counts->cached_tokens + counts->output_tokens, 4725);
  std::string line = status_line(*counts);
  EXPECT_NE(line.find("running 1"), std::string::npos) << line;
  EXPECT_NE(line.find("queued 5"), std::string::npos) << line;
  EXPECT_NE(line.find("tokens 4725"), std::string::npos) << line;

  // A request for an episode that does not exist is refused (foreign key), totals unchanged.
  EXPECT_FALSE(db->add_request("pin/nope/0", reqs[0], w).ok());
}

// Each request row says where its tokens came from; the episode counts requests by source and
// names its tokens reported, counted, estimated or mixed; the status line shows the proxy's.
TEST(EpisodeDb, RequestsRecordWhereTheirTokensCameFrom) {
  TempDir t;
  auto db = open_db(t.path() / "h.db");
  ASSERT_TRUE(db);
  Arm a = pinned_arm();
  ASSERT_TRUE(db->enqueue(plan_episodes(a)).ok());
  auto c = db->claim("pin", pin_worker(a, 0), 1.0);
  ASSERT_TRUE(c.ok() && *c);
  const std::string id = (*c)->id;
  EXPECT_EQ(tokens_source(**c), "none");
  auto add = [&](const char* source, int64_t input) {
    RequestUsage r{1.0, "m", "/v1/chat/completions", input, 0, 5, 1.0, 200};
    r.tokens_source = source;
    auto row = db->add_request(id, r, TokenWeights{});
    EXPECT_TRUE(row.ok()) << row.error().message;
    return row.ok() ? *row : EpisodeRow{};
  };
  EpisodeRow row = add("none", 0);
  EXPECT_EQ(tokens_source(row), "none");
  row = add("counted", 10);
  EXPECT_EQ(row.counted_requests, 1);
  EXPECT_EQ(tokens_source(row), "counted");
  row = add("counted", 20);
  EXPECT_EQ(tokens_source(row), "counted");
  EXPECT_EQ(row.input_tokens, 30);
  row = add("estimated", 4);
  EXPECT_EQ(row.estimated_requests, 1);
  EXPECT_EQ(tokens_source(row), "mixed");
  EXPECT_EQ(tokens_source(3, 0, 0), "reported");
  EXPECT_EQ(tokens_source(0, 0, 2), "estimated");
  EXPECT_EQ(tokens_source(1, 1, 0), "mixed");
  auto stored = db->requests(id);
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(stored->size(), 4u);
  EXPECT_EQ((*stored)[0].tokens_source, "none");
  EXPECT_EQ((*stored)[1].tokens_source, "counted");
  EXPECT_EQ((*stored)[3].tokens_source, "estimated");
  RequestUsage bad;
  bad.tokens_source = "guessed";
  EXPECT_FALSE(db->add_request(id, bad, TokenWeights{}).ok());  // CHECK constraint
  auto counts = db->counts("pin");
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->counted_requests, 2);
  EXPECT_EQ(counts->estimated_requests, 1);
  const std::string line = status_line(*counts);
  EXPECT_NE(line.find("4 requests, 2 counted, 1 estimated)"), std::string::npos) << line;
  EpisodeCounts reported;
  reported.requests = 2;
  EXPECT_EQ(status_line(reported).find("counted"), std::string::npos);
}

TEST(EpisodeDb, LimitRerunHappensOnceWithTheFactor) {
  TempDir t;
  auto db = open_db(t.path() / "h.db");
  ASSERT_TRUE(db);
  Arm a = pinned_arm();
  a.kernels = {"tsvc_2_s000"};
  a.repetitions = 1;
  ASSERT_TRUE(db->enqueue(plan_episodes(a)).ok());
  ASSERT_TRUE(db->claim("pin", pin_worker(a, 0), 1.0)->has_value());
  auto first =
      db->requeue_for_rerun("pin/tsvc_2_s000/0", {"wall_budget", 124, std::nullopt, ""}, 2.0, 2.0);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_TRUE(*first);
  auto c = db->claim("pin", pin_worker(a, 1), 3.0);
  ASSERT_TRUE(c.ok() && *c);
  EXPECT_EQ((*c)->attempt, 2);
  EXPECT_DOUBLE_EQ((*c)->budget_factor, 2.0);
  EXPECT_EQ((*c)->rank, 1);
  auto second =
      db->requeue_for_rerun("pin/tsvc_2_s000/0", {"wall_budget", 124, std::nullopt, ""}, 2.0, 4.0);
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(*second);  // only once: the caller finishes it with 124
  ASSERT_TRUE(db->finish("pin/tsvc_2_s000/0", {"wall_budget", 124, std::nullopt, ""}, 4.0).ok());
  auto r = db->get("pin/tsvc_2_s000/0");
  ASSERT_TRUE(r.ok() && *r);
  EXPECT_EQ((*r)->exit_code, 124);
  EXPECT_EQ((*r)->limit_reruns, 1);
}

// An attempt the infrastructure ended is infra_failed, handed out again at most
// `max_infra_requeues` times by one daemon run (after the interrupted and queued ones), and a new
// run (resume) gives it its requeues anew. Its counts show apart from agent failures.
TEST(EpisodeDb, InfraFailuresAreHandedOutAgainAFewTimesPerRun) {
  TempDir t;
  auto db = open_db(t.path() / "h.db");
  ASSERT_TRUE(db);
  Arm a = pinned_arm();  // 6 episodes
  auto plan = plan_episodes(a);
  ASSERT_TRUE(db->enqueue(plan).ok());
  const Pin pin = pin_worker(a, 0);
  auto first = db->claim("pin", pin, 1.0, {}, 1);
  ASSERT_TRUE(first.ok() && *first);
  const std::string id = (*first)->id;
  ASSERT_TRUE(db->infra_fail(id, {"judge_unreachable", -1, {}, ""}, 2.0).ok());
  auto row = db->get(id);
  ASSERT_TRUE(row.ok() && *row);
  EXPECT_EQ((*row)->status, "infra_failed");
  EXPECT_EQ((*row)->exit_reason, "judge_unreachable");
  EXPECT_EQ((*row)->infra_failures, 1);
  auto c = db->counts("pin");
  EXPECT_EQ(c->infra_failed, 1);
  EXPECT_EQ(c->failed, 0);
  EXPECT_EQ(c->total(), 6);
  EXPECT_NE(status_line(*c).find("| infra 1 |"), std::string::npos) << status_line(*c);
  // Not running any more: finishing it is an error.
  EXPECT_FALSE(db->infra_fail(id, {"judge_unreachable", -1, {}, ""}, 2.0).ok());

  // Queued episodes first, then the infra_failed one, once (max 1).
  std::vector<std::string> order;
  for (;;) {
    auto n = db->claim("pin", pin, 3.0, {}, 1);
    ASSERT_TRUE(n.ok());
    if (!*n) break;
    order.push_back((*n)->id);
    if ((*n)->id == id) {
      EXPECT_EQ((*n)->attempt, 2);
      EXPECT_EQ((*n)->infra_requeues, 1);
      ASSERT_TRUE(db->infra_fail(id, {"judge_fault", -1, {}, ""}, 4.0).ok());
    } else {
      ASSERT_TRUE(db->finish((*n)->id, {"submitted", 0, 1, "ok"}, 4.0).ok());
    }
  }
  ASSERT_EQ(order.size(), 6u);
  EXPECT_EQ(order.back(), id);
  EXPECT_EQ((*db->get(id))->status, "infra_failed");
  EXPECT_EQ((*db->get(id))->infra_failures, 2);
  // With 0 requeues allowed, nothing is handed out; a new daemon run (resume) allows them again.
  EXPECT_FALSE(db->claim("pin", pin, 5.0, {}, 1)->has_value());
  ASSERT_TRUE(db->resume("pin", 6.0).ok());
  EXPECT_EQ((*db->get(id))->infra_requeues, 0);
  auto again = db->claim("pin", pin, 7.0, {}, 1);
  ASSERT_TRUE(again.ok() && *again);
  EXPECT_EQ((*again)->id, id);
  EXPECT_EQ((*again)->attempt, 3);
  ASSERT_TRUE(db->finish(id, {"submitted", 0, 9, "ok"}, 8.0).ok());
  EXPECT_EQ(db->counts("pin")->finished, 6);
  EXPECT_EQ(db->counts("pin")->infra_failed, 0);
}

// A database written by the previous release (schema 2) is migrated in place: every episode and
// request kept, the new status accepted.
TEST(EpisodeDb, MigratesAVersion2FileKeepingEveryRow) {
  TempDir t;
  const fs::path file = t.path() / "old.db";
  {
    db::Options o;
    o.owner = "test";
    auto c = db::Connection::open(file.string(), o);
    ASSERT_TRUE(c.ok()) << c.error().message;
    ASSERT_TRUE(c->exec(R"sql(
CREATE TABLE episodes (
  id TEXT PRIMARY KEY, arm TEXT NOT NULL, kernel TEXT NOT NULL, repetition INTEGER NOT NULL,
  seq INTEGER NOT NULL, worker INTEGER, attempt INTEGER NOT NULL DEFAULT 0,
  inference_url TEXT NOT NULL DEFAULT '', judge_url TEXT NOT NULL DEFAULT '', rank INTEGER,
  started_at REAL, ended_at REAL, status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'running', 'finished', 'interrupted', 'failed')),
  exit_reason TEXT NOT NULL DEFAULT '', exit_code INTEGER,
  input_tokens INTEGER NOT NULL DEFAULT 0, cached_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0, weighted_tokens REAL NOT NULL DEFAULT 0,
  requests INTEGER NOT NULL DEFAULT 0, budget_factor REAL NOT NULL DEFAULT 1,
  limit_reruns INTEGER NOT NULL DEFAULT 0, final_submission_id INTEGER,
  final_verdict TEXT NOT NULL DEFAULT '');
CREATE INDEX episodes_queue ON episodes (arm, status, seq);
CREATE TABLE requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT, episode_id TEXT NOT NULL REFERENCES episodes (id),
  at REAL NOT NULL, model TEXT NOT NULL, route TEXT NOT NULL, input INTEGER NOT NULL,
  cached INTEGER NOT NULL, output INTEGER NOT NULL, latency_ms REAL NOT NULL,
  status INTEGER NOT NULL);
CREATE INDEX requests_episode ON requests (episode_id);
CREATE TABLE arms (name TEXT PRIMARY KEY, agent TEXT NOT NULL, model TEXT NOT NULL,
  language TEXT NOT NULL, setup_json TEXT NOT NULL, arm_file TEXT NOT NULL,
  arm_text TEXT NOT NULL, prompt_text TEXT NOT NULL, first_run_at REAL NOT NULL,
  last_run_at REAL NOT NULL);
INSERT INTO episodes (id, arm, kernel, repetition, seq, attempt, status, exit_reason, exit_code,
  input_tokens, requests, final_submission_id, final_verdict)
VALUES ('old/tsvc_2_s000/0', 'old', 'tsvc_2_s000', 0, 0, 1, 'finished', 'submitted', 0, 40, 1, 5, 'ok'),
       ('old/tsvc_2_s111/0', 'old', 'tsvc_2_s111', 0, 1, 0, 'queued', '', NULL, 0, 0, NULL, '');
INSERT INTO requests (episode_id, at, model, route, input, cached, output, latency_ms, status)
VALUES ('old/tsvc_2_s000/0', 1.0, 'm', '/v1/chat/completions', 40, 0, 3, 12.5, 200);
PRAGMA user_version = 2;
)sql",
                        "writing a version 2 file")
                    .ok());
  }
  auto db = open_db(file);
  ASSERT_TRUE(db);
  EXPECT_EQ(db->schema_version(), 5);
  // Migration 5: a migrated file records the search tool's queries.
  SearchUsage q;
  q.at = 2.0;
  q.query = "gcc vectorize";
  q.results_json = R"([{"title":"t","url":"https://gcc.gnu.org/","snippet":""}])";
  q.kept = 1;
  ASSERT_TRUE(db->add_search("old/tsvc_2_s000/0", q).ok());
  auto searches = db->searches("old/tsvc_2_s000/0");
  ASSERT_TRUE(searches.ok());
  ASSERT_EQ(searches->size(), 1u);
  EXPECT_EQ((*searches)[0].query, "gcc vectorize");
  EXPECT_EQ((*searches)[0].results_json, q.results_json);
  EXPECT_TRUE(db->searches("old/tsvc_2_s111/0")->empty());
  auto rows = db->list("old");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].status, "finished");
  EXPECT_EQ((*rows)[0].final_submission_id, 5);
  EXPECT_EQ((*rows)[0].input_tokens, 40);
  EXPECT_EQ((*rows)[0].infra_failures, 0);
  auto reqs = db->requests("old/tsvc_2_s000/0");
  ASSERT_TRUE(reqs.ok());
  ASSERT_EQ(reqs->size(), 1u);
  EXPECT_EQ((*reqs)[0].output, 3);
  // Version 4: the old request's tokens were the server's; the unused episode has none.
  EXPECT_EQ((*reqs)[0].tokens_source, "reported");
  EXPECT_EQ((*rows)[0].reported_requests, 1);
  EXPECT_EQ(tokens_source((*rows)[0]), "reported");
  EXPECT_EQ(tokens_source((*rows)[1]), "none");
  // The new status is accepted, and requests still refer to episodes.
  Arm a = pinned_arm();
  auto c = db->claim("old", pin_worker(a, 0), 2.0);
  ASSERT_TRUE(c.ok() && *c);
  EXPECT_TRUE(db->infra_fail((*c)->id, {"judge_fault", -1, {}, ""}, 3.0).ok());
  EXPECT_TRUE(db->add_request("old/tsvc_2_s111/0", {}, TokenWeights{}).ok());
  EXPECT_FALSE(db->add_request("old/nope/0", {}, TokenWeights{}).ok());
}

TEST(EpisodeDb, TwoConnectionsNeverClaimTheSameEpisode) {
  TempDir t;
  fs::path file = t.path() / "h.db";
  Arm a = pinned_arm();
  a.repetitions = 10;  // 30 episodes
  auto first = open_db(file);
  auto second = open_db(file);
  ASSERT_TRUE(first && second);
  ASSERT_EQ(*first->enqueue(plan_episodes(a)), 30);
  std::vector<std::string> got[2];
  auto drain = [&](EpisodeDb* db, int w, std::vector<std::string>* out) {
    for (;;) {
      auto c = db->claim("pin", pin_worker(a, w), 1.0);
      if (!c.ok() || !c->has_value()) return;
      out->push_back((*c)->id);
    }
  };
  std::thread t0(drain, first.get(), 0, &got[0]);
  std::thread t1(drain, second.get(), 1, &got[1]);
  t0.join();
  t1.join();
  std::set<std::string> all(got[0].begin(), got[0].end());
  all.insert(got[1].begin(), got[1].end());
  EXPECT_EQ(got[0].size() + got[1].size(), 30u);
  EXPECT_EQ(all.size(), 30u);
  auto counts = first->counts("pin");
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->running, 30);
}

}  // namespace
}  // namespace hpcab::harness
