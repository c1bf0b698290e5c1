// What a grade is asked to do, as parsed from a request body (judge/http/grade_request.h): the
// input of the grade pipeline. Below the grader, the stages and the stores, so each of them can
// name a request without reaching the orchestrator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hpcab::judge {

struct GradeRequest {
  std::string route = "score";  // "score" | "submit" | "oracle" (alias of submit)
  std::string kernel, language = "c", precision = "fp64";
  std::optional<std::string> source;        // source text (from "source" or "source_file")
  std::optional<std::string> library_path;  // a prebuilt .so on the judge host ("library")
  std::vector<std::string> build_tokens;
  std::optional<std::string> workspace_bytes;  // integer or size expression
  std::optional<std::string> preset;
  std::string run_id, optimizer;
  std::optional<int64_t> tokens;
  // Where the kernel's arrays live while it is timed (docs/grading.md "GPU languages"):
  // "host" (every language; a GPU submission moves data itself, inside the clock) or "device"
  // (cuda and hip only: the judge copies inputs to the device before the clock and outputs
  // back after it). parse_grade_body admits nothing else.
  std::string residency = "host";
  int rank = 0;
  double received_at = 0;
  // A /submit's Idempotency-Key (judge/http/idempotency.h): recorded with its submission, in the
  // same transaction, so a repeat of the key finds the grade instead of grading again.
  std::optional<std::string> idempotency_key;
};

}  // namespace hpcab::judge
