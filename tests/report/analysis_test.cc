// The observations CSV and the analyses on it (report/csv.h, report/observations.h,
// report/analysis.h), including the worked example of docs/research.md.
#include "report/analysis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/db.h"
#include "common/manifest.h"
#include "report/csv.h"
#include "report/observations.h"

namespace hpcab::report {
namespace {

std::string example_csv() {
  std::ifstream in(std::string(HPCAB_SOURCE_DIR) + "/docs/research-example.csv");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Csv, QuotesWhatNeedsQuotingAndRoundTrips) {
  CsvRow row = {"plain", "with,comma", "with \"quote\"", "two\nlines", ""};
  std::string line = csv_line(row);
  EXPECT_EQ(line, "plain,\"with,comma\",\"with \"\"quote\"\"\",\"two\nlines\",\n");
  auto back = parse_csv(line);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0], row);
}

TEST(Csv, MalformedInputIsAnErrorNamingTheLine) {
  auto open = parse_csv("a,b\n\"unterminated,c\n");
  ASSERT_FALSE(open);
  EXPECT_NE(open.error().message.find("not closed"), std::string::npos);
  auto stray = parse_csv("a,b\nx\"y,c\n");
  ASSERT_FALSE(stray);
  EXPECT_NE(stray.error().message.find("line 2"), std::string::npos);
  auto ragged = parse_csv_table("a,b\n1\n", "t.csv");
  ASSERT_FALSE(ragged);
  EXPECT_NE(ragged.error().message.find("row 2 has 1 fields"), std::string::npos);
}

// A scratch folder, removed with everything in it.
class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "hpcab-obs-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Writes a SQLite file holding what `sql` creates: the columns extraction reads of the judge's
// and the harness's tables, with hand-made rows.
std::filesystem::path write_db(const std::filesystem::path& file, const std::string& sql) {
  db::Options options;
  options.owner = file.string();
  auto c = db::Connection::open(file.string(), options);
  EXPECT_TRUE(c) << c.error().message;
  if (c) {
    auto st = c->exec(sql, "writing");
    EXPECT_TRUE(st) << st.error().message;
  }
  return file;
}

constexpr const char* kSubmissionsTable =
    "CREATE TABLE submissions (id INTEGER PRIMARY KEY, rank INTEGER, kernel TEXT, verdict TEXT, "
    "run_id TEXT, speedup REAL, suspect INTEGER, finished_at REAL);";
constexpr const char* kEpisodesTable =
    "CREATE TABLE episodes (id TEXT, arm TEXT, kernel TEXT, repetition INTEGER, seq INTEGER, "
    "attempt INTEGER, rank INTEGER, started_at REAL, ended_at REAL, status TEXT, exit_reason TEXT, "
    "exit_code INTEGER, input_tokens INTEGER, cached_tokens INTEGER, output_tokens INTEGER, "
    "weighted_tokens REAL, requests INTEGER, final_submission_id INTEGER, final_verdict TEXT);";

