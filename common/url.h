// The one parser of http(s) URLs: the HTTP client's targets, the judge URLs of an arm and of
// hpcab-tool, the metering proxy's upstream. What it refuses is refused everywhere, so a URL an
// arm file accepts is one the client can request.
#pragma once

#include <string>
#include <string_view>

#include "common/result.h"

namespace hpcab {

struct Url {
  bool tls = false;       // https
  std::string host;       // without brackets for IPv6
  std::string port;       // decimal, 1..65535; 80 or 443 when the URL names none
  std::string authority;  // host[:port] as written (IPv6 in brackets)
  std::string path;       // starting with '/' ("/" when the URL has none), without the query
  std::string query;      // after '?', without it; "" when none

  // "http[s]://" + authority: the URL's origin as written, for messages.
  std::string origin() const;
  // path + ("?" + query when there is one): what an HTTP request line names.
  std::string target() const;
};

// http[s]://host[:port][/path][?query]. Anything else (another scheme, user information, a
// fragment, spaces or control bytes, a port that is not 1..65535) is an Error naming the URL
// and why, rather than guessed at. The scheme is case-insensitive.
Result<Url> parse_url(const std::string& url);

// `s` as a query value or path segment: RFC 3986 unreserved characters (ASCII letters, digits,
// - . _ ~) stay, every other byte is %XX (upper-case hex).
std::string percent_encode(std::string_view s);

}  // namespace hpcab
