// /submit's Idempotency-Key on the judge side (judge/http/idempotency.h): SubmitKeys on its own,
// then the routes over a real server and a real Store with a fake grader that records answers
// as the record stage does (the key in the submission's row), so nothing is built or run and a
// grade can be held open to make a repeat arrive while it runs. The same behaviour against a
// real judge process: tests/judge/idempotency_e2e_test.cc.
#include "judge/http/idempotency.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/http_client.h"
#include "judge/grade/record.h"
#include "judge/http/job_queue.h"
#include "judge/http/metrics.h"
#include "judge/http/routes.h"
#include "judge/http/server.h"
#include "judge/store/store.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

Manifest TestKernel() {
  Manifest m;
  m.id = "tsvc_2_s000";
  m.precisions = {Precision::kFp64, Precision::kFp32};
  m.size_symbols = {"N"};
  m.presets = {{"S", {{"N", 1000}}}};
  return m;
}

SubmitIdentity Who(const std::string& source = "void f(void) {}") {
  GradeRequest g;
  g.kernel = "tsvc_2_s000";
  g.run_id = "run-1";
  g.source = source;
  return submit_identity(g);
}

// Collects what a Responder was called with.
struct Answers {
  Responder responder() {
    return [this](HttpResponse r) {
      std::lock_guard lock(mu);
      got.push_back(std::move(r));
    };
  }
  std::size_t size() {
    std::lock_guard lock(mu);
    return got.size();
  }
  std::mutex mu;
  std::vector<HttpResponse> got;
};

TEST(SubmitKeysTest, ARepeatInFlightWaitsAndAnotherRequestIsAConflict) {
  SubmitKeys keys(nullptr, 0);
  Answers first, repeat, other;
  auto claim = keys.begin("k1", Who(), first.responder());
  ASSERT_TRUE(claim.has_value());
  EXPECT_EQ(keys.in_flight(), 1u);

  EXPECT_FALSE(keys.begin("k1", Who(), repeat.responder()).has_value());
  EXPECT_EQ(repeat.size(), 0u);  // answered when the grade is
  EXPECT_FALSE(keys.begin("k1", Who("int x;"), other.responder()).has_value());
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other.got[0].status, 409);
  const json conflict = json::parse(other.got[0].body);
  EXPECT_EQ(conflict["differs"], json::array({"source"}));
  EXPECT_EQ(conflict["idempotency_key"], "k1");
  EXPECT_EQ(conflict["code"], "idempotency_conflict");

  HttpResponse graded;
  graded.body = R"({"submission_id":7,"verdict":"ok"})";
  (*claim)(graded);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first.got[0].body, graded.body);
  ASSERT_EQ(repeat.size(), 1u);
  EXPECT_EQ(repeat.got[0].status, 200);
  EXPECT_EQ(json::parse(repeat.got[0].body),
            json({{"submission_id", 7}, {"verdict", "ok"}, {"replayed", true}}));
  EXPECT_EQ(keys.in_flight(), 0u);
  // Released: without a store nothing remembers it, so the key can be claimed again.
  Answers again;
  EXPECT_TRUE(keys.begin("k1", Who(), again.responder()).has_value());
}

TEST(SubmitKeysTest, ErrorAnswersReachRepeatsUnchanged) {
  SubmitKeys keys(nullptr, 0);
  Answers first, repeat;
  auto claim = keys.begin("k", Who(), first.responder());
  ASSERT_TRUE(claim.has_value());
  ASSERT_FALSE(keys.begin("k", Who(), repeat.responder()).has_value());
  HttpResponse full = error_response(ApiError{ErrorCode::kQueueFull, "full", nullptr, 10});
  (*claim)(full);
  ASSERT_EQ(repeat.size(), 1u);
  EXPECT_EQ(repeat.got[0].status, 429);
  EXPECT_EQ(repeat.got[0].body, full.body);
  EXPECT_EQ(keys.in_flight(), 0u);
}

