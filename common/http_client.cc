// One HTTP/1.1 exchange over a fresh connection. The exchange runs as a chain of asynchronous
// Beast operations on a private io_context because a tcp_stream's deadline applies only to
// asynchronous operations; the caller still sees a plain blocking call.
#include "common/http_client.h"

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace hpcab {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// Responses are JSON documents and /metrics text; these bound a misbehaving server's reply.
constexpr std::uint64_t kMaxResponseBody = 64ull << 20;
constexpr std::uint32_t kMaxResponseHeader = 64u << 10;

struct Url {
  std::string host;  // without brackets for IPv6
  std::string port;
  std::string target;  // path and query, starting with '/'
};

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// http://host[:port][/path][?query]; anything else (https, userinfo, a fragment, spaces or
// control bytes) is refused rather than guessed at.
Result<Url> ParseUrl(const std::string& url) {
  constexpr std::string_view kScheme = "http://";
  auto bad = [&url](const std::string& why) {
    return Error{"bad URL '" + url + "': " + why + " (expected http://host:port/path)"};
  };
  if (url.size() < kScheme.size() || ToLower(url.substr(0, kScheme.size())) != kScheme) {
    return bad("only the http scheme is supported");
  }
  for (unsigned char c : url) {
    if (c <= 0x20 || c == 0x7f) return bad("spaces and control characters are not allowed");
  }
  if (url.find('#') != std::string::npos) return bad("fragments are not allowed");
  const std::string rest = url.substr(kScheme.size());
  const std::size_t authority_end = rest.find_first_of("/?");
  const std::string authority = rest.substr(0, authority_end);
  Url out;
  out.target = authority_end == std::string::npos ? "/" : rest.substr(authority_end);
  if (out.target.front() == '?') out.target.insert(0, "/");
  if (authority.find('@') != std::string::npos) return bad("user information is not allowed");

  std::string port_text;
  if (!authority.empty() && authority.front() == '[') {  // [v6]:port
    const std::size_t close = authority.find(']');
    if (close == std::string::npos) return bad("unterminated IPv6 address");
    out.host = authority.substr(1, close - 1);
    const std::string after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return bad("junk after the IPv6 address");
      port_text = after.substr(1);
      if (port_text.empty()) return bad("empty port");
    }
  } else {
    const std::size_t colon = authority.find(':');
    out.host = authority.substr(0, colon);
    if (colon != std::string::npos) {
      port_text = authority.substr(colon + 1);
      if (port_text.empty()) return bad("empty port");
    }
  }
  if (out.host.empty()) return bad("missing host");
  if (port_text.empty()) port_text = "80";
  if (port_text.size() > 5 ||
      !std::all_of(port_text.begin(), port_text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return bad("port is not a number");
  const int port = std::stoi(port_text);
  if (port < 1 || port > 65535) return bad("port out of range");
  out.port = std::to_string(port);
  return out;
}

// The state of one exchange; callbacks capture it by reference and ioc.run() returns when the
// chain ends (every failure path simply stops chaining).
class Exchange {
 public:
  Exchange(http::request<http::string_body> request, Clock::time_point deadline)
      : request_(std::move(request)), deadline_(deadline) {
    parser_.body_limit(kMaxResponseBody);
    parser_.header_limit(kMaxResponseHeader);
  }

  // Returns the empty string on success, else what failed ("connect: Connection refused").
  std::string Run(const Url& url) {
    resolver_.async_resolve(url.host, url.port, tcp::resolver::numeric_service,
                            [this](beast::error_code ec, tcp::resolver::results_type results) {
                              if (ec) return Fail("resolve", ec);
                              stream_.expires_at(deadline_);
                              stream_.async_connect(
                                  results, [this](beast::error_code c_ec, const tcp::endpoint&) {
                                    if (c_ec) return Fail("connect", c_ec);
                                    Write();
                                  });
                            });
    // The resolver has no deadline of its own; this bounds it (and everything else).
    ioc_.run_until(deadline_ + std::chrono::milliseconds(100));
    if (!done_) {
      resolver_.cancel();
      stream_.close();
      ioc_.restart();
      ioc_.run();  // lets the cancelled operations complete before the objects go away
      failure_ = "resolve: timed out";
    }
    return failure_;
  }

  http::response<http::string_body> Release() { return parser_.release(); }

 private:
  void Write() {
    stream_.expires_at(deadline_);
    http::async_write(stream_, request_, [this](beast::error_code ec, std::size_t) {
      if (ec) return Fail("write", ec);
      stream_.expires_at(deadline_);
      http::async_read(stream_, buffer_, parser_, [this](beast::error_code r_ec, std::size_t) {
        if (r_ec) return Fail("read", r_ec);
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        done_ = true;
      });
    });
  }

  void Fail(const char* stage, beast::error_code ec) {
    done_ = true;
    failure_ = std::string(stage) + ": " +
               (ec == beast::error::timeout ? std::string("timed out") : ec.message());
  }

  asio::io_context ioc_;
  tcp::resolver resolver_{ioc_};
  beast::tcp_stream stream_{ioc_};
  http::request<http::string_body> request_;
  const Clock::time_point deadline_;
  beast::flat_buffer buffer_;
  http::response_parser<http::string_body> parser_;
  bool done_ = false;
  std::string failure_;
};

}  // namespace

Result<HttpResult> http_request(const std::string& method, const std::string& url,
                                const std::string& body,
                                const std::map<std::string, std::string>& headers,
                                double timeout_s) {
  const std::string what = method + " " + url;
  Result<Url> parsed = ParseUrl(url);
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
  request.target(parsed->target);
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
  if (!body.empty() && !has_content_type) {
    request.set(http::field::content_type, "application/json");
  }
  request.keep_alive(false);  // one request per connection
  request.body() = body;
  request.prepare_payload();

  Exchange exchange(std::move(request), deadline);
  const std::string failure = exchange.Run(*parsed);
  if (!failure.empty()) return Error{"HTTP " + what + " failed: " + failure};

  http::response<http::string_body> response = exchange.Release();
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

}  // namespace hpcab
