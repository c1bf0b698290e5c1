// A thread per connection, blocking Beast I/O: simple, and plenty for tests. stop() wakes the
// blocked accept() and reads with shutdown(2) on their descriptors.
#include "tests/harness/fake_llm.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <utility>  // before Asio: Boost 1.74 misses it for GCC 12 coroutines
//
#include <openssl/ssl.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <vector>

namespace hpcab::test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using nlohmann::json;

std::string Sse(const json& j) { return "data: " + j.dump() + "\n\n"; }

// A server that reports no usage: every `usage` field gone (top level, in an Anthropic
// message_start's `message`, in a Responses event's `response`).
void DropUsage(json& j) {
  if (!j.is_object()) return;
  j.erase("usage");
  for (const char* k : {"message", "response"}) {
    if (j.contains(k) && j[k].is_object()) j[k].erase("usage");
  }
}

// The same for one SSE event's text ("[event: ...\n]data: {...}\n\n").
std::string DropUsageSse(const std::string& event) {
  const std::size_t data = event.find("data: {");
  if (data == std::string::npos) return event;
  const std::size_t end = event.find("\n\n", data);
  json j = json::parse(event.substr(data + 6, end - data - 6), nullptr, false);
  if (!j.is_object()) return event;
  DropUsage(j);
  return event.substr(0, data) + Sse(j);
}
std::string SseEvent(const std::string& type, const json& j) {
  return "event: " + type + "\ndata: " + j.dump() + "\n\n";
}

// The 400 bodies real servers send, texts as they write them.
json ErrorBody(FakeLlm::Error e) {
  using E = FakeLlm::Error;
  auto openai = [](const std::string& message, const json& param, const json& code) {
    return json{{"error",
                 {{"message", message},
                  {"type", "invalid_request_error"},
                  {"param", param},
                  {"code", code}}}};
  };
  // vLLM and SGLang: the bare ErrorResponse (newer vLLM wraps the same fields in "error").
  auto server = [](const std::string& message) {
    return json{{"object", "error"},
                {"message", message},
                {"type", "BadRequestError"},
                {"param", nullptr},
                {"code", 400}};
  };
  auto anthropic = [](const std::string& message) {
    return json{{"type", "error"},
                {"error", {{"type", "invalid_request_error"}, {"message", message}}},
                {"request_id", "req_011CTestOverflow"}};
  };
  switch (e) {
    case E::kOpenAIContextLength:
      return openai(
          "This model's maximum context length is 128000 tokens. However, your messages "
          "resulted in 130512 tokens. Please reduce the length of the messages.",
          "messages", "context_length_exceeded");
    case E::kVllmContextLength:
      return server(
          "This model's maximum context length is 4096 tokens. However, you requested 5000 "
          "tokens (4000 in the messages, 1000 in the completion). Please reduce the length of "
          "the messages or completion.");
    case E::kVllmMaxModelLen:
      return {{"error",
               {{"message",
                 "The decoder prompt (length 5000) is longer than the maximum model length of "
                 "4096. Make sure that `max_model_len` is no smaller than the number of text "
                 "tokens."},
                {"type", "BadRequestError"},
                {"param", nullptr},
                {"code", 400}}}};
    case E::kSglangContextLength:
      return server(
          "The input (5000 tokens) is longer than the model's context length (4096 tokens).");
    case E::kAnthropicPromptTooLong:
      return anthropic("prompt is too long: 208310 tokens > 200000 maximum");
    case E::kOpenAIMaxTokens:
      return openai(
          "max_tokens is too large: 100000. This model supports at most 16384 completion "
          "tokens, whereas you provided 100000.",
          "max_tokens", "invalid_value");
    case E::kAnthropicMaxTokens:
      return anthropic(
          "max_tokens: 10000 > 4096, which is the maximum allowed number of output tokens for "
          "claude-3-5-sonnet-20240620");
    case E::kNone:
      break;
  }
  return json::object();
}

