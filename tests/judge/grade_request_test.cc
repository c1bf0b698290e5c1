// The typed errors (judge/http/http_errors.h), the pure grade-body parser and the shared-file step
// (judge/http/grade_request.h), and the routes' answer to a grade that throws: a real server on
// 127.0.0.1 over a fake GradeService, so nothing is built or run.
#include "judge/http/grade_request.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "common/http_client.h"
#include "judge/http/http_errors.h"
#include "judge/http/job_queue.h"
#include "judge/http/metrics.h"
#include "judge/http/routes.h"
#include "judge/http/server.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// A kernel without files: what the body checks read of a manifest.
Manifest TestKernel() {
  Manifest m;
  m.id = "tsvc_2_s000";
  m.precisions = {Precision::kFp64, Precision::kFp32};
  m.size_symbols = {"N"};
  m.presets = {{"S", {{"N", 1000}}}, {"M", {{"N", 100000}}}};
  return m;
}

GradeBodyRules Rules() {
  GradeBodyRules rules;
  rules.rank = 0;
  rules.input_mode = "any";
  rules.has_shared_dir = true;
  rules.max_source_bytes = 64;
  return rules;
}

class GradeBodyTest : public ::testing::Test {
 protected:
  ApiResult<ParsedGrade> Parse(const std::string& body, const GradeBodyRules& rules = Rules()) {
    return parse_grade_body(body, "score", rules, [this](const std::string& id) {
      return id == kernel_.id ? &kernel_ : nullptr;
    });
  }
  // The code of the error `body` is refused with; fails the test when it is accepted.
  ErrorCode CodeOf(const std::string& body, const GradeBodyRules& rules = Rules()) {
    auto r = Parse(body, rules);
    EXPECT_FALSE(r.ok()) << body;
    return r.ok() ? ErrorCode::kJudgeFault : r.error().code;
  }
  Manifest kernel_ = TestKernel();
};

TEST_F(GradeBodyTest, UngradeablePublicPresetIsRefusedUpFront) {
  // A sum over N: at N = 1e8, N * epsilon reaches fp64's rtol, so no answer could be graded.
  kernel_.reduction_length = Expr::parse("N").value();
  kernel_.presets["M"] = {{"N", 100000000}};
  const std::string base = R"({"kernel":"tsvc_2_s000","rank":0,"source":"x")";
  auto r = Parse(base + R"(,"preset":"M"})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kPresetTooLarge);
  EXPECT_TRUE(Parse(base + R"(,"preset":"S"})").ok());
  // The default preset is checked too.
  GradeBodyRules rules = Rules();
  rules.default_preset = "M";
  EXPECT_EQ(CodeOf(base + "}", rules), ErrorCode::kPresetTooLarge);
}

TEST_F(GradeBodyTest, APythonSubmissionTakesAnEmptyBuildListButNoTokens) {
  const std::string base = R"({"kernel":"tsvc_2_s000","rank":0,"language":"python","source":"x")";
  for (const char* ok : {"", R"(,"build":[])", R"(,"build":null)"}) {
    auto r = Parse(base + ok + "}");
    ASSERT_TRUE(r.ok()) << ok << ": " << r.error().message;
    EXPECT_TRUE(r->request.build_tokens.empty());
  }
  EXPECT_EQ(CodeOf(base + R"(,"build":["-O2"]})"), ErrorCode::kNotForPython);
  EXPECT_EQ(CodeOf(base + R"(,"build":["-DX"]})"), ErrorCode::kNotForPython);
  EXPECT_EQ(CodeOf(base + R"(,"build":{}})"), ErrorCode::kNotForPython);
}

TEST_F(GradeBodyTest, PublicPresetOverTheMemoryLimitIsRefusedUpFront) {
  // One array of N reals; a 4 MiB runner leaves a 1 MiB data budget. M's 200000 reals take
  // 1.5 MiB at fp64 (over) and 0.8 MiB at fp32 (within): the precision decides.
  ArraySpec a;
  a.name = "a";
  a.shape = {Expr::parse("N").value()};
  a.intent = Intent::kOut;
  kernel_.arrays = {a};
  kernel_.presets["M"] = {{"N", 200000}};
  GradeBodyRules rules = Rules();
  rules.memory_bytes = 4 << 20;
  const std::string base = R"({"kernel":"tsvc_2_s000","rank":0,"source":"x")";
  auto r = Parse(base + R"(,"preset":"M"})", rules);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kPresetTooLarge);
  EXPECT_TRUE(Parse(base + R"(,"preset":"M","precision":"fp32"})", rules).ok());
  EXPECT_TRUE(Parse(base + R"(,"preset":"S"})", rules).ok());
  // The default preset is checked too, and a larger limit lets M through.
  rules.default_preset = "M";
  EXPECT_EQ(CodeOf(base + "}", rules), ErrorCode::kPresetTooLarge);
  rules.memory_bytes = 8 << 20;
  EXPECT_TRUE(Parse(base + "}", rules).ok());
}

