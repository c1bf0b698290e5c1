// The agent tools as a Model Context Protocol server over stdio (SPEC §6): JSON-RPC 2.0, one
// message per line on stdin, one reply per line on stdout. Tools task, baseline, score and
// submit call the judge through the same JudgeClient as the `hpcab-tool` command line.
//
// serve() runs each tool call on its own thread, so ping, tools/list and other calls are
// answered while a long /score grades; it sends notifications/progress for calls that carry a
// progressToken (MCP clients time a request out, by default after 60 s, unless progress resets
// the clock) and honours notifications/cancelled by abandoning the judge request.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "harness/judge_client.h"
#include "harness/tool_policy.h"

namespace hpcab::harness {

struct McpDefaults {
  std::string kernel;          // KERNEL: used when a call names none
  std::string language = "c";  // LANGUAGE
  // HPCAB_TOOLS (default: ToolSet::defaults()): tools/list shows only these (the implemented ones);
  // tools/call of any other tool name is refused with kInvalidParams and a message naming the arm's
  // tools.
  ToolSet tools = ToolSet::defaults();
};

// How serve() runs tool calls (docs/harness.md, "Long calls").
struct McpSettings {
  // HPCAB_MCP_MAX_CALLS: tool calls in flight at once; one more is answered with the JSON-RPC
  // error kServerBusy.
  int max_calls = 4;
  // HPCAB_MCP_PROGRESS_INTERVAL: seconds between two notifications/progress of a call that
  // asked for them (params._meta.progressToken); the first comes one interval after the call.
  double progress_interval_s = 5;
  // HPCAB_MCP_SHUTDOWN_GRACE: at the end of stdin, how long calls in flight may still finish
  // (their replies are written) before they are cancelled; negative: as long as they take.
  double shutdown_grace_s = -1;

  // Errors: a variable that is set but not a valid value.
  static Result<McpSettings> from_env();
};

class McpServer {
 public:
  static constexpr const char* kLatestProtocol = "2025-06-18";
  // JSON-RPC error (implementation-defined server error range) for a tool call beyond
  // McpSettings::max_calls; the call was not started and may be retried.
  static constexpr int kServerBusy = -32000;

  McpServer(JudgeClient& client, McpDefaults defaults, McpSettings settings = {});
  ~McpServer();
  McpServer(const McpServer&) = delete;
  McpServer& operator=(const McpServer&) = delete;

  // One parsed message (a request, a notification or a batch array), handled synchronously:
  // a tool call runs to its end on this thread, without progress or cancellation. Returns the
  // reply, or nullopt when none is due (notifications, responses, a batch of notifications).
  std::optional<json> handle(const json& message);
  // One line of the stdio transport, as handle(): parse errors become a -32700 reply.
  std::optional<std::string> handle_line(const std::string& line);
  // Reads lines until EOF and writes every reply and notification as one flushed line (writes
  // are serialized, so lines never interleave). Tool calls run concurrently (see the file
  // comment); a batch is handled as a whole by handle() on the reading thread. At EOF, calls in
  // flight finish or are cancelled (McpSettings::shutdown_grace_s) and every thread is joined
  // before it returns. One serve() at a time.
  void serve(std::istream& in, std::ostream& out);

  json tool_list() const;

 private:
  using Clock = std::chrono::steady_clock;
  // A validated tools/call.
  struct ToolCall {
    json id;
    std::string name;
    json arguments;
    json progress_token;  // null: none asked
  };
  // A call that serve() started and has not answered yet, keyed by its id's JSON text.
  struct InFlight {
    json id;
    std::string name;
    json progress_token;
    std::shared_ptr<CancelToken> cancel;
    bool cancelled = false;  // by the client or at shutdown: its reply is dropped
    std::int64_t progress = 0;
    Clock::time_point started, next_progress;
  };
  // A message checked and answered where that needs no judge: the reply due now (or nullopt),
  // or a tool call to run.
  using Routed = std::variant<std::optional<json>, ToolCall>;

  Routed route(const json& message);
  std::optional<json> handle_one(const json& message);
  json call_tool(const std::string& name, const json& arguments, const CancelToken* cancel);

  // serve()'s parts. start_call and the shutdown run on the reading thread.
  void start_call(ToolCall call);
  void run_call(std::uint64_t worker, std::string key, ToolCall call,
                std::shared_ptr<CancelToken> cancel);
  void cancel_request(const json& request_id);
  void cancel_all_locked();
  void progress_loop();
  void write(const json& message);
  void join_finished();

  JudgeClient& client_;
  McpDefaults defaults_;
  McpSettings settings_;
  bool initialized_ = false;

  std::mutex mu_;                    // everything below but out_; taken before out_mu_, never after
  std::condition_variable changed_;  // a call started, progressed, ended; stopping_ set
  std::map<std::string, InFlight> calls_;
  std::map<std::uint64_t, std::thread> workers_;
  std::vector<std::uint64_t> finished_;  // workers whose thread is about to return
  std::uint64_t next_worker_ = 0;
  bool stopping_ = false;

  std::mutex out_mu_;
  std::ostream* out_ = nullptr;
};

}  // namespace hpcab::harness
