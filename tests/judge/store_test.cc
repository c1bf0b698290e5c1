// The judge's database (SPEC §5.12), on real SQLite files in a fresh temporary directory per
// test: round trips, schema versioning, WAL, concurrency, and consistency after kill -9.
#include "judge/store/store.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;

// Runs `sql` on its own connection (not the Store's) and returns the first column of the first
// row as text ("" when there is no row). Fails the test on an SQLite error.
std::string Sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
  sqlite3_busy_timeout(db, 10'000);
  std::string out;
  sqlite3_stmt* stmt = nullptr;
  const char* tail = sql.c_str();
  // Runs every statement of `sql`; the answer is the first row of the last one that has rows.
  while (tail && *tail) {
    int rc = sqlite3_prepare_v2(db, tail, -1, &stmt, &tail);
    EXPECT_EQ(rc, SQLITE_OK) << sqlite3_errmsg(db) << " in: " << sql;
    if (rc != SQLITE_OK || !stmt) break;
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
      out = p ? p : "";
    } else {
      EXPECT_EQ(rc, SQLITE_DONE) << sqlite3_errmsg(db) << " in: " << sql;
    }
    sqlite3_finalize(stmt);
    stmt = nullptr;
  }
  sqlite3_close(db);
  return out;
}

SubmissionRecord FullRecord() {
  SubmissionRecord r;
  r.route = "submit";
  r.rank = 3;
  r.kernel = "gemm";
  r.language = "c";
  r.precision = "fp64";
  r.preset = "M";
  r.sizes_json = R"({"M": 512, "N": 256, "K": 128})";
  r.source = "#include <stddef.h>\nvoid gemm(size_t n, double* c) { c[0] = 1.0; }\n";
  r.library_path = "";
  r.build_tokens_json = R"(["-DTILE=64", "-lm"])";
  r.request_json = R"({"preset":"M","workspace_bytes":"8*N"})";
  r.build_log = "gcc: warning: unused variable 'x'\n";
  r.content_hash = "sha256:0123456789abcdef";
  r.verdict = "ok";
  r.detail = "confirmed faster on 3/3 configurations";
  r.build_ok = true;
  r.correct = true;
  r.public_correct = true;
  r.hidden_correct = true;
  r.hidden_passed = 15;
  r.hidden_total = 15;
  r.speedup = 3.25;
  r.baseline = "c";
  r.native_ns = 1234.5;
  r.baseline_ns = 4012.125;
  r.max_rel_error = 1.5e-12;
  r.suspect = true;
  r.timed_out = true;
  r.machine = "x86_64/AMD EPYC 9654/96c/ddr5";
  r.judge_version = "0.1.0";
  r.run_id = "run-42";
  r.optimizer = "agent-x";
  r.tokens = 1'234'567'890'123;
  r.workspace_bytes = 1 << 20;
  r.received_at = 1700000000.125;
  r.finished_at = 1700000012.5;
  r.response_json = R"({"verdict": "ok", "speedup": 3.25})";
  r.samples = {
      {"public M", "candidate", {100, 101, 99, 102}},
      {"public M", "c", {400, 401, 399}},
      {"hidden#1", "candidate", {std::numeric_limits<int64_t>::max(), 0, -1}},
      {"hidden#1", "c", {std::numeric_limits<int64_t>::min(), 7}},
  };
  r.reported = {{"numba", 800, 100.5, 800 / 100.5}, {"numpy", 1600, 100.5, 1600 / 100.5}};
  ConfigResult c1;
  c1.config = "public M";
  c1.sizes_json = R"({"M": 512})";
  c1.candidate_median_ns = 100.5;
  c1.baseline_median_ns = 400;
  c1.ratio = 400 / 100.5;
  c1.p_faster = 0.0123;
  c1.p_slower = 0.9877;
  c1.credit = 400 / 100.5;
  c1.suspect = false;
  ConfigResult c2 = c1;
  c2.config = "hidden#1";
  c2.sizes_json = R"({"M": 777})";
  c2.p_faster = 0.5;
  c2.credit = 1;
  c2.suspect = true;
  r.configs = {c1, c2};
  return r;
}