TEST(HttpErrors, EveryCodeHasOneNameAndItsStatus) {
  const std::vector<std::pair<ErrorCode, int>> table = {
      {ErrorCode::kBadJson, 400},          {ErrorCode::kBadField, 400},
      {ErrorCode::kUnauthorized, 401},     {ErrorCode::kForbidden, 403},
      {ErrorCode::kUnknownKernel, 404},    {ErrorCode::kNoRoute, 404},
      {ErrorCode::kMethodNotAllowed, 405}, {ErrorCode::kIdempotencyConflict, 409},
      {ErrorCode::kBodyTooLarge, 413},     {ErrorCode::kSourceTooLarge, 413},
      {ErrorCode::kMisdirected, 421},      {ErrorCode::kQueueFull, 429},
      {ErrorCode::kHeaderTooLarge, 431},   {ErrorCode::kJudgeFault, 500},
      {ErrorCode::kUnavailable, 503}};
  for (const auto& [code, status] : table) {
    EXPECT_EQ(error_code_status(code), status);
    HttpResponse r = error_response(ApiError{code, "why"});
    EXPECT_EQ(r.status, status);
    EXPECT_EQ(r.content_type, "application/json");
    EXPECT_EQ(json::parse(r.body), json({{"code", error_code_name(code)}, {"error", "why"}}));
  }
  // Every code from the first to the last has its own snake_case name and a 4xx/5xx status.
  std::set<std::string> names;
  for (int i = 0; i <= static_cast<int>(ErrorCode::kUnavailable); ++i) {
    const auto code = static_cast<ErrorCode>(i);
    const std::string name = error_code_name(code);
    EXPECT_TRUE(names.insert(name).second) << name;
    EXPECT_EQ(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_"), std::string::npos) << name;
    EXPECT_GE(error_code_status(code), 400) << name;
    EXPECT_LT(error_code_status(code), 600) << name;
  }
}

TEST(HttpErrors, RetryAfterOnlyOn429And503) {
  HttpResponse full = error_response(ApiError{ErrorCode::kQueueFull, "full", nullptr, 10});
  ASSERT_EQ(full.headers.size(), 1u);
  EXPECT_EQ(full.headers[0], (std::pair<std::string, std::string>{"Retry-After", "10"}));
  // A missing delay still sends the header: a client must be told to wait.
  HttpResponse busy = error_response(ApiError{ErrorCode::kUnavailable, "busy"});
  ASSERT_EQ(busy.headers.size(), 1u);
  EXPECT_EQ(busy.headers[0].second, "1");
  EXPECT_TRUE(error_response(ApiError{ErrorCode::kBadField, "x", nullptr, 10}).headers.empty());
}

TEST(HttpErrors, ExtraFieldsAndHeadersAndBadUtf8) {
  HttpResponse r = error_response(ApiError{ErrorCode::kUnauthorized,
                                           "no token",
                                           {{"error", "ignored"}, {"code", "ignored"}, {"hint", 1}},
                                           0,
                                           {{"WWW-Authenticate", "Bearer"}}});
  EXPECT_EQ(json::parse(r.body),
            json({{"code", "unauthorized"}, {"error", "no token"}, {"hint", 1}}));
  ASSERT_EQ(r.headers.size(), 1u);
  EXPECT_EQ(r.headers[0].first, "WWW-Authenticate");
  // Client bytes quoted back are replaced, never fatal.
  HttpResponse bad = error_response(ApiError{ErrorCode::kUnknownKernel, "unknown kernel '\xff'"});
  EXPECT_FALSE(json::parse(bad.body, nullptr, false).is_discarded());
  // The untyped form (the HTTP layer's) builds the same body.
  EXPECT_EQ(error_response(ErrorCode::kBodyTooLarge, "too big").body,
            error_response(ApiError{ErrorCode::kBodyTooLarge, "too big"}).body);
}

TEST(HttpErrors, JudgeFaultIsA500JudgeError) {
  HttpResponse r = error_response(judge_fault("score", "tsvc_2_s000", "disk on fire"));
  EXPECT_EQ(r.status, 500);
  json body = json::parse(r.body);
  EXPECT_EQ(body["verdict"], "judge_error");
  EXPECT_EQ(body["harness_fault"], true);
  EXPECT_EQ(body["route"], "score");
  EXPECT_EQ(body["kernel"], "tsvc_2_s000");
  EXPECT_EQ(body["code"], "judge_fault");
}

TEST_F(GradeBodyTest, EachRefusalHasItsCode) {
  using C = ErrorCode;
  const std::string ok = R"("kernel":"tsvc_2_s000","rank":0)";
  EXPECT_EQ(CodeOf("{bad json"), C::kBadJson);
  EXPECT_EQ(CodeOf("\xff"), C::kBadJson);
  EXPECT_EQ(CodeOf(std::string(100, '[') + std::string(100, ']')), C::kBadJson);
  EXPECT_EQ(CodeOf("[1]"), C::kBadJson);
  EXPECT_EQ(CodeOf(R"({"kernel":"tsvc_2_s000","source":"x"})"), C::kMissingRank);
  EXPECT_EQ(CodeOf(R"({"kernel":"tsvc_2_s000","rank":-1,"source":"x"})"), C::kBadRank);
  EXPECT_EQ(CodeOf(R"({"kernel":"tsvc_2_s000","rank":"0x1","source":"x"})"), C::kBadRank);
  EXPECT_EQ(CodeOf(R"({"kernel":"tsvc_2_s000","rank":3,"source":"x"})"), C::kMisdirected);
  EXPECT_EQ(CodeOf(R"({"rank":0,"source":"x"})"), C::kBadField);
  EXPECT_EQ(CodeOf(R"({"kernel":7,"rank":0,"source":"x"})"), C::kBadField);
  EXPECT_EQ(CodeOf(R"({"kernel":"nosuch","rank":0,"source":"x"})"), C::kUnknownKernel);
  EXPECT_EQ(CodeOf(R"({"kernel":"../tsvc_2_s000","rank":0,"source":"x"})"), C::kUnknownKernel);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","language":"rust"})"), C::kUnknownLanguage);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","precision":"fp16"})"), C::kBadPrecision);
  EXPECT_EQ(CodeOf("{" + ok + "}"), C::kSourceCount);  // no source
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","library":"a.so"})"), C::kSourceCount);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":1})"), C::kBadField);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source_file":1})"), C::kBadField);
  GradeBodyRules no_shared = Rules();
  no_shared.has_shared_dir = false;
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source_file":"a.c"})", no_shared), C::kNoSharedDir);
  GradeBodyRules sources_only = Rules();
  sources_only.input_mode = "source";
  EXPECT_EQ(CodeOf("{" + ok + R"(,"library":"a.so"})", sources_only), C::kInputMode);
  GradeBodyRules libraries_only = Rules();
  libraries_only.input_mode = "library";
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x"})", libraries_only), C::kInputMode);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":")" + std::string(65, 'x') + "\"}"), C::kSourceTooLarge);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","build":"-DX"})"), C::kBadField);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","build":[1]})"), C::kBadField);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","build":["-O3"]})"), C::kBadBuildToken);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","workspace_bytes":-1})"), C::kBadWorkspace);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","workspace_bytes":"N*Q"})"), C::kBadWorkspace);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","workspace_bytes":"N*"})"), C::kBadWorkspace);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","workspace_bytes":2199023255552})"),
            C::kBadWorkspace);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","preset":"XL"})"), C::kUnknownPreset);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","preset":1})"), C::kUnknownPreset);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","run_id":1})"), C::kBadField);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","optimizer":[]})"), C::kBadField);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","tokens":-1})"), C::kBadField);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","tokens":1.5})"), C::kBadField);
  EXPECT_EQ(CodeOf("{" + ok + R"(,"source":"x","tokens":18446744073709551615})"), C::kBadField);
}

