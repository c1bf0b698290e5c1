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
  // The upstream refused the request because the prompt exceeds the model's context window
  // (context_overflow_error() in proxy.h); the refusal was relayed to the agent as it was.
  bool context_overflow = false;
  std::int64_t started_unix_ms = 0;
};

// Where per-request records go (the episode database implements this). Called from the proxy's
// connection threads, possibly concurrently: implementations must be thread-safe.
class UsageSink {
 public:
  virtual ~UsageSink() = default;
  virtual void record(const RequestRecord& r) = 0;
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
  std::vector<RequestRecord> records() const;
  EpisodeTotals totals(const std::string& episode) const;

 private:
  mutable std::mutex mu_;
  std::vector<RequestRecord> records_;
};

// Forwards each record to a function (the harness's database writer, a logger).
class CallbackUsageSink : public UsageSink {
 public:
  explicit CallbackUsageSink(std::function<void(const RequestRecord&)> fn) : fn_(std::move(fn)) {}
  void record(const RequestRecord& r) override { fn_(r); }

 private:
  std::function<void(const RequestRecord&)> fn_;
};

// Usage of a whole (non-streamed) response body. Unparsable bodies and bodies without `usage`
// give a usage with seen == false.
TokenUsage openai_usage_from_body(std::string_view body);
TokenUsage anthropic_usage_from_body(std::string_view body);
// OpenAI Responses API (/v1/responses, what Codex speaks): `usage.input_tokens` includes the
// cached ones (`usage.input_tokens_details.cached_tokens`), `usage.output_tokens`.
TokenUsage responses_usage_from_body(std::string_view body);

// Reads usage from an SSE stream fed in arbitrary pieces (chunk boundaries need not match event
// boundaries). OpenAI: every `data:` JSON with a non-null `usage` replaces the previous one (the
// final chunk carries it when stream_options.include_usage is set). Anthropic: `message_start`
// carries message.usage (input side, and a provisional output count), `message_delta` carries
// usage with the cumulative output count; each field takes its latest value.
class SseUsageScanner {
 public:
  enum class Api { kOpenAI, kAnthropic, kResponses };
  explicit SseUsageScanner(Api api) : api_(api) {}
  void feed(std::string_view bytes);
  // Flushes a last line without a newline.
  TokenUsage finish();
  const TokenUsage& usage() const { return usage_; }

 private:
  void line(std::string_view l);
  void data(std::string_view d);

  Api api_;
  std::string pending_;
  TokenUsage usage_;
  // Anthropic raw fields, combined into usage_ after each event.
  std::int64_t a_input_ = 0, a_creation_ = 0, a_read_ = 0, a_output_ = 0;
  static constexpr std::size_t kMaxLine = 16u << 20;
};

// Applies the raw usage object of either API to a TokenUsage (exposed for tests).
TokenUsage openai_usage_from_json(const nlohmann::json& usage);
TokenUsage anthropic_usage_from_json(const nlohmann::json& usage);
TokenUsage responses_usage_from_json(const nlohmann::json& usage);

}  // namespace hpcab::harness
