// The one place a non-200 answer is built. Handlers and checks return an ApiError (a code, a
// message a human can act on, extra body fields, extra headers); error_response() turns it into
// an HttpResponse whose status follows from the code alone (judge/http/error_code.h), whose body
// is a JSON object with `code` and an `error` string (plus `extra`), and which carries
// Retry-After for 429 and 503. Nothing outside this file sets a non-200 status or writes an
// error body.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "judge/http/error_code.h"
#include "judge/http/server.h"

namespace hpcab::judge {

struct ApiError {
  using Headers = std::vector<std::pair<std::string, std::string>>;
  ApiError(ErrorCode code, std::string message, nlohmann::json extra = nullptr,
           int retry_after_s = 0, Headers headers = {})
      : code(code),
        message(std::move(message)),
        extra(std::move(extra)),
        retry_after_s(retry_after_s),
        headers(std::move(headers)) {}

  ErrorCode code;       // the body's `code`; the status follows from it
  std::string message;  // the body's `error`
  // More body fields next to `error` (421: rank, requested_rank; a judge fault: verdict,
  // harness_fault, ...). Must be null or an object; `error` and `code` keys in it are ignored.
  nlohmann::json extra;
  // Seconds for Retry-After. kQueueFull and kUnavailable always send the header (at least 1 s);
  // other codes never do.
  int retry_after_s;
  Headers headers;  // e.g. WWW-Authenticate
};

// The HttpResponse for `error` (see the file comment). Never throws on message text: invalid
// UTF-8 in a message or an extra field (client bytes quoted back) is replaced, not fatal.
HttpResponse error_response(const ApiError& error);

// A 400 refusal of a request's content (`code` must be one of the 400 codes).
ApiError bad_request(ErrorCode code, std::string message);

// The 500 of a grade or baseline job that threw (docs/api.md "Status codes"): `error` says
// what failed, with verdict judge_error and harness_fault true like a judge_error grade, plus
// `route` and `kernel` so the client can tell which request it answers.
ApiError judge_fault(const std::string& route, const std::string& kernel, const std::string& what);

// A value of a check or a view, or the ApiError to answer instead.
template <typename T>
class [[nodiscard]] ApiResult {
 public:
  ApiResult(T value) : v_(std::move(value)) {}         // NOLINT: implicit by design
  ApiResult(ApiError error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& operator*() { return *std::get_if<0>(&v_); }
  const T& operator*() const { return *std::get_if<0>(&v_); }
  T* operator->() { return std::get_if<0>(&v_); }
  const T* operator->() const { return std::get_if<0>(&v_); }
  // Only when !ok().
  const ApiError& error() const { return *std::get_if<1>(&v_); }

 private:
  std::variant<T, ApiError> v_;
};

}  // namespace hpcab::judge
