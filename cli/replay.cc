#include "cli/replay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "common/db.h"
#include "common/stats.h"
#include "judge/grade/verdict.h"
#include "judge/store/schema.h"

namespace hpcab::cli {

namespace {

namespace schema = judge::schema;
using judge::GradeOutcome;
using judge::GradeResult;
using judge::timing_parts;
using judge::VerdictRules;

struct RecordedConfig {
  std::string label;
  std::vector<double> cand, base;
};

struct RecordedGrade {
  int64_t id = 0;
  int timing_processes = 1;
  std::vector<RecordedConfig> configs;  // in recorded order: the public configuration first
};

Result<std::vector<RecordedGrade>> read_grades(const std::string& path,
                                               const std::vector<std::string>& optimizers) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Error{path + ": no such database file"};
  db::Options options;
  options.owner = path;
  auto conn = db::Connection::open_readonly(path, options);
  if (!conn) return conn.error();
  namespace S = schema::submissions;
  namespace P = schema::samples;
  auto judge_file = conn->has_table(S::kTable);
  if (!judge_file) return judge_file.error();
  if (!*judge_file) return Error{path + ": not a judge database (no submissions table)"};

  std::vector<RecordedGrade> grades;
  std::map<int64_t, std::size_t> index;  // submission id -> position in grades
  {
    auto st = conn->prepare(std::string("SELECT ") + S::kId + ", " + S::kOptimizer + ", " +
                                S::kResponseJson + " FROM " + S::kTable + " WHERE " + S::kVerdict +
                                " = 'ok' AND " + S::kSuspect + " = 0 ORDER BY " + S::kId,
                            "reading submissions");
    if (!st) return st.error();
    auto q = st->use();
    for (;;) {
      auto row = q.step("reading submissions");
      if (!row) return row.error();
      if (!*row) break;
      const std::string optimizer = q.col_text(S::kOptimizer);
      if (!optimizers.empty() &&
          std::find(optimizers.begin(), optimizers.end(), optimizer) == optimizers.end()) {
        continue;
      }
      RecordedGrade g;
      g.id = q.col_int(S::kId);
      // The rules the grade was credited under; a response without them predates the parts.
      auto response = nlohmann::json::parse(q.col_text(S::kResponseJson), nullptr, false);
      if (response.is_object() && response.contains("rules")) {
        g.timing_processes = std::max(1, response["rules"].value("timing_processes", 1));
      }
      index[g.id] = grades.size();
      grades.push_back(std::move(g));
    }
  }
  auto st = conn->prepare(std::string("SELECT ") + P::kSubmissionId + ", " + P::kConfig + ", " +
                              P::kSide + ", " + P::kNs + " FROM " + P::kTable + " ORDER BY " +
                              P::kSubmissionId + ", " + P::kSetIndex + ", " + P::kCallIndex,
                          "reading samples");
  if (!st) return st.error();
  auto q = st->use();
  std::map<std::pair<int64_t, std::string>, std::size_t> config_of;  // (id, label) -> position
  for (;;) {
    auto row = q.step("reading samples");
    if (!row) return row.error();
    if (!*row) break;
    auto it = index.find(q.col_int(P::kSubmissionId));
    if (it == index.end()) continue;
    RecordedGrade& g = grades[it->second];
    const std::string label = q.col_text(P::kConfig);
    auto [pos, fresh] = config_of.try_emplace({g.id, label}, g.configs.size());
    if (fresh) g.configs.push_back({label, {}, {}});
    RecordedConfig& c = g.configs[pos->second];
    (q.col_text(P::kSide) == "candidate" ? c.cand : c.base)
        .push_back(static_cast<double>(q.col_int(P::kNs)));
  }
  // A grade whose configurations lack a side (a /score-style record) has nothing to pair.
  std::erase_if(grades, [](const RecordedGrade& g) {
    return g.configs.empty() || std::any_of(g.configs.begin(), g.configs.end(), [](const auto& c) {
             return c.cand.empty() || c.base.empty();
           });
  });
  if (grades.empty()) return Error{path + ": no ok /submit with paired samples to replay"};
  return grades;
}

// The credited speedup of `g` with every candidate sample divided by `effect`.
double credit(const RecordedGrade& g, double effect, const VerdictRules& rules) {
  GradeOutcome o;
  o.public_correct = true;
  for (const RecordedConfig& c : g.configs) {
    std::vector<double> cand(c.cand.size());
    std::transform(c.cand.begin(), c.cand.end(), cand.begin(),
                   [effect](double v) { return v / effect; });
    std::vector<std::size_t> parts;
    if (c.cand.size() == c.base.size()) parts = timing_parts(c.cand.size(), g.timing_processes);
    o.timed.push_back(
        {c.label, {}, !o.timed.empty(), std::move(cand), c.base, 0, 0, 0, 0, std::move(parts)});
  }
  GradeResult r = decide(o, rules);
  return r.speedup.value_or(std::nan(""));
}

}  // namespace

Result<ReplayReport> replay_credits(const std::string& db_path, const ReplayOptions& options) {
  for (double e : options.effects) {
    if (!(e > 1) || !std::isfinite(e)) return Error{"every effect must be a number above 1"};
  }
  auto grades = read_grades(db_path, options.optimizers);
  if (!grades) return grades.error();
  ReplayReport report;
  report.grades = static_cast<int>(grades->size());
  for (const auto& g : *grades) {
    report.timing_processes = std::max(report.timing_processes, g.timing_processes);
  }
  std::vector<double> effects = {1.0};
  for (double e : options.effects) {
    effects.push_back(e);
    effects.push_back(1 / e);
  }
  struct Set {
    const char* name;
    double margin;
    bool replication;
  };
  const Set sets[] = {{"paper", 0, false},
                      {"+margin", options.equivalence_margin, false},
                      {"+margin+replication", options.equivalence_margin, true}};
  for (const Set& set : sets) {
    VerdictRules rules;
    rules.alpha = options.alpha;
    rules.equivalence_margin = set.margin;
    rules.process_replication = set.replication;
    for (double e : effects) {
      ReplayRow row{set.name, e, 0, 0, 0};
      std::vector<double> credits;
      for (const auto& g : *grades) {
        const double c = credit(g, e, rules);
        if (!std::isfinite(c)) continue;
        credits.push_back(c);
        ++row.grades;
        row.right += e == 1 ? std::fabs(c - 1) <= 0.03 : e > 1 ? c > 1 : c < 1;
      }
      row.median_credit = median(credits);
      report.rows.push_back(row);
    }
  }
  return report;
}

std::string replay_table(const ReplayReport& report) {
  std::string out;
  char line[160];
  std::snprintf(line, sizeof line, "%-21s %7s %7s %11s %14s\n", "rules", "effect", "grades",
                "right side", "median credit");
  out += line;
  for (const ReplayRow& r : report.rows) {
    std::snprintf(line, sizeof line, "%-21s %7.3f %7d %10.0f%% %14.3f\n", r.rules.c_str(), r.effect,
                  r.grades, r.grades ? 100.0 * r.right / r.grades : 0.0, r.median_credit);
    out += line;
  }
  return out;
}

}  // namespace hpcab::cli
