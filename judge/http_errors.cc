#include "judge/http_errors.h"

#include <algorithm>

namespace hpcab::judge {

using json = nlohmann::json;

namespace {

// Every error answer, typed or not, is assembled here.
HttpResponse build(int status, const std::string& message, const json& extra) {
  json body = json::object();
  if (extra.is_object()) body = extra;
  body["error"] = message;
  HttpResponse response;
  response.status = status;
  // `replace`: a message quoting client bytes (an invalid UTF-8 path, say) must not throw.
  response.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  response.content_type = "application/json";
  return response;
}

}  // namespace

int http_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kBadRequest:
      return 400;
    case ErrorKind::kUnauthorized:
      return 401;
    case ErrorKind::kForbidden:
      return 403;
    case ErrorKind::kNotFound:
      return 404;
    case ErrorKind::kMethodNotAllowed:
      return 405;
    case ErrorKind::kPayloadTooLarge:
      return 413;
    case ErrorKind::kConflict:
      return 409;
    case ErrorKind::kMisdirected:
      return 421;
    case ErrorKind::kQueueFull:
      return 429;
    case ErrorKind::kHeaderTooLarge:
      return 431;
    case ErrorKind::kJudgeFault:
      return 500;
    case ErrorKind::kUnavailable:
      return 503;
  }
  return 500;  // not reached: every kind is listed above
}

HttpResponse error_response(const ApiError& error) {
  HttpResponse response = build(http_status(error.kind), error.message, error.extra);
  if (error.kind == ErrorKind::kQueueFull || error.kind == ErrorKind::kUnavailable) {
    response.headers.emplace_back("Retry-After", std::to_string(std::max(1, error.retry_after_s)));
  }
  for (const auto& header : error.headers) response.headers.push_back(header);
  return response;
}

// Declared in judge/server.h: the untyped form the HTTP layer uses for its own errors (413,
// 431, 503, malformed HTTP, handler timeouts). Same body as the typed form.
HttpResponse error_response(int status, const std::string& message) {
  return build(status, message, nullptr);
}

ApiError judge_fault(const std::string& route, const std::string& kernel, const std::string& what) {
  return ApiError{ErrorKind::kJudgeFault,
                  "internal judge error: " + what,
                  {{"verdict", "judge_error"},
                   {"harness_fault", true},
                   {"route", route},
                   {"kernel", kernel},
                   {"detail", what}}};
}

ApiError bad_request(std::string message) {
  return ApiError{ErrorKind::kBadRequest, std::move(message)};
}

}  // namespace hpcab::judge
