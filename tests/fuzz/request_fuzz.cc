// libFuzzer target over what the judge does with a client's bytes before grading anything:
// Beast's request parser with the judge's header and body limits, then the routes' first checks
// (judge/http/request.h: target splitting, UTF-8, rank, kernel names, depth-limited JSON) and the
// whole grade-body parser the routes run (judge/http/grade_request.h: parse_grade_body, over an
// in-memory kernel, under three judge configurations). Every input also goes straight to the
// JSON, body and target checks, so JSON mutations need not first learn HTTP framing.
//
// Beyond "no crash, no sanitizer report", it asserts the judge's own invariants: the body parser
// never throws; a refusal is a 4xx the parser may give (400, 404, 413, 421; never a 200 or a
// judge fault) whose error body is valid UTF-8 JSON with an `error` string; an accepted body
// passes every check again when re-derived independently here (rank, kernel, one source, input
// mode, sizes, build tokens, workspace, preset, tokens); every error message, once written as an
// error body, is valid UTF-8 JSON; an accepted rank is in range; an accepted body is within the
// depth limit; an Idempotency-Key header is accepted only as 1..128 characters of [A-Za-z0-9._:-]
// and otherwise refused with a 400. scripts/fuzz.sh builds and runs it with clang.
#include <boost/asio/buffer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/expr.h"
#include "common/manifest.h"
#include "judge/http/grade_request.h"
#include "judge/http/http_errors.h"
#include "judge/http/request.h"

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using hpcab::judge::ApiError;
using hpcab::judge::check_json_depth;
using hpcab::judge::ErrorCode;
using hpcab::judge::GradeBodyRules;
using hpcab::judge::parse_json_body;
using hpcab::judge::parse_rank_json;
using hpcab::judge::parse_rank_text;
using hpcab::judge::ParsedGrade;
using hpcab::judge::SharedFile;
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
      // Path-style keys ("loop_level_reasoning/tsvc_2_s000") pass, but never a segment that
      // could climb or restart a path: no dots, backslashes, NULs, empty or leading segments.
      Require(kernel.find_first_of(".\\") == std::string::npos &&
                  kernel.find('\0') == kernel.npos && kernel.find("//") == kernel.npos &&
                  kernel.front() != '/' && kernel.back() != '/',
              "a kernel name that could leave the corpus passed");
    } else {
      CheckErrorBody("unknown kernel '" + kernel + "'");
    }
  }
  CheckErrorBody("no route GET " + target.path);
}

// The one kernel the body parser knows: tsvc_2_s000 with one size symbol, two presets and both
// precisions (what the parser reads of a manifest).
const hpcab::Manifest& Kernel() {
  static const hpcab::Manifest m = [] {
    hpcab::Manifest k;
    k.id = "tsvc_2_s000";
    k.precisions = {hpcab::Precision::kFp64, hpcab::Precision::kFp32};
    k.size_symbols = {"N"};
    k.presets = {{"S", {{"N", 32000}}}, {"M", {{"N", 1000000}}}};
    return k;
  }();
  return m;
}

// What the judge's config gives the parser: small source limit so the fuzzer reaches it, and
// the input modes and shared-dir settings that decide which source fields are accepted.
GradeBodyRules Rules(int which) {
  GradeBodyRules rules;
  rules.rank = 0;
  rules.max_json_depth = kMaxDepth;
  rules.max_source_bytes = 256;
  rules.input_mode = which == 0 ? "any" : which == 1 ? "source" : "library";
  rules.has_shared_dir = which != 1;
  return rules;
}

bool Given(const json& body, const char* k) { return body.contains(k) && !body.at(k).is_null(); }

