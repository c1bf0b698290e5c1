// The fake inference server itself (tests/harness/fake_llm.*): the wire details real clients
// depend on (query strings, delta.role, the Responses item events and sequence numbers,
// count_tokens, HEAD) and script mode's tool calls in each API's form, streamed and not.
#include "tests/harness/fake_llm.h"

#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/http_client.h"

namespace hpcab::test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using nlohmann::json;

struct SseEvent {
  std::string event;  // the "event:" line, "" if none
  json data;
};

// The events of an SSE body; "[DONE]" is left out.
std::vector<SseEvent> ParseSse(const std::string& body) {
  std::vector<SseEvent> out;
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t end = body.find("\n\n", pos);
    if (end == std::string::npos) end = body.size();
    const std::string block = body.substr(pos, end - pos);
    pos = end + 2;
    SseEvent e;
    std::size_t lp = 0;
    while (lp < block.size()) {
      std::size_t le = block.find('\n', lp);
      if (le == std::string::npos) le = block.size();
      const std::string line = block.substr(lp, le - lp);
      lp = le + 1;
      if (line.rfind("event: ", 0) == 0) e.event = line.substr(7);
      if (line.rfind("data: ", 0) == 0 && line != "data: [DONE]") {
        e.data = json::parse(line.substr(6));
      }
    }
    if (!e.data.is_null()) out.push_back(e);
  }
  return out;
}

class FakeLlmTest : public ::testing::Test {
 protected:
  void SetUp() override { fake_.start(); }

  HttpResult Send(const std::string& method, const std::string& path, const json& body) {
    auto r = http_request(method, fake_.url() + path, body.is_null() ? "" : body.dump(),
                          {{"content-type", "application/json"}}, 30);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? *r : HttpResult{};
  }
  HttpResult Post(const std::string& path, const json& body) { return Send("POST", path, body); }

  static json ChatTools() {
    auto fn = [](const std::string& name) {
      return json{{"type", "function"},
                  {"function", {{"name", name}, {"parameters", {{"type", "object"}}}}}};
    };
    return {fn("task"), fn("score"), fn("submit")};
  }
  // Claude Code's names for the MCP server "hpcab".
  static json AnthropicTools() {
    auto t = [](const std::string& name) {
      return json{{"name", "mcp__hpcab__" + name}, {"input_schema", {{"type", "object"}}}};
    };
    return {t("score"), t("submit")};
  }
  // Codex's form: each MCP server's tools in a namespace.
  static json ResponsesTools() {
    auto t = [](const std::string& name) {
      return json{{"type", "function"}, {"name", name}, {"parameters", {{"type", "object"}}}};
    };
    return {t("exec_command"),
            json{{"type", "namespace"},
                 {"name", "mcp__hpcab"},
                 {"description", "hpcab tools"},
                 {"tools", {t("score"), t("submit")}}},
            json{{"type", "web_search"}}};
  }
  void Script() {
    fake_.set_script({{"score", {{"source", "int x;"}}}, {"submit", {{"source", "int y;"}}}},
                     "All done.");
  }

  FakeLlm fake_;
};

