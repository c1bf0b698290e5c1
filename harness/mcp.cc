#include "harness/mcp.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <istream>
#include <ostream>
#include <string>
#include <system_error>
#include <vector>

#include "harness/arm.h"  // kLanguages

namespace hpcab::harness {

namespace {

// JSON-RPC 2.0 error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;

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

// A tool's answer as an MCP result: the JSON as text and as structuredContent, or the error.
json tool_answer(const Result<json>& answer) {
  if (!answer) return text_result(answer.error().message, true);
  json result = text_result(answer->dump(2, ' ', false, json::error_handler_t::replace), false);
  if (answer->is_object()) result["structuredContent"] = *answer;
  return result;
}

// A tool argument that must be a string when present; "" when absent or null.
std::optional<std::string> string_arg(const json& args, const char* name) {
  if (!args.contains(name) || args[name].is_null()) return std::string();
  if (!args[name].is_string()) return std::nullopt;
  return args[name].get<std::string>();
}

// Strict JSON on the wire: invalid UTF-8 from a judge detail is replaced, never thrown.
std::string wire(const json& message) {
  return message.dump(-1, ' ', false, json::error_handler_t::replace);
}

// A variable that is unset or empty leaves `out` alone; anything but a number in [lo, hi] is
// an error naming the variable.
Status number_from_env(const char* name, double lo, double hi, double& out) {
  const char* v = std::getenv(name);
  if (!v || !*v) return Ok{};
  char* end = nullptr;
  const double x = std::strtod(v, &end);
  if (*end != '\0' || !std::isfinite(x) || x < lo || x > hi) {
    return Error{std::string(name) + " must be a number from " + std::to_string(lo) + " to " +
                 std::to_string(hi) + ", got '" + v + "'"};
  }
  out = x;
  return Ok{};
}

}  // namespace

Result<McpSettings> McpSettings::from_env() {
  McpSettings s;
  double calls = s.max_calls;
  if (auto st = number_from_env("HPCAB_MCP_MAX_CALLS", 1, 1000, calls); !st) return st.error();
  if (calls != std::floor(calls)) {
    return Error{"HPCAB_MCP_MAX_CALLS must be a whole number, got '" +
                 std::string(std::getenv("HPCAB_MCP_MAX_CALLS")) + "'"};
  }
  s.max_calls = static_cast<int>(calls);
  if (auto st = number_from_env("HPCAB_MCP_PROGRESS_INTERVAL", 0.01, 3600, s.progress_interval_s);
      !st)
    return st.error();
  if (auto st = number_from_env("HPCAB_MCP_SHUTDOWN_GRACE", 0, 1e7, s.shutdown_grace_s); !st)
    return st.error();
  return s;
}

McpServer::McpServer(JudgeClient& client, McpDefaults defaults, McpSettings settings)
    : client_(client), defaults_(std::move(defaults)), settings_(settings) {}

// serve() joins everything before it returns; this only covers a serve() left by an exception.
McpServer::~McpServer() {
  std::unique_lock lock(mu_);
  cancel_all_locked();
  changed_.wait(lock, [this] { return calls_.empty(); });
  auto workers = std::move(workers_);
  lock.unlock();
  for (auto& [id, t] : workers) t.join();
}

json McpServer::tool_list() const {
  const std::string kernel_doc =
      defaults_.kernel.empty()
          ? "Kernel id, e.g. tsvc_2_s000."
          : "Kernel id; defaults to this episode's kernel '" + defaults_.kernel + "'.";
  const json kernel = {{"type", "string"}, {"description", kernel_doc}};
  const json language = {
      {"type", "string"},
      {"enum", json(std::vector<std::string>(std::begin(kLanguages), std::end(kLanguages)))},
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
  json all = json::array(
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
        {"inputSchema", source_schema}},
       {{"name", "profile"},
        {"description",
         "Run a source once on a public input in the judge's sandbox with its profiler attached: "
         "time per call, hardware and software counters (null where the host exposes none), the "
         "hottest functions and lines, and the roofline position (GB/s and GFLOP/s against the "
         "host's limits). Not a grade; rate-limited by the judge."},
        {"inputSchema", source_schema}},
       {{"name", "syntax-check"},
        {"description",
         "Compile a source with the judge's exact flags without running it: verdict ok or "
         "build_error and the compiler's diagnostics (file, line, column, severity, message). "
         "Nothing is graded or recorded."},
        {"inputSchema", source_schema}},
       {{"name", "search"},
        {"description",
         "Search the web: titles, URLs and snippets of the top results, from the domains this "
         "run allows. Every query is recorded with the episode; the run limits how many."},
        {"inputSchema",
         {{"type", "object"},
          {"properties", {{"query", {{"type", "string"}, {"description", "What to search for."}}}}},
          {"required", {"query"}},
          {"additionalProperties", false}}}}});
  json out = json::array();
  for (const auto& t : all) {
    if (defaults_.tools.allows(t["name"].get<std::string>())) out.push_back(t);
  }
  return out;
}

