// Names of the judge database's tables and of the columns that other components read
// (report/observations.cc, cli/replay.cc), so a reader's dependence on the judge's schema is an
// #include, not a copy of SQL text. Header-only: the tables themselves are made by
// judge/store/store.cc's migrations (and merge_* by cli/merge.cc); docs/database.md describes every
// column. tests/judge/schema_test.cc checks that every name here exists in a freshly migrated file.
#pragma once

namespace hpcab::judge::schema {

namespace submissions {
inline constexpr const char* kTable = "submissions";
inline constexpr const char* kId = "id";
inline constexpr const char* kRank = "rank";
inline constexpr const char* kKernel = "kernel";
inline constexpr const char* kVerdict = "verdict";
inline constexpr const char* kRunId = "run_id";
inline constexpr const char* kSpeedup = "speedup";
inline constexpr const char* kSuspect = "suspect";
inline constexpr const char* kFinishedAt = "finished_at";
// The request's Idempotency-Key (migration 3); NULL when it had none.
inline constexpr const char* kIdempotencyKey = "idempotency_key";
inline constexpr const char* kOptimizer = "optimizer";
inline constexpr const char* kResponseJson = "response_json";  // exactly what the client got
// What `hpcab regrade` (cli/regrade.cc) resubmits to another judge.
inline constexpr const char* kRoute = "route";  // 'submit' or its alias 'oracle'
inline constexpr const char* kLanguage = "language";
inline constexpr const char* kPrecision = "precision";
inline constexpr const char* kPreset = "preset";  // as the grade resolved it
inline constexpr const char* kSource = "source";  // '' for a library submission
inline constexpr const char* kBuildTokensJson = "build_tokens_json";
inline constexpr const char* kWorkspaceBytes = "workspace_bytes";  // as resolved; NULL: none
inline constexpr const char* kMachine = "machine";                 // the machine fingerprint
// {"preset", "workspace_bytes"} as the request named them (migration 5); NULL before it.
inline constexpr const char* kRequestJson = "request_json";
}  // namespace submissions

// Timed calls, one row each (read by cli/replay.cc).
namespace samples {
inline constexpr const char* kTable = "samples";
inline constexpr const char* kSubmissionId = "submission_id";
inline constexpr const char* kSetIndex = "set_index";  // position of the (config, side) set
inline constexpr const char* kConfig = "config";       // configuration label
inline constexpr const char* kSide = "side";           // "candidate" or the baseline's name
inline constexpr const char* kCallIndex = "call_index";
inline constexpr const char* kNs = "ns";
}  // namespace samples

namespace score_calls {
inline constexpr const char* kTable = "score_calls";
inline constexpr const char* kRunId = "run_id";
inline constexpr const char* kVerdict = "verdict";
inline constexpr const char* kSpeedup = "speedup";  // NULL when unsolved
inline constexpr const char* kFinishedAt = "finished_at";
}  // namespace score_calls

// Present only in a merged file (`hpcab db merge`, cli/merge.h).
namespace merged_submissions {
inline constexpr const char* kTable = "merged_submissions";
inline constexpr const char* kId = "id";  // the submission's id in the merged file
inline constexpr const char* kShardSubmissionId = "shard_submission_id";
}  // namespace merged_submissions

}  // namespace hpcab::judge::schema