const char* finish_reason_of(bool chat, bool tool) { return chat && tool ? "tool_calls" : "stop"; }

// Script mode's answer to one request: a call to a tool, or text ("" = the ordinary text).
struct ScriptedCall {
  bool tool = false;
  std::string ns;    // Responses: the namespace the tool was offered in ("" if none)
  std::string name;  // the tool's name as the request offered it
  json arguments = json::object();
  std::string text;
};

// The function tools a request offers, as (namespace, name): chat {"type":"function","function":
// {"name"}}, Responses {"type":"function","name"} and Responses namespaces {"type":"namespace",
// "name":NS,"tools":[functions]} (Codex groups each MCP server's tools so, and a call to one names
// the namespace: {"type":"function_call","namespace":NS,"name":"score"}), Anthropic {"name",
// "input_schema"}.
std::vector<std::pair<std::string, std::string>> OfferedTools(const json& body) {
  std::vector<std::pair<std::string, std::string>> names;
  if (!body.is_object() || !body.contains("tools") || !body["tools"].is_array()) return names;
  auto name_of = [](const json& t) -> std::string {
    if (!t.is_object()) return "";
    if (t.contains("function") && t["function"].is_object() && t["function"].contains("name") &&
        t["function"]["name"].is_string()) {
      return t["function"]["name"];
    }
    if (t.contains("name") && t["name"].is_string()) return t["name"];
    return "";
  };
  for (const auto& t : body["tools"]) {
    if (t.is_object() && t.value("type", "") == "namespace" && t.contains("tools") &&
        t["tools"].is_array()) {
      const std::string ns = name_of(t);
      for (const auto& inner : t["tools"]) {
        if (auto n = name_of(inner); !n.empty()) names.emplace_back(ns, n);
      }
    } else if (auto n = name_of(t); !n.empty()) {
      names.emplace_back("", n);
    }
  }
  return names;
}

// How many tool calls the conversation in a request already holds: assistant tool_calls (chat),
// function_call items (Responses input), tool_use blocks (Anthropic messages).
int CallsSoFar(const std::string& path, const json& body) {
  int calls = 0;
  if (!body.is_object()) return 0;
  const char* key = path == "/v1/responses" ? "input" : "messages";
  if (!body.contains(key) || !body[key].is_array()) return 0;
  for (const auto& m : body[key]) {
    if (!m.is_object()) continue;
    if (m.value("type", "") == "function_call") ++calls;
    if (m.contains("tool_calls") && m["tool_calls"].is_array()) {
      calls += static_cast<int>(m["tool_calls"].size());
    }
    if (m.value("role", "") == "assistant" && m.contains("content") && m["content"].is_array()) {
      for (const auto& b : m["content"]) {
        if (b.is_object() && b.value("type", "") == "tool_use") ++calls;
      }
    }
  }
  return calls;
}

// The offered tool (namespace, name) that a script step's tool names; nullopt when none is.
std::optional<std::pair<std::string, std::string>> Offered(
    const std::vector<std::pair<std::string, std::string>>& offered, const std::string& want) {
  const std::string suffix = "__" + want;
  for (const auto& [ns, name] : offered) {
    const std::string full = ns.empty() ? name : ns + "__" + name;
    if (full == want || (full.size() > suffix.size() &&
                         full.compare(full.size() - suffix.size(), suffix.size(), suffix) == 0)) {
      return std::pair{ns, name};
    }
  }
  return std::nullopt;
}

