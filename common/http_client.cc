// One HTTP/1.1 exchange over a fresh connection. The exchange runs as a chain of asynchronous
// Beast operations on a private io_context because a tcp_stream's deadline applies only to
// asynchronous operations; the caller still sees a plain blocking call. https adds a TLS
// handshake (1.2 or later, certificate and host name verified) before the request.
#include "common/http_client.h"

#include <fcntl.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <string_view>

#include "common/url.h"

namespace hpcab {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// Responses are JSON documents and /metrics text; these bound a misbehaving server's reply.
constexpr std::uint64_t kMaxResponseBody = 64ull << 20;
constexpr std::uint32_t kMaxResponseHeader = 64u << 10;

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// The client's TLS settings: TLS 1.2 or later, the peer verified against `ca_file` (or the
// system's trust store) and required to name `host` (a DNS name, or an IP address SAN).
Result<std::shared_ptr<asio::ssl::context>> MakeTlsContext(const std::string& ca_file) {
  auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
  ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                   asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                   asio::ssl::context::no_tlsv1_1);
  SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
  beast::error_code ec;
  if (ca_file.empty()) {
    ctx->set_default_verify_paths(ec);
    if (ec) return Error{"cannot load the system's CA certificates: " + ec.message()};
  } else {
    ctx->load_verify_file(ca_file, ec);
    if (ec) return Error{"cannot load CA file " + ca_file + ": " + ec.message()};
  }
  ctx->set_verify_mode(asio::ssl::verify_peer);
  return ctx;
}

// Host name (or IP address) the certificate must carry, and SNI for DNS names.
Status ExpectPeer(TlsStream& stream, const std::string& host) {
  SSL* ssl = stream.native_handle();
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  beast::error_code ec;
  asio::ip::make_address(host, ec);
  const bool is_ip = !ec;
  if (is_ip ? X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) != 1
            : X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size()) != 1) {
    return Error{"cannot set the expected TLS peer name '" + host + "'"};
  }
  if (!is_ip && SSL_set_tlsext_host_name(ssl, host.c_str()) != 1) {
    return Error{"cannot set the TLS server name '" + host + "'"};
  }
  return Ok{};
}

// The state of one exchange; callbacks capture it by reference and ioc.run() returns when the
// chain ends (every failure path simply stops chaining). `Stream` is beast::tcp_stream or
// TlsStream (then `tls` is the client context).
template <typename Stream>
class Exchange {
 public:
  Exchange(http::request<http::string_body> request, Clock::time_point deadline,
           const CancelToken* cancel, asio::ssl::context* tls = nullptr)
      : stream_(MakeStream(tls)),
        request_(std::move(request)),
        deadline_(deadline),
        cancel_(cancel) {
    parser_.body_limit(kMaxResponseBody);
    parser_.header_limit(kMaxResponseHeader);
  }

  Stream& stream() { return stream_; }

  // Returns the empty string on success, else what failed ("connect: Connection refused").
  std::string Run(const Url& url) {
    // cancel() may come from any thread: it only posts the abort into this exchange's
    // io_context, whose thread (this one, in run_until below) closes the socket.
    std::uint64_t subscription = 0;
    if (cancel_) {
      subscription = cancel_->subscribe([this] { asio::post(ioc_, [this] { Abort(); }); });
    }
    resolver_.async_resolve(url.host, url.port, tcp::resolver::numeric_service,
                            [this](beast::error_code ec, tcp::resolver::results_type results) {
                              if (ec) return Fail("resolve", ec);
                              // A resolve that finished just before Abort() ran: don't connect.
                              if (aborted_) return Fail("resolve", asio::error::operation_aborted);
                              Tcp().expires_at(deadline_);
                              Tcp().async_connect(
                                  results, [this](beast::error_code c_ec, const tcp::endpoint&) {
                                    if (c_ec) return Fail("connect", c_ec);
                                    Handshake();
                                  });
                            });
    // The resolver has no deadline of its own; this bounds it (and everything else).
    ioc_.run_until(deadline_ + std::chrono::milliseconds(100));
    // From here on no callback can post into ioc_, so it may be restarted and destroyed
    // safely; an abort posted before runs in the cleanup below or is discarded with ioc_.
    if (cancel_) cancel_->unsubscribe(subscription);
    if (!done_) {
      resolver_.cancel();
      Tcp().close();
      ioc_.restart();
      ioc_.run();  // lets the cancelled operations complete before the objects go away
      failure_ = "resolve: timed out";
    }
    if (aborted_) failure_ = "cancelled";
    return failure_;
  }