// Doubles are compared exactly: SQLite stores REAL as IEEE-754 binary64.
void ExpectSameRecord(const SubmissionRecord& a, const SubmissionRecord& b) {
  EXPECT_EQ(a.route, b.route);
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.kernel, b.kernel);
  EXPECT_EQ(a.language, b.language);
  EXPECT_EQ(a.precision, b.precision);
  EXPECT_EQ(a.preset, b.preset);
  EXPECT_EQ(a.sizes_json, b.sizes_json);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.library_path, b.library_path);
  EXPECT_EQ(a.build_tokens_json, b.build_tokens_json);
  EXPECT_EQ(a.build_log, b.build_log);
  EXPECT_EQ(a.content_hash, b.content_hash);
  EXPECT_EQ(a.verdict, b.verdict);
  EXPECT_EQ(a.detail, b.detail);
  EXPECT_EQ(a.build_ok, b.build_ok);
  EXPECT_EQ(a.correct, b.correct);
  EXPECT_EQ(a.public_correct, b.public_correct);
  EXPECT_EQ(a.hidden_correct, b.hidden_correct);
  EXPECT_EQ(a.hidden_passed, b.hidden_passed);
  EXPECT_EQ(a.hidden_total, b.hidden_total);
  EXPECT_EQ(a.speedup, b.speedup);
  EXPECT_EQ(a.baseline, b.baseline);
  EXPECT_EQ(a.native_ns, b.native_ns);
  EXPECT_EQ(a.baseline_ns, b.baseline_ns);
  EXPECT_EQ(a.max_rel_error, b.max_rel_error);
  EXPECT_EQ(a.suspect, b.suspect);
  EXPECT_EQ(a.timed_out, b.timed_out);
  EXPECT_EQ(a.machine, b.machine);
  EXPECT_EQ(a.judge_version, b.judge_version);
  EXPECT_EQ(a.run_id, b.run_id);
  EXPECT_EQ(a.optimizer, b.optimizer);
  EXPECT_EQ(a.tokens, b.tokens);
  EXPECT_EQ(a.workspace_bytes, b.workspace_bytes);
  EXPECT_EQ(a.received_at, b.received_at);
  EXPECT_EQ(a.finished_at, b.finished_at);
  EXPECT_EQ(a.response_json, b.response_json);
  EXPECT_EQ(a.idempotency_key, b.idempotency_key);
  EXPECT_EQ(a.request_json, b.request_json);
  ASSERT_EQ(a.samples.size(), b.samples.size());
  for (std::size_t i = 0; i < a.samples.size(); ++i) {
    SCOPED_TRACE("sample set " + std::to_string(i));
    EXPECT_EQ(a.samples[i].config, b.samples[i].config);
    EXPECT_EQ(a.samples[i].side, b.samples[i].side);
    EXPECT_EQ(a.samples[i].ns, b.samples[i].ns);
  }
  ASSERT_EQ(a.configs.size(), b.configs.size());
  for (std::size_t i = 0; i < a.configs.size(); ++i) {
    SCOPED_TRACE("config " + std::to_string(i));
    const ConfigResult& x = a.configs[i];
    const ConfigResult& y = b.configs[i];
    EXPECT_EQ(x.config, y.config);
    EXPECT_EQ(x.sizes_json, y.sizes_json);
    EXPECT_EQ(x.candidate_median_ns, y.candidate_median_ns);
    EXPECT_EQ(x.baseline_median_ns, y.baseline_median_ns);
    EXPECT_EQ(x.ratio, y.ratio);
    EXPECT_EQ(x.p_faster, y.p_faster);
    EXPECT_EQ(x.p_slower, y.p_slower);
    EXPECT_EQ(x.credit, y.credit);
    EXPECT_EQ(x.suspect, y.suspect);
  }
  ASSERT_EQ(a.reported.size(), b.reported.size());
  for (std::size_t i = 0; i < a.reported.size(); ++i) {
    EXPECT_EQ(a.reported[i].baseline, b.reported[i].baseline);
    EXPECT_EQ(a.reported[i].baseline_median_ns, b.reported[i].baseline_median_ns);
    EXPECT_EQ(a.reported[i].candidate_median_ns, b.reported[i].candidate_median_ns);
    EXPECT_EQ(a.reported[i].speedup, b.reported[i].speedup);
  }
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-store-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    path_ = (dir_ / "judge.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::unique_ptr<Store> Open() {
    auto s = Store::open(path_);
    EXPECT_TRUE(s.ok()) << s.error().message;
    return s.ok() ? std::move(s).value() : nullptr;
  }

  // Stores `r` and reads it back through a fresh Store (so nothing can come from a cache).
  SubmissionRecord RoundTrip(const SubmissionRecord& r) {
    int64_t id = 0;
    {
      auto store = Open();
      auto rid = store->record_submission(r);
      EXPECT_TRUE(rid.ok()) << rid.error().message;
      if (rid.ok()) id = *rid;
    }
    auto store = Open();
    auto got = store->get_submission(id);
    EXPECT_TRUE(got.ok()) << got.error().message;
    EXPECT_TRUE(got.ok() && got->has_value());
    return got.ok() && got->has_value() ? **got : SubmissionRecord{};
  }

  fs::path dir_;
  std::string path_;
};