ScriptedCall NextScriptedCall(const std::string& path, const json& body,
                              std::vector<ScriptStep> script, const std::string& final_text,
                              bool skip_unoffered) {
  ScriptedCall call;
  if (script.empty() || path == "/v1/completions") return call;
  const auto offered = OfferedTools(body);
  if (offered.empty()) return call;
  if (skip_unoffered) {
    std::erase_if(script, [&](const ScriptStep& s) { return !Offered(offered, s.tool); });
  }
  const int k = CallsSoFar(path, body);
  if (k >= static_cast<int>(script.size())) {
    call.text = final_text;
    return call;
  }
  const ScriptStep& step = script[static_cast<std::size_t>(k)];
  if (auto tool = Offered(offered, step.tool)) {
    call.tool = true;
    call.ns = tool->first;
    call.name = tool->second;
    call.arguments = step.arguments;
    return call;
  }
  call.text = final_text;
  return call;
}

}  // namespace

FakeLlm::~FakeLlm() { stop(); }

std::string FakeLlm::error_body(Error e) { return ErrorBody(e).dump(); }

std::uint16_t FakeLlm::start(std::uint16_t port, const std::string& host) {
  stopping_ = false;  // a stopped server may be started again (an outage that ends)
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  if (::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) {
    throw std::runtime_error("fake LLM server: not an IPv4 address: " + host);
  }
  addr.sin_port = htons(port);
  host_ = host;
  const int one = 1;
  if (listen_fd_ >= 0) ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 64) != 0) {
    throw std::runtime_error("fake LLM server cannot listen on " + host + ":" +
                             std::to_string(port));
  }
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  accept_thread_ = std::thread([this] {
    for (;;) {
      const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        if (stopping_) return;
        continue;
      }
      std::lock_guard lock(mu_);
      if (stopping_) {
        ::close(fd);
        return;
      }
      fds_.push_back(fd);
      threads_.emplace_back([this, fd] { serve(fd); });
    }
  });
  return port_;
}

