// A small synchronous HTTP/1.1 client (Boost.Beast, OpenSSL for https) for tests, the demo
// client and the harness: one request per call, a fresh connection each time, with a timeout.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "common/result.h"

namespace hpcab {

struct HttpResult {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names
};

// Lets another thread abandon http_request calls in flight (an MCP client cancelling a long
// /score). cancel() is sticky and thread-safe; a request that sees it closes its socket at once
// (the server sees the connection close) and fails with an error. One token may cover several
// requests, and a request started after cancel() fails before connecting.
class CancelToken {
 public:
  CancelToken() = default;
  CancelToken(const CancelToken&) = delete;
  CancelToken& operator=(const CancelToken&) = delete;

  void cancel();
  bool cancelled() const;

  // Runs `on_cancel` once from cancel()'s thread (at once, on this thread, when already
  // cancelled). It must be quick and must not call back into the token. Returns an id for
  // unsubscribe(); after unsubscribe() returns, the callback is not running and never will.
  std::uint64_t subscribe(std::function<void()> on_cancel) const;
  void unsubscribe(std::uint64_t id) const;

 private:
  mutable std::mutex mu_;
  bool cancelled_ = false;
  mutable std::uint64_t next_id_ = 1;
  mutable std::map<std::uint64_t, std::function<void()>> callbacks_;
};

struct HttpOptions {
  // Sent as `Authorization: Bearer <token>` (a judge with token files requires it).
  std::string bearer_token;
  // https only: PEM file of the CA certificates to trust; empty: the system's trust store.
  // The server's certificate must chain to one of them and name the URL's host (DNS name or
  // IP address); there is no way to turn verification off.
  std::string ca_file;
  // Not owned; when set, cancel() on it abandons the request (see CancelToken). Must outlive
  // the call.
  const CancelToken* cancel = nullptr;
};

// `url` is http://host:port/path?query or https://... . Errors are transport failures
// (refused, timeout, bad URL, TLS handshake or certificate verification, options.cancel
// cancelled); any HTTP status, 4xx and 5xx included, is a result.
Result<HttpResult> http_request(const std::string& method, const std::string& url,
                                const std::string& body = "",
                                const std::map<std::string, std::string>& headers = {},
                                double timeout_s = 60, const HttpOptions& options = {});

// Reads a token file for HttpOptions::bearer_token: the first line that is neither blank nor a
// '#' comment, trimmed. The file holds a secret, so like the judge's token files it must not
// be readable by group or others.
Result<std::string> read_client_token_file(const std::string& path);

}  // namespace hpcab