// A merged judge file (ids renumbered, merged_submissions naming each shard id), a plain shard,
// and two harness files; every rule of extraction has an episode here.
ExtractOptions extraction_fixture(const std::filesystem::path& dir) {
  ExtractOptions opt;
  opt.judge_dbs.push_back(write_db(dir / "merged.db", std::string(kSubmissionsTable) + R"sql(
    CREATE TABLE merged_submissions (id INTEGER PRIMARY KEY, shard_submission_id INTEGER);
    CREATE TABLE score_calls (run_id TEXT, verdict TEXT, speedup REAL, finished_at REAL);
    INSERT INTO submissions VALUES (1, 0, 'gemm', 'ok', 'e1#1', 2.0, 0, 10),
      (2, 0, 'gemm', 'ok', 'e1#2', 1.5, 0, 20), (3, 0, 'gemm', 'wrong', 'e1#2', NULL, 0, 30),
      (4, 0, 'gemm', 'ok', 'e1#2', 3.0, 0, 25);
    INSERT INTO merged_submissions VALUES (1, 11), (2, 12), (3, 13);
    INSERT INTO score_calls VALUES ('e1#2', 'ok', 1.2, 15), ('e1#2', 'wrong', NULL, 26),
      ('', 'ok', 9, 1);
  )sql"));
  opt.judge_dbs.push_back(write_db(dir / "shard.db", std::string(kSubmissionsTable) + R"sql(
    INSERT INTO submissions VALUES (12, 0, 'gemm', 'ok', 'e1#2', 1.5, 0, 20),
      (5, 1, 'softmax', 'ok', 'e2#1', 1.1, 1, 5), (6, 1, 'softmax', 'ok', '', 1.0, 0, 6),
      (7, 0, 'gemm', 'ok', 'e5#1', 1.3, 0, 40);
  )sql"));
  opt.harness_dbs.push_back(write_db(dir / "h1.db", std::string(kEpisodesTable) + R"sql(
    CREATE TABLE arms (name TEXT, setup_json TEXT);
    INSERT INTO arms VALUES ('A', '{"agent": "claude-code", "model": "m", "language": "cpp",
      "submission_policy": "multiple", "token_budget": 1000, "wall_budget_s": 60}'),
      ('B', 'not json');
    INSERT INTO episodes VALUES
      ('e1', 'A', 'gemm', 0, 1, 2, 0, 100, 160, 'finished', 'submitted', 0, 10, 2, 3, 4.5, 6, 12, 'ok'),
      ('e2', 'B', 'softmax', 0, 2, 1, 1, 0, NULL, 'finished', 'submitted', NULL, 0, 0, 0, 0, 0, 99, 'ok'),
      ('e3', 'A', 'gemm', 1, 3, 1, 0, 0, 1, 'infra_failed', 'judge_unreachable', -1, 0, 0, 0, 0, 0, NULL, NULL),
      ('e4', 'B', 'softmax', 1, 4, 0, NULL, NULL, NULL, 'queued', '', NULL, 0, 0, 0, 0, 0, NULL, NULL),
      ('e5', 'A', 'gemm', 2, 5, 1, 0, 0, 1, 'infra_failed', 'judge_unreachable', -1, 0, 0, 0, 0, 0, NULL, NULL),
      ('e6', 'C', 'gemm', 0, 6, 1, 0, 0, 1, 'failed', 'harness_error', -1, 0, 0, 0, 0, 0, NULL, NULL);
  )sql"));
  opt.harness_dbs.push_back(write_db(dir / "h2.db", std::string(kEpisodesTable) + R"sql(
    INSERT INTO episodes VALUES
      ('e1', 'A', 'gemm', 0, 1, 1, 0, 0, 1, 'finished', 'no_submission', 0, 0, 0, 0, 0, 0, NULL, NULL),
      ('e7', 'A', 'gemm', 3, 2, 1, 0, 0, 1, 'finished', 'no_submission', 0, 0, 0, 0, 0, 0, NULL, NULL);
  )sql"));
  opt.corpus_dir = std::string(HPCAB_SOURCE_DIR) + "/corpus";
  return opt;
}

TEST(Observations, ExtractPicksTheFinalAndBestSubmissionAndLeavesOutEpisodesThatNeverRan) {
  ScratchDir dir;
  auto got = extract_observations(extraction_fixture(dir.path()));
  ASSERT_TRUE(got) << got.error().message;
  const std::vector<std::string> warnings = {
      "submission 12 of rank 0 is in more than one judge database; counted once",
      "episode e5 is infra_failed (judge_unreachable) but the judge graded run e5#1: counted "
      "with that grade",
      "episode e2: its final submission 99 is not a judge record of run e2#1; using submission 5",
      "episode e1 is in more than one harness database; the first is used"};
  EXPECT_EQ(got->warnings, warnings);
  ASSERT_EQ(got->excluded.size(), 3u);
  EXPECT_EQ(got->excluded[0].first, "A");
  EXPECT_EQ(got->excluded[0].second.infrastructure, 1);
  EXPECT_EQ(got->excluded[0].second.not_run, 0);
  EXPECT_EQ(got->excluded[1].first, "B");
  EXPECT_EQ(got->excluded[1].second.not_run, 1);
  EXPECT_EQ(got->excluded[2].first, "C");
  EXPECT_EQ(got->excluded[2].second.not_run, 1);

  // Arms in first-seen order, episodes in plan order, the second harness file after the first.
  ASSERT_EQ(got->rows.size(), 4u);
  std::vector<std::string> ids;
  for (const auto& o : got->rows) ids.push_back(o.run_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"e1#2", "e5#1", "e2#1", "e7#1"}));

  auto gemm = load_manifest(std::string(HPCAB_SOURCE_DIR) +
                            "/corpus/scientific_computing/dense_linear_algebra/gemm");
  ASSERT_TRUE(gemm) << gemm.error().message;
  const Observation& e1 = got->rows[0];
  EXPECT_EQ(e1.arm, "A");
  EXPECT_EQ(e1.track, "scientific_computing");
  EXPECT_EQ(e1.dwarf, "dense_linear_algebra");
  EXPECT_EQ(e1.level, gemm->level);
  EXPECT_EQ(e1.agent, "claude-code");
  // A harness file from before the token sources: tokens there were the server's.
  EXPECT_EQ(e1.tokens_source, "reported");
  EXPECT_EQ(got->rows[2].tokens_source, "none") << got->rows[2].run_id;
  EXPECT_EQ(e1.language, "cpp");
  EXPECT_EQ(e1.submission_policy, "multiple");
  EXPECT_EQ(e1.token_budget, 1000);
  EXPECT_EQ(e1.wall_budget_s, 60);
  EXPECT_EQ(e1.attempts, 2);
  EXPECT_EQ(e1.judge_rank, 0);
  EXPECT_EQ(e1.wall_s, 60);
  EXPECT_EQ(e1.exit_code, 0);
  EXPECT_EQ(e1.input_tokens, 10);
  EXPECT_EQ(e1.requests, 6);
  EXPECT_DOUBLE_EQ(e1.weighted_cost, 4.5);
  EXPECT_EQ(e1.submissions, 4);
  EXPECT_EQ(e1.score_calls, 2);
  // The final one is the shard id the harness named; the best is the fastest of that attempt.
  EXPECT_EQ(e1.submission_id, 12);
  EXPECT_TRUE(e1.solved);
  EXPECT_EQ(e1.speedup, 1.5);
  EXPECT_EQ(e1.best_submission_id, 4);
  EXPECT_EQ(e1.best_speedup, 3.0);
  const std::vector<Candidate> history = {{1, "submit", "ok", 2.0},
                                          {2, "score", "ok", 1.2},
                                          {2, "submit", "ok", 1.5},
                                          {2, "submit", "ok", 3.0},
                                          {2, "score", "wrong", std::nullopt},
                                          {2, "submit", "wrong", std::nullopt}};
  EXPECT_EQ(e1.history, history);

  const Observation& e5 = got->rows[1];
  EXPECT_EQ(e5.status, "infra_failed");
  EXPECT_EQ(e5.submission_id, 7);
  EXPECT_EQ(e5.speedup, 1.3);

  // The named id is no record of the run: the last graded one stands in; a suspect grade keeps
  // its speedup. An arm setup that is not JSON leaves the setup columns empty.
  const Observation& e2 = got->rows[2];
  EXPECT_EQ(e2.agent, "");
  EXPECT_EQ(e2.track, "machine_learning");
  EXPECT_EQ(e2.submission_id, 5);
  EXPECT_TRUE(e2.suspect);
  EXPECT_EQ(e2.speedup, 1.1);
  EXPECT_FALSE(e2.wall_s);
  EXPECT_FALSE(e2.exit_code);
  EXPECT_EQ(e2.submissions, 1);

  const Observation& e7 = got->rows[3];
  EXPECT_FALSE(e7.solved);
  EXPECT_EQ(e7.verdict, "");
  EXPECT_FALSE(e7.submission_id);
  EXPECT_FALSE(e7.best_submission_id);
  EXPECT_TRUE(e7.history.empty());
}

TEST(Observations, ExtractErrorsNameTheDatabase) {
  ScratchDir dir;
  const ExtractOptions fixture = extraction_fixture(dir.path());
  EXPECT_EQ(extract_observations({}).error().message, "no harness database given (--harness-db)");

  ExtractOptions opt;
  opt.harness_dbs = {fixture.harness_dbs[0]};
  auto alone = extract_observations(opt);
  ASSERT_TRUE(alone) << alone.error().message;
  EXPECT_EQ(alone->warnings.back(),
            "no judge database given (--judge-db): no episode can count as solved");
  EXPECT_EQ(alone->rows.size(), 2u);  // e1 (unsolved); e5 has no grade now and is left out
  EXPECT_EQ(alone->rows[0].track, "");

  opt.judge_dbs = {fixture.harness_dbs[0]};
  EXPECT_EQ(extract_observations(opt).error().message,
            fixture.harness_dbs[0].string() + ": not a judge database (no submissions table)");
  opt.judge_dbs = {dir.path() / "missing.db"};
  EXPECT_EQ(extract_observations(opt).error().message,
            (dir.path() / "missing.db").string() + ": no such database file");
  opt.judge_dbs = {};
  opt.harness_dbs = {fixture.judge_dbs[0]};
  EXPECT_EQ(extract_observations(opt).error().message,
            fixture.judge_dbs[0].string() + ": not a harness episode database (no episodes table)");
  opt.harness_dbs = {fixture.harness_dbs[0]};
  opt.corpus_dir = dir.path() / "no-corpus";
  EXPECT_EQ(extract_observations(opt).error().message,
            "corpus " + (dir.path() / "no-corpus").string() + ": corpus directory '" +
                (dir.path() / "no-corpus").string() + "' not found");
}

TEST(Observations, CsvRoundTripsEveryColumn) {
  Observation o;
  o.arm = "a,1";
  o.kernel = "tsvc_2_s000";
  o.track = "loop_level_reasoning";
  o.level = 1;
  o.repetition = 2;
  o.agent = "command";
  o.attempts = 2;
  o.status = "finished";
  o.exit_reason = "wall_budget";
  o.exit_code = 124;
  o.solved = true;
  o.verdict = "ok";
  o.speedup = 1.25;
  o.input_tokens = 10;
  o.cached_tokens = 20;
  o.output_tokens = 30;
  o.weighted_cost = 42;
  o.wall_s = 3.5;
  o.judge_rank = 1;
  o.submission_id = 7;
  o.run_id = "a,1/tsvc_2_s000/2#2";
  o.tokens_source = "counted";
  auto rows = parse_observations_csv(observations_csv({o}), "x.csv");
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 1u);
  const Observation& b = (*rows)[0];
  EXPECT_EQ(b.arm, o.arm);
  EXPECT_EQ(b.exit_code, 124);
  EXPECT_EQ(b.speedup, 1.25);
  EXPECT_EQ(b.wall_s, 3.5);
  EXPECT_EQ(b.submission_id, 7);
  EXPECT_EQ(b.run_id, o.run_id);
  EXPECT_EQ(b.tokens_source, "counted");
  EXPECT_FALSE(b.dwarf.size());
  auto missing = parse_observations_csv("arm,kernel\nx,y\n", "m.csv");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("missing columns: track"), std::string::npos);
}

