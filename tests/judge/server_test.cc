// The judge's HTTP server and the common HTTP client, against a real server on 127.0.0.1 with
// an ephemeral port. Limits are shrunk (sub-second timeouts, kilobyte bodies) so the whole file
// runs in a few seconds.
#include "judge/http/server.h"

#include <gtest/gtest.h>
#include <openssl/ssl.h>
#include <stdlib.h>

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/http_client.h"
#include "tests/judge/tls_test_util.h"

namespace hpcab::judge {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool WaitFor(const std::function<bool()>& predicate, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (predicate()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return predicate();
}

// Answers with what it received, as JSON, plus an extra header.
void Echo(HttpRequest request, Responder respond) {
  nlohmann::json body = {{"method", request.method},
                         {"target", request.target},
                         {"body", request.body},
                         {"remote", request.remote},
                         {"headers", request.headers}};
  HttpResponse response;
  response.status = 200;
  response.body = body.dump();
  response.headers.emplace_back("X-Echo", "yes");
  respond(std::move(response));
}

ServerLimits TestLimits() {
  ServerLimits limits;
  limits.read_timeout_s = 2;
  limits.write_timeout_s = 2;
  limits.keepalive_idle_s = 2;
  limits.response_timeout_s = 5;
  limits.shutdown_grace_s = 2;
  return limits;
}

// A started server on 127.0.0.1:<ephemeral>.
class TestServer {
 public:
  TestServer(ServerLimits limits, Handler handler,
             const tls_testing::TestCertificate* tls = nullptr)
      : server_(limits, std::move(handler)) {
    if (tls) {
      Status st = server_.enable_tls(tls->cert_file, tls->key_file);
      EXPECT_TRUE(st.ok()) << st.error().message;
    }
    Result<uint16_t> port = server_.listen("127.0.0.1", 0);
    EXPECT_TRUE(port.ok()) << port.error().message;
    port_ = port.ok() ? *port : 0;
    server_.start();
  }

  Server& server() { return server_; }
  uint16_t port() const { return port_; }
  std::string Url(const std::string& target) const {
    return "http://127.0.0.1:" + std::to_string(port_) + target;
  }
  std::string HttpsUrl(const std::string& target, const std::string& host = "127.0.0.1") const {
    return "https://" + host + ":" + std::to_string(port_) + target;
  }

 private:
  Server server_;
  uint16_t port_ = 0;
};

// A client connection driven byte by byte, for what http_request cannot do (keep-alive,
// malformed requests, half-sent headers, holding connections open). Reads run on a private
// io_context so that they can have deadlines.
class RawConnection {
 public:
  explicit RawConnection(uint16_t port) : stream_(ioc_) {
    stream_.socket().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port),
                             connect_error_);
  }

  bool connected() const { return !connect_error_; }

  bool Send(std::string_view bytes) {
    beast::error_code ec;
    asio::write(stream_.socket(), asio::buffer(bytes.data(), bytes.size()), ec);
    return !ec;
  }

  // One response, or nullopt on an error or after `timeout_s`. `head`: the answer to a HEAD,
  // which ends with its header whatever its Content-Length says.
  std::optional<http::response<http::string_body>> ReadResponse(double timeout_s = 5,
                                                                bool head = false) {
    http::response_parser<http::string_body> parser;
    parser.skip(head);
    beast::error_code result = asio::error::would_block;
    stream_.expires_after(
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s)));
    http::async_read(stream_, buffer_, parser,
                     [&result](beast::error_code ec, std::size_t) { result = ec; });
    ioc_.restart();
    ioc_.run();
    if (result) return std::nullopt;
    return parser.release();
  }

  // True once the server closes the connection (EOF or reset) within `timeout_s`; bytes that
  // arrive first are discarded.
  bool WaitForClose(double timeout_s) {
    stream_.expires_after(
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s)));
    std::array<char, 4096> scratch{};
    beast::error_code final_ec;
    std::function<void()> read_more = [&] {
      stream_.async_read_some(asio::buffer(scratch), [&](beast::error_code ec, std::size_t) {
        if (ec) {
          final_ec = ec;
          return;
        }
        read_more();
      });
    };
    read_more();
    ioc_.restart();
    ioc_.run();
    return final_ec && final_ec != beast::error::timeout;
  }

 private:
  asio::io_context ioc_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  beast::error_code connect_error_;
};

