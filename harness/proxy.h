// The token-metering proxy (SPEC §6). Agents reach the model only through it: it
// listens on loopback, forwards the OpenAI and Anthropic endpoints to one upstream inference URL
// (http or https; streamed responses pass through chunk by chunk), reads each response's usage,
// records it per request through a UsageSink, keeps running totals per episode, refuses requests
// once the current episode's weighted token budget is spent, reports an upstream's "prompt exceeds
// the context window" refusal, answers GET /hpcab/usage with the current episode's totals
// (the agent tools send them to the judge) and, for arms with the search tool, POST /hpcab/search
// (harness/search.h). See docs/harness.md.
//
// One proxy per worker: a worker runs one episode at a time, so the proxy attributes every
// request to the episode set by set_episode() when the request arrives. The agent's base URL is
// http://127.0.0.1:<port>/v1 (OpenAI) or http://127.0.0.1:<port> (Anthropic), and nothing in the
// request needs to name the episode.
//
// Threads: an accept thread plus one thread per connection (at most max_connections), with
// socket timeouts on every read and write. The sink and the callbacks are called from connection
// threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "harness/outage.h"
#include "harness/search.h"
#include "harness/usage.h"

namespace hpcab::harness {

struct ProxyOptions {
  // Upstream inference server: http://host[:port] or https://host[:port], with an optional path
  // prefix. A trailing "/v1" is dropped, so the worker's OpenAI-style base URL can be given as
  // is. https: TLS 1.2 or later, SNI set for host names, and the server's certificate must chain
  // to a trusted CA and name the host (DNS name or IP address); there is no way to turn
  // verification off.
  std::string upstream_url;
  // https only: a PEM file of CA certificates trusted in addition to the system's store (a
  // private CA, or a test's throwaway certificate). Unreadable: start() fails.
  std::string upstream_ca_file;
  // When non-empty, replaces the agent's credentials upstream: `Authorization: Bearer <key>` and
  // `x-api-key: <key>`. The agent then only ever holds a dummy key.
  std::string upstream_api_key;
  TokenWeights weights;
  // A successful model response without usage counts (docs/harness.md "Tokens without usage
  // counts") is metered by the proxy's own count of the request's and the response's text
  // (request_text, response_text in usage.h): with this tokenizer (the arm's TOKENIZER; records
  // are TokenSource::kCounted), or, when null, estimate_tokens (kEstimated). Cached: 0.
  std::shared_ptr<const BpeTokenizer> tokenizer;
  std::size_t max_body_bytes = 32u << 20;  // request bodies (long contexts are big); above: 413
  std::size_t max_header_bytes = 64u << 10;
  int max_connections = 64;       // above: 503
  double client_timeout_s = 60;   // each read or write from or to the agent
  double connect_timeout_s = 10;  // to the upstream
  double upstream_idle_s = 600;   // longest silence from the upstream (first token included)
  std::size_t max_usage_body_bytes = 64u << 20;  // non-streamed bodies kept to read usage from
  // Called once per episode, from the connection thread whose response took the episode's
  // weighted cost to its budget or beyond. The harness stops the episode (exit 125).
  std::function<void(const std::string& episode)> on_budget_exhausted;
  // Called from the connection thread whose metered request the upstream refused because the
  // prompt does not fit the model's context window (see context_overflow_error() for the forms
  // recognised), once per episode: later overflows of the same episode only mark their records,
  // until set_episode() names the episode again. The refusal is still relayed to the agent
  // unchanged, and recorded (RequestRecord::context_overflow) before its last byte is sent. The
  // harness stops the episode (exit 126).
  std::function<void(const std::string& episode)> on_context_overflow;
  // Outages of the upstream (docs/harness.md "Outages"): a request the upstream does not answer
  // (no connection, no response header) or answers 429/502/503/504 is tried again with backoff,
  // the agent's connection held, for up to outage.wait_s from the request's first failure; then
  // the agent gets 502 upstream_error and on_upstream_outage(episode) is called, once per
  // episode until set_episode() names it again (the harness ends the attempt as an
  // infrastructure failure). 0 (the default here; the harness passes the arm's OUTAGE_WAIT_S):
  // no waiting, answers are relayed as they come and a failed connection is a 502 at once.
  OutagePolicy outage = [] {
    OutagePolicy p;
    p.wait_s = 0;
    return p;
  }();
  std::function<void(const std::string& episode)> on_upstream_outage;
  // The search tool (harness/search.h): POST /hpcab/search with {"query": "..."} asks
  // search.url for the current episode, at most search.max_queries per episode, and records
  // every query, answered or refused, with UsageSink::record_search. search.url empty: 404
  // search_disabled. `search_fetch` empty: real HTTP (http_search_fetch).
  SearchConfig search;
  SearchFetch search_fetch;
};

// Whether an upstream's answer (its status and body as received) is a refusal because the
// prompt exceeds the model's context window. Only 4xx statuses can be. Recognised, in the JSON
// body's strings (any nesting; the raw text if the body is not JSON), case-insensitively:
//   OpenAI           code "context_length_exceeded"; "This model's maximum context length is ..."
//   vLLM             "This model's maximum context length is ...", "... is longer than the
//                    maximum model length of ..."
//   SGLang, Together "The input (N tokens) is longer than the model's context length (M tokens)",
//                    "... exceeds the model's maximum context length of ..."
//   Anthropic        "prompt is too long: N tokens > M maximum", "input length and `max_tokens`
//                    exceed context limit: ..."
// Other 4xx answers (max_tokens above the model's output limit, authentication, rate limits) are
// not.
bool context_overflow_error(int status, std::string_view body);

class MeteringProxy {
 public:
  // `sink` may be null (totals are still kept); it must outlive the proxy.
  MeteringProxy(ProxyOptions options, UsageSink* sink);
  ~MeteringProxy();  // stop()
  MeteringProxy(const MeteringProxy&) = delete;
  MeteringProxy& operator=(const MeteringProxy&) = delete;

  // Binds 127.0.0.1:port (0: any free port) and starts serving. Returns the bound port; an
  // Error for a bad upstream URL or a bind failure.
  Result<std::uint16_t> start(std::uint16_t port = 0);
  // Closes the listener and every connection (in-flight streams are cut) and joins the
  // threads. Idempotent.
  void stop();
  std::uint16_t port() const;

  // Requests arriving from now on belong to `episode`, with a weighted token budget of
  // `budget` (<= 0: unlimited). Setting an episode seen before keeps its totals; giving it a
  // different budget re-arms on_budget_exhausted (a rerun with a larger limit); setting it at all
  // re-arms on_context_overflow (each attempt may overflow anew).
  void set_episode(const std::string& episode, double budget);
  EpisodeTotals totals(const std::string& episode) const;
  bool budget_exhausted(const std::string& episode) const;
  // Whether the upstream refused one of the episode's requests for context overflow since
  // set_episode() last named it.
  bool context_overflowed(const std::string& episode) const;
  // The upstream's current outage: when a try of a request first failed since the upstream last
  // answered (unix seconds); nullopt while it answers.
  std::optional<double> upstream_down_since() const;
  // Whether a request of the episode gave up waiting for the upstream since set_episode().
  bool upstream_gave_up(const std::string& episode) const;
  // How many seconds of [from, to] (unix) the upstream was down, as its requests saw it.
  double upstream_down_seconds(double from, double to) const;
  std::string upstream_url() const;  // ProxyOptions::upstream_url

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hpcab::harness
