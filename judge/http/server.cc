// The judge's HTTP/1.1 server. The structure follows Beast's "advanced server" example: an
// acceptor on its own strand hands each connection to a Session that lives on a strand of its
// own and is kept alive by the shared_ptrs its pending operations (and its Responder) hold.
//
// Lifetimes. Everything the sessions need (the io_context, the limits, the handler, the session
// registry) lives in a `Shared` block held by shared_ptr, so a Responder that outlives the
// Server (a grader thread answering late) still destroys its session against a live
// io_context. stop() drains the io_context until it runs out of work instead of stopping it
// with handlers still queued: a queued handler owning a session owning Shared owning the
// io_context would be a reference cycle, so draining is what guarantees everything is freed.
//
// Thread-safety. Session state is touched only on the session's strand; the only cross-thread
// entry point is Session::PostResponse, which posts onto that strand under Shared::mu after
// checking that the I/O threads will still run it (`responses_closed`).
#include "judge/http/server.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <future>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>
#include <variant>

#include "judge/http/http_errors.h"

namespace hpcab::judge {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

constexpr char kServerName[] = "hpcab-judge";

// Read size while waiting for the first byte of the next keep-alive request.
constexpr std::size_t kIdleReadBytes = 4096;
// accept() failures such as EMFILE would otherwise be retried in a busy loop.
constexpr std::chrono::milliseconds kAcceptBackoff{50};
// stop(): once the grace period is over and the remaining connections are closed, the I/O
// threads run out of work almost at once; if they do not within this bound, the io_context is
// stopped outright (leaking whatever handlers were still queued, rather than hanging).
constexpr std::chrono::seconds kThreadExitBound{5};

// Limits come from configuration: NaN and tiny values become 1 ms, huge ones ~10 years, so the
// conversion to the clock's integer ticks cannot overflow.
Clock::duration ToDuration(double seconds) {
  constexpr double kMin = 1e-3;
  constexpr double kMax = 3e8;
  if (!(seconds >= kMin)) seconds = kMin;  // also catches NaN
  seconds = std::min(seconds, kMax);
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// "0.3", "1800": for messages (std::to_string would print "0.300000").
std::string Seconds(double s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// A header a handler supplies must not be able to inject further headers or break framing:
// the name must be an RFC 9110 token and the value free of CR, LF and NUL.
bool IsValidHeader(std::string_view name, std::string_view value) {
  if (name.empty()) return false;
  for (unsigned char c : name) {
    const bool token = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
    if (!token) return false;
  }
  return value.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

// Framing headers are the server's business (prepare_payload and keep-alive set them).
bool IsFramingHeader(std::string_view name) {
  const std::string lower = ToLower(name);
  return lower == "content-length" || lower == "transfer-encoding" || lower == "connection";
}

class Session;

// State shared by the Server and all its sessions (see the file comment for why it is shared).
struct Shared {
  Shared(const ServerLimits& l, Handler h)
      : ioc(std::max(1, l.io_threads)), limits(l), handler(std::move(h)) {}

  asio::io_context ioc;  // declared first: destroyed after everything that uses it
  const ServerLimits limits;
  // Called only on I/O threads; stop() clears it after they are joined, releasing whatever it
  // captured.
  Handler handler;
  std::atomic<int> live{0};  // counted connections: active_connections(), max_connections
  // Connections over the limit that are being answered 503. At most max_connections of them:
  // beyond that a connection is closed at once, so a flood cannot hold unbounded sockets open.
  std::atomic<int> rejecting{0};
  std::atomic<bool> stopping{false};
  // Set by enable_tls() before start(), read-only afterwards: every connection speaks TLS.
  std::shared_ptr<asio::ssl::context> tls;

  std::mutex mu;
  std::condition_variable cv;  // signalled when a session closes or an I/O thread exits
  // Open sessions, rejected (503) ones included. Guarded by mu.
  std::map<std::uint64_t, std::weak_ptr<Session>> sessions;
  std::uint64_t next_id = 0;  // guarded by mu
  // Once set, the I/O threads are about to run out of work: responders must not post any more.
  bool responses_closed = false;  // guarded by mu
  int running_threads = 0;        // guarded by mu
};

// One request's answer slot, shared by every copy of its Responder. Exactly one answer wins; if
// the last copy is destroyed unanswered, the client gets a 500 at once rather than waiting
// response_timeout_s for a response nobody can send any more.
struct Pending {
  Pending(std::shared_ptr<Session> s, std::uint64_t q) : session(std::move(s)), seq(q) {}
  ~Pending();
  Pending(const Pending&) = delete;
  Pending& operator=(const Pending&) = delete;

  void Answer(HttpResponse response);

  const std::shared_ptr<Session> session;  // keeps the connection alive until answered
  const std::uint64_t seq;                 // which request on the connection this answers
  std::atomic<bool> answered{false};
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  // `counted`: the connection is within max_connections (and already counted in `live`);
  // otherwise it is answered 503 and closed.
  static std::shared_ptr<Session> Create(std::shared_ptr<Shared> shared, tcp::socket socket,
                                         bool counted) {
    auto session = std::make_shared<Session>(std::move(shared), std::move(socket), counted);
    std::lock_guard lock(session->shared_->mu);
    session->id_ = session->shared_->next_id++;
    session->shared_->sessions.emplace(session->id_, session);
    return session;
  }

  Session(std::shared_ptr<Shared> shared, tcp::socket socket, bool counted)
      : shared_(std::move(shared)),
        counted_(counted),
        executor_(socket.get_executor()),
        remote_(PeerOf(socket)),
        stream_(MakeStream(std::move(socket), shared_->tls.get())),
        response_timer_(executor_) {}

  ~Session() {
    // Only reachable unclosed when the io_context was stopped with this session's handlers
    // still queued (the fallback in Server::stop); keep the registry and count honest anyway.
    if (state_ != State::kClosed) Unregister();
  }

  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void Start() {
    asio::dispatch(executor_, [self = shared_from_this()] { self->OnStart(); });
  }

  // stop(), phase one: no further requests on this connection. An idle or half-read
  // connection closes now; one whose handler is running closes once its response is written.
  void BeginShutdown() {
    asio::post(executor_, [self = shared_from_this()] {
      if (self->state_ == State::kClosed) return;
      self->closing_ = true;
      if (self->state_ == State::kIdle || self->state_ == State::kReading) self->Finish();
    });
  }

  // stop(), phase two (the grace period is over): close whatever the state.
  void ForceClose() {
    asio::post(executor_, [self = shared_from_this()] {
      self->closing_ = true;
      self->Finish();
    });
  }

  // Any thread. Hands the answer to request `seq` to the strand, unless the I/O threads are
  // going away (then nobody could write it, and posting would leave a queued handler behind).
  void PostResponse(std::uint64_t seq, HttpResponse response) {
    std::lock_guard lock(shared_->mu);
    if (shared_->responses_closed) {
      spdlog::warn("judge server: response (status {}) for {} arrived after stop(); dropped",
                   response.status, remote_);
      return;
    }
    asio::post(executor_, [self = shared_from_this(), seq, r = std::move(response)]() mutable {
      self->OnResponse(seq, std::move(r));
    });
  }

 private:
  enum class State { kReading, kIdle, kAwaiting, kWriting, kDraining, kClosed };

  // "127.0.0.1:54321" or "[::1]:54321"; empty when the peer is already gone.
  static std::string PeerOf(const tcp::socket& socket) {
    beast::error_code ec;
    const tcp::endpoint peer = socket.remote_endpoint(ec);
    if (ec) return "";
    const auto address = peer.address();
    return (address.is_v6() ? "[" + address.to_string() + "]" : address.to_string()) + ":" +
           std::to_string(peer.port());
  }

  static std::variant<beast::tcp_stream, TlsStream> MakeStream(tcp::socket socket,
                                                               asio::ssl::context* tls) {
    if (tls)
      return std::variant<beast::tcp_stream, TlsStream>(std::in_place_type<TlsStream>,
                                                        std::move(socket), *tls);
    return std::variant<beast::tcp_stream, TlsStream>(std::in_place_type<beast::tcp_stream>,
                                                      std::move(socket));
  }

  // The TCP layer, plain or under TLS: deadlines, shutdown and close act on it.
  beast::tcp_stream& Tcp() {
    return std::visit([](auto& s) -> beast::tcp_stream& { return beast::get_lowest_layer(s); },
                      stream_);
  }

  // Runs `f` with the stream requests and responses travel on (the TLS stream when TLS is on).
  template <typename F>
  void WithStream(F&& f) {
    std::visit(std::forward<F>(f), stream_);
  }

  void OnStart() {
    // TLS: the handshake comes first, bounded like a request (read_timeout_s), so a client that
    // never finishes it cannot hold a connection slot; a failed handshake (plain HTTP sent to
    // the HTTPS port, an old TLS version) just closes the connection.
    if (auto* tls = std::get_if<TlsStream>(&stream_); tls && !handshake_done_) {
      Tcp().expires_after(ToDuration(shared_->limits.read_timeout_s));
      tls->async_handshake(asio::ssl::stream_base::server,
                           beast::bind_front_handler(&Session::OnHandshake, shared_from_this()));
      return;
    }
    if (!counted_) {
      HttpResponse busy =
          error_response(ErrorCode::kUnavailable,
                         "the judge is at its connection limit (" +
                             std::to_string(shared_->limits.max_connections) + "); retry shortly");
      busy.headers.emplace_back("Retry-After", "1");
      Write(std::move(busy), /*drain_after=*/true);
      return;
    }
    if (shared_->stopping) return Finish();
    ReadRequest();
  }

  void OnHandshake(beast::error_code ec) {
    if (state_ == State::kClosed) return;
    if (ec) {
      spdlog::debug("judge server: TLS handshake with {} failed: {}", remote_, ec.message());
      return Finish();
    }
    handshake_done_ = true;
    OnStart();
  }

  void ReadRequest() {
    if (closing_ || shared_->stopping) return Finish();
    state_ = State::kReading;
    head_ = false;
    parser_.emplace();
    // Both limits are enforced by the parser as bytes arrive: a Content-Length above the body
    // limit fails as soon as the header is parsed, before any of the body is buffered.
    parser_->header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(
        shared_->limits.max_header_bytes, std::numeric_limits<std::uint32_t>::max())));
    parser_->body_limit(static_cast<std::uint64_t>(shared_->limits.max_body_bytes));
    // One deadline for the whole request, however slowly it trickles in (slow-loris bound).
    // tcp_stream deadlines are absolute, so it also covers the 100 Continue and the body.
    Tcp().expires_after(ToDuration(shared_->limits.read_timeout_s));
    WithStream([this](auto& stream) {
      http::async_read_header(stream, buffer_, *parser_,
                              beast::bind_front_handler(&Session::OnHeader, shared_from_this()));
    });
  }

  void OnHeader(beast::error_code ec, std::size_t /*bytes*/) {
    if (state_ == State::kClosed) return;
    if (ec) return OnReadError(ec);
    // A client that asked for "Expect: 100-continue" (curl does for larger bodies) would
    // otherwise wait about a second before sending the body. Requests over the body limit never
    // get here: the parser has already failed them with body_limit, so they get a 413 instead.
    const auto& header = parser_->get();
    if (header.version() >= 11 && beast::iequals(header[http::field::expect], "100-continue")) {
      static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
      WithStream([this](auto& stream) {
        asio::async_write(stream, asio::buffer(kContinue.data(), kContinue.size()),
                          [self = shared_from_this()](beast::error_code write_ec, std::size_t) {
                            if (self->state_ == State::kClosed) return;
                            if (write_ec) return self->Finish();
                            self->ReadBody();
                          });
      });
      return;
    }
    ReadBody();
  }

  void ReadBody() {
    WithStream([this](auto& stream) {
      http::async_read(stream, buffer_, *parser_,
                       beast::bind_front_handler(&Session::OnRead, shared_from_this()));
    });
  }

  void OnRead(beast::error_code ec, std::size_t /*bytes*/) {
    if (state_ == State::kClosed) return;
    if (ec) return OnReadError(ec);

    http::request<http::string_body> message = parser_->release();
    parser_.reset();
    HttpRequest request;
    request.method = std::string(message.method_string());
    request.target = std::string(message.target());
    for (const auto& field : message) {
      const beast::string_view raw_name = field.name_string();
      std::string name = ToLower(std::string_view(raw_name.data(), raw_name.size()));
      auto [it, inserted] = request.headers.emplace(name, std::string(field.value()));
      if (!inserted) {  // repeated field: combined as RFC 9110 §5.3 allows
        it->second += ", ";
        it->second += std::string(field.value());
      }
    }
    request.body = std::move(message.body());
    request.remote = remote_;
    keep_alive_ = message.keep_alive();
    version_ = message.version();
    head_ = message.method() == http::verb::head;

    state_ = State::kAwaiting;
    const std::uint64_t seq = ++seq_;
    auto pending = std::make_shared<Pending>(shared_from_this(), seq);
    pending_ = pending;
    response_timer_.expires_after(ToDuration(shared_->limits.response_timeout_s));
    response_timer_.async_wait([self = shared_from_this(), seq](beast::error_code timer_ec) {
      self->OnResponseTimeout(timer_ec, seq);
    });
    // The Responder copies are the only owners of `pending`.
    Responder respond = [pending = std::move(pending)](HttpResponse response) {
      pending->Answer(std::move(response));
    };

    if (!shared_->handler) {
      respond(error_response(ErrorCode::kJudgeFault, "the judge has no request handler"));
      return;
    }
    try {
      shared_->handler(std::move(request), respond);
    } catch (const std::exception& e) {
      spdlog::error("judge server: request handler threw: {}", e.what());
      respond(error_response(ErrorCode::kJudgeFault, std::string("internal error: ") + e.what()));
    } catch (...) {
      spdlog::error("judge server: request handler threw a non-exception");
      respond(error_response(ErrorCode::kJudgeFault, "internal error"));
    }
  }

  void OnReadError(beast::error_code ec) {
    // A HEAD refused for its size still gets a response without a body.
    head_ = parser_ && parser_->is_header_done() && parser_->get().method() == http::verb::head;
    const auto& http_category = http::make_error_code(http::error::end_of_stream).category();
    if (ec == http::error::body_limit) {
      const std::size_t limit = shared_->limits.max_body_bytes;
      return Write(error_response(ApiError{ErrorCode::kBodyTooLarge,
                                           "request body exceeds the judge's limit of " +
                                               std::to_string(limit) + " bytes",
                                           {{"limit_bytes", limit}}}),
                   /*drain_after=*/true);
    }
    if (ec == http::error::header_limit) {
      const std::size_t limit = shared_->limits.max_header_bytes;
      return Write(error_response(ApiError{ErrorCode::kHeaderTooLarge,
                                           "request header exceeds the judge's limit of " +
                                               std::to_string(limit) + " bytes",
                                           {{"limit_bytes", limit}}}),
                   /*drain_after=*/true);
    }
    // end_of_stream: the peer closed between requests, the normal end of a connection.
    if (ec.category() == http_category && ec != http::error::end_of_stream) {
      return Write(error_response(ErrorCode::kBadHttp, "malformed HTTP request: " + ec.message()),
                   /*drain_after=*/true);
    }
    // Timeout (tcp_stream has already closed the socket), reset, or closed by stop().
    Finish();
  }

  // Strand. The answer to request `seq`, from Pending::Answer or Pending's destructor.
  void OnResponse(std::uint64_t seq, HttpResponse response) {
    if (state_ != State::kAwaiting || seq != seq_) {
      // The connection was closed (stop(), grace over) or the 500 for a timeout went first.
      spdlog::warn("judge server: late response (status {}) for {} ignored", response.status,
                   remote_);
      return;
    }
    response_timer_.cancel();
    Write(std::move(response), /*drain_after=*/false);
  }

  void OnResponseTimeout(beast::error_code ec, std::uint64_t seq) {
    if (ec || state_ != State::kAwaiting || seq != seq_) return;
    std::shared_ptr<Pending> pending = pending_.lock();
    // No Pending: its destructor has already posted a 500. Already answered: the answer is
    // queued on this strand behind us.
    if (!pending || pending->answered.exchange(true)) return;
    spdlog::error("judge server: request #{} from {} not answered within {} s", seq, remote_,
                  shared_->limits.response_timeout_s);
    Write(error_response(ErrorCode::kJudgeFault, "the judge did not answer within " +
                                                     Seconds(shared_->limits.response_timeout_s) +
                                                     " s"),
          /*drain_after=*/false);
  }

  // `drain_after`: an error response after which the connection is half-closed and drained.
  void Write(HttpResponse r, bool drain_after) {
    state_ = State::kWriting;
    int status = r.status;
    if (status < 100 || status > 999) {
      spdlog::error("judge server: handler returned invalid status {}; sending 500", status);
      r = error_response(ErrorCode::kJudgeFault,
                         "the judge produced an invalid HTTP status " + std::to_string(status));
      status = 500;
    }
    auto& res = response_.emplace();
    res.version(version_);
    res.result(static_cast<unsigned>(status));
    res.set(http::field::server, kServerName);
    if (!r.content_type.empty() && IsValidHeader("Content-Type", r.content_type)) {
      res.set(http::field::content_type, r.content_type);
    }
    for (const auto& [name, value] : r.headers) {
      if (!IsValidHeader(name, value) || IsFramingHeader(name)) {
        spdlog::warn("judge server: response header '{}' refused", name);
        continue;
      }
      res.set(name, value);
    }
    close_after_write_ = drain_after || closing_ || shared_->stopping || !keep_alive_;
    drain_after_write_ = drain_after;
    res.keep_alive(!close_after_write_);
    res.body() = std::move(r.body);
    res.prepare_payload();
    // RFC 9110 §9.3.2: an answer to HEAD is a header only (its Content-Length still the size
    // of the body the handler produced); body bytes would be read as the start of the next
    // response on a kept-alive connection.
    if (head_) res.body().clear();
    Tcp().expires_after(ToDuration(shared_->limits.write_timeout_s));
    WithStream([this, &res](auto& stream) {
      http::async_write(stream, res,
                        beast::bind_front_handler(&Session::OnWrite, shared_from_this()));
    });
  }

  void OnWrite(beast::error_code ec, std::size_t /*bytes*/) {
    if (state_ == State::kClosed) return;
    response_.reset();
    if (ec) return Finish();
    if (drain_after_write_) return DrainAndClose();
    if (close_after_write_ || closing_ || shared_->stopping) {
      beast::error_code ignored;
      Tcp().socket().shutdown(tcp::socket::shutdown_send, ignored);
      return Finish();
    }
    WaitForNextRequest();
  }

  // Keep-alive: an idle connection may wait keepalive_idle_s for its next request to start;
  // from the first byte on, the request gets read_timeout_s like any other.
  void WaitForNextRequest() {
    if (closing_ || shared_->stopping) return Finish();
    if (buffer_.size() > 0) return ReadRequest();  // pipelined bytes are already here
    state_ = State::kIdle;
    Tcp().expires_after(ToDuration(shared_->limits.keepalive_idle_s));
    WithStream([this](auto& stream) {
      stream.async_read_some(buffer_.prepare(kIdleReadBytes),
                             beast::bind_front_handler(&Session::OnIdleRead, shared_from_this()));
    });
  }

  void OnIdleRead(beast::error_code ec, std::size_t bytes) {
    if (state_ == State::kClosed) return;
    buffer_.commit(bytes);
    if (ec) return Finish();  // idle timeout, peer closed, or stop()
    ReadRequest();
  }

  void DrainAndClose() {
    state_ = State::kDraining;
    beast::error_code ignored;
    Tcp().socket().shutdown(tcp::socket::shutdown_send, ignored);
    Tcp().expires_after(ToDuration(shared_->limits.discard_timeout_s));
    DrainSome();
  }

  void DrainSome() {
    WithStream([this](auto& stream) {
      stream.async_read_some(asio::buffer(drain_buffer_),
                             beast::bind_front_handler(&Session::OnDrain, shared_from_this()));
    });
  }

  void OnDrain(beast::error_code ec, std::size_t bytes) {
    if (state_ == State::kClosed) return;
    drained_ += bytes;
    // End of stream: the client has read the response and closed. Bound reached: the client
    // is still sending, and closing with its bytes unread resets the connection, deliberately.
    if (ec || drained_ >= shared_->limits.discard_max_bytes) return Finish();
    DrainSome();
  }

  // Closes the connection; idempotent. Pending operations complete with operation_aborted and
  // find the session closed.
  void Finish() {
    if (state_ == State::kClosed) return;
    state_ = State::kClosed;
    response_timer_.cancel();
    Tcp().close();
    Unregister();
  }

  void Unregister() {
    (counted_ ? shared_->live : shared_->rejecting).fetch_sub(1);
    std::lock_guard lock(shared_->mu);
    shared_->sessions.erase(id_);
    shared_->cv.notify_all();
  }

  const std::shared_ptr<Shared> shared_;  // first: outlives the I/O objects below
  const bool counted_;
  std::uint64_t id_ = 0;  // set by Create before the session is shared
  // The connection's strand; const, so PostResponse may read it from any thread.
  const asio::any_io_executor executor_;
  const std::string remote_;  // const: PostResponse logs it from other threads
  // Plain TCP, or TLS over it when the server has a certificate (enable_tls).
  std::variant<beast::tcp_stream, TlsStream> stream_;
  asio::steady_timer response_timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::response<http::string_body>> response_;  // the one being written
  std::weak_ptr<Pending> pending_;                             // the current request's slot
  State state_ = State::kReading;
  std::uint64_t seq_ = 0;  // requests read on this connection
  bool keep_alive_ = false;
  unsigned version_ = 11;
  bool head_ = false;            // the request being answered is a HEAD
  bool closing_ = false;         // no further requests on this connection
  bool handshake_done_ = false;  // TLS only
  bool close_after_write_ = false;
  bool drain_after_write_ = false;
  std::array<char, 8192> drain_buffer_{};
  std::size_t drained_ = 0;
};

Pending::~Pending() {
  if (answered.exchange(true)) return;
  try {
    session->PostResponse(seq,
                          error_response(ErrorCode::kJudgeFault,
                                         "the judge dropped the request without answering it"));
  } catch (const std::exception& e) {  // allocation failure: the response timeout still fires
    spdlog::error("judge server: could not post the dropped-request 500: {}", e.what());
  }
}

void Pending::Answer(HttpResponse response) {
  if (answered.exchange(true)) {
    spdlog::warn(
        "judge server: request already answered (a second Responder call, or the response "
        "timeout's 500 went first); response (status {}) ignored",
        response.status);
    return;
  }
  session->PostResponse(seq, std::move(response));
}

}  // namespace

struct Server::Impl {
  Impl(ServerLimits limits, Handler handler)
      : shared(std::make_shared<Shared>(limits, std::move(handler))),
        acceptor(asio::make_strand(shared->ioc)),
        accept_backoff(acceptor.get_executor()) {}

