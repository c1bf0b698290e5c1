// The token-metering proxy against the fake inference servers: forwarding (JSON and SSE, both
// dialects, http and https upstreams), usage accounting equal to what the fake reported, weights,
// budgets, context overflows, the usage endpoint and errors.
#include "harness/proxy.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "common/http_client.h"
#include "harness/judge_client.h"
#include "tests/harness/fake_llm.h"
#include "tests/judge/tls_test_util.h"

namespace hpcab::harness {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using nlohmann::json;

struct StreamResult {
  int status = 0;
  std::string content_type;
  std::string body;
};

// POSTs and reads the response piece by piece, calling on_piece(body so far) after each piece.
StreamResult StreamPost(std::uint16_t port, const std::string& path, const json& body,
                        const std::function<void(const std::string&)>& on_piece) {
  asio::io_context ioc;
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> req{http::verb::post, path, 11};
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::content_type, "application/json");
  req.body() = body.dump();
  req.prepare_payload();
  http::write(s, req);
  beast::flat_buffer buf;
  http::response_parser<http::buffer_body> p;
  p.body_limit(std::numeric_limits<std::uint64_t>::max());
  http::read_header(s, buf, p);
  StreamResult out;
  out.status = static_cast<int>(p.get().result_int());
  out.content_type = std::string(p.get()[http::field::content_type]);
  char b[4096];
  while (!p.is_done()) {
    p.get().body().data = b;
    p.get().body().size = sizeof b;
    beast::error_code ec;
    http::read_some(s, buf, p, ec);
    if (ec == http::error::need_buffer) ec = {};
    if (ec) throw beast::system_error(ec);
    const std::size_t n = sizeof b - p.get().body().size;
    if (n > 0) {
      out.body.append(b, n);
      on_piece(out.body);
    }
  }
  return out;
}

class ProxyTest : public ::testing::Test {
 protected:
  void SetUp() override { fake_.start(); }

  // Starts the proxy in front of the fake (OpenAI-style base URL, ending in /v1).
  void StartProxy(ProxyOptions opt = {}) {
    if (opt.upstream_url.empty()) opt.upstream_url = fake_.url() + "/v1";
    opt.on_budget_exhausted = [this](const std::string& episode) {
      std::lock_guard lock(mu_);
      exhausted_.push_back(episode);
    };
    opt.on_context_overflow = [this](const std::string& episode) {
      std::lock_guard lock(mu_);
      overflows_.push_back(episode);
    };
    proxy_ = std::make_unique<MeteringProxy>(std::move(opt), &sink_);
    auto port = proxy_->start();
    ASSERT_TRUE(port.ok()) << port.error().message;
    port_ = *port;
    proxy_->set_episode("ep1", 0);
  }

  std::string Url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

  HttpResult Post(const std::string& path, const json& body,
                  const std::map<std::string, std::string>& headers = {}) {
    auto h = headers;
    h["content-type"] = "application/json";
    auto r = http_request("POST", Url(path), body.dump(), h, 30);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? *r : HttpResult{};
  }

  static json Chat(bool stream) {
    return {
        {"model", "m1"}, {"messages", {{{"role", "user"}, {"content", "hi"}}}}, {"stream", stream}};
  }
  static json Message(bool stream) {
    return {{"model", "claude-x"},
            {"max_tokens", 64},
            {"messages", {{{"role", "user"}, {"content", "hi"}}}},
            {"stream", stream}};
  }

  std::vector<std::string> Exhausted() {
    std::lock_guard lock(mu_);
    return exhausted_;
  }
  std::vector<std::string> Overflows() {
    std::lock_guard lock(mu_);
    return overflows_;
  }
  json Usage() {
    auto r = http_request("GET", Url("/hpcab/usage"), "", {}, 30);
    EXPECT_TRUE(r.ok()) << r.error().message;
    if (!r.ok()) return json();
    EXPECT_EQ(r->status, 200) << r->body;
    return json::parse(r->body, nullptr, false);
  }

  test::FakeLlm fake_;
  MemoryUsageSink sink_;
  std::unique_ptr<MeteringProxy> proxy_;
  std::uint16_t port_ = 0;
  std::mutex mu_;
  std::vector<std::string> exhausted_;
  std::vector<std::string> overflows_;
};

void ExpectTotalsEqualFake(const EpisodeTotals& t, const test::FakeTotals& f) {
  EXPECT_EQ(t.usage.input, f.input);
  EXPECT_EQ(t.usage.cached, f.cached);
  EXPECT_EQ(t.usage.output, f.output);
}

TEST_F(ProxyTest, OpenAIChatJsonIsForwardedAndMetered) {
  StartProxy();
  HttpResult r = Post("/v1/chat/completions", Chat(false));
  ASSERT_EQ(r.status, 200) << r.body;
  json j = json::parse(r.body);
  EXPECT_EQ(j["choices"][0]["message"]["content"], "Hello world");
  auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 1u);
  const RequestRecord& rec = recs[0];
  EXPECT_EQ(rec.episode, "ep1");
  EXPECT_EQ(rec.api, "openai");
  EXPECT_EQ(rec.endpoint, "/v1/chat/completions");
  EXPECT_EQ(rec.model, "m1");
  EXPECT_FALSE(rec.stream);
  EXPECT_EQ(rec.status, 200);
  // Fake request 1: prompt 110 of which 31 cached, completion 6.
  EXPECT_EQ(rec.usage.input, 79);
  EXPECT_EQ(rec.usage.cached, 31);
  EXPECT_EQ(rec.usage.output, 6);
  EXPECT_DOUBLE_EQ(rec.weighted, 79 + 3.1 + 6);
  EXPECT_GT(rec.latency_s, 0);
  ExpectTotalsEqualFake(proxy_->totals("ep1"), fake_.totals());
  // A non-streamed request is forwarded as sent: no stream_options added.
  EXPECT_FALSE(json::parse(fake_.last_body()).contains("stream_options"));
}

TEST_F(ProxyTest, OpenAIStreamArrivesIncrementallyWithInjectedUsage) {
  StartProxy();
  fake_.set_hold_streams(true);
  bool released = false;
  StreamResult r = StreamPost(port_, "/v1/chat/completions", Chat(true), [&](const std::string& s) {
    // The fake holds the rest of its stream until we saw the first piece through the proxy.
    if (!released && s.find("Hello") != std::string::npos) {
      released = true;
      fake_.release_stream();
    }
  });
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/event-stream");
  EXPECT_TRUE(released);
  EXPECT_TRUE(fake_.last_hold_released()) << "the proxy buffered the stream";
  EXPECT_NE(r.body.find(" world"), std::string::npos);
  EXPECT_NE(r.body.find("data: [DONE]"), std::string::npos);
  json forwarded = json::parse(fake_.last_body());
  EXPECT_EQ(forwarded["stream_options"]["include_usage"], true);
  auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_TRUE(recs[0].stream);
  EXPECT_TRUE(recs[0].usage.seen);
  EXPECT_EQ(recs[0].usage.input, 79);
  EXPECT_EQ(recs[0].usage.cached, 31);
  EXPECT_EQ(recs[0].usage.output, 6);
  ExpectTotalsEqualFake(proxy_->totals("ep1"), fake_.totals());
}