// docs/research.md's worked example, number for number (scipy agrees: see the doc).
TEST(Analysis, WorkedExampleOfTheDocs) {
  auto rows = parse_observations_csv(example_csv(), "research-example.csv");
  ASSERT_TRUE(rows) << rows.error().message;
  SummaryOptions so;
  auto s = summarize(*rows, so);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].arm, "control");
  EXPECT_EQ(s[0].solved, 6);
  EXPECT_DOUBLE_EQ(s[0].success_rate, 0.75);
  EXPECT_NEAR(s[0].geomean_speedup, 1.2904604648504241, 1e-12);  // scipy gmean
  EXPECT_DOUBLE_EQ(s[0].fast_1, 5.0 / 8);
  EXPECT_DOUBLE_EQ(s[0].fast_1_5, 2.0 / 8);
  EXPECT_DOUBLE_EQ(s[0].fast_2, 1.0 / 8);
  EXPECT_DOUBLE_EQ(s[0].cost, 552000);
  EXPECT_DOUBLE_EQ(s[0].cost_cached_free, 462000);
  EXPECT_DOUBLE_EQ(s[0].cost_cached_full, 1362000);
  EXPECT_EQ(s[1].solved, 8);

  auto c = compare_arms(*rows, "control", {"with-tool"}, CompareOptions{});
  ASSERT_TRUE(c);
  ASSERT_EQ(c->size(), 1u);
  const Comparison& x = (*c)[0];
  EXPECT_EQ(x.pairs, 8);
  EXPECT_EQ(x.only_control, 0);
  EXPECT_EQ(x.only_treatment, 2);
  EXPECT_DOUBLE_EQ(x.mcnemar_p, 0.5);
  EXPECT_EQ(x.speedup.n, 6);
  EXPECT_NEAR(x.speedup.geomean_ratio, 1.3607776297589649, 1e-12);
  ASSERT_TRUE(x.speedup.ci);
  EXPECT_NEAR(x.speedup.ci->lo, 1.074852691366644, 1e-9);
  EXPECT_NEAR(x.speedup.ci->hi, 1.7227623585312177, 1e-9);
  ASSERT_TRUE(x.speedup.p_value);
  EXPECT_NEAR(*x.speedup.p_value, 0.020168357754545518, 1e-9);
  EXPECT_NEAR(x.cost_ratio, 666000.0 / 552000.0, 1e-12);
  // BH over the run's three p-values (0.5, 0.0202, 0.0016).
  ASSERT_TRUE(x.q_speedup && x.q_mcnemar && x.q_cost);
  EXPECT_NEAR(*x.q_speedup, 0.020168357754545518 * 3 / 2, 1e-9);
  EXPECT_DOUBLE_EQ(*x.q_mcnemar, 0.5);
}

