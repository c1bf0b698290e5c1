#include "judge/http/http_errors.h"

#include <algorithm>
#include <iterator>

namespace hpcab::judge {

using json = nlohmann::json;

namespace {

// Every error answer, typed or not, is assembled here.
HttpResponse build(ErrorCode code, const std::string& message, const json& extra) {
  json body = json::object();
  if (extra.is_object()) body = extra;
  body["code"] = error_code_name(code);
  body["error"] = message;
  HttpResponse response;
  response.status = error_code_status(code);
  // `replace`: a message quoting client bytes (an invalid UTF-8 path, say) must not throw.
  response.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  response.content_type = "application/json";
  return response;
}

}  // namespace

namespace {

struct CodeInfo {
  ErrorCode code;
  const char* name;
  int status;
};

// Every code, its wire name and its status: the one table docs/api.md "Error codes" lists.
constexpr CodeInfo kCodes[] = {
    {ErrorCode::kBadHttp, "bad_http", 400},
    {ErrorCode::kBadTarget, "bad_target", 400},
    {ErrorCode::kBadJson, "bad_json", 400},
    {ErrorCode::kBadField, "bad_field", 400},
    {ErrorCode::kMissingRank, "missing_rank", 400},
    {ErrorCode::kBadRank, "bad_rank", 400},
    {ErrorCode::kUnknownLanguage, "unknown_language", 400},
    {ErrorCode::kBadResidency, "bad_residency", 400},
    {ErrorCode::kBadPrecision, "bad_precision", 400},
    {ErrorCode::kUnknownPreset, "unknown_preset", 400},
    {ErrorCode::kPresetTooLarge, "preset_too_large", 400},
    {ErrorCode::kSourceCount, "source_count", 400},
    {ErrorCode::kInputMode, "input_mode", 400},
    {ErrorCode::kNoSharedDir, "no_shared_dir", 400},
    {ErrorCode::kBadSharedFile, "bad_shared_file", 400},
    {ErrorCode::kNotForPython, "not_for_python", 400},
    {ErrorCode::kBadBuildToken, "bad_build_token", 400},
    {ErrorCode::kBadWorkspace, "bad_workspace", 400},
    {ErrorCode::kBadIdempotencyKey, "bad_idempotency_key", 400},
    {ErrorCode::kBadQuery, "bad_query", 400},
    {ErrorCode::kBadSubmissionId, "bad_submission_id", 400},
    {ErrorCode::kUnauthorized, "unauthorized", 401},
    {ErrorCode::kForbidden, "forbidden", 403},
    {ErrorCode::kUnknownKernel, "unknown_kernel", 404},
    {ErrorCode::kUnknownSubmission, "unknown_submission", 404},
    {ErrorCode::kNoRoute, "no_route", 404},
    {ErrorCode::kRouteOff, "route_off", 404},
    {ErrorCode::kMethodNotAllowed, "method_not_allowed", 405},
    {ErrorCode::kIdempotencyConflict, "idempotency_conflict", 409},
    {ErrorCode::kBodyTooLarge, "body_too_large", 413},
    {ErrorCode::kSourceTooLarge, "source_too_large", 413},
    {ErrorCode::kMisdirected, "misdirected", 421},
    {ErrorCode::kQueueFull, "queue_full", 429},
    {ErrorCode::kRateLimited, "rate_limited", 429},
    {ErrorCode::kHeaderTooLarge, "header_too_large", 431},
    // 501, not 503: a host that cannot profile will not start to; clients wait out a 503.
    {ErrorCode::kProfilerUnavailable, "profiler_unavailable", 501},
    {ErrorCode::kJudgeFault, "judge_fault", 500},
    {ErrorCode::kUnavailable, "unavailable", 503},
};

const CodeInfo& info(ErrorCode code) {
  for (const auto& c : kCodes) {
    if (c.code == code) return c;
  }
  return kCodes[std::size(kCodes) - 2];  // not reached: every code is listed (a test checks)
}

}  // namespace

const char* error_code_name(ErrorCode code) { return info(code).name; }

int error_code_status(ErrorCode code) { return info(code).status; }

HttpResponse error_response(const ApiError& error) {
  HttpResponse response = build(error.code, error.message, error.extra);
  if (error.code == ErrorCode::kQueueFull || error.code == ErrorCode::kUnavailable) {
    response.headers.emplace_back("Retry-After", std::to_string(std::max(1, error.retry_after_s)));
  }
  for (const auto& header : error.headers) response.headers.push_back(header);
  return response;
}

// Declared in judge/http/server.h: the untyped form the HTTP layer uses for its own errors (413,
// 431, 503, malformed HTTP, handler timeouts). Same body as the typed form.
HttpResponse error_response(ErrorCode code, const std::string& message) {
  return build(code, message, nullptr);
}

ApiError judge_fault(const std::string& route, const std::string& kernel, const std::string& what) {
  return ApiError{ErrorCode::kJudgeFault,
                  "internal judge error: " + what,
                  {{"verdict", "judge_error"},
                   {"harness_fault", true},
                   {"route", route},
                   {"kernel", kernel},
                   {"detail", what}}};
}

ApiError bad_request(ErrorCode code, std::string message) {
  return ApiError{code, std::move(message)};
}

}  // namespace hpcab::judge
