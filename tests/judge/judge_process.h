// A real hpcab-judge process for end-to-end tests: its own state, scratch dir and log, on a free
// port of 127.0.0.1, stopped (and its files removed) when the object goes. Header-only so every
// e2e-style test target shares one harness.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/http_client.h"
#include "judge/store.h"

namespace hpcab::judge::test {

namespace fs = std::filesystem;
using json = nlohmann::json;

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
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
    // One bandwidth measurement for every test judge (the floor only needs it per machine).
    json cfg = {{"bandwidth_file", std::string(HPCAB_BINARY_DIR) + "/test-bandwidth.json"},
                {"timed_calls", 5},
                {"hidden_variants", 2},
                {"submit_fuzzed_configs", 1},
                {"call_timeout_s", 20},
                // The presets as they are: calibrating timed sizes would add seconds to every
                // test judge's first grade of a kernel. The calibration tests set it.
                {"min_call_ms", 0},
                // No hidden preset draw: the presets are at the paper's scale (s000's M holds
                // 1.4 GiB of arrays, about 15 s of a /submit here). The tests of hidden presets
                // (ReferenceE2E) set them.
                {"hidden_presets", json::array()}};
    cfg.merge_patch(settings);
    // "scratch_dir" replaces the --scratch-dir flag (a test may mount a small filesystem there).
    fs::path scratch = root_ / "scratch";
    if (cfg.contains("scratch_dir")) {
      scratch = cfg["scratch_dir"].get<std::string>();
      cfg.erase("scratch_dir");
    }
    std::ofstream(root_ / "config.json") << cfg.dump();
    std::vector<std::string> argv = {std::string(HPCAB_BINARY_DIR) + "/hpcab-judge",
                                     "--config",
                                     (root_ / "config.json").string(),
                                     "--port",
                                     "0",
                                     "--state-dir",
                                     (root_ / "state").string(),
                                     "--scratch-dir",
                                     scratch.string()};
    int out[2];
    EXPECT_EQ(pipe(out), 0);
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGTERM);  // a crashed test run leaves no judge behind
      int log = open((root_ / "judge.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(out[1], 1);
      dup2(log, 2);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(out[1]);
    // The judge prints "listening on http://127.0.0.1:PORT" once it accepts connections.
    std::string line;
    char c;
    pollfd p{out[0], POLLIN, 0};
    while (poll(&p, 1, 30000) > 0 && read(out[0], &c, 1) == 1 && c != '\n') line += c;
    close(out[0]);
    auto pos = line.rfind(':');
    if (!expect_start) return;
    EXPECT_NE(pos, std::string::npos) << "judge did not start: " << log();
    // "listening on http://..." or, with TLS, "listening on https://...".
    const bool tls = line.find("https://") != std::string::npos;
    url_ = std::string(tls ? "https" : "http") + "://127.0.0.1:" + line.substr(pos + 1);
  }
  ~Judge() {
    stop();
    fs::remove_all(root_);
  }
  int stop() {
    if (pid_ <= 0) return exit_code_;
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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
  json grade(const std::string& route, const std::string& kernel, const std::string& file,
             const std::string& language = "c", json extra = json::object()) {
    json body = {{"kernel", kernel},      {"language", language}, {"rank", 0},
                 {"source", slurp(file)}, {"run_id", "e2e"},      {"optimizer", "test"}};
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

}  // namespace hpcab::judge::test
