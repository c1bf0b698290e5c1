// `hpcab regrade`'s rules (cli/regrade.h) on a real judge database written by Store, against a
// fake judge B: which answers are taken, what is skipped and why, what B is sent, and that a
// stopped regrade resumes without losing or repeating an answer.
#include "cli/regrade.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "judge/store/store.h"

namespace hpcab::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Judge B: grades every answer ok with a speedup read from the source's "speed=<x>" marker, or
// fails answers whose source contains "b-fault" (a judge fault) until `heal` is set.
class FakeJudge : public RegradeTarget {
 public:
  Platform platform{"x86_64", "x86-64-v3", {}};
  bool heal = false;
  std::map<std::string, int> submits;  // Idempotency-Key -> times sent
  std::vector<json> bodies;

  Result<TargetInfo> health() override { return TargetInfo{platform, 3, "fake-b"}; }
  TargetAnswer submit(const json& body, const std::string& key) override {
    ++submits[key];
    bodies.push_back(body);
    const std::string source = body["source"];
    TargetAnswer a;
    if (source.find("b-fault") != std::string::npos && !heal) {
      a.reason = "HTTP 200 judge_error";
      return a;
    }
    a.graded = true;
    const auto at = source.find("speed=");
    a.verdict = source.find("b-wrong") != std::string::npos ? "incorrect" : "ok";
    if (a.verdict == "ok" && at != std::string::npos) a.speedup = std::stod(source.substr(at + 6));
    a.submission_id = static_cast<long long>(bodies.size());
    return a;
  }
};

class RegradeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("hpcab-regrade-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto store = judge::Store::open((dir_ / "a.db").string());
    ASSERT_TRUE(store.ok());
    store_ = std::move(*store);
  }
  void TearDown() override {
    if (store_) store_->close();
    fs::remove_all(dir_);
  }

  // One /submit recorded on A.
  long long record(const std::string& run_id, const std::string& kernel, const std::string& source,
                   const std::string& verdict, std::optional<double> speedup,
                   const std::string& language = "c") {
    judge::SubmissionRecord r;
    r.route = "submit";
    r.kernel = kernel;
    r.language = language;
    r.precision = "fp64";
    r.preset = "M";
    r.sizes_json = "{}";
    r.source = source;
    r.build_tokens_json = R"(["-DUNROLL=4"])";
    r.verdict = verdict;
    r.speedup = speedup;
    r.run_id = run_id;
    r.optimizer = "builtin";
    r.machine = "a | cpu | 2 cpus | gcc | py | timing protocol 3 | x86_64 x86-64-v3";
    r.received_at = r.finished_at = 1e9;
    r.response_json = R"({"residency": "host"})";
    auto id = store_->record_submission(r);
    EXPECT_TRUE(id.ok());
    return id.ok() ? *id : 0;
  }

  RegradeOptions options() const {
    RegradeOptions o;
    o.db_path = (dir_ / "a.db").string();
    o.out_dir = (dir_ / "out").string();
    return o;
  }

  fs::path dir_;
  std::unique_ptr<judge::Store> store_;
};

TEST_F(RegradeTest, EachEpisodeGivesItsBestAndItsFinalAnswer) {
  const auto a1 = record("arm/gemm/0#1", "gemm", "speed=2", "ok", 2.0);
  const auto a2 = record("arm/gemm/0#2", "gemm", "speed=3", "ok", 3.0);
  const auto a3 = record("arm/gemm/0#3", "gemm", "wrong", "incorrect", std::nullopt);
  const auto b1 = record("arm/relu/0#1", "relu", "speed=1.5", "ok", 1.5);
  const auto c1 = record("other/gemm/0#1", "gemm", "speed=1", "ok", 1.0);
  store_->close();
  auto all = read_answers((dir_ / "a.db").string());
  ASSERT_TRUE(all.ok()) << all.error().message;
  ASSERT_EQ(all->size(), 5u);
  EXPECT_EQ((*all)[0].episode, "arm/gemm/0");
  EXPECT_EQ((*all)[0].build, std::vector<std::string>{"-DUNROLL=4"});

  auto ids = [&](Selection s) {
    std::vector<std::pair<long long, std::string>> out;
    for (const auto& a : select_answers(*all, s)) out.emplace_back(a.id, a.which);
    return out;
  };
  using P = std::vector<std::pair<long long, std::string>>;
  EXPECT_EQ(ids({}), (P{{a2, "best"}, {a3, "final"}, {b1, "best,final"}, {c1, "best,final"}}));
  EXPECT_EQ(ids({Which::kBest, {}, {}}), (P{{a2, "best"}, {b1, "best"}, {c1, "best"}}));
  EXPECT_EQ(ids({Which::kFinal, {}, {"arm"}}), (P{{a3, "final"}, {b1, "final"}}));
  EXPECT_EQ(ids({Which::kAll, {"gemm"}, {"arm"}}), (P{{a1, "all"}, {a2, "all"}, {a3, "all"}}));
}