json McpServer::call_tool(const std::string& name, const json& args, const CancelToken* cancel) {
  if (name == "search") {
    auto query = string_arg(args, "query");
    if (!query || query->empty()) return text_result("'query' must be a non-empty string", true);
    return tool_answer(client_.search(*query, cancel));
  }
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
    answer = name == "task" ? client_.task(*kernel, lang, *preset, "", cancel)
                            : client_.baseline(*kernel, lang, *preset, "", cancel);
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
    answer = name == "score"          ? client_.score(s, cancel)
             : name == "syntax-check" ? client_.syntax_check(s, cancel)
             : name == "profile"      ? client_.profile(s, cancel)
                                      : client_.submit(s, cancel);
  }
  return tool_answer(answer);
}

McpServer::Routed McpServer::route(const json& msg) {
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
    if (method == "notifications/cancelled" && params.is_object() && params.contains("requestId")) {
      cancel_request(params["requestId"]);
    }
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
    if (!is_tool_name(name)) {
      return error_reply(
          id, kInvalidParams,
          "unknown tool '" + name + "' (" + defaults_.tools.text() + " in this arm)");
    }
    if (std::string why; defaults_.tools.check(name, &why) != ToolRefusal::kNone) {
      return error_reply(id, kInvalidParams, why);
    }
    // MCP: a progressToken is a string or an integer; anything else asks for nothing.
    json token = nullptr;
    if (params.contains("_meta") && params["_meta"].is_object()) {
      const json& meta = params["_meta"];
      if (meta.contains("progressToken") &&
          (meta["progressToken"].is_string() || meta["progressToken"].is_number_integer())) {
        token = meta["progressToken"];
      }
    }
    return ToolCall{id, name, std::move(args), std::move(token)};
  }
  return error_reply(id, kMethodNotFound, "method not found: " + method);
}

std::optional<json> McpServer::handle_one(const json& msg) {
  Routed routed = route(msg);
  if (auto* reply = std::get_if<std::optional<json>>(&routed)) return std::move(*reply);
  auto& call = std::get<ToolCall>(routed);
  return result_reply(call.id, call_tool(call.name, call.arguments, nullptr));
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
  return wire(*reply);
}

void McpServer::write(const json& message) {
  const std::string line = wire(message);
  std::lock_guard lock(out_mu_);
  *out_ << line << '\n';
  out_->flush();
}

void McpServer::start_call(ToolCall call) {
  std::unique_lock lock(mu_);
  const std::string key = call.id.dump();
  std::optional<json> refusal;
  if (calls_.count(key)) {
    // Cancellation names requests by id, so two calls in flight must not share one.
    refusal = error_reply(call.id, kInvalidRequest,
                          "id " + key + " is already used by a tool call in flight");
  } else if (calls_.size() >= static_cast<std::size_t>(settings_.max_calls)) {
    json busy = error_reply(
        call.id, kServerBusy,
        "server busy: " + std::to_string(settings_.max_calls) +
            " tool calls are already in flight (the limit, HPCAB_MCP_MAX_CALLS); this one was "
            "not started: retry when one has answered");
    busy["error"]["data"] = {{"max_calls", settings_.max_calls}};
    refusal = std::move(busy);
  }
  if (refusal) {
    lock.unlock();
    write(*refusal);
    return;
  }
  InFlight& f = calls_[key];
  f.id = call.id;
  f.name = call.name;
  f.progress_token = call.progress_token;
  f.cancel = std::make_shared<CancelToken>();
  f.started = Clock::now();
  f.next_progress = f.started + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(settings_.progress_interval_s));
  const std::uint64_t worker = next_worker_++;
  try {
    workers_.emplace(worker, std::thread(&McpServer::run_call, this, worker, key, call, f.cancel));
  } catch (const std::system_error& e) {
    calls_.erase(key);
    lock.unlock();
    write(error_reply(call.id, kInternalError,
                      std::string("cannot start a thread for the call: ") + e.what()));
    return;
  }
  lock.unlock();
  changed_.notify_all();  // the progress loop learns the new call's first deadline
}

