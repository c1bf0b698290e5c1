// Judge B over HTTP for `hpcab regrade` (cli/regrade.h).
#include <chrono>
#include <thread>

#include "cli/regrade.h"

namespace hpcab::cli {

namespace {

using json = nlohmann::json;

class HttpTarget : public RegradeTarget {
 public:
  HttpTarget(std::string url, HttpTargetOptions options)
      : url_(std::move(url)), options_(std::move(options)) {
    while (!url_.empty() && url_.back() == '/') url_.pop_back();
  }

  Result<TargetInfo> health() override {
    auto r = http_request("GET", url_ + "/health", "", {}, 30, options_.http);
    if (!r) return Error{"judge B at " + url_ + ": " + r.error().message};
    const json j = json::parse(r->body, nullptr, false);
    if (r->status != 200 || !j.is_object()) {
      return Error{"judge B at " + url_ + ": /health answered HTTP " + std::to_string(r->status)};
    }
    TargetInfo info;
    info.rank = j.value("rank", 0);
    info.machine = j.value("machine", "");
    // A judge older than platform reporting leaves arch empty: run_regrade then needs
    // --target-platform.
    if (j.contains("platform") && j["platform"].is_object()) {
      const json& p = j["platform"];
      info.platform.arch = p.value("arch", "");
      if (p.contains("isa_level") && p["isa_level"].is_string()) {
        info.platform.isa_level = p["isa_level"];
      }
      if (p.contains("gpu_vendors") && p["gpu_vendors"].is_array()) {
        for (const auto& v : p["gpu_vendors"]) {
          if (v.is_string()) info.platform.gpu_vendors.push_back(v);
        }
      }
    }
    return info;
  }

  TargetAnswer submit(const json& body, const std::string& key) override {
    TargetAnswer failed;
    double wait = options_.backoff_s;
    for (int attempt = 1; attempt <= options_.attempts; ++attempt) {
      if (attempt > 1) {
        pause(wait);
        wait *= 2;
      }
      auto r = http_request("POST", url_ + "/submit", body.dump(),
                            {{"Idempotency-Key", key}, {"Content-Type", "application/json"}},
                            options_.submit_timeout_s, options_.http);
      if (!r) {
        failed.reason = "transport: " + r.error().message;
        continue;
      }
      const json j = json::parse(r->body, nullptr, false);
      if (auto answer = graded(r->status, j)) return *answer;
      failed.reason = "HTTP " + std::to_string(r->status) +
                      (j.is_object() ? " " + j.value("code", j.value("verdict", "")) + ": " +
                                           j.value("error", j.value("detail", ""))
                                     : "");
      // Only a judge's own fault or overload is worth another attempt; a refusal is final.
      if (!retryable(r->status, j)) break;
    }
    return failed;
  }

 private:
  static bool judge_fault(const json& j) {
    return j.is_object() &&
           (j.value("harness_fault", false) || j.value("verdict", "") == "judge_error");
  }
  static bool retryable(int status, const json& j) {
    return status == 429 || status == 503 || status >= 500 || (status == 200 && judge_fault(j));
  }
  // A verdict on the answer; nullopt for a refusal or the judge's own fault.
  static std::optional<TargetAnswer> graded(int status, const json& j) {
    if (status != 200 || !j.is_object() || judge_fault(j) || !j.contains("verdict")) {
      return std::nullopt;
    }
    TargetAnswer a;
    a.graded = true;
    a.verdict = j.value("verdict", "");
    if (j.contains("speedup") && j["speedup"].is_number()) a.speedup = j["speedup"].get<double>();
    a.submission_id = j.value("submission_id", 0LL);
    a.reason = j.value("detail", "");
    return a;
  }
  void pause(double seconds) const {
    if (options_.sleep) return options_.sleep(seconds);
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  }

  std::string url_;
  HttpTargetOptions options_;
};

}  // namespace

std::unique_ptr<RegradeTarget> http_target(const std::string& judge_url,
                                           HttpTargetOptions options) {
  return std::make_unique<HttpTarget>(judge_url, std::move(options));
}

}  // namespace hpcab::cli