TEST_F(ProxyTest, OpenAIStreamKeepsTheAgentsOtherStreamOptions) {
  StartProxy();
  json body = Chat(true);
  body["stream_options"] = {{"include_usage", false}, {"continuous_usage_stats", false}};
  StreamResult r = StreamPost(port_, "/v1/completions", body, [](const std::string&) {});
  EXPECT_EQ(r.status, 200);
  json forwarded = json::parse(fake_.last_body());
  EXPECT_EQ(forwarded["stream_options"]["include_usage"], true);
  EXPECT_EQ(forwarded["stream_options"]["continuous_usage_stats"], false);
  ExpectTotalsEqualFake(proxy_->totals("ep1"), fake_.totals());
  EXPECT_EQ(proxy_->totals("ep1").usage.output, 6);
}

TEST_F(ProxyTest, AnthropicJsonIsMetered) {
  StartProxy();
  HttpResult r = Post("/v1/messages", Message(false), {{"anthropic-version", "2023-06-01"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["content"][0]["text"], "Hello world");
  EXPECT_EQ(fake_.last_header("anthropic-version"), "2023-06-01");
  auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].api, "anthropic");
  EXPECT_EQ(recs[0].model, "claude-x");
  // Fake request 1: input 51 + cache creation 20 = 71 uncached, 41 cache reads, output 9.
  EXPECT_EQ(recs[0].usage.input, 71);
  EXPECT_EQ(recs[0].usage.cached, 41);
  EXPECT_EQ(recs[0].usage.output, 9);
  ExpectTotalsEqualFake(proxy_->totals("ep1"), fake_.totals());
}

TEST_F(ProxyTest, AnthropicStreamArrivesIncrementallyAndIsMetered) {
  StartProxy();
  fake_.set_hold_streams(true);
  bool released = false;
  StreamResult r = StreamPost(port_, "/v1/messages", Message(true), [&](const std::string& s) {
    if (!released && s.find("Hello") != std::string::npos) {
      released = true;
      fake_.release_stream();
    }
  });
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(fake_.last_hold_released()) << "the proxy buffered the stream";
  EXPECT_NE(r.body.find("message_stop"), std::string::npos);
  auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_TRUE(recs[0].stream);
  EXPECT_EQ(recs[0].usage.input, 71);
  EXPECT_EQ(recs[0].usage.cached, 41);
  EXPECT_EQ(recs[0].usage.output, 9);  // message_delta's count, not message_start's 1
  // Anthropic streams are forwarded untouched.
  EXPECT_FALSE(json::parse(fake_.last_body()).contains("stream_options"));
}

// Codex speaks the Responses API: its usage counts cached tokens inside input_tokens, and
// streams report it in the final response.completed event (no include_usage to inject).
TEST_F(ProxyTest, ResponsesApiJsonAndStreamAreMetered) {
  StartProxy();
  json body = {{"model", "gpt-x"}, {"input", "hi"}, {"stream", false}};
  HttpResult r = Post("/v1/responses", body);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["object"], "response");
  body["stream"] = true;
  StreamResult st = StreamPost(port_, "/v1/responses", body, [](const std::string&) {});
  EXPECT_EQ(st.status, 200);
  EXPECT_NE(st.body.find("response.completed"), std::string::npos);
  EXPECT_FALSE(json::parse(fake_.last_body()).contains("stream_options"));
  auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].endpoint, "/v1/responses");
  EXPECT_EQ(recs[0].model, "gpt-x");
  // Fake request 1: input 210 of which 61 cached, output 13.
  EXPECT_EQ(recs[0].usage.input, 149);
  EXPECT_EQ(recs[0].usage.cached, 61);
  EXPECT_EQ(recs[0].usage.output, 13);
  EXPECT_TRUE(recs[1].stream);
  EXPECT_TRUE(recs[1].usage.seen);
  EXPECT_EQ(recs[1].usage.input, 220 - 62);
  EXPECT_EQ(recs[1].usage.cached, 62);
  EXPECT_EQ(recs[1].usage.output, 14);
  ExpectTotalsEqualFake(proxy_->totals("ep1"), fake_.totals());
}

// A server that reports no usage: the proxy counts each successful response itself, the
// request's text ("hi") as input and the answer ("Hello world") as output, and marks the record.
// Without a tokenizer: the estimate, ceil(bytes / 4): 1 and 3.
TEST_F(ProxyTest, ResponsesWithoutUsageAreEstimated) {
  fake_.set_omit_usage(true);
  StartProxy();
  auto ignore = [](const std::string&) {};
  const json responses = {{"model", "m"}, {"input", "hi"}};
  for (bool stream : {false, true}) {
    json r = responses;
    r["stream"] = stream;
    if (stream) {
      EXPECT_EQ(StreamPost(port_, "/v1/chat/completions", Chat(true), ignore).status, 200);
      EXPECT_EQ(StreamPost(port_, "/v1/messages", Message(true), ignore).status, 200);
      EXPECT_EQ(StreamPost(port_, "/v1/responses", r, ignore).status, 200);
    } else {
      EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
      EXPECT_EQ(Post("/v1/messages", Message(false)).status, 200);
      EXPECT_EQ(Post("/v1/responses", r).status, 200);
    }
  }
  EXPECT_EQ(fake_.totals().requests, 6);
  EXPECT_EQ(fake_.totals().input + fake_.totals().output, 0);  // it reported nothing
  const auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 6u);
  for (const RequestRecord& rec : recs) {
    EXPECT_FALSE(rec.usage.seen) << rec.endpoint;
    EXPECT_EQ(rec.source, TokenSource::kEstimated) << rec.endpoint << " stream " << rec.stream;
    EXPECT_EQ(rec.usage.input, 1) << rec.endpoint << " stream " << rec.stream;
    EXPECT_EQ(rec.usage.cached, 0);
    EXPECT_EQ(rec.usage.output, 3) << rec.endpoint << " stream " << rec.stream;
    EXPECT_DOUBLE_EQ(rec.weighted, 4);
  }
  EXPECT_EQ(proxy_->totals("ep1").usage.input, 6);
  EXPECT_EQ(proxy_->totals("ep1").usage.output, 18);
  EXPECT_EQ(Usage()["output"], 18);  // what the agent tools send to the judge
}