TEST_F(FakeLlmTest, RoutesIgnoreTheQueryString) {
  auto r = Post("/v1/messages?beta=true", {{"model", "claude-x"},
                                           {"max_tokens", 10},
                                           {"messages", {{{"role", "user"}, {"content", "hi"}}}}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["content"][0]["text"], "Hello world");
  EXPECT_EQ(Send("GET", "/v1/models?limit=5", nullptr).status, 200);
  EXPECT_EQ(Post("/v1/nothing?x=1", json::object()).status, 404);
  EXPECT_EQ(fake_.totals().requests, 2);  // the message and the 404, not /v1/models
}

TEST_F(FakeLlmTest, ChatStreamOpensWithTheRole) {
  auto r = Post("/v1/chat/completions", {{"model", "m"},
                                         {"stream", true},
                                         {"stream_options", {{"include_usage", true}}},
                                         {"messages", {{{"role", "user"}, {"content", "hi"}}}}});
  ASSERT_EQ(r.status, 200);
  const auto events = ParseSse(r.body);
  ASSERT_GE(events.size(), 3u);
  EXPECT_EQ(events[0].data["choices"][0]["delta"]["role"], "assistant");
  std::string text;
  for (const auto& e : events) {
    EXPECT_EQ(e.data["object"], "chat.completion.chunk");
    if (!e.data["choices"].empty()) {
      text += e.data["choices"][0]["delta"].value("content", "");
      if (&e != &events[0]) {
        EXPECT_FALSE(e.data["choices"][0]["delta"].contains("role"));
      }
    }
  }
  EXPECT_EQ(text, "Hello world");
  EXPECT_TRUE(events.back().data["usage"].is_object());
}

TEST_F(FakeLlmTest, ResponsesStreamEmitsItemEventsWithSequenceNumbers) {
  auto r = Post("/v1/responses", {{"model", "m"}, {"stream", true}, {"input", "hi"}});
  ASSERT_EQ(r.status, 200);
  const auto events = ParseSse(r.body);
  std::vector<std::string> types;
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].event, events[i].data["type"]);
    EXPECT_EQ(events[i].data["sequence_number"], static_cast<int>(i)) << events[i].event;
    types.push_back(events[i].event);
  }
  const std::vector<std::string> want = {
      "response.created",           "response.in_progress",
      "response.output_item.added", "response.content_part.added",
      "response.output_text.delta", "response.output_text.delta",
      "response.output_text.done",  "response.content_part.done",
      "response.output_item.done",  "response.completed"};
  ASSERT_EQ(types, want);
  const json& added = events[2].data;
  const std::string id = added["item"]["id"];
  EXPECT_FALSE(id.empty());
  EXPECT_EQ(added["output_index"], 0);
  EXPECT_EQ(added["item"]["status"], "in_progress");
  EXPECT_EQ(events[4].data["item_id"], id);
  EXPECT_EQ(events[4].data["content_index"], 0);
  EXPECT_EQ(events[6].data["text"], "Hello world");
  const json& done = events[8].data;
  EXPECT_EQ(done["item"]["id"], id);
  EXPECT_EQ(done["output_index"], 0);
  EXPECT_EQ(done["item"]["content"][0]["text"], "Hello world");
  const json& completed = events[9].data["response"];
  EXPECT_EQ(completed["output"][0]["id"], id);
  EXPECT_EQ(completed["usage"]["input_tokens"], 210);
  EXPECT_EQ(events[0].data["response"]["output"], json::array());
}

TEST_F(FakeLlmTest, CountTokensAnswersAndIsNotCounted) {
  auto r = Post("/v1/messages/count_tokens?beta=true",
                {{"model", "claude-x"}, {"messages", {{{"role", "user"}, {"content", "hello"}}}}});
  ASSERT_EQ(r.status, 200) << r.body;
  const json j = json::parse(r.body);
  ASSERT_TRUE(j["input_tokens"].is_number_integer());
  EXPECT_GT(j["input_tokens"].get<int>(), 0);
  EXPECT_EQ(fake_.count_tokens_answers(), 1);
  EXPECT_EQ(fake_.totals().requests, 0);
  EXPECT_EQ(fake_.totals().input, 0);
}

// A HEAD answer is a header alone: the next answer on the same connection parses.
TEST_F(FakeLlmTest, HeadAnswersCarryNoBody) {
  const auto get = Send("GET", "/v1/models", nullptr);
  ASSERT_EQ(get.status, 200);
  asio::io_context ioc;
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), fake_.port()));
  beast::flat_buffer buf;
  for (const char* path : {"/v1/models", "/v1/chat/completions"}) {
    http::request<http::empty_body> head{http::verb::head, path, 11};
    head.set(http::field::host, "127.0.0.1");
    http::write(s, head);
    http::response_parser<http::empty_body> p;
    p.skip(true);  // what a client does for HEAD
    http::read(s, buf, p);
    if (std::string(path) == "/v1/models") {
      EXPECT_EQ(p.get().result_int(), 200u);
      EXPECT_EQ(p.get()[http::field::content_length], std::to_string(get.body.size()));
    } else {
      EXPECT_EQ(p.get().result_int(), 405u);  // completions take POST
      EXPECT_EQ(p.get()[http::field::allow], "POST");
    }
  }
  http::request<http::empty_body> next{http::verb::get, "/v1/models", 11};
  next.set(http::field::host, "127.0.0.1");
  http::write(s, next);
  http::response<http::string_body> res;
  http::read(s, buf, res);
  EXPECT_EQ(res.result_int(), 200u);
  EXPECT_EQ(res.body(), get.body);
}

