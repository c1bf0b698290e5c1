#include "judge/http/metrics.h"

#include <charconv>
#include <sstream>

namespace hpcab::judge {

namespace {

// The shortest text that reads back as `v` ("0.25", "300", "1.5e-05"): what Prometheus parses.
std::string number(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : "NaN";
}

// A label value as the text format wants it: backslash, double quote and newline escaped.
// The values come from fixed sets, so this only guards the format against a future mistake.
std::string escaped(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c == '\n' ? std::string("\\n") : std::string(1, c);
  }
  return out;
}

void family(std::ostream& os, const char* name, const char* type, const char* help) {
  os << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
}

// One histogram's series: cumulative `_bucket{...,le="..."}` lines ending with le="+Inf" (equal
// to `_count`), then `_sum` and `_count`. `labels` is "" or the series' own labels without
// braces (`stage="build"`).
void histogram_series(std::ostream& os, const std::string& name, const std::string& labels,
                      const SecondsHistogram& h) {
  const std::string prefix = labels.empty() ? "" : labels + ",";
  uint64_t cumulative = 0;
  for (std::size_t i = 0; i < SecondsHistogram::kBounds.size(); ++i) {
    cumulative += h.in_bucket[i];
    os << name << "_bucket{" << prefix << "le=\"" << number(SecondsHistogram::kBounds[i]) << "\"} "
       << cumulative << "\n";
  }
  os << name << "_bucket{" << prefix << "le=\"+Inf\"} " << h.count << "\n";
  const std::string braced = labels.empty() ? "" : "{" + labels + "}";
  os << name << "_sum" << braced << " " << number(h.sum) << "\n"
     << name << "_count" << braced << " " << h.count << "\n";
}

void gauge(std::ostream& os, const char* name, const char* help, double value) {
  family(os, name, "gauge", help);
  os << name << " " << number(value) << "\n";
}

}  // namespace

void SecondsHistogram::observe(double seconds) {
  for (std::size_t i = 0; i < kBounds.size(); ++i) {
    if (seconds <= kBounds[i]) {
      ++in_bucket[i];
      break;
    }
  }
  sum += seconds;
  ++count;
}

void Metrics::request(const std::string& route, int status) {
  std::lock_guard<std::mutex> lock(mu_);
  ++requests_[{route, status}];
}

void Metrics::grade(const std::string& route, const std::string& verdict, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  ++grades_[{route, verdict}];
  grade_seconds_.observe(seconds);
}

void Metrics::stages(const std::map<std::string, double>& seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [stage, s] : seconds) stage_seconds_[stage].observe(s);
}

void Metrics::fault(const std::string& kind) {
  std::lock_guard<std::mutex> lock(mu_);
  ++faults_[kind];
}

std::string Metrics::render(const MetricsGauges& g) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::ostringstream os;
  family(os, "hpcab_requests_total", "counter", "HTTP requests by route and status.");
  for (const auto& [k, v] : requests_) {
    os << "hpcab_requests_total{route=\"" << escaped(k.first) << "\",status=\"" << k.second
       << "\"} " << v << "\n";
  }
  family(os, "hpcab_grades_total", "counter", "Grades by route and verdict.");
  for (const auto& [k, v] : grades_) {
    os << "hpcab_grades_total{route=\"" << escaped(k.first) << "\",verdict=\"" << escaped(k.second)
       << "\"} " << v << "\n";
  }
  family(os, "hpcab_judge_faults_total", "counter",
         "Faults of the judge's own machinery (kind=\"exception\": a grade or baseline job "
         "threw, answered 500; otherwise the resource of a judge_error grade: scratch, state, "
         "runner, sandbox, database, compiler, internal, slot).");
  for (const auto& [k, v] : faults_) {
    os << "hpcab_judge_faults_total{kind=\"" << escaped(k) << "\"} " << v << "\n";
  }
  family(os, "hpcab_grade_seconds", "histogram",
         "Wall time of whole grades (build, runs, compare, record).");
  histogram_series(os, "hpcab_grade_seconds", "", grade_seconds_);
  family(os, "hpcab_stage_seconds", "histogram",
         "Wall time per grade stage (build, start runners, inputs, candidate, baseline, oracle, "
         "compare, record).");
  for (const auto& [stage, h] : stage_seconds_) {
    histogram_series(os, "hpcab_stage_seconds", "stage=\"" + escaped(stage) + "\"", h);
  }
  gauge(os, "hpcab_queue_waiting", "Jobs waiting in the grading queue.",
        static_cast<double>(g.queue_waiting));
  gauge(os, "hpcab_queue_running", "Jobs being graded now.", g.queue_running);
  gauge(os, "hpcab_queue_capacity",
        "Jobs the grading queue holds waiting (queue_depth); a grade beyond them is a 429.",
        g.queue_capacity);
  gauge(os, "hpcab_grade_workers", "Jobs the judge runs at once (grade_workers).", g.grade_workers);
  gauge(os, "hpcab_slots", "CPU slots timed work is pinned to (slots).",
        static_cast<double>(g.slots_total));
  gauge(os, "hpcab_slots_busy", "CPU slots leased by a grade's timed runs now.",
        static_cast<double>(g.slots_busy));
  return os.str();
}

}  // namespace hpcab::judge