  // Acceptor strand.
  void DoAccept() {
    acceptor.async_accept(asio::make_strand(shared->ioc),
                          [this](beast::error_code ec, auto socket) {
                            OnAccept(ec, tcp::socket(std::move(socket)));
                          });
  }

  void OnAccept(beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (shared->stopping) return;  // `socket` closes as it goes out of scope
    if (ec) {
      spdlog::warn("judge server: accept failed: {}", ec.message());
      accept_backoff.expires_after(kAcceptBackoff);
      accept_backoff.async_wait([this](beast::error_code timer_ec) {
        if (!timer_ec && acceptor.is_open()) DoAccept();
      });
      return;
    }
    // Only this strand increments `live`, so the check and the increment cannot race with
    // another accept; sessions closing concurrently only make room.
    const bool within = shared->live.load() < shared->limits.max_connections;
    if (within) {
      shared->live.fetch_add(1);
    } else if (shared->rejecting.load() >= std::max(1, shared->limits.max_connections)) {
      beast::error_code ignored;
      socket.close(ignored);  // no 503 either: already answering as many as we serve
      return DoAccept();
    } else {
      shared->rejecting.fetch_add(1);
    }
    Session::Create(shared, std::move(socket), within)->Start();
    DoAccept();
  }

  void RunThread() {
    for (;;) {
      try {
        shared->ioc.run();
        break;
      } catch (const std::exception& e) {  // handlers catch their own; this is a last resort
        spdlog::error("judge server: I/O thread caught: {}", e.what());
      }
    }
    std::lock_guard lock(shared->mu);
    --shared->running_threads;
    shared->cv.notify_all();
  }

