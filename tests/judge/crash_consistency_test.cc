// Crash consistency (SPEC §5.12): a real hpcab-judge on one state dir is SIGKILLed at
// seeded random moments (during startup, mid-grade, just after an acknowledgement, anywhere)
// while a client streams /submit and /score at it, then restarted, at least 20 times. After every
// kill no sandbox process may survive; after every restart no grade/baseline/build dir of a dead
// judge may remain; at the end the database passes PRAGMA integrity_check and holds every
// submission that was ever acknowledged, under the acknowledged submission_id.
//
// Reproduce a run with HPCAB_CRASH_SEED=<seed printed by the test>; HPCAB_CRASH_ITERATIONS
// changes the number of kills (at least 20).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "common/http_client.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

const std::string kSolutions = HPCAB_TEST_SOLUTIONS;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string tail(const std::string& s, std::size_t n) {
  return s.size() <= n ? s : s.substr(s.size() - n);
}

// One judge process on the shared state and scratch dirs. Its stdout (the "listening on" line)
// is read without blocking so the test can kill it at any moment, even before it listens.
class JudgeProcess {
 public:
  JudgeProcess(const fs::path& root, const fs::path& log) {
    std::vector<std::string> argv = {std::string(HPCAB_BINARY_DIR) + "/hpcab-judge",
                                     "--config",
                                     (root / "config.json").string(),
                                     "--port",
                                     "0",
                                     "--state-dir",
                                     (root / "state").string(),
                                     "--scratch-dir",
                                     (root / "scratch").string()};
    std::vector<char*> args;  // built before fork: the child only makes system calls
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // a crashed test leaves no judge behind
      int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      dup2(out[1], 1);
      if (fd >= 0) dup2(fd, 2);
      execv(args[0], args.data());
      _exit(127);
    }
    close(out[1]);
    out_ = out[0];
  }
  ~JudgeProcess() {
    kill9();
    if (out_ >= 0) close(out_);
  }
  pid_t pid() const { return pid_; }
  // The URL once the judge printed it; waits at most until `deadline`.
  std::optional<std::string> wait_listening(Clock::time_point deadline) {
    while (Clock::now() < deadline && pid_ > 0) {
      auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
      pollfd p{out_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(std::max<int64_t>(left, 0))) <= 0) break;
      char c;
      if (read(out_, &c, 1) != 1) break;  // the judge exited
      if (c != '\n') {
        line_ += c;
        continue;
      }
      auto pos = line_.rfind("http://");
      if (pos != std::string::npos) return line_.substr(pos);
      line_.clear();
    }
    return std::nullopt;
  }
  // SIGKILL and reap; returns the wait status.
  int kill9() {
    if (pid_ <= 0) return 0;
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
  }
  // SIGTERM, wait, return the exit code (-1 if it did not exit normally within 120 s).
  int terminate() {
    if (pid_ <= 0) return -1;
    kill(pid_, SIGTERM);
    for (int i = 0; i < 1200; ++i) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(milliseconds(100));
    }
    kill9();
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  std::string line_;
};

// Processes that belong to this test and must not outlive a killed judge: anything reparented
// to this process (a child subreaper, so orphans of the judge's sandbox come here instead of
// init) and anything whose command line names this test's temp root (bwrap's bind mounts do).
std::vector<std::string> survivors(const fs::path& root) {
  // Reap what already died so only live processes count.
  while (waitpid(-1, nullptr, WNOHANG) > 0) {
  }
  std::vector<std::string> found;
  const std::string me = std::to_string(getpid());
  const std::string needle = root.string();
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string pid = e.path().filename().string();
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || pid == me) {
      continue;
    }
    std::string stat = slurp(e.path() / "stat");
    auto close_paren = stat.rfind(')');
    if (close_paren == std::string::npos) continue;  // gone meanwhile
    std::istringstream rest(stat.substr(close_paren + 2));
    std::string state, ppid;
    rest >> state >> ppid;
    if (state == "Z") continue;
    std::string cmdline = slurp(e.path() / "cmdline");
    for (auto& ch : cmdline) {
      if (ch == '\0') ch = ' ';
    }
    if (ppid == me || cmdline.find(needle) != std::string::npos) {
      found.push_back(pid + " (ppid " + ppid + "): " + cmdline.substr(0, 200));
    }
  }
  return found;
}

// Grade, baseline and build dirs anywhere in the scratch root (its run-* dirs included).
std::vector<std::string> work_dirs(const fs::path& scratch) {
  std::vector<std::string> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(scratch, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("grade-", 0) == 0 || name.rfind("baseline-", 0) == 0 ||
        name.rfind("build-", 0) == 0) {
      found.push_back(it->path().string());
      it.disable_recursion_pending();
    }
    if (it.depth() >= 1) it.disable_recursion_pending();
  }
  return found;
}

