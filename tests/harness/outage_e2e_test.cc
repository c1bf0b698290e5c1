// End to end: outages of the judge and of the model server during an arm, with real
// processes. A judge killed with SIGKILL and restarted on its port mid-arm; a judge that answers
// 503 for a while (a small HTTP front before a real judge); a submit whose answer is lost after
// the judge graded it (the front drops it); a judge fault; the fake model server down for a
// while, and down past the outage wait. Every episode must end with a grade (or, past the wait,
// as infra_failed, rerun by the next daemon), and no submission may be graded twice.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/http_client.h"
#include "harness/arm.h"
#include "harness/daemon.h"
#include "harness/episode_db.h"
#include "judge/store/schema.h"
#include "tests/harness/fake_llm.h"
#include "tests/judge/judge_process.h"

namespace hpcab::harness {
namespace {

namespace fs = std::filesystem;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

const std::string kBin = HPCAB_BINARY_DIR;

using judge::test::free_port;
using judge::test::slurp;

bool eventually(const std::function<bool()>& pred, double timeout_s) {
  const auto t0 = Clock::now();
  while (!pred()) {
    if (std::chrono::duration<double>(Clock::now() - t0).count() > timeout_s) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

// The drill's judge (tests/judge/judge_process.h: fixed port, state dir that outlives it, killed
// and started again), and what it graded, read from its database.
class RestartableJudge : public judge::test::RestartableJudge {
 public:
  using judge::test::RestartableJudge::RestartableJudge;

  // Graded submissions per run id, from the judge's database.
  std::map<std::string, int> submissions_by_run() const {
    std::map<std::string, int> out;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(this->db().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
      sqlite3_close(db);
      return out;
    }
    namespace S = judge::schema::submissions;
    const std::string sql = std::string("SELECT ") + S::kRunId + ", count(*) FROM " + S::kTable +
                            " GROUP BY " + S::kRunId;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
      while (sqlite3_step(st) == SQLITE_ROW) {
        out[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))] = sqlite3_column_int(st, 1);
      }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
  }
  int total_submissions() const {
    int n = 0;
    for (const auto& [run, count] : submissions_by_run()) n += count;
    return n;
  }
};

// A small HTTP front before a real judge, to make it misbehave on cue: answer 503 (with
// Retry-After) to everything for a while, drop the answer of a /submit after the judge graded
// it, or answer a /submit with a judge-fault grade without passing it on. One request per
// connection, as the tools' client sends them.
class Front {
 public:
  explicit Front(std::string upstream) : upstream_(std::move(upstream)) {
    acceptor_.open(asio::ip::tcp::v4());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { accept_loop(); });
  }
  ~Front() {
    stopping_ = true;
    beast::error_code ec;
    acceptor_.close(ec);
    // Wake a blocked accept.
    asio::io_context io;
    asio::ip::tcp::socket s(io);
    s.connect({asio::ip::make_address("127.0.0.1"), port_}, ec);
    thread_.join();
    std::lock_guard lock(mu_);
    for (auto& t : conns_) t.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  // From the next request matching `path_prefix` on, everything is answered 503 for
  // `seconds` (the matching request included).
  void unavailable_from_next(const std::string& path_prefix, double seconds) {
    std::lock_guard lock(mu_);
    trigger_prefix_ = path_prefix;
    trigger_seconds_ = seconds;
  }
  void unavailable_for(double seconds) {
    std::lock_guard lock(mu_);
    unavailable_until_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(seconds));
  }
  // The next /submit is passed on and graded, but its answer is dropped (the connection closes).
  void drop_next_submit_answer() { drop_submits_ = 1; }
  // The next `n` /submit get a judge-fault grade and never reach the judge.
  void fault_next_submits(int n) { fault_submits_ = n; }

  struct Seen {
    std::string method, target, key;
    int status = 0;  // what the client got; 0: nothing (dropped)
  };
  std::vector<Seen> seen() {
    std::lock_guard lock(mu_);
    return seen_;
  }
  int count(const std::string& path_prefix, int status) {
    int n = 0;
    for (const auto& s : seen()) n += s.target.rfind(path_prefix, 0) == 0 && s.status == status;
    return n;
  }

 private:
  void accept_loop() {
    while (!stopping_) {
      auto sock = std::make_shared<asio::ip::tcp::socket>(io_);
      beast::error_code ec;
      acceptor_.accept(*sock, ec);
      if (ec || stopping_) return;
      std::lock_guard lock(mu_);
      conns_.emplace_back([this, sock] { serve(*sock); });
    }
  }