// With the arm's tokenizer: "hi" is 2 tokens, "Hello world" 2 (hello_world_vocabulary). A server
// that reports usage again is reported, and an error answer is not counted.
TEST_F(ProxyTest, ResponsesWithoutUsageAreCountedWithTheTokenizer) {
  fake_.set_omit_usage(true);
  ProxyOptions opt;
  auto vocab = BpeTokenizer::parse(test::hello_world_vocabulary(), "hello-world");
  ASSERT_TRUE(vocab.ok()) << vocab.error().message;
  opt.tokenizer = *vocab;
  StartProxy(opt);
  auto ignore = [](const std::string&) {};
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
  EXPECT_EQ(StreamPost(port_, "/v1/chat/completions", Chat(true), ignore).status, 200);
  EXPECT_EQ(Post("/v1/messages", Message(false)).status, 200);
  EXPECT_EQ(StreamPost(port_, "/v1/messages", Message(true), ignore).status, 200);
  fake_.set_error(test::FakeLlm::Error::kOpenAIMaxTokens);
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 400);
  fake_.set_error(test::FakeLlm::Error::kNone);
  fake_.set_omit_usage(false);
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
  const auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 6u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(recs[i].source, TokenSource::kCounted) << i;
    EXPECT_EQ(recs[i].usage.input, 2) << i;
    EXPECT_EQ(recs[i].usage.cached, 0) << i;
    EXPECT_EQ(recs[i].usage.output, 2) << i;
  }
  EXPECT_EQ(recs[4].source, TokenSource::kNone);
  EXPECT_EQ(recs[4].usage.input + recs[4].usage.output, 0);
  EXPECT_EQ(recs[5].source, TokenSource::kReported);
  EXPECT_TRUE(recs[5].usage.seen);
  EXPECT_EQ(recs[5].usage.input, fake_.totals().input);  // the only usage the fake reported
  EXPECT_EQ(recs[5].usage.output, fake_.totals().output);
  EXPECT_EQ(proxy_->totals("ep1").usage.input, 8 + recs[5].usage.input);
}

TEST_F(ProxyTest, ModelsPassThroughUnmetered) {
  StartProxy();
  auto r = http_request("GET", Url("/v1/models"), "", {}, 30);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(json::parse(r->body)["data"][0]["id"], "fake-model");
  auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, 200);
  EXPECT_FALSE(recs[0].usage.seen);
  EXPECT_EQ(proxy_->totals("ep1").weighted, 0);
}

TEST_F(ProxyTest, TotalsEqualTheFakeServersOverAMix) {
  StartProxy();
  auto ignore = [](const std::string&) {};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
    EXPECT_EQ(StreamPost(port_, "/v1/chat/completions", Chat(true), ignore).status, 200);
    json completion = {{"model", "m1"}, {"prompt", "x"}, {"stream", i % 2 == 0}};
    EXPECT_EQ(StreamPost(port_, "/v1/completions", completion, ignore).status, 200);
    EXPECT_EQ(Post("/v1/messages", Message(false)).status, 200);
    EXPECT_EQ(StreamPost(port_, "/v1/messages", Message(true), ignore).status, 200);
  }
  const test::FakeTotals f = fake_.totals();
  EXPECT_EQ(f.requests, 15);
  const EpisodeTotals t = proxy_->totals("ep1");
  EXPECT_EQ(t.requests, 15);
  ExpectTotalsEqualFake(t, f);
  const EpisodeTotals s = sink_.totals("ep1");
  EXPECT_EQ(s.requests, 15);
  ExpectTotalsEqualFake(s, f);
  EXPECT_DOUBLE_EQ(t.weighted, f.input + 0.1 * f.cached + f.output);
}

TEST_F(ProxyTest, WeightedCostUsesTheGivenWeights) {
  ProxyOptions opt;
  opt.weights = {2.0, 0.5, 3.0};
  StartProxy(opt);
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
  const auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_DOUBLE_EQ(recs[0].weighted, 2.0 * 79 + 0.5 * 31 + 3.0 * 6);
  EXPECT_DOUBLE_EQ(proxy_->totals("ep1").weighted, 2.0 * 79 + 0.5 * 31 + 3.0 * 6);
}

TEST_F(ProxyTest, ExhaustedBudgetRefusesReadablyAndFiresOnce) {
  StartProxy();
  proxy_->set_episode("ep-b", 100);
  // Request 1 costs 79 + 3.1 + 6 = 88.1: within budget.
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
  EXPECT_TRUE(Exhausted().empty());
  EXPECT_FALSE(proxy_->budget_exhausted("ep-b"));
  // Request 2 (88 + 3.2 + 7) is answered, and takes the episode past its budget.
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
  EXPECT_EQ(Exhausted(), std::vector<std::string>{"ep-b"});
  EXPECT_TRUE(proxy_->budget_exhausted("ep-b"));

  HttpResult r = Post("/v1/chat/completions", Chat(false));
  EXPECT_EQ(r.status, 402);
  json e = json::parse(r.body);
  EXPECT_EQ(e["error"]["type"], "budget_exceeded");
  EXPECT_NE(e["error"]["message"].get<std::string>().find("token budget of 100"), std::string::npos)
      << r.body;
  StreamResult s = StreamPost(port_, "/v1/messages", Message(true), [](const std::string&) {});
  EXPECT_EQ(s.status, 402);
  json a = json::parse(s.body);
  EXPECT_EQ(a["type"], "error");
  EXPECT_EQ(a["error"]["type"], "budget_exceeded");
  EXPECT_EQ(Exhausted().size(), 1u);      // fired exactly once
  EXPECT_EQ(fake_.totals().requests, 2);  // refused requests never reach the model
  ExpectTotalsEqualFake(proxy_->totals("ep-b"), fake_.totals());

  // The next episode starts afresh; the first one's totals stay.
  proxy_->set_episode("ep-c", 1000);
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
  EXPECT_EQ(proxy_->totals("ep-c").requests, 1);
  EXPECT_EQ(proxy_->totals("ep-b").requests, 4);
  EXPECT_EQ(Exhausted().size(), 1u);

  // Raising ep-b's budget lets it continue, and exhausting it again fires again.
  proxy_->set_episode("ep-b", 200);
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
  EXPECT_EQ(Exhausted(), (std::vector<std::string>{"ep-b", "ep-b"}));
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 402);
}

