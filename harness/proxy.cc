// The metering proxy. Each connection runs on its own thread with a private io_context; every
// socket operation is asynchronous (so a beast::tcp_stream deadline bounds it) but awaited at
// once by Await(), which keeps the per-request logic a straight line: read the agent's request,
// connect upstream (a TLS handshake for https), forward it, then relay the response piece by
// piece (http::async_read_some into a fixed buffer, each piece written on as one chunk) while
// the usage, or an error answer's reason, is read from it.
#include "harness/proxy.h"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cctype>
#include <chrono>
#include <cmath>
#include <limits>
#include <list>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <utility>

#include "common/url.h"
#include "harness/outage.h"

namespace hpcab::harness {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;
using nlohmann::json;

// The body of an upstream's error answer kept to look for a context overflow in.
constexpr std::size_t kMaxErrorBody = 1u << 20;

struct Upstream {
  bool tls = false;
  std::string host;  // without brackets for IPv6
  std::string port;
  std::string prefix;  // path prepended to the agent's target, without a trailing '/'
  std::string base;    // for messages: http[s]://host:port
};

// The upstream of a proxy: an http(s) URL (common/url.h) without a query, whose path (less a
// trailing "/v1", which the agents' own targets carry) prefixes every forwarded target.
Result<Upstream> ParseUpstream(const std::string& url) {
  auto parsed = parse_url(url);
  if (!parsed) return Error{"upstream: " + parsed.error().message};
  if (url.find('?') != std::string::npos) {
    return Error{"bad upstream URL '" + url + "': a query is not allowed"};
  }
  Upstream u;
  u.tls = parsed->tls;
  u.host = parsed->host;
  u.port = parsed->port;
  std::string path = parsed->path;
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (path.size() >= 3 && path.compare(path.size() - 3, 3, "/v1") == 0)
    path.resize(path.size() - 3);
  u.prefix = path;
  u.base = parsed->origin();
  return u;
}

enum class Api { kOpenAI, kAnthropic };

// What a path is: which dialect, and whether its responses carry usage to meter.
struct Route {
  bool known = false;
  Api api = Api::kOpenAI;
  bool metered = false;
  const char* method = "POST";
  bool responses = false;  // the OpenAI Responses API (usage fields of its own)
};

Route RouteFor(std::string_view path) {
  if (path == "/v1/chat/completions" || path == "/v1/completions")
    return {true, Api::kOpenAI, true, "POST"};
  if (path == "/v1/responses") return {true, Api::kOpenAI, true, "POST", true};
  if (path == "/v1/models" || path.rfind("/v1/models/", 0) == 0)
    return {true, Api::kOpenAI, false, "GET"};
  if (path == "/v1/messages") return {true, Api::kAnthropic, true, "POST"};
  if (path == "/v1/messages/count_tokens") return {true, Api::kAnthropic, false, "POST"};
  // Unknown paths answer in the dialect their prefix suggests.
  return {false, path.rfind("/v1/messages", 0) == 0 ? Api::kAnthropic : Api::kOpenAI, false, ""};
}

// The error body each dialect's clients know how to show.
std::string ErrorBody(Api api, const std::string& type, const std::string& message) {
  json j;
  if (api == Api::kAnthropic) {
    j = {{"type", "error"}, {"error", {{"type", type}, {"message", message}}}};
  } else {
    j = {{"error", {{"message", message}, {"type", type}, {"param", nullptr}, {"code", type}}}};
  }
  return j.dump();
}

bool HopByHop(beast::string_view name) {
  static constexpr const char* kNames[] = {"connection",
                                           "keep-alive",
                                           "proxy-connection",
                                           "proxy-authenticate",
                                           "proxy-authorization",
                                           "te",
                                           "trailer",
                                           "transfer-encoding",
                                           "upgrade",
                                           "host",
                                           "content-length"};
  for (const char* n : kNames) {
    if (beast::iequals(name, n)) return true;
  }
  return false;
}

std::string FormatTokens(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The client side of https upstreams: TLS 1.2 or later, the peer verified against the system's
// trust store plus `extra_ca_file`. Made once at start() and shared by every connection (an
// SSL_CTX is safe to create connections from concurrently once it is set up).
Result<std::unique_ptr<asio::ssl::context>> MakeUpstreamTlsContext(
    const std::string& extra_ca_file) {
  auto ctx = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_client);
  ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                   asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                   asio::ssl::context::no_tlsv1_1);
  SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
  beast::error_code ec;
  ctx->set_default_verify_paths(ec);
  if (ec && extra_ca_file.empty())
    return Error{"cannot load the system's CA certificates for the https upstream: " +
                 ec.message()};
  if (!extra_ca_file.empty()) {
    ctx->load_verify_file(extra_ca_file, ec);
    if (ec) return Error{"cannot load the upstream CA file " + extra_ca_file + ": " + ec.message()};
  }
  ctx->set_verify_mode(asio::ssl::verify_peer);
  return ctx;
}

// The name the upstream's certificate must carry (a DNS name, or an IP address SAN), and SNI
// for DNS names (RFC 6066 has no SNI for address literals).
std::string ExpectPeer(TlsStream& stream, const std::string& host) {
  SSL* ssl = stream.native_handle();
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  beast::error_code ec;
  asio::ip::make_address(host, ec);
  const bool is_ip = !ec;
  if (is_ip ? X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) != 1
            : X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size()) != 1)
    return "cannot set the expected TLS peer name '" + host + "'";
  if (!is_ip && SSL_set_tlsext_host_name(ssl, host.c_str()) != 1)
    return "cannot set the TLS server name '" + host + "'";
  return "";
}