std::string Get(const std::string& target) {
  return "GET " + target + " HTTP/1.1\r\nHost: test\r\n\r\n";
}

// The code of a {"code": ..., "error": "<non-empty>"} body, or "" when the body is not one.
std::string CodeOf(const std::string& body) {
  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("error") || !json["error"].is_string() ||
      json["error"].get<std::string>().empty() || !json.contains("code")) {
    return "";
  }
  return json["code"].get<std::string>();
}

// The message of an error body, "" when there is none.
std::string MessageOf(const std::string& body) {
  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("error") || !json["error"].is_string()) return "";
  return json["error"].get<std::string>();
}

TEST(ServerTest, EchoGetRoundTrip) {
  TestServer ts(TestLimits(), Echo);
  Result<HttpResult> r = http_request("GET", ts.Url("/task/gemm?rank=0"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->headers["content-type"], "application/json");
  EXPECT_EQ(r->headers["server"], "hpcab-judge");
  EXPECT_EQ(r->headers["x-echo"], "yes");
  EXPECT_EQ(r->headers["content-length"], std::to_string(r->body.size()));
  const auto body = nlohmann::json::parse(r->body);
  EXPECT_EQ(body["method"], "GET");
  EXPECT_EQ(body["target"], "/task/gemm?rank=0");
  EXPECT_EQ(body["body"], "");
  EXPECT_EQ(body["remote"].get<std::string>().rfind("127.0.0.1:", 0), 0u) << body["remote"];
}

TEST(ServerTest, EchoPostRoundTrip) {
  TestServer ts(TestLimits(), Echo);
  Result<HttpResult> r =
      http_request("POST", ts.Url("/score"), R"({"kernel":"gemm"})", {{"X-Run-Id", "r1"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200);
  const auto body = nlohmann::json::parse(r->body);
  EXPECT_EQ(body["method"], "POST");
  EXPECT_EQ(body["body"], R"({"kernel":"gemm"})");
  EXPECT_EQ(body["headers"]["content-type"], "application/json");  // the client's default
  EXPECT_EQ(body["headers"]["x-run-id"], "r1");                    // names lower-cased
}

TEST(ServerTest, AnswersLaterFromAnotherThread) {
  std::mutex mu;
  std::vector<std::thread> workers;
  {
    TestServer ts(TestLimits(), [&](HttpRequest request, Responder respond) {
      std::lock_guard lock(mu);
      workers.emplace_back([request = std::move(request), respond = std::move(respond)] {
        std::this_thread::sleep_for(50ms);
        HttpResponse response;
        response.status = 202;
        response.body = nlohmann::json{{"late", request.target}}.dump();
        respond(std::move(response));
      });
    });
    Result<HttpResult> r = http_request("GET", ts.Url("/slow"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 202);
    EXPECT_EQ(nlohmann::json::parse(r->body)["late"], "/slow");
  }
  for (auto& t : workers) t.join();
}

TEST(ServerTest, KeepAliveServesTwoRequestsOnOneConnection) {
  TestServer ts(TestLimits(), Echo);
  RawConnection conn(ts.port());
  ASSERT_TRUE(conn.connected());
  std::string first_remote;
  for (const std::string target : {"/first", "/second"}) {
    ASSERT_TRUE(conn.Send(Get(target)));
    auto response = conn.ReadResponse();
    ASSERT_TRUE(response.has_value()) << target;
    EXPECT_EQ(response->result_int(), 200u);
    EXPECT_TRUE(response->keep_alive());
    const auto body = nlohmann::json::parse(response->body());
    EXPECT_EQ(body["target"], target);
    if (first_remote.empty()) {
      first_remote = body["remote"];
    } else {
      EXPECT_EQ(body["remote"], first_remote);  // the same client port: the same connection
    }
  }
  EXPECT_EQ(ts.server().active_connections(), 1);
}

TEST(ServerTest, ExpectContinueGets100ThenTheResponse) {
  TestServer ts(TestLimits(), Echo);
  RawConnection conn(ts.port());
  ASSERT_TRUE(
      conn.Send("POST /score HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\n"
                "Content-Length: 5\r\n\r\n"));
  auto interim = conn.ReadResponse();
  ASSERT_TRUE(interim.has_value());
  EXPECT_EQ(interim->result_int(), 100u);
  ASSERT_TRUE(conn.Send("hello"));
  auto response = conn.ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->result_int(), 200u);
  EXPECT_EQ(nlohmann::json::parse(response->body())["body"], "hello");
}

TEST(ServerTest, BodyOverLimitGets413) {
  ServerLimits limits = TestLimits();
  limits.max_body_bytes = 1024;
  std::atomic<int> calls{0};
  TestServer ts(limits, [&](HttpRequest request, Responder respond) {
    ++calls;
    Echo(std::move(request), std::move(respond));
  });

  Result<HttpResult> r = http_request("POST", ts.Url("/score"), std::string(4096, 'x'));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(CodeOf(r->body), "body_too_large") << r->body;
  EXPECT_EQ(nlohmann::json::parse(r->body).value("limit_bytes", 0), 1024) << r->body;

  // A declared length over the limit is refused from the header alone, without waiting for a
  // body the client never sends.
  RawConnection conn(ts.port());
  ASSERT_TRUE(conn.Send("POST /score HTTP/1.1\r\nHost: t\r\nContent-Length: 100000000\r\n\r\n"));
  auto response = conn.ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->result_int(), 413u);
  EXPECT_FALSE(response->keep_alive());
  EXPECT_EQ(CodeOf(response->body()), "body_too_large");

  // Exactly at the limit is fine.
  r = http_request("POST", ts.Url("/score"), std::string(1024, 'x'));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(calls.load(), 1);
}

// RFC 9110 §9.3.2: an answer to HEAD has no body. Body bytes would be read as the start of the
// next response on the connection, so a GET pipelined behind the HEAD checks that none came.
TEST(ServerTest, HeadIsAnsweredWithoutABodyOnAKeptAliveConnection) {
  TestServer ts(TestLimits(), Echo);
  RawConnection conn(ts.port());
  ASSERT_TRUE(conn.connected());
  ASSERT_TRUE(conn.Send("HEAD /task/gemm HTTP/1.1\r\nHost: t\r\n\r\n" + Get("/after")));
  auto head = conn.ReadResponse(5, /*head=*/true);
  ASSERT_TRUE(head.has_value());
  EXPECT_EQ(head->result_int(), 200u);
  EXPECT_TRUE(head->keep_alive());
  EXPECT_EQ(head->body(), "");
  EXPECT_EQ((*head)[http::field::content_type], "application/json");
  // The size of the body the handler produced (Echo's JSON), as GET would have it.
  EXPECT_GT(std::stoul(std::string((*head)[http::field::content_length])), 0u);
  auto get = conn.ReadResponse();
  ASSERT_TRUE(get.has_value()) << "the HEAD answer carried body bytes";
  EXPECT_EQ(get->result_int(), 200u);
  const auto body = nlohmann::json::parse(get->body(), nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(body.is_object()) << get->body();
  EXPECT_EQ(body["method"], "GET");
  EXPECT_EQ(body["target"], "/after");
}

TEST(ServerTest, HeaderOverLimitGets431) {
  ServerLimits limits = TestLimits();
  limits.max_header_bytes = 1024;
  TestServer ts(limits, Echo);
  Result<HttpResult> r =
      http_request("GET", ts.Url("/health"), "", {{"X-Big", std::string(4096, 'h')}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 431);
  EXPECT_EQ(CodeOf(r->body), "header_too_large") << r->body;
}

TEST(ServerTest, MalformedRequestGets400ThenClose) {
  TestServer ts(TestLimits(), Echo);
  RawConnection conn(ts.port());
  ASSERT_TRUE(conn.Send("GARBAGE\r\n\r\n"));
  auto response = conn.ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->result_int(), 400u);
  EXPECT_EQ(response->at(http::field::content_type), "application/json");
  EXPECT_EQ(CodeOf(response->body()), "bad_http") << response->body();
  EXPECT_TRUE(conn.WaitForClose(3));
}

TEST(ServerTest, SlowLorisIsClosedAfterReadTimeout) {
  ServerLimits limits = TestLimits();
  limits.read_timeout_s = 0.5;
  TestServer ts(limits, Echo);
  RawConnection conn(ts.port());
  const auto start = Clock::now();
  ASSERT_TRUE(conn.Send("GET /health HTTP/1.1\r\nHost: t\r\n"));  // never finished
  EXPECT_TRUE(conn.WaitForClose(4));
  const double elapsed = SecondsSince(start);
  EXPECT_GE(elapsed, 0.4);
  EXPECT_LT(elapsed, 3.0);
  EXPECT_TRUE(WaitFor([&] { return ts.server().active_connections() == 0; }, 1000ms));
}

TEST(ServerTest, MaxConnectionsAnswers503) {
  ServerLimits limits = TestLimits();
  limits.max_connections = 2;
  TestServer ts(limits, Echo);
  auto a = std::make_unique<RawConnection>(ts.port());
  RawConnection b(ts.port());
  ASSERT_TRUE(a->connected() && b.connected());
  ASSERT_TRUE(WaitFor([&] { return ts.server().active_connections() == 2; }, 2000ms));

  RawConnection c(ts.port());
  ASSERT_TRUE(c.connected());
  auto response = c.ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->result_int(), 503u);
  EXPECT_EQ(response->at(http::field::retry_after), "1");
  EXPECT_EQ(CodeOf(response->body()), "unavailable");
  EXPECT_TRUE(c.WaitForClose(3));
  EXPECT_EQ(ts.server().active_connections(), 2);

  // A closed connection makes room again.
  a.reset();
  ASSERT_TRUE(WaitFor([&] { return ts.server().active_connections() == 1; }, 2000ms));
  RawConnection d(ts.port());
  ASSERT_TRUE(d.Send(Get("/again")));
  response = d.ReadResponse();
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->result_int(), 200u);
}

TEST(ServerTest, StopLetsInFlightResponseFinishThenRefuses) {
  std::promise<Responder> held;
  auto held_future = held.get_future();
  std::atomic<bool> stored{false};
  TestServer ts(TestLimits(), [&](HttpRequest request, Responder respond) {
    if (request.target == "/slow" && !stored.exchange(true)) {
      held.set_value(std::move(respond));
    } else {
      Echo(std::move(request), std::move(respond));
    }
  });
  // An idle keep-alive connection: stop() closes it at once.
  RawConnection idle(ts.port());
  ASSERT_TRUE(idle.Send(Get("/idle")));
  ASSERT_TRUE(idle.ReadResponse().has_value());

  auto client = std::async(std::launch::async,
                           [&] { return http_request("POST", ts.Url("/slow"), "{}", {}, 10); });
  ASSERT_EQ(held_future.wait_for(5s), std::future_status::ready);
  Responder respond = held_future.get();

  std::atomic<bool> stop_returned{false};
  std::thread stopper([&] {
    ts.server().stop();
    stop_returned = true;
  });
  EXPECT_TRUE(idle.WaitForClose(2));
  EXPECT_FALSE(stop_returned.load());  // still waiting for the in-flight answer
  EXPECT_FALSE(http_request("GET", ts.Url("/health"), "", {}, 1).ok());  // not accepting

  HttpResponse answer;
  answer.body = R"({"done":true})";
  respond(std::move(answer));
  Result<HttpResult> r = client.get();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, R"({"done":true})");
  EXPECT_EQ(r->headers["connection"], "close");

  stopper.join();
  EXPECT_TRUE(stop_returned.load());
  EXPECT_EQ(ts.server().active_connections(), 0);
  EXPECT_FALSE(http_request("GET", ts.Url("/health"), "", {}, 1).ok());
  ts.server().stop();  // idempotent
}

