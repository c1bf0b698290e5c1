// The harness's episode database (SPEC §6): one row per episode of an arm and
// one row per model request the metering proxy forwarded. SQLite in WAL mode with a migrations
// table (PRAGMA user_version), every value bound to a prepared statement, as judge/store/store.cc.
// docs/harness.md describes the tables as a researcher reads them.
//
// Episode life cycle: queued -> running (claim) -> finished | failed (finish / fail), or
// running -> queued again once (requeue_for_rerun: stopped by a limit, rerun with a larger one),
// or running -> infra_failed (infra_fail: the judge or the model server was unreachable, or the
// judge's machinery failed a grade), which claim() hands out again up to `max_infra_requeues`
// times per daemon run (resume() gives each run its requeues anew). A daemon that dies leaves
// `running` rows; resume() turns them into `interrupted`, which the queue hands out again before
// any `queued` row. Finished and failed rows are never handed out.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "harness/arm.h"
#include "harness/plan.h"

namespace hpcab::harness {

struct EpisodeRow {
  std::string id, arm, kernel;
  int repetition = 0;
  int64_t seq = 0;
  std::optional<int> worker;  // the last worker that claimed it
  int attempt = 0;            // claims so far (1 on the first run)
  std::string inference_url, judge_url;
  std::optional<int> rank;
  std::optional<double> started_at, ended_at;  // unix seconds (UTC) of the last attempt
  // queued|running|finished|interrupted|failed|infra_failed
  std::string status;
  std::string exit_reason;  // e.g. 'submitted', 'wall_budget', 'token_budget', 'crash', ...
  std::optional<int> exit_code;
  int64_t input_tokens = 0, cached_tokens = 0, output_tokens = 0;
  double weighted_tokens = 0;
  int64_t requests = 0;
  double budget_factor = 1.0;  // 1, or LIMIT_RERUN_FACTOR on the limit rerun
  int limit_reruns = 0;
  std::optional<int64_t> final_submission_id;
  std::string final_verdict;
  int infra_failures = 0;  // attempts the infrastructure ended, over every daemon run
  int infra_requeues = 0;  // infra_failed hand-outs by the current daemon run
  // Requests whose tokens the server reported, the proxy counted with the arm's tokenizer, or
  // the proxy estimated (docs/harness.md "Tokens without usage counts").
  int64_t reported_requests = 0, counted_requests = 0, estimated_requests = 0;
};

// Where an episode's token counts came from: "reported" (every request with tokens had the
// server's usage), "counted", "estimated", "mixed" (more than one of those), or "none" (no
// request had tokens).
std::string tokens_source(int64_t reported, int64_t counted, int64_t estimated);
inline std::string tokens_source(const EpisodeRow& r) {
  return tokens_source(r.reported_requests, r.counted_requests, r.estimated_requests);
}

// One forwarded model request (written by the metering proxy).
struct RequestUsage {
  double at = 0;  // unix seconds (UTC) the request was received
  std::string model;
  std::string route;  // e.g. /v1/chat/completions, /v1/messages
  int64_t input = 0, cached = 0, output = 0;
  double latency_ms = 0;
  int status = 200;  // HTTP status returned to the agent
  // none|reported|counted|estimated (RequestRecord::source, token_source_name).
  std::string tokens_source = "reported";
};

// One query of the search tool (table `searches`; harness/search.h).
struct SearchUsage {
  double at = 0;  // unix seconds (UTC) the query was received
  std::string query;
  int status = 200;                 // HTTP status returned to the agent
  std::string error_code;           // '' when answered (search_error_code)
  std::string results_json = "[]";  // what the agent got: [{title, url, snippet}]
  int kept = 0, dropped = 0;
  double latency_ms = 0;
};

// An arm's setup as the daemon ran it (table `arms`): what research outputs group and label by.
struct ArmRecord {
  std::string name, agent, model, language;
  std::string setup_json;  // every setting, see arm_setup_json()
  std::string arm_file, arm_text, prompt_text;
};

struct ExitInfo {
  std::string reason;
  int code = 0;
  std::optional<int64_t> final_submission_id;
  std::string final_verdict;  // '' when nothing was submitted
};

struct EpisodeCounts {
  int64_t queued = 0, interrupted = 0, running = 0, finished = 0, failed = 0, infra_failed = 0;
  int64_t input_tokens = 0, cached_tokens = 0, output_tokens = 0, requests = 0;
  int64_t counted_requests = 0, estimated_requests = 0;  // tokens not reported by the server
  double weighted_tokens = 0;
  int64_t waiting() const { return queued + interrupted; }
  int64_t total() const {
    return queued + interrupted + running + finished + failed + infra_failed;
  }
};

// "done 3 | running 2 | queued 5 | failed 0 | infra 0 | tokens 12345 (weighted 11000.5, 40
// requests)", with ", N counted" / ", N estimated" inside the parentheses when the proxy counted
// or estimated the tokens of N requests itself.
std::string status_line(const EpisodeCounts& c);

class EpisodeDb {
 public:
  // Opens (creating the file and its folder if needed), sets WAL and a busy timeout, and runs
  // the migrations.
  static Result<std::unique_ptr<EpisodeDb>> open(const std::string& path);
  ~EpisodeDb();
  EpisodeDb(const EpisodeDb&) = delete;
  EpisodeDb& operator=(const EpisodeDb&) = delete;