TEST_F(StoreTest, CalibrationsRoundTripPerKeyAndTarget) {
  auto store = Open();
  ASSERT_TRUE(store);
  CalibrationKey key{"tsvc_2_s000", "fp64", "c", "machine", "hash", 10};
  auto none = store->get_calibration(key);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  ASSERT_TRUE(store->put_calibration(key, {"{\"N\":4000000}", 1.1e7, true, 1.7e9}).ok());
  auto got = store->get_calibration(key);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->sizes_json, "{\"N\":4000000}");
  EXPECT_DOUBLE_EQ((*got)->baseline_ns, 1.1e7);
  EXPECT_TRUE((*got)->reached);
  // Another target is another calibration; the same key is replaced.
  key.min_call_ms = 20;
  auto other = store->get_calibration(key);
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->has_value());
  key.min_call_ms = 10;
  ASSERT_TRUE(store->put_calibration(key, {"{\"N\":5000000}", 1.2e7, false, 1.8e9}).ok());
  EXPECT_EQ((*store->get_calibration(key))->sizes_json, "{\"N\":5000000}");
}

TEST_F(StoreTest, SchemaVersionAfterOpen) {
  auto store = Open();
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schema_version(), 6);
  EXPECT_EQ(Sql(path_, "PRAGMA user_version"), "6");
  for (const char* table : {"submissions", "samples", "config_results", "score_calls", "baselines",
                            "calibrations", "reported_speedups"}) {
    EXPECT_EQ(Sql(path_, std::string("SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                                     "AND name = '") +
                             table + "'"),
              "1")
        << table;
  }
  auto n = store->count_submissions();
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(*n, 0);
}

TEST_F(StoreTest, WalModeIsOn) {
  auto store = Open();
  ASSERT_TRUE(store);
  // journal_mode=WAL is persistent in the file, so any connection reports it.
  EXPECT_EQ(Sql(path_, "PRAGMA journal_mode"), "wal");
  EXPECT_TRUE(fs::exists(path_ + "-wal"));
}

TEST_F(StoreTest, RoundTripFullRecord) {
  SubmissionRecord r = FullRecord();
  r.idempotency_key = "run-42:attempt-1";  // unique per rank: FullRecord() has none
  ExpectSameRecord(RoundTrip(r), r);
}

TEST_F(StoreTest, RoundTripWithOptionalsUnset) {
  SubmissionRecord r = FullRecord();
  r.verdict = "incorrect";
  r.speedup.reset();
  r.native_ns.reset();
  r.baseline_ns.reset();
  r.max_rel_error.reset();
  r.tokens.reset();
  r.workspace_bytes.reset();
  r.source = "";
  r.library_path = "shared/libgemm.so";
  r.samples.clear();
  r.configs.clear();
  SubmissionRecord got = RoundTrip(r);
  ExpectSameRecord(got, r);
  EXPECT_FALSE(got.speedup.has_value());
  EXPECT_FALSE(got.tokens.has_value());
  EXPECT_EQ(Sql(path_,
                "SELECT count(*) FROM submissions WHERE speedup IS NULL AND tokens IS NULL "
                "AND idempotency_key IS NULL"),
            "1");
}

TEST_F(StoreTest, TimestampsHaveIsoColumns) {
  auto store = Open();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->record_submission(FullRecord()).ok());
  EXPECT_EQ(Sql(path_, "SELECT received_at_iso FROM submissions"), "2023-11-14T22:13:20.125Z");
  EXPECT_EQ(Sql(path_, "SELECT finished_at_iso FROM submissions"), "2023-11-14T22:13:32.500Z");
}

TEST_F(StoreTest, NonFiniteStatisticsAreRecorded) {
  // SQLite stores NaN as NULL: optionals come back unset, config statistics come back NaN,
  // and the submission is still recorded (a degenerate statistic is not a judge failure).
  SubmissionRecord r = FullRecord();
  r.max_rel_error = std::numeric_limits<double>::quiet_NaN();
  r.configs[0].p_faster = std::numeric_limits<double>::quiet_NaN();
  r.configs[0].ratio = std::numeric_limits<double>::infinity();
  SubmissionRecord got = RoundTrip(r);
  EXPECT_FALSE(got.max_rel_error.has_value());
  ASSERT_EQ(got.configs.size(), 2u);
  EXPECT_TRUE(std::isnan(got.configs[0].p_faster));
  EXPECT_EQ(got.configs[0].ratio, std::numeric_limits<double>::infinity());
  EXPECT_EQ(got.configs[0].p_slower, r.configs[0].p_slower);
}

