// Token accounting for the metering proxy: what one model request cost, how the costs of an
// episode add up, where the records go, and the pure functions that read usage out of OpenAI
// and Anthropic responses (JSON bodies and SSE streams). See docs/harness.md.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "harness/tokenizer.h"

namespace hpcab::harness {

// Token counts of one response, in the proxy's definitions (both APIs are normalized to them):
//   input  = prompt tokens read without a cache hit (OpenAI: prompt_tokens - cached_tokens;
//            Anthropic: input_tokens + cache_creation_input_tokens),
//   cached = prompt tokens served from the prompt cache (OpenAI: cached_tokens; Anthropic:
//            cache_read_input_tokens),
//   output = generated tokens (OpenAI: completion_tokens; Anthropic: output_tokens).
// So input + cached is the whole prompt, and no token is counted twice.
struct TokenUsage {
  std::int64_t input = 0;
  std::int64_t cached = 0;
  std::int64_t output = 0;
  bool seen = false;  // the response carried a usage object at all

  TokenUsage& operator+=(const TokenUsage& o);
};

// Weighted cost = input * w_input + cached * w_cached + output * w_output (SPEC §6 defaults).
struct TokenWeights {
  double input = 1.0;
  double cached = 0.1;
  double output = 1.0;

  double cost(const TokenUsage& u) const;
};

// One request through the proxy, successful or not (refused, upstream down, ...).
struct RequestRecord {
  std::string episode;
  std::string api;       // "openai" or "anthropic"
  std::string endpoint;  // "/v1/chat/completions", ...
  std::string model;     // from the request body ("" for /v1/models)
  bool stream = false;
  TokenUsage usage;
  double weighted = 0;      // TokenWeights::cost(usage)
  double latency_s = 0;     // request received -> whole body relayed (or error answer ready)
  double first_byte_s = 0;  // request received -> response header from upstream
  int status = 0;           // the status the agent saw (402 budget, 502 upstream down, ...)
  std::string error;        // why the proxy answered by itself or the exchange broke; else ""
  // Where `usage` came from: the response's usage object (kReported), or, for a successful
  // model response without one, the proxy's own count of the request's and the response's text
  // (kCounted with the arm's TOKENIZER, kEstimated without); kNone when nothing was metered.
  TokenSource source = TokenSource::kNone;
  // The upstream refused the request because the prompt exceeds the model's context window
  // (context_overflow_error() in proxy.h); the refusal was relayed to the agent as it was.
  bool context_overflow = false;
  std::int64_t started_unix_ms = 0;
};

// One query of the search tool through the proxy (harness/search.h), answered or refused.
struct SearchRecord {
  std::string episode;
  std::string query;
  int status = 0;            // the status the agent saw
  std::string error_code;    // search_error_code(); '' when answered
  std::string results_json;  // the results the agent got, a JSON array of {title, url, snippet}
  int kept = 0;
  int dropped = 0;  // outside SEARCH_DOMAINS or beyond SEARCH_RESULTS
  double latency_s = 0;
  std::int64_t started_unix_ms = 0;
};

// Where per-request records go (the episode database implements this). Called from the proxy's
// connection threads, possibly concurrently: implementations must be thread-safe.
class UsageSink {
 public:
  virtual ~UsageSink() = default;
  virtual void record(const RequestRecord& r) = 0;
  // Every search query (docs/harness.md "Search"); sinks that keep only tokens ignore it.
  virtual void record_search(const SearchRecord&) {}
};

// Running totals of one episode.
struct EpisodeTotals {
  std::int64_t requests = 0;
  TokenUsage usage;
  double weighted = 0;
};

// Keeps every record in memory (tests, the demo, small runs).
class MemoryUsageSink : public UsageSink {
 public:
  void record(const RequestRecord& r) override;
  void record_search(const SearchRecord& r) override;
  std::vector<RequestRecord> records() const;
  std::vector<SearchRecord> searches() const;
  EpisodeTotals totals(const std::string& episode) const;

 private:
  mutable std::mutex mu_;
  std::vector<RequestRecord> records_;
  std::vector<SearchRecord> searches_;
};

// Forwards each record to a function (the harness's database writer, a logger).
class CallbackUsageSink : public UsageSink {
 public:
  explicit CallbackUsageSink(std::function<void(const RequestRecord&)> fn) : fn_(std::move(fn)) {}
  void record(const RequestRecord& r) override { fn_(r); }

 private:
  std::function<void(const RequestRecord&)> fn_;
};

// The wire formats that report token usage, one reader each: OpenAI chat and completions
// (`usage.prompt_tokens` including `prompt_tokens_details.cached_tokens`,
// `usage.completion_tokens`), Anthropic messages (`input_tokens` + `cache_creation_input_tokens`,
// `cache_read_input_tokens`, `output_tokens`), and OpenAI's Responses API (/v1/responses, what
// Codex speaks: `input_tokens` including `input_tokens_details.cached_tokens`,
// `output_tokens`).
enum class WireFormat { kOpenAI, kAnthropic, kResponses };

// A raw `usage` object of `format` as a TokenUsage (seen == false when it is not an object).
TokenUsage usage_from_json(WireFormat format, const nlohmann::json& usage);
// Usage of a whole (non-streamed) response body. Unparsable bodies and bodies without `usage`
// give a usage with seen == false.
TokenUsage usage_from_body(WireFormat format, std::string_view body);

// The text a model request's input tokens are counted from when its response reports no usage
// (docs/harness.md "Tokens without usage counts"): the strings of `system`, `instructions`,
// `messages`, `input` (Responses) and `prompt` (completions), tool calls' arguments and tool
// results included, each string followed by a newline, and the `tools` definitions as compact
// JSON. Left out: identifiers and markers (role, type, id, tool_call_id, call_id, cache_control,
// signature, status, ...) and images (source, image_url). No per-message framing tokens are
// added. An object-valued `input` or `arguments` (an Anthropic tool_use block) counts as its
// compact JSON.
std::string request_text(const nlohmann::json& body);
// The output text of a whole (non-streamed) response body, by the same rules: OpenAI `choices`
// (message content, reasoning_content, tool calls' names and arguments; completions' text),
// Anthropic `content` blocks (text, thinking, tool_use name and input), Responses `output` items.
// "" for a body that is not JSON.
std::string response_text(std::string_view body);

class SseUsageScanner {
 public:
  using Api = WireFormat;
  explicit SseUsageScanner(WireFormat format) : api_(format) {}
  void feed(std::string_view bytes);
  // Flushes a last line without a newline.
  TokenUsage finish();
  const TokenUsage& usage() const { return usage_; }
  // The stream's output text (response_text's rules over the deltas: OpenAI `choices[].delta`
  // and `choices[].text`; Anthropic `content_block_start` and `content_block_delta`; Responses:
  // the `output` of the last event carrying a whole response), for counting when the stream
  // reports no usage. Kept up to 64 MiB.
  const std::string& text() const { return text_; }

 private:
  void line(std::string_view l);
  void data(std::string_view d);

  WireFormat api_;
  void collect_text(const nlohmann::json& j);

  std::string pending_;
  std::string text_;
  TokenUsage usage_;
  // Anthropic raw fields, combined into usage_ after each event.
  std::int64_t a_input_ = 0, a_creation_ = 0, a_read_ = 0, a_output_ = 0;
  static constexpr std::size_t kMaxLine = 16u << 20;
};

}  // namespace hpcab::harness