  void serve(asio::ip::tcp::socket& sock) {
    beast::flat_buffer buf;
    http::request<http::string_body> req;
    beast::error_code ec;
    http::read(sock, buf, req, ec);
    if (ec) return;
    Seen seen{std::string(req.method_string()), std::string(req.target()),
              std::string(req["Idempotency-Key"]), 0};
    const bool submit = seen.target.rfind("/submit", 0) == 0;
    bool unavailable = false;
    {
      std::lock_guard lock(mu_);
      if (!trigger_prefix_.empty() && seen.target.rfind(trigger_prefix_, 0) == 0) {
        unavailable_until_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(trigger_seconds_));
        trigger_prefix_.clear();
      }
      unavailable = Clock::now() < unavailable_until_;
    }
    auto answer = [&](int status, const std::string& body,
                      std::map<std::string, std::string> headers = {}) {
      http::response<http::string_body> res{static_cast<http::status>(status), 11};
      res.set(http::field::content_type, "application/json");
      for (const auto& [k, v] : headers) res.set(k, v);
      res.keep_alive(false);
      res.body() = body;
      res.prepare_payload();
      http::write(sock, res, ec);
      seen.status = status;
    };
    if (unavailable) {
      answer(503, json{{"error", "the judge is restarting (test front)"}}.dump(),
             {{"Retry-After", "1"}});
    } else if (submit && fault_submits_ > 0) {
      --fault_submits_;
      answer(200, json{{"verdict", "judge_error"},
                       {"harness_fault", true},
                       {"fault", "scratch"},
                       {"speedup", nullptr},
                       {"detail", "judge fault: the scratch dir is full (test front)"}}
                      .dump());
    } else {
      std::map<std::string, std::string> headers;
      if (!seen.key.empty()) headers["Idempotency-Key"] = seen.key;
      auto r = http_request(seen.method, upstream_ + seen.target, req.body(), headers, 600);
      if (!r) {
        seen.status = -1;  // the judge is not there either: the client sees a closed connection
      } else if (submit && drop_submits_.exchange(0) == 1) {
        seen.status = 0;  // graded and recorded by the judge; the answer never arrives
      } else {
        std::map<std::string, std::string> out;
        if (r->headers.count("retry-after")) out["Retry-After"] = r->headers.at("retry-after");
        answer(r->status, r->body, out);
      }
    }
    sock.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
    sock.close(ec);
    std::lock_guard lock(mu_);
    seen_.push_back(seen);
  }

  std::string upstream_;
  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_{io_};
  unsigned short port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  std::mutex mu_;
  std::list<std::thread> conns_;
  std::vector<Seen> seen_;
  Clock::time_point unavailable_until_{};
  std::string trigger_prefix_;
  double trigger_seconds_ = 0;
  std::atomic<int> drop_submits_{0};
  std::atomic<int> fault_submits_{0};
};

class OutageE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-outage-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    fs::permissions(dir_, fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  Arm arm(const std::string& text) {
    fs::path p = dir_ / "arm.env";
    std::ofstream(p) << text << "\nSTATE_DB=" << (dir_ / "harness.db").string() << "\n";
    auto a = load_arm(p);
    EXPECT_TRUE(a) << (a ? "" : a.error().message);
    return a ? *a : Arm{};
  }
  std::string agent(const std::string& name, const std::string& body) {
    fs::path p = dir_ / (name + ".sh");
    std::ofstream(p) << "#!/bin/sh\nD='" << dir_.string() << "'\n" << body << "\n";
    return "sh " + p.string();
  }
  DaemonOptions options() {
    DaemonOptions o;
    o.workspace_root = dir_ / "ws";
    o.tool_path = kBin + "/hpcab-tool";
    o.corpus_dir = default_corpus_dir();
    o.term_grace_s = 0.5;
    o.judge_timeout_s = 60;
    o.health_interval_s = 0.2;
    o.progress_interval_s = 0.2;
    o.log = &log_;
    return o;
  }
  std::vector<EpisodeRow> rows(const std::string& arm_name) {
    auto db = EpisodeDb::open((dir_ / "harness.db").string());
    EXPECT_TRUE(db);
    auto r = (*db)->list(arm_name);
    EXPECT_TRUE(r);
    return r ? *r : std::vector<EpisodeRow>{};
  }
  // The agents' logs of every attempt, for the tools' outage lines.
  std::string agent_logs() {
    std::string all;
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(dir_ / "ws", ec)) {
      if (e.path().extension() == ".log") all += slurp(e.path());
    }
    return all;
  }
  std::string log() {
    std::lock_guard lock(log_mu_);
    return log_.str();
  }

  fs::path dir_;
  std::mutex log_mu_;
  std::ostringstream log_;
};