void FakeLlm::stop() {
  if (listen_fd_ < 0) return;
  stopping_ = true;
  release_stream();
  ::shutdown(listen_fd_, SHUT_RDWR);
  accept_thread_.join();
  ::close(listen_fd_);
  listen_fd_ = -1;
  std::list<std::thread> threads;
  {
    std::lock_guard lock(mu_);
    for (int fd : fds_) ::shutdown(fd, SHUT_RDWR);
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
  std::lock_guard lock(mu_);
  for (int fd : fds_) ::close(fd);
  fds_.clear();
}

void FakeLlm::set_hold_streams(bool hold) {
  std::lock_guard lock(mu_);
  hold_ = hold;
  released_ = false;
}

void FakeLlm::release_stream() {
  std::lock_guard lock(mu_);
  released_ = true;
  cv_.notify_all();
}

FakeTotals FakeLlm::totals() const {
  std::lock_guard lock(mu_);
  return totals_;
}

std::string FakeLlm::last_body() const {
  std::lock_guard lock(mu_);
  return last_body_;
}

std::string FakeLlm::last_sni() const {
  std::lock_guard lock(mu_);
  return last_sni_;
}

std::string FakeLlm::last_header(const std::string& name) const {
  std::lock_guard lock(mu_);
  const std::string key = name + ": ";
  std::size_t pos = 0;
  while (pos < last_headers_.size()) {
    const std::size_t end = last_headers_.find('\n', pos);
    const std::string line = last_headers_.substr(pos, end - pos);
    if (line.rfind(key, 0) == 0) return line.substr(key.size());
    pos = end + 1;
  }
  return "";
}

void FakeLlm::set_script(std::vector<ScriptStep> steps, std::string final_text,
                         bool skip_unoffered) {
  std::lock_guard lock(mu_);
  script_ = std::move(steps);
  script_final_ = std::move(final_text);
  skip_unoffered_ = skip_unoffered;
}

template <typename Stream>
void FakeLlm::exchange(Stream& conn) {
  beast::flat_buffer buffer;
  beast::error_code ec;
  for (;;) {
    http::request<http::string_body> req;
    http::read(conn, buffer, req, ec);
    if (ec) break;
    const bool head = req.method() == http::verb::head;
    if (unavailable_) {
      // An overloaded or restarting server: 503 with Retry-After, nothing counted.
      ++unavailable_answers_;
      const std::string text =
          json{{"error", {{"message", "server is loading"}, {"type", "unavailable"}}}}.dump();
      http::response<http::string_body> res{http::status::service_unavailable, 11};
      res.set(http::field::content_type, "application/json");
      res.set(http::field::retry_after, "1");
      res.keep_alive(req.keep_alive());
      if (!head) res.body() = text;
      res.prepare_payload();
      if (head) res.content_length(text.size());
      http::write(conn, res, ec);
      if (ec || !req.keep_alive()) break;
      continue;
    }
    // Routes are paths; a query string (Claude Code's ?beta=true) does not change the route.
    const std::string target(req.target());
    const std::string path = target.substr(0, target.find('?'));
    const bool models = path == "/v1/models" || path.rfind("/v1/models/", 0) == 0;
    const bool count_tokens = path == "/v1/messages/count_tokens";
    const bool generation = path == "/v1/chat/completions" || path == "/v1/completions" ||
                            path == "/v1/responses" || path == "/v1/messages";
    const bool search = path == "/search";
    const bool post = req.method() == http::verb::post;
    json body = json::parse(req.body(), nullptr, false);
    std::int64_t n = 0;
    std::vector<ScriptStep> script;
    std::string script_final;
    bool skip_unoffered = false;
    {
      std::lock_guard lock(mu_);
      last_body_ = req.body();
      last_headers_.clear();
      for (const auto& f : req) {
        std::string name(f.name_string());
        for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        last_headers_ += name + ": " + std::string(f.value()) + "\n";
      }
      if (!models && !count_tokens && !search) n = ++totals_.requests;
      script = script_;
      script_final = script_final_;
      skip_unoffered = skip_unoffered_;
    }
    if (delay_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_.load()));

    // HEAD gets the header GET would get (Content-Length included) and no body (RFC 9110 9.3.2).
    const bool omit_usage = omit_usage_;
    auto send_json = [&](int status, json j) {
      if (omit_usage) DropUsage(j);
      const std::string text = j.dump();
      http::response<http::string_body> res{static_cast<http::status>(status), 11};
      res.set(http::field::content_type, "application/json");
      res.keep_alive(req.keep_alive());
      if (!head) res.body() = text;
      res.prepare_payload();
      if (head) res.content_length(text.size());
      if (status == 405) res.set(http::field::allow, models ? "GET, HEAD" : "POST");
      http::write(conn, res, ec);
    };
    auto count = [&](std::int64_t input, std::int64_t cached, std::int64_t output) {
      if (omit_usage) return;  // nothing reported
      std::lock_guard lock(mu_);
      totals_.input += input;
      totals_.cached += cached;
      totals_.output += output;
    };
    auto start_stream = [&](const char* content_type) {
      http::response<http::empty_body> res{http::status::ok, 11};
      res.set(http::field::content_type, content_type);
      res.keep_alive(req.keep_alive());
      res.chunked(true);
      http::response_serializer<http::empty_body> sr{res};
      http::write_header(conn, sr, ec);
    };
    auto write = [&](const std::string& event) {
      const std::string s = omit_usage ? DropUsageSse(event) : event;
      if (!ec) asio::write(conn, http::make_chunk(asio::buffer(s)), ec);
    };
    auto end_stream = [&] {
      if (!ec) asio::write(conn, http::make_chunk_last(), ec);
    };
    auto hold = [&] {
      if (!hold_) return;
      std::unique_lock lock(mu_);
      // A release that came before we got here counts: the test saw the first event.
      last_hold_released_ =
          cv_.wait_for(lock, std::chrono::seconds(10), [this] { return released_; });
      released_ = false;
    };
    const bool stream = body.is_object() && body.value("stream", false);
    const std::string model =
        body.is_object() && body.contains("model") && body["model"].is_string()
            ? body["model"].get<std::string>()
            : "fake-model";
    const std::string id = std::to_string(n);
    const ScriptedCall call =
        generation ? NextScriptedCall(path, body, script, script_final, skip_unoffered)
                   : ScriptedCall{};
    if (call.tool) ++script_calls_;
    const std::string text = call.text.empty() ? "Hello world" : call.text;
    // The text in two pieces, as streams deliver it (the hold comes between them): "Hello" and
    // " world".
    const std::size_t space = text.find(' ');
    const std::string first = text.substr(0, space == std::string::npos ? text.size() : space);
    const std::string rest = text.substr(first.size());
    const std::string args = call.arguments.dump();

    const Error error = error_;
    if (search) {
      send_json(200, SearchAnswer(target));
    } else if (models) {
      if (req.method() != http::verb::get && !head) {
        send_json(405,
                  {{"error", {{"message", "method not allowed"}, {"type", "invalid_request"}}}});
      } else {
        send_json(200,
                  {{"object", "list"},
                   {"data", {{{"id", "fake-model"}, {"object", "model"}, {"owned_by", "test"}}}}});
      }
    } else if ((generation || count_tokens) && !post) {
      send_json(405, {{"error", {{"message", "method not allowed"}, {"type", "invalid_request"}}}});
    } else if (error != Error::kNone && (generation || count_tokens)) {
      send_json(400, ErrorBody(error));
    } else if (count_tokens) {
      // Anthropic's token counter: {"input_tokens": N}. Nothing is generated, nothing counted.
      ++count_tokens_answers_;
      send_json(200, {{"input_tokens", static_cast<std::int64_t>(req.body().size() / 4 + 1)}});
    } else if (path == "/v1/chat/completions" || path == "/v1/completions") {
      const bool chat = path == "/v1/chat/completions";
      const std::int64_t prompt = 100 + 10 * n, cached = 30 + n, completion = 5 + n;
      const json usage = {{"prompt_tokens", prompt},
                          {"completion_tokens", completion},
                          {"total_tokens", prompt + completion},
                          {"prompt_tokens_details", {{"cached_tokens", cached}}}};
      const std::string object = chat ? "chat.completion" : "text_completion";
      const bool tool = chat && call.tool;
      const std::string finish = tool ? "tool_calls" : "stop";
      if (!stream) {
        json message = {{"role", "assistant"}, {"content", text}};
        if (tool) {
          message["content"] = nullptr;
          message["tool_calls"] = {{{"id", "call_" + id},
                                    {"type", "function"},
                                    {"function", {{"name", call.name}, {"arguments", args}}}}};
        }
        json choice = chat ? json{{"index", 0}, {"message", message}, {"finish_reason", finish}}
                           : json{{"index", 0}, {"text", text}, {"finish_reason", "stop"}};
        // Counted before sending: the proxy may record it before this thread runs again.
        count(prompt - cached, cached, completion);
        send_json(200, {{"id", "cmpl-" + id},
                        {"object", object},
                        {"created", 1700000000},
                        {"model", model},
                        {"choices", {choice}},
                        {"usage", usage}});
      } else {
        const bool include_usage = body.contains("stream_options") &&
                                   body["stream_options"].is_object() &&
                                   body["stream_options"].value("include_usage", false);
        start_stream("text/event-stream");
        auto chunk = [&](json choice_fields, const json& finish_reason) {
          choice_fields["index"] = 0;
          choice_fields["finish_reason"] = finish_reason;
          json c = {{"id", "cmpl-" + id},
                    {"object", chat ? "chat.completion.chunk" : "text_completion"},
                    {"created", 1700000000},
                    {"model", model},
                    {"choices", {choice_fields}}};
          if (include_usage) c["usage"] = nullptr;
          return Sse(c);
        };
        auto piece = [&](const std::string& t, bool finish) {
          return chunk(chat ? json{{"delta", {{"content", t}}}} : json{{"text", t}},
                       finish ? json(finish_reason_of(chat, tool)) : json(nullptr));
        };
        if (tool) {
          // The first delta names the role and opens the call (id, name, empty arguments); the
          // arguments follow in pieces keyed by the call's index.
          write(chunk({{"delta",
                        {{"role", "assistant"},
                         {"content", nullptr},
                         {"tool_calls",
                          {{{"index", 0},
                            {"id", "call_" + id},
                            {"type", "function"},
                            {"function", {{"name", call.name}, {"arguments", ""}}}}}}}}},
                      nullptr));
          const std::string a1 = args.substr(0, args.size() / 2), a2 = args.substr(a1.size());
          write(chunk(
              {{"delta", {{"tool_calls", {{{"index", 0}, {"function", {{"arguments", a1}}}}}}}}},
              nullptr));
          if (break_) ec = asio::error::connection_aborted;
          hold();
          write(chunk(
              {{"delta", {{"tool_calls", {{{"index", 0}, {"function", {{"arguments", a2}}}}}}}}},
              nullptr));
          write(chunk({{"delta", json::object()}}, "tool_calls"));
        } else {
          if (chat) {
            // OpenAI's first chunk: the role, empty content.
            write(chunk({{"delta", {{"role", "assistant"}, {"content", ""}}}}, nullptr));
          }
          write(piece(first, false));
          if (break_) ec = asio::error::connection_aborted;  // skips the rest of the stream
          hold();
          write(piece(rest, false));
          write(piece("", true));
        }
        if (include_usage) {
          count(prompt - cached, cached, completion);
          write(Sse({{"id", "cmpl-" + id},
                     {"object", chat ? "chat.completion.chunk" : "text_completion"},
                     {"created", 1700000000},
                     {"model", model},
                     {"choices", json::array()},
                     {"usage", usage}}));
        }
        write("data: [DONE]\n\n");
        end_stream();
      }
    } else if (path == "/v1/responses") {
      // The OpenAI Responses API: input_tokens include the cached ones.
      const std::int64_t input = 200 + 10 * n, cached = 60 + n, output = 12 + n;
      const json usage = {{"input_tokens", input},
                          {"input_tokens_details", {{"cached_tokens", cached}}},
                          {"output_tokens", output},
                          {"output_tokens_details", {{"reasoning_tokens", 0}}},
                          {"total_tokens", input + output}};
      const json part = {{"type", "output_text"}, {"text", text}, {"annotations", json::array()}};
      json item = call.tool ? json{{"id", "fc_" + id},      {"type", "function_call"},
                                   {"status", "completed"}, {"call_id", "call_" + id},
                                   {"name", call.name},     {"arguments", args}}
                            : json{{"id", "msg_" + id},
                                   {"type", "message"},
                                   {"status", "completed"},
                                   {"role", "assistant"},
                                   {"content", {part}}};
      if (call.tool && !call.ns.empty()) item["namespace"] = call.ns;
      json response = {{"id", "resp_" + id},    {"object", "response"}, {"created_at", 1700000000},
                       {"status", "completed"}, {"model", model},       {"output", {item}},
                       {"usage", usage}};
      count(input - cached, cached, output);
      if (!stream) {
        send_json(200, response);
      } else {
        start_stream("text/event-stream");
        int sequence = 0;
        auto event = [&](const std::string& type, json data) {
          data["type"] = type;
          data["sequence_number"] = sequence++;
          write("event: " + type + "\n" + Sse(data));
        };
        json pending = response;
        pending["status"] = "in_progress";
        pending["output"] = json::array();
        pending["usage"] = nullptr;
        event("response.created", {{"response", pending}});
        event("response.in_progress", {{"response", pending}});
        json added = item;
        added["status"] = "in_progress";
        const std::string item_id = item["id"];
        if (call.tool) {
          added["arguments"] = "";
          event("response.output_item.added", {{"output_index", 0}, {"item", added}});
          const std::string a1 = args.substr(0, args.size() / 2), a2 = args.substr(a1.size());
          event("response.function_call_arguments.delta",
                {{"item_id", item_id}, {"output_index", 0}, {"delta", a1}});
          hold();
          event("response.function_call_arguments.delta",
                {{"item_id", item_id}, {"output_index", 0}, {"delta", a2}});
          event("response.function_call_arguments.done", {{"item_id", item_id},
                                                          {"output_index", 0},
                                                          {"name", call.name},
                                                          {"arguments", args}});
        } else {
          added["content"] = json::array();
          event("response.output_item.added", {{"output_index", 0}, {"item", added}});
          json empty = part;
          empty["text"] = "";
          const json where = {{"item_id", item_id}, {"output_index", 0}, {"content_index", 0}};
          auto with = [&](json extra) {
            extra.update(where);
            return extra;
          };
          event("response.content_part.added", with({{"part", empty}}));
          event("response.output_text.delta",
                with({{"delta", first}, {"logprobs", json::array()}}));
          hold();
          event("response.output_text.delta", with({{"delta", rest}, {"logprobs", json::array()}}));
          event("response.output_text.done", with({{"text", text}, {"logprobs", json::array()}}));
          event("response.content_part.done", with({{"part", part}}));
        }
        event("response.output_item.done", {{"output_index", 0}, {"item", item}});
        event("response.completed", {{"response", response}});
        end_stream();
      }
    } else if (path == "/v1/messages") {
      const std::int64_t input = 50 + n, creation = 20, read = 40 + n, output = 8 + n;
      count(input + creation, read, output);
      const std::string stop = call.tool ? "tool_use" : "end_turn";
      const json block = call.tool ? json{{"type", "tool_use"},
                                          {"id", "toolu_fake" + id},
                                          {"name", call.name},
                                          {"input", call.arguments}}
                                   : json{{"type", "text"}, {"text", text}};
      if (!stream) {
        send_json(200, {{"id", "msg_" + id},
                        {"type", "message"},
                        {"role", "assistant"},
                        {"model", model},
                        {"content", {block}},
                        {"stop_reason", stop},
                        {"stop_sequence", nullptr},
                        {"usage",
                         {{"input_tokens", input},
                          {"cache_creation_input_tokens", creation},
                          {"cache_read_input_tokens", read},
                          {"output_tokens", output}}}});
      } else {
        start_stream("text/event-stream; charset=utf-8");
        write(SseEvent("message_start", {{"type", "message_start"},
                                         {"message",
                                          {{"id", "msg_" + id},
                                           {"type", "message"},
                                           {"role", "assistant"},
                                           {"model", model},
                                           {"content", json::array()},
                                           {"stop_reason", nullptr},
                                           {"stop_sequence", nullptr},
                                           {"usage",
                                            {{"input_tokens", input},
                                             {"cache_creation_input_tokens", creation},
                                             {"cache_read_input_tokens", read},
                                             {"output_tokens", 1}}}}}}));
        json opened = block;
        std::string d1, d2;
        std::string delta_type, delta_field;
        if (call.tool) {
          opened["input"] = json::object();  // the input arrives as input_json_delta pieces
          d1 = args.substr(0, args.size() / 2);
          d2 = args.substr(d1.size());
          delta_type = "input_json_delta";
          delta_field = "partial_json";
        } else {
          opened["text"] = "";
          d1 = first;
          d2 = rest;
          delta_type = "text_delta";
          delta_field = "text";
        }
        write(SseEvent("content_block_start",
                       {{"type", "content_block_start"}, {"index", 0}, {"content_block", opened}}));
        write(SseEvent("content_block_delta",
                       {{"type", "content_block_delta"},
                        {"index", 0},
                        {"delta", {{"type", delta_type}, {delta_field, d1}}}}));
        hold();
        write(SseEvent("content_block_delta",
                       {{"type", "content_block_delta"},
                        {"index", 0},
                        {"delta", {{"type", delta_type}, {delta_field, d2}}}}));
        write(SseEvent("content_block_stop", {{"type", "content_block_stop"}, {"index", 0}}));
        write(SseEvent("message_delta",
                       {{"type", "message_delta"},
                        {"delta", {{"stop_reason", stop}, {"stop_sequence", nullptr}}},
                        {"usage", {{"output_tokens", output}}}}));
        write(SseEvent("message_stop", {{"type", "message_stop"}}));
        end_stream();
      }
    } else {
      send_json(404, {{"error", {{"message", "no such path " + path}, {"type", "not_found"}}}});
    }
    if (ec || !req.keep_alive()) break;
  }
}

