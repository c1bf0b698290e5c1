#include "harness/outage.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace hpcab::harness {

bool transient_status(int status) {
  return status == 429 || status == 502 || status == 503 || status == 504;
}

double retry_after_s(const HttpResult& r) {
  auto it = r.headers.find("retry-after");
  if (it == r.headers.end()) return 0;
  const std::string& v = it->second;
  if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) {
    return 0;  // an HTTP date, or nonsense: the backoff alone decides
  }
  return std::stod(v);
}

double Backoff::next(double at_least_s) {
  const double cap = std::max(0.0, p_.backoff_max_s);
  const double pause = std::min(cap, std::max(next_, at_least_s));
  next_ = std::min(cap, std::max(next_ * 2, p_.backoff_initial_s));
  return pause;
}

bool pause(double seconds, const CancelToken* cancel, const std::function<bool()>& stop) {
  using Clock = std::chrono::steady_clock;
  const auto until =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(std::max(0.0, std::min(seconds, 1e6))));
  for (;;) {
    if (cancel && cancel->cancelled()) return false;
    if (stop && stop()) return false;
    const auto now = Clock::now();
    if (now >= until) return true;
    std::this_thread::sleep_for(
        std::min<Clock::duration>(until - now, std::chrono::milliseconds(50)));
  }
}

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string utc_text(double unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(std::floor(unix_seconds));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

std::string outage_line(const std::string& role, const OutageEvent& e) {
  char waited[32];
  std::snprintf(waited, sizeof waited, "%.0f s", e.waited_s);
  const std::string head = role + " " + e.url;
  switch (e.kind) {
    case OutageEvent::Kind::kRecovered:
      return head + " answers again after " + waited + " (down since " + utc_text(e.since) + "); " +
             e.what + " is sent again";
    case OutageEvent::Kind::kGaveUp:
      return head + " still unreachable after " + waited + " (down since " + utc_text(e.since) +
             ", outage wait " + std::to_string(static_cast<long long>(e.limit_s)) +
             " s): giving up on " + e.what + ": " + e.error;
    case OutageEvent::Kind::kWaiting:
      break;
  }
  char left[32];
  std::snprintf(left, sizeof left, "%.0f s", std::max(0.0, e.limit_s - e.waited_s));
  return head + " unreachable since " + utc_text(e.since) + " (" + waited + "): " + e.what + ": " +
         e.error + "; retrying for up to " + left + " more";
}

void DownIntervals::down(double at) {
  if (!v_.empty() && v_.back().to == 0) return;
  if (v_.size() >= kKept) v_.erase(v_.begin());
  v_.push_back({at, 0});
}

void DownIntervals::up(double at) {
  if (!v_.empty() && v_.back().to == 0) v_.back().to = std::max(at, v_.back().from);
}

std::optional<double> DownIntervals::since() const {
  if (!v_.empty() && v_.back().to == 0) return v_.back().from;
  return std::nullopt;
}

bool DownIntervals::overlaps(double from, double to) const {
  for (const auto& i : v_) {
    const double end = i.to == 0 ? to : i.to;
    if (i.from <= to && end >= from) return true;
  }
  return false;
}

double DownIntervals::seconds(double from, double to) const {
  double total = 0;
  for (const auto& i : v_) {
    const double end = i.to == 0 ? to : i.to;
    total += std::max(0.0, std::min(end, to) - std::max(i.from, from));
  }
  return total;
}

HealthMonitor::HealthMonitor(std::vector<std::string> urls, double interval_s, Probe probe)
    : urls_(std::move(urls)), interval_s_(std::max(0.05, interval_s)), probe_(std::move(probe)) {
  std::sort(urls_.begin(), urls_.end());
  urls_.erase(std::unique(urls_.begin(), urls_.end()), urls_.end());
  if (!probe_) {
    const double timeout = std::max(0.5, std::min(OutagePolicy{}.probe_timeout_s, interval_s_ * 4));
    probe_ = [timeout](const std::string& url) {
      std::string base = url;
      while (!base.empty() && base.back() == '/') base.pop_back();
      auto r = http_request("GET", base + "/health", "", {}, timeout, HttpOptions{});
      return r && r->status == 200;
    };
  }
}

HealthMonitor::~HealthMonitor() { stop(); }

void HealthMonitor::start() {
  if (thread_.joinable() || urls_.empty()) return;
  thread_ = std::thread([this] { loop(); });
}

void HealthMonitor::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void HealthMonitor::loop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    lock.unlock();
    probe_all();
    lock.lock();
    cv_.wait_for(lock, std::chrono::duration<double>(interval_s_), [this] { return stopping_; });
  }
}

void HealthMonitor::probe_all() {
  for (const auto& url : urls_) {
    const bool healthy = probe_(url);
    const double now = unix_now();
    std::lock_guard lock(mu_);
    if (healthy) {
      down_[url].up(now);
    } else {
      down_[url].down(now);
    }
  }
}

std::vector<HealthMonitor::Down> HealthMonitor::down_now() const {
  std::lock_guard lock(mu_);
  std::vector<Down> out;
  for (const auto& [url, intervals] : down_) {
    if (auto since = intervals.since()) out.push_back({url, *since});
  }
  return out;
}

bool HealthMonitor::was_down(const std::string& url, double from, double to) const {
  std::lock_guard lock(mu_);
  auto it = down_.find(url);
  return it != down_.end() && it->second.overlaps(from, to);
}

double HealthMonitor::down_seconds(const std::string& url, double from, double to) const {
  std::lock_guard lock(mu_);
  auto it = down_.find(url);
  return it == down_.end() ? 0 : it->second.seconds(from, to);
}

}  // namespace hpcab::harness