// Every string in a JSON document (bounded depth), for phrase matching: providers and the
// gateways in front of them nest the message in different places (error.message, message,
// detail, a JSON text inside a string).
void CollectStrings(const json& j, std::string& out, int depth) {
  if (depth > 16 || out.size() > kMaxErrorBody) return;
  if (j.is_string()) {
    out += j.get_ref<const std::string&>();
    out += '\n';
  } else if (j.is_object() || j.is_array()) {
    for (const auto& v : j) CollectStrings(v, out, depth + 1);
  }
}

}  // namespace

bool context_overflow_error(int status, std::string_view body) {
  if (status < 400 || status > 499) return false;
  std::string text;
  const json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    text.assign(body.substr(0, kMaxErrorBody));  // plain text, or an SSE error event
  } else {
    CollectStrings(j, text, 0);
  }
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  // Each phrase names the context window (or is a provider's code for it); none matches the
  // neighbouring refusals ("max_tokens: N > M, which is the maximum allowed number of output
  // tokens", "max_completion_tokens is too large", authentication, rate limits).
  static constexpr std::string_view kPhrases[] = {
      "context_length_exceeded",                 // OpenAI's error code
      "maximum context length",                  // OpenAI, vLLM, SGLang
      "longer than the model's context length",  // SGLang, Together
      "longer than the maximum model length",    // vLLM: "The decoder prompt (length N) is ..."
      "context length exceeded",
      "exceeds the context window",  // OpenAI Responses API
      "prompt is too long",          // Anthropic: "prompt is too long: N tokens > M maximum"
      "exceed context limit",        // Anthropic: "input length and `max_tokens` exceed ..."
  };
  for (std::string_view p : kPhrases) {
    if (text.find(p) != std::string::npos) return true;
  }
  return false;
}

struct MeteringProxy::Impl {
  struct EpisodeState {
    double budget = 0;
    EpisodeTotals totals;
    bool fired = false;       // on_budget_exhausted called for the current budget
    bool overflowed = false;  // a context overflow since set_episode(); on_context_overflow called
    bool gave_up = false;     // on_upstream_outage called since set_episode()
    int searches = 0;         // search queries answered or refused for the limit
    bool exhausted() const { return budget > 0 && totals.weighted >= budget; }
  };

  struct Conn {
    asio::io_context ioc;
    std::unique_ptr<tcp::socket> accepted;  // on ioc, so declared after it
    std::thread thread;
    std::atomic<bool> done{false};
  };

  ProxyOptions opt;
  UsageSink* sink;
  TokenCounter counter;  // responses without usage (opt.tokenizer, or the estimate)
  Upstream up;
  std::unique_ptr<asio::ssl::context> tls;  // https upstreams

  asio::io_context accept_ioc;
  std::optional<tcp::acceptor> acceptor;
  std::thread accept_thread;
  std::uint16_t port = 0;
  std::atomic<bool> stopping{false};
  bool started = false;
  bool stopped = false;

  std::mutex conns_mu;
  std::list<std::unique_ptr<Conn>> conns;

  mutable std::mutex ep_mu;
  std::string current_episode;
  std::map<std::string, EpisodeState> episodes;
  DownIntervals down;  // the upstream's outages (unix seconds)
  std::string down_reason;

  // What one forwarding try came to (Relay).
  struct Forwarded {
    bool done = false;               // answered: relayed, or the proxy's own error
    bool keep = false;               // done: the agent's connection may serve another request
    bool upstream_answered = false;  // done by relaying an upstream answer
    std::string failure;             // !done: why the upstream gave no usable answer
    double retry_after_s = 0;        // !done: the upstream's Retry-After
  };

  Impl(ProxyOptions o, UsageSink* s) : opt(std::move(o)), sink(s), counter(opt.tokenizer) {}

  // ---- accepting ----

  void Accept() {
    auto conn = std::make_unique<Conn>();
    conn->accepted = std::make_unique<tcp::socket>(conn->ioc);
    Conn* raw = conn.release();
    acceptor->async_accept(*raw->accepted, [this, raw](beast::error_code ec) {
      std::unique_ptr<Conn> c(raw);
      if (ec || stopping) return;  // closed by stop()
      std::lock_guard lock(conns_mu);
      conns.remove_if([](const std::unique_ptr<Conn>& x) {
        if (!x->done) return false;
        x->thread.join();
        return true;
      });
      if (static_cast<int>(conns.size()) >= opt.max_connections) {
        Refuse(*c->accepted);
      } else {
        Conn* cp = c.get();
        cp->thread = std::thread([this, cp] {
          Serve(*cp, std::move(*cp->accepted));
          cp->done = true;
        });
        conns.push_back(std::move(c));
      }
      Accept();
    });
  }

  // Too many connections: a short 503 without reading the request.
  void Refuse(tcp::socket& s) {
    const std::string body =
        ErrorBody(Api::kOpenAI, "overloaded",
                  "the token-metering proxy already serves " + std::to_string(opt.max_connections) +
                      " connections; retry later");
    const std::string msg =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        "Connection: close\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body;
    beast::error_code ec;
    s.non_blocking(true, ec);
    s.send(asio::buffer(msg), 0, ec);
    s.shutdown(tcp::socket::shutdown_both, ec);
    s.close(ec);
  }

  // ---- awaiting one asynchronous operation on a connection's io_context ----