// An accepted body, checked again from the JSON itself rather than through the parser's code.
void CheckAccepted(std::string_view text, const GradeBodyRules& rules, const ParsedGrade& p) {
  const json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  Require(body.is_object(), "accepted a body that is not a JSON object");
  Require(check_json_depth(text, kMaxDepth).ok(), "accepted a body over the depth limit");
  Require(Given(body, "rank") && parse_rank_json(body.at("rank")) == rules.rank,
          "accepted a body without this judge's rank");
  const auto& g = p.request;
  Require(g.rank == rules.rank, "accepted rank differs from the judge's");
  Require(g.kernel == Kernel().id && body.at("kernel") == Kernel().id,
          "accepted a kernel that is not in the corpus");
  Require(g.language == "c" || g.language == "cpp" || g.language == "fortran" ||
              g.language == "python" || g.language == "cuda" || g.language == "hip",
          "accepted an unknown language");
  Require(
      g.residency == "host" || (g.residency == "device" && hpcab::judge::gpu_language(g.language)),
      "accepted a residency other than host, or device for a CPU language");
  Require(g.precision == "fp64" || g.precision == "fp32", "accepted an unknown precision");
  const int sources =
      int(Given(body, "source")) + int(Given(body, "source_file")) + int(Given(body, "library"));
  Require(sources == 1, "accepted a body without exactly one source field");
  const bool sources_ok = rules.input_mode != "library";
  const bool libraries_ok = rules.input_mode != "source";
  switch (p.shared_file) {
    case SharedFile::kNone:
      Require(g.source.has_value() && Given(body, "source") && sources_ok,
              "accepted an inline source the rules refuse");
      Require(g.source->size() <= rules.max_source_bytes, "accepted a source over the limit");
      break;
    case SharedFile::kSourceFile:
      Require(rules.has_shared_dir && sources_ok && Given(body, "source_file") && !g.source,
              "accepted a source_file the rules refuse");
      break;
    case SharedFile::kLibrary:
      Require(rules.has_shared_dir && libraries_ok && Given(body, "library") && !g.library_path,
              "accepted a library the rules refuse");
      break;
  }
  Require(hpcab::judge::validate_build_tokens(g.build_tokens).ok(), "accepted a bad build token");
  if (g.workspace_bytes) {
    auto e = hpcab::Expr::parse(*g.workspace_bytes);
    Require(e.ok(), "accepted a workspace_bytes that does not parse");
    auto v = e->eval(Kernel().symbols(Kernel().presets.at("S")));
    Require(v.ok() && *v >= 0 && *v <= hpcab::judge::kMaxWorkspaceBytes,
            "accepted a workspace_bytes out of range");
  }
  Require(!g.preset || Kernel().presets.count(*g.preset), "accepted an unknown preset");
  Require(!g.tokens || *g.tokens >= 0, "accepted negative tokens");
}

// parse_grade_body as the routes call it, under each configuration.
void CheckGradeBody(std::string_view text) {
  for (int which = 0; which < 3; ++which) {
    const GradeBodyRules rules = Rules(which);
    try {
      auto parsed = hpcab::judge::parse_grade_body(text, "score", rules, [](const std::string& id) {
        return id == Kernel().id ? &Kernel() : nullptr;
      });
      if (parsed) {
        CheckAccepted(text, rules, *parsed);
        continue;
      }
      const ApiError& e = parsed.error();
      const int status = hpcab::judge::error_code_status(e.code);
      Require(status == 400 || e.code == ErrorCode::kUnknownKernel ||
                  e.code == ErrorCode::kSourceTooLarge || e.code == ErrorCode::kMisdirected,
              "the body parser refused with a code it never gives");
      const auto response = hpcab::judge::error_response(e);
      Require(response.status >= 400 && response.status < 500, "a refusal that is not a 4xx");
      Require(valid_utf8(response.body), "error body is not valid UTF-8");
      const json body = json::parse(response.body, nullptr, false);
      Require(body.is_object() && body.contains("error") && body["error"].is_string(),
              "error body is not a JSON object with an error string");
      Require(body.value("code", "") == hpcab::judge::error_code_name(e.code),
              "error body without its code");
      if (e.code == ErrorCode::kMisdirected) {
        Require(body.value("rank", -1) == rules.rank && body.contains("requested_rank"),
                "a 421 without rank and requested_rank");
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "request_fuzz: parse_grade_body threw: %s\n", e.what());
      std::abort();
    }
  }
}

// The checks of Routes::grade that need no corpus, in its order.
void CheckBody(std::string_view text) {
  CheckGradeBody(text);
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

// parse_idempotency_key over the request's header fields, collected as the server collects them
// (lower-case names, a repeated field joined with ", "): an accepted key is 1..128 characters
// of [A-Za-z0-9._:-]; a refusal is a 400 with a JSON error body.
void CheckIdempotencyKey(const http::request<http::string_body>& request) {
  std::map<std::string, std::string> headers;
  for (const auto& field : request) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto [it, inserted] = headers.emplace(name, std::string(field.value()));
    if (!inserted) it->second += ", " + std::string(field.value());
  }
  try {
    auto key = hpcab::judge::parse_idempotency_key(headers);
    if (key) {
      Require(key->has_value() == (headers.count("idempotency-key") > 0),
              "a key accepted without the header, or the header ignored");
      if (!key->has_value()) return;
      const std::string& k = **key;
      Require(!k.empty() && k.size() <= hpcab::judge::kMaxIdempotencyKeyBytes,
              "accepted an Idempotency-Key of a bad length");
      for (char c : k) {
        Require(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == ':' ||
                    c == '-',
                "accepted an Idempotency-Key with a character outside [A-Za-z0-9._:-]");
      }
      return;
    }
    Require(key.error().code == ErrorCode::kBadIdempotencyKey,
            "an Idempotency-Key refusal without its code");
    const auto response = hpcab::judge::error_response(key.error());
    Require(response.status == 400 && valid_utf8(response.body),
            "an Idempotency-Key refusal without a valid 400 body");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "request_fuzz: parse_idempotency_key threw: %s\n", e.what());
    std::abort();
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
  CheckIdempotencyKey(request);
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