TEST(ServerTest, ResponseTimeoutGives500) {
  ServerLimits limits = TestLimits();
  limits.response_timeout_s = 0.3;
  std::mutex mu;
  std::vector<Responder> never_answered;
  TestServer ts(limits, [&](HttpRequest, Responder respond) {
    std::lock_guard lock(mu);
    never_answered.push_back(std::move(respond));
  });
  const auto start = Clock::now();
  Result<HttpResult> r = http_request("GET", ts.Url("/stuck"), "", {}, 5);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 500);
  EXPECT_EQ(CodeOf(r->body), "judge_fault");
  EXPECT_GE(SecondsSince(start), 0.25);
  // A late answer is ignored, not written onto the connection.
  std::lock_guard lock(mu);
  ASSERT_EQ(never_answered.size(), 1u);
  never_answered[0](HttpResponse{});
}

TEST(ServerTest, DroppedResponderGives500AtOnce) {
  TestServer ts(TestLimits(), [](HttpRequest, Responder) {});  // response_timeout_s is 5
  const auto start = Clock::now();
  Result<HttpResult> r = http_request("GET", ts.Url("/lost"), "", {}, 5);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 500);
  EXPECT_EQ(CodeOf(r->body), "judge_fault");
  EXPECT_LT(SecondsSince(start), 2.0);
}