std::string hello_world_vocabulary() {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  auto base64 = [](const std::string& in) {
    std::string out;
    for (std::size_t i = 0; i < in.size(); i += 3) {
      std::uint32_t v = static_cast<unsigned char>(in[i]) << 16;
      if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
      if (i + 2 < in.size()) v |= static_cast<unsigned char>(in[i + 2]);
      out += kDigits[(v >> 18) & 63];
      out += kDigits[(v >> 12) & 63];
      out += i + 1 < in.size() ? kDigits[(v >> 6) & 63] : '=';
      out += i + 2 < in.size() ? kDigits[v & 63] : '=';
    }
    return out;
  };
  std::string vocab;
  int rank = 0;
  for (int b = 0; b < 256; ++b)
    vocab += base64(std::string(1, static_cast<char>(b))) + " " + std::to_string(rank++) + "\n";
  for (const char* t : {"He", "ll", "Hell", "Hello", " w", "or", "ld", "orld", " world"}) {
    vocab += base64(t) + " " + std::to_string(rank++) + "\n";
  }
  return vocab;
}

json FakeLlm::SearchAnswer(const std::string& target) {
  // The q parameter, percent-decoded (the harness encodes every byte outside [A-Za-z0-9-._~]).
  std::string q;
  if (auto at = target.find("q="); at != std::string::npos) {
    const std::string raw = target.substr(at + 2, target.find('&', at) - (at + 2));
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '%' && i + 2 < raw.size()) {
        q += static_cast<char>(std::stoi(raw.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        q += raw[i] == '+' ? ' ' : raw[i];
      }
    }
  }
  {
    std::lock_guard lock(mu_);
    search_queries_.push_back(q);
  }
  json results = json::array();
  for (const char* host : {"gcc.gnu.org", "www.evil.example", "docs.python.org", "gcc.gnu.org"}) {
    const std::string i = std::to_string(results.size());
    results.push_back({{"url", std::string("https://") + host + "/page" + i},
                       {"title", q + " (" + host + ")"},
                       {"content", "about " + q + ", result " + i}});
  }
  return {{"query", q}, {"number_of_results", results.size()}, {"results", results}};
}

void FakeLlm::serve(int fd) {
  asio::io_context ioc;
  tcp::socket socket(ioc);
  socket.assign(tcp::v4(), fd);
  if (cert_file_.empty()) {
    exchange(socket);
  } else {
    asio::ssl::context ctx(asio::ssl::context::tls_server);
    beast::error_code ec;
    ctx.use_certificate_chain_file(cert_file_, ec);
    if (!ec) ctx.use_private_key_file(key_file_, asio::ssl::context::pem, ec);
    asio::ssl::stream<tcp::socket&> stream(socket, ctx);
    if (!ec) stream.handshake(asio::ssl::stream_base::server, ec);
    if (!ec) {
      ++tls_handshakes_;
      const char* sni = SSL_get_servername(stream.native_handle(), TLSEXT_NAMETYPE_host_name);
      {
        std::lock_guard lock(mu_);
        last_sni_ = sni != nullptr ? sni : "";
      }
      exchange(stream);
    }
  }
  beast::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  // The descriptor stays open until stop() so it is never reused under shutdown().
  socket.release(ignored);
}

}  // namespace hpcab::test