  http::response<http::string_body> Release() { return parser_.release(); }
  // False while the request has not started to leave (a failure before it is retry-safe).
  bool sent() const { return sent_; }

 private:
  Stream MakeStream(asio::ssl::context* tls) {
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      return Stream(ioc_, *tls);
    } else {
      (void)tls;
      return Stream(ioc_);
    }
  }

  beast::tcp_stream& Tcp() { return beast::get_lowest_layer(stream_); }

  // Runs on the io_context's thread. Closing the socket completes the pending operation with
  // operation_aborted, which ends the chain; the peer sees the connection close.
  void Abort() {
    if (done_) return;
    aborted_ = true;
    resolver_.cancel();
    beast::error_code ignored;
    Tcp().socket().shutdown(tcp::socket::shutdown_both, ignored);
    Tcp().close();
  }

  void Handshake() {
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      Tcp().expires_at(deadline_);
      stream_.async_handshake(asio::ssl::stream_base::client, [this](beast::error_code ec) {
        if (ec) return Fail("TLS handshake", ec);
        Write();
      });
    } else {
      Write();
    }
  }

  void Write() {
    sent_ = true;
    Tcp().expires_at(deadline_);
    http::async_write(stream_, request_, [this](beast::error_code ec, std::size_t) {
      if (ec) return Fail("write", ec);
      Tcp().expires_at(deadline_);
      http::async_read(stream_, buffer_, parser_, [this](beast::error_code r_ec, std::size_t) {
        if (r_ec) return Fail("read", r_ec);
        // The response is complete (Content-Length or chunked framing), so no TLS close_notify
        // exchange is needed to trust it; the connection is simply closed.
        beast::error_code ignored;
        Tcp().socket().shutdown(tcp::socket::shutdown_both, ignored);
        done_ = true;
      });
    });
  }

  void Fail(const char* stage, beast::error_code ec) {
    done_ = true;
    failure_ = std::string(stage) + ": " +
               (ec == beast::error::timeout ? std::string("timed out") : ec.message());
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      // "certificate verify failed" alone does not say why; OpenSSL's verify result does.
      const long verify = SSL_get_verify_result(stream_.native_handle());
      if (verify != X509_V_OK) {
        failure_ += std::string(" (") + X509_verify_cert_error_string(verify) + ")";
      }
    }
  }

  asio::io_context ioc_;
  tcp::resolver resolver_{ioc_};
  Stream stream_;
  http::request<http::string_body> request_;
  const Clock::time_point deadline_;
  const CancelToken* cancel_;
  bool aborted_ = false;
  bool sent_ = false;
  beast::flat_buffer buffer_;
  http::response_parser<http::string_body> parser_;
  bool done_ = false;
  std::string failure_;
};

}  // namespace

void CancelToken::cancel() {
  std::lock_guard lock(mu_);
  if (cancelled_) return;
  cancelled_ = true;
  // Under the lock, so unsubscribe() cannot return while a callback still runs.
  for (auto& [id, f] : callbacks_) f();
  callbacks_.clear();
}

bool CancelToken::cancelled() const {
  std::lock_guard lock(mu_);
  return cancelled_;
}

std::uint64_t CancelToken::subscribe(std::function<void()> on_cancel) const {
  std::unique_lock lock(mu_);
  const std::uint64_t id = next_id_++;
  if (cancelled_) {
    lock.unlock();
    on_cancel();
    return id;
  }
  callbacks_.emplace(id, std::move(on_cancel));
  return id;
}

void CancelToken::unsubscribe(std::uint64_t id) const {
  std::lock_guard lock(mu_);
  callbacks_.erase(id);
}