TEST_F(FakeLlmTest, ScriptChatCompletionsCallsToolsInOrder) {
  Script();
  for (bool stream : {false, true}) {
    json messages = {{{"role", "user"}, {"content", "optimise"}}};
    std::vector<std::string> called;
    for (int turn = 0; turn < 3; ++turn) {
      auto r = Post(
          "/v1/chat/completions",
          {{"model", "m"}, {"stream", stream}, {"tools", ChatTools()}, {"messages", messages}});
      ASSERT_EQ(r.status, 200);
      json message = {{"role", "assistant"}, {"content", ""}};
      std::string finish;
      if (!stream) {
        const json c = json::parse(r.body)["choices"][0];
        message = c["message"];
        finish = c["finish_reason"];
      } else {
        const auto events = ParseSse(r.body);
        ASSERT_FALSE(events.empty());
        EXPECT_EQ(events[0].data["choices"][0]["delta"]["role"], "assistant");
        json call = {{"function", {{"arguments", ""}}}};
        for (const auto& e : events) {
          const json& ch = e.data["choices"][0];
          if (!ch["finish_reason"].is_null()) finish = ch["finish_reason"];
          const json& d = ch["delta"];
          if (d.contains("content") && d["content"].is_string()) {
            message["content"] =
                message["content"].get<std::string>() + d["content"].get<std::string>();
          }
          if (d.contains("tool_calls")) {
            const json& tc = d["tool_calls"][0];
            EXPECT_EQ(tc["index"], 0);
            if (tc.contains("id")) call["id"] = tc["id"], call["type"] = tc["type"];
            if (tc["function"].contains("name")) call["function"]["name"] = tc["function"]["name"];
            call["function"]["arguments"] = call["function"]["arguments"].get<std::string>() +
                                            tc["function"]["arguments"].get<std::string>();
          }
        }
        if (call.contains("id")) message["tool_calls"] = {call};
      }
      messages.push_back(message);
      if (turn < 2) {
        ASSERT_EQ(finish, "tool_calls") << r.body;
        const json& tc = message["tool_calls"][0];
        EXPECT_EQ(tc["type"], "function");
        EXPECT_FALSE(tc["id"].get<std::string>().empty());
        called.push_back(tc["function"]["name"]);
        const json args = json::parse(tc["function"]["arguments"].get<std::string>());
        EXPECT_EQ(args["source"], turn == 0 ? "int x;" : "int y;");
        messages.push_back({{"role", "tool"}, {"tool_call_id", tc["id"]}, {"content", "ok"}});
      } else {
        EXPECT_EQ(finish, "stop");
        EXPECT_EQ(message["content"], "All done.");
      }
    }
    EXPECT_EQ(called, (std::vector<std::string>{"score", "submit"})) << "stream " << stream;
  }
  EXPECT_EQ(fake_.script_calls(), 4);
  // Without tools (a side request), the ordinary text.
  auto r = Post("/v1/chat/completions",
                {{"model", "m"}, {"messages", {{{"role", "user"}, {"content", "title?"}}}}});
  EXPECT_EQ(json::parse(r.body)["choices"][0]["message"]["content"], "Hello world");
}

