// libFuzzer target over what the judge does with a client's bytes before grading anything:
// Beast's request parser with the judge's header and body limits, then the routes' first checks
// (judge/request.h: target splitting, UTF-8, rank, kernel names, depth-limited JSON) and the
// grade-body field checks that need no corpus (rank, kernel, workspace_bytes expressions). Every
// input also goes straight to the JSON and target checks, so JSON mutations need not first
// learn HTTP framing.
//
// Beyond "no crash, no sanitizer report", it asserts the judge's own invariants: every error
// message, once written as an error body, is valid UTF-8 JSON; an accepted rank is in range; an
// accepted body is within the depth limit. scripts/fuzz.sh builds and runs it with clang.
#include <boost/asio/buffer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/expr.h"
#include "judge/request.h"

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using hpcab::judge::check_json_depth;
using hpcab::judge::parse_json_body;
using hpcab::judge::parse_rank_json;
using hpcab::judge::parse_rank_text;
using hpcab::judge::split_target;
using hpcab::judge::valid_kernel_name;
using hpcab::judge::valid_utf8;
using json = nlohmann::json;

// Small limits so the fuzzer reaches them (the judge's defaults are 16 KiB and 1 MiB).
constexpr std::uint32_t kHeaderLimit = 2048;
constexpr std::uint64_t kBodyLimit = 8192;
constexpr int kMaxDepth = 64;  // JudgeConfig::max_json_depth's default

void Require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "request_fuzz: invariant violated: %s\n", what);
    std::abort();
  }
}

// What error_response() does with a message: the body must come out as valid UTF-8 JSON.
void CheckErrorBody(const std::string& message) {
  const std::string body =
      json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace);
  Require(valid_utf8(body), "error body is not valid UTF-8");
  Require(!json::parse(body, nullptr, false).is_discarded(), "error body is not JSON");
}

void CheckTarget(std::string_view raw) {
  const auto target = split_target(raw);
  bool utf8 = valid_utf8(target.path);
  for (const auto& [k, v] : target.query) utf8 = utf8 && valid_utf8(k) && valid_utf8(v);
  if (!utf8) return;  // the routes answer 400 here
  if (auto it = target.query.find("rank"); it != target.query.end()) {
    if (auto rank = parse_rank_text(it->second)) Require(*rank >= 0, "query rank negative");
  }
  for (std::string_view prefix : {"/task/", "/baseline/"}) {
    if (target.path.rfind(prefix, 0) != 0) continue;
    const std::string kernel = target.path.substr(prefix.size());
    if (valid_kernel_name(kernel)) {
      Require(kernel.find_first_of("./\\") == std::string::npos && kernel.find('\0') == kernel.npos,
              "a kernel name that could leave the corpus passed");
    } else {
      CheckErrorBody("unknown kernel '" + kernel + "'");
    }
  }
  CheckErrorBody("no route GET " + target.path);
}

// The checks of Routes::grade that need no corpus, in its order.
void CheckBody(std::string_view text) {
  auto parsed = parse_json_body(text, kMaxDepth);
  if (!parsed) return CheckErrorBody(parsed.error().message);
  Require(check_json_depth(text, kMaxDepth).ok(), "accepted body over the depth limit");
  json body = std::move(*parsed);
  if (!body.is_object()) return;
  if (body.contains("rank")) {
    if (auto rank = parse_rank_json(body["rank"])) {
      Require(*rank >= 0 && *rank < 1000000000, "accepted rank out of range");
    }
  }
  if (body.contains("kernel") && body["kernel"].is_string()) {
    const auto& kernel = body["kernel"].get_ref<const std::string&>();
    if (!valid_kernel_name(kernel)) CheckErrorBody("unknown kernel '" + kernel + "'");
  }
  if (body.contains("workspace_bytes")) {
    const json& w = body["workspace_bytes"];
    std::string text_value;
    if (w.is_number_unsigned()) text_value = std::to_string(w.get<std::uint64_t>());
    if (w.is_string()) text_value = w.get<std::string>();
    if (!text_value.empty()) {
      auto e = hpcab::Expr::parse(text_value);
      if (!e) return CheckErrorBody(e.error().message);
      const hpcab::SymbolTable symbols = {{"n", 1000}, {"m", 7}, {"k", 3}};
      if (auto v = e->eval(symbols); !v) CheckErrorBody(v.error().message);
    }
  }
}

void CheckHttp(const std::uint8_t* data, std::size_t size) {
  http::request_parser<http::string_body> parser;
  parser.header_limit(kHeaderLimit);
  parser.body_limit(kBodyLimit);
  beast::error_code ec;
  std::size_t used = 0;
  while (used < size && !parser.is_done()) {
    const std::size_t n = parser.put(boost::asio::buffer(data + used, size - used), ec);
    if (ec == http::error::need_more && n == 0) break;
    if (ec && ec != http::error::need_more) {
      return CheckErrorBody("malformed HTTP request: " + ec.message());
    }
    used += n;
    if (n == 0) break;
  }
  if (!parser.is_done()) return;
  const auto& request = parser.get();
  Require(request.body().size() <= kBodyLimit, "body over the limit was accepted");
  CheckTarget(std::string_view(request.target().data(), request.target().size()));
  if (request.method() == http::verb::post) CheckBody(request.body());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  CheckHttp(data, size);
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  CheckBody(raw);
  CheckTarget(raw);
  return 0;
}
