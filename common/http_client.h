// A small synchronous HTTP/1.1 client (Boost.Beast) for tests, the demo client and the
// harness: one request per call, a fresh connection each time, with a timeout.
#pragma once

#include <map>
#include <string>

#include "common/result.h"

namespace hpcab {

struct HttpResult {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names
};

// `url` is http://host:port/path?query. Errors are transport failures (refused, timeout, bad
// URL); any HTTP status, 4xx and 5xx included, is a result.
Result<HttpResult> http_request(const std::string& method, const std::string& url,
                                const std::string& body = "",
                                const std::map<std::string, std::string>& headers = {},
                                double timeout_s = 60);

}  // namespace hpcab