bool grading_now(const fs::path& scratch) {
  for (const auto& d : work_dirs(scratch)) {
    auto name = fs::path(d).filename().string();
    if (name.rfind("grade-", 0) == 0 || name.rfind("baseline-", 0) == 0) return true;
  }
  return false;
}

std::vector<std::string> run_dirs(const fs::path& scratch) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(scratch, ec)) {
    if (e.path().filename().string().rfind("run-", 0) == 0) found.push_back(e.path().string());
  }
  return found;
}

struct Ack {
  std::string run_id;
  int64_t submission_id = 0;
};

// Streams /submit (and every 4th request a /score) until stopped, recording each acknowledged
// submission. Transport errors are expected: the judge is killed under it.
class Client {
 public:
  Client(std::string url, std::string source, int iteration)
      : url_(std::move(url)), source_(std::move(source)), iteration_(iteration) {
    thread_ = std::thread([this] { loop(); });
  }
  ~Client() { stop(); }
  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  int acks() const { return acks_.load(); }
  std::vector<Ack> acknowledged() {
    std::lock_guard lock(mu_);
    return acked_;
  }
  std::vector<std::string> unexpected() {
    std::lock_guard lock(mu_);
    return unexpected_;
  }

 private:
  void loop() {
    for (int n = 0; !stop_; ++n) {
      const bool score = n % 4 == 3;
      const std::string run_id = "crash-" + std::to_string(iteration_) + "-" + std::to_string(n);
      json body = {{"kernel", "tsvc_2_s000"}, {"language", "c"},  {"rank", 0},
                   {"source", source_},       {"run_id", run_id}, {"optimizer", "crash-test"}};
      auto r = http_request("POST", url_ + (score ? "/score" : "/submit"), body.dump(), {}, 300);
      if (!r.ok()) {
        if (!stop_) std::this_thread::sleep_for(milliseconds(50));
        continue;
      }
      std::lock_guard lock(mu_);
      if (r->status != 200) {
        unexpected_.push_back(run_id + ": HTTP " + std::to_string(r->status) + " " + r->body);
        continue;
      }
      json j = json::parse(r->body, nullptr, false);
      if (score) continue;
      if (j.is_object() && j.contains("submission_id") && j["submission_id"].is_number_integer()) {
        acked_.push_back({run_id, j["submission_id"].get<int64_t>()});
        ++acks_;
      } else {
        unexpected_.push_back(run_id + ": 200 without a submission_id: " + r->body.substr(0, 300));
      }
    }
  }
  std::string url_, source_;
  int iteration_;
  std::atomic<bool> stop_{false};
  std::atomic<int> acks_{0};
  std::mutex mu_;
  std::vector<Ack> acked_;
  std::vector<std::string> unexpected_;
  std::thread thread_;
};

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