TEST(ServerTest, SecondResponderCallIsIgnored) {
  TestServer ts(TestLimits(), [](HttpRequest request, Responder respond) {
    HttpResponse first;
    first.body = nlohmann::json{{"n", 1}, {"target", request.target}}.dump();
    respond(first);
    HttpResponse second;
    second.status = 201;
    second.body = R"({"n":2})";
    respond(second);
  });
  RawConnection conn(ts.port());
  for (const std::string target : {"/a", "/b"}) {  // the extra answer must not leak into /b
    ASSERT_TRUE(conn.Send(Get(target)));
    auto response = conn.ReadResponse();
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->result_int(), 200u);
    EXPECT_EQ(nlohmann::json::parse(response->body())["target"], target);
  }
}

TEST(ServerTest, HandlerExceptionGives500) {
  TestServer ts(TestLimits(),
                [](HttpRequest, Responder) -> void { throw std::runtime_error("boom"); });
  Result<HttpResult> r = http_request("GET", ts.Url("/throw"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 500);
  EXPECT_EQ(CodeOf(r->body), "judge_fault");
}

TEST(ServerTest, ResponderOutlivingTheServerIsHarmless) {
  Responder kept;
  std::mutex mu;
  {
    ServerLimits limits = TestLimits();
    limits.shutdown_grace_s = 0.1;
    TestServer ts(limits, [&](HttpRequest, Responder respond) {
      std::lock_guard lock(mu);
      kept = std::move(respond);
    });
    EXPECT_FALSE(http_request("GET", ts.Url("/never"), "", {}, 0.3).ok());  // client gives up
  }  // ~Server: grace passes, the connection is closed, the threads are joined
  std::lock_guard lock(mu);
  ASSERT_TRUE(static_cast<bool>(kept));
  kept(HttpResponse{});  // dropped with a log line
  kept = nullptr;        // the last reference to the session and its io_context
}

TEST(ServerTest, ListenRejectsBadAddress) {
  Server server(TestLimits(), Echo);
  EXPECT_FALSE(server.listen("256.1.1.1", 0).ok());
}

TEST(ServerTest, ErrorResponseIsEscapedJson) {
  const std::string message = "bad \"kernel\"\n\\ \x01";
  HttpResponse r = error_response(ErrorCode::kNoRoute, message);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(MessageOf(r.body), message);  // escaping round-trips the exact bytes
  EXPECT_EQ(CodeOf(r.body), "no_route");
  // Invalid UTF-8 from a client must not throw.
  EXPECT_EQ(CodeOf(error_response(ErrorCode::kBadHttp, "bad \xff byte").body), "bad_http");
}

TEST(HttpClientTest, StatusBodyAndHeaders) {
  TestServer ts(TestLimits(), [](HttpRequest request, Responder respond) {
    HttpResponse response;
    response.status = 418;
    response.content_type = "text/plain";
    response.body = request.body + "|" + request.headers["content-type"];
    response.headers.emplace_back("X-Mixed-Case", "Value");
    respond(std::move(response));
  });
  Result<HttpResult> r =
      http_request("PUT", ts.Url("/teapot"), "hello", {{"Content-Type", "text/x-test"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 418);  // an HTTP error status is a result, not an Error
  EXPECT_EQ(r->body, "hello|text/x-test");
  EXPECT_EQ(r->headers["content-type"], "text/plain");
  EXPECT_EQ(r->headers["x-mixed-case"], "Value");
}

TEST(HttpClientTest, ClosedPortIsAnError) {
  uint16_t port = 0;
  {
    asio::io_context ioc;
    tcp::acceptor acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    port = acceptor.local_endpoint().port();
  }  // closed: nothing listens there now
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/health";
  Result<HttpResult> r = http_request("GET", url, "", {}, 2);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find(url), std::string::npos) << r.error().message;
}

TEST(HttpClientTest, TimeoutIsAnError) {
  ServerLimits limits = TestLimits();
  limits.shutdown_grace_s = 0.1;
  std::mutex mu;
  std::vector<Responder> held;
  TestServer ts(limits, [&](HttpRequest, Responder respond) {
    std::lock_guard lock(mu);
    held.push_back(std::move(respond));
  });
  const auto start = Clock::now();
  Result<HttpResult> r = http_request("GET", ts.Url("/slow"), "", {}, 0.3);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("timed out"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(ts.Url("/slow")), std::string::npos);
  EXPECT_LT(SecondsSince(start), 2.0);
}

TEST(HttpClientTest, RejectsBadUrls) {
  for (const std::string url : {"httpx://127.0.0.1:1/x", "ftp://h/x", "https://", "https://u@h/",
                                "http://", "http:///path", "http://:80/x", "http://h:99999/",
                                "http://h:abc/", "http://u@h/", "http://h/a b", "127.0.0.1:80/x"}) {
    Result<HttpResult> r = http_request("GET", url, "", {}, 1);
    ASSERT_FALSE(r.ok()) << url;
    EXPECT_NE(r.error().message.find(url), std::string::npos) << r.error().message;
  }
}

// A temporary directory holding a fresh self-signed certificate (its own CA), and a second,
// unrelated one.
class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "hpcab-tls-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    cert_ = tls_testing::MakeSelfSignedCertificate(dir_, "judge");
    other_ = tls_testing::MakeSelfSignedCertificate(dir_, "other");
    ASSERT_FALSE(cert_.cert_file.empty());
    ASSERT_FALSE(other_.cert_file.empty());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  HttpOptions Trusting(const tls_testing::TestCertificate& c) {
    HttpOptions o;
    o.ca_file = c.cert_file;
    return o;
  }

  std::string dir_;
  tls_testing::TestCertificate cert_, other_;
};

TEST_F(TlsTest, HttpsWorksWithTheCaAndPlainHttpIsRefused) {
  TestServer ts(TestLimits(), Echo, &cert_);
  Result<HttpResult> r =
      http_request("POST", ts.HttpsUrl("/score"), R"({"kernel":"gemm"})", {}, 5, Trusting(cert_));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(nlohmann::json::parse(r->body)["body"], R"({"kernel":"gemm"})");
  // The certificate names localhost too (DNS SAN), so the client's host check passes there.
  Result<HttpResult> by_name =
      http_request("GET", ts.HttpsUrl("/x", "localhost"), "", {}, 5, Trusting(cert_));
  ASSERT_TRUE(by_name.ok()) << by_name.error().message;

  // Plain HTTP to the HTTPS port: no handshake, no answer, the connection is closed.
  Result<HttpResult> plain = http_request("GET", ts.Url("/health"), "", {}, 5);
  EXPECT_FALSE(plain.ok());
  EXPECT_TRUE(WaitFor([&] { return ts.server().active_connections() == 0; }, 2s));
}

TEST_F(TlsTest, ClientRefusesAnUntrustedOrMisnamedCertificate) {
  TestServer ts(TestLimits(), Echo, &cert_);
  Result<HttpResult> untrusted =
      http_request("GET", ts.HttpsUrl("/x"), "", {}, 5, Trusting(other_));
  ASSERT_FALSE(untrusted.ok());
  EXPECT_NE(untrusted.error().message.find("TLS handshake"), std::string::npos)
      << untrusted.error().message;
  EXPECT_NE(untrusted.error().message.find("certificate"), std::string::npos);
  // The system trust store does not know a self-signed test certificate either.
  EXPECT_FALSE(http_request("GET", ts.HttpsUrl("/x"), "", {}, 5).ok());
  // A trusted certificate for another name: the client refuses it for 127.0.0.1.
  const auto elsewhere =
      tls_testing::MakeSelfSignedCertificate(dir_, "elsewhere", "DNS:judge.example");
  TestServer other_name(TestLimits(), Echo, &elsewhere);
  Result<HttpResult> misnamed =
      http_request("GET", other_name.HttpsUrl("/x"), "", {}, 5, Trusting(elsewhere));
  ASSERT_FALSE(misnamed.ok());
  EXPECT_NE(misnamed.error().message.find("mismatch"), std::string::npos)
      << misnamed.error().message;
}

TEST_F(TlsTest, SessionLimitsHoldUnderTls) {
  ServerLimits limits = TestLimits();
  limits.max_body_bytes = 1000;
  limits.read_timeout_s = 0.5;
  TestServer ts(limits, Echo, &cert_);
  Result<HttpResult> big =
      http_request("POST", ts.HttpsUrl("/score"), std::string(5000, 'x'), {}, 5, Trusting(cert_));
  ASSERT_TRUE(big.ok()) << big.error().message;
  EXPECT_EQ(big->status, 413);
  // A client that connects and never starts the handshake is closed after read_timeout_s.
  RawConnection idle(ts.port());
  ASSERT_TRUE(idle.connected());
  const auto start = Clock::now();
  EXPECT_TRUE(idle.WaitForClose(5));
  EXPECT_LT(SecondsSince(start), 3.0);
}

TEST_F(TlsTest, ServerRefusesTlsBelow12) {
  TestServer ts(TestLimits(), Echo, &cert_);
  asio::io_context ioc;
  asio::ssl::context ctx(asio::ssl::context::tls_client);
  // A client that offers only TLS 1.0/1.1 and would accept anything (security level 0).
  SSL_CTX_set_security_level(ctx.native_handle(), 0);
  SSL_CTX_set_min_proto_version(ctx.native_handle(), TLS1_VERSION);
  SSL_CTX_set_max_proto_version(ctx.native_handle(), TLS1_1_VERSION);
  ctx.set_verify_mode(asio::ssl::verify_none);
  asio::ssl::stream<tcp::socket> stream(ioc, ctx);
  stream.next_layer().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), ts.port()));
  beast::error_code ec;
  stream.handshake(asio::ssl::stream_base::client, ec);
  EXPECT_TRUE(ec) << "the server accepted a TLS 1.0/1.1 handshake";
}