TEST_F(GradeBodyTest, RefusalCodesAndTheMisdirectedFields) {
  auto missing = Parse(R"({"kernel":"tsvc_2_s000","source":"x"})");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kMissingRank);
  auto other = Parse(R"({"kernel":"tsvc_2_s000","rank":"2","source":"x"})");
  ASSERT_FALSE(other.ok());
  HttpResponse r = error_response(other.error());
  EXPECT_EQ(r.status, 421);
  json body = json::parse(r.body);
  EXPECT_FALSE(body.at("error").get<std::string>().empty());
  body.erase("error");
  EXPECT_EQ(body, json({{"code", "misdirected"}, {"rank", 0}, {"requested_rank", 2}}));
  auto unknown = Parse(R"({"kernel":"nosuch","rank":0,"source":"x"})");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, ErrorCode::kUnknownKernel);
  auto both = Parse(R"({"kernel":"tsvc_2_s000","rank":0})");
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.error().code, ErrorCode::kSourceCount);
}

TEST_F(GradeBodyTest, AcceptedBodiesCarryEveryField) {
  auto r = Parse(
      R"({"kernel":"tsvc_2_s000","rank":"0","language":"cpp","precision":"fp32","source":"int x;",)"
      R"("build":["-DX=1","-lm"],"workspace_bytes":"8*N","preset":"M","run_id":"r1",)"
      R"("optimizer":"o","tokens":12})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const GradeRequest& g = r->request;
  EXPECT_EQ(g.route, "score");
  EXPECT_EQ(g.kernel, "tsvc_2_s000");
  EXPECT_EQ(g.language, "cpp");
  EXPECT_EQ(g.precision, "fp32");
  EXPECT_EQ(g.source, "int x;");
  EXPECT_EQ(g.build_tokens, (std::vector<std::string>{"-DX=1", "-lm"}));
  EXPECT_EQ(g.workspace_bytes, "8*N");
  EXPECT_EQ(g.preset, "M");
  EXPECT_EQ(g.run_id, "r1");
  EXPECT_EQ(g.optimizer, "o");
  EXPECT_EQ(g.tokens, 12);
  EXPECT_EQ(r->shared_file, SharedFile::kNone);

  // Nulls are "not given"; a shared file is left for resolve_shared_file.
  auto f = Parse(
      R"({"kernel":"tsvc_2_s000","rank":0,"source":null,"source_file":"sub/a.c","tokens":null})");
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->shared_file, SharedFile::kSourceFile);
  EXPECT_EQ(f->shared_path, "sub/a.c");
  EXPECT_FALSE(f->request.source.has_value());
  EXPECT_FALSE(f->request.tokens.has_value());
}