TEST_F(StoreTest, SpecialCharactersAndLargeSourceRoundTrip) {
  SubmissionRecord r = FullRecord();
  std::string big;
  big.reserve(1 << 20);
  for (int i = 0; big.size() < (1u << 20); ++i) {
    big += "/* line " + std::to_string(i) + " 'quote' \"dq\" ; DROP TABLE x; -- */ a[i] += b;\n";
  }
  big.resize(1 << 20);
  r.source = big;
  r.detail = std::string("NUL\0inside", 10) + " ünïcødé ✓ 日本語 \t\r\n \\ %s %n ?1 :kernel";
  r.build_log = "'); DELETE FROM submissions; --";
  r.kernel = "ker'nel\"; --";
  r.samples[0].config = "public 'S'";
  r.samples[0].side = "c-\"autopar\"";
  SubmissionRecord got = RoundTrip(r);
  ExpectSameRecord(got, r);
  EXPECT_EQ(got.source.size(), 1u << 20);
  EXPECT_EQ(got.detail.size(), r.detail.size());
}

TEST_F(StoreTest, GetMissingSubmissionIsNullopt) {
  auto store = Open();
  ASSERT_TRUE(store);
  auto got = store->get_submission(12345);
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_FALSE(got->has_value());
}

TEST_F(StoreTest, ReopenKeepsDataAndDoesNotRerunMigrations) {
  int64_t id = 0;
  {
    auto store = Open();
    ASSERT_TRUE(store);
    auto rid = store->record_submission(FullRecord());
    ASSERT_TRUE(rid.ok()) << rid.error().message;
    id = *rid;
  }
  // Migration 1 creates this index; if reopening re-ran it, the index would be back.
  Sql(path_, "DROP INDEX submissions_kernel");
  auto store = Open();
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schema_version(), 6);
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM sqlite_master WHERE name = 'submissions_kernel'"),
            "0");
  auto n = store->count_submissions();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 1);
  auto got = store->get_submission(id);
  ASSERT_TRUE(got.ok() && got->has_value());
  ExpectSameRecord(**got, FullRecord());
  auto id2 = store->record_submission(FullRecord());
  ASSERT_TRUE(id2.ok());
  EXPECT_GT(*id2, id);
}

TEST_F(StoreTest, RefusesNewerSchemaVersion) {
  { ASSERT_TRUE(Open()); }
  Sql(path_, "PRAGMA user_version = 999");
  auto store = Store::open(path_);
  ASSERT_FALSE(store.ok());
  const std::string& msg = store.error().message;
  EXPECT_NE(msg.find("999"), std::string::npos) << msg;
  EXPECT_NE(msg.find("up to 6"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path_), std::string::npos) << msg;
  EXPECT_EQ(Sql(path_, "PRAGMA user_version"), "999");  // left untouched
}

TEST_F(StoreTest, RefusesAFileThatIsNotADatabase) {
  std::ofstream(path_) << "this is not an SQLite database, just some text long enough\n"
                       << std::string(4096, 'x');
  auto store = Store::open(path_);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.error().message.find(path_), std::string::npos) << store.error().message;
}

TEST_F(StoreTest, ScoreCallsAreCountedSeparately) {
  auto store = Open();
  ASSERT_TRUE(store);
  ScoreCallRecord call;
  call.rank = 0;
  call.kernel = "gemm";
  call.language = "c";
  call.precision = "fp64";
  call.preset = "S";
  call.content_hash = "h";
  call.verdict = "ok";
  call.speedup = 1.5;
  call.run_id = "run-1";
  call.optimizer = "opt";
  call.received_at = 1700000000;
  call.finished_at = 1700000001;
  call.response_json = "{}";
  auto c1 = store->record_score_call(call);
  call.speedup.reset();
  auto c2 = store->record_score_call(call);
  ASSERT_TRUE(c1.ok()) << c1.error().message;
  ASSERT_TRUE(c2.ok()) << c2.error().message;
  EXPECT_NE(*c1, *c2);
  ASSERT_TRUE(store->record_submission(FullRecord()).ok());
  auto n = store->count_submissions();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 1);
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM score_calls"), "2");
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM score_calls WHERE speedup IS NULL"), "1");
}

