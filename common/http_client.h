// A small synchronous HTTP/1.1 client (Boost.Beast, OpenSSL for https) for tests, the demo
// client and the harness: one request per call, a fresh connection each time, with a timeout.
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

struct HttpOptions {
  // Sent as `Authorization: Bearer <token>` (a judge with token files requires it).
  std::string bearer_token;
  // https only: PEM file of the CA certificates to trust; empty: the system's trust store.
  // The server's certificate must chain to one of them and name the URL's host (DNS name or
  // IP address); there is no way to turn verification off.
  std::string ca_file;
};

// `url` is http://host:port/path?query or https://... . Errors are transport failures
// (refused, timeout, bad URL, TLS handshake or certificate verification); any HTTP status,
// 4xx and 5xx included, is a result.
Result<HttpResult> http_request(const std::string& method, const std::string& url,
                                const std::string& body = "",
                                const std::map<std::string, std::string>& headers = {},
                                double timeout_s = 60, const HttpOptions& options = {});

// Reads a token file for HttpOptions::bearer_token: the first line that is neither blank nor a
// '#' comment, trimmed. The file holds a secret, so like the judge's token files it must not
// be readable by group or others.
Result<std::string> read_client_token_file(const std::string& path);

}  // namespace hpcab