TEST_F(GradeBodyTest, SharedFilesResolveInsideTheSharedDir) {
  const fs::path dir = fs::temp_directory_path() / ("hpcab-grade-req-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "shared");
  std::ofstream(dir / "shared" / "ok.c") << "void f(void) {}\n";
  std::ofstream(dir / "shared" / "big.c") << std::string(100, 'x');
  std::ofstream(dir / "outside.c") << "secret\n";
  fs::create_symlink(dir / "outside.c", dir / "shared" / "link.c");
  const std::string shared = (dir / "shared").string();
  auto resolve = [&](const std::string& body) {
    auto parsed = Parse(body);
    EXPECT_TRUE(parsed.ok()) << body;
    return resolve_shared_file(std::move(*parsed), shared, 64);
  };
  auto ok = resolve(R"({"kernel":"tsvc_2_s000","rank":0,"source_file":"ok.c"})");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->source, "void f(void) {}\n");
  auto lib = resolve(R"({"kernel":"tsvc_2_s000","rank":0,"library":"ok.c"})");
  ASSERT_TRUE(lib.ok());
  EXPECT_EQ(lib->library_path, fs::canonical(dir / "shared" / "ok.c").string());
  EXPECT_FALSE(lib->source.has_value());
  for (const char* escape : {"../outside.c", "link.c", "/etc/passwd", "missing.c", "."}) {
    auto r = resolve(std::string(R"({"kernel":"tsvc_2_s000","rank":0,"source_file":")") + escape +
                     "\"}");
    ASSERT_FALSE(r.ok()) << escape;
    EXPECT_EQ(r.error().code, ErrorCode::kBadSharedFile) << escape;
  }
  auto big = resolve(R"({"kernel":"tsvc_2_s000","rank":0,"source_file":"big.c"})");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().code, ErrorCode::kSourceTooLarge);
  fs::remove_all(dir);
}

