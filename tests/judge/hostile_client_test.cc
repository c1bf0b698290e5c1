// Hostile clients against the judge's real server and routes on 127.0.0.1 (SPEC §4):
// oversized headers and bodies, slow-loris, connection floods, malformed HTTP, deeply nested or
// huge JSON, invalid UTF-8, out-of-range numbers and path traversal. The routes run over the
// real corpus with a grading queue that takes no jobs, so a request that passes every check is
// answered 429 and nothing is ever built or run. After every attack the judge must still answer
// GET /health, and every response body must be valid UTF-8 JSON.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/http_client.h"
#include "common/manifest.h"
#include "judge/build/build.h"
#include "judge/config/config.h"
#include "judge/grade/grader.h"
#include "judge/http/request.h"
#include "judge/http/routes.h"
#include "judge/http/server.h"

namespace hpcab::judge {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using json = nlohmann::json;
using namespace std::chrono_literals;

constexpr char kSecret[] = "TOP-SECRET-OUTSIDE-THE-SHARED-DIR";

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool WaitFor(const std::function<bool()>& predicate, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (predicate()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return predicate();
}

ServerLimits HostileLimits() {
  ServerLimits limits;
  limits.max_body_bytes = 1 << 20;
  limits.max_header_bytes = 4096;
  limits.read_timeout_s = 5;
  limits.write_timeout_s = 5;
  limits.keepalive_idle_s = 5;
  limits.response_timeout_s = 10;
  limits.max_connections = 16;
  limits.shutdown_grace_s = 2;
  return limits;
}

// The judge's routes and server in-process, over the real corpus. Its grading queue refuses
// every job (depth 0, no workers): a request that passes validation gets 429, so a test can tell
// "refused by a check" (400/404/413) from "accepted" without grading anything.
class Judge {
 public:
  explicit Judge(ServerLimits limits = HostileLimits()) {
    dir_ = fs::temp_directory_path() /
           ("hpcab-hostile-" + std::to_string(getpid()) + "-" + std::to_string(counter_++));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "shared" / "sub");
    fs::create_directories(dir_ / "state");
    std::ofstream(dir_ / "shared" / "sub" / "ok.c") << "void tsvc_2_s000_fp64(void) {}\n";
    std::ofstream(dir_ / "outside.c") << kSecret << "\n";
    std::ofstream(dir_ / "shared" / "big.c") << std::string(8192, 'x');
    fs::create_symlink(dir_ / "outside.c", dir_ / "shared" / "link.c");

    config_.rank = 0;
    config_.corpus_dir = (fs::path(HPCAB_SOURCE_DIR) / "corpus").string();
    config_.shared_dir = (dir_ / "shared").string();
    config_.state_dir = (dir_ / "state").string();
    config_.scratch_dir = (dir_ / "scratch").string();
    config_.input_mode = "any";
    config_.max_source_bytes = 4096;
    config_.slots = {{0}};
    config_.server = limits;

    auto corpus = load_corpus(config_.corpus_dir);
    EXPECT_TRUE(corpus.ok()) << (corpus.ok() ? "" : corpus.error().message);
    BuildSettings settings;
    settings.cache_dir = (dir_ / "state" / "builds").string();
    settings.scratch_dir = config_.scratch_dir;
    builder_ = std::make_unique<Builder>(settings, config_.sandbox_policy());
    grader_ = std::make_unique<Grader>(config_,
                                       corpus.ok() ? std::move(*corpus) : std::vector<Manifest>{},
                                       /*store=*/nullptr, std::string(32, 'k'), builder_.get());
    routes_ = std::make_unique<Routes>(config_, grader_.get(), &queue_, &metrics_);
    server_ = std::make_unique<Server>(limits, [this](HttpRequest request, Responder respond) {
      routes_->handle(std::move(request), std::move(respond));
    });
    auto port = server_->listen("127.0.0.1", 0);
    EXPECT_TRUE(port.ok()) << (port.ok() ? "" : port.error().message);
    port_ = port.ok() ? *port : 0;
    server_->start();
  }

  ~Judge() {
    server_->stop();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  uint16_t port() const { return port_; }
  Server& server() { return *server_; }
  const fs::path& dir() const { return dir_; }
  std::string Url(const std::string& target) const {
    return "http://127.0.0.1:" + std::to_string(port_) + target;
  }

 private:
  static inline int counter_ = 0;
  fs::path dir_;
  JudgeConfig config_;
  std::unique_ptr<Builder> builder_;
  std::unique_ptr<Grader> grader_;
  JobQueue queue_{0, 0};
  Metrics metrics_;
  std::unique_ptr<Routes> routes_;
  std::unique_ptr<Server> server_;  // last: stopped and destroyed before what it calls
  uint16_t port_ = 0;
};

// A plain client socket: arbitrary bytes out, raw bytes in, with deadlines (poll).
class Socket {
 public:
  explicit Socket(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = fd_ >= 0 && ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  bool connected() const { return connected_; }

  // False once the peer has closed (EPIPE, ECONNRESET).
  bool Send(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

  // Reads until the peer closes or `timeout_s` passes. `closed` tells which.
  std::string ReadUntilClose(double timeout_s, bool* closed = nullptr) {
    std::string out;
    const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) break;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
      std::array<char, 65536> buf{};
      const ssize_t n = ::recv(fd_, buf.data(), buf.size(), 0);
      if (n <= 0) {
        if (closed) *closed = true;
        return out;
      }
      out.append(buf.data(), static_cast<std::size_t>(n));
    }
    if (closed) *closed = false;
    return out;
  }

  // True when the server has closed the connection within `timeout_s` (EOF or reset).
  bool ClosedWithin(double timeout_s) {
    bool closed = false;
    ReadUntilClose(timeout_s, &closed);
    return closed;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

struct Reply {
  int status = 0;  // 0: no parsable response before the connection closed
  std::string body;
};

// The first HTTP response in `raw`.
Reply ParseReply(const std::string& raw) {
  Reply reply;
  http::response_parser<http::string_body> parser;
  parser.eager(true);
  beast::error_code ec;
  parser.put(asio::buffer(raw), ec);
  if (ec && ec != http::error::need_more) return reply;
  if (!parser.is_done()) parser.put_eof(ec);
  if (!parser.is_done()) return reply;
  reply.status = static_cast<int>(parser.get().result_int());
  reply.body = parser.get().body();
  return reply;
}

// Sends `bytes` on a fresh connection and returns the first response (status 0 if none).
Reply Exchange(uint16_t port, std::string_view bytes, double timeout_s = 10) {
  Socket s(port);
  EXPECT_TRUE(s.connected());
  s.Send(bytes);  // the server may close before taking everything
  return ParseReply(s.ReadUntilClose(timeout_s));
}

std::string Post(const std::string& target, const std::string& body) {
  return "POST " + target + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n" +
         "Connection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string Get(const std::string& target) {
  return "GET " + target + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";
}

// Every body the judge sends is valid UTF-8 JSON; an error body is {"code": "<name>", "error":
// "<non-empty>"}. Returns the body's code (docs/api.md "Error codes"), "" when it has none.
std::string CodeOf(const Reply& reply) {
  EXPECT_TRUE(valid_utf8(reply.body)) << reply.body;
  const auto body = json::parse(reply.body, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(body.is_discarded()) << reply.body;
  if (!body.is_object() || !body.contains("error") || !body["error"].is_string() ||
      body["error"].get<std::string>().empty() || !body.contains("code") ||
      !body["code"].is_string()) {
    return "";
  }
  return body["code"].get<std::string>();
}

// The limit a 413 or 431 body names in its `limit_bytes` field, or -1.
long long LimitOf(const Reply& reply) {
  const auto body = json::parse(reply.body, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object() || !body.contains("limit_bytes")) return -1;
  return body["limit_bytes"].get<long long>();
}

void ExpectHealthy(const Judge& judge) {
  Result<HttpResult> r = http_request("GET", judge.Url("/health"), "", {}, 10);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200) << r->body;
}

// A grade body that passes every check (so it reaches the queue: 429), with one field replaced.
std::string GradeBody(const std::string& field = "", const std::string& raw_value = "") {
  json body = {{"kernel", "tsvc_2_s000"},     {"language", "c"}, {"rank", 0},
               {"source", "void f(void) {}"}, {"run_id", "r"},   {"optimizer", "o"}};
  std::string text = body.dump();
  if (field.empty()) return text;
  body.erase(field);
  text = body.dump();
  return text.substr(0, text.size() - 1) + ",\"" + field + "\":" + raw_value + "}";
}

TEST(HostileClientTest, OversizedHeadersGet431) {
  Judge judge;  // max_header_bytes 4096
  const std::vector<std::string> attacks = {
      // One huge field.
      "GET /health HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(16384, 'a') + "\r\n\r\n",
      // Many small fields.
      [] {
        std::string r = "GET /health HTTP/1.1\r\nHost: t\r\n";
        for (int i = 0; i < 2000; ++i) r += "X-" + std::to_string(i) + ": v\r\n";
        return r + "\r\n";
      }(),
      // A request line longer than the limit.
      "GET /" + std::string(16384, 'p') + " HTTP/1.1\r\nHost: t\r\n\r\n",
      // A field that never ends.
      "GET /health HTTP/1.1\r\nX-Endless: " + std::string(65536, 'e'),
  };
  for (const auto& attack : attacks) {
    const Reply reply = Exchange(judge.port(), attack);
    EXPECT_EQ(reply.status, 431) << attack.substr(0, 60);
    EXPECT_EQ(CodeOf(reply), "header_too_large") << reply.body;
    EXPECT_EQ(LimitOf(reply), 4096) << reply.body;
  }
  ExpectHealthy(judge);
}

TEST(HostileClientTest, OversizedBodiesGet413) {
  ServerLimits limits = HostileLimits();
  limits.max_body_bytes = 4096;
  Judge judge(limits);
  // A declared length far over the limit: refused from the header, no body needed.
  Reply reply = Exchange(
      judge.port(), "POST /score HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000000000\r\n\r\n");
  EXPECT_EQ(reply.status, 413);
  EXPECT_EQ(CodeOf(reply), "body_too_large");
  EXPECT_EQ(LimitOf(reply), 4096);
  // One byte over, actually sent.
  reply = Exchange(judge.port(), Post("/score", std::string(4097, ' ')));
  EXPECT_EQ(reply.status, 413);
  // Chunked: no length up front, the chunks add up to more than the limit.
  std::string chunked = "POST /score HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 64; ++i) chunked += "100\r\n" + std::string(256, ' ') + "\r\n";
  chunked += "0\r\n\r\n";
  reply = Exchange(judge.port(), chunked);
  EXPECT_EQ(reply.status, 413);
  EXPECT_EQ(CodeOf(reply), "body_too_large");
  // One huge chunk announced in hex.
  reply = Exchange(judge.port(),
                   "POST /score HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                   "FFFFFFFFFFFF\r\nxx");
  EXPECT_EQ(reply.status, 413);
  ExpectHealthy(judge);
}

// Python's urllib and curl --data write the whole request before they read anything. The judge
// decides 413 from the header and answers at once, but must then read the rest of the body
// (up to server.discard_max_bytes): closing with it unread would reset the connection, and the
// reset would destroy the 413 in the client's receive queue before it is read.
TEST(HostileClientTest, OversizedBodySentWholeBeforeReadingGets413) {
  ServerLimits limits = HostileLimits();
  limits.max_body_bytes = 64 << 10;
  limits.discard_max_bytes = 32 << 20;
  Judge judge(limits);
  // Far more than the kernel's socket buffers on both sides can absorb, so the judge really has
  // to read it; well within the discard bound.
  const std::string body(24 << 20, ' ');
  const std::vector<std::string> requests = {
      "POST /score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: " +
          std::to_string(body.size()) + "\r\n\r\n" + body,
      [&body] {  // chunked: the judge sees the excess only once the chunks add up to it
        std::string r = "POST /score HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n";
        const std::size_t piece = 1 << 20;
        for (std::size_t at = 0; at < body.size(); at += piece) {
          std::ostringstream size;
          size << std::hex << piece;
          r += size.str() + "\r\n" + body.substr(at, piece) + "\r\n";
        }
        return r + "0\r\n\r\n";
      }(),
  };
  for (const std::string& request : requests) {
    Socket client(judge.port());
    ASSERT_TRUE(client.connected());
    // Blocking: returns once every byte is in the kernel's hands.
    EXPECT_TRUE(client.Send(request)) << "the judge cut the body off within the discard bound";
    bool closed = false;
    const Reply reply = ParseReply(client.ReadUntilClose(10, &closed));
    EXPECT_EQ(reply.status, 413) << request.substr(0, 80);
    EXPECT_EQ(CodeOf(reply), "body_too_large") << reply.body;
    EXPECT_EQ(LimitOf(reply), 65536) << reply.body;
    EXPECT_TRUE(closed);  // the connection ends after the 413
  }
  ExpectHealthy(judge);
}

// The discarding is bounded: a client that keeps sending after its 413 is cut off once the
// judge has read server.discard_max_bytes, not read forever.
TEST(HostileClientTest, BodyFarBeyondTheDiscardBoundIsCutOff) {
  ServerLimits limits = HostileLimits();
  limits.max_body_bytes = 64 << 10;
  limits.discard_max_bytes = 1 << 20;
  limits.discard_timeout_s = 60;  // the byte bound, not the clock, must end it
  Judge judge(limits);
  Socket client(judge.port());
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(
      client.Send("POST /score HTTP/1.1\r\nHost: t\r\nContent-Length: 1099511627776\r\n\r\n"));
  const std::string chunk(1 << 20, ' ');
  const std::size_t give_up = std::size_t{1} << 30;
  const auto start = Clock::now();
  std::size_t sent = 0;
  while (sent < give_up && client.Send(chunk)) sent += chunk.size();
  // What got through is the bound plus what the socket buffers on both sides hold (a few MiB
  // on loopback), nowhere near what the client tried to send.
  EXPECT_LT(sent, std::size_t{64} << 20);
  EXPECT_LT(SecondsSince(start), 30);
  ExpectHealthy(judge);
}

// And bounded in time: a client that neither sends nor closes after its 413 holds its
// connection for server.discard_timeout_s, not for read_timeout_s or the default 5 s.
TEST(HostileClientTest, DiscardingAfterAnErrorEndsAfterTheDiscardTimeout) {
  ServerLimits limits = HostileLimits();
  limits.max_body_bytes = 4096;
  limits.read_timeout_s = 60;
  limits.discard_timeout_s = 0.5;
  Judge judge(limits);
  Socket client(judge.port());
  ASSERT_TRUE(client.connected());
  const auto start = Clock::now();
  ASSERT_TRUE(client.Send("POST /score HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n"));
  bool closed = false;
  // The judge half-closes after its answer: the client sees the 413 and the end at once.
  const Reply reply = ParseReply(client.ReadUntilClose(20, &closed));
  EXPECT_EQ(reply.status, 413);
  EXPECT_TRUE(closed);
  // The client keeps its end open; the judge gives up on it after discard_timeout_s.
  EXPECT_TRUE(WaitFor([&] { return judge.server().active_connections() == 0; }, 3000ms));
  EXPECT_LT(SecondsSince(start), 3);
  ExpectHealthy(judge);
}

TEST(HostileClientTest, DiscardLimitsComeFromTheServerSettings) {
  JudgeConfig config;
  EXPECT_EQ(config.server.discard_max_bytes, std::size_t{8} << 20);
  EXPECT_EQ(config.server.discard_timeout_s, 5);
  ASSERT_TRUE(apply_config_json(config,
                                R"({"server": {"discard_max_bytes": 1234,
                                               "discard_timeout_s": 0.25}})",
                                "test")
                  .ok());
  EXPECT_EQ(config.server.discard_max_bytes, 1234u);
  EXPECT_EQ(config.server.discard_timeout_s, 0.25);
  EXPECT_FALSE(
      apply_config_json(config, R"({"server": {"discard_max_bytes": "lots"}})", "test").ok());
}

TEST(HostileClientTest, SlowLorisIsClosedWithinReadTimeoutWhileOthersAreServed) {
  ServerLimits limits = HostileLimits();
  limits.read_timeout_s = 1.5;
  Judge judge(limits);
  Socket loris(judge.port());
  ASSERT_TRUE(loris.connected());
  const std::string request =
      "GET /health HTTP/1.1\r\nHost: t\r\nX-Slow: " + std::string(200, 's') + "\r\n\r\n";
  const auto start = Clock::now();
  bool closed = false;
  int health_checks = 0;
  // One byte every 100 ms: the request would take 25 s to arrive.
  for (std::size_t i = 0; i < request.size() && !closed; ++i) {
    if (!loris.Send(request.substr(i, 1))) {
      closed = true;
      break;
    }
    closed = loris.ClosedWithin(0.1);
    if (i % 5 == 0) {  // the judge keeps serving everyone else meanwhile
      ExpectHealthy(judge);
      ++health_checks;
    }
  }
  const double elapsed = SecondsSince(start);
  EXPECT_TRUE(closed) << "the trickling connection was never closed";
  EXPECT_GE(elapsed, 1.0);  // not before the read timeout...
  EXPECT_LT(elapsed, 8.0);  // ...and soon after it (generous: the machine may be loaded)
  EXPECT_GE(health_checks, 2);
  EXPECT_TRUE(WaitFor([&] { return judge.server().active_connections() == 0; }, 3000ms));
  ExpectHealthy(judge);
}

TEST(HostileClientTest, ConnectionFloodIsCappedAndHealthRecovers) {
  ServerLimits limits = HostileLimits();
  limits.max_connections = 4;
  Judge judge(limits);
  std::vector<std::unique_ptr<Socket>> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(std::make_unique<Socket>(judge.port()));
    ASSERT_TRUE(held.back()->connected());
  }
  ASSERT_TRUE(WaitFor([&] { return judge.server().active_connections() == 4; }, 5000ms));

  // Over the cap: 503 and closed. Those sockets are kept open (and unread), so the judge is
  // still draining them when the next ones arrive.
  std::vector<std::unique_ptr<Socket>> rejected;
  for (int i = 0; i < 4; ++i) {
    rejected.push_back(std::make_unique<Socket>(judge.port()));
    ASSERT_TRUE(rejected.back()->connected());
  }
  // Beyond twice the cap: closed at once, without even a 503 to write. (The judge drains each
  // 503'd connection for at most 2 s; past that it may rightly answer the next one with a 503,
  // so only connections made well within that window are checked.)
  const auto flood_start = Clock::now();
  int checked = 0;
  for (int i = 0; i < 8; ++i) {
    Socket extra(judge.port());
    ASSERT_TRUE(extra.connected());
    const bool in_window = SecondsSince(flood_start) < 1.0;
    bool closed = false;
    const std::string bytes = extra.ReadUntilClose(5, &closed);
    EXPECT_TRUE(closed);
    if (!in_window) continue;
    ++checked;
    EXPECT_EQ(bytes, "") << "connection " << i << " beyond twice the cap was answered";
  }
  EXPECT_GE(checked, 1);
  for (auto& s : rejected) {
    bool closed = false;
    const Reply reply = ParseReply(s->ReadUntilClose(5, &closed));
    EXPECT_TRUE(closed);
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(CodeOf(reply), "unavailable");
  }
  EXPECT_EQ(judge.server().active_connections(), 4);
  held.clear();  // the flood goes away: the judge answers again
  ASSERT_TRUE(WaitFor([&] { return judge.server().active_connections() == 0; }, 5000ms));
  ExpectHealthy(judge);
}

TEST(HostileClientTest, MalformedHttpGets400OrCloseNeverACrash) {
  Judge judge;
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>((i * 7919 + 13) % 256);
  const std::vector<std::string> attacks = {
      "GARBAGE\r\n\r\n",
      "GET\r\n\r\n",
      "GET /health\r\n\r\n",  // HTTP/0.9
      "GET /health HTTP/1.1\r\nNo colon here\r\n\r\n",
      "G\x01T /health HTTP/1.1\r\nHost: t\r\n\r\n",
      "GET /he alth HTTP/1.1\r\nHost: t\r\n\r\n",
      "POST /score HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n{}",
      "POST /score HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n{}",
      "POST /score HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
      "POST /score HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\n",
      "POST /score HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "POST /score HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked, identity\r\n\r\n",
      "POST /score HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n"
      "\r\n0\r\n\r\n",
      std::string("GET /health HTTP/1.1\r\nHost: \0t\r\n\r\n", 36),
      junk,
      "\r\n\r\n\r\n\r\n",
  };
  // Beast's parser knows HTTP/1.0 and HTTP/1.1 only.
  for (const std::string version : {"9.9", "2.0", "0.9", "1.2", "1.10", "x"}) {
    const Reply reply =
        Exchange(judge.port(), "GET /health HTTP/" + version + "\r\nHost: t\r\n\r\n");
    EXPECT_EQ(reply.status, 400) << version;
    EXPECT_EQ(CodeOf(reply), "bad_http") << reply.body;
  }
  // Obsolete line folding is unfolded (RFC 9112 §5.2 allows that or a 400); no crash either way.
  const Reply folded = Exchange(judge.port(), "GET /health HTTP/1.1\r\nHost: t\r\n folded\r\n\r\n");
  EXPECT_TRUE(folded.status == 200 || folded.status == 400) << folded.status;
  for (const auto& attack : attacks) {
    const Reply reply = Exchange(judge.port(), attack, 8);
    // 400 (or the route's 404/405 for a well-formed request to nowhere), or closed unanswered.
    EXPECT_TRUE(reply.status == 0 || reply.status == 400 || reply.status == 404 ||
                reply.status == 405)
        << reply.status << " for "
        << json(attack).dump(-1, ' ', false, json::error_handler_t::replace);
    if (reply.status != 0) {
      EXPECT_FALSE(CodeOf(reply).empty()) << reply.body;
    }
    ExpectHealthy(judge);
  }
}

TEST(HostileClientTest, DeeplyNestedJsonGets400WithoutRecursion) {
  Judge judge;
  const std::vector<std::string> bodies = {
      std::string(100000, '['),
      std::string(100000, '[') + std::string(100000, ']'),
      "{\"kernel\":\"tsvc_2_s000\",\"rank\":0,\"x\":" + std::string(50000, '[') +
          std::string(50000, ']') + "}",
      [] {
        std::string s;
        for (int i = 0; i < 30000; ++i) s += "{\"a\":";
        return s + "1" + std::string(30000, '}');
      }(),
  };
  for (const auto& body : bodies) {
    const Reply reply = Exchange(judge.port(), Post("/score", body));
    EXPECT_EQ(reply.status, 400);
    EXPECT_EQ(CodeOf(reply), "bad_json") << reply.body;
  }
  // Brackets inside strings are text, and 64 levels are fine: this one reaches the queue.
  json nested = json::array();
  for (int i = 0; i < 62; ++i) nested = json::array({nested});
  json ok = json::parse(GradeBody());
  ok["x"] = nested;
  ok["source"] = std::string(3000, '[');
  const Reply accepted = Exchange(judge.port(), Post("/score", ok.dump()));
  EXPECT_EQ(accepted.status, 429) << accepted.body;
  ExpectHealthy(judge);
}

TEST(HostileClientTest, HugeJsonUnderTheBodyLimitIsHandled) {
  Judge judge;  // max_body_bytes 1 MiB
  json many = json::object();
  for (int i = 0; i < 60000; ++i) many["k" + std::to_string(i)] = i;
  ASSERT_LT(many.dump().size(), std::size_t{1} << 20);
  const auto start = Clock::now();
  Reply reply = Exchange(judge.port(), Post("/score", many.dump()));
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(CodeOf(reply), "missing_rank") << reply.body;
  // The same keys around a valid request: it reaches the queue, nothing chokes.
  json padded = many;
  const json valid = json::parse(GradeBody());
  for (const auto& [k, v] : valid.items()) padded[k] = v;
  reply = Exchange(judge.port(), Post("/score", padded.dump()));
  EXPECT_EQ(reply.status, 429) << reply.body;
  // One huge string, and a long flat array.
  reply = Exchange(judge.port(), Post("/score", "\"" + std::string(1000000, 'a') + "\""));
  EXPECT_EQ(reply.status, 400);
  std::string flat = "[";
  for (int i = 0; i < 200000; ++i) flat += "0,";
  flat += "0]";
  reply = Exchange(judge.port(), Post("/score", flat));
  EXPECT_EQ(reply.status, 400);
  EXPECT_LT(SecondsSince(start), 30.0);
  ExpectHealthy(judge);
}

TEST(HostileClientTest, NonUtf8Gets400WithValidUtf8Errors) {
  Judge judge;
  for (const std::string body :
       {"{\"kernel\":\"s\xff\",\"rank\":0}", "{\"kernel\":\"\xc0\xaf\",\"rank\":0}",
        "{\"kernel\":\"\xed\xa0\x80\",\"rank\":0}", "{\"kernel\":\"\xf4\x90\x80\x80\",\"rank\":0}",
        "{\"rank\":0,\"source\":\"int x; /* \xe2\x82 */\"}", "\xef\xbb\xbf\xff{}"}) {
    const Reply reply = Exchange(judge.port(), Post("/score", body));
    EXPECT_EQ(reply.status, 400);
    EXPECT_EQ(CodeOf(reply), "bad_json") << reply.body;
  }
  // \u escapes of lone surrogates are not UTF-8 either (nlohmann refuses them).
  Reply reply = Exchange(judge.port(), Post("/score", R"({"kernel":"\ud800","rank":0})"));
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(CodeOf(reply), "bad_json");
  // In the request target: percent-encoded, or raw bytes.
  for (const std::string target :
       {"/task/%ff%fe?rank=0", "/task/tsvc_2_s000?rank=0&language=%c0%af",
        "/baseline/%ed%a0%80?rank=0", "/h%ffealth", "/task/s\xff\xfe?rank=0"}) {
    reply = Exchange(judge.port(), Get(target));
    if (reply.status == 0) continue;  // the HTTP parser may refuse raw bytes outright
    EXPECT_EQ(reply.status, 400) << target;
    EXPECT_FALSE(CodeOf(reply).empty()) << target;  // valid UTF-8 JSON whatever it says
  }
  reply = Exchange(judge.port(), Get("/task/%ff%fe?rank=0"));
  EXPECT_EQ(CodeOf(reply), "bad_target") << reply.body;
  ExpectHealthy(judge);
}

TEST(HostileClientTest, OutOfRangeNumbersGet400) {
  Judge judge;
  Reply control = Exchange(judge.port(), Post("/score", GradeBody()));
  ASSERT_EQ(control.status, 429) << control.body;  // everything below differs in one field
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"rank", "1e400"},
      {"rank", "-1"},
      {"rank", "99999999999999999999"},
      {"rank", "4294967296"},
      {"rank", "0.5"},
      {"rank", "\"1e3\""},
      {"rank", "\"-0\""},
      {"rank", "\"0x0\""},
      {"rank", "\"\""},
      {"rank", "\"9999999999\""},
      {"workspace_bytes", "18446744073709551615"},
      {"workspace_bytes", "99999999999999999999"},
      {"workspace_bytes", "1099511627777"},
      {"workspace_bytes", "\"1099511627776+1\""},
      {"workspace_bytes", "\"-5\""},
      {"workspace_bytes", "\"9223372036854775807*9223372036854775807\""},
      {"workspace_bytes", "1e400"},
      {"workspace_bytes", "-1"},
      {"tokens", "99999999999999999999"},
      {"tokens", "18446744073709551615"},
      {"tokens", "9223372036854775808"},
      {"tokens", "-1"},
      {"tokens", "1e400"},
      {"tokens", "1.5"},
  };
  for (const auto& [field, value] : cases) {
    const Reply reply = Exchange(judge.port(), Post("/score", GradeBody(field, value)));
    EXPECT_EQ(reply.status, 400) << field << "=" << value << ": " << reply.body;
    // The field's own code, or bad_json for a number nlohmann cannot represent.
    const std::map<std::string, std::string> field_code = {
        {"rank", "bad_rank"}, {"workspace_bytes", "bad_workspace"}, {"tokens", "bad_field"}};
    const std::string code = CodeOf(reply);
    EXPECT_TRUE(code == field_code.at(field) || code == "bad_json") << reply.body;
  }
  // The largest values in range are accepted.
  for (const auto& [field, value] : std::vector<std::pair<std::string, std::string>>{
           {"workspace_bytes", "1099511627776"},
           {"tokens", "9223372036854775807"},
       }) {
    const Reply reply = Exchange(judge.port(), Post("/score", GradeBody(field, value)));
    EXPECT_EQ(reply.status, 429) << field << "=" << value << ": " << reply.body;
  }
  // Query ranks.
  for (const std::string rank : {"-1", "1e400", "99999999999999999999", "%2b0", "0%00", ""}) {
    const Reply reply = Exchange(judge.port(), Get("/task/tsvc_2_s000?rank=" + rank));
    EXPECT_EQ(reply.status, 400) << rank;
    const std::string code = CodeOf(reply);
    EXPECT_TRUE(code == "bad_rank" || code == "missing_rank") << reply.body;
  }
  ExpectHealthy(judge);
}

