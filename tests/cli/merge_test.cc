// Merging judge database shards (cli/merge.h): what a Slurm arm does with its J
// judges' databases at the end. Real SQLite files written by Store, merged, read back.
#include "cli/merge.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "judge/store/store.h"

namespace hpcab::cli {
namespace {

namespace fs = std::filesystem;
using namespace judge;  // NOLINT: the records these tests write

class MergeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("hpcab-merge-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // A judge shard of `rank` with `n` submissions (kernel k<i>, 2 samples and 1 configuration
  // each), one score call and one cached baseline (the same key in every shard).
  std::string shard(const std::string& name, int rank, int n) {
    auto store = Store::open(path(name));
    EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error().message);
    for (int i = 0; i < n; ++i) {
      SubmissionRecord r;
      r.route = "submit";
      r.rank = rank;
      r.kernel = "k" + std::to_string(i);
      r.language = "c";
      r.precision = "fp64";
      r.preset = "S";
      r.sizes_json = "{}";
      r.source = "rank " + std::to_string(rank) + " submission " + std::to_string(i);
      r.verdict = "ok";
      r.speedup = 1.0 + rank + i / 10.0;
      r.run_id = "arm/k" + std::to_string(i) + "/0#1";
      r.optimizer = "test";
      r.received_at = 1e9 + i;
      r.finished_at = 1e9 + i + 1;
      r.response_json = "{}";
      // The same keys in every shard: keys are per judge, and a merge keeps each judge's.
      if (i % 2 == 0) r.idempotency_key = r.run_id;
      r.samples = {{"public S", "candidate", {100 + rank, 101 + rank}}};
      r.configs = {{"public S", "{}", 100, 200, 2, 0.01, 0.99, 2, false}};
      r.reported = {{"numba", 300, 100, 3}};
      auto id = (*store)->record_submission(r);
      EXPECT_TRUE(id.ok());
    }
    ScoreCallRecord sc;
    sc.rank = rank;
    sc.kernel = "k0";
    sc.language = "c";
    sc.precision = "fp64";
    sc.preset = "S";
    sc.verdict = "ok";
    sc.response_json = "{}";
    EXPECT_TRUE((*store)->record_score_call(sc).ok());
    BaselineKey key{"k0", "fp64", "{}", "c", "machine", "hash"};
    EXPECT_TRUE((*store)->put_baseline(key, {{1, 2, 3}, 1e9, "paired"}).ok());
    (*store)->close();
    return path(name);
  }

  // First column of the first row of `sql` on `db`, as text.
  static std::string sql(const std::string& db, const std::string& q) {
    sqlite3* h = nullptr;
    EXPECT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(h, q.c_str(), -1, &st, nullptr), SQLITE_OK)
        << sqlite3_errmsg(h) << " in " << q;
    std::string out;
    if (st && sqlite3_step(st) == SQLITE_ROW) {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
      out = p ? p : "";
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
  }