TEST_F(ProxyTest, UpstreamDownIs502WithAClearMessage) {
  const std::string url = fake_.url();
  fake_.stop();
  ProxyOptions opt;
  opt.upstream_url = url;
  StartProxy(opt);
  HttpResult r = Post("/v1/chat/completions", Chat(false));
  EXPECT_EQ(r.status, 502);
  const std::string message = json::parse(r.body)["error"]["message"];
  EXPECT_NE(message.find("unreachable"), std::string::npos) << message;
  EXPECT_NE(message.find(url), std::string::npos) << message;
  HttpResult a = Post("/v1/messages", Message(false));
  EXPECT_EQ(a.status, 502);
  EXPECT_EQ(json::parse(a.body)["type"], "error");
  auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].status, 502);
  EXPECT_FALSE(recs[0].error.empty());
}

TEST_F(ProxyTest, OversizedRequestIs413) {
  ProxyOptions opt;
  opt.max_body_bytes = 1024;
  StartProxy(opt);
  json body = Chat(false);
  body["messages"][0]["content"] = std::string(4096, 'x');
  HttpResult r = Post("/v1/chat/completions", body);
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(json::parse(r.body)["error"]["type"], "request_too_large");
  EXPECT_EQ(fake_.totals().requests, 0);
}

// Claude Code's path carries a query string: the refusal still speaks Anthropic's dialect.
TEST_F(ProxyTest, OversizedRequestWithAQueryIs413InItsDialect) {
  ProxyOptions opt;
  opt.max_body_bytes = 1024;
  StartProxy(opt);
  json body = Message(false);
  body["messages"][0]["content"] = std::string(4096, 'x');
  HttpResult r = Post("/v1/messages?beta=true", body);
  EXPECT_EQ(r.status, 413);
  const json j = json::parse(r.body);
  EXPECT_EQ(j["type"], "error") << r.body;
  EXPECT_EQ(j["error"]["type"], "request_too_large");
  EXPECT_EQ(fake_.totals().requests, 0);
}

TEST_F(ProxyTest, ConnectionsBeyondTheCapAre503) {
  ProxyOptions opt;
  opt.max_connections = 1;
  StartProxy(opt);
  asio::io_context ioc;
  tcp::socket idle(ioc);  // holds the only slot without sending anything
  idle.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
  HttpResult r = Post("/v1/chat/completions", Chat(false));
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(json::parse(r.body)["error"]["type"], "overloaded");
  EXPECT_EQ(fake_.totals().requests, 0);
}

// SDKs reuse connections: several requests, streamed and not, over one keep-alive connection.
TEST_F(ProxyTest, KeepAliveConnectionServesSeveralRequests) {
  StartProxy();
  asio::io_context ioc;
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
  beast::flat_buffer buf;
  for (int i = 0; i < 4; ++i) {
    http::request<http::string_body> req{http::verb::post,
                                         i % 2 ? "/v1/messages" : "/v1/chat/completions", 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::content_type, "application/json");
    req.body() = (i % 2 ? Message(i >= 2) : Chat(i >= 2)).dump();
    req.prepare_payload();
    http::write(s, req);
    http::response<http::string_body> res;
    http::read(s, buf, res);
    EXPECT_EQ(res.result_int(), 200u) << res.body();
    EXPECT_TRUE(res.keep_alive());
  }
  EXPECT_EQ(fake_.totals().requests, 4);
  ExpectTotalsEqualFake(proxy_->totals("ep1"), fake_.totals());
}

// RFC 9110 §9.3.2: an answer to HEAD has no body. On a kept-alive connection body bytes would be
// read as the start of the next response, so each HEAD here is followed by more requests.
TEST_F(ProxyTest, HeadIsAnsweredWithoutABodyOnAKeptAliveConnection) {
  StartProxy();
  asio::io_context ioc;
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
  beast::flat_buffer buf;
  auto exchange = [&](http::verb verb, const std::string& path) {
    http::request<http::empty_body> req{verb, path, 11};
    req.set(http::field::host, "127.0.0.1");
    http::write(s, req);
    http::response_parser<http::string_body> parser;
    parser.skip(verb == http::verb::head);  // a HEAD answer ends with its header
    beast::error_code ec;
    http::read(s, buf, parser, ec);
    EXPECT_FALSE(ec) << path << ": " << ec.message();
    return parser.release();
  };
  // A GET route: forwarded as HEAD; the upstream's Content-Length is relayed, no body.
  const auto models_head = exchange(http::verb::head, "/v1/models");
  EXPECT_EQ(models_head.result_int(), 200u);
  EXPECT_TRUE(models_head.keep_alive());
  EXPECT_EQ(models_head.body(), "");
  // The proxy's own answers: the usage endpoint, an unknown path, a POST-only route.
  for (const auto& [path, status] : std::vector<std::pair<std::string, unsigned>>{
           {"/hpcab/usage", 200u}, {"/v1/nope", 404u}, {"/v1/chat/completions", 405u}}) {
    const auto res = exchange(http::verb::head, path);
    EXPECT_EQ(res.result_int(), status) << path;
    EXPECT_TRUE(res.keep_alive()) << path;
    EXPECT_EQ(res.body(), "") << path;
    EXPECT_NE(res[http::field::content_length], "0") << path;
  }
  // The GET behind them parses, with its body intact.
  const auto models = exchange(http::verb::get, "/v1/models");
  EXPECT_EQ(models.result_int(), 200u);
  const json j = json::parse(models.body(), nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(j.is_object()) << models.body();
  EXPECT_EQ(j["data"][0]["id"], "fake-model");
  EXPECT_EQ(models_head[http::field::content_length], std::to_string(models.body().size()));
  EXPECT_EQ(fake_.totals().requests, 0);  // none of it was a model request
}

// curl sends "Expect: 100-continue" for larger bodies and waits for the interim answer.
TEST_F(ProxyTest, ExpectContinueIsAnsweredAndNotForwarded) {
  StartProxy();
  asio::io_context ioc;
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
  const std::string body = Chat(false).dump();
  const std::string head =
      "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
      "Content-Type: application/json\r\nExpect: 100-continue\r\n"
      "Content-Length: " +
      std::to_string(body.size()) + "\r\n\r\n";
  asio::write(s, asio::buffer(head));
  std::string interim;  // nothing else can arrive before the body is sent
  asio::read_until(s, asio::dynamic_buffer(interim), "\r\n\r\n");
  EXPECT_EQ(interim, "HTTP/1.1 100 Continue\r\n\r\n");
  asio::write(s, asio::buffer(body));
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(s, buf, res);
  EXPECT_EQ(res.result_int(), 200u) << res.body();
  EXPECT_EQ(fake_.last_header("expect"), "");
  EXPECT_EQ(proxy_->totals("ep1").usage.output, 6);
}

TEST_F(ProxyTest, ConcurrentRequestsAreAllCounted) {
  StartProxy();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) {
        const bool anthropic = (t + i) % 2 == 1;
        StreamResult r = StreamPost(port_, anthropic ? "/v1/messages" : "/v1/chat/completions",
                                    anthropic ? Message(i % 2 == 0) : Chat(i % 2 == 0),
                                    [](const std::string&) {});
        if (r.status == 200) ++ok;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok, 20);
  EXPECT_EQ(fake_.totals().requests, 20);
  EXPECT_EQ(proxy_->totals("ep1").requests, 20);
  ExpectTotalsEqualFake(proxy_->totals("ep1"), fake_.totals());
}