  bool OnIoThread() const {
    const auto me = std::this_thread::get_id();
    return std::any_of(threads.begin(), threads.end(),
                       [me](const std::thread& t) { return t.get_id() == me; });
  }

  std::shared_ptr<Shared> shared;  // first: the acceptor below needs its io_context
  tcp::acceptor acceptor;
  asio::steady_timer accept_backoff;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
  std::vector<std::thread> threads;
  std::mutex lifecycle_mu;  // serializes listen(), start() and stop()
  bool listening = false;
  bool started = false;
  bool stopped = false;
};

Server::Server(ServerLimits limits, Handler handler)
    : impl_(std::make_unique<Impl>(limits, std::move(handler))) {}

Server::~Server() { stop(); }

Result<uint16_t> Server::listen(const std::string& host, uint16_t port) {
  Impl& im = *impl_;
  std::lock_guard lifecycle(im.lifecycle_mu);
  const std::string where = host + ":" + std::to_string(port);
  if (im.stopped) return Error{"cannot listen on " + where + ": the server was stopped"};
  if (im.listening) return Error{"cannot listen on " + where + ": already listening"};

  beast::error_code ec;
  tcp::resolver resolver(im.shared->ioc);
  const auto results = resolver.resolve(
      host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || results.empty()) {
    return Error{"cannot resolve listen address " + where + ": " +
                 (ec ? ec.message() : "no addresses")};
  }
  const tcp::endpoint endpoint = results.begin()->endpoint();
  auto fail = [&](const char* what) -> Result<uint16_t> {
    const std::string message = ec.message();
    beast::error_code ignored;
    im.acceptor.close(ignored);
    return Error{std::string("cannot ") + what + " " + where + ": " + message};
  };
  im.acceptor.open(endpoint.protocol(), ec);
  if (ec) return fail("open a socket for");
  // A restarted judge must be able to rebind while old connections sit in TIME_WAIT.
  im.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (ec) return fail("set SO_REUSEADDR on");
  im.acceptor.bind(endpoint, ec);
  if (ec) return fail("bind");
  im.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return fail("listen on");
  const tcp::endpoint bound = im.acceptor.local_endpoint(ec);
  if (ec) return fail("read the bound address of");
  im.listening = true;
  if (im.started) asio::post(im.acceptor.get_executor(), [&im] { im.DoAccept(); });
  return bound.port();
}

void Server::start() {
  Impl& im = *impl_;
  std::lock_guard lifecycle(im.lifecycle_mu);
  if (im.started || im.stopped) return;
  im.started = true;
  // Keeps run() going while there is nothing to do (before listen(), between connections).
  im.work.emplace(asio::make_work_guard(im.shared->ioc));
  if (im.listening) asio::post(im.acceptor.get_executor(), [&im] { im.DoAccept(); });
  const int n = std::max(1, im.shared->limits.io_threads);
  {
    std::lock_guard lock(im.shared->mu);
    im.shared->running_threads = n;
  }
  im.threads.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) im.threads.emplace_back([&im] { im.RunThread(); });
}