TEST(CrashConsistency, KillNineDuringSubmitsLosesNothingAndLeaksNothing) {
  // Orphans of the killed judge (a sandbox that outlived it) are reparented here, not to init.
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  std::string tmpl = (fs::temp_directory_path() / "hpcab-crash-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path root = tmpl;
  // The sandbox's unprivileged uid must be able to traverse to the scratch dir.
  fs::permissions(root, fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
  const fs::path scratch = root / "scratch";
  // Small grades: a kill lands in every phase within a few seconds of a start.
  json cfg = {{"timed_calls", 5},
              {"hidden_variants", 1},
              {"hidden_presets", json::array()},
              {"submit_fuzzed_configs", 1},
              {"call_timeout_s", 20},
              {"min_call_ms", 0},
              {"queue_depth", 4},
              // C baselines (judge_process.h says why)
              {"track_baseline", {{"loop_level_reasoning", "c"}}},
              {"report_baselines", ""},
              // No slot watch (judge_process.h says why): steal on the test VM must not turn a
              // grade this test counts into a judge fault.
              {"slot_wait_max", 0},
              {"slot_steal_max", 0},
              {"server", {{"shutdown_grace_s", 20}}}};
  std::ofstream(root / "config.json") << cfg.dump();
  const std::string source = slurp(kSolutions + "/tsvc_2_s000.c");

  const int iterations = std::max(20, env_int("HPCAB_CRASH_ITERATIONS", 24));
  const unsigned seed = static_cast<unsigned>(
      env_int("HPCAB_CRASH_SEED", static_cast<int>(std::random_device{}() & 0x7fffffff)));
  std::cout << "[crash] seed " << seed << " (rerun with HPCAB_CRASH_SEED=" << seed << "), "
            << iterations << " kills, root " << root << std::endl;
  RecordProperty("seed", static_cast<int>(seed));
  std::mt19937 rng(seed);
  auto uniform_ms = [&rng](int lo, int hi) {
    return milliseconds(std::uniform_int_distribution<int>(lo, hi)(rng));
  };

  std::vector<Ack> acked;
  std::vector<std::string> unexpected;
  int mid_grade_kills = 0, stale_sweeps = 0, orphan_sweeps = 0;
  const auto test_start = Clock::now();
  for (int i = 0; i < iterations; ++i) {
    const fs::path log = root / ("judge-" + std::to_string(i) + ".log");
    const char* modes[] = {"startup", "mid-grade", "just-after-ack", "random"};
    const std::string mode = modes[i % 4];
    auto judge = std::make_unique<JudgeProcess>(root, log);
    ASSERT_GT(judge->pid(), 0);
    std::string when;
    std::unique_ptr<Client> client;
    if (mode == "startup") {
      auto d = uniform_ms(0, 600);
      when = std::to_string(d.count()) + " ms after exec";
      const auto until = Clock::now() + d;
      (void)judge->wait_listening(until);  // drains stdout; returns early at the URL line
      std::this_thread::sleep_until(until);
    } else {
      auto url = judge->wait_listening(Clock::now() + std::chrono::seconds(60));
      ASSERT_TRUE(url) << "judge " << i << " did not start: " << tail(slurp(log), 3000);
      auto health = http_request("GET", *url + "/health", "", {}, 30);
      ASSERT_TRUE(health.ok() && health->status == 200) << "judge " << i << ": no /health";
      // The restarted judge swept every work dir its killed predecessors left; only its own
      // run dir exists.
      auto left = work_dirs(scratch);
      EXPECT_TRUE(left.empty()) << "iteration " << i << ": stale work dir " << left.front();
      EXPECT_EQ(run_dirs(scratch).size(), 1u) << "iteration " << i;
      if (slurp(log).find("removed stale scratch dir") != std::string::npos) ++stale_sweeps;

      client = std::make_unique<Client>(*url, source, i);
      if (mode == "mid-grade") {
        auto deadline = Clock::now() + std::chrono::seconds(60);
        while (!grading_now(scratch) && Clock::now() < deadline) {
          std::this_thread::sleep_for(milliseconds(5));
        }
        bool grading = grading_now(scratch);
        mid_grade_kills += grading ? 1 : 0;
        auto d = uniform_ms(0, 400);
        std::this_thread::sleep_for(d);
        when = (grading ? "" : "(no grade seen) ") + std::to_string(d.count()) +
               " ms after a grade dir appeared";
      } else if (mode == "just-after-ack") {
        const int before = client->acks();
        auto deadline = Clock::now() + std::chrono::seconds(90);
        while (client->acks() == before && Clock::now() < deadline) {
          std::this_thread::sleep_for(milliseconds(1));
        }
        auto d = uniform_ms(0, 30);
        std::this_thread::sleep_for(d);
        when = std::to_string(d.count()) + " ms after an acknowledgement";
      } else {
        auto d = uniform_ms(0, 5000);
        std::this_thread::sleep_for(d);
        when = std::to_string(d.count()) + " ms after /health";
      }
    }
    const pid_t killed = judge->pid();
    judge->kill9();
    if (client) {
      client->stop();
      auto a = client->acknowledged();
      acked.insert(acked.end(), a.begin(), a.end());
      auto u = client->unexpected();
      unexpected.insert(unexpected.end(), u.begin(), u.end());
    }
    std::cout << "[crash] " << i << ": kill -9 pid " << killed << " (" << mode << ", " << when
              << "), " << acked.size() << " acknowledged so far" << std::endl;

    // The kernel tears the sandboxes down (PDEATHSIG via --die-with-parent, and the judge's
    // own prctl before exec); allow it a generous moment, then nothing of ours may be alive.
    std::vector<std::string> alive;
    for (auto deadline = Clock::now() + std::chrono::seconds(10); Clock::now() < deadline;) {
      alive = survivors(root);
      if (alive.empty()) break;
      std::this_thread::sleep_for(milliseconds(50));
    }
    if (!alive.empty()) {
      // A kill that lands inside bubblewrap's own set-up (before it arms its parent-death
      // signal) can leave a sandbox behind; the next judge to claim the scratch dir must kill
      // it while sweeping the dead judge's run dir.
      std::cout << "[crash] " << alive.size() << " sandbox process(es) outlived judge " << i
                << "; a restart must sweep them: " << alive.front() << std::endl;
      ++orphan_sweeps;
      {
        const fs::path sweep_log = root / ("judge-sweep-" + std::to_string(i) + ".log");
        JudgeProcess sweeper(root, sweep_log);
        ASSERT_TRUE(sweeper.wait_listening(Clock::now() + std::chrono::seconds(60)))
            << tail(slurp(sweep_log), 3000);
        EXPECT_EQ(sweeper.terminate(), 0) << tail(slurp(sweep_log), 3000);
      }
      for (auto deadline = Clock::now() + std::chrono::seconds(10); Clock::now() < deadline;) {
        alive = survivors(root);
        if (alive.empty()) break;
        std::this_thread::sleep_for(milliseconds(50));
      }
    }
    EXPECT_TRUE(alive.empty()) << "iteration " << i << ": " << alive.size()
                               << " processes survived the judge and the restart, first: "
                               << alive.front();
    for (const auto& s : alive) kill(std::stoi(s), SIGKILL);
    if (::testing::Test::HasFatalFailure()) return;
  }

  // A clean start sweeps the last judge's leftovers; a clean stop removes its own dir.
  {
    const fs::path log = root / "judge-final.log";
    JudgeProcess judge(root, log);
    auto url = judge.wait_listening(Clock::now() + std::chrono::seconds(60));
    ASSERT_TRUE(url) << "the final judge did not start: " << tail(slurp(log), 3000);
    auto left = work_dirs(scratch);
    EXPECT_TRUE(left.empty()) << "stale work dir after the final start: " << left.front();
    EXPECT_EQ(run_dirs(scratch).size(), 1u);
    EXPECT_EQ(judge.terminate(), 0) << tail(slurp(log), 3000);
    EXPECT_TRUE(work_dirs(scratch).empty());
    EXPECT_TRUE(run_dirs(scratch).empty()) << "the judge left its run dir at a clean stop";
  }
  EXPECT_TRUE(survivors(root).empty());

  std::cout << "[crash] " << iterations << " kills in "
            << std::chrono::duration<double>(Clock::now() - test_start).count() << " s; "
            << acked.size() << " acknowledged submissions; " << mid_grade_kills
            << " kills mid-grade; " << stale_sweeps << " restarts swept stale dirs; "
            << orphan_sweeps << " swept leftover sandboxes" << std::endl;
  EXPECT_TRUE(unexpected.empty()) << unexpected.size()
                                  << " unexpected answers, first: " << unexpected.front();
  // Otherwise the run proved little: the stream must have been acknowledged, and killed mid-grade.
  EXPECT_GE(acked.size(), 5u);
  EXPECT_GE(mid_grade_kills, 1);

  // The database, opened directly: consistent, and every acknowledged submission is there.
  sqlite3* db = nullptr;
  ASSERT_EQ(
      sqlite3_open_v2((root / "state" / "judge.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
      SQLITE_OK);
  auto text_rows = [db](const std::string& sql) {
    std::vector<std::string> rows;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      return std::vector<std::string>{std::string("prepare failed: ") + sqlite3_errmsg(db)};
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
      auto t = sqlite3_column_text(st, 0);
      rows.emplace_back(t ? reinterpret_cast<const char*>(t) : "NULL");
    }
    sqlite3_finalize(st);
    return rows;
  };
  EXPECT_EQ(text_rows("PRAGMA integrity_check"), std::vector<std::string>{"ok"});
  EXPECT_TRUE(text_rows("PRAGMA foreign_key_check").empty());
  std::map<std::string, std::vector<int64_t>> stored;
  {
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT run_id, id FROM submissions", -1, &st, nullptr),
              SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
      stored[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))].push_back(
          sqlite3_column_int64(st, 1));
    }
    sqlite3_finalize(st);
  }
  int missing = 0;
  for (const auto& a : acked) {
    auto it = stored.find(a.run_id);
    const bool present = it != stored.end() && it->second == std::vector<int64_t>{a.submission_id};
    if (!present) ++missing;
    EXPECT_TRUE(present) << "acknowledged submission " << a.submission_id << " (run_id " << a.run_id
                         << ") is not in the database as acknowledged";
  }
  // Whole transactions only: every recorded ok submission has its samples.
  EXPECT_EQ(text_rows("SELECT count(*) FROM submissions s WHERE verdict = 'ok' AND NOT EXISTS "
                      "(SELECT 1 FROM samples WHERE submission_id = s.id)"),
            std::vector<std::string>{"0"});
  sqlite3_close(db);
  std::cout << "[crash] database: integrity ok, " << stored.size() << " submissions, "
            << acked.size() - missing << "/" << acked.size() << " acknowledged present"
            << std::endl;
  if (!::testing::Test::HasFailure()) fs::remove_all(root);
}

}  // namespace
}  // namespace hpcab::judge
