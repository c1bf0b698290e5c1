// Why the judge refuses a request: one stable code per refusal, sent as the error body's `code`
// beside the human-readable `error` (docs/api.md "Error codes"). Clients and tests branch on the
// code, never on the message, so a message can be reworded freely while a code, once published,
// keeps its name and its HTTP status. Each code has exactly one status: callers pick a code,
// never a number.
#pragma once

namespace hpcab::judge {

enum class ErrorCode {
  // 400
  kBadHttp,            // bad_http: the HTTP framing itself is malformed
  kBadTarget,          // bad_target: the request target is not valid UTF-8 once decoded
  kBadJson,            // bad_json: the body is not a JSON object (syntax, UTF-8, nesting depth)
  kBadField,           // bad_field: a field has the wrong type or an invalid value
  kMissingRank,        // missing_rank: no `rank` (query or body) where one is required
  kBadRank,            // bad_rank: `rank` is not a non-negative integer
  kUnknownLanguage,    // unknown_language: not c, cpp, fortran, python, cuda or hip
  kBadResidency,       // bad_residency: not host/device, or device for a CPU language
  kBadPrecision,       // bad_precision: a precision the kernel does not have
  kUnknownPreset,      // unknown_preset: not one of the kernel's presets (S, M, L, XL)
  kPresetTooLarge,     // preset_too_large: the preset cannot be graded at this precision/memory
  kSourceCount,        // source_count: not exactly one of source, source_file, library
  kInputMode,          // input_mode: the judge's input mode refuses this kind of submission
  kNoSharedDir,        // no_shared_dir: source_file/library on a judge without --shared-dir
  kBadSharedFile,      // bad_shared_file: the named file is not inside the shared directory
  kNotForPython,       // not_for_python: a library or build tokens with language python
  kBadBuildToken,      // bad_build_token: a build token other than -I, -D, -l, -L
  kBadWorkspace,       // bad_workspace: workspace_bytes not a valid size in range
  kBadIdempotencyKey,  // bad_idempotency_key: the Idempotency-Key header is malformed
  kBadQuery,           // bad_query: an unknown or invalid query parameter (admin views)
  kBadSubmissionId,    // bad_submission_id: a submission id that is not a positive integer
  // 401, 403
  kUnauthorized,  // unauthorized: no valid bearer token
  kForbidden,     // forbidden: the token's role may not use the route
  // 404
  kUnknownKernel,      // unknown_kernel: no kernel of that name in the corpus
  kUnknownSubmission,  // unknown_submission: no submission with that id
  kNoRoute,            // no_route: no such route
  kRouteOff,           // route_off: the route exists but is turned off on this judge
  // 405, 409
  kMethodNotAllowed,     // method_not_allowed: a known route with the wrong method
  kIdempotencyConflict,  // idempotency_conflict: the key already names another request
  // 413, 421, 429, 431
  kBodyTooLarge,    // body_too_large: the request body is over max_body_bytes
  kSourceTooLarge,  // source_too_large: the source is over max_source_bytes
  kMisdirected,     // misdirected: the request names another judge's rank
  kQueueFull,       // queue_full: the grading queue is full (Retry-After)
  kRateLimited,     // rate_limited: a rate-limited route asked again too soon (Retry-After)
  kHeaderTooLarge,  // header_too_large: the request header is over the limit
  // 500, 503
  kJudgeFault,           // judge_fault: the judge itself failed; never the request's fault
  kProfilerUnavailable,  // profiler_unavailable: perf is missing or may not open events here
  kUnavailable,          // unavailable: at the connection limit (Retry-After)
};

// The wire name ("bad_json", ...): stable, snake_case, listed in docs/api.md.
const char* error_code_name(ErrorCode code);
// The HTTP status every refusal with `code` gets.
int error_code_status(ErrorCode code);

}  // namespace hpcab::judge
