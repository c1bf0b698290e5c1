// Real hpcab-judge processes for end-to-end tests, header-only so every e2e-style test target
// shares one harness: Judge (its own state, scratch dir and log, on a port the judge picks,
// stopped and its files removed when the object goes) and RestartableJudge (a fixed port and a
// state dir that outlive the process: killed and started again as an operator or Slurm would).
// Both launch through spawn_judge and grade with test_judge_settings.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "common/http_client.h"
#include "common/reference_build.h"
#include "judge/store/store.h"

namespace hpcab::judge::test {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct ShellResult {
  int code = -1;  // the exit status; -1 when it did not exit normally (or could not start)
  std::string out;
};

// `command` through /bin/sh, stdout and stderr together: the e2e tests' way to drive the CLIs
// (hpcab, hpcab-harness) as a user does.
inline ShellResult run_shell(const std::string& command) {
  ShellResult r;
  FILE* f = popen((command + " 2>&1").c_str(), "r");
  if (!f) return r;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, f)) r.out.append(buf, n);
  const int status = pclose(f);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The test judges' settings, with `settings` merged over them: small grades (timed_calls 5,
// hidden_variants 2, one fuzzed configuration) and one bandwidth measurement for every test judge
// (the floor only needs it per machine).
inline json test_judge_settings(const json& settings = json::object()) {
  json cfg = {{"bandwidth_file", std::string(HPCAB_BINARY_DIR) + "/test-bandwidth.json"},
              {"timed_calls", 5},
              {"hidden_variants", 2},
              {"submit_fuzzed_configs", 1},
              {"call_timeout_s", 20},
              // The presets as they are: calibrating timed sizes would add seconds to every test
              // judge's first grade of a kernel. The calibration tests set it.
              {"min_call_ms", 0},
              // No hidden preset draw: the presets are at the paper's scale (tsvc_2_s000's M holds
              // 1.4 GiB of arrays, about 15 s of a /submit here). The tests of hidden presets
              // (ReferenceE2E) set them.
              {"hidden_presets", json::array()},
              // C baselines, no reported figures: the tests below predate the Python baselines,
              // and Numba's import and JIT would add a second or more to every runner of every
              // grade. The Python tests (PythonE2E) set the paper's defaults back.
              {"track_baseline",
               {{"loop_level_reasoning", "c"},
                {"scientific_computing", "c,c-autopar"},
                {"machine_learning", "c"}}},
              {"report_baselines", ""},
              // No slot watch: these tests check rules, not timing, and the host's steal or a
              // test beside them must not turn their grades into judge faults. The slot watch's
              // own tests (JudgeFaultsE2E.BusySlot*) set it.
              {"slot_wait_max", 0},
              {"slot_steal_max", 0}};
  cfg.merge_patch(settings);
  return cfg;
}

// A started judge process: its pid (-1: fork failed) and the first line it printed on stdout,
// "listening on http://127.0.0.1:PORT" (or https://) once it accepts connections; '' when it
// printed none within the wait (it did not start).
struct SpawnedJudge {
  pid_t pid = -1;
  std::string line;
};

// Starts `argv` (an hpcab-judge command line) with stderr to `log` (appended to when `append`,
// so a restarted judge keeps the log of the one before) and waits up to `wait_ms` between bytes
// of its first stdout line. The judge gets SIGTERM if the test process dies.
inline SpawnedJudge spawn_judge(std::vector<std::string> argv, const fs::path& log, bool append,
                                int wait_ms) {
  SpawnedJudge s;
  int out[2];
  if (pipe(out) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return s;
  }
  s.pid = fork();
  if (s.pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // a crashed test run leaves no judge behind
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);
    dup2(out[1], 1);
    dup2(fd, 2);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(out[1]);
  char c;
  pollfd p{out[0], POLLIN, 0};
  while (poll(&p, 1, wait_ms) > 0 && read(out[0], &c, 1) == 1 && c != '\n') s.line += c;
  close(out[0]);
  return s;
}