TEST(IdempotencyKeyHeader, AbsentKeyIsNoneAndGoodKeysPassAsTheyAre) {
  auto none = parse_idempotency_key({{"content-type", "application/json"}});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  for (const std::string& key : {std::string("a"), std::string("run-7:attempt.2_X"),
                                 std::string(kMaxIdempotencyKeyBytes, 'k'),
                                 std::string("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")}) {
    auto r = parse_idempotency_key({{"idempotency-key", key}});
    ASSERT_TRUE(r.ok()) << key << ": " << r.error().message;
    EXPECT_EQ(r->value_or(""), key);
  }
}

TEST(IdempotencyKeyHeader, BadKeysAre400sThatSayWhatAKeyMayBe) {
  const std::vector<std::string> bad = {
      "",                                             // empty
      std::string(kMaxIdempotencyKeyBytes + 1, 'k'),  // too long
      "has space",
      "a/b",
      "a#1",
      "caf\xc3\xa9",           // non-ASCII
      std::string("a\0b", 3),  // NUL
      "k1, k2",                // the header sent twice, as the server joins repeated fields
      "\"quoted\""};
  for (const auto& key : bad) {
    auto r = parse_idempotency_key({{"idempotency-key", key}});
    ASSERT_FALSE(r.ok()) << key;
    EXPECT_EQ(r.error().code, ErrorCode::kBadIdempotencyKey) << key;
    HttpResponse response = error_response(r.error());
    EXPECT_EQ(response.status, 400);
    EXPECT_EQ(json::parse(response.body)["code"], "bad_idempotency_key") << response.body;
  }
}

// A grader that throws on its first grade and grades "ok" afterwards.
class ThrowOnceGrader : public GradeService {
 public:
  ThrowOnceGrader() { corpus_.push_back(TestKernel()); }
  const Manifest* kernel(const std::string& id) const override {
    return id == corpus_[0].id ? &corpus_[0] : nullptr;
  }
  const std::vector<Manifest>& corpus() const override { return corpus_; }
  std::string baseline_name(const Manifest&) const override { return "c"; }
  json grade(const GradeRequest& request) override {
    if (grades_++ == 0) {
      throw fs::filesystem_error("cannot stage the build", fs::path("/nonexistent"),
                                 std::make_error_code(std::errc::no_such_file_or_directory));
    }
    return {{"kernel", request.kernel}, {"verdict", "ok"}, {"speedup", 1.5}};
  }
  Result<json> baseline_times(const Manifest&, const std::string&, const std::string&) override {
    throw std::bad_alloc();
  }
  const std::string& machine() const override { return machine_; }

 private:
  std::vector<Manifest> corpus_;
  std::string machine_ = "test machine";
  std::atomic<int> grades_{0};
};

TEST(RoutesFaults, AThrowingGradeIsA500JudgeErrorAndTheJudgeKeepsServing) {
  JudgeConfig config;
  config.rank = 0;
  config.input_mode = "source";
  ThrowOnceGrader grader;
  JobQueue queue(4, 1);
  Metrics metrics;
  Routes routes(config, &grader, &queue, &metrics);
  ServerLimits limits;
  limits.response_timeout_s = 10;
  limits.shutdown_grace_s = 2;
  Server server(limits, [&routes](HttpRequest request, Responder respond) {
    routes.handle(std::move(request), std::move(respond));
  });
  auto port = server.listen("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.error().message;
  server.start();
  const std::string base = "http://127.0.0.1:" + std::to_string(*port);
  const std::string body =
      R"({"kernel":"tsvc_2_s000","rank":0,"source":"void tsvc_2_s000_fp64(void) {}"})";

  auto first = http_request("POST", base + "/score", body, {}, 10);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->status, 500);
  json fault = json::parse(first->body);
  EXPECT_EQ(fault["verdict"], "judge_error");
  EXPECT_EQ(fault["harness_fault"], true);
  EXPECT_EQ(fault["kernel"], "tsvc_2_s000");
  EXPECT_EQ(fault["code"], "judge_fault") << first->body;

  auto second = http_request("POST", base + "/score", body, {}, 10);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->status, 200) << second->body;
  EXPECT_EQ(json::parse(second->body)["verdict"], "ok");

  // A baseline job that throws (bad_alloc) is answered the same way.
  auto baseline = http_request("GET", base + "/baseline/tsvc_2_s000?rank=0", "", {}, 10);
  ASSERT_TRUE(baseline.ok()) << baseline.error().message;
  EXPECT_EQ(baseline->status, 500);
  EXPECT_EQ(json::parse(baseline->body)["harness_fault"], true);

  auto health = http_request("GET", base + "/health", "", {}, 10);
  ASSERT_TRUE(health.ok()) << health.error().message;
  EXPECT_EQ(health->status, 200);

  auto m = http_request("GET", base + "/metrics", "", {}, 10);
  ASSERT_TRUE(m.ok());
  EXPECT_NE(m->body.find("hpcab_judge_faults_total{kind=\"exception\"} 2"), std::string::npos)
      << m->body;
  EXPECT_NE(m->body.find("hpcab_grades_total{route=\"score\",verdict=\"judge_error\"} 1"),
            std::string::npos);
  EXPECT_NE(m->body.find("hpcab_grades_total{route=\"score\",verdict=\"ok\"} 1"),
            std::string::npos);
  EXPECT_NE(m->body.find("hpcab_requests_total{route=\"/score\",status=\"500\"} 1"),
            std::string::npos);
  server.stop();
  queue.shutdown();
  EXPECT_EQ(queue.escaped_exceptions(), 0u);
}