Result<HttpResult> http_request(const std::string& method, const std::string& url,
                                const std::string& body,
                                const std::map<std::string, std::string>& headers, double timeout_s,
                                const HttpOptions& options) {
  const std::string what = method + " " + url;
  Result<Url> parsed = parse_url(url);
  if (!parsed) return parsed.error();
  if (method.empty() || method.find_first_of(" \t\r\n:/()<>@,;\\\"[]?={}") != std::string::npos) {
    return Error{"bad HTTP method '" + method + "' for " + url};
  }
  // NaN, negative and absurd timeouts are clamped so the deadline arithmetic cannot overflow.
  if (!(timeout_s > 0)) timeout_s = 0;
  timeout_s = std::min(timeout_s, 1e7);
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_s));

  http::request<http::string_body> request;
  request.version(11);
  request.method_string(method);
  request.target(parsed->target());
  const bool v6 = parsed->host.find(':') != std::string::npos;
  request.set(http::field::host,
              (v6 ? "[" + parsed->host + "]" : parsed->host) + ":" + parsed->port);
  request.set(http::field::user_agent, "hpcab-http-client");
  bool has_content_type = false;
  for (const auto& [name, value] : headers) {
    if (value.find_first_of("\r\n") != std::string::npos ||
        name.find_first_of(" \t\r\n:") != std::string::npos || name.empty()) {
      return Error{"bad header '" + name + "' for " + what};
    }
    if (ToLower(name) == "content-type") has_content_type = true;
    request.set(name, value);
  }
  if (!options.bearer_token.empty()) {
    if (options.bearer_token.find_first_of("\r\n") != std::string::npos) {
      return Error{"bad bearer token for " + what + ": it contains a line break"};
    }
    request.set(http::field::authorization, "Bearer " + options.bearer_token);
  }
  if (!body.empty() && !has_content_type) {
    request.set(http::field::content_type, "application/json");
  }
  request.keep_alive(false);  // one request per connection
  request.body() = body;
  request.prepare_payload();

  http::response<http::string_body> response;
  if (parsed->tls) {
    auto ctx = MakeTlsContext(options.ca_file);
    if (!ctx) return Error{"HTTP " + what + " failed: " + ctx.error().message};
    Exchange<TlsStream> exchange(std::move(request), deadline, options.cancel, ctx->get());
    if (auto st = ExpectPeer(exchange.stream(), parsed->host); !st) {
      return Error{"HTTP " + what + " failed: " + st.error().message};
    }
    const std::string failure = exchange.Run(*parsed);
    if (!failure.empty()) {
      return Error{"HTTP " + what + " failed: " + failure,
                   exchange.sent() ? Errc::kFailed : Errc::kNotSent};
    }
    response = exchange.Release();
  } else {
    Exchange<beast::tcp_stream> exchange(std::move(request), deadline, options.cancel);
    const std::string failure = exchange.Run(*parsed);
    if (!failure.empty()) {
      return Error{"HTTP " + what + " failed: " + failure,
                   exchange.sent() ? Errc::kFailed : Errc::kNotSent};
    }
    response = exchange.Release();
  }
  HttpResult result;
  result.status = static_cast<int>(response.result_int());
  for (const auto& field : response) {
    auto [it, inserted] = result.headers.emplace(ToLower(std::string(field.name_string())),
                                                 std::string(field.value()));
    if (!inserted) {
      it->second += ", ";
      it->second += std::string(field.value());
    }
  }
  result.body = std::move(response.body());
  return result;
}

Result<std::string> read_client_token_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{"cannot read token file " + path + ": " + std::strerror(errno)};
  struct stat st {};
  const bool stat_ok = fstat(fd, &st) == 0;
  ::close(fd);
  if (!stat_ok || !S_ISREG(st.st_mode)) return Error{"token file " + path + " is not a file"};
  if ((st.st_mode & 077) != 0) {
    return Error{"token file " + path +
                 " is accessible by group or others; refusing to use it. Run: chmod 600 " + path};
  }
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto last = line.find_last_not_of(" \t\r");
    return line.substr(first, last - first + 1);
  }
  return Error{"token file " + path + " holds no token"};
}

}  // namespace hpcab
