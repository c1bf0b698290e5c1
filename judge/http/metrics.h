// The judge's Prometheus metrics (text format 0.0.4, GET /metrics; names in
// docs/operations.md#metrics). Thread-safe: I/O threads count requests, workers count grades.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace hpcab::judge {

class Metrics {
 public:
  // `route` must come from a fixed set (the routes' labels), never from client bytes.
  void request(const std::string& route, int status);
  void grade(const std::string& route, const std::string& verdict, double seconds);
  // Wall seconds per grade stage (build, inputs, candidate, baseline, oracle, compare, record).
  void stages(const std::map<std::string, double>& seconds);
  // A fault of the judge's own machinery; `kind` from a fixed set: "exception" (a grade or
  // baseline job threw and was answered 500 judge_error) or the resource a judge_error grade
  // names (scratch, state, runner, sandbox, database, compiler, internal).
  void fault(const std::string& kind);
  std::string render(std::size_t queue_waiting, int queue_running) const;

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int>, uint64_t> requests_;
  std::map<std::pair<std::string, std::string>, uint64_t> grades_;
  std::map<std::string, uint64_t> faults_;
  double grade_seconds_sum_ = 0;
  uint64_t grade_seconds_count_ = 0;
  std::map<std::string, std::pair<double, uint64_t>> stage_seconds_;
};

}  // namespace hpcab::judge
