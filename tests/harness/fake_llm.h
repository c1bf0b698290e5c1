// Test-only fake inference server speaking both dialects the metering proxy forwards: OpenAI
// (/v1/chat/completions, /v1/completions, /v1/responses, /v1/models) and Anthropic (/v1/messages,
// /v1/messages/count_tokens), JSON and SSE streaming in the wire formats the official SDKs and
// agent CLIs parse (chat streams open with delta.role; Responses streams carry the item events and
// a sequence_number on every event), with usage fields including cached tokens. Routes match the
// path without its query string (Claude Code posts /v1/messages?beta=true); HEAD answers are a
// header alone. In script mode (set_script) it answers with tool calls in order, in each API's
// own form, so a real agent's loop runs end to end. It counts the usage it reported, in the
// proxy's definitions (input = uncached prompt tokens, cached, output), so tests can compare the
// proxy's totals with what the "model" actually said. It can speak https (a test certificate),
// and answer with the error bodies real servers send, context-window overflows among them. It
// also serves GET /search?q=..., a SearxNG-style web-search endpoint for the search tool: four
// results for any query (gcc.gnu.org, www.evil.example, docs.python.org, gcc.gnu.org, in that
// order), each titled with the query, not counted in totals().
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace hpcab::test {

struct FakeTotals {
  // Completion, response and message requests answered (not /v1/models, not count_tokens).
  std::int64_t requests = 0;
  std::int64_t input = 0;  // uncached prompt tokens reported
  std::int64_t cached = 0;
  std::int64_t output = 0;
};

// One scripted tool call: the tool's name as the MCP server defines it ("score"); a request
// offering a tool of that name, or one ending in "__" + name (Claude Code's
// "mcp__hpcab__score"), or one of that name in a Responses namespace (Codex's "mcp__hpcab"),
// gets a call to it with these arguments.
struct ScriptStep {
  std::string tool;
  nlohmann::json arguments = nlohmann::json::object();
};

// A tiktoken-format vocabulary (harness/tokenizer.h) for tests of the proxy's own counts: every
// byte (ranks 0-255), then merges that make the fake's answer "Hello world" two tokens
// ("Hello", " world"), while "hi" stays two ("h", "i").
std::string hello_world_vocabulary();

class FakeLlm {
 public:
  // What the completions and messages endpoints answer instead of a completion (all 400, bodies
  // as the named servers send them).
  enum class Error {
    kNone,
    kOpenAIContextLength,     // OpenAI: code context_length_exceeded, "maximum context length"
    kVllmContextLength,       // vLLM (bare ErrorResponse): "maximum context length ... requested"
    kVllmMaxModelLen,         // vLLM: "The decoder prompt ... longer than the maximum model length"
    kSglangContextLength,     // SGLang: "The input (N tokens) is longer than the model's context"
    kAnthropicPromptTooLong,  // Anthropic: "prompt is too long: N tokens > M maximum"
    kOpenAIMaxTokens,         // not an overflow: max_tokens above the model's output limit
    kAnthropicMaxTokens,      // not an overflow: "max_tokens: N > M, which is the maximum ..."
  };

  FakeLlm() = default;
  ~FakeLlm();
  FakeLlm(const FakeLlm&) = delete;
  FakeLlm& operator=(const FakeLlm&) = delete;

  // Before start(): serve https with this certificate and key (PEM files).
  void use_tls(const std::string& cert_file, const std::string& key_file) {
    cert_file_ = cert_file;
    key_file_ = key_file;
  }
  // Listens on host:port (IPv4 address; port 0 picks a free one) and returns the port. After
  // stop() it may be started again (on the same port: a server that was down for a while).
  std::uint16_t start(std::uint16_t port = 0, const std::string& host = "127.0.0.1");
  void stop();
  std::uint16_t port() const { return port_; }
  // Every request from now on is answered 503 with Retry-After: 1 and not counted (a server
  // loading its model, or overloaded), until set_unavailable(false).
  void set_unavailable(bool u) { unavailable_ = u; }
  int unavailable_answers() const { return unavailable_answers_; }
  std::string url() const {
    return (cert_file_.empty() ? "http://" : "https://") + host_ + ":" + std::to_string(port_);
  }

  // Waits this long before answering each request (a slow model).
  void set_delay_ms(int ms) { delay_ms_ = ms; }
  // Streams pause after their first content event until release_stream() (or 10 s pass).
  void set_hold_streams(bool hold);
  void release_stream();
  // OpenAI streams stop dead after their first content event (no usage, no final chunk).
  void set_break_streams(bool brk) { break_ = brk; }
  // Responses from now on carry no usage (a server that does not report it): every `usage`
  // field of JSON bodies and stream events is left out, and totals() counts nothing for them.
  void set_omit_usage(bool omit) { omit_usage_ = omit; }
  // Every completion and message request from now on gets this error (kNone: answers again).
  void set_error(Error e) { error_ = e; }
  // Script mode: a request that offers tools gets the step whose index is the number of tool
  // calls already in its conversation (so the answer follows from the request alone, whatever
  // side requests a client interleaves), as a chat tool_calls message, a Responses function_call
  // item or an Anthropic tool_use block, streamed or not; once the conversation holds every
  // step, or when the step's tool is not offered, the answer is `final_text`. Requests without
  // tools (titles, summaries, quota probes) get the ordinary text. Usage is counted as always.
  // An empty script turns the mode off. With `skip_unoffered`, the steps whose tool a request
  // does not offer are left out before indexing, so one script serves arms with different tool
  // sets (an experiment's control and treatments against one fake).
  void set_script(std::vector<ScriptStep> steps, std::string final_text = "Done.",
                  bool skip_unoffered = false);
  // Tool calls answered in script mode so far (each scripted call once per answer).
  int script_calls() const { return script_calls_; }
  // count_tokens requests answered (not in totals: they generate nothing).
  int count_tokens_answers() const { return count_tokens_answers_; }
  // The body sent for `e`, byte for byte.
  static std::string error_body(Error e);
  // True when the last held stream was released by release_stream() rather than the timeout.
  bool last_hold_released() const { return last_hold_released_; }

  // The q of every GET /search so far, decoded.
  std::vector<std::string> search_queries() const {
    std::lock_guard lock(mu_);
    return search_queries_;
  }

  FakeTotals totals() const;
  std::string last_body() const;
  std::string last_header(const std::string& name) const;  // lower-case name; "" if absent
  std::string last_sni() const;  // https: the server name of the last handshake ("" if none)
  int tls_handshakes() const { return tls_handshakes_; }

 private:
  void serve(int fd);
  nlohmann::json SearchAnswer(const std::string& target);
  template <typename Stream>
  void exchange(Stream& stream);

  std::uint16_t port_ = 0;
  std::string host_ = "127.0.0.1";
  int listen_fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::thread accept_thread_;
  std::atomic<int> delay_ms_{0};
  std::atomic<bool> hold_{false};
  std::atomic<bool> break_{false};
  std::atomic<bool> unavailable_{false};
  std::atomic<bool> omit_usage_{false};
  std::atomic<int> unavailable_answers_{0};
  std::atomic<Error> error_{Error::kNone};
  std::string cert_file_, key_file_;
  std::atomic<int> tls_handshakes_{0};
  std::atomic<int> script_calls_{0};
  std::atomic<int> count_tokens_answers_{0};

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool released_ = false;
  std::atomic<bool> last_hold_released_{false};
  FakeTotals totals_;
  std::string last_body_;
  std::string last_headers_;  // "name: value\n" lines, lower-case names
  std::string last_sni_;
  std::vector<ScriptStep> script_;
  std::string script_final_;
  bool skip_unoffered_ = false;
  std::list<std::thread> threads_;
  std::list<int> fds_;
  std::vector<std::string> search_queries_;
};

}  // namespace hpcab::test