// Sends `sig` to a spawned judge and reaps it; its exit code, or -1 when a signal ended it.
inline int stop_judge(pid_t pid, int sig) {
  kill(pid, sig);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A port of 127.0.0.1 nothing listens on now, to start a server on (and again on the same port).
inline int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// One judge process with its own state, scratch and log, on a free port. `expect_start`
// false: the judge is expected to refuse to start (then stop() returns its exit code).
class Judge {
 public:
  explicit Judge(const json& settings = json::object(), bool expect_start = true) {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-e2e-XXXXXX").string();
    root_ = mkdtemp(tmpl.data());
    // The sandbox's unprivileged uid must be able to traverse to the scratch dir.
    fs::permissions(root_, fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
    json cfg = test_judge_settings(settings);
    // "scratch_dir" replaces the --scratch-dir flag (a test may mount a small filesystem there).
    fs::path scratch = root_ / "scratch";
    if (cfg.contains("scratch_dir")) {
      scratch = cfg["scratch_dir"].get<std::string>();
      cfg.erase("scratch_dir");
    }
    std::ofstream(root_ / "config.json") << cfg.dump();
    const SpawnedJudge s =
        spawn_judge({std::string(HPCAB_BINARY_DIR) + "/hpcab-judge", "--config",
                     (root_ / "config.json").string(), "--port", "0", "--state-dir",
                     (root_ / "state").string(), "--scratch-dir", scratch.string()},
                    root_ / "judge.log", false, 30000);
    pid_ = s.pid;
    auto pos = s.line.rfind(':');
    if (!expect_start) return;
    EXPECT_NE(pos, std::string::npos) << "judge did not start: " << log();
    // "listening on http://..." or, with TLS, "listening on https://...".
    const bool tls = s.line.find("https://") != std::string::npos;
    url_ = std::string(tls ? "https" : "http") + "://127.0.0.1:" + s.line.substr(pos + 1);
  }
  ~Judge() {
    stop();
    fs::remove_all(root_);
  }
  int stop() {
    if (pid_ <= 0) return exit_code_;
    exit_code_ = stop_judge(pid_, SIGTERM);
    pid_ = -1;
    return exit_code_;
  }
  HttpResult get(const std::string& path) {
    auto r = http_request("GET", url_ + path, "", {}, 600, http_);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : HttpResult{};
  }
  HttpResult post(const std::string& path, const json& body) {
    auto r = http_request("POST", url_ + path, body.dump(), {}, 600, http_);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    responses_.push_back(r.ok() ? r->body : "");
    return r.ok() ? *r : HttpResult{};
  }
  // A corpus reference.c in the single-source form is submitted as its instantiation at the
  // request's precision (fp64 unless `extra` names one): a submission exports its symbols
  // itself (common/reference_build.h).
  json grade(const std::string& route, const std::string& kernel, const std::string& file,
             const std::string& language = "c", json extra = json::object()) {
    std::string source = slurp(file);
    if (language == "c" && fs::path(file).filename() == "reference.c" &&
        is_single_source_reference(source)) {
      const auto p = parse_precision(extra.value("precision", "fp64"));
      if (p) source = reference_as_submission(source, *p);
    }
    json body = {{"kernel", kernel}, {"language", language}, {"rank", 0},
                 {"source", source}, {"run_id", "e2e"},      {"optimizer", "test"}};
    body.merge_patch(extra);
    auto r = post("/" + route, body);
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body.empty() ? "{}" : r.body);
  }
  std::string log() const { return slurp(root_ / "judge.log"); }
  const std::string& url() const { return url_; }
  // Client settings (bearer token, CA file) for get(), post() and grade().
  void set_http(HttpOptions options) { http_ = std::move(options); }
  pid_t pid() const { return pid_; }
  // Host processes still running a binary from under this judge's root (its scratch copy of the
  // runner): sandbox survivors, whatever they renamed themselves to. Other judges on the machine
  // (parallel test runs) are never counted.
  std::vector<std::string> survivors() const {
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator("/proc")) {
      const std::string pid = e.path().filename().string();
      if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
      std::error_code ec;
      const std::string exe = fs::read_symlink(e.path() / "exe", ec).string();
      std::ifstream stat(e.path() / "stat");
      std::string st;
      std::getline(stat, st);
      const bool zombie = st.find(") Z") != std::string::npos;
      if (!ec && !zombie && exe.rfind(root_.string(), 0) == 0) found.push_back(pid + " " + exe);
    }
    return found;
  }
  fs::path root() const { return root_; }
  fs::path state() const { return root_ / "state"; }
  fs::path scratch() const { return root_ / "scratch"; }
  const std::vector<std::string>& responses() const { return responses_; }
  std::unique_ptr<Store> store() {
    auto s = Store::open((root_ / "state" / "judge.db").string());
    EXPECT_TRUE(s.ok());
    return std::move(*s);
  }

 private:
  fs::path root_;
  pid_t pid_ = -1;
  int exit_code_ = -1;
  std::string url_;
  std::vector<std::string> responses_;
  HttpOptions http_;
};

// A judge on a fixed port of 127.0.0.1 with its files under `root` (config.json, state/,
// scratch/, judge.log), which outlive the process: stop(SIGKILL) kills it the way a crash, the
// OOM killer or a node failure would, and start() runs the same command again, on the same port
// (the same URL for its clients) and state dir (its database and key). Settings as Judge's.
// Stopped with SIGTERM when the object goes; `root` stays (it is the caller's).
class RestartableJudge {
 public:
  explicit RestartableJudge(const fs::path& root, const json& settings = json::object())
      : root_(root), port_(free_port()) {
    fs::create_directories(root_);
    fs::permissions(root_, fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
    std::ofstream(root_ / "config.json") << test_judge_settings(settings).dump();
    start();
  }
  ~RestartableJudge() { stop(SIGTERM); }
  RestartableJudge(const RestartableJudge&) = delete;
  RestartableJudge& operator=(const RestartableJudge&) = delete;

  // Starts the judge (again) and waits until it listens.
  void start() {
    const SpawnedJudge s = spawn_judge(
        {std::string(HPCAB_BINARY_DIR) + "/hpcab-judge", "--config",
         (root_ / "config.json").string(), "--port", std::to_string(port_), "--state-dir",
         state().string(), "--scratch-dir", (root_ / "scratch").string()},
        root_ / "judge.log", true, 60000);
    pid_ = s.pid;
    ASSERT_NE(s.line.find("listening on"), std::string::npos) << log();
  }
  // Sends `sig` (SIGTERM: a clean stop; SIGKILL: a crash) and reaps the judge.
  void stop(int sig) {
    if (pid_ <= 0) return;
    stop_judge(pid_, sig);
    pid_ = -1;
  }
  pid_t pid() const { return pid_; }
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  fs::path state() const { return root_ / "state"; }
  fs::path db() const { return state() / "judge.db"; }
  std::string log() const { return slurp(root_ / "judge.log"); }

 private:
  fs::path root_;
  int port_;
  pid_t pid_ = -1;
};

}  // namespace hpcab::judge::test
