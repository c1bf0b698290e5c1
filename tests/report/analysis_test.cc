// The observations CSV and the analyses on it (report/csv.h, report/observations.h,
// report/analysis.h), including the worked example of docs/research.md.
#include "report/analysis.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

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

}  // namespace
}  // namespace hpcab::report