TEST_F(RegradeTest, NonPortableAnswersAreSkippedWithTheirReasonAndNeverSent) {
  record("arm/gemm/0#1", "gemm", "void f() { __asm__(\"nop\"); } // speed=2", "ok", 2.0);
  record("arm/relu/0#1", "relu", "", "ok", 1.0);  // a library submission
  record("arm/axpy/0#1", "axpy", "/* speed=1.2 */", "ok", 1.1);
  store_->close();
  FakeJudge b;
  RegradeOptions o = options();
  o.target_platform = Platform{"aarch64", "", {}};
  std::ostringstream progress;
  auto r = run_regrade(o, b, progress);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->rows.size(), 3u);
  EXPECT_EQ(r->rows[0].status, "skipped");
  EXPECT_EQ(r->rows[0].skip_code, "inline_asm");
  EXPECT_EQ(r->rows[1].skip_code, "library");
  EXPECT_EQ(r->rows[2].status, "graded");
  EXPECT_EQ(b.bodies.size(), 1u);
  EXPECT_EQ(r->skipped, 2);
  EXPECT_TRUE(r->complete);
  // Skipped answers are neither correct nor wrong on B.
  EXPECT_EQ(r->table.summaries.back().correct_a, 1);
  EXPECT_EQ(r->table.summaries.back().skipped, 2);
}

TEST_F(RegradeTest, BIsSentTheRecordedRequestUnderItsOwnRunIdAndAKeyPerAnswer) {
  const auto id = record("arm/gemm/0#1", "gemm", "speed=2", "ok", 2.0);
  store_->close();
  FakeJudge b;
  RegradeOptions o = options();
  o.label = "second-host";
  std::ostringstream progress;
  ASSERT_TRUE(run_regrade(o, b, progress).ok());
  ASSERT_EQ(b.bodies.size(), 1u);
  const json& body = b.bodies[0];
  EXPECT_EQ(body["run_id"], "second-host/arm/gemm/0#1");
  EXPECT_EQ(body["kernel"], "gemm");
  EXPECT_EQ(body["preset"], "M");
  EXPECT_EQ(body["precision"], "fp64");
  EXPECT_EQ(body["rank"], 3);  // B's own rank, from its /health
  EXPECT_EQ(body["build"], json::array({"-DUNROLL=4"}));
  EXPECT_EQ(b.submits.count("second-host:" + std::to_string(id)), 1u);
  EXPECT_FALSE(progress.str().empty());
  o.label = "bad label";
  EXPECT_FALSE(run_regrade(o, b, progress).ok());
}

TEST_F(RegradeTest, AStoppedRegradeResumesWithoutLosingOrRepeatingAnAnswer) {
  for (int i = 0; i < 5; ++i) {
    record("arm/k" + std::to_string(i) + "/0#1", "k" + std::to_string(i),
           "speed=" + std::to_string(1 + i), "ok", 1.0 + i);
  }
  store_->close();
  FakeJudge b;
  RegradeOptions o = options();
  o.max_submits = 2;
  std::ostringstream progress;
  auto first = run_regrade(o, b, progress);
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE(first->complete);
  EXPECT_EQ(first->rows.size(), 2u);
  // A kill while writing leaves a torn line: it is ignored.
  std::ofstream(dir_ / "out" / "journal.jsonl", std::ios::app) << "{\"submission_id\": 3, \"ki";
  o.max_submits = 0;
  auto second = run_regrade(o, b, progress);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_TRUE(second->complete);
  EXPECT_EQ(second->resumed, 2);
  EXPECT_EQ(second->rows.size(), 5u);
  EXPECT_EQ(b.submits.size(), 5u);
  for (const auto& [key, n] : b.submits) EXPECT_EQ(n, 1) << key;
  // The outputs hold every answer.
  std::ifstream csv(dir_ / "out" / "regrade.csv");
  int lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  EXPECT_EQ(lines, 6);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "table.txt"));
  EXPECT_TRUE(json::parse(std::ifstream(dir_ / "out" / "summary.json"))["complete"]);
}

TEST_F(RegradeTest, AnswersBCouldNotGradeAreRetriedNextRunAndNeverCountedWrong) {
  record("arm/k0/0#1", "k0", "b-fault speed=2", "ok", 2.0);
  record("arm/k1/0#1", "k1", "b-wrong", "ok", 1.5);
  store_->close();
  FakeJudge b;
  std::ostringstream progress;
  auto first = run_regrade(options(), b, progress);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->failed, 1);
  EXPECT_FALSE(first->complete);
  const auto& all = first->table.summaries.back();
  EXPECT_EQ(all.correct_a, 1);  // the failed answer is not in the share
  EXPECT_EQ(all.still_correct, 0);
  b.heal = true;
  auto second = run_regrade(options(), b, progress);
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->complete);
  EXPECT_EQ(second->graded, 2);
  EXPECT_EQ(second->table.summaries.back().still_correct, 1);
}

TEST(RegradePlatform, TextAndFingerprintsNameArchAndIsaLevel) {
  auto p = parse_platform("x86_64:x86-64-v4:nvidia,amd");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->arch, "x86_64");
  EXPECT_EQ(p->isa_level, "x86-64-v4");
  EXPECT_EQ(p->gpu_vendors, (std::vector<std::string>{"nvidia", "amd"}));
  EXPECT_TRUE(parse_platform("aarch64").ok());
  for (const char* bad : {"", "x86_64:v9", "x86_64::intel", "a:b:c:d"}) {
    EXPECT_FALSE(parse_platform(bad).ok()) << bad;
  }
  auto f = platform_from_fingerprint(
      "h | AMD EPYC | 2 cpus | gcc 12 | py | timing protocol 3 | x86_64 x86-64-v3 | image "
      "sha256:ab");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->arch, "x86_64");
  EXPECT_EQ(f->isa_level, "x86-64-v3");
  EXPECT_FALSE(platform_from_fingerprint("h | cpu | 2 cpus | gcc | py | timing protocol 3"));
  EXPECT_FALSE(parse_which("worst").ok());
  EXPECT_EQ(*parse_which("best,final"), Which::kBestAndFinal);
}

}  // namespace
}  // namespace hpcab::cli