TEST(SubmitKeysTest, IdentityCoversEveryFieldOfTheContract) {
  GradeRequest g;
  g.kernel = "tsvc_2_s000";
  g.run_id = "r";
  g.source = "x";
  const SubmitIdentity base = submit_identity(g);
  auto differs = [&](auto change) {
    GradeRequest h = g;
    change(h);
    return !same_request(submit_identity(h), base);
  };
  EXPECT_TRUE(differs([](GradeRequest& h) { h.kernel = "tsvc_2_s111"; }));
  EXPECT_TRUE(differs([](GradeRequest& h) { h.language = "cpp"; }));
  EXPECT_TRUE(differs([](GradeRequest& h) { h.precision = "fp32"; }));
  EXPECT_TRUE(differs([](GradeRequest& h) { h.residency = "device"; }));
  EXPECT_TRUE(differs([](GradeRequest& h) { h.source = "y"; }));
  EXPECT_TRUE(differs([](GradeRequest& h) { h.run_id = "r2"; }));
  EXPECT_TRUE(differs([](GradeRequest& h) { h.rank = 1; }));
  EXPECT_TRUE(differs([](GradeRequest& h) {
    h.source.reset();
    h.library_path = "/shared/lib.so";
  }));
  EXPECT_TRUE(differs([](GradeRequest& h) { h.build_tokens = {"-DTILE=64"}; }));
  EXPECT_TRUE(differs([](GradeRequest& h) { h.preset = "M"; }));
  EXPECT_TRUE(differs([](GradeRequest& h) { h.workspace_bytes = "8*N"; }));
  // What a repeat may change: the optimizer's name, the token count, the received time.
  EXPECT_FALSE(differs([](GradeRequest& h) {
    h.optimizer = "other";
    h.tokens = 5;
    h.received_at = 1;
  }));
  // A recorded submission has the identity of the request it recorded.
  KeyedSubmission s{1, 0, "tsvc_2_s000", "c", "fp64", "r", "x", "", "{}", "[]", std::nullopt};
  s.request_json = request_json(g);
  auto recorded = [&s] {
    auto id = submit_identity(s);
    EXPECT_TRUE(id.ok()) << id.error().message;
    return id.ok() ? *id : SubmitIdentity{};
  };
  EXPECT_TRUE(same_request(recorded(), base));
  // Its residency is the one its recorded answer states (an answer without one was a host grade).
  s.response_json = R"({"residency": "device"})";
  EXPECT_FALSE(same_request(recorded(), base));
  GradeRequest d = g;
  d.residency = "device";
  EXPECT_TRUE(same_request(recorded(), submit_identity(d)));
  s.response_json = R"({"residency": "host"})";
  EXPECT_TRUE(same_request(recorded(), base));
  // Build tokens, preset and workspace as the record stage wrote them from the request.
  GradeRequest t = g;
  t.build_tokens = {"-DTILE=64", "-funroll-loops"};
  t.preset = "M";
  t.workspace_bytes = "8*N";
  s.build_tokens_json = json(t.build_tokens).dump();
  s.request_json = request_json(t);
  EXPECT_TRUE(same_request(recorded(), submit_identity(t)));
  EXPECT_FALSE(same_request(recorded(), base));
  GradeRequest other_preset = t;
  other_preset.preset.reset();  // "M" named before, the default now: another grade
  EXPECT_FALSE(same_request(recorded(), submit_identity(other_preset)));
  // A row from before schema version 5 does not know what its request named: the preset and
  // workspace are compared with nothing, everything else still is.
  s.request_json.reset();
  EXPECT_TRUE(same_request(recorded(), submit_identity(other_preset)));
  GradeRequest other_tokens = t;
  other_tokens.build_tokens = {"-DTILE=32"};
  EXPECT_FALSE(same_request(recorded(), submit_identity(other_tokens)));
  // Columns that do not parse are an error, not a guess.
  s.build_tokens_json = "not json";
  EXPECT_FALSE(submit_identity(s).ok());
  s.build_tokens_json = "[1]";
  EXPECT_FALSE(submit_identity(s).ok());
  s.build_tokens_json = "[]";
  s.request_json = "[]";
  EXPECT_FALSE(submit_identity(s).ok());
}

