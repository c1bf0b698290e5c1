// The HTTP server's limits, on their own so that the judge's settings (judge/config/config.h) name
// them without reaching the server itself: the grade pipeline, which reads the settings, never
// depends on the HTTP layer.
#pragma once

#include <cstddef>

namespace hpcab::judge {

struct ServerLimits {
  std::size_t max_body_bytes = 1 << 20;     // larger bodies: 413 with a JSON error body
  std::size_t max_header_bytes = 16 << 10;  // larger headers: 431
  double read_timeout_s = 30;               // whole request (slow-loris bound)
  double write_timeout_s = 30;
  double keepalive_idle_s = 60;      // idle keep-alive connections are closed after this
  double response_timeout_s = 1800;  // a handler that never answers: 500 after this
  int max_connections = 256;         // beyond: 503 and close; beyond twice this: closed unanswered
  int io_threads = 2;
  double shutdown_grace_s = 60;  // stop(): wait this long for in-flight responses
  // After an error response (400, 413, 431, 503) the client may still be sending its request:
  // many (urllib, curl --data) write the whole body before reading anything, and closing a
  // socket with unread input makes the kernel reset the connection, which can destroy the
  // response before they read it. So the server half-closes, then reads and discards up to
  // discard_max_bytes more, for at most discard_timeout_s, before it closes. A client still
  // sending beyond either bound is cut off (reset); that bounds what one connection can make
  // the server read. Raise discard_max_bytes together with max_body_bytes.
  std::size_t discard_max_bytes = 8 << 20;
  double discard_timeout_s = 5;
};

}  // namespace hpcab::judge
