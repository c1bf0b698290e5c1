#include "harness/mcp.h"

#include <array>
#include <istream>
#include <ostream>

namespace hpcab::harness {

namespace {

// JSON-RPC 2.0 error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;

constexpr std::array<const char*, 4> kProtocols = {"2025-06-18", "2025-03-26", "2024-11-05",
                                                   "2025-11-25"};

json error_reply(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json result_reply(const json& id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json text_result(const std::string& text, bool is_error) {
  return {{"content", json::array({{{"type", "text"}, {"text", text}}})}, {"isError", is_error}};
}

// A tool argument that must be a string when present; "" when absent or null.
std::optional<std::string> string_arg(const json& args, const char* name) {
  if (!args.contains(name) || args[name].is_null()) return std::string();
  if (!args[name].is_string()) return std::nullopt;
  return args[name].get<std::string>();
}

}  // namespace

McpServer::McpServer(JudgeClient& client, McpDefaults defaults)
    : client_(client), defaults_(std::move(defaults)) {}

json McpServer::tool_list() const {
  const std::string kernel_doc =
      defaults_.kernel.empty()
          ? "Kernel id, e.g. s000."
          : "Kernel id; defaults to this episode's kernel '" + defaults_.kernel + "'.";
  const json kernel = {{"type", "string"}, {"description", kernel_doc}};
  const json language = {{"type", "string"},
                         {"enum", {"c", "cpp", "fortran"}},
                         {"description", "Source language; defaults to '" + defaults_.language +
                                             "' (or the source_file's extension)."}};
  const json preset = {{"type", "string"},
                       {"description", "Problem-size preset; defaults to the judge's default."}};
  json base_required = json::array();
  if (defaults_.kernel.empty()) base_required.push_back("kernel");
  const json query_schema = {
      {"type", "object"},
      {"properties", {{"kernel", kernel}, {"language", language}, {"preset", preset}}},
      {"required", base_required},
      {"additionalProperties", false}};
  const json source_schema = {
      {"type", "object"},
      {"properties",
       {{"kernel", kernel},
        {"language", language},
        {"preset", preset},
        {"source", {{"type", "string"}, {"description", "The complete source text to grade."}}},
        {"source_file",
         {{"type", "string"},
          {"description",
           "Path of a local source file (relative to the agent's working directory); the tool "
           "reads it and sends its text. Give exactly one of source and source_file."}}}}},
      {"required", base_required},
      {"additionalProperties", false}};
  const std::string single =
      client_.settings().single_submission
          ? " This run allows ONE submit: a second one is refused, so score first."
          : "";
  return json::array(
      {{{"name", "task"},
        {"description",
         "Fetch the task: the C signature stub to implement, the exported symbol, the NumPy "
         "reference, tolerances, problem sizes, the ABI summary and the goal."},
        {"inputSchema", query_schema}},
       {{"name", "baseline"},
        {"description", "The baseline time(s) in nanoseconds that a submission must beat."},
        {"inputSchema", query_schema}},
       {{"name", "score"},
        {"description",
         "Compile, check and time a source on the public inputs only (not recorded as the final "
         "answer): verdict, correctness, speedup over the baseline, error detail. Use it to "
         "iterate."},
        {"inputSchema", source_schema}},
       {{"name", "submit"},
        {"description",
         "Submit the final answer: graded on public and hidden inputs and recorded." + single},
        {"inputSchema", source_schema}}});
}

json McpServer::call_tool(const std::string& name, const json& args) {
  auto kernel = string_arg(args, "kernel");
  auto language = string_arg(args, "language");
  auto preset = string_arg(args, "preset");
  if (!kernel || !language || !preset) {
    return text_result("kernel, language and preset must be strings", true);
  }
  if (kernel->empty()) *kernel = defaults_.kernel;
  if (kernel->empty()) return text_result("missing argument 'kernel'", true);

  Result<json> answer = Error{""};
  if (name == "task" || name == "baseline") {
    const std::string lang = language->empty() ? defaults_.language : *language;
    answer = name == "task" ? client_.task(*kernel, lang, *preset)
                            : client_.baseline(*kernel, lang, *preset);
  } else {
    auto source = string_arg(args, "source");
    auto source_file = string_arg(args, "source_file");
    if (!source || !source_file) return text_result("source and source_file must be strings", true);
    if (source->empty() == source_file->empty()) {
      return text_result("give exactly one of 'source' (the text) or 'source_file' (a path)", true);
    }
    Submission s{*kernel, *language, *source, *preset, ""};
    if (!source_file->empty()) {
      auto text = read_source_file(*source_file);
      if (!text) return text_result(text.error().message, true);
      s.source = *text;
      if (s.language.empty()) s.language = language_from_extension(*source_file).value_or("");
    }
    if (s.language.empty()) s.language = defaults_.language;
    answer = name == "score" ? client_.score(s) : client_.submit(s);
  }
  if (!answer) return text_result(answer.error().message, true);
  json result = text_result(answer->dump(2, ' ', false, json::error_handler_t::replace), false);
  if (answer->is_object()) result["structuredContent"] = *answer;
  return result;
}

std::optional<json> McpServer::handle_one(const json& msg) {
  if (!msg.is_object()) return error_reply(nullptr, kInvalidRequest, "a message must be an object");
  const bool has_id = msg.contains("id");
  json id = has_id ? msg["id"] : json(nullptr);
  if (has_id && !id.is_string() && !id.is_number_integer() && !id.is_null()) {
    return error_reply(nullptr, kInvalidRequest, "'id' must be a string or an integer");
  }
  if (!msg.contains("method")) {
    // A response to a request of ours (we send none) or garbage: never answered with a result.
    if (msg.contains("result") || msg.contains("error")) return std::nullopt;
    return error_reply(id, kInvalidRequest, "missing 'method'");
  }
  if (msg.value("jsonrpc", json()) != "2.0") {
    return error_reply(id, kInvalidRequest, "'jsonrpc' must be \"2.0\"");
  }
  if (!msg["method"].is_string()) return error_reply(id, kInvalidRequest, "'method' not a string");
  const std::string method = msg["method"].get<std::string>();
  const json params = msg.contains("params") ? msg["params"] : json::object();

  if (!has_id) {
    // Notifications never get a reply, known or not.
    if (method == "notifications/initialized") initialized_ = true;
    return std::nullopt;
  }
  if (!params.is_object() && !params.is_null()) {
    return error_reply(id, kInvalidParams, "'params' must be an object");
  }

  if (method == "initialize") {
    if (!params.is_object() || !params.contains("protocolVersion") ||
        !params["protocolVersion"].is_string()) {
      return error_reply(id, kInvalidParams, "initialize needs params.protocolVersion (a string)");
    }
    // Answer with the client's version when we speak it, else with our latest.
    std::string version = kLatestProtocol;
    const std::string asked = params["protocolVersion"].get<std::string>();
    for (const char* v : kProtocols) {
      if (asked == v) version = asked;
    }
    return result_reply(
        id, {{"protocolVersion", version},
             {"capabilities", {{"tools", {{"listChanged", false}}}}},
             {"serverInfo", {{"name", "hpcab-tool"}, {"version", HPCAB_VERSION}}},
             {"instructions",
              "Tools for one HPCAgent-Bench task: task (the spec), baseline, score (iterate on "
              "public inputs), submit (the final, recorded answer)."}});
  }
  if (method == "ping") return result_reply(id, json::object());
  if (method == "tools/list") return result_reply(id, {{"tools", tool_list()}});
  if (method == "tools/call") {
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
      return error_reply(id, kInvalidParams, "tools/call needs params.name (a string)");
    }
    const std::string name = params["name"].get<std::string>();
    json args = params.contains("arguments") ? params["arguments"] : json::object();
    if (args.is_null()) args = json::object();
    if (!args.is_object()) {
      return error_reply(id, kInvalidParams, "tools/call params.arguments must be an object");
    }
    if (name != "task" && name != "baseline" && name != "score" && name != "submit") {
      return error_reply(id, kInvalidParams,
                         "unknown tool '" + name + "' (task, baseline, score, submit)");
    }
    return result_reply(id, call_tool(name, args));
  }
  return error_reply(id, kMethodNotFound, "method not found: " + method);
}

std::optional<json> McpServer::handle(const json& message) {
  if (!message.is_array()) return handle_one(message);
  if (message.empty()) return error_reply(nullptr, kInvalidRequest, "empty batch");
  json replies = json::array();
  for (const auto& m : message) {
    if (auto r = handle_one(m)) replies.push_back(std::move(*r));
  }
  if (replies.empty()) return std::nullopt;
  return replies;
}

std::optional<std::string> McpServer::handle_line(const std::string& line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return std::nullopt;
  json message = json::parse(line, nullptr, false);
  if (message.is_discarded()) {
    return error_reply(nullptr, kParseError, "parse error: not a JSON message").dump();
  }
  auto reply = handle(message);
  if (!reply) return std::nullopt;
  // Strict JSON on the wire: invalid UTF-8 from a judge detail is replaced, never thrown.
  return reply->dump(-1, ' ', false, json::error_handler_t::replace);
}

void McpServer::serve(std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    if (auto reply = handle_line(line)) {
      out << *reply << '\n';
      out.flush();
    }
  }
}

}  // namespace hpcab::harness