  int schema_version() const;

  // Records (or updates) the arm's setup; first_run_at is kept from the first call.
  Status record_arm(const ArmRecord& arm, double now);

  // Inserts the plan's episodes as `queued`; an id already present is left untouched (so a
  // restarted daemon re-enqueues its plan harmlessly). Returns how many rows were new.
  Result<int64_t> enqueue(const std::vector<EpisodeSpec>& plan);

  // Atomically takes the next episode of `arm` for `pin.worker`: interrupted rows first, then
  // queued, then infra_failed ones handed out fewer than `max_infra_requeues` times by this
  // daemon run, each in plan order. Sets running, attempt + 1, the pin's URLs and rank,
  // started_at; clears the previous attempt's end and exit. nullopt when nothing is waiting.
  // Only episodes of `shard` (seq % count == index) are taken.
  Result<std::optional<EpisodeRow>> claim(const std::string& arm, const Pin& pin, double now,
                                          const Shard& shard = {}, int max_infra_requeues = 0);

  // running -> finished / failed with the exit information. Error if the episode is not running.
  Status finish(const std::string& id, const ExitInfo& exit, double now);
  Status fail(const std::string& id, const ExitInfo& exit, double now);
  // running -> infra_failed: the attempt ended because of the infrastructure, not the agent
  // (exit_reason judge_unreachable, inference_unreachable or judge_fault). Its submission, if
  // any, is cleared: a grade would have made it finished.
  Status infra_fail(const std::string& id, const ExitInfo& exit, double now);

  // running -> queued with budget_factor = factor, once per episode (the limit rerun). Returns
  // false, changing nothing, when the episode has had its rerun already (the caller then
  // finishes it with the limit's exit code).
  Result<bool> requeue_for_rerun(const std::string& id, const ExitInfo& exit, double factor,
                                 double now);

  // Records a model request and adds its tokens to the episode's totals in one transaction.
  // Returns the episode's totals after the request (the proxy compares them with the budget).
  Result<EpisodeRow> add_request(const std::string& episode_id, const RequestUsage& r,
                                 const TokenWeights& weights);

  // After a daemon died: every `running` episode of `arm` becomes `interrupted` (exit_reason
  // 'daemon_died') and is handed out again by claim(). Also gives every infra_failed episode
  // its requeues anew (a daemon run starts). Returns how many were interrupted.
  Result<int64_t> resume(const std::string& arm, double now);

  // The episodes of `arm` (of `shard` only, when given): totals, and rows in plan order.
  Result<EpisodeCounts> counts(const std::string& arm, const Shard& shard = {});
  Result<std::optional<EpisodeRow>> get(const std::string& id);
  Result<std::vector<EpisodeRow>> list(const std::string& arm, const Shard& shard = {});
  Result<std::vector<RequestUsage>> requests(const std::string& episode_id);
  // Records one search query of the episode and counts it in episodes.searches.
  Status add_search(const std::string& episode_id, const SearchUsage& r);
  Result<std::vector<SearchUsage>> searches(const std::string& episode_id);

  void close();

 private:
  EpisodeDb() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hpcab::harness
