// The judge's HTTP/1.1 server (Boost.Beast + Asio): a pool of I/O threads, per-connection limits,
// keep-alive, and graceful shutdown. Request handling is a plain function; it may answer later
// from another thread (grading takes seconds), so sessions never block an I/O thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "judge/config/server_limits.h"
#include "judge/http/error_code.h"

namespace hpcab::judge {

struct HttpRequest {
  std::string method;                          // "GET", "POST", ...
  std::string target;                          // path and query, as received: "/task/gemm?rank=0"
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::string remote;  // peer address "127.0.0.1:54321"
};

struct HttpResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers (Retry-After, ...)
};

// Must be called exactly once per request, from any thread.
using Responder = std::function<void(HttpResponse)>;
// Called on an I/O thread; must return quickly (hand long work to another thread).
using Handler = std::function<void(HttpRequest, Responder)>;

class Server {
 public:
  Server(ServerLimits limits, Handler handler);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens; port 0 picks a free port. Returns the bound port.
  Result<uint16_t> listen(const std::string& host, uint16_t port);
  // Every connection speaks TLS (1.2 or later) with this PEM certificate chain and key; plain
  // HTTP is refused. Before start(); an Error names the file that failed to load.
  Status enable_tls(const std::string& cert_file, const std::string& key_file);
  // Starts the I/O threads and returns.
  void start();
  // Stops accepting, lets in-flight requests finish (bounded by shutdown_grace_s), closes idle
  // connections and joins the I/O threads. Idempotent.
  void stop();
  int active_connections() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// {"code", "error": message} as a response with `code`'s status, for the HTTP layer's own errors
// (413, 431, 503, malformed HTTP, timeouts). Defined in judge/http/http_errors.cc next to the typed
// error_response(const ApiError&) that the routes use; both build the body the same way.
HttpResponse error_response(ErrorCode code, const std::string& message);

}  // namespace hpcab::judge