// A grader that records /submit answers in a real Store with the request's key (as the record
// stage does), counts its grades, and holds them while `hold` is set.
class RecordingGrader : public GradeService {
 public:
  explicit RecordingGrader(Store* store) : store_(store) { corpus_.push_back(TestKernel()); }
  const Manifest* kernel(const std::string& id) const override {
    return id == corpus_[0].id ? &corpus_[0] : nullptr;
  }
  const std::vector<Manifest>& corpus() const override { return corpus_; }
  std::string baseline_name(const Manifest&) const override { return "c"; }
  json grade(const GradeRequest& g) override {
    int n = 0;
    {
      std::unique_lock lock(mu_);
      n = ++started_;
      cv_.notify_all();
      cv_.wait(lock, [this] { return !hold_; });
    }
    const bool fault = fault_next_.exchange(false);
    json r = {{"kernel", g.kernel},
              {"route", g.route},
              {"verdict", fault ? "judge_error" : "ok"},
              {"harness_fault", fault},
              {"speedup", fault ? json(nullptr) : json(1.25)},
              {"grade", n},
              {"timings_s", {{"build", 0.5}}}};
    if (fault) r["fault"] = "runner";
    if (g.route != "score" && !fault) {
      SubmissionRecord rec;
      rec.route = g.route;
      rec.rank = g.rank;
      rec.kernel = g.kernel;
      rec.language = g.language;
      rec.precision = g.precision;
      rec.preset = "S";
      rec.sizes_json = "{}";
      rec.source = g.source.value_or("");
      rec.library_path = g.library_path.value_or("");
      rec.build_tokens_json = json(g.build_tokens).dump();
      rec.request_json = request_json(g);
      rec.verdict = "ok";
      rec.run_id = g.run_id;
      rec.optimizer = g.optimizer;
      rec.response_json = r.dump();
      rec.idempotency_key = g.idempotency_key;
      auto id = store_->record_submission(rec);
      EXPECT_TRUE(id.ok()) << id.error().message;
      if (id.ok()) r["submission_id"] = *id;
    }
    r["timings_s"]["record"] = 0.001;  // as the record stage: known only once the row is written
    return r;
  }
  Result<json> baseline_times(const Manifest&, const std::string&, const std::string&) override {
    return Error{"no baselines here"};
  }
  const std::string& machine() const override { return machine_; }

  void hold(bool on) {
    std::lock_guard lock(mu_);
    hold_ = on;
    cv_.notify_all();
  }
  // Waits until `n` grades have started (false after 10 s).
  bool wait_started(int n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 10s, [&] { return started_ >= n; });
  }
  int started() {
    std::lock_guard lock(mu_);
    return started_;
  }
  void fault_next() { fault_next_ = true; }

 private:
  Store* store_;
  std::vector<Manifest> corpus_;
  std::string machine_ = "test machine";
  std::mutex mu_;
  std::condition_variable cv_;
  int started_ = 0;
  bool hold_ = false;
  std::atomic<bool> fault_next_{false};
};

class RoutesKeysTest : public ::testing::Test {
 protected:
  void SetUp() override { Start(4); }
  void TearDown() override {
    if (grader_) grader_->hold(false);
    if (server_) server_->stop();
    if (queue_) queue_->shutdown();
    routes_.reset();
    if (store_) store_->close();
    fs::remove_all(dir_);
  }
  void Start(std::size_t queue_depth) {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-idem-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    auto store = Store::open((dir_ / "judge.db").string());
    ASSERT_TRUE(store.ok()) << store.error().message;
    store_ = std::move(*store);
    config_.rank = 0;
    config_.input_mode = "source";
    grader_ = std::make_unique<RecordingGrader>(store_.get());
    // Two workers: were a key graded twice, the second grade could run beside the first.
    queue_ = std::make_unique<JobQueue>(queue_depth, 2);
    routes_ =
        std::make_unique<Routes>(config_, grader_.get(), queue_.get(), &metrics_, store_.get());
    ServerLimits limits;
    limits.response_timeout_s = 20;
    limits.shutdown_grace_s = 2;
    server_ = std::make_unique<Server>(limits, [this](HttpRequest request, Responder respond) {
      routes_->handle(std::move(request), std::move(respond));
    });
    auto port = server_->listen("127.0.0.1", 0);
    ASSERT_TRUE(port.ok()) << port.error().message;
    server_->start();
    base_ = "http://127.0.0.1:" + std::to_string(*port);
  }
  HttpResult Post(const std::string& route, const std::optional<std::string>& key,
                  const std::string& source = "void tsvc_2_s000_fp64(void) {}",
                  const std::string& run_id = "run-1", const json& extra = json::object()) {
    json body = {{"kernel", "tsvc_2_s000"},
                 {"rank", 0},
                 {"source", source},
                 {"run_id", run_id},
                 {"optimizer", "opt"}};
    body.update(extra);
    std::map<std::string, std::string> headers;
    if (key) headers["Idempotency-Key"] = *key;
    auto r = http_request("POST", base_ + route, body.dump(), headers, 20);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : HttpResult{};
  }
  int64_t Submissions() { return store_->count_submissions().value(); }

  fs::path dir_;
  JudgeConfig config_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<RecordingGrader> grader_;
  std::unique_ptr<JobQueue> queue_;
  Metrics metrics_;
  std::unique_ptr<Routes> routes_;
  std::unique_ptr<Server> server_;
  std::string base_;
};