TEST_F(ProxyTest, UpstreamBreakingOffAStreamTruncatesTheAgentsResponse) {
  StartProxy();
  fake_.set_break_streams(true);
  std::string seen;
  // The agent gets what was sent, then a cut connection instead of a complete-looking body.
  EXPECT_THROW(StreamPost(port_, "/v1/chat/completions", Chat(true),
                          [&](const std::string& s) { seen = s; }),
               beast::system_error);
  EXPECT_NE(seen.find("Hello"), std::string::npos);
  const auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, 200);
  EXPECT_NE(recs[0].error.find("broke off"), std::string::npos) << recs[0].error;
  EXPECT_FALSE(recs[0].usage.seen);
}

TEST_F(ProxyTest, AgentHangingUpMidStreamIsRecorded) {
  StartProxy();
  fake_.set_hold_streams(true);
  {
    asio::io_context ioc;
    tcp::socket s(ioc);
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
    http::request<http::string_body> req{http::verb::post, "/v1/chat/completions", 11};
    req.set(http::field::host, "127.0.0.1");
    req.body() = Chat(true).dump();
    req.prepare_payload();
    http::write(s, req);
    std::string got;
    while (got.find("Hello") == std::string::npos) {
      char b[1024];
      got.append(b, s.read_some(asio::buffer(b)));
    }
  }  // closed with the stream half-way
  fake_.release_stream();
  // The proxy notices on its next writes; generous bound.
  for (int i = 0; i < 200 && sink_.records().empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].episode, "ep1");
  // The proxy still works afterwards.
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
}

TEST_F(ProxyTest, UnknownPathIs404AndNotForwarded) {
  StartProxy();
  HttpResult r = Post("/v1/embeddings", {{"input", "x"}});
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("does not forward"), std::string::npos);
  EXPECT_EQ(fake_.totals().requests, 0);
}

TEST_F(ProxyTest, UpstreamKeyReplacesTheAgentsKey) {
  ProxyOptions opt;
  opt.upstream_api_key = "sk-real";
  StartProxy(opt);
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false), {{"authorization", "Bearer dummy"}}).status,
            200);
  EXPECT_EQ(fake_.last_header("authorization"), "Bearer sk-real");
  EXPECT_EQ(fake_.last_header("x-api-key"), "sk-real");
}

TEST_F(ProxyTest, LatencyIncludesASlowUpstream) {
  StartProxy();
  fake_.set_delay_ms(300);
  EXPECT_EQ(Post("/v1/messages", Message(false)).status, 200);
  const auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_GE(recs[0].latency_s, 0.25);
  EXPECT_GE(recs[0].first_byte_s, 0.25);
}

TEST_F(ProxyTest, CallbackSinkSeesEveryRequest) {
  std::atomic<int> seen{0};
  CallbackUsageSink cb([&](const RequestRecord& r) {
    if (r.status == 200) ++seen;
  });
  ProxyOptions opt;
  opt.upstream_url = fake_.url();
  MeteringProxy proxy(opt, &cb);
  auto port = proxy.start();
  ASSERT_TRUE(port.ok());
  for (int i = 0; i < 3; ++i) {
    auto r = http_request("POST", "http://127.0.0.1:" + std::to_string(*port) + "/v1/messages",
                          Message(false).dump(), {{"content-type", "application/json"}}, 30);
    ASSERT_TRUE(r.ok());
  }
  proxy.stop();
  EXPECT_EQ(seen, 3);
}

// ---- context overflow (exit 126) ----

struct OverflowCase {
  test::FakeLlm::Error error;
  const char* path;
  bool stream;
};

TEST_F(ProxyTest, ContextOverflowFiresOncePerEpisodeAndIsRelayedUnchanged) {
  StartProxy();
  using E = test::FakeLlm::Error;
  const OverflowCase cases[] = {
      {E::kOpenAIContextLength, "/v1/chat/completions", false},
      {E::kOpenAIContextLength, "/v1/chat/completions", true},
      {E::kVllmContextLength, "/v1/completions", false},
      {E::kVllmMaxModelLen, "/v1/chat/completions", true},
      {E::kSglangContextLength, "/v1/chat/completions", false},
      {E::kAnthropicPromptTooLong, "/v1/messages", false},
      {E::kAnthropicPromptTooLong, "/v1/messages", true},
  };
  std::vector<std::string> expected;
  int n = 0;
  for (const OverflowCase& c : cases) {
    const std::string episode = "ov-" + std::to_string(n++);
    SCOPED_TRACE(episode + " " + c.path);
    proxy_->set_episode(episode, 1000);
    fake_.set_error(c.error);
    const bool anthropic = std::string(c.path) == "/v1/messages";
    const json body = anthropic ? Message(c.stream) : Chat(c.stream);
    // Twice: an agent that retries the same prompt. The callback fires for the first only.
    for (int i = 0; i < 2; ++i) {
      StreamResult r = StreamPost(port_, c.path, body, [](const std::string&) {});
      EXPECT_EQ(r.status, 400);
      EXPECT_EQ(r.body, test::FakeLlm::error_body(c.error));  // the upstream's answer, as sent
      EXPECT_EQ(r.content_type, "application/json");
    }
    expected.push_back(episode);
    EXPECT_EQ(Overflows(), expected);  // reported before the agent had the whole answer
    EXPECT_TRUE(proxy_->context_overflowed(episode));
    EXPECT_FALSE(proxy_->budget_exhausted(episode));
    EXPECT_EQ(proxy_->totals(episode).requests, 2);
  }
  const auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 2 * std::size(cases));
  for (const RequestRecord& rec : recs) {
    EXPECT_TRUE(rec.context_overflow) << rec.episode;
    EXPECT_EQ(rec.status, 400);
    EXPECT_FALSE(rec.usage.seen);
    EXPECT_EQ(rec.weighted, 0);
  }

  // Naming an episode again (a relaunch) re-arms the callback; a good answer does not fire it.
  fake_.set_error(E::kNone);
  proxy_->set_episode("ov-0", 1000);
  EXPECT_FALSE(proxy_->context_overflowed("ov-0"));
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
  EXPECT_EQ(Overflows().size(), std::size(cases));
  EXPECT_FALSE(sink_.records().back().context_overflow);
  fake_.set_error(E::kOpenAIContextLength);
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 400);
  EXPECT_EQ(Overflows().size(), std::size(cases) + 1);
  EXPECT_EQ(Overflows().back(), "ov-0");
}