void Server::stop() {
  Impl& im = *impl_;
  std::lock_guard lifecycle(im.lifecycle_mu);
  if (im.stopped) return;
  if (im.OnIoThread()) {
    // Waiting here would wait on ourselves; the owner's stop() (or the destructor) does it.
    spdlog::error("judge server: stop() called from an I/O thread; ignored");
    return;
  }
  im.stopped = true;
  Shared& sh = *im.shared;
  sh.stopping = true;

  if (!im.started) {  // no threads: nothing runs concurrently, nothing was accepted
    beast::error_code ignored;
    im.acceptor.close(ignored);
    std::lock_guard lock(sh.mu);
    sh.responses_closed = true;
    sh.handler = nullptr;
    return;
  }

  // 1. Stop accepting; on the acceptor's strand so it cannot race with OnAccept. Afterwards
  //    every accepted session is in the registry (OnAccept registers it synchronously) and no
  //    new one will be.
  std::promise<void> acceptor_closed;
  asio::post(im.acceptor.get_executor(), [&im, &acceptor_closed] {
    beast::error_code ignored;
    im.acceptor.close(ignored);
    im.accept_backoff.cancel();
    acceptor_closed.set_value();
  });
  acceptor_closed.get_future().wait();

  // 2. Idle connections close now; those with a handler call in flight close after writing.
  auto snapshot = [&sh] {
    std::vector<std::shared_ptr<Session>> open;
    for (const auto& [id, weak] : sh.sessions) {
      if (auto session = weak.lock()) open.push_back(std::move(session));
    }
    return open;
  };
  std::vector<std::shared_ptr<Session>> open;
  {
    std::lock_guard lock(sh.mu);
    open = snapshot();
  }
  for (const auto& session : open) session->BeginShutdown();
  open.clear();  // outside the lock: dropping the last reference unregisters under sh.mu

  // 3. Wait up to the grace period, then close whatever is left. From here on responders drop
  //    their answers instead of posting them (the I/O threads are about to run out of work).
  {
    std::unique_lock lock(sh.mu);
    sh.cv.wait_until(lock, Clock::now() + ToDuration(sh.limits.shutdown_grace_s),
                     [&sh] { return sh.sessions.empty(); });
    sh.responses_closed = true;
    open = snapshot();
  }
  if (!open.empty()) {
    spdlog::warn("judge server: {} connection(s) still busy after the {} s grace; closing",
                 open.size(), sh.limits.shutdown_grace_s);
  }
  for (const auto& session : open) session->ForceClose();
  open.clear();

  // 4. With no work guard, no acceptor and every connection closed, run() returns as soon as
  //    the queued completions have run.
  im.work.reset();
  {
    std::unique_lock lock(sh.mu);
    if (!sh.cv.wait_for(lock, kThreadExitBound, [&sh] { return sh.running_threads == 0; })) {
      spdlog::error("judge server: I/O threads still busy; stopping the io_context");
      sh.ioc.stop();
    }
  }
  for (auto& t : im.threads) t.join();
  im.threads.clear();
  sh.handler = nullptr;  // no thread can call it any more
}