  fs::path dir_;
};

TEST_F(MergeTest, CopiesEveryRowWithUnambiguousProvenance) {
  const std::string a = shard("judge0.db", 0, 3), b = shard("judge1.db", 1, 2);
  const std::string out = path("merged.db");
  auto rep = merge_databases(out, {a, b});
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_EQ(rep->submissions, 5);
  EXPECT_EQ(rep->score_calls, 2);
  EXPECT_EQ(rep->baselines, 1);  // the same key in both shards is kept once
  ASSERT_EQ(rep->shards.size(), 2u);
  EXPECT_EQ(rep->shards[0].ranks, std::vector<int>{0});
  EXPECT_EQ(rep->shards[1].ranks, std::vector<int>{1});

  // The merged file is a judge database of the current version that a Store opens and reads.
  auto store = Store::open(out);
  ASSERT_TRUE(store.ok()) << store.error().message;
  EXPECT_EQ(*(*store)->count_submissions(), 5);
  (*store)->close();

  EXPECT_EQ(sql(out, "SELECT count(*) FROM submissions"), "5");
  EXPECT_EQ(sql(out, "SELECT count(*) FROM merged_submissions"), "5");
  EXPECT_EQ(sql(out, "SELECT count(*) FROM samples"), "10");
  EXPECT_EQ(sql(out, "SELECT count(*) FROM config_results"), "5");
  EXPECT_EQ(sql(out, "SELECT count(*) FROM score_calls"), "2");
  EXPECT_EQ(sql(out, "SELECT group_concat(ranks_json, ' ') FROM merge_shards"), "[0] [1]");
  // Shard 1's submission 2 (rank 1) is one row, with its own source, samples and config.
  const std::string id = sql(out,
                             "SELECT id FROM merged_submissions WHERE rank = 1 AND "
                             "shard_submission_id = 2");
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(sql(out, "SELECT source FROM submissions WHERE id = " + id), "rank 1 submission 1");
  EXPECT_EQ(sql(out, "SELECT shard FROM merged_submissions WHERE id = " + id), "1");
  EXPECT_EQ(sql(out, "SELECT group_concat(ns) FROM samples WHERE submission_id = " + id),
            "101,102");
  EXPECT_EQ(sql(out, "SELECT ratio FROM config_results WHERE submission_id = " + id), "2.0");
  EXPECT_EQ(sql(out, "SELECT count(*) FROM reported_speedups"), "5");
  EXPECT_EQ(sql(out, "SELECT speedup FROM reported_speedups WHERE submission_id = " + id), "3.0");
  // Every submission's rank agrees with its provenance row; no orphans.
  EXPECT_EQ(sql(out,
                "SELECT count(*) FROM submissions s JOIN merged_submissions m USING (id) "
                "WHERE s.rank = m.rank"),
            "5");
  EXPECT_EQ(sql(out, "PRAGMA foreign_key_check"), "");
  EXPECT_EQ(sql(out, "PRAGMA integrity_check"), "ok");
  // Idempotency keys come along, the same key of two judges included; rows without one stay
  // without.
  EXPECT_EQ(sql(out, "SELECT count(*) FROM submissions WHERE idempotency_key = 'arm/k0/0#1'"), "2");
  EXPECT_EQ(sql(out, "SELECT count(*) FROM submissions WHERE idempotency_key IS NULL"), "2");
  EXPECT_EQ(sql(out, "SELECT idempotency_key FROM submissions WHERE id = " + id), "");
  auto merged = Store::open(out);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  auto found = (*merged)->find_by_idempotency_key(1, "arm/k0/0#1");
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->source, "rank 1 submission 0");
}

TEST_F(MergeTest, RefusesAmbiguousOrBadInputsAndLeavesNoFile) {
  const std::string a = shard("a.db", 0, 1), b = shard("b.db", 0, 1);
  const std::string out = path("merged.db");

  auto dup = merge_databases(out, {a, b});
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().message.find("rank 0 appears in both"), std::string::npos)
      << dup.error().message;
  EXPECT_FALSE(fs::exists(out));

  auto twice = merge_databases(out, {a, a});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("given twice"), std::string::npos);

  auto missing = merge_databases(out, {a, path("nope.db")});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("not a file"), std::string::npos);
  EXPECT_FALSE(fs::exists(path("nope.db")));  // never created by the attempt
  EXPECT_FALSE(fs::exists(out));

  // A file that is not a judge database (schema version 0).
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(path("other.db").c_str(), &h), SQLITE_OK);
  sqlite3_exec(h, "CREATE TABLE t (x)", nullptr, nullptr, nullptr);
  sqlite3_close(h);
  auto other = merge_databases(out, {a, path("other.db")});
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("schema version 0"), std::string::npos)
      << other.error().message;
  EXPECT_FALSE(fs::exists(out));

  ASSERT_TRUE(merge_databases(out, {a}).ok());
  auto again = merge_databases(out, {a});
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("already exists"), std::string::npos);
}

TEST_F(MergeTest, EmptyShardsMergeToAnEmptyDatabase) {
  const std::string a = shard("a.db", 0, 0);
  auto rep = merge_databases(path("m.db"), {a});
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_EQ(rep->submissions, 0);
  EXPECT_EQ(rep->score_calls, 1);
  EXPECT_EQ(sql(path("m.db"), "SELECT count(*) FROM submissions"), "0");
}

}  // namespace
}  // namespace hpcab::cli
