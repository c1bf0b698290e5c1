// The judge's Prometheus metrics (text format 0.0.4, GET /metrics; names in
// docs/operations.md#metrics). Thread-safe: I/O threads count requests, workers count grades.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace hpcab::judge {

// A Prometheus histogram of seconds with fixed bucket bounds (kBounds, then +Inf): fixed so that
// every judge's series aggregate (sum by (le)) and histogram_quantile sees the same buckets.
struct SecondsHistogram {
  static constexpr std::array<double, 11> kBounds = {0.1, 0.25, 0.5, 1,   2.5, 5,
                                                     10,  30,   60,  120, 300};
  void observe(double seconds);
  // Observations in each bucket alone (not cumulative); those over the last bound are only in
  // `count`.
  std::array<uint64_t, kBounds.size()> in_bucket{};
  double sum = 0;
  uint64_t count = 0;
};

// The gauges read at render time from the queue, the configuration and the slot pools.
struct MetricsGauges {
  std::size_t queue_waiting = 0;
  int queue_running = 0;
  int queue_capacity = 0;  // the queue_depth setting: a grade waiting beyond it is a 429
  int grade_workers = 0;   // the grade_workers setting: jobs run at once
  std::size_t slots_busy = 0;
  std::size_t slots_total = 0;
};

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
  std::string render(const MetricsGauges& gauges) const;

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int>, uint64_t> requests_;
  std::map<std::pair<std::string, std::string>, uint64_t> grades_;
  std::map<std::string, uint64_t> faults_;
  SecondsHistogram grade_seconds_;
  std::map<std::string, SecondsHistogram> stage_seconds_;
};

}  // namespace hpcab::judge