TEST(Analysis, UnknownArmsAndSelfComparisonAreErrors) {
  auto rows = parse_observations_csv(example_csv(), "research-example.csv");
  ASSERT_TRUE(rows);
  auto a = compare_arms(*rows, "nope", {"with-tool"}, CompareOptions{});
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("(arms: control, with-tool)"), std::string::npos);
  auto b = compare_arms(*rows, "control", {"control"}, CompareOptions{});
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("both the control and a treatment"), std::string::npos);
}

// Below min_pairs jointly solved kernels there is no interval, but the ratio and tests remain.
TEST(Analysis, NoIntervalBelowSixPairs) {
  auto rows = parse_observations_csv(example_csv(), "research-example.csv");
  ASSERT_TRUE(rows);
  CompareOptions o;
  o.min_pairs = 7;
  auto c = compare_arms(*rows, "control", {"with-tool"}, o);
  ASSERT_TRUE(c);
  EXPECT_FALSE((*c)[0].speedup.ci.has_value());
  EXPECT_TRUE((*c)[0].speedup.p_value.has_value());
  EXPECT_NE(comparisons_text(*c, o).find("no interval below 7 pairs"), std::string::npos);
}

// An episode of arm "a" for the hand-computed cases below.
Observation Ep(const std::string& kernel, const std::string& dwarf, bool solved,
               std::optional<double> speedup, const std::string& track = "scientific_computing",
               int level = 1) {
  Observation o;
  o.arm = "a";
  o.kernel = kernel;
  o.dwarf = dwarf;
  o.track = track;
  o.level = level;
  o.solved = solved;
  o.verdict = solved ? "ok" : "incorrect";
  o.speedup = speedup;
  o.best_verdict = o.verdict;
  o.best_solved = solved;
  o.best_speedup = speedup;
  return o;
}