  template <typename Start>
  beast::error_code Await(Conn& c, Start&& start, std::size_t* bytes = nullptr) {
    c.ioc.restart();
    if (stopping) return asio::error::operation_aborted;
    bool finished = false;
    beast::error_code result;
    start([&](beast::error_code ec, auto&&... rest) {
      finished = true;
      result = ec;
      if constexpr (sizeof...(rest) == 1) {
        if (bytes != nullptr) {
          if constexpr (std::is_convertible_v<decltype((rest, ...)), std::size_t>)
            *bytes = static_cast<std::size_t>((rest, ...));
        }
      }
    });
    c.ioc.run();
    // run() only returns early when stop() stopped the context; the handler then never runs.
    return finished ? result : beast::error_code(asio::error::operation_aborted);
  }

  static std::chrono::steady_clock::duration Secs(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }

  // ---- serving a connection ----

  void Serve(Conn& c, tcp::socket socket) {
    beast::tcp_stream client(std::move(socket));
    beast::flat_buffer buffer;
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(static_cast<std::uint32_t>(opt.max_header_bytes));
      parser.body_limit(static_cast<std::uint64_t>(opt.max_body_bytes));
      client.expires_after(Secs(opt.client_timeout_s));
      beast::error_code ec =
          Await(c, [&](auto h) { http::async_read_header(client, buffer, parser, h); });
      if (!ec && beast::iequals(parser.get()[http::field::expect], "100-continue")) {
        // Clients that ask (curl does, for bodies over 1 KiB) wait for this before the body.
        static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        ec = Await(c, [&](auto h) { asio::async_write(client, asio::buffer(kContinue), h); });
      }
      if (!ec && !parser.is_done()) {
        ec = Await(c, [&](auto h) { http::async_read(client, buffer, parser, h); });
      }
      if (ec == http::error::body_limit || ec == http::error::header_limit) {
        const bool body = ec == http::error::body_limit;
        // The request line is parsed before the fields, and a Content-Length above the limit
        // fails while the fields are read (is_header_done() is still false): the target is
        // there whenever the request line was. The route of the path alone (Claude Code posts
        // /v1/messages?beta=true): the error speaks the dialect the agent expects.
        const beast::string_view target = parser.get().target();
        const std::string_view whole(target.data(), target.size());
        const Route route = RouteFor(whole.substr(0, whole.find('?')));
        const std::string message =
            body ? "request body exceeds the token-metering proxy's limit of " +
                       std::to_string(opt.max_body_bytes) + " bytes"
                 : "request header exceeds the token-metering proxy's limit of " +
                       std::to_string(opt.max_header_bytes) + " bytes";
        const bool head = parser.get().method() == http::verb::head;
        SendSimple(c, client, body ? 413 : 431, false, head,
                   ErrorBody(route.api, "request_too_large", message));
        Drain(c, client);
        break;
      }
      if (ec) break;  // closed, timed out, malformed: nothing to answer
      http::request<http::string_body> req = parser.release();
      if (!Handle(c, client, req)) break;
    }
    beast::error_code ignored;
    client.socket().shutdown(tcp::socket::shutdown_both, ignored);
    client.close();
  }

  // After an early error answer the agent may still be sending its body; reading it for a
  // moment lets it see the answer instead of a connection reset.
  void Drain(Conn& c, beast::tcp_stream& client) {
    beast::error_code ignored;
    client.socket().shutdown(tcp::socket::shutdown_send, ignored);
    char sink_buf[16384];
    const auto until = Clock::now() + std::chrono::seconds(2);
    std::size_t total = 0;
    while (Clock::now() < until && total < 2 * opt.max_body_bytes + (1u << 20)) {
      client.expires_at(until);
      std::size_t n = 0;
      beast::error_code ec = Await(
          c, [&](auto h) { client.async_read_some(asio::buffer(sink_buf), h); }, &n);
      if (ec) break;
      total += n;
    }
  }

  // `head`: the request was HEAD, so the answer is the header alone (RFC 9110 §9.3.2), its
  // Content-Length still that of `body`; body bytes would be taken for the start of the next
  // response on a kept-alive connection.
  bool SendSimple(Conn& c, beast::tcp_stream& client, int status, bool keep_alive, bool head,
                  const std::string& body) {
    http::response<http::string_body> res{static_cast<http::status>(status), 11};
    res.set(http::field::content_type, "application/json");
    res.keep_alive(keep_alive);
    res.body() = body;
    res.prepare_payload();
    if (head) res.body().clear();
    client.expires_after(Secs(opt.client_timeout_s));
    beast::error_code ec = Await(c, [&](auto h) { http::async_write(client, res, h); });
    return !ec && keep_alive;
  }

  // One agent request being answered: its connection, route and record.
  struct Exchange {
    Conn& c;
    beast::tcp_stream& client;
    Route route;
    bool keep_alive = false;
    bool head = false;
    Clock::time_point t0 = Clock::now();
    RequestRecord rec;
    std::string input_text;  // a metered request's text, counted if its response has no usage
  };

  // One request; returns whether the connection may serve another.
  bool Handle(Conn& c, beast::tcp_stream& client, http::request<http::string_body>& req) {
    const std::string target(req.target());
    const std::string path = target.substr(0, target.find('?'));
    Exchange x{c,
               client,
               RouteFor(path),
               req.keep_alive(),
               req.method() == http::verb::head,
               Clock::now(),
               {},
               {}};
    x.rec.started_unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
    x.rec.api = x.route.api == Api::kAnthropic ? "anthropic" : "openai";
    x.rec.endpoint = path;
    {
      std::lock_guard lock(ep_mu);
      x.rec.episode = current_episode;
    }
    if (path == "/hpcab/usage") return AnswerUsage(c, client, req, x.rec.episode);
    if (path == "/hpcab/search") return AnswerSearch(c, client, req, x.rec.episode);
    if (!x.route.known) {
      return Answer(x, 404, x.route.api == Api::kAnthropic ? "not_found_error" : "not_found",
                    "the token-metering proxy does not forward " + path +
                        " (forwarded: /v1/chat/completions, /v1/completions, /v1/responses, "
                        "/v1/models, /v1/messages)");
    }
    // HEAD is allowed wherever GET is (RFC 9110 §9.3.2) and forwarded as HEAD.
    const bool method_ok = req.method_string() == x.route.method ||
                           (x.head && std::string_view(x.route.method) == "GET");
    if (!method_ok) {
      return Answer(
          x, 405, "invalid_request_error",
          path + " takes " + x.route.method + ", not " + std::string(req.method_string()));
    }
    std::string body = ReadModelRequest(x, req.body());
    if (x.route.metered) {
      if (std::string refusal = BudgetRefusal(x.rec.episode); !refusal.empty()) {
        return Answer(x, 402, "budget_exceeded", refusal);
      }
    }
    http::request<http::string_body> fwd = ForwardOf(req, target, std::move(body));
    return ForwardWaitingOutOutages(x, fwd);
  }

  // An answer by the proxy itself, recorded like any other request (before answering, as for
  // forwarded requests).
  bool Answer(Exchange& x, int status, const std::string& type, const std::string& message) {
    x.rec.status = status;
    x.rec.error = message;
    x.rec.latency_s = std::chrono::duration<double>(Clock::now() - x.t0).count();
    Finish(x.rec);
    return SendSimple(x.c, x.client, status, x.keep_alive, x.head,
                      ErrorBody(x.route.api, type, message));
  }

  // Notes the model and streaming of a model request in its record; the body to forward (an
  // OpenAI stream asks for its usage).
  std::string ReadModelRequest(Exchange& x, std::string body) {
    if (!x.route.metered && x.route.api != Api::kAnthropic) return body;
    json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return body;
    if (j.contains("model") && j["model"].is_string()) x.rec.model = j["model"].get<std::string>();
    if (x.route.metered) x.input_text = request_text(j);
    x.rec.stream = j.contains("stream") && j["stream"].is_boolean() && j["stream"].get<bool>();
    // OpenAI streams carry usage only when asked; ask on the agent's behalf.
    // (The Responses API always reports usage in its final event.)
    if (x.route.api == Api::kOpenAI && x.route.metered && x.rec.stream && !x.route.responses) {
      if (!j.contains("stream_options") || !j["stream_options"].is_object())
        j["stream_options"] = json::object();
      j["stream_options"]["include_usage"] = true;
      return j.dump();
    }
    return body;
  }

  // Why `episode` may send no more model requests; "" while its budget lasts.
  std::string BudgetRefusal(const std::string& episode) {
    std::lock_guard lock(ep_mu);
    auto it = episodes.find(episode);
    if (it == episodes.end() || !it->second.exhausted()) return "";
    const EpisodeState& s = it->second;
    return "token budget of " + FormatTokens(s.budget) + " weighted tokens exhausted for this " +
           "episode (used " + FormatTokens(s.totals.weighted) + ": input " +
           std::to_string(s.totals.usage.input) + ", cached " +
           std::to_string(s.totals.usage.cached) + ", output " +
           std::to_string(s.totals.usage.output) +
           "); no further model requests are allowed and the episode is ending";
  }

  // The request sent upstream: the agent's without hop-by-hop fields, compression or (with an
  // upstream key) the agent's credentials.
  http::request<http::string_body> ForwardOf(const http::request<http::string_body>& req,
                                             const std::string& target, std::string body) {
    http::request<http::string_body> fwd{req.method(), up.prefix + target, 11};
    for (const auto& f : req) {
      // Expect is answered here; forwarded, the upstream's "100 Continue" would be taken for
      // its response.
      if (HopByHop(f.name_string()) || beast::iequals(f.name_string(), "accept-encoding") ||
          beast::iequals(f.name_string(), "expect"))
        continue;
      if (!opt.upstream_api_key.empty() && (beast::iequals(f.name_string(), "authorization") ||
                                            beast::iequals(f.name_string(), "x-api-key")))
        continue;
      fwd.insert(f.name_string(), f.value());
    }
    const bool v6 = up.host.find(':') != std::string::npos;
    fwd.set(http::field::host, (v6 ? "[" + up.host + "]" : up.host) + ":" + up.port);
    fwd.set(http::field::accept_encoding, "identity");  // usage must be readable
    if (!opt.upstream_api_key.empty()) {
      fwd.set(http::field::authorization, "Bearer " + opt.upstream_api_key);
      fwd.set("x-api-key", opt.upstream_api_key);
    }
    fwd.keep_alive(false);
    fwd.body() = std::move(body);
    fwd.prepare_payload();
    return fwd;
  }

  // One try on a fresh upstream connection.
  Forwarded TryOnce(Exchange& x, http::request<http::string_body>& fwd) {
    if (up.tls) {
      TlsStream upstream(x.c.ioc, *tls);
      if (std::string why = ExpectPeer(upstream, up.host); !why.empty()) {
        return Done(
            Answer(x, 502, "upstream_error", "upstream inference server " + up.base + ": " + why),
            false);
      }
      return Relay(x, upstream, fwd);
    }
    beast::tcp_stream upstream(x.c.ioc);
    return Relay(x, upstream, fwd);
  }

  // Forwards `fwd`; an upstream that is not there, or answers 429, 502, 503 or 504 before
  // anything was relayed, is waited out for up to the outage wait, then answered 502.
  bool ForwardWaitingOutOutages(Exchange& x, http::request<http::string_body>& fwd) {
    const OutagePolicy& policy = opt.outage;
    Backoff backoff(policy);
    std::optional<Clock::time_point> first_failure;
    for (;;) {
      Forwarded f = TryOnce(x, fwd);
      if (f.done) {
        if (f.upstream_answered) UpstreamBack();
        return f.keep;
      }
      const auto now = Clock::now();
      if (!first_failure) first_failure = now;
      const double waited = std::chrono::duration<double>(now - *first_failure).count();
      if (policy.wait_s > 0) UpstreamDown(f.failure);
      if (waited >= policy.wait_s || stopping) {
        if (policy.wait_s > 0) UpstreamGaveUp(x.rec.episode);
        std::string message = f.failure;
        if (policy.wait_s > 0) {
          message += " (waited " + std::to_string(std::lround(waited)) + " s, the outage wait)";
        }
        return Answer(x, 502, "upstream_error", message);
      }
      const double nap = std::min(backoff.next(f.retry_after_s), policy.wait_s - waited);
      if (!pause(nap, nullptr, [this] { return stopping.load(); })) {
        return Answer(x, 502, "upstream_error", f.failure + " (the proxy is stopping)");
      }
    }
  }

  // The upstream's state between requests: an outage starts at the first failed try of any
  // request and ends at the first answer.
  void UpstreamDown(const std::string& why) {
    std::lock_guard lock(ep_mu);
    down.down(unix_now());
    down_reason = why;
  }
  void UpstreamBack() {
    std::lock_guard lock(ep_mu);
    down.up(unix_now());
    down_reason.clear();
  }
  void UpstreamGaveUp(const std::string& episode) {
    bool fire = false;
    {
      std::lock_guard lock(ep_mu);
      EpisodeState& s = episodes[episode];
      if (!s.gave_up) fire = s.gave_up = true;
    }
    if (fire && opt.on_upstream_outage) opt.on_upstream_outage(episode);
  }

  // GET /hpcab/usage: the current episode's totals, for the agent tools (judge_client.cc sends
  // them with each score and submit). Not a model request, so not recorded or counted.
  bool AnswerUsage(Conn& c, beast::tcp_stream& client, const http::request<http::string_body>& req,
                   const std::string& episode) {
    const bool keep_alive = req.keep_alive();
    const bool head = req.method() == http::verb::head;
    if (req.method() != http::verb::get && !head) {
      return SendSimple(
          c, client, 405, keep_alive, head,
          ErrorBody(Api::kOpenAI, "invalid_request_error",
                    "/hpcab/usage takes GET, not " + std::string(req.method_string())));
    }
    json j;
    {
      std::lock_guard lock(ep_mu);
      auto it = episodes.find(episode);
      const EpisodeState s = it == episodes.end() ? EpisodeState{} : it->second;
      j = {{"episode", episode},
           {"requests", s.totals.requests},
           {"input", s.totals.usage.input},
           {"cached", s.totals.usage.cached},
           {"output", s.totals.usage.output},
           {"weighted", s.totals.weighted},
           {"budget", s.budget},
           {"exhausted", s.exhausted()}};
    }
    return SendSimple(c, client, 200, keep_alive, head, j.dump());
  }

  // POST /hpcab/search {"query": "..."}: the search tool (harness/search.h). Not a model
  // request: never metered or charged to the token budget, recorded with record_search.
  bool AnswerSearch(Conn& c, beast::tcp_stream& client, const http::request<http::string_body>& req,
                    const std::string& episode) {
    const auto t0 = Clock::now();
    SearchRecord rec;
    rec.episode = episode;
    rec.started_unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
    SearchOutcome outcome;
    if (req.method() != http::verb::post) {
      outcome.error = SearchError::kBadRequest;
      outcome.message = "/hpcab/search takes POST, not " + std::string(req.method_string());
    } else {
      const json j = json::parse(req.body(), nullptr, /*allow_exceptions=*/false);
      const bool has_query = j.is_object() && j.contains("query") && j["query"].is_string();
      if (has_query) rec.query = j["query"].get<std::string>();
      outcome = SearchFor(rec.query, has_query, episode);
    }
    const json answer = search_answer(rec.query, outcome);
    rec.status = search_error_status(outcome.error);
    rec.error_code = search_error_code(outcome.error);
    rec.results_json = answer.contains("results") ? answer["results"].dump() : "[]";
    rec.kept = static_cast<int>(outcome.results.size());
    rec.dropped = outcome.dropped;
    rec.latency_s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (sink) sink->record_search(rec);  // before the agent sees the answer, as for requests
    return SendSimple(c, client, rec.status, req.keep_alive(), false, answer.dump());
  }

  // The outcome of one search of `episode` (counted against its SEARCH_MAX_QUERIES unless the
  // request is malformed or search is off).
  SearchOutcome SearchFor(const std::string& query, bool well_formed, const std::string& episode) {
    SearchOutcome refused;
    if (opt.search.url.empty()) {
      refused.error = SearchError::kDisabled;
      refused.message = "this arm gives no search tool";
      return refused;
    }
    if (!well_formed) {
      refused.error = SearchError::kBadRequest;
      refused.message = "the body must be a JSON object {\"query\": \"...\"}";
      return refused;
    }
    {
      std::lock_guard lock(ep_mu);
      int& n = episodes[episode].searches;
      if (n >= opt.search.max_queries) {
        refused.error = SearchError::kLimit;
        refused.message = "this episode has used its " + std::to_string(opt.search.max_queries) +
                          " search queries";
        return refused;
      }
      ++n;
    }
    return run_search(opt.search, query,
                      opt.search_fetch ? opt.search_fetch : http_search_fetch(opt.search));
  }

  // What the relayed body tells the meter: usage (streamed or whole) and, of a 4xx answer to a
  // model request, whether it reports a context overflow.
  struct BodyTap {
    BodyTap(const Route& r, bool sse_body, bool keep_error_body, std::size_t max_whole)
        : route(r),
          sse(sse_body),
          keep_error(keep_error_body),
          max_whole_bytes(max_whole),
          scanner(FormatOf(r)) {}
    static WireFormat FormatOf(const Route& r) {
      return r.api == Api::kAnthropic ? WireFormat::kAnthropic
             : r.responses            ? WireFormat::kResponses
                                      : WireFormat::kOpenAI;
    }
    void feed(std::string_view piece) {
      if (route.metered) {
        if (sse) {
          scanner.feed(piece);
        } else if (whole.size() + piece.size() <= max_whole_bytes) {
          whole.append(piece);
        }
      }
      if (keep_error && error_body.size() < kMaxErrorBody)
        error_body.append(piece.substr(0, kMaxErrorBody - error_body.size()));
    }
    // Into the record, once the body has ended.
    void finish(RequestRecord& rec) {
      if (route.metered) {
        if (sse) {
          rec.usage = scanner.finish();
        } else {
          rec.usage = usage_from_body(FormatOf(route), whole);
        }
        if (rec.usage.seen) rec.source = TokenSource::kReported;
      }
      if (keep_error) rec.context_overflow = context_overflow_error(rec.status, error_body);
    }
    // The response's output text (usage.h response_text, SseUsageScanner::text).
    std::string output_text() const { return sse ? scanner.text() : response_text(whole); }
    const Route& route;
    bool sse, keep_error;
    std::size_t max_whole_bytes;
    SseUsageScanner scanner;
    std::string whole;       // a non-streamed body, to read usage from at the end
    std::string error_body;  // an error answer's body
  };

  // Connects to the upstream (TLS handshake for https) and sends `fwd`; the failure, or nullopt.
  template <typename Stream>
  std::optional<Forwarded> SendUpstream(Conn& c, Stream& upstream,
                                        http::request<http::string_body>& fwd,
                                        const std::string& where) {
    beast::tcp_stream& tcp_layer = beast::get_lowest_layer(upstream);
    tcp::resolver resolver(c.ioc);
    beast::error_code ec;
    const auto endpoints = resolver.resolve(up.host, up.port, ec);
    if (ec) return Retry(where + " unreachable: resolve: " + ec.message());
    tcp_layer.expires_after(Secs(opt.connect_timeout_s));
    ec = Await(c, [&](auto h) { tcp_layer.async_connect(endpoints, h); });
    if (ec) return Retry(where + " unreachable: connect: " + ec.message());
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      tcp_layer.expires_after(Secs(opt.connect_timeout_s));
      ec = Await(c, [&](auto h) { upstream.async_handshake(asio::ssl::stream_base::client, h); });
      if (ec) {
        std::string why = ec == beast::error::timeout ? std::string("timed out") : ec.message();
        // "certificate verify failed" alone does not say why; OpenSSL's verify result does.
        const long verify = SSL_get_verify_result(upstream.native_handle());
        if (verify != X509_V_OK)
          why += std::string(" (") + X509_verify_cert_error_string(verify) + ")";
        return Retry(where + " unreachable: TLS handshake: " + why);
      }
    }
    tcp_layer.expires_after(Secs(opt.upstream_idle_s));
    ec = Await(c, [&](auto h) { http::async_write(upstream, fwd, h); });
    if (ec) return Retry(where + " failed: sending: " + ec.message());
    return std::nullopt;
  }

  // The header relayed to the agent: the upstream's without hop-by-hop fields, chunked (a HEAD
  // answer keeps the Content-Length GET would send).
  static http::response<http::empty_body> RelayedHead(const http::response<http::buffer_body>& uh,
                                                      bool head, bool keep_alive) {
    http::response<http::empty_body> res{uh.result(), 11};
    for (const auto& f : uh) {
      if (HopByHop(f.name_string())) continue;
      res.insert(f.name_string(), f.value());
    }
    if (!head) {
      res.chunked(true);
    } else if (uh.count(http::field::content_length) > 0 && !uh.chunked()) {
      res.set(http::field::content_length, uh[http::field::content_length]);
    }
    res.keep_alive(keep_alive);
    return res;
  }

  // Connects to the upstream, sends `fwd`, and relays the answer to the agent piece by piece.
  // `Stream` is beast::tcp_stream or TlsStream. A failure before anything reached the agent (no
  // connection, no answer, or a transient status while outages are waited out) is returned
  // undone, for Handle to retry; nothing was recorded then.
  template <typename Stream>
  Forwarded Relay(Exchange& x, Stream& upstream, http::request<http::string_body>& fwd) {
    Conn& c = x.c;
    beast::tcp_stream& tcp_layer = beast::get_lowest_layer(upstream);
    const std::string where = "upstream inference server " + up.base;
    if (auto failed = SendUpstream(c, upstream, fwd, where)) return std::move(*failed);

    beast::flat_buffer ubuf;
    http::response_parser<http::buffer_body> rp;
    rp.body_limit(std::numeric_limits<std::uint64_t>::max());  // not boost::none: 1.74 bug
    // An answer to HEAD is a header only, whatever its Content-Length says; relayed the same way.
    const bool head = fwd.method() == http::verb::head;
    rp.skip(head);
    rp.header_limit(static_cast<std::uint32_t>(opt.max_header_bytes));
    tcp_layer.expires_after(Secs(opt.upstream_idle_s));
    beast::error_code ec =
        Await(c, [&](auto h) { http::async_read_header(upstream, ubuf, rp, h); });
    if (ec) {
      return Retry(where + " gave no response: " +
                   (ec == beast::error::timeout ? std::string("timed out") : ec.message()));
    }
    const auto& uh = rp.get();
    if (opt.outage.wait_s > 0 && transient_status(static_cast<int>(uh.result_int()))) {
      // Not now (overloaded, restarting behind a gateway): waited out like no answer. The body
      // is not read; the connection is closed.
      HttpResult h;
      h.status = static_cast<int>(uh.result_int());
      if (uh.count(http::field::retry_after) > 0) {
        h.headers["retry-after"] = std::string(uh[http::field::retry_after]);
      }
      Forwarded f = Retry(where + " answered HTTP " + std::to_string(h.status));
      f.retry_after_s = retry_after_s(h);
      return f;
    }
    RequestRecord& rec = x.rec;
    rec.first_byte_s = std::chrono::duration<double>(Clock::now() - x.t0).count();
    rec.status = static_cast<int>(uh.result_int());
    http::response<http::empty_body> res = RelayedHead(uh, head, x.keep_alive);
    BodyTap tap(
        x.route, beast::iequals(uh[http::field::content_type].substr(0, 17), "text/event-stream"),
        x.route.metered && rec.status >= 400 && rec.status <= 499, opt.max_usage_body_bytes);

    http::response_serializer<http::empty_body> sr{res};
    x.client.expires_after(Secs(opt.client_timeout_s));
    ec = Await(c, [&](auto h) { http::async_write_header(x.client, sr, h); });
    bool client_ok = !ec;
    const bool upstream_ok = client_ok ? RelayBody(x, upstream, ubuf, rp, tap, &client_ok) : true;
    tap.finish(rec);
    if (x.route.metered && !rec.usage.seen && upstream_ok && !head && rec.status >= 200 &&
        rec.status <= 299)
      CountUsage(x.input_text, tap.output_text(), rec);
    beast::error_code ignored;
    tcp_layer.socket().shutdown(tcp::socket::shutdown_both, ignored);
    tcp_layer.close();
    // Recorded before the last chunk goes out: once the agent (or a test) has the whole
    // response, its tokens are in the totals and an exhausted budget or a context overflow has
    // been reported.
    rec.latency_s = std::chrono::duration<double>(Clock::now() - x.t0).count();
    Finish(rec);
    if (client_ok && upstream_ok && !head) {
      x.client.expires_after(Secs(opt.client_timeout_s));
      beast::error_code wec =
          Await(c, [&](auto h) { asio::async_write(x.client, http::make_chunk_last(), h); });
      if (wec) client_ok = false;
    }
    // A truncated response must not look complete: the connection closes without the last chunk.
    return Done(client_ok && upstream_ok && x.keep_alive, true);
  }

  // Relays the upstream's body to the agent as chunks through `tap`; whether the upstream
  // finished it. `client_ok` turns false when the agent went away.
  template <typename Stream>
  bool RelayBody(Exchange& x, Stream& upstream, beast::flat_buffer& ubuf,
                 http::response_parser<http::buffer_body>& rp, BodyTap& tap, bool* client_ok) {
    beast::tcp_stream& tcp_layer = beast::get_lowest_layer(upstream);
    char buf[16384];
    while (*client_ok && !rp.is_done()) {
      rp.get().body().data = buf;
      rp.get().body().size = sizeof buf;
      tcp_layer.expires_after(Secs(opt.upstream_idle_s));
      beast::error_code ec =
          Await(x.c, [&](auto h) { http::async_read_some(upstream, ubuf, rp, h); });
      if (ec == http::error::need_buffer) ec = {};
      if constexpr (std::is_same_v<Stream, TlsStream>) {
        // A server that ends its body by closing without close_notify: complete if the body
        // was delimited by the connection's end, an error otherwise.
        if (ec == asio::ssl::error::stream_truncated) {
          ec = {};
          rp.put_eof(ec);
        }
      }
      const std::size_t n = sizeof buf - rp.get().body().size;
      if (n > 0) {
        tap.feed(std::string_view(buf, n));
        x.client.expires_after(Secs(opt.client_timeout_s));
        beast::error_code wec = Await(x.c, [&](auto h) {
          asio::async_write(x.client, http::make_chunk(asio::buffer(buf, n)), h);
        });
        if (wec) {
          *client_ok = false;
          x.rec.error = "agent disconnected during the response: " + wec.message();
        }
      }
      if (ec) {
        x.rec.error =
            "upstream inference server " + up.base + " broke off the response: " + ec.message();
        return false;
      }
    }
    return true;
  }

  static Forwarded Done(bool keep, bool upstream_answered) {
    Forwarded f;
    f.done = true;
    f.keep = keep;
    f.upstream_answered = upstream_answered;
    return f;
  }
  static Forwarded Retry(std::string why) {
    Forwarded f;
    f.failure = std::move(why);
    return f;
  }

  // A successful response that reported no usage: the proxy's own count (ProxyOptions::tokenizer).
  void CountUsage(const std::string& input, const std::string& output, RequestRecord& rec) {
    rec.usage.input = counter.count(input);
    rec.usage.cached = 0;
    rec.usage.output = counter.count(output);
    rec.source = counter.source();
  }

  // Totals, the budget check and the sink.
  void Finish(RequestRecord& rec) {
    rec.weighted = opt.weights.cost(rec.usage);
    bool fire = false;
    bool fire_overflow = false;
    {
      std::lock_guard lock(ep_mu);
      EpisodeState& s = episodes[rec.episode];
      ++s.totals.requests;
      s.totals.usage += rec.usage;
      s.totals.weighted += rec.weighted;
      if (s.exhausted() && !s.fired) {
        s.fired = true;
        fire = true;
      }
      if (rec.context_overflow && !s.overflowed) {
        s.overflowed = true;
        fire_overflow = true;
      }
    }
    if (sink != nullptr) sink->record(rec);
    if (fire && opt.on_budget_exhausted) opt.on_budget_exhausted(rec.episode);
    if (fire_overflow && opt.on_context_overflow) opt.on_context_overflow(rec.episode);
  }
};

