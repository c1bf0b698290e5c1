#include "report/regrade.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "report/csv.h"

namespace hpcab::report {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool positive(const std::optional<double>& v) { return v && std::isfinite(*v) && *v > 0; }

// The pair's rows summarised; the best-answer figures need an answer correct on both.
RegradePair summarise_pair(const std::string& kernel, const std::string& language,
                           const std::vector<const RegradeRow*>& rows) {
  RegradePair p;
  p.kernel = kernel;
  p.language = language;
  std::vector<double> a, b;
  const RegradeRow* best_a = nullptr;
  double best_b = 0;
  for (const RegradeRow* r : rows) {
    ++p.answers;
    if (r->status == "skipped") ++p.skipped;
    if (r->status == "failed") ++p.failed;
    if (r->status != "graded" || !r->correct_a()) continue;
    ++p.correct_a;
    if (!r->correct_b()) continue;
    ++p.still_correct;
    if (!positive(r->speedup_a) || !positive(r->speedup_b)) continue;
    ++p.both;
    a.push_back(*r->speedup_a);
    b.push_back(*r->speedup_b);
    if (!best_a || *r->speedup_a > *best_a->speedup_a) best_a = r;
    best_b = std::max(best_b, *r->speedup_b);
  }
  p.speedup_a = a.empty() ? kNaN : geometric_mean(a);
  p.speedup_b = b.empty() ? kNaN : geometric_mean(b);
  if (best_a) {
    p.best_fraction = *best_a->speedup_b / best_b;
    p.best_agrees = *best_a->speedup_b == best_b;
  }
  return p;
}

RegradeSummary summarise(const std::string& language, const std::vector<RegradePair>& pairs) {
  RegradeSummary s;
  s.language = language;
  std::vector<double> a, b;
  int agrees = 0, within = 0;
  for (const auto& p : pairs) {
    if (language != "all" && p.language != language) continue;
    ++s.pairs;
    s.answers += p.answers;
    s.skipped += p.skipped;
    s.failed += p.failed;
    s.correct_a += p.correct_a;
    s.still_correct += p.still_correct;
    if (p.both > 0) {
      a.push_back(p.speedup_a);
      b.push_back(p.speedup_b);
    }
    if (p.best_agrees) {
      ++s.best_pairs;
      agrees += *p.best_agrees ? 1 : 0;
      within += *p.best_fraction >= 0.9 ? 1 : 0;
    }
  }
  s.still_correct_share =
      s.correct_a > 0 ? static_cast<double>(s.still_correct) / s.correct_a : kNaN;
  s.spearman = spearman(a, b);
  s.best_agrees_share = s.best_pairs > 0 ? static_cast<double>(agrees) / s.best_pairs : kNaN;
  s.within_90_share = s.best_pairs > 0 ? static_cast<double>(within) / s.best_pairs : kNaN;
  return s;
}

std::string fixed(double v, int digits) {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string pct(double v) { return std::isfinite(v) ? fixed(100 * v, 0) + " %" : "-"; }

std::string opt_number(const std::optional<double>& v) {
  if (!v) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", *v);
  return buf;
}

std::string pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

}  // namespace

RegradeTable regrade_table(const std::vector<RegradeRow>& rows) {
  std::map<std::pair<std::string, std::string>, std::vector<const RegradeRow*>> by_pair;
  for (const auto& r : rows) by_pair[{r.language, r.kernel}].push_back(&r);
  RegradeTable t;
  std::vector<std::string> languages;
  for (const auto& [key, pair_rows] : by_pair) {
    t.pairs.push_back(summarise_pair(key.second, key.first, pair_rows));
    if (languages.empty() || languages.back() != key.first) languages.push_back(key.first);
  }
  for (const auto& l : languages) t.summaries.push_back(summarise(l, t.pairs));
  t.summaries.push_back(summarise("all", t.pairs));
  return t;
}

std::string format_regrade_table(const RegradeTable& t, const std::string& judge_a,
                                 const std::string& judge_b) {
  std::ostringstream out;
  out << "Regrade: answers graded on A (" << judge_a << ") resubmitted to B (" << judge_b
      << ")\n\n";
  out << pad("language", 10) << pad("pairs", 7) << pad("answers", 9) << pad("skipped", 9)
      << pad("failed", 8) << pad("still correct", 20) << pad("Spearman r_s (p, n)", 26)
      << pad("best on A = best on B", 23) << "A's best >= 90 % of B's best\n";
  for (const auto& s : t.summaries) {
    const std::string rs = s.spearman
                               ? fixed(s.spearman->r, 3) + " (" + fixed(s.spearman->p_value, 3) +
                                     ", " + std::to_string(s.spearman->n) + ")"
                               : "- (n < 3 or constant)";
    out << pad(s.language, 10) << pad(std::to_string(s.pairs), 7)
        << pad(std::to_string(s.answers), 9) << pad(std::to_string(s.skipped), 9)
        << pad(std::to_string(s.failed), 8)
        << pad(pct(s.still_correct_share) + " (" + std::to_string(s.still_correct) + "/" +
                   std::to_string(s.correct_a) + ")",
               20)
        << pad(rs, 26) << pad(pct(s.best_agrees_share) + " of " + std::to_string(s.best_pairs), 23)
        << pct(s.within_90_share) << "\n";
  }
  out << "\n"
      << pad("kernel", 28) << pad("language", 10) << pad("answers", 9) << pad("correct A->B", 14)
      << pad("speedup A", 11) << pad("speedup B", 11) << "A's best on B / B's best\n";
  for (const auto& p : t.pairs) {
    out << pad(p.kernel, 28) << pad(p.language, 10) << pad(std::to_string(p.answers), 9)
        << pad(std::to_string(p.still_correct) + "/" + std::to_string(p.correct_a), 14)
        << pad(fixed(p.speedup_a, 2) + "x", 11) << pad(fixed(p.speedup_b, 2) + "x", 11)
        << (p.best_fraction ? fixed(*p.best_fraction, 2) : "-") << "\n";
  }
  return out.str();
}

std::string regrade_csv(const std::vector<RegradeRow>& rows) {
  std::string out =
      csv_line({"submission_id", "episode", "kernel", "language", "which", "verdict_a", "speedup_a",
                "status", "skip_code", "reason", "verdict_b", "speedup_b", "submission_id_b"});
  for (const auto& r : rows) {
    out += csv_line({std::to_string(r.submission_id), r.episode, r.kernel, r.language, r.which,
                     r.verdict_a, opt_number(r.speedup_a), r.status, r.skip_code, r.reason,
                     r.verdict_b, opt_number(r.speedup_b), std::to_string(r.submission_id_b)});
  }
  return out;
}

Result<std::vector<RegradeRow>> read_regrade_csv(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot read (run hpcab regrade first)"};
  std::stringstream text;
  text << in.rdbuf();
  auto table = parse_csv_table(text.str(), path.string());
  if (!table) return table.error();
  const std::vector<std::string> names = {"submission_id",  "episode",   "kernel",    "language",
                                          "which",          "verdict_a", "speedup_a", "status",
                                          "skip_code",      "reason",    "verdict_b", "speedup_b",
                                          "submission_id_b"};
  std::vector<int> col;
  for (const auto& n : names) {
    col.push_back(table->column(n));
    if (col.back() < 0) return Error{path.string() + ": no column '" + n + "'"};
  }
  auto number = [](const std::string& s) -> std::optional<double> {
    if (s.empty()) return std::nullopt;
    return std::strtod(s.c_str(), nullptr);
  };
  std::vector<RegradeRow> rows;
  for (const auto& c : table->rows) {
    if (c.size() < names.size()) return Error{path.string() + ": a row has too few fields"};
    RegradeRow r;
    r.submission_id = std::atoll(c[col[0]].c_str());
    r.episode = c[col[1]];
    r.kernel = c[col[2]];
    r.language = c[col[3]];
    r.which = c[col[4]];
    r.verdict_a = c[col[5]];
    r.speedup_a = number(c[col[6]]);
    r.status = c[col[7]];
    r.skip_code = c[col[8]];
    r.reason = c[col[9]];
    r.verdict_b = c[col[10]];
    r.speedup_b = number(c[col[11]]);
    r.submission_id_b = std::atoll(c[col[12]].c_str());
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace hpcab::report