std::vector<const Observation*> Ptrs(const std::vector<Observation>& v) {
  std::vector<const Observation*> p;
  for (const auto& o : v) p.push_back(&o);
  return p;
}

// docs/research.md, "Suite score": S_i = clamp(speedup, 1, c_max) when solved with a credited
// speedup, else 1; the score is exp(mean ln S_i) over all episodes; per dwarf the same within
// the dwarf, and the suite score is their episode-weighted geometric mean.
TEST(SuiteScore, HandComputedWithClampingUnsolvedAndPerDwarfMeans) {
  const std::vector<Observation> rows = {
      Ep("k1", "dense", true, 4.0),              // S = 4
      Ep("k2", "dense", true, 0.5),              // slower than the baseline: clamped up to 1
      Ep("k3", "dense", false, std::nullopt),    // unsolved: 1
      Ep("k4", "spectral", true, 200.0),         // clamped down to c_max = 100
      Ep("k5", "spectral", true, std::nullopt),  // solved, no credited speedup (suspect): 1
  };
  EXPECT_DOUBLE_EQ(task_score(rows[0], 100), 4.0);
  EXPECT_DOUBLE_EQ(task_score(rows[1], 100), 1.0);
  EXPECT_DOUBLE_EQ(task_score(rows[2], 100), 1.0);
  EXPECT_DOUBLE_EQ(task_score(rows[3], 100), 100.0);
  EXPECT_DOUBLE_EQ(task_score(rows[3], 1000), 200.0);
  EXPECT_DOUBLE_EQ(task_score(rows[4], 100), 1.0);
  // (4 * 1 * 1 * 100 * 1)^(1/5) = 400^(1/5).
  EXPECT_NEAR(suite_score(Ptrs(rows), 100), std::pow(400.0, 0.2), 1e-12);
  EXPECT_NEAR(suite_score(Ptrs(rows), 1000), std::pow(800.0, 0.2), 1e-12);
  EXPECT_NEAR(suite_score(Ptrs(rows), 1), 1.0, 1e-15);  // c_max 1: nothing beats the baseline
  EXPECT_TRUE(std::isnan(suite_score({}, 100)));

  SummaryOptions o;
  o.resamples = 100;
  auto s = summarize(rows, o);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NEAR(s[0].suite_score, std::pow(400.0, 0.2), 1e-12);
  ASSERT_EQ(s[0].dwarf_scores.size(), 2u);
  EXPECT_EQ(s[0].dwarf_scores[0].first, "dense");
  EXPECT_EQ(s[0].dwarf_scores[0].second.first, 3);
  EXPECT_NEAR(s[0].dwarf_scores[0].second.second, std::cbrt(4.0), 1e-12);
  EXPECT_EQ(s[0].dwarf_scores[1].first, "spectral");
  EXPECT_NEAR(s[0].dwarf_scores[1].second.second, 10.0, 1e-12);
  // The suite score is the per-dwarf means combined by episode count: (G_dense^3 G_spec^2)^(1/5).
  const double combined = std::exp((3 * std::log(std::cbrt(4.0)) + 2 * std::log(10.0)) / 5);
  EXPECT_NEAR(s[0].suite_score, combined, 1e-12);
  // The paper's summary beside it: 4 of 5 solved; the geometric mean over the 3 with a credited
  // speedup (4, 0.5, 200; unclamped); fast_1 counts 4 and 200.
  EXPECT_EQ(s[0].solved, 4);
  EXPECT_EQ(s[0].speedups, 3);
  EXPECT_NEAR(s[0].geomean_speedup, std::cbrt(4.0 * 0.5 * 200.0), 1e-12);
  EXPECT_DOUBLE_EQ(s[0].fast_1, 2.0 / 5);
  const std::string text = summary_text(s, o);
  EXPECT_NE(text.find("solved 4 (80.0%)"), std::string::npos) << text;
  EXPECT_NE(text.find("over 3 of 4 solved (1 without a credited speedup"), std::string::npos)
      << text;
  EXPECT_NE(text.find("suite score 3.314 (speedups clamped to [1, 100], unsolved 1; per dwarf: "
                      "dense 1.587 (3) spectral 10 (2))"),
            std::string::npos)
      << text;
  auto csv = parse_csv_table(summary_csv(s), "s.csv");
  ASSERT_TRUE(csv);
  EXPECT_EQ(csv->rows[0][csv->column("suite_score")], "3.31445");
}