TEST_F(StoreTest, BaselineUpsertAndFullKeyLookup) {
  auto store = Open();
  ASSERT_TRUE(store);
  BaselineKey key{"gemm", "fp64", R"({"N": 64})", "c", "machine-a", "ref-1"};
  auto miss = store->get_baseline(key);
  ASSERT_TRUE(miss.ok()) << miss.error().message;
  EXPECT_FALSE(miss->has_value());

  BaselineSamples first{
      {10, 11, 12, std::numeric_limits<int64_t>::max()}, 1700000000.5, "paired, 20 calls"};
  ASSERT_TRUE(store->put_baseline(key, first).ok());
  auto hit = store->get_baseline(key);
  ASSERT_TRUE(hit.ok() && hit->has_value());
  EXPECT_EQ((*hit)->ns, first.ns);
  EXPECT_EQ((*hit)->measured_at, first.measured_at);
  EXPECT_EQ((*hit)->protocol, first.protocol);

  BaselineSamples second{{20, 21}, 1700000100.25, "re-measured"};
  ASSERT_TRUE(store->put_baseline(key, second).ok());  // replaces, does not add a row
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM baselines"), "1");
  hit = store->get_baseline(key);
  ASSERT_TRUE(hit.ok() && hit->has_value());
  EXPECT_EQ((*hit)->ns, second.ns);
  EXPECT_EQ((*hit)->measured_at, second.measured_at);
  EXPECT_EQ((*hit)->protocol, second.protocol);

  // Every key field takes part in the lookup.
  auto expect_miss = [&](BaselineKey k, const char* what) {
    auto r = store->get_baseline(k);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_FALSE(r->has_value()) << what;
  };
  BaselineKey k = key;
  k.machine = "machine-b";
  expect_miss(k, "machine");
  k = key;
  k.reference_hash = "ref-2";
  expect_miss(k, "reference_hash");
  k = key;
  k.kernel = "gemv";
  expect_miss(k, "kernel");
  k = key;
  k.precision = "fp32";
  expect_miss(k, "precision");
  k = key;
  k.sizes_json = R"({"N": 65})";
  expect_miss(k, "sizes_json");
  k = key;
  k.baseline = "c-autopar";
  expect_miss(k, "baseline");

  // A second key is a second row; the first is unchanged.
  k = key;
  k.machine = "machine-b";
  ASSERT_TRUE(store->put_baseline(k, first).ok());
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM baselines"), "2");
  hit = store->get_baseline(key);
  ASSERT_TRUE(hit.ok() && hit->has_value());
  EXPECT_EQ((*hit)->ns, second.ns);
}

TEST_F(StoreTest, ConcurrentRecordsGetDistinctIds) {
  auto store = Open();
  ASSERT_TRUE(store);
  constexpr int kThreads = 4, kPerThread = 25;
  std::vector<std::vector<int64_t>> ids(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        SubmissionRecord r = FullRecord();
        r.run_id = "thread-" + std::to_string(t);
        r.rank = i;
        auto id = store->record_submission(r);
        if (!id.ok()) {
          errors[t] = id.error().message;
          return;
        }
        ids[t].push_back(*id);
      }
    });
  }
  for (auto& th : threads) th.join();
  std::set<int64_t> all;
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(errors[t], "");
    EXPECT_EQ(ids[t].size(), static_cast<std::size_t>(kPerThread));
    all.insert(ids[t].begin(), ids[t].end());
  }
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kThreads * kPerThread));
  auto n = store->count_submissions();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, kThreads * kPerThread);
  std::size_t per_record = 0;
  for (const auto& s : FullRecord().samples) per_record += s.ns.size();
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM samples"),
            std::to_string(per_record * kThreads * kPerThread));
  auto got = store->get_submission(*all.rbegin());
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->samples.size(), FullRecord().samples.size());
}

TEST_F(StoreTest, FailedRecordLeavesNoPartialRows) {
  auto store = Open();
  ASSERT_TRUE(store);
  // Make the last insert of the transaction (a configuration result) fail after the submission
  // row and its samples were written.
  Sql(path_,
      "CREATE TRIGGER boom BEFORE INSERT ON config_results WHEN NEW.config = 'boom' "
      "BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
  SubmissionRecord r = FullRecord();
  r.configs[1].config = "boom";
  auto id = store->record_submission(r);
  ASSERT_FALSE(id.ok());
  EXPECT_NE(id.error().message.find("injected failure"), std::string::npos) << id.error().message;
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM submissions"), "0");
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM samples"), "0");
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM config_results"), "0");
  // The store is usable afterwards.
  auto ok = store->record_submission(FullRecord());
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  auto n = store->count_submissions();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 1);
}