TEST_F(RoutesKeysTest, ARecordedKeyIsReplayedExactlyWithoutGrading) {
  auto first = Post("/submit", "ep-1:1");
  ASSERT_EQ(first.status, 200) << first.body;
  const json a = json::parse(first.body);
  EXPECT_FALSE(a.contains("replayed"));
  ASSERT_TRUE(a.contains("submission_id"));
  // The row keeps the body its client got, the id and the record stage's time included.
  auto rec = store_->get_submission(a["submission_id"].get<int64_t>());
  ASSERT_TRUE(rec.ok() && rec->has_value());
  EXPECT_EQ((*rec)->response_json, first.body);
  EXPECT_EQ((*rec)->idempotency_key, "ep-1:1");

  auto second = Post("/submit", "ep-1:1");
  ASSERT_EQ(second.status, 200) << second.body;
  json expected = a;
  expected["replayed"] = true;
  EXPECT_EQ(json::parse(second.body), expected);
  EXPECT_EQ(grader_->started(), 1);
  EXPECT_EQ(Submissions(), 1);

  // The optimizer and tokens may differ (they are not part of the request's identity).
  json other_optimizer = {
      {"kernel", "tsvc_2_s000"}, {"rank", 0},        {"source", "void tsvc_2_s000_fp64(void) {}"},
      {"run_id", "run-1"},       {"optimizer", "x"}, {"tokens", 5}};
  auto third = http_request("POST", base_ + "/submit", other_optimizer.dump(),
                            {{"Idempotency-Key", "ep-1:1"}}, 20);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(json::parse(third->body), expected);
  // Another key is another grade.
  EXPECT_EQ(Post("/submit", "ep-1:2").status, 200);
  EXPECT_EQ(grader_->started(), 2);
  EXPECT_EQ(Submissions(), 2);
}

TEST_F(RoutesKeysTest, ARepeatWhileTheGradeRunsWaitsForItsAnswer) {
  grader_->hold(true);
  auto first = std::async(std::launch::async, [this] { return Post("/submit", "ep-2:1"); });
  ASSERT_TRUE(grader_->wait_started(1));
  auto repeat = std::async(std::launch::async, [this] { return Post("/submit", "ep-2:1"); });
  // The repeat is held by its key, not queued: give it time to arrive, then finish the grade.
  EXPECT_EQ(repeat.wait_for(300ms), std::future_status::timeout);
  // Another request under the same key is refused at once, while the grade still runs.
  auto other = Post("/submit", "ep-2:1", "void tsvc_2_s000_fp64(void) { /* v2 */ }");
  EXPECT_EQ(other.status, 409) << other.body;
  EXPECT_EQ(json::parse(other.body)["differs"], json::array({"source"}));
  grader_->hold(false);
  const HttpResult a = first.get(), b = repeat.get();
  ASSERT_EQ(a.status, 200) << a.body;
  ASSERT_EQ(b.status, 200) << b.body;
  json expected = json::parse(a.body);
  expected["replayed"] = true;
  EXPECT_EQ(json::parse(b.body), expected);
  EXPECT_EQ(grader_->started(), 1);
  EXPECT_EQ(Submissions(), 1);
}

TEST_F(RoutesKeysTest, TheSameKeyForAnotherRequestIs409) {
  ASSERT_EQ(Post("/submit", "ep-3:1").status, 200);
  auto source = Post("/submit", "ep-3:1", "void tsvc_2_s000_fp64(void) { }");
  EXPECT_EQ(source.status, 409) << source.body;
  const json body = json::parse(source.body);
  EXPECT_EQ(body["differs"], json::array({"source"}));
  EXPECT_EQ(body["code"], "idempotency_conflict") << source.body;
  auto run = Post("/submit", "ep-3:1", "void tsvc_2_s000_fp64(void) {}", "run-2");
  EXPECT_EQ(run.status, 409);
  EXPECT_EQ(json::parse(run.body)["differs"], json::array({"run_id"}));
  // What the request named beyond its source: a preset, a workspace, build tokens.
  const std::string same_source = "void tsvc_2_s000_fp64(void) {}";
  auto preset = Post("/submit", "ep-3:1", same_source, "run-1", {{"preset", "S"}});
  EXPECT_EQ(preset.status, 409) << preset.body;
  EXPECT_EQ(json::parse(preset.body)["differs"], json::array({"preset"}));
  auto workspace = Post("/submit", "ep-3:1", same_source, "run-1", {{"workspace_bytes", "8*N"}});
  EXPECT_EQ(workspace.status, 409) << workspace.body;
  EXPECT_EQ(json::parse(workspace.body)["differs"], json::array({"workspace_bytes"}));
  auto tokens =
      Post("/submit", "ep-3:1", same_source, "run-1", {{"build", json::array({"-DX=1"})}});
  EXPECT_EQ(tokens.status, 409) << tokens.body;
  EXPECT_EQ(json::parse(tokens.body)["differs"], json::array({"build"}));
  // And the same request again is still the recorded grade.
  EXPECT_EQ(Post("/submit", "ep-3:1", same_source).status, 200);
  EXPECT_EQ(grader_->started(), 1);
  EXPECT_EQ(Submissions(), 1);
}