TEST(Breakdowns, ByTrackDwarfAndLevel) {
  std::vector<Observation> rows = {
      Ep("k1", "dense", true, 4.0, "scientific_computing", 1),
      Ep("k2", "", true, 2.0, "loop_level_reasoning", 1),
      Ep("k3", "dense", false, std::nullopt, "scientific_computing", 2),
      Ep("k4", "spectral", true, 1.0, "scientific_computing", 2),
  };
  rows.push_back(Ep("k1", "dense", true, 9.0));
  rows.back().arm = "b";
  auto b = breakdowns(rows, {"track", "dwarf", "level"}, 100);
  ASSERT_TRUE(b);
  // Arm a: 2 tracks + 3 dwarfs ('' included) + 2 levels; arm b: 1 + 1 + 1.
  ASSERT_EQ(b->size(), 10u);
  auto find = [&](const std::string& arm, const std::string& by, const std::string& g) {
    for (const auto& r : *b) {
      if (r.arm == arm && r.by == by && r.group == g) return r.stats;
    }
    ADD_FAILURE() << arm << " " << by << " " << g;
    return GroupStats{};
  };
  const GroupStats sci = find("a", "track", "scientific_computing");
  EXPECT_EQ(sci.episodes, 3);
  EXPECT_EQ(sci.solved, 2);
  EXPECT_NEAR(sci.geomean_speedup, 2.0, 1e-12);         // sqrt(4 * 1)
  EXPECT_NEAR(sci.suite_score, std::cbrt(4.0), 1e-12);  // (4 * 1 * 1)^(1/3)
  EXPECT_DOUBLE_EQ(sci.fast_1, 1.0 / 3);
  EXPECT_EQ(find("a", "dwarf", "").episodes, 1);
  EXPECT_EQ(find("a", "dwarf", "dense").solved, 1);
  const GroupStats l2 = find("a", "level", "2");
  EXPECT_EQ(l2.episodes, 2);
  EXPECT_DOUBLE_EQ(l2.success_rate, 0.5);
  EXPECT_NEAR(find("b", "track", "scientific_computing").suite_score, 9.0, 1e-12);
  const std::string text = breakdown_text(*b);
  EXPECT_NE(text.find("a by dwarf:"), std::string::npos) << text;
  EXPECT_NE(text.find("unclassified"), std::string::npos) << text;
  auto csv = parse_csv_table(breakdown_csv(*b), "b.csv");
  ASSERT_TRUE(csv);
  EXPECT_EQ(csv->rows.size(), 10u);
  EXPECT_EQ(csv->rows[0][csv->column("by")], "track");
  auto bad = breakdowns(rows, {"model"}, 100);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("track, dwarf or level (got 'model')"), std::string::npos);
}