// Idempotency keys (judge/http/idempotency.h): found by rank and key, unique per rank (a second
// row with a taken key is refused whole), absent keys are NULL and never collide, and the
// routes' completed answer replaces the record stage's.
TEST_F(StoreTest, IdempotencyKeysAreFoundAndUniquePerRank) {
  auto store = Open();
  ASSERT_TRUE(store);
  SubmissionRecord r = FullRecord();  // rank 3
  r.idempotency_key = "run-42:attempt-1";
  auto id = store->record_submission(r);
  ASSERT_TRUE(id.ok()) << id.error().message;

  auto found = store->find_by_idempotency_key(3, "run-42:attempt-1");
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_TRUE(found->has_value());
  const KeyedSubmission& k = **found;
  EXPECT_EQ(k.id, *id);
  EXPECT_EQ(k.rank, 3);
  EXPECT_EQ(k.kernel, "gemm");
  EXPECT_EQ(k.language, "c");
  EXPECT_EQ(k.precision, "fp64");
  EXPECT_EQ(k.run_id, "run-42");
  EXPECT_EQ(k.source, r.source);
  EXPECT_EQ(k.library_path, "");
  EXPECT_EQ(k.response_json, r.response_json);
  EXPECT_EQ(k.build_tokens_json, r.build_tokens_json);
  EXPECT_EQ(k.request_json, r.request_json);
  // Another rank's key, or another key, is not this one.
  EXPECT_FALSE(store->find_by_idempotency_key(0, "run-42:attempt-1")->has_value());
  EXPECT_FALSE(store->find_by_idempotency_key(3, "run-42:attempt-2")->has_value());

  // The same key on the same rank: refused, with none of the second record's rows left.
  auto twice = store->record_submission(r);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("UNIQUE"), std::string::npos) << twice.error().message;
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM submissions"), "1");
  EXPECT_EQ(
      Sql(path_, "SELECT count(*) FROM samples"),
      Sql(path_, "SELECT count(*) FROM samples WHERE submission_id = " + std::to_string(*id)));
  // The same key on another rank (a merged file of several judges) and rows without a key.
  SubmissionRecord other = r;
  other.rank = 4;
  ASSERT_TRUE(store->record_submission(other).ok());
  SubmissionRecord unkeyed = r;
  unkeyed.idempotency_key.reset();
  ASSERT_TRUE(store->record_submission(unkeyed).ok());
  ASSERT_TRUE(store->record_submission(unkeyed).ok());
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM submissions WHERE idempotency_key IS NULL"), "2");

  ASSERT_TRUE(store->replace_response(*id, R"({"submission_id":1,"verdict":"ok"})").ok());
  EXPECT_EQ((*store->find_by_idempotency_key(3, "run-42:attempt-1"))->response_json,
            R"({"submission_id":1,"verdict":"ok"})");
  EXPECT_FALSE(store->replace_response(999, "{}").ok());
}

// Migration 3 on a file of version 2: the column and its index appear, rows already there keep
// everything and have no key.
TEST_F(StoreTest, MigrationThreeKeepsTheRowsOfAVersionTwoFile) {
  SubmissionRecord old = FullRecord();  // no key
  old.reported.clear();                 // version 2 has no table for them
  old.request_json.reset();             // nor a column for it
  int64_t id = 0;
  {
    auto store = Open();
    ASSERT_TRUE(store);
    id = *store->record_submission(old);
  }
  // Back to what version 2 made.
  Sql(path_,
      "DROP TABLE reported_speedups; DROP INDEX submissions_idempotency_key; ALTER TABLE "
      "submissions DROP COLUMN idempotency_key; ALTER TABLE submissions DROP COLUMN request_json; "
      "ALTER TABLE config_results DROP COLUMN slot_wait; ALTER TABLE config_results DROP COLUMN "
      "slot_steal; ALTER TABLE config_results DROP COLUMN slot_retries; "
      "PRAGMA user_version = 2");
  ASSERT_EQ(Sql(path_,
                "SELECT count(*) FROM pragma_table_info('submissions') WHERE name = "
                "'idempotency_key'"),
            "0");
  auto store = Open();
  ASSERT_TRUE(store);
  EXPECT_EQ(store->schema_version(), 6);
  EXPECT_EQ(Sql(path_,
                "SELECT count(*) FROM sqlite_master WHERE name = "
                "'submissions_idempotency_key'"),
            "1");
  auto got = store->get_submission(id);
  ASSERT_TRUE(got.ok() && got->has_value());
  ExpectSameRecord(**got, old);
  SubmissionRecord keyed = FullRecord();
  keyed.idempotency_key = "run-42:attempt-1";
  ASSERT_TRUE(store->record_submission(keyed).ok());
  EXPECT_TRUE(store->find_by_idempotency_key(3, "run-42:attempt-1")->has_value());
}