TEST_F(RoutesKeysTest, AJudgeFaultIsNotRecordedSoItsKeyIsGradedAfresh) {
  grader_->fault_next();
  auto fault = Post("/submit", "ep-4:1");
  ASSERT_EQ(fault.status, 200);
  EXPECT_EQ(json::parse(fault.body)["harness_fault"], true);
  EXPECT_EQ(Submissions(), 0);
  auto again = Post("/submit", "ep-4:1");
  ASSERT_EQ(again.status, 200);
  const json graded = json::parse(again.body);
  EXPECT_EQ(graded["verdict"], "ok");
  EXPECT_FALSE(graded.contains("replayed"));
  EXPECT_EQ(grader_->started(), 2);
  auto replay = Post("/submit", "ep-4:1");
  EXPECT_EQ(json::parse(replay.body)["replayed"], true);
  EXPECT_EQ(grader_->started(), 2);
  EXPECT_EQ(Submissions(), 1);
}

TEST_F(RoutesKeysTest, BadKeysAre400OnSubmitAndScoreIgnoresTheHeader) {
  auto bad = Post("/submit", "has space");
  EXPECT_EQ(bad.status, 400) << bad.body;
  EXPECT_NE(bad.body.find("Idempotency-Key"), std::string::npos);
  EXPECT_EQ(Post("/oracle", std::string(129, 'k')).status, 400);
  EXPECT_EQ(grader_->started(), 0);
  // /score records nothing as an answer: the header means nothing there, valid or not.
  EXPECT_EQ(Post("/score", "has space").status, 200);
  EXPECT_EQ(Post("/score", "ep-5:1").status, 200);
  auto twice = Post("/score", "ep-5:1");
  EXPECT_EQ(twice.status, 200);
  EXPECT_FALSE(json::parse(twice.body).contains("replayed"));
  EXPECT_EQ(grader_->started(), 3);
  EXPECT_EQ(Submissions(), 0);
}

TEST_F(RoutesKeysTest, AFullQueueReleasesTheKey) {
  // Two grades held on the two workers and four waiting fill the queue (depth 4).
  grader_->hold(true);
  std::vector<std::future<HttpResult>> busy;
  for (int i = 0; i < 3; ++i) {
    busy.push_back(std::async(std::launch::async, [this, i] {
      return Post("/submit", "busy-" + std::to_string(i), "void tsvc_2_s000_fp64(void) {}",
                  "run-" + std::to_string(i));
    }));
    if (i < 2) {
      ASSERT_TRUE(grader_->wait_started(i + 1));
    }
  }
  for (int i = 3; i < 6; ++i) {
    busy.push_back(std::async(std::launch::async, [this, i] {
      return Post("/submit", "busy-" + std::to_string(i), "void tsvc_2_s000_fp64(void) {}",
                  "run-" + std::to_string(i));
    }));
  }
  for (int tries = 0; queue_->waiting() < 4 && tries < 200; ++tries)
    std::this_thread::sleep_for(10ms);
  ASSERT_EQ(queue_->waiting(), 4u);
  auto full = Post("/submit", "ep-6:1");
  EXPECT_EQ(full.status, 429) << full.body;
  grader_->hold(false);
  for (auto& f : busy) EXPECT_EQ(f.get().status, 200);
  // The 429 released the key: its retry is graded.
  auto retry = Post("/submit", "ep-6:1");
  EXPECT_EQ(retry.status, 200) << retry.body;
  EXPECT_FALSE(json::parse(retry.body).contains("replayed"));
  EXPECT_EQ(Submissions(), 7);
}

}  // namespace
}  // namespace hpcab::judge