TEST_F(ProxyTest, OtherBadRequestsAreNotContextOverflows) {
  StartProxy();
  using E = test::FakeLlm::Error;
  fake_.set_error(E::kOpenAIMaxTokens);
  HttpResult r = Post("/v1/chat/completions", Chat(false));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, test::FakeLlm::error_body(E::kOpenAIMaxTokens));
  fake_.set_error(E::kAnthropicMaxTokens);
  HttpResult a = Post("/v1/messages", Message(false));
  EXPECT_EQ(a.status, 400);
  EXPECT_EQ(a.body, test::FakeLlm::error_body(E::kAnthropicMaxTokens));
  // An unknown path (404 from the proxy) and a 200 are not either.
  EXPECT_EQ(Post("/v1/embeddings", {{"input", "x"}}).status, 404);
  fake_.set_error(E::kNone);
  EXPECT_EQ(Post("/v1/messages", Message(false)).status, 200);
  EXPECT_TRUE(Overflows().empty());
  EXPECT_FALSE(proxy_->context_overflowed("ep1"));
  for (const RequestRecord& rec : sink_.records()) EXPECT_FALSE(rec.context_overflow);
}

// Error bodies in each dialect's shape.
std::string OpenAIError(const std::string& message, const json& code = nullptr) {
  return json{{"error",
               {{"message", message},
                {"type", "invalid_request_error"},
                {"param", nullptr},
                {"code", code}}}}
      .dump();
}
std::string ServerError(const std::string& message) {  // vLLM's and SGLang's bare ErrorResponse
  return json{{"object", "error"},
              {"message", message},
              {"type", "BadRequestError"},
              {"param", nullptr},
              {"code", 400}}
      .dump();
}
std::string AnthropicError(const std::string& type, const std::string& message) {
  return json{{"type", "error"}, {"error", {{"type", type}, {"message", message}}}}.dump();
}

TEST(ContextOverflowError, RecognisesTheWireForms) {
  // OpenAI, with the code alone and with the message alone.
  EXPECT_TRUE(context_overflow_error(400, R"({"error":{"code":"context_length_exceeded"}})"));
  EXPECT_TRUE(context_overflow_error(
      400, OpenAIError("This model's maximum context length is 8192 tokens. However, your "
                       "messages resulted in 9001 tokens.")));
  // OpenAI Responses API.
  EXPECT_TRUE(context_overflow_error(
      400, OpenAIError("Your input exceeds the context window of this model. Please adjust your "
                       "input and try again.")));
  // vLLM's max_tokens check names the context window too: the prompt plus the agent's reply
  // no longer fit, and will not on a retry.
  EXPECT_TRUE(context_overflow_error(
      400, ServerError("'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's "
                       "maximum context length is 4096 tokens and your request has 2778 input "
                       "tokens (8000 > 4096 - 2778). None")));
  // SGLang's total-length check.
  EXPECT_TRUE(context_overflow_error(
      400, ServerError("Requested token count exceeds the model's maximum context length of 4096 "
                       "tokens. You requested a total of 5000 tokens: 4000 tokens from the input "
                       "messages and 1000 tokens for the completion.")));
  // Anthropic's input + max_tokens check.
  EXPECT_TRUE(context_overflow_error(
      400, AnthropicError("invalid_request_error",
                          "input length and `max_tokens` exceed context limit: 197626 + 21333 > "
                          "200000, decrease input length or `max_tokens` and try again")));
  // A gateway nesting the upstream's JSON in a string, and a plain-text or SSE error body.
  EXPECT_TRUE(context_overflow_error(
      400, OpenAIError(AnthropicError("invalid_request_error",
                                      "prompt is too long: 210000 tokens > 200000 maximum"))));
  EXPECT_TRUE(context_overflow_error(400, "Prompt is too long: 210000 tokens > 200000 maximum"));
  EXPECT_TRUE(context_overflow_error(
      400, "event: error\ndata: " +
               AnthropicError("invalid_request_error", "prompt is too long: 2 tokens > 1 maximum") +
               "\n\n"));

  // Not overflows: other refusals, and any non-4xx status whatever its text.
  EXPECT_FALSE(context_overflow_error(
      400, ServerError("max_completion_tokens is too large: 100000.This model supports at most "
                       "16384 completion tokens.")));
  EXPECT_FALSE(context_overflow_error(
      400, AnthropicError("invalid_request_error",
                          "max_tokens: 10000 > 4096, which is the maximum allowed number of "
                          "output tokens for claude-3-5-sonnet-20240620")));
  EXPECT_FALSE(
      context_overflow_error(401, OpenAIError("Incorrect API key provided", "invalid_api_key")));
  EXPECT_FALSE(context_overflow_error(429, AnthropicError("rate_limit_error", "Rate limited")));
  EXPECT_FALSE(context_overflow_error(
      413, AnthropicError("request_too_large", "Request exceeds the maximum size")));
  EXPECT_FALSE(context_overflow_error(500, R"({"error":{"code":"context_length_exceeded"}})"));
  EXPECT_FALSE(context_overflow_error(200, R"({"choices":[{"text":"maximum context length"}]})"));
  EXPECT_FALSE(context_overflow_error(400, ""));
}

// ---- GET /hpcab/usage ----