TEST_F(StoreTest, ForeignKeysAreEnforced) {
  auto store = Open();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->record_submission(FullRecord()).ok());
  EXPECT_EQ(Sql(path_, "PRAGMA foreign_key_check"), "");
  // The schema cascades a deleted submission to its rows on any connection with foreign keys
  // on, as the Store's is (SQLite's default is off, so this connection turns them on itself).
  Sql(path_, "PRAGMA foreign_keys = ON; DELETE FROM submissions");
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM samples"), "0");
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM config_results"), "0");
}

// The admin listing (GET /admin/submissions): filters combine, rows come newest first, the
// total ignores limit and offset, and a filter value is data, never SQL.
TEST_F(StoreTest, ListSubmissionsFiltersPagesAndCounts) {
  auto store = Open();
  ASSERT_TRUE(store);
  std::vector<int64_t> ids;
  for (int i = 0; i < 5; ++i) {
    SubmissionRecord r = FullRecord();
    r.kernel = i < 3 ? "gemm" : "softmax";
    r.run_id = i % 2 == 0 ? "run-a" : "run-b";
    r.optimizer = "opt";
    r.verdict = i == 4 ? "incorrect" : "ok";
    if (i == 4) r.speedup.reset();
    r.received_at = 1000 + i;
    auto id = store->record_submission(r);
    ASSERT_TRUE(id.ok()) << id.error().message;
    ids.push_back(*id);
  }

  auto all = store->list_submissions(SubmissionFilter{});
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all->total, 5);
  ASSERT_EQ(all->rows.size(), 5u);
  EXPECT_EQ(all->rows.front().id, ids.back());  // newest first
  EXPECT_EQ(all->rows.back().id, ids.front());
  const SubmissionSummary& newest = all->rows.front();
  EXPECT_EQ(newest.kernel, "softmax");
  EXPECT_EQ(newest.language, "c");
  EXPECT_EQ(newest.precision, "fp64");
  EXPECT_EQ(newest.preset, "M");
  EXPECT_EQ(newest.verdict, "incorrect");
  EXPECT_FALSE(newest.speedup.has_value());
  EXPECT_EQ(newest.run_id, "run-a");
  EXPECT_EQ(newest.optimizer, "opt");
  EXPECT_DOUBLE_EQ(newest.received_at, 1004);
  EXPECT_EQ(newest.content_hash, FullRecord().content_hash);
  EXPECT_EQ(all->rows.back().speedup, FullRecord().speedup);

  SubmissionFilter gemm_a;
  gemm_a.kernel = "gemm";
  gemm_a.run_id = "run-a";
  auto ga = store->list_submissions(gemm_a);
  ASSERT_TRUE(ga.ok());
  EXPECT_EQ(ga->total, 2);  // i = 0 and 2
  ASSERT_EQ(ga->rows.size(), 2u);
  EXPECT_EQ(ga->rows[0].id, ids[2]);
  EXPECT_EQ(ga->rows[1].id, ids[0]);

  SubmissionFilter incorrect;
  incorrect.verdict = "incorrect";
  auto inc = store->list_submissions(incorrect);
  ASSERT_TRUE(inc.ok());
  ASSERT_EQ(inc->rows.size(), 1u);
  EXPECT_EQ(inc->rows[0].id, ids[4]);

  SubmissionFilter page;
  page.limit = 2;
  page.offset = 1;
  auto p = store->list_submissions(page);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->total, 5);
  ASSERT_EQ(p->rows.size(), 2u);
  EXPECT_EQ(p->rows[0].id, ids[3]);
  EXPECT_EQ(p->rows[1].id, ids[2]);

  page.offset = 10;
  auto past = store->list_submissions(page);
  ASSERT_TRUE(past.ok());
  EXPECT_EQ(past->total, 5);
  EXPECT_TRUE(past->rows.empty());

  SubmissionFilter injection;
  injection.kernel = "gemm' OR '1'='1";
  auto none = store->list_submissions(injection);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->total, 0);
  EXPECT_TRUE(none->rows.empty());

  SubmissionFilter negative;
  negative.limit = -1;
  EXPECT_FALSE(store->list_submissions(negative).ok());
  store->close();
  EXPECT_FALSE(store->list_submissions(SubmissionFilter{}).ok());
}