Status Server::enable_tls(const std::string& cert_file, const std::string& key_file) {
  Impl& im = *impl_;
  std::lock_guard lifecycle(im.lifecycle_mu);
  if (im.started || im.stopped) return Error{"enable_tls() must be called before start()"};
  auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
  // TLS 1.2 and 1.3 only; no renegotiation (a client could make the server redo handshakes).
  ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                   asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                   asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use);
  SSL_CTX* native = ctx->native_handle();
  if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1) {
    return Error{"TLS: cannot set the minimum protocol version to TLS 1.2"};
  }
  SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  beast::error_code ec;
  ctx->use_certificate_chain_file(cert_file, ec);
  if (ec) return Error{"TLS: cannot load the certificate chain " + cert_file + ": " + ec.message()};
  ctx->use_private_key_file(key_file, asio::ssl::context::pem, ec);
  if (ec) return Error{"TLS: cannot load the private key " + key_file + ": " + ec.message()};
  if (SSL_CTX_check_private_key(native) != 1) {
    return Error{"TLS: the private key " + key_file + " does not match the certificate " +
                 cert_file};
  }
  im.shared->tls = std::move(ctx);
  return Ok{};
}

int Server::active_connections() const { return impl_->shared->live.load(); }

}  // namespace hpcab::judge