void McpServer::run_call(std::uint64_t worker, std::string key, ToolCall call,
                         std::shared_ptr<CancelToken> cancel) {
  json reply;
  try {
    reply = result_reply(call.id, call_tool(call.name, call.arguments, cancel.get()));
  } catch (const std::exception& e) {
    // Nothing a tool does should throw; if it does, the client still gets an answer.
    reply = error_reply(call.id, kInternalError, std::string("internal error: ") + e.what());
  }
  bool cancelled = false;
  {
    // Erased before the reply is written, under the lock the progress loop writes under: no
    // progress notification can follow the reply.
    std::lock_guard lock(mu_);
    auto it = calls_.find(key);
    cancelled = it->second.cancelled;
    calls_.erase(it);
    finished_.push_back(worker);
  }
  changed_.notify_all();
  // MCP: a cancelled request gets no response.
  if (!cancelled) write(reply);
}

void McpServer::cancel_request(const json& request_id) {
  if (!request_id.is_string() && !request_id.is_number_integer()) return;
  std::lock_guard lock(mu_);
  auto it = calls_.find(request_id.dump());
  // Unknown or already answered: the spec says to ignore it.
  if (it == calls_.end() || it->second.cancelled) return;
  it->second.cancelled = true;
  it->second.cancel->cancel();
}

void McpServer::cancel_all_locked() {
  for (auto& [key, f] : calls_) {
    f.cancelled = true;
    f.cancel->cancel();
  }
}

void McpServer::progress_loop() {
  const auto interval = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(settings_.progress_interval_s));
  std::unique_lock lock(mu_);
  while (!stopping_) {
    const auto now = Clock::now();
    auto next = Clock::time_point::max();
    for (auto& [key, f] : calls_) {
      if (f.progress_token.is_null() || f.cancelled) continue;
      if (f.next_progress <= now) {
        // A count, so it increases with every notification; the total is unknown.
        ++f.progress;
        const long long seconds =
            std::chrono::duration_cast<std::chrono::seconds>(now - f.started).count();
        // While a call waits out an outage, the agent is told which judge is down since when.
        const std::string outage = client_.outage_note();
        write({{"jsonrpc", "2.0"},
               {"method", "notifications/progress"},
               {"params",
                {{"progressToken", f.progress_token},
                 {"progress", f.progress},
                 {"message", f.name + ": waiting for the judge (" + std::to_string(seconds) +
                                 " s so far)" + (outage.empty() ? "" : "; " + outage)}}}});
        f.next_progress = now + interval;
      }
      next = std::min(next, f.next_progress);
    }
    if (next == Clock::time_point::max()) {
      changed_.wait(lock);
    } else {
      changed_.wait_until(lock, next);
    }
  }
}

void McpServer::join_finished() {
  std::vector<std::thread> done;
  {
    std::lock_guard lock(mu_);
    for (std::uint64_t w : finished_) {
      auto it = workers_.find(w);
      done.push_back(std::move(it->second));
      workers_.erase(it);
    }
    finished_.clear();
  }
  for (auto& t : done) t.join();  // each has left the critical section and is returning
}

void McpServer::serve(std::istream& in, std::ostream& out) {
  out_ = &out;
  {
    std::lock_guard lock(mu_);
    stopping_ = false;
  }
  std::thread progress([this] { progress_loop(); });
  std::string line;
  while (std::getline(in, line)) {
    join_finished();
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json message = json::parse(line, nullptr, false);
    if (message.is_discarded()) {
      write(error_reply(nullptr, kParseError, "parse error: not a JSON message"));
      continue;
    }
    if (message.is_array()) {
      // Batches (gone from MCP 2025-06-18) are answered as a whole, as before.
      if (auto reply = handle(message)) write(*reply);
      continue;
    }
    Routed routed = route(message);
    if (auto* reply = std::get_if<std::optional<json>>(&routed)) {
      if (*reply) write(**reply);
    } else {
      start_call(std::move(std::get<ToolCall>(routed)));
    }
  }
  // End of stdin: let calls in flight finish (within the grace, if one is set), cancel the
  // rest, and wait for every worker to leave before the threads are joined.
  {
    std::unique_lock lock(mu_);
    if (settings_.shutdown_grace_s >= 0) {
      changed_.wait_for(lock, std::chrono::duration<double>(settings_.shutdown_grace_s),
                        [this] { return calls_.empty(); });
      cancel_all_locked();
    }
    changed_.wait(lock, [this] { return calls_.empty(); });
    stopping_ = true;
  }
  changed_.notify_all();
  progress.join();
  join_finished();
  out_ = nullptr;
}

}  // namespace hpcab::harness