TEST_F(StoreTest, CloseIsIdempotentAndLaterCallsFail) {
  auto store = Open();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->record_submission(FullRecord()).ok());
  store->close();
  store->close();
  EXPECT_FALSE(store->record_submission(FullRecord()).ok());
  EXPECT_FALSE(store->record_score_call(ScoreCallRecord{}).ok());
  EXPECT_FALSE(store->count_submissions().ok());
  EXPECT_FALSE(store->get_submission(1).ok());
  EXPECT_FALSE(store->get_baseline(BaselineKey{}).ok());
  auto put = store->put_baseline(BaselineKey{}, BaselineSamples{});
  ASSERT_FALSE(put.ok());
  EXPECT_NE(put.error().message.find("closed"), std::string::npos);
  // Closing checkpointed the WAL: the data is in the main file for the next opener.
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM submissions"), "1");
}

// The child records submissions in a loop until SIGKILLed, almost surely in the middle of a
// transaction. The parent then checks that the database is intact and holds only whole
// submissions: each with exactly the samples and configuration rows the child wrote.
TEST_F(StoreTest, KillNineLeavesConsistentDatabase) {
  constexpr int kSets = 4, kCalls = 25, kConfigs = 2;
  auto crash_record = [&](int i) {
    SubmissionRecord r = FullRecord();
    r.run_id = "crash-" + std::to_string(i);
    r.source = std::string(64 << 10, 'x');  // longer transactions: more chances to die inside
    r.samples.clear();
    for (int s = 0; s < kSets; ++s) {
      SampleSet set{"cfg" + std::to_string(s / 2), s % 2 ? "c" : "candidate", {}};
      for (int c = 0; c < kCalls; ++c) set.ns.push_back(1000 * s + c);
      r.samples.push_back(set);
    }
    r.configs.resize(kConfigs);
    return r;
  };

  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // Child: only async-signal-safe exits from here; never returns into the test runner.
    close(ready[0]);
    auto store = Store::open(path_);
    if (!store.ok()) _exit(2);
    for (int i = 0;; ++i) {
      if (!(*store)->record_submission(crash_record(i)).ok()) _exit(3);
      if (i == 0 && write(ready[1], "r", 1) != 1) _exit(4);
    }
  }
  close(ready[1]);
  pollfd p{ready[0], POLLIN, 0};
  int polled = poll(&p, 1, 20'000);
  char byte = 0;
  bool started = polled == 1 && read(ready[0], &byte, 1) == 1;
  close(ready[0]);
  if (started) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  kill(pid, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(started) << "the child never recorded a submission (exit status " << status << ")";
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child status " << status;

  auto store = Open();  // runs WAL recovery
  ASSERT_TRUE(store);
  EXPECT_EQ(Sql(path_, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(Sql(path_, "PRAGMA foreign_key_check"), "");
  auto n = store->count_submissions();
  ASSERT_TRUE(n.ok());
  EXPECT_GE(*n, 1);
  RecordProperty("submissions_before_kill", std::to_string(*n));
  EXPECT_EQ(Sql(path_,
                "SELECT count(*) FROM submissions s WHERE (SELECT count(*) FROM samples "
                "WHERE submission_id = s.id) != " +
                    std::to_string(kSets * kCalls)),
            "0");
  EXPECT_EQ(Sql(path_,
                "SELECT count(*) FROM submissions s WHERE (SELECT count(*) FROM "
                "config_results WHERE submission_id = s.id) != " +
                    std::to_string(kConfigs)),
            "0");
  EXPECT_EQ(Sql(path_, "SELECT count(*) FROM samples"), std::to_string(*n * kSets * kCalls));
  // The last surviving submission reads back whole.
  auto last = std::stoll(Sql(path_, "SELECT max(id) FROM submissions"));
  auto got = store->get_submission(last);
  ASSERT_TRUE(got.ok() && got->has_value());
  ExpectSameRecord(**got, crash_record(static_cast<int>(last - 1)));
  // And the store keeps working after recovery.
  EXPECT_TRUE(store->record_submission(crash_record(0)).ok());
}

}  // namespace
}  // namespace hpcab::judge