// The issue's drill, small: an identity arm with two workers; the judge is killed with SIGKILL
// while it grades and started again 3 s later on its port. Every episode ends with a grade,
// none is infra_failed, and the judge's database holds exactly one submission per episode.
TEST_F(OutageE2E, JudgeKilledAndRestartedDuringAnArmLosesNoEpisode) {
  RestartableJudge judge(dir_ / "judge");
  Arm a = arm(
      "NAME=drill\nKERNELS=tsvc_2_s000,tsvc_2_s111,relu\nREPETITIONS=2\nAGENT=identity\nWORKERS=2\n"
      "WALL_BUDGET_S=600\nOUTAGE_WAIT_S=120\nJUDGE_URLS=" +
      judge.url());
  DaemonOptions o = options();
  Result<RunSummary> summary = Error{"not run"};
  std::thread daemon([&] { summary = run_arm(a, o); });
  // Kill it once it has graded something and is busy again (a grade in flight).
  ASSERT_TRUE(eventually([&] { return judge.total_submissions() >= 1; }, 120));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  judge.stop(SIGKILL);
  const int before = judge.total_submissions();
  std::this_thread::sleep_for(std::chrono::seconds(3));
  judge.start();
  daemon.join();
  ASSERT_TRUE(summary) << summary.error().message;
  const auto r = rows("drill");
  ASSERT_EQ(r.size(), 6u);
  for (const auto& e : r) {
    EXPECT_EQ(e.status, "finished") << e.id << " " << e.exit_reason << "\n" << log();
    EXPECT_EQ(e.exit_reason, "submitted") << e.id;
    // Graded: what this test is about. (Which verdict is the judge's business; a loaded host
    // has been seen to make it grade a reference `crash`.)
    EXPECT_FALSE(e.final_verdict.empty()) << e.id;
    EXPECT_TRUE(e.final_submission_id.has_value()) << e.id;
    // An attempt the restart failed (a judge fault) is handed out again and graded then; say
    // so, since the harness did its part, but it is worth a look at the judge.
    if (e.infra_failures > 0) {
      std::cout << "note: " << e.id << " had " << e.infra_failures
                << " infrastructure failure(s) before its grade:\n"
                << agent_logs() << "\n";
    }
    EXPECT_LE(e.infra_failures, 1) << e.id << "\n" << log();
  }
  EXPECT_EQ(summary->counts.finished, 6);
  EXPECT_EQ(summary->counts.infra_failed, 0);
  // Graded once each: one judge record per episode's run id.
  const auto by_run = judge.submissions_by_run();
  for (const auto& e : r) {
    const std::string run = e.id + "#" + std::to_string(e.attempt);
    EXPECT_EQ(by_run.count(run) ? by_run.at(run) : 0, 1) << run;
  }
  EXPECT_EQ(judge.total_submissions(), 6);
  EXPECT_LT(before, 6) << "the judge was killed after the arm had ended";
  // The outage was seen and waited out, not failed.
  EXPECT_NE(log().find("judge " + judge.url() + " unreachable since"), std::string::npos) << log();
}

// A judge that answers 503 for a while, from the first /submit on: the tool waits it out (one
// Idempotency-Key on every try of the submit, GET /health probes in between) and both episodes
// end graded, in their first attempt.
TEST_F(OutageE2E, JudgeAnswering503ForAWhileIsWaitedOut) {
  RestartableJudge judge(dir_ / "judge");
  Front front(judge.url());
  front.unavailable_from_next("/submit", 4);
  Arm a =
      arm("NAME=busy\nKERNELS=tsvc_2_s000,tsvc_2_s111\nAGENT=identity\nWALL_BUDGET_S=600\nOUTAGE_"
          "WAIT_S=120\n"
          "OUTAGE_BACKOFF_MAX_S=1\nJUDGE_URLS=" +
          front.url());
  auto s = run_arm(a, options());
  ASSERT_TRUE(s) << s.error().message;
  for (const auto& e : rows("busy")) {
    EXPECT_EQ(e.status, "finished") << e.id << " " << e.exit_reason << "\n" << log();
    EXPECT_TRUE(e.final_submission_id.has_value()) << e.id;  // graded (any verdict)
    EXPECT_EQ(e.attempt, 1) << e.id;
  }
  // The first submit got 503 and the judge was then probed (GET /health) until it answered;
  // only then was the submit sent again.
  EXPECT_GE(front.count("/submit", 503), 1);
  EXPECT_GE(front.count("/health", 503), 1);
  EXPECT_EQ(front.count("/submit", 200), 2);
  // Every try of one submission carried the same key; the two episodes' keys differ.
  std::map<std::string, std::set<std::string>> keys_by_status;
  std::set<std::string> keys;
  for (const auto& seen : front.seen()) {
    if (seen.target.rfind("/submit", 0) != 0) continue;
    EXPECT_FALSE(seen.key.empty());
    keys.insert(seen.key);
  }
  EXPECT_EQ(keys.size(), 2u);
  for (const auto& k : keys) EXPECT_EQ(k.rfind("hpcab:", 0), 0u) << k;
  EXPECT_EQ(judge.total_submissions(), 2);
  const std::string logs = agent_logs();
  EXPECT_NE(logs.find("judge " + front.url() + " unreachable since"), std::string::npos) << logs;
  EXPECT_NE(logs.find("answers again after"), std::string::npos) << logs;
}