TEST_F(FakeLlmTest, ScriptResponsesEmitsFunctionCallItems) {
  Script();
  for (bool stream : {false, true}) {
    json input = {{{"role", "user"}, {"content", "optimise"}}};
    std::vector<std::string> called;
    for (int turn = 0; turn < 3; ++turn) {
      auto r =
          Post("/v1/responses",
               {{"model", "m"}, {"stream", stream}, {"tools", ResponsesTools()}, {"input", input}});
      ASSERT_EQ(r.status, 200);
      json output;
      if (!stream) {
        output = json::parse(r.body)["output"];
      } else {
        const auto events = ParseSse(r.body);
        output = json::array();
        std::string args;
        for (std::size_t i = 0; i < events.size(); ++i) {
          EXPECT_EQ(events[i].data["sequence_number"], static_cast<int>(i));
          if (events[i].event == "response.output_item.done")
            output.push_back(events[i].data["item"]);
          if (events[i].event == "response.function_call_arguments.delta") {
            args += events[i].data["delta"].get<std::string>();
          }
        }
        if (!output.empty() && output[0]["type"] == "function_call") {
          EXPECT_EQ(args, output[0]["arguments"]);
        }
        EXPECT_EQ(events.back().data["response"]["output"], output);
      }
      ASSERT_EQ(output.size(), 1u);
      if (turn < 2) {
        const json& item = output[0];
        ASSERT_EQ(item["type"], "function_call") << item.dump();
        EXPECT_FALSE(item["call_id"].get<std::string>().empty());
        EXPECT_FALSE(item["id"].get<std::string>().empty());
        EXPECT_EQ(item["namespace"], "mcp__hpcab");
        called.push_back(item["name"]);
        EXPECT_EQ(json::parse(item["arguments"].get<std::string>())["source"],
                  turn == 0 ? "int x;" : "int y;");
        input.push_back(item);
        input.push_back(
            {{"type", "function_call_output"}, {"call_id", item["call_id"]}, {"output", "ok"}});
      } else {
        EXPECT_EQ(output[0]["type"], "message");
        EXPECT_EQ(output[0]["content"][0]["text"], "All done.");
      }
    }
    EXPECT_EQ(called, (std::vector<std::string>{"score", "submit"}));
  }
}

TEST_F(FakeLlmTest, ScriptAnthropicEmitsToolUseBlocks) {
  Script();
  for (bool stream : {false, true}) {
    json messages = {{{"role", "user"}, {"content", "optimise"}}};
    std::vector<std::string> called;
    for (int turn = 0; turn < 3; ++turn) {
      auto r = Post("/v1/messages?beta=true", {{"model", "claude-x"},
                                               {"max_tokens", 100},
                                               {"stream", stream},
                                               {"tools", AnthropicTools()},
                                               {"messages", messages}});
      ASSERT_EQ(r.status, 200);
      json content = json::array();
      std::string stop;
      if (!stream) {
        const json j = json::parse(r.body);
        content = j["content"];
        stop = j["stop_reason"];
      } else {
        std::string partial;
        for (const auto& e : ParseSse(r.body)) {
          if (e.event == "content_block_start") content.push_back(e.data["content_block"]);
          if (e.event == "content_block_delta") {
            const json& d = e.data["delta"];
            if (d["type"] == "input_json_delta") partial += d["partial_json"].get<std::string>();
            if (d["type"] == "text_delta") {
              content[0]["text"] =
                  content[0]["text"].get<std::string>() + d["text"].get<std::string>();
            }
          }
          if (e.event == "message_delta") stop = e.data["delta"]["stop_reason"];
        }
        if (!partial.empty()) content[0]["input"] = json::parse(partial);
      }
      ASSERT_EQ(content.size(), 1u);
      messages.push_back({{"role", "assistant"}, {"content", content}});
      if (turn < 2) {
        EXPECT_EQ(stop, "tool_use");
        const json& b = content[0];
        ASSERT_EQ(b["type"], "tool_use");
        EXPECT_EQ(b["id"].get<std::string>().rfind("toolu_", 0), 0u);
        called.push_back(b["name"]);
        EXPECT_EQ(b["input"]["source"], turn == 0 ? "int x;" : "int y;");
        messages.push_back(
            {{"role", "user"},
             {"content",
              {{{"type", "tool_result"}, {"tool_use_id", b["id"]}, {"content", "ok"}}}}});
      } else {
        EXPECT_EQ(stop, "end_turn");
        EXPECT_EQ(content[0]["text"], "All done.");
      }
    }
    EXPECT_EQ(called, (std::vector<std::string>{"mcp__hpcab__score", "mcp__hpcab__submit"}));
  }
}

// A step whose tool the request does not offer ends the script: the final text, no call.
TEST_F(FakeLlmTest, ScriptStepWithoutItsToolAnswersText) {
  fake_.set_script({{"profile", json::object()}}, "No profile tool.");
  auto r = Post("/v1/chat/completions", {{"model", "m"},
                                         {"tools", ChatTools()},
                                         {"messages", {{{"role", "user"}, {"content", "go"}}}}});
  const json c = json::parse(r.body)["choices"][0];
  EXPECT_EQ(c["finish_reason"], "stop");
  EXPECT_EQ(c["message"]["content"], "No profile tool.");
  EXPECT_EQ(fake_.script_calls(), 0);
}

}  // namespace
}  // namespace hpcab::test