TEST_F(ProxyTest, UsageEndpointReportsTheCurrentEpisode) {
  StartProxy();
  proxy_->set_episode("ep-u", 500);
  json u = Usage();
  EXPECT_EQ(u, (json{{"episode", "ep-u"},
                     {"requests", 0},
                     {"input", 0},
                     {"cached", 0},
                     {"output", 0},
                     {"weighted", 0.0},
                     {"budget", 500.0},
                     {"exhausted", false}}));
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
  EXPECT_EQ(Post("/v1/messages", Message(false)).status, 200);
  u = Usage();
  const EpisodeTotals t = proxy_->totals("ep-u");
  EXPECT_EQ(u["episode"], "ep-u");
  EXPECT_EQ(u["requests"], 2);
  EXPECT_EQ(u["input"], t.usage.input);
  EXPECT_EQ(u["cached"], t.usage.cached);
  EXPECT_EQ(u["output"], t.usage.output);
  EXPECT_DOUBLE_EQ(u["weighted"].get<double>(), t.weighted);
  EXPECT_EQ(u["exhausted"], false);
  ExpectTotalsEqualFake(t, fake_.totals());
  // Answered by the proxy: never forwarded, never recorded as a model request.
  EXPECT_EQ(fake_.totals().requests, 2);
  EXPECT_EQ(sink_.records().size(), 2u);
  EXPECT_EQ(proxy_->totals("ep-u").requests, 2);

  // A spent budget shows; a refused request is counted (it is a request) with no tokens.
  proxy_->set_episode("ep-u", 100);
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 402);
  u = Usage();
  EXPECT_EQ(u["budget"], 100.0);
  EXPECT_EQ(u["exhausted"], true);
  EXPECT_EQ(u["requests"], 3);

  // The next episode starts at zero.
  proxy_->set_episode("ep-v", 0);
  u = Usage();
  EXPECT_EQ(u["episode"], "ep-v");
  EXPECT_EQ(u["requests"], 0);
  EXPECT_EQ(u["exhausted"], false);

  auto post = http_request("POST", Url("/hpcab/usage"), "{}", {}, 30);
  ASSERT_TRUE(post.ok());
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(fake_.totals().requests, 2);
}

// The tools' client against the real endpoint: score and submit carry the episode's tokens.
TEST_F(ProxyTest, JudgeClientSendsTheProxysTokenCount) {
  StartProxy();
  proxy_->set_episode("ep-t", 0);
  EXPECT_EQ(Post("/v1/chat/completions", Chat(false)).status, 200);
  EXPECT_EQ(Post("/v1/messages", Message(false)).status, 200);
  const EpisodeTotals t = proxy_->totals("ep-t");
  const std::int64_t tokens = t.usage.input + t.usage.cached + t.usage.output;
  ASSERT_GT(tokens, 0);

  std::mutex mu;
  std::vector<std::string> bodies;
  Transport judge = [&](const std::string&, const std::string&,
                        const std::string& body) -> Result<HttpResult> {
    std::lock_guard lock(mu);
    bodies.push_back(body);
    return HttpResult{200, R"({"verdict":"ok"})", {}};
  };
  JudgeSettings s;
  s.url = "http://judge.invalid:8800";
  s.usage_url = Url("/hpcab/usage");
  JudgeClient client(s, judge);  // the real usage fetch
  ASSERT_TRUE(client.score({"tsvc_2_s000", "c", "int x;", "", ""}));
  ASSERT_TRUE(client.submit({"tsvc_2_s000", "c", "int x;", "", ""}));
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(json::parse(bodies[0])["tokens"], tokens);
  EXPECT_EQ(json::parse(bodies[1])["tokens"], tokens);

  // The proxy gone: the call still goes out, with tokens null.
  proxy_->stop();
  ASSERT_TRUE(client.score({"tsvc_2_s000", "c", "int x;", "", ""}));
  EXPECT_TRUE(json::parse(bodies.back())["tokens"].is_null());
}

// ---- https upstreams ----

class TempDir {
 public:
  TempDir() {
    std::string t = (std::filesystem::temp_directory_path() / "hpcab-proxy-tls-XXXXXX").string();
    path_ = mkdtemp(t.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

class ProxyTlsTest : public ProxyTest {
 protected:
  void SetUp() override {
    cert_ = tls_testing::MakeSelfSignedCertificate(dir_.path(), "upstream");
    ASSERT_FALSE(cert_.cert_file.empty());
    fake_.use_tls(cert_.cert_file, cert_.key_file);
    ProxyTest::SetUp();
  }

  // The fake's https URL under another host name (same port).
  std::string UrlFor(const std::string& host) const {
    const std::string url = fake_.url();
    return "https://" + host + url.substr(url.rfind(':'));
  }

  TempDir dir_;
  tls_testing::TestCertificate cert_;
};

TEST_F(ProxyTlsTest, JsonAndStreamsThroughHttps) {
  ProxyOptions opt;
  opt.upstream_url = UrlFor("localhost") + "/v1";
  opt.upstream_ca_file = cert_.cert_file;
  StartProxy(opt);

  HttpResult r = Post("/v1/chat/completions", Chat(false));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body)["choices"][0]["message"]["content"], "Hello world");
  EXPECT_EQ(fake_.last_sni(), "localhost");  // SNI set for a host name

  // Streams still arrive piece by piece: the fake holds the rest until we saw the first piece.
  fake_.set_hold_streams(true);
  bool released = false;
  StreamResult s = StreamPost(port_, "/v1/chat/completions", Chat(true), [&](const std::string& b) {
    if (!released && b.find("Hello") != std::string::npos) {
      released = true;
      fake_.release_stream();
    }
  });
  EXPECT_EQ(s.status, 200);
  EXPECT_EQ(s.content_type, "text/event-stream");
  EXPECT_TRUE(fake_.last_hold_released()) << "the proxy buffered the stream";
  EXPECT_NE(s.body.find("data: [DONE]"), std::string::npos);
  EXPECT_EQ(json::parse(fake_.last_body())["stream_options"]["include_usage"], true);

  released = false;
  StreamResult a = StreamPost(port_, "/v1/messages", Message(true), [&](const std::string& b) {
    if (!released && b.find("Hello") != std::string::npos) {
      released = true;
      fake_.release_stream();
    }
  });
  EXPECT_EQ(a.status, 200);
  EXPECT_TRUE(fake_.last_hold_released()) << "the proxy buffered the stream";
  EXPECT_NE(a.body.find("message_stop"), std::string::npos);

  EXPECT_EQ(fake_.tls_handshakes(), 3);
  EXPECT_EQ(proxy_->totals("ep1").requests, 3);
  ExpectTotalsEqualFake(proxy_->totals("ep1"), fake_.totals());
  for (const RequestRecord& rec : sink_.records()) {
    EXPECT_EQ(rec.status, 200);
    EXPECT_TRUE(rec.usage.seen);
    EXPECT_EQ(rec.error, "");
  }
}

TEST_F(ProxyTlsTest, AddressUpstreamIsVerifiedAgainstTheIpSan) {
  ProxyOptions opt;
  opt.upstream_url = fake_.url();  // https://127.0.0.1:port
  opt.upstream_ca_file = cert_.cert_file;
  StartProxy(opt);
  EXPECT_EQ(Post("/v1/messages", Message(false)).status, 200);
  EXPECT_EQ(fake_.last_sni(), "");  // no SNI for an address
  ExpectTotalsEqualFake(proxy_->totals("ep1"), fake_.totals());
}

TEST_F(ProxyTlsTest, WrongCaIs502WithAReadableError) {
  const auto other = tls_testing::MakeSelfSignedCertificate(dir_.path(), "other-ca");
  ASSERT_FALSE(other.cert_file.empty());
  ProxyOptions opt;
  opt.upstream_url = UrlFor("localhost");
  opt.upstream_ca_file = other.cert_file;
  StartProxy(opt);
  HttpResult r = Post("/v1/chat/completions", Chat(false));
  EXPECT_EQ(r.status, 502);
  const std::string message = json::parse(r.body)["error"]["message"];
  EXPECT_NE(message.find(opt.upstream_url), std::string::npos) << message;
  EXPECT_NE(message.find("TLS handshake"), std::string::npos) << message;
  EXPECT_NE(message.find("certificate verify failed"), std::string::npos) << message;
  EXPECT_EQ(json::parse(r.body)["error"]["type"], "upstream_error");
  HttpResult a = Post("/v1/messages", Message(false));
  EXPECT_EQ(a.status, 502);
  EXPECT_EQ(json::parse(a.body)["type"], "error");
  EXPECT_EQ(fake_.totals().requests, 0);  // nothing was sent
  const auto recs = sink_.records();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].status, 502);
  EXPECT_NE(recs[0].error.find("TLS handshake"), std::string::npos);
}

