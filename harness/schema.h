// Names of the harness episode database's tables and of the columns that other components read
// (report/observations.cc), so a reader's dependence on the harness's schema is an #include,
// not a copy of SQL text. Header-only: the tables are made by harness/episode_db.cc's
// migrations; docs/harness.md describes every column. tests/harness/schema_test.cc checks that
// every name here exists in a freshly migrated file.
#pragma once

#include <string>

namespace hpcab::harness::schema {

namespace episodes {
inline constexpr const char* kTable = "episodes";
inline constexpr const char* kId = "id";
inline constexpr const char* kArm = "arm";
inline constexpr const char* kKernel = "kernel";
inline constexpr const char* kRepetition = "repetition";
inline constexpr const char* kSeq = "seq";
inline constexpr const char* kAttempt = "attempt";
inline constexpr const char* kRank = "rank";
inline constexpr const char* kStartedAt = "started_at";
inline constexpr const char* kEndedAt = "ended_at";
inline constexpr const char* kStatus = "status";
inline constexpr const char* kExitReason = "exit_reason";
inline constexpr const char* kExitCode = "exit_code";
inline constexpr const char* kInputTokens = "input_tokens";
inline constexpr const char* kCachedTokens = "cached_tokens";
inline constexpr const char* kOutputTokens = "output_tokens";
inline constexpr const char* kWeightedTokens = "weighted_tokens";
inline constexpr const char* kRequests = "requests";
// Added by migration 4 (older files lack them: every request's tokens were reported).
inline constexpr const char* kReportedRequests = "reported_requests";
inline constexpr const char* kCountedRequests = "counted_requests";
inline constexpr const char* kEstimatedRequests = "estimated_requests";
// Where an episode's tokens came from, from those counts: "reported" (every request with tokens
// had the server's usage), "counted", "estimated", "mixed" (more than one of those), "none"
// (no request had tokens). harness::tokens_source and the observations' tokens_source.
inline const char* tokens_source_of(long long reported, long long counted, long long estimated) {
  const int kinds = (reported > 0) + (counted > 0) + (estimated > 0);
  if (kinds > 1) return "mixed";
  if (counted > 0) return "counted";
  if (estimated > 0) return "estimated";
  return reported > 0 ? "reported" : "none";
}
// Added by migration 5: the episode's search-tool queries (answered or refused).
inline constexpr const char* kSearches = "searches";
inline constexpr const char* kFinalSubmissionId = "final_submission_id";
inline constexpr const char* kFinalVerdict = "final_verdict";
}  // namespace episodes

// The search tool's queries (harness/search.h), one row each.
namespace searches {
inline constexpr const char* kTable = "searches";
inline constexpr const char* kEpisodeId = "episode_id";
inline constexpr const char* kQuery = "query";
inline constexpr const char* kResultsJson = "results_json";
}  // namespace searches

namespace arms {
inline constexpr const char* kTable = "arms";
inline constexpr const char* kName = "name";
inline constexpr const char* kSetupJson = "setup_json";
}  // namespace arms

// experiment.json, written by `hpcab-harness experiment` (harness/experiment.h) and read by
// `hpcab report compare EXPERIMENT`: {"experiment": name, "control": ARM, "treatments": [ARM],
// "judge_dbs": [path]}, each ARM {"arm": name, "file": path, "state_db": path, and for
// treatments "vary": {"key": K, "value": V}}. Paths are absolute.
namespace experiment {
inline constexpr const char* kFileName = "experiment.json";
inline constexpr const char* kName = "experiment";
inline constexpr const char* kControl = "control";
inline constexpr const char* kTreatments = "treatments";
inline constexpr const char* kJudgeDbs = "judge_dbs";
inline constexpr const char* kArm = "arm";
inline constexpr const char* kFile = "file";
inline constexpr const char* kStateDb = "state_db";
inline constexpr const char* kVary = "vary";
inline constexpr const char* kKey = "key";
inline constexpr const char* kValue = "value";
}  // namespace experiment

// The episode a judge run id belongs to: the harness sends "<episode id>#<attempt>"
// (docs/harness.md); a run id without '#' is its own episode.
inline std::string episode_of_run_id(const std::string& run_id) {
  const auto hash = run_id.rfind('#');
  return hash == std::string::npos ? run_id : run_id.substr(0, hash);
}

}  // namespace hpcab::harness::schema