TEST(JobQueueTest, AJobThatThrowsDoesNotEndItsWorker) {
  JobQueue queue(4, 1);
  std::atomic<int> ran{0};
  ASSERT_TRUE(queue.try_push([] { throw std::runtime_error("boom"); }));
  ASSERT_TRUE(queue.try_push([] { throw 42; }));
  ASSERT_TRUE(queue.try_push([&ran] { ++ran; }));
  queue.shutdown();  // drains: the third job runs on the same worker
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(queue.escaped_exceptions(), 2u);
}

}  // namespace
}  // namespace hpcab::judge

namespace hpcab::judge {
namespace {

// The GPU languages, and `residency`: host (the default) for every language, device
// for cuda and hip only; anything else is a 400 naming the field.
class ResidencyTest : public ::testing::Test {
 protected:
  ApiResult<ParsedGrade> Parse(const std::string& language, const std::string& residency_json) {
    const std::string body =
        R"({"kernel":"tsvc_2_s000","rank":0,"source":"int x;","language":")" + language + "\"" +
        (residency_json.empty() ? "" : ",\"residency\":" + residency_json) + "}";
    return parse_grade_body(body, "score", Rules(), [this](const std::string& id) {
      return id == kernel_.id ? &kernel_ : nullptr;
    });
  }
  Manifest kernel_ = TestKernel();
};

TEST_F(ResidencyTest, GpuLanguagesTakeHostOrDeviceOtherLanguagesHostOnly) {
  for (const char* lang : {"cuda", "hip"}) {
    auto dflt = Parse(lang, "");
    ASSERT_TRUE(dflt.ok()) << dflt.error().message;
    EXPECT_EQ(dflt->request.language, lang);
    EXPECT_EQ(dflt->request.residency, "host");
    auto device = Parse(lang, "\"device\"");
    ASSERT_TRUE(device.ok()) << device.error().message;
    EXPECT_EQ(device->request.residency, "device");
    auto null = Parse(lang, "null");
    ASSERT_TRUE(null.ok());
    EXPECT_EQ(null->request.residency, "host");
  }
  for (const char* lang : {"c", "cpp", "fortran", "python"}) {
    auto host = Parse(lang, "\"host\"");
    ASSERT_TRUE(host.ok()) << lang << ": " << host.error().message;
    EXPECT_EQ(host->request.residency, "host");
    auto device = Parse(lang, "\"device\"");
    ASSERT_FALSE(device.ok()) << lang;
    EXPECT_EQ(device.error().code, ErrorCode::kBadResidency);
  }
  for (const char* bad : {"\"gpu\"", "\"Device\"", "1", "[\"device\"]", "\"\""}) {
    auto r = Parse("cuda", bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::kBadResidency);
    EXPECT_NE(r.error().message.find("'residency'"), std::string::npos) << r.error().message;
  }
  auto unknown = Parse("opencl", "");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("cuda or hip"), std::string::npos)
      << unknown.error().message;
}

}  // namespace
}  // namespace hpcab::judge