MeteringProxy::MeteringProxy(ProxyOptions options, UsageSink* sink)
    : impl_(std::make_unique<Impl>(std::move(options), sink)) {}

MeteringProxy::~MeteringProxy() { stop(); }

Result<std::uint16_t> MeteringProxy::start(std::uint16_t port) {
  Impl& m = *impl_;
  if (m.started) return Error{"the metering proxy is already started"};
  auto up = ParseUpstream(m.opt.upstream_url);
  if (!up) return up.error();
  m.up = *up;
  if (m.up.tls) {
    auto tls = MakeUpstreamTlsContext(m.opt.upstream_ca_file);
    if (!tls) return tls.error();
    m.tls = std::move(*tls);
  }
  beast::error_code ec;
  m.acceptor.emplace(m.accept_ioc);
  const tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), port);
  m.acceptor->open(ep.protocol(), ec);
  if (!ec) m.acceptor->set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) m.acceptor->bind(ep, ec);
  if (!ec) m.acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    return Error{"metering proxy cannot listen on 127.0.0.1:" + std::to_string(port) + ": " +
                 ec.message()};
  m.port = m.acceptor->local_endpoint().port();
  m.started = true;
  m.Accept();
  m.accept_thread = std::thread([&m] { m.accept_ioc.run(); });
  return m.port;
}

