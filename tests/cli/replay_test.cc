// Replaying the credit rules on recorded samples (cli/replay.h, `hpcab db replay`): real
// SQLite files written by Store, read back by the replay, credited by the judge's own verdict
// stage.
#include "cli/replay.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "judge/store/store.h"

namespace hpcab::cli {
namespace {

using namespace judge;  // NOLINT: the records these tests write

namespace fs = std::filesystem;

class ReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("hpcab-replay-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "judge.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // One /submit with a single configuration timed in two processes of 10 calls per side.
  void record(const std::string& optimizer, const std::string& verdict, std::vector<int64_t> cand,
              std::vector<int64_t> base) {
    auto store = Store::open(db_);
    ASSERT_TRUE(store.ok()) << store.error().message;
    SubmissionRecord r;
    r.route = "submit";
    r.kernel = "gemm";
    r.language = "c";
    r.precision = "fp64";
    r.preset = "timed";
    r.sizes_json = "{}";
    r.verdict = verdict;
    r.speedup = 1.0;
    r.run_id = "validity";
    r.optimizer = optimizer;
    r.received_at = 1e9;
    r.finished_at = 1e9 + 1;
    r.response_json = R"({"rules": {"timing_processes": 2}})";
    r.samples = {{"public timed", "candidate", std::move(cand)}, {"public timed", "c", base}};
    ASSERT_TRUE((*store)->record_submission(r).ok());
    (*store)->close();
  }

  static const ReplayRow& row(const ReplayReport& r, const std::string& rules, double effect) {
    for (const auto& x : r.rows) {
      if (x.rules == rules && std::abs(x.effect - effect) < 1e-9) return x;
    }
    ADD_FAILURE() << "no row " << rules << " at " << effect;
    return r.rows.front();
  }

  fs::path dir_;
  std::string db_;
};

// The first process's candidate calls are twice as fast, the second's as fast as the baseline:
// the pooled test confirms a speedup that does not replicate.
std::vector<int64_t> one_fast_process() {
  std::vector<int64_t> v(10, 1'000'000);
  v.resize(20, 2'000'000);
  return v;
}

TEST_F(ReplayTest, TheRulesCreditTheRecordedSamplesAsTheJudgeWould) {
  record("validity-gemm-ref", "ok", one_fast_process(), std::vector<int64_t>(20, 2'000'000));
  record("validity-gemm-omp", "ok", std::vector<int64_t>(20, 1'000'000),
         std::vector<int64_t>(20, 2'000'000));
  record("validity-gemm-ref", "incorrect", std::vector<int64_t>(20, 1),
         std::vector<int64_t>(20, 2'000'000));

  ReplayOptions o;
  o.optimizers = {"validity-gemm-ref"};
  o.effects = {1.2};
  auto r = replay_credits(db_, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->grades, 1);  // the other optimizer and the incorrect grade are left out
  EXPECT_EQ(r->timing_processes, 2);
  ASSERT_EQ(r->rows.size(), 9u);  // 3 rule sets x (as recorded, 1.2 faster, 1.2 slower)
  // As recorded: the paper's rule and the margin credit the pooled 1.33; replication 1.
  EXPECT_GT(row(*r, "paper", 1).median_credit, 1.3);
  EXPECT_EQ(row(*r, "paper", 1).right, 0);
  EXPECT_GT(row(*r, "+margin", 1).median_credit, 1.3);
  EXPECT_DOUBLE_EQ(row(*r, "+margin+replication", 1).median_credit, 1.0);
  EXPECT_EQ(row(*r, "+margin+replication", 1).right, 1);
  // Made 1.2x slower, the first process is still faster and the second slower: nothing to
  // credit under any rule.
  EXPECT_DOUBLE_EQ(row(*r, "+margin+replication", 1 / 1.2).median_credit, 1.0);
  EXPECT_EQ(row(*r, "+margin+replication", 1 / 1.2).right, 0);

  // Every ok grade: the uniformly faster one is credited on the right side under every rule.
  o.optimizers.clear();
  auto all = replay_credits(db_, o);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all->grades, 2);
  EXPECT_EQ(row(*all, "+margin+replication", 1.2).right, 2);
}

TEST_F(ReplayTest, BadInputsAreErrors) {
  ReplayOptions o;
  EXPECT_FALSE(replay_credits((dir_ / "missing.db").string(), o).ok());
  record("x", "incorrect", {1, 2}, {1, 2});
  auto none = replay_credits(db_, o);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("no ok /submit"), std::string::npos) << none.error().message;
  o.effects = {0.9};
  EXPECT_FALSE(replay_credits(db_, o).ok());
}

}  // namespace
}  // namespace hpcab::cli
