// Waiting out an outage of a judge or an inference server (docs/harness.md
// "Outages"). A URL that is unreachable or answers "not now" (429, 502, 503, 504) is retried with
// bounded exponential backoff for at most OutagePolicy::wait_s from the first failure; only then
// does the caller fail, and the episode ends as an infrastructure failure rather than an agent's.
//
// Used by the agent tools' judge client (every judge call), the daemon's own /task, the metering
// proxy (model requests) and the daemon's HealthMonitor (which URLs are down, since when, for the
// progress line and to confirm what the tools report).
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/http_client.h"
#include "common/result.h"

namespace hpcab::harness {

// How long and how hard to wait. Every field is a setting (arm keys OUTAGE_WAIT_S and
// OUTAGE_BACKOFF_MAX_S, tool variables HPCAB_OUTAGE_WAIT_S and HPCAB_OUTAGE_BACKOFF_MAX_S).
struct OutagePolicy {
  // Give up once an outage has lasted this long (seconds from the first failed try). The default
  // covers a judge restart and a Slurm requeue of a judge node; 0: fail at the first failure.
  double wait_s = 600;
  double backoff_initial_s = 0.5;  // the first pause after a failure; doubled after each
  double backoff_max_s = 15;       // the longest pause between two tries
  double probe_timeout_s = 5;      // one health probe (GET /health)
  double report_interval_s = 10;   // progress lines while waiting
};

// 429 (a full grading queue, a rate limit), 502, 503 and 504 (a server or gateway that is not
// serving now): answers that mean "try again later", not "no".
bool transient_status(int status);

// The Retry-After of an answer in seconds (delta-seconds form only), or 0.
double retry_after_s(const HttpResult& r);

// The pauses between tries: backoff_initial_s, doubling, capped at backoff_max_s; a Retry-After
// raises one pause (still capped).
class Backoff {
 public:
  explicit Backoff(const OutagePolicy& p) : p_(p), next_(p.backoff_initial_s) {}
  double next(double at_least_s = 0);

 private:
  OutagePolicy p_;
  double next_;
};

// Sleeps `seconds` in short slices; returns false early when `cancel` is cancelled or `stop`
// returns true (either may be null/empty).
bool pause(double seconds, const CancelToken* cancel, const std::function<bool()>& stop = {});

// Unix seconds now, and "2026-01-05 12:00:03 UTC" for a progress line.
double unix_now();
std::string utc_text(double unix_seconds);

// Down intervals of one URL (unix seconds), as the monitor and the proxy keep them: the last
// `kept` intervals, the newest open while the outage lasts.
class DownIntervals {
 public:
  void down(double at);                 // a failure at `at`: opens an interval unless one is open
  void up(double at);                   // an answer at `at`: closes the open interval
  std::optional<double> since() const;  // the open interval's start
  bool overlaps(double from, double to) const;
  double seconds(double from, double to) const;  // of [from, to] spent down

 private:
  static constexpr std::size_t kKept = 256;
  struct Interval {
    double from = 0, to = 0;  // to == 0: still open
  };
  std::vector<Interval> v_;
};

// One report of a call waiting out an outage.
struct OutageEvent {
  enum class Kind { kWaiting, kRecovered, kGaveUp };
  Kind kind = Kind::kWaiting;
  std::string url;   // the base URL that is down (a judge, an inference server)
  std::string what;  // the request, e.g. "POST /submit"
  double since = 0;  // unix seconds of the first failure
  double waited_s = 0;
  double limit_s = 0;  // OutagePolicy::wait_s
  std::string error;   // the last failure: "connect: Connection refused", "HTTP 503: ..."
};
using OutageObserver = std::function<void(const OutageEvent&)>;

// "judge http://h:1 unreachable since 2026-01-05 12:00:03 UTC (12 s): POST /submit: connect:
// Connection refused; retrying for up to 588 s more" and the recovered / gave-up forms.
std::string outage_line(const std::string& role, const OutageEvent& e);

// Probes GET <url>/health of each URL every `interval_s` on its own thread and remembers when each
// went down (a transport failure or a status other than 200) and came back. The daemon prints
// what is down on its progress line, and accepts a tool's "the judge stayed unreachable" only
// when it saw that judge down during the attempt.
class HealthMonitor {
 public:
  // true: healthy. Empty: GET <url>/health with OutagePolicy's probe timeout, 200 is healthy.
  using Probe = std::function<bool(const std::string& url)>;
  HealthMonitor(std::vector<std::string> urls, double interval_s, Probe probe = {});
  ~HealthMonitor();
  HealthMonitor(const HealthMonitor&) = delete;
  HealthMonitor& operator=(const HealthMonitor&) = delete;

  void start();
  void stop();  // idempotent; joins the thread

  struct Down {
    std::string url;
    double since = 0;  // unix seconds of the first failed probe of this outage
  };
  std::vector<Down> down_now() const;
  // Whether `url` was seen down at some moment of [from, to] (unix seconds).
  bool was_down(const std::string& url, double from, double to) const;
  // How many seconds of [from, to] `url` was seen down.
  double down_seconds(const std::string& url, double from, double to) const;

 private:
  void loop();
  void probe_all();

  std::vector<std::string> urls_;
  double interval_s_;
  Probe probe_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::map<std::string, DownIntervals> down_;
  std::thread thread_;
};

}  // namespace hpcab::harness