TEST(Pick, BestTakesTheBestSubmissionOfTheEpisode) {
  std::vector<Observation> rows = {Ep("k1", "d", false, std::nullopt), Ep("k2", "d", true, 1.5)};
  rows[0].best_verdict = "ok";  // an earlier submission was correct, the final one was not
  rows[0].best_solved = true;
  rows[0].best_speedup = 3.0;
  rows[0].best_submission_id = 11;
  rows[1].best_speedup = 2.0;  // an earlier one was faster than the final
  rows[1].best_submission_id = 12;
  const auto final_rows = apply_pick(rows, Pick::kFinal);
  EXPECT_FALSE(final_rows[0].solved);
  EXPECT_EQ(final_rows[1].speedup, 1.5);
  const auto best = apply_pick(rows, Pick::kBest);
  EXPECT_TRUE(best[0].solved);
  EXPECT_EQ(best[0].verdict, "ok");
  EXPECT_EQ(best[0].speedup, 3.0);
  EXPECT_EQ(best[0].submission_id, 11);
  EXPECT_EQ(best[1].speedup, 2.0);
  SummaryOptions o;
  o.resamples = 100;
  EXPECT_EQ(summarize(final_rows, o)[0].solved, 1);
  EXPECT_EQ(summarize(best, o)[0].solved, 2);
  EXPECT_NEAR(summarize(best, o)[0].suite_score, std::sqrt(6.0), 1e-12);
  EXPECT_EQ(*parse_pick("best"), Pick::kBest);
  EXPECT_EQ(*parse_pick("final"), Pick::kFinal);
  EXPECT_FALSE(parse_pick("max"));
}