// The connection of a /submit breaks after the judge received (and graded) it: the tool asks
// again under the same Idempotency-Key and gets the recorded grade, marked replayed; the judge
// graded it once. (Needs the judge's idempotency support, branch idem.)
TEST_F(OutageE2E, SubmitWhoseAnswerIsLostIsGradedOnce) {
  RestartableJudge judge(dir_ / "judge");
  Front front(judge.url());
  front.drop_next_submit_answer();
  const fs::path state = dir_ / "tool-state";
  fs::create_directories(state);
  const std::string reference =
      std::string(HPCAB_SOURCE_DIR) + "/tests/solutions/tsvc_2_s000_reference.c";
  const std::string cmd =
      "cd " + state.string() + " && JUDGE_URL=" + front.url() +
      " RUN_ID=lost/tsvc_2_s000/0#1 KERNEL=tsvc_2_s000 HPCAB_SUBMISSION_POLICY=single"
      " HPCAB_TOOL_STATE=" +
      state.string() + " HPCAB_OUTAGE_WAIT_S=60 " + kBin + "/hpcab-tool submit " + reference +
      " > out.json 2> err.txt";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(state / "err.txt");
  const json answer = json::parse(slurp(state / "out.json"));
  EXPECT_EQ(answer["verdict"], "ok");
  EXPECT_EQ(answer.value("replayed", false), true) << answer.dump();
  std::vector<Front::Seen> submits;
  for (const auto& s : front.seen()) {
    if (s.target.rfind("/submit", 0) == 0) submits.push_back(s);
  }
  ASSERT_EQ(submits.size(), 2u);
  EXPECT_EQ(submits[0].status, 0);  // dropped
  EXPECT_EQ(submits[1].status, 200);
  EXPECT_EQ(submits[0].key, submits[1].key);
  EXPECT_EQ(judge.submissions_by_run()["lost/tsvc_2_s000/0#1"], 1);
  // The single-submission marker was written once the grade arrived; nothing is pending.
  EXPECT_TRUE(fs::exists(state / ".hpcab-submitted.lost_tsvc_2_s000_0_1"));
  EXPECT_FALSE(fs::exists(state / ".hpcab-pending.lost_tsvc_2_s000_0_1.json"));
}

// A grade that is a judge fault (harness_fault) is no answer: the episode is infra_failed, not
// finished, and is handed out again (INFRA_RETRIES); its next attempt is graded.
TEST_F(OutageE2E, JudgeFaultIsAnInfrastructureFailureAndIsRunAgain) {
  RestartableJudge judge(dir_ / "judge");
  Front front(judge.url());
  front.fault_next_submits(1);
  Arm a = arm("NAME=fault\nKERNELS=tsvc_2_s000\nAGENT=identity\nINFRA_RETRIES=2\nJUDGE_URLS=" +
              front.url());
  auto s = run_arm(a, options());
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows("fault");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished") << log();
  EXPECT_EQ(r[0].final_verdict, "ok");
  EXPECT_EQ(r[0].attempt, 2);
  EXPECT_EQ(r[0].infra_failures, 1);
  EXPECT_NE(log().find("judge_fault"), std::string::npos) << log();
  EXPECT_EQ(s->retired_workers, 0);
}

