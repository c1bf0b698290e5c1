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
#include <stdexcept>

namespace hpcab::test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using nlohmann::json;

std::string Sse(const json& j) { return "data: " + j.dump() + "\n\n"; }
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

template <typename Stream>
void FakeLlm::exchange(Stream& conn) {
  beast::flat_buffer buffer;
  beast::error_code ec;
  for (;;) {
    http::request<http::string_body> req;
    http::read(conn, buffer, req, ec);
    if (ec) break;
    if (unavailable_) {
      // An overloaded or restarting server: 503 with Retry-After, nothing counted.
      ++unavailable_answers_;
      http::response<http::string_body> res{http::status::service_unavailable, 11};
      res.set(http::field::content_type, "application/json");
      res.set(http::field::retry_after, "1");
      res.keep_alive(req.keep_alive());
      res.body() =
          json{{"error", {{"message", "server is loading"}, {"type", "unavailable"}}}}.dump();
      res.prepare_payload();
      http::write(conn, res, ec);
      if (ec || !req.keep_alive()) break;
      continue;
    }
    const std::string path(req.target());
    json body = json::parse(req.body(), nullptr, false);
    std::int64_t n = 0;
    {
      std::lock_guard lock(mu_);
      last_body_ = req.body();
      last_headers_.clear();
      for (const auto& f : req) {
        std::string name(f.name_string());
        for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        last_headers_ += name + ": " + std::string(f.value()) + "\n";
      }
      if (path != "/v1/models") n = ++totals_.requests;
    }
    if (delay_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_.load()));

    auto send_json = [&](int status, const json& j) {
      http::response<http::string_body> res{static_cast<http::status>(status), 11};
      res.set(http::field::content_type, "application/json");
      res.keep_alive(req.keep_alive());
      res.body() = j.dump();
      res.prepare_payload();
      http::write(conn, res, ec);
    };
    auto count = [&](std::int64_t input, std::int64_t cached, std::int64_t output) {
      std::lock_guard lock(mu_);
      totals_.input += input;
      totals_.cached += cached;
      totals_.output += output;
    };
    const bool stream = body.is_object() && body.value("stream", false);
    const std::string model = body.is_object() ? body.value("model", "fake-model") : "fake-model";

    const Error error = error_;
    if (error != Error::kNone && path != "/v1/models") {
      send_json(400, ErrorBody(error));
    } else if (path == "/v1/models") {
      send_json(200,
                {{"object", "list"},
                 {"data", {{{"id", "fake-model"}, {"object", "model"}, {"owned_by", "test"}}}}});
    } else if (path == "/v1/chat/completions" || path == "/v1/completions") {
      const bool chat = path == "/v1/chat/completions";
      const std::int64_t prompt = 100 + 10 * n, cached = 30 + n, completion = 5 + n;
      const json usage = {{"prompt_tokens", prompt},
                          {"completion_tokens", completion},
                          {"total_tokens", prompt + completion},
                          {"prompt_tokens_details", {{"cached_tokens", cached}}}};
      const std::string object = chat ? "chat.completion" : "text_completion";
      if (!stream) {
        json choice = chat ? json{{"index", 0},
                                  {"message", {{"role", "assistant"}, {"content", "Hello world"}}},
                                  {"finish_reason", "stop"}}
                           : json{{"index", 0}, {"text", "Hello world"}, {"finish_reason", "stop"}};
        // Counted before sending: the proxy may record it before this thread runs again.
        count(prompt - cached, cached, completion);
        send_json(200, {{"id", "cmpl-" + std::to_string(n)},
                        {"object", object},
                        {"model", model},
                        {"choices", {choice}},
                        {"usage", usage}});
      } else {
        const bool include_usage = body.contains("stream_options") &&
                                   body["stream_options"].is_object() &&
                                   body["stream_options"].value("include_usage", false);
        http::response<http::empty_body> res{http::status::ok, 11};
        res.set(http::field::content_type, "text/event-stream");
        res.keep_alive(req.keep_alive());
        res.chunked(true);
        http::response_serializer<http::empty_body> sr{res};
        http::write_header(conn, sr, ec);
        auto piece = [&](const std::string& text, bool finish) {
          json delta = chat ? json{{"delta", {{"content", text}}}} : json{{"text", text}};
          delta["index"] = 0;
          delta["finish_reason"] = finish ? json("stop") : json(nullptr);
          json chunk = {{"id", "cmpl-" + std::to_string(n)},
                        {"object", chat ? "chat.completion.chunk" : "text_completion"},
                        {"model", model},
                        {"choices", {delta}}};
          if (include_usage) chunk["usage"] = nullptr;
          return Sse(chunk);
        };
        auto write = [&](const std::string& s) {
          if (!ec) asio::write(conn, http::make_chunk(asio::buffer(s)), ec);
        };
        write(piece("Hello", false));
        if (break_) ec = asio::error::connection_aborted;  // skips the rest of the stream
        if (hold_) {
          std::unique_lock lock(mu_);
          // A release that came before we got here counts: the test saw the first event.
          last_hold_released_ =
              cv_.wait_for(lock, std::chrono::seconds(10), [this] { return released_; });
          released_ = false;
        }
        write(piece(" world", false));
        write(piece("", true));
        if (include_usage) {
          count(prompt - cached, cached, completion);
          write(Sse({{"id", "cmpl-" + std::to_string(n)},
                     {"object", chat ? "chat.completion.chunk" : "text_completion"},
                     {"model", model},
                     {"choices", json::array()},
                     {"usage", usage}}));
        }
        write("data: [DONE]\n\n");
        if (!ec) asio::write(conn, http::make_chunk_last(), ec);
      }
    } else if (path == "/v1/responses") {
      // The OpenAI Responses API: input_tokens include the cached ones.
      const std::int64_t input = 200 + 10 * n, cached = 60 + n, output = 12 + n;
      const json usage = {{"input_tokens", input},
                          {"input_tokens_details", {{"cached_tokens", cached}}},
                          {"output_tokens", output},
                          {"output_tokens_details", {{"reasoning_tokens", 0}}},
                          {"total_tokens", input + output}};
      json response = {{"id", "resp_" + std::to_string(n)},
                       {"object", "response"},
                       {"status", "completed"},
                       {"model", model},
                       {"output",
                        {{{"type", "message"},
                          {"role", "assistant"},
                          {"content", {{{"type", "output_text"}, {"text", "Hello world"}}}}}}},
                       {"usage", usage}};
      count(input - cached, cached, output);
      if (!stream) {
        send_json(200, response);
      } else {
        http::response<http::empty_body> res{http::status::ok, 11};
        res.set(http::field::content_type, "text/event-stream");
        res.keep_alive(req.keep_alive());
        res.chunked(true);
        http::response_serializer<http::empty_body> sr{res};
        http::write_header(conn, sr, ec);
        auto event = [&](const std::string& type, json data) {
          data["type"] = type;
          std::string text = "event: " + type + "\n" + Sse(data);
          if (!ec) asio::write(conn, http::make_chunk(asio::buffer(text)), ec);
        };
        json created = response;
        created["status"] = "in_progress";
        created["usage"] = nullptr;
        event("response.created", {{"response", created}});
        event("response.output_text.delta", {{"delta", "Hello"}});
        event("response.output_text.delta", {{"delta", " world"}});
        event("response.completed", {{"response", response}});
        if (!ec) asio::write(conn, http::make_chunk_last(), ec);
      }
    } else if (path == "/v1/messages") {
      const std::int64_t input = 50 + n, creation = 20, read = 40 + n, output = 8 + n;
      count(input + creation, read, output);
      if (!stream) {
        send_json(200, {{"id", "msg_" + std::to_string(n)},
                        {"type", "message"},
                        {"role", "assistant"},
                        {"model", model},
                        {"content", {{{"type", "text"}, {"text", "Hello world"}}}},
                        {"stop_reason", "end_turn"},
                        {"usage",
                         {{"input_tokens", input},
                          {"cache_creation_input_tokens", creation},
                          {"cache_read_input_tokens", read},
                          {"output_tokens", output}}}});
      } else {
        http::response<http::empty_body> res{http::status::ok, 11};
        res.set(http::field::content_type, "text/event-stream; charset=utf-8");
        res.keep_alive(req.keep_alive());
        res.chunked(true);
        http::response_serializer<http::empty_body> sr{res};
        http::write_header(conn, sr, ec);
        auto write = [&](const std::string& s) {
          if (!ec) asio::write(conn, http::make_chunk(asio::buffer(s)), ec);
        };
        write(SseEvent("message_start", {{"type", "message_start"},
                                         {"message",
                                          {{"id", "msg_" + std::to_string(n)},
                                           {"type", "message"},
                                           {"role", "assistant"},
                                           {"model", model},
                                           {"content", json::array()},
                                           {"usage",
                                            {{"input_tokens", input},
                                             {"cache_creation_input_tokens", creation},
                                             {"cache_read_input_tokens", read},
                                             {"output_tokens", 1}}}}}}));
        write(
            SseEvent("content_block_start", {{"type", "content_block_start"},
                                             {"index", 0},
                                             {"content_block", {{"type", "text"}, {"text", ""}}}}));
        write(SseEvent("content_block_delta",
                       {{"type", "content_block_delta"},
                        {"index", 0},
                        {"delta", {{"type", "text_delta"}, {"text", "Hello"}}}}));
        if (hold_) {
          std::unique_lock lock(mu_);
          // A release that came before we got here counts: the test saw the first event.
          last_hold_released_ =
              cv_.wait_for(lock, std::chrono::seconds(10), [this] { return released_; });
          released_ = false;
        }
        write(SseEvent("content_block_delta",
                       {{"type", "content_block_delta"},
                        {"index", 0},
                        {"delta", {{"type", "text_delta"}, {"text", " world"}}}}));
        write(SseEvent("content_block_stop", {{"type", "content_block_stop"}, {"index", 0}}));
        write(SseEvent("message_delta", {{"type", "message_delta"},
                                         {"delta", {{"stop_reason", "end_turn"}}},
                                         {"usage", {{"output_tokens", output}}}}));
        write(SseEvent("message_stop", {{"type", "message_stop"}}));
        if (!ec) asio::write(conn, http::make_chunk_last(), ec);
      }
    } else {
      send_json(404, {{"error", {{"message", "no such path " + path}, {"type", "not_found"}}}});
    }
    if (ec || !req.keep_alive()) break;
  }
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