TEST(History, RoundTripsThroughTheCsvInOrder) {
  Observation o = Ep("tsvc_2_s000", "", true, 1.25);
  o.run_id = "a/tsvc_2_s000/0#2";
  o.history = {{1, "score", "incorrect", std::nullopt},
               {1, "score", "ok", 0.9},
               {1, "submit", "ok", 1.1},
               {2, "submit", "ok", std::nullopt},  // suspect: no credited speedup
               {2, "score", "ok", 1.4},
               {2, "submit", "ok", 1.25}};
  o.best_submission_id = 3;
  EXPECT_EQ(format_history(o.history),
            "1:score:incorrect:;1:score:ok:0.9;1:submit:ok:1.1;2:submit:ok:;2:score:ok:1.4;"
            "2:submit:ok:1.25");
  auto rows = parse_observations_csv(observations_csv({o}), "h.csv");
  ASSERT_TRUE(rows) << rows.error().message;
  EXPECT_EQ((*rows)[0].history, o.history);
  EXPECT_EQ((*rows)[0].best_speedup, 1.25);
  EXPECT_EQ((*rows)[0].best_submission_id, 3);
  auto empty = parse_history("");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  for (const char* bad : {"1:score:ok", "0:score:ok:1", "1:oracle:ok:1", "1:submit:ok:fast"}) {
    auto h = parse_history(bad);
    EXPECT_FALSE(h) << bad;
  }
  // A history the CSV cannot hold is an error naming its row and column.
  std::string text = observations_csv({o});
  text.replace(text.find("2:submit:ok:1.25"), 16, "2:submit:ok:x");
  auto broken = parse_observations_csv(text, "h.csv");
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().message.find("h.csv: row 2: column history"), std::string::npos)
      << broken.error().message;
}

// A CSV written before the best_* and history columns still reads: its best is its final.
TEST(Observations, OlderCsvWithoutBestOrHistoryReads) {
  auto rows = parse_observations_csv(example_csv(), "research-example.csv");
  ASSERT_TRUE(rows) << rows.error().message;
  for (const auto& r : *rows) {
    EXPECT_EQ(r.best_solved, r.solved);
    EXPECT_EQ(r.best_speedup, r.speedup);
    EXPECT_EQ(r.best_submission_id, r.submission_id);
    EXPECT_TRUE(r.history.empty());
  }
}

}  // namespace
}  // namespace hpcab::report
