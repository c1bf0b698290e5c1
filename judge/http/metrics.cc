#include "judge/http/metrics.h"

#include <sstream>

namespace hpcab::judge {

void Metrics::request(const std::string& route, int status) {
  std::lock_guard<std::mutex> lock(mu_);
  ++requests_[{route, status}];
}

void Metrics::grade(const std::string& route, const std::string& verdict, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  ++grades_[{route, verdict}];
  grade_seconds_sum_ += seconds;
  ++grade_seconds_count_;
}

void Metrics::stages(const std::map<std::string, double>& seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [stage, s] : seconds) {
    auto& slot = stage_seconds_[stage];
    slot.first += s;
    ++slot.second;
  }
}

void Metrics::fault(const std::string& kind) {
  std::lock_guard<std::mutex> lock(mu_);
  ++faults_[kind];
}

std::string Metrics::render(std::size_t waiting, int running) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::ostringstream os;
  os << "# HELP hpcab_requests_total HTTP requests by route and status.\n"
     << "# TYPE hpcab_requests_total counter\n";
  for (const auto& [k, v] : requests_) {
    os << "hpcab_requests_total{route=\"" << k.first << "\",status=\"" << k.second << "\"} " << v
       << "\n";
  }
  os << "# HELP hpcab_grades_total Grades by route and verdict.\n"
     << "# TYPE hpcab_grades_total counter\n";
  for (const auto& [k, v] : grades_) {
    os << "hpcab_grades_total{route=\"" << k.first << "\",verdict=\"" << k.second << "\"} " << v
       << "\n";
  }
  os << "# HELP hpcab_judge_faults_total Faults of the judge's own machinery (kind=\"exception\": "
        "a grade or baseline job threw, answered 500; otherwise the resource of a judge_error "
        "grade: scratch, state, runner, sandbox, database, compiler, internal, slot).\n"
     << "# TYPE hpcab_judge_faults_total counter\n";
  for (const auto& [k, v] : faults_) {
    os << "hpcab_judge_faults_total{kind=\"" << k << "\"} " << v << "\n";
  }
  os << "# HELP hpcab_grade_seconds Wall time of whole grades (build, runs, compare, record).\n"
     << "# TYPE hpcab_grade_seconds summary\n"
     << "hpcab_grade_seconds_sum " << grade_seconds_sum_ << "\n"
     << "hpcab_grade_seconds_count " << grade_seconds_count_ << "\n"
     << "# HELP hpcab_stage_seconds Wall time per grade stage (build, inputs, candidate, "
        "baseline, oracle, compare, record).\n"
     << "# TYPE hpcab_stage_seconds summary\n";
  for (const auto& [stage, v] : stage_seconds_) {
    os << "hpcab_stage_seconds_sum{stage=\"" << stage << "\"} " << v.first << "\n"
       << "hpcab_stage_seconds_count{stage=\"" << stage << "\"} " << v.second << "\n";
  }
  os << "# HELP hpcab_queue_waiting Jobs waiting in the grading queue.\n"
     << "# TYPE hpcab_queue_waiting gauge\n"
     << "hpcab_queue_waiting " << waiting << "\n"
     << "# HELP hpcab_queue_running Jobs being graded now.\n"
     << "# TYPE hpcab_queue_running gauge\n"
     << "hpcab_queue_running " << running << "\n";
  return os.str();
}

}  // namespace hpcab::judge
