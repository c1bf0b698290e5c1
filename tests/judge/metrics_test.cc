// Metrics::render (judge/http/metrics.h) as Prometheus reads it: the text is parsed back into
// series and values, and the assertions are on those (cumulative buckets, +Inf equal to
// _count, every sample under a HELP and TYPE of its family), not on the prose.
#include "judge/http/metrics.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

namespace hpcab::judge {
namespace {

struct Exposition {
  std::map<std::string, double> samples;     // `name{labels}` as written -> value
  std::map<std::string, std::string> types;  // family -> counter, gauge, histogram
  std::set<std::string> helped;              // families with a # HELP line
  std::string error;                         // the first line that broke the format
};

// The family a sample belongs to: its name less a histogram's _bucket/_sum/_count suffix.
std::string family_of(const std::string& name, const std::map<std::string, std::string>& types) {
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    const std::string s = suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      const std::string base = name.substr(0, name.size() - s.size());
      if (types.count(base) && types.at(base) == "histogram") return base;
    }
  }
  return name;
}

Exposition parse(const std::string& text) {
  Exposition e;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# HELP ", 0) == 0) {
      e.helped.insert(line.substr(7, line.find(' ', 7) - 7));
    } else if (line.rfind("# TYPE ", 0) == 0) {
      std::istringstream words(line.substr(7));
      std::string name, type;
      words >> name >> type;
      e.types[name] = type;
    } else if (!line.empty()) {
      const auto space = line.rfind(' ');
      const std::string series = line.substr(0, space);
      const std::string name = series.substr(0, series.find('{'));
      const std::string fam = family_of(name, e.types);
      if (space == std::string::npos || !e.types.count(fam) || !e.helped.count(fam)) {
        if (e.error.empty()) e.error = line;
        continue;
      }
      e.samples[series] = std::stod(line.substr(space + 1));
    }
  }
  return e;
}

TEST(Metrics, StageHistogramsHaveCumulativeBucketsEndingInCount) {
  Metrics m;
  m.stages({{"candidate", 0.1}, {"build", 3.0}});  // 0.1 lies on a bound: le is inclusive
  m.stages({{"candidate", 0.2}});
  m.stages({{"candidate", 400.0}});  // beyond the last bound: only +Inf
  const Exposition e = parse(m.render({}));
  ASSERT_EQ(e.error, "");
  EXPECT_EQ(e.types.at("hpcab_stage_seconds"), "histogram");
  const auto& s = e.samples;
  EXPECT_EQ(s.at("hpcab_stage_seconds_bucket{stage=\"candidate\",le=\"0.1\"}"), 1);
  EXPECT_EQ(s.at("hpcab_stage_seconds_bucket{stage=\"candidate\",le=\"0.25\"}"), 2);
  EXPECT_EQ(s.at("hpcab_stage_seconds_bucket{stage=\"candidate\",le=\"300\"}"), 2);
  EXPECT_EQ(s.at("hpcab_stage_seconds_bucket{stage=\"candidate\",le=\"+Inf\"}"), 3);
  EXPECT_EQ(s.at("hpcab_stage_seconds_count{stage=\"candidate\"}"), 3);
  EXPECT_DOUBLE_EQ(s.at("hpcab_stage_seconds_sum{stage=\"candidate\"}"), 400.3);
  EXPECT_EQ(s.at("hpcab_stage_seconds_bucket{stage=\"build\",le=\"2.5\"}"), 0);
  EXPECT_EQ(s.at("hpcab_stage_seconds_bucket{stage=\"build\",le=\"5\"}"), 1);
  EXPECT_EQ(s.at("hpcab_stage_seconds_count{stage=\"build\"}"), 1);

  // Every bound, in order, with counts that never decrease.
  double previous = 0;
  for (double bound : SecondsHistogram::kBounds) {
    std::ostringstream key;
    key << "hpcab_stage_seconds_bucket{stage=\"candidate\",le=\"" << bound << "\"}";
    ASSERT_TRUE(s.count(key.str())) << key.str();
    EXPECT_GE(s.at(key.str()), previous) << key.str();
    previous = s.at(key.str());
  }
}

TEST(Metrics, GradesAreCountedByVerdictAndTimedInAHistogram) {
  Metrics m;
  m.grade("submit", "ok", 1.5);
  m.grade("submit", "ok", 0.5);
  m.grade("score", "wrong_answer", 12);
  const Exposition e = parse(m.render({}));
  ASSERT_EQ(e.error, "");
  EXPECT_EQ(e.types.at("hpcab_grades_total"), "counter");
  EXPECT_EQ(e.samples.at("hpcab_grades_total{route=\"submit\",verdict=\"ok\"}"), 2);
  EXPECT_EQ(e.samples.at("hpcab_grades_total{route=\"score\",verdict=\"wrong_answer\"}"), 1);
  EXPECT_EQ(e.types.at("hpcab_grade_seconds"), "histogram");
  EXPECT_EQ(e.samples.at("hpcab_grade_seconds_bucket{le=\"0.5\"}"), 1);
  EXPECT_EQ(e.samples.at("hpcab_grade_seconds_bucket{le=\"2.5\"}"), 2);
  EXPECT_EQ(e.samples.at("hpcab_grade_seconds_bucket{le=\"30\"}"), 3);
  EXPECT_EQ(e.samples.at("hpcab_grade_seconds_bucket{le=\"+Inf\"}"), 3);
  EXPECT_EQ(e.samples.at("hpcab_grade_seconds_count"), 3);
  EXPECT_DOUBLE_EQ(e.samples.at("hpcab_grade_seconds_sum"), 14);
}

TEST(Metrics, GaugesReportQueueWorkersAndSlots) {
  Metrics m;
  MetricsGauges g;
  g.queue_waiting = 7;
  g.queue_running = 2;
  g.queue_capacity = 16;
  g.grade_workers = 2;
  g.slots_busy = 1;
  g.slots_total = 3;
  const Exposition e = parse(m.render(g));
  ASSERT_EQ(e.error, "");
  const std::map<std::string, double> want = {
      {"hpcab_queue_waiting", 7}, {"hpcab_queue_running", 2}, {"hpcab_queue_capacity", 16},
      {"hpcab_grade_workers", 2}, {"hpcab_slots_busy", 1},    {"hpcab_slots", 3}};
  for (const auto& [name, value] : want) {
    EXPECT_EQ(e.types.at(name), "gauge") << name;
    EXPECT_EQ(e.samples.at(name), value) << name;
  }
}

TEST(Metrics, RequestsAndFaultsAreCountersWithEscapedLabels) {
  Metrics m;
  m.request("/health", 200);
  m.request("/health", 200);
  m.request("/score", 429);
  m.fault("exception");
  m.fault("a \"quoted\\\" kind");  // never a real kind: the format must survive it anyway
  const Exposition e = parse(m.render({}));
  ASSERT_EQ(e.error, "");
  EXPECT_EQ(e.types.at("hpcab_requests_total"), "counter");
  EXPECT_EQ(e.samples.at("hpcab_requests_total{route=\"/health\",status=\"200\"}"), 2);
  EXPECT_EQ(e.samples.at("hpcab_requests_total{route=\"/score\",status=\"429\"}"), 1);
  EXPECT_EQ(e.samples.at("hpcab_judge_faults_total{kind=\"exception\"}"), 1);
  EXPECT_EQ(e.samples.at("hpcab_judge_faults_total{kind=\"a \\\"quoted\\\\\\\" kind\"}"), 1);
}

}  // namespace
}  // namespace hpcab::judge