TEST_F(ProxyTlsTest, CertificateForAnotherNameIs502) {
  // Trusted, but issued for another name than the one in the URL.
  const auto elsewhere =
      tls_testing::MakeSelfSignedCertificate(dir_.path(), "elsewhere", "DNS:elsewhere.invalid");
  ASSERT_FALSE(elsewhere.cert_file.empty());
  fake_.stop();
  test::FakeLlm other;
  other.use_tls(elsewhere.cert_file, elsewhere.key_file);
  other.start();
  ProxyOptions opt;
  opt.upstream_url = other.url();
  opt.upstream_ca_file = elsewhere.cert_file;
  StartProxy(opt);
  HttpResult r = Post("/v1/chat/completions", Chat(false));
  EXPECT_EQ(r.status, 502);
  const std::string message = json::parse(r.body)["error"]["message"];
  EXPECT_NE(message.find("mismatch"), std::string::npos) << message;
  EXPECT_EQ(other.totals().requests, 0);
}

TEST_F(ProxyTlsTest, UnreadableCaFileOrBadSchemeFailsStart) {
  ProxyOptions opt;
  opt.upstream_url = fake_.url();
  opt.upstream_ca_file = dir_.path() + "/missing.pem";
  MeteringProxy proxy(opt, nullptr);
  auto port = proxy.start();
  ASSERT_FALSE(port.ok());
  EXPECT_NE(port.error().message.find("missing.pem"), std::string::npos) << port.error().message;
  opt.upstream_url = "ftp://127.0.0.1:1";
  MeteringProxy bad(opt, nullptr);
  auto p2 = bad.start();
  ASSERT_FALSE(p2.ok());
  EXPECT_NE(p2.error().message.find("https://"), std::string::npos) << p2.error().message;
}

// One reader per wire format: the cached part of an OpenAI or Responses input count is taken
// out of it (and never exceeds it); Anthropic's cache writes count as input.
TEST(UsageFromBody, EachWireFormatSplitsInputCachedAndOutput) {
  const TokenUsage chat = usage_from_body(
      WireFormat::kOpenAI,
      R"({"usage":{"prompt_tokens":10,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":4}}})");
  EXPECT_TRUE(chat.seen);
  EXPECT_EQ(chat.input, 6);
  EXPECT_EQ(chat.cached, 4);
  EXPECT_EQ(chat.output, 3);
  const TokenUsage responses = usage_from_body(
      WireFormat::kResponses,
      R"({"usage":{"input_tokens":5,"output_tokens":2,"input_tokens_details":{"cached_tokens":9}}})");
  EXPECT_EQ(responses.input, 0);
  EXPECT_EQ(responses.cached, 5);
  EXPECT_EQ(responses.output, 2);
  const TokenUsage messages = usage_from_body(
      WireFormat::kAnthropic,
      R"({"usage":{"input_tokens":5,"cache_creation_input_tokens":2,"cache_read_input_tokens":7,"output_tokens":1}})");
  EXPECT_EQ(messages.input, 7);
  EXPECT_EQ(messages.cached, 7);
  EXPECT_EQ(messages.output, 1);
  for (const WireFormat f : {WireFormat::kOpenAI, WireFormat::kAnthropic, WireFormat::kResponses}) {
    EXPECT_FALSE(usage_from_body(f, "not json").seen);
    EXPECT_FALSE(usage_from_body(f, R"({"usage":null})").seen);
    EXPECT_FALSE(usage_from_body(f, R"({"id":"x"})").seen);
  }
}

TEST(SseUsageScanner, ByteByByteEqualsWhole) {
  const std::string stream =
      "event: message_start\r\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":"
      "{\"input_tokens\":5,\"cache_read_input_tokens\":7,\"cache_creation_input_tokens\":2,"
      "\"output_tokens\":1}}}\r\n\r\n"
      "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":12}}"
      "\n\n";
  SseUsageScanner whole(WireFormat::kAnthropic);
  whole.feed(stream);
  SseUsageScanner bytes(WireFormat::kAnthropic);
  for (char c : stream) bytes.feed(std::string_view(&c, 1));
  for (SseUsageScanner* s : {&whole, &bytes}) {
    const TokenUsage u = s->finish();
    EXPECT_EQ(u.input, 7);
    EXPECT_EQ(u.cached, 7);
    EXPECT_EQ(u.output, 12);
  }
}

TEST(SseUsageScanner, OpenAIFinalChunkWithoutTrailingNewline) {
  SseUsageScanner s(WireFormat::kOpenAI);
  s.feed("data: {\"choices\":[],\"usage\":null}\n\n");
  EXPECT_FALSE(s.usage().seen);
  s.feed(
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":3,"
      "\"prompt_tokens_details\":{\"cached_tokens\":4}}}");
  const TokenUsage u = s.finish();
  EXPECT_TRUE(u.seen);
  EXPECT_EQ(u.input, 6);
  EXPECT_EQ(u.cached, 4);
  EXPECT_EQ(u.output, 3);
}

}  // namespace
}  // namespace hpcab::harness