TEST_F(TlsTest, EnableTlsReportsBadFilesAndLateCalls) {
  Server bad_cert(TestLimits(), Echo);
  Status st = bad_cert.enable_tls(dir_ + "/missing.pem", cert_.key_file);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("missing.pem"), std::string::npos) << st.error().message;

  Server mismatched(TestLimits(), Echo);
  st = mismatched.enable_tls(cert_.cert_file, other_.key_file);
  ASSERT_FALSE(st.ok());
  // OpenSSL notices the mismatch while loading the key ("key values mismatch").
  EXPECT_NE(st.error().message.find("other.key"), std::string::npos) << st.error().message;

  TestServer started(TestLimits(), Echo);
  EXPECT_FALSE(started.server().enable_tls(cert_.cert_file, cert_.key_file).ok());
}

TEST(HttpClientTest, BearerTokenOptionSendsAuthorization) {
  TestServer ts(TestLimits(), Echo);
  HttpOptions options;
  options.bearer_token = "tok-0123456789abcdef";
  Result<HttpResult> r = http_request("GET", ts.Url("/x"), "", {}, 5, options);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(nlohmann::json::parse(r->body)["headers"]["authorization"],
            "Bearer tok-0123456789abcdef");
  options.bearer_token = "a\r\nX-Injected: 1";
  EXPECT_FALSE(http_request("GET", ts.Url("/x"), "", {}, 5, options).ok());
}

}  // namespace
}  // namespace hpcab::judge
