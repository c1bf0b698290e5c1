// Stage: record. From the typed grade to what leaves the judge: the response JSON (SPEC §4
// fields plus the additions in docs/api.md) and the database row. A /submit is recorded as the
// candidate's answer unless the judge's own machinery failed: such a grade is logged as a call
// (so an operator sees it) but never becomes an answer, so it cannot count against a
// single-submission policy or appear in research outputs as the agent's result.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "judge/grade/effects.h"
#include "judge/grade/request.h"
#include "judge/grade/verdict.h"

namespace hpcab::judge {

// What the record stage needs of the request and the build besides the grade itself.
struct RecordContext {
  const GradeRequest* request = nullptr;
  std::string kernel, preset;
  SymbolTable sizes;  // the public preset's
  std::string content_hash, build_log;
  std::optional<int64_t> workspace_bytes;
  std::string machine;
  double received_at = 0;
  std::map<std::string, double> timings_s;
  std::vector<TimedConfig> timed;                   // their samples are recorded
  nlohmann::json rules = nlohmann::json::object();  // the credit rules that applied
  nlohmann::json calibration;                       // the timed sizes used, or null
  nlohmann::json baseline_choice;  // the fastest of several baselines: medians and the choice
  std::string oracle = "c";        // "c" (reference.c) or "numpy" (reference.py)
  // report_baselines (/submit): each other baseline's and the candidate's medians, timed
  // paired on the public configuration.
  std::map<std::string, ReportedFigure> other_baselines;
  nlohmann::json unavailable = nlohmann::json::object();  // baseline: why it was left out
};

// A reported baseline's figure: the credit of its paired configuration (the credited
// baseline's protocol and rules); nullopt when it was not timed.
std::optional<double> reported_speedup(const ReportedFigure& p);

// The response body (always a JSON object, for a 200).
nlohmann::json response_json(const GradeResult& g, const RecordContext& c);

// The /submit row.
// SubmissionRecord::request_json of `req`: {"preset": P or null, "workspace_bytes": E or null},
// the request's own values (judge/http/idempotency.cc compares them on a repeat of its key).
std::string request_json(const GradeRequest& req);

SubmissionRecord submission_record(const GradeResult& g, const RecordContext& c,
                                   const nlohmann::json& response, double finished_at);

// Records the grade and returns the response to send: with submission_id when recorded as an
// answer; turned into a judge_error when recording itself failed.
nlohmann::json record_grade(GradeStore& store, Clock& clock, const GradeResult& g,
                            RecordContext& c);

}  // namespace hpcab::judge