void MeteringProxy::stop() {
  Impl& m = *impl_;
  if (!m.started || m.stopped) return;
  m.stopped = true;
  m.stopping = true;
  asio::post(m.accept_ioc, [&m] {
    beast::error_code ec;
    m.acceptor->close(ec);
  });
  m.accept_thread.join();  // returns once the cancelled accept has run its handler
  std::lock_guard lock(m.conns_mu);
  for (auto& c : m.conns) c->ioc.stop();
  for (auto& c : m.conns) c->thread.join();
  m.conns.clear();
}

std::uint16_t MeteringProxy::port() const { return impl_->port; }

void MeteringProxy::set_episode(const std::string& episode, double budget) {
  std::lock_guard lock(impl_->ep_mu);
  impl_->current_episode = episode;
  auto& state = impl_->episodes[episode];
  if (state.budget != budget) state.fired = false;  // a new budget can be exhausted anew
  state.budget = budget;
  state.overflowed = false;  // a new attempt can overflow anew
  state.gave_up = false;     // and wait out an outage anew
}

std::optional<double> MeteringProxy::upstream_down_since() const {
  std::lock_guard lock(impl_->ep_mu);
  return impl_->down.since();
}

double MeteringProxy::upstream_down_seconds(double from, double to) const {
  std::lock_guard lock(impl_->ep_mu);
  return impl_->down.seconds(from, to);
}

std::string MeteringProxy::upstream_url() const { return impl_->opt.upstream_url; }

bool MeteringProxy::upstream_gave_up(const std::string& episode) const {
  std::lock_guard lock(impl_->ep_mu);
  auto it = impl_->episodes.find(episode);
  return it != impl_->episodes.end() && it->second.gave_up;
}

EpisodeTotals MeteringProxy::totals(const std::string& episode) const {
  std::lock_guard lock(impl_->ep_mu);
  auto it = impl_->episodes.find(episode);
  return it == impl_->episodes.end() ? EpisodeTotals{} : it->second.totals;
}

bool MeteringProxy::budget_exhausted(const std::string& episode) const {
  std::lock_guard lock(impl_->ep_mu);
  auto it = impl_->episodes.find(episode);
  return it != impl_->episodes.end() && it->second.exhausted();
}

bool MeteringProxy::context_overflowed(const std::string& episode) const {
  std::lock_guard lock(impl_->ep_mu);
  auto it = impl_->episodes.find(episode);
  return it != impl_->episodes.end() && it->second.overflowed;
}

}  // namespace hpcab::harness
