// The agent tools as a Model Context Protocol server over stdio (SPEC §6): JSON-RPC 2.0, one
// message per line on stdin, one reply per line on stdout. Tools task, baseline, score and
// submit call the judge through the same JudgeClient as the `hpcab-tool` command line.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "harness/judge_client.h"

namespace hpcab::harness {

struct McpDefaults {
  std::string kernel;          // KERNEL: used when a call names none
  std::string language = "c";  // LANGUAGE
};

class McpServer {
 public:
  static constexpr const char* kLatestProtocol = "2025-06-18";

  McpServer(JudgeClient& client, McpDefaults defaults);

  // One parsed message (a request, a notification or a batch array). Returns the reply, or
  // nullopt when none is due (notifications, responses, a batch of notifications).
  std::optional<json> handle(const json& message);
  // One line of the stdio transport: parse errors become a -32700 reply.
  std::optional<std::string> handle_line(const std::string& line);
  // Reads lines until EOF, writing each reply as one line and flushing it.
  void serve(std::istream& in, std::ostream& out);

  json tool_list() const;

 private:
  std::optional<json> handle_one(const json& message);
  json call_tool(const std::string& name, const json& arguments);

  JudgeClient& client_;
  McpDefaults defaults_;
  bool initialized_ = false;
};

}  // namespace hpcab::harness