// The model server goes away while an agent works and comes back 3 s later: the agent's request
// is held by the metering proxy and answered once the server is back; the episode finishes as
// if nothing happened, each request counted once.
TEST_F(OutageE2E, InferenceDownForAWhileDuringAnAgentEpisode) {
  RestartableJudge judge(dir_ / "judge");
  test::FakeLlm model;
  const auto port = model.start();
  std::ofstream(dir_ / "llm.py") << R"PY(
import json, os, sys, urllib.request
req = urllib.request.Request(os.environ["MODEL_URL"] + "/v1/chat/completions",
    data=json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode(),
    headers={"Content-Type": "application/json"})
urllib.request.urlopen(req, timeout=120).read()
)PY";
  const std::string cmd = agent("llm", R"SH(
python3 "$D/llm.py" || exit 6
touch "$D/first"
while [ ! -f "$D/go" ]; do sleep 0.05; done
python3 "$D/llm.py" || exit 7
echo done > "$D/second"
)SH");
  Arm a = arm("NAME=llm\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + cmd +
              "\nMODEL=m\nWALL_BUDGET_S=300\nOUTAGE_WAIT_S=120\nOUTAGE_BACKOFF_MAX_S=0.5\n"
              "MAX_RELAUNCHES=0\nINFERENCE_URLS=" +
              model.url() + "\nJUDGE_URLS=" + judge.url());
  Result<RunSummary> s = Error{"not run"};
  std::thread daemon([&] { s = run_arm(a, options()); });
  ASSERT_TRUE(eventually([&] { return fs::exists(dir_ / "first"); }, 60)) << log();
  model.stop();
  std::ofstream(dir_ / "go") << "1";
  std::this_thread::sleep_for(std::chrono::seconds(3));
  EXPECT_FALSE(fs::exists(dir_ / "second")) << "the request was answered while the server was down";
  model.set_unavailable(true);  // back, but still loading: 503 for another second
  model.start(port);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  model.set_unavailable(false);
  daemon.join();
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows("llm");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "finished") << r[0].exit_reason << "\n" << log();
  EXPECT_EQ(r[0].exit_code, 0);
  EXPECT_EQ(r[0].attempt, 1);
  EXPECT_EQ(r[0].requests, 2);
  EXPECT_EQ(model.totals().requests, 2) << "the held request was answered once, after the outage";
  EXPECT_GE(model.unavailable_answers(), 1);
  EXPECT_NE(log().find("model server " + model.url() + " unreachable since"), std::string::npos)
      << log();
}

// The model server stays down past OUTAGE_WAIT_S: the attempt ends infra_failed
// (inference_unreachable), not crash; the worker retires, the daemon leaves the episode for the
// next run, and the next run (server back) finishes it.
TEST_F(OutageE2E, InferenceDownPastTheWaitIsRerunByTheNextDaemon) {
  RestartableJudge judge(dir_ / "judge");
  const int port = free_port();
  const std::string model_url = "http://127.0.0.1:" + std::to_string(port);
  std::ofstream(dir_ / "llm.py") << R"PY(
import json, os, sys, urllib.request
req = urllib.request.Request(os.environ["MODEL_URL"] + "/v1/chat/completions",
    data=json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode(),
    headers={"Content-Type": "application/json"})
try:
    urllib.request.urlopen(req, timeout=120).read()
except Exception as e:
    print("model request failed:", e)
    sys.exit(9)
)PY";
  const std::string cmd = agent("llm", "python3 \"$D/llm.py\"");
  Arm a = arm("NAME=gone\nKERNELS=tsvc_2_s000\nAGENT=command\nAGENT_COMMAND=" + cmd +
              "\nMODEL=m\nWALL_BUDGET_S=300\nOUTAGE_WAIT_S=1.5\nINFRA_RETRIES=1\n"
              "MAX_RELAUNCHES=2\nINFERENCE_URLS=" +
              model_url + "\nJUDGE_URLS=" + judge.url());
  auto s = run_arm(a, options());
  ASSERT_TRUE(s) << s.error().message;
  auto r = rows("gone");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "infra_failed") << log();
  EXPECT_EQ(r[0].exit_reason, "inference_unreachable");
  EXPECT_EQ(r[0].attempt, 1);
  EXPECT_EQ(s->retired_workers, 1);
  EXPECT_EQ(s->counts.infra_failed, 1);
  EXPECT_NE(log().find("retired"), std::string::npos) << log();

  test::FakeLlm model;
  model.start(static_cast<std::uint16_t>(port));
  auto again = run_arm(a, options());
  ASSERT_TRUE(again) << again.error().message;
  r = rows("gone");
  EXPECT_EQ(r[0].status, "finished") << r[0].exit_reason << "\n" << log();
  EXPECT_EQ(r[0].exit_code, 0);
  EXPECT_EQ(r[0].attempt, 2);
  EXPECT_EQ(r[0].infra_failures, 1);
}

}  // namespace
}  // namespace hpcab::harness