TEST(HostileClientTest, PathTraversalReadsNothingOutside) {
  Judge judge;
  for (const std::string route : {"/task/", "/baseline/"}) {
    for (const std::string name :
         {"../../etc/passwd", "..%2f..%2fetc%2fpasswd", "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
          "%2fetc%2fpasswd", "/etc/passwd", "tsvc_2_s000%00", "tsvc_2_s000%2f..%2fs111", "..", ".",
          "tsvc_2_s000/../tsvc_2_s111", "S000", "%2e%2e"}) {
      const Reply reply = Exchange(judge.port(), Get(route + name + "?rank=0"));
      EXPECT_TRUE(reply.status == 404 || reply.status == 400)
          << route << name << ": " << reply.status;
      EXPECT_FALSE(CodeOf(reply).empty());
      EXPECT_EQ(reply.body.find("root:"), std::string::npos);
    }
  }
  // Kernel names in bodies.
  for (const std::string kernel :
       {"../../etc/passwd", "/etc/passwd", "tsvc_2_s000\\u0000", "tsvc_2_s000/."}) {
    const Reply reply =
        Exchange(judge.port(), Post("/score", GradeBody("kernel", "\"" + kernel + "\"")));
    EXPECT_EQ(reply.status, 404) << kernel << ": " << reply.body;
  }
  // source_file / library: only regular files inside the shared dir.
  const std::string outside = (judge.dir() / "outside.c").string();
  for (const std::string& path : std::vector<std::string>{
           "../outside.c", "sub/../../outside.c", outside, "link.c", "/etc/passwd",
           std::string("sub/ok.c\0../../outside.c", 24), "sub", "", "missing.c"}) {
    for (const std::string field : {"source_file", "library"}) {
      json body = json::parse(GradeBody());
      body.erase("source");
      const std::string text = body.dump();
      const Reply reply =
          Exchange(judge.port(), Post("/score", text.substr(0, text.size() - 1) + ",\"" + field +
                                                    "\":" + json(path).dump().substr(0) + "}"));
      EXPECT_EQ(reply.status, 400) << field << "=" << path << ": " << reply.body;
      EXPECT_EQ(reply.body.find(kSecret), std::string::npos);
    }
  }
  // The NUL case above, spelled as a real \u0000 escape.
  const Reply nul = Exchange(
      judge.port(),
      Post("/score", R"({"kernel":"tsvc_2_s000","rank":0,"source_file":"sub/ok.c\u0000x"})"));
  EXPECT_EQ(nul.status, 400) << nul.body;
  // A file inside is accepted (reaches the queue) unless it is over max_source_bytes.
  json inside = json::parse(GradeBody());
  inside.erase("source");
  inside["source_file"] = "sub/ok.c";
  EXPECT_EQ(Exchange(judge.port(), Post("/score", inside.dump())).status, 429);
  inside["source_file"] = "big.c";
  const Reply big = Exchange(judge.port(), Post("/score", inside.dump()));
  EXPECT_EQ(big.status, 413) << big.body;
  ExpectHealthy(judge);
}

TEST(HostileClientTest, MadeUpPathsCannotMintMetricsLabels) {
  Judge judge;
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(Exchange(judge.port(), Get("/nope" + std::to_string(i) + "%22%7d%0Afake%201")).status,
              404);
  }
  Result<HttpResult> r = http_request("GET", judge.Url("/metrics"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->body.find("nope"), std::string::npos) << r->body;
  EXPECT_EQ(r->body.find("\nfake"), std::string::npos) << r->body;
  EXPECT_NE(r->body.find("hpcab_requests_total{route=\"other\",status=\"404\"} 50"),
            std::string::npos)
      << r->body;
}

}  // namespace
}  // namespace hpcab::judge
