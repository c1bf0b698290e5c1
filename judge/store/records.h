// The judge's records as the grade pipeline, the routes and the views see them, and the
// interface of the routes to the submissions (SubmissionStore). No SQLite here: judge/store/store.h
// is the database that keeps them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::judge {

// Timing samples of one side (the candidate or a named baseline) at one size configuration.
struct SampleSet {
  std::string config;  // configuration label, e.g. "public S" or "hidden#2"
  std::string side;    // "candidate" or the baseline name ("c", "c-autopar")
  std::vector<int64_t> ns;
};

// Statistics of one size configuration (SPEC §5.8).
struct ConfigResult {
  std::string config;      // label, as in SampleSet
  std::string sizes_json;  // {"N": 1000, ...}
  double candidate_median_ns = 0;
  double baseline_median_ns = 0;
  double ratio = 0;  // baseline median / candidate median
  double p_faster = 1, p_slower = 1;
  double credit = 1;
  bool suspect = false;
  // The slot watch (docs/grading.md "Slot watch"): null when the slot was not watched.
  std::optional<double> slot_wait = {}, slot_steal = {};
  int slot_retries = 0;
};

// A figure against a baseline that was not credited (report_baselines): unpaired.
struct ReportedSpeedup {
  std::string baseline;
  double baseline_median_ns = 0, candidate_median_ns = 0, speedup = 0;
};

struct SubmissionRecord {
  std::string route;  // "submit" (or "oracle", its alias)
  int rank = 0;
  std::string kernel, language, precision, preset;
  std::string sizes_json;    // the public configuration's sizes
  std::string source;        // full source text ("" for a library submission)
  std::string library_path;  // for library submissions
  std::string build_tokens_json = "[]";
  std::string build_log;     // capped by the judge before it gets here
  std::string content_hash;  // build cache key
  std::string verdict, detail;
  bool build_ok = false, correct = false, public_correct = false, hidden_correct = false;
  int hidden_passed = 0, hidden_total = 0;
  std::optional<double> speedup;  // null when unsolved
  std::string baseline;           // the credited baseline's name
  std::optional<double> native_ns, baseline_ns;
  std::optional<double> max_rel_error;
  bool suspect = false, timed_out = false;
  std::string machine;  // machine fingerprint
  std::string judge_version;
  std::string run_id, optimizer;
  std::optional<int64_t> tokens;
  std::optional<int64_t> workspace_bytes;
  double received_at = 0, finished_at = 0;  // unix seconds
  std::string response_json;                // exactly what the client got
  // The request's Idempotency-Key; unique per rank where given (judge/http/idempotency.h).
  std::optional<std::string> idempotency_key;
  // What the request named that the row otherwise keeps only resolved (its preset before the
  // default or the timed sizes replaced it, its workspace_bytes expression before evaluation):
  // request_json() of judge/grade/record.h. NULL for rows older than schema version 5.
  std::optional<std::string> request_json;
  std::vector<SampleSet> samples;
  std::vector<ConfigResult> configs;
  std::vector<ReportedSpeedup> reported;
};

struct ScoreCallRecord {
  int rank = 0;
  std::string kernel, language, precision, preset;
  std::string content_hash, verdict;
  std::optional<double> speedup;
  std::string run_id, optimizer;
  double received_at = 0, finished_at = 0;
  std::string response_json;
};

// A recorded submission found by its Idempotency-Key: what a repeat of the key is compared
// with (judge/http/idempotency.h) and the answer it is given.
struct KeyedSubmission {
  int64_t id = 0;
  int rank = 0;
  std::string kernel, language, precision, run_id;
  std::string source, library_path;
  std::string response_json;
  std::string build_tokens_json = "[]";
  std::optional<std::string> request_json;  // SubmissionRecord::request_json
};

// One row of the admin listing (GET /admin/submissions): what identifies and summarizes a
// submission, without its source, logs or samples.
struct SubmissionSummary {
  int64_t id = 0;
  std::string kernel, language, precision, preset, verdict;
  std::optional<double> speedup;
  bool suspect = false;
  bool library = false;  // a library submission (no source stored)
  std::string run_id, optimizer;
  double received_at = 0, finished_at = 0;
  std::string content_hash;
};

// One /score call as the results page's run history shows it (not an answer: no source, no id
// link).
struct ScoreCallSummary {
  int64_t id = 0;
  std::string kernel, verdict, run_id;
  std::optional<double> speedup;
  double received_at = 0;
};

// Filters of the admin listing; an unset field matches every row. Rows come newest first.
struct SubmissionFilter {
  std::optional<std::string> kernel, run_id, optimizer, verdict;
  int64_t limit = 100;  // the caller bounds it; the store only refuses negative values
  int64_t offset = 0;
};

struct SubmissionPage {
  int64_t total = 0;  // rows matching the filter, ignoring limit and offset
  std::vector<SubmissionSummary> rows;
};

// Cached baseline samples (SPEC §5.11), keyed by everything that can change them.
struct BaselineKey {
  std::string kernel, precision, sizes_json, baseline, machine;
  std::string reference_hash;  // hash of reference.c + flags + compiler version
};

struct BaselineSamples {
  std::vector<int64_t> ns;
  double measured_at = 0;
  std::string protocol;  // how they were taken, reported to /score clients
};

// Timed sizes chosen by time (judge/grade/sizes.h), per kernel, precision, baseline build,
// machine and target.
struct CalibrationKey {
  std::string kernel, precision, baseline, machine, reference_hash;
  double min_call_ms = 0;
};

struct StoredCalibration {
  std::string sizes_json;  // {"N": 1000000, ...}
  double baseline_ns = 0;
  bool reached = false;
  double measured_at = 0;
};

// What the HTTP routes and the views need of the database: the submissions, read back and
// completed. Store is the one implementation; route tests pass a fake, so request handling is
// tested without SQLite.
class SubmissionStore {
 public:
  virtual ~SubmissionStore() = default;
  // The submission `key` was recorded with on judge rank `rank`; nullopt when there is none.
  virtual Result<std::optional<KeyedSubmission>> find_by_idempotency_key(
      int rank, const std::string& key) = 0;
  // Replaces submission `id`'s response_json with the body its client was sent, which the
  // routes complete after the grade recorded the row (the row's id is in it). An Error when
  // there is no such submission.
  virtual Status replace_response(int64_t id, const std::string& response_json) = 0;
  // The stored record; nullopt when absent.
  virtual Result<std::optional<SubmissionRecord>> get_submission(int64_t id) = 0;
  // The matching submissions, newest first, and how many match in all (one snapshot).
  virtual Result<SubmissionPage> list_submissions(const SubmissionFilter& filter) = 0;
  // The /score calls of each of `run_ids`, oldest first, at most `per_run` of each (the first
  // ones: a run's history reads from its start). One snapshot.
  virtual Result<std::vector<ScoreCallSummary>> list_score_calls(
      const std::vector<std::string>& run_ids, int64_t per_run) = 0;
};

}  // namespace hpcab::judge
