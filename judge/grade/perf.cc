#include "judge/grade/perf.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

extern char** environ;

namespace hpcab::judge {

namespace {

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) out.push_back(field);
  if (!line.empty() && line.back() == sep) out.emplace_back();
  return out;
}

std::optional<double> number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return v;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Waits for `pid` up to `timeout_s`; true once reaped.
bool wait_for(pid_t pid, double timeout_s) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

// "<value>,<unit>,<event>,<run time>,<percent>,<metric value>,<metric unit>"; the value is
// "<not supported>" or "<not counted>" where the event cannot be measured (no hardware PMU in a
// VM guest: every hardware event).
std::vector<PerfCounter> parse_perf_stat(const std::string& csv) {
  std::vector<PerfCounter> out;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = split(line, ',');
    if (f.size() < 3 || f[2].empty()) continue;
    PerfCounter c;
    c.event = f[2];
    // perf may suffix the event with its modifiers ("cycles:u"); the name is kept as printed.
    c.unit = f[1];
    c.value = number(f[0]);
    c.supported = c.value.has_value();
    if (!c.supported && f[0].rfind("<not", 0) != 0) continue;  // not a counter line
    out.push_back(std::move(c));
  }
  return out;
}

// "    18.39%  lib.so  [.] tsvc_2_s000_fp64"; "[k]" marks the kernel's code.
std::vector<PerfHotspot> parse_perf_report(const std::string& text, std::size_t limit) {
  static const std::regex re(R"(^\s*([0-9]+(?:\.[0-9]+)?)%\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$)");
  std::vector<PerfHotspot> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line) && out.size() < limit;) {
    if (line.empty() || line[0] == '#') continue;
    std::smatch m;
    if (!std::regex_match(line, m, re)) continue;
    out.push_back({std::stod(m[1]) / 100.0, m[2], m[4], m[3] == "k"});
  }
  return out;
}

long perf_report_samples(const std::string& text) {
  static const std::regex re(R"(#\s*Samples:\s*([0-9]+)([KMG]?))");
  std::smatch m;
  if (!std::regex_search(text, m, re)) return 0;
  long n = std::stol(m[1]);
  if (m[2] == "K") n *= 1000;
  if (m[2] == "M") n *= 1000000;
  if (m[2] == "G") n *= 1000000000;
  return n;
}

// "    52.10%  submission.c:12"; lines perf could not map ("??:0", "lib.so[+1139]") are skipped.
std::vector<PerfSourceLine> parse_perf_srclines(const std::string& text, std::size_t limit) {
  static const std::regex re(R"(^\s*([0-9]+(?:\.[0-9]+)?)%\s+(\S.*):([0-9]+)\s*$)");
  std::vector<PerfSourceLine> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line) && out.size() < limit;) {
    if (line.empty() || line[0] == '#') continue;
    std::smatch m;
    if (!std::regex_match(line, m, re)) continue;
    const int n = std::stoi(m[3]);
    if (n <= 0 || std::string(m[2]).find("??") != std::string::npos) continue;
    out.push_back({std::stod(m[1]) / 100.0, m[2], n});
  }
  return out;
}

PerfAttach::~PerfAttach() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    wait_for(pid_, 5);
  }
  if (ctl_ >= 0) ::close(ctl_);
  if (ack_ >= 0) ::close(ack_);
}

Status PerfAttach::start(const std::string& perf, std::vector<std::string> args,
                         const std::string& dir, const std::string& name, pid_t pid,
                         const std::vector<std::string>& env) {
  const std::string ctl = dir + "/" + name + ".ctl", ack = dir + "/" + name + ".ack";
  for (const auto& f : {ctl, ack}) {
    if (::mkfifo(f.c_str(), 0600) != 0) {
      return Error{"mkfifo " + f + ": " + std::strerror(errno), errc_from_errno(errno)};
    }
  }
  // Read-write opens never block on a fifo, whether or not perf has opened its end yet.
  ctl_ = ::open(ctl.c_str(), O_RDWR | O_CLOEXEC);
  ack_ = ::open(ack.c_str(), O_RDWR | O_CLOEXEC | O_NONBLOCK);
  if (ctl_ < 0 || ack_ < 0)
    return Error{"opening perf's control fifos: " + std::string(strerror(errno))};
  log_path_ = dir + "/" + name + ".log";
  args.insert(args.begin(), perf);
  for (const std::string& a : {std::string("--delay=-1"), "--control=fifo:" + ctl + "," + ack,
                               std::string("-p"), std::to_string(pid)}) {
    args.push_back(a);
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  // The judge's threads block the signals its own handler takes (SIGINT, SIGTERM); perf must
  // not inherit that mask, or stop()'s SIGINT would never reach it.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<std::string> vars(env);
  for (char** e = environ; *e; ++e) vars.emplace_back(*e);  // the first of a name wins
  std::vector<char*> envp;
  for (auto& v : vars) envp.push_back(v.data());
  envp.push_back(nullptr);
  const int rc = ::posix_spawnp(&pid_, perf.c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    pid_ = -1;
    return Error{"cannot run perf (" + perf + "): " + std::strerror(rc),
                 rc == ENOENT || rc == EACCES ? Errc::kNotFound : Errc::kResource};
  }
  return Ok{};
}

Status PerfAttach::command(const std::string& what, double timeout_s) {
  if (pid_ <= 0) return Error{"perf is not running"};
  const std::string line = what + "\n";
  if (::write(ctl_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    return Error{"writing to perf's control fifo: " + std::string(strerror(errno))};
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  std::string got;
  while (got.find("ack\n") == std::string::npos) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return Error{"perf exited before acknowledging '" + what + "': " + read_all(log_path_)};
    }
    if (std::chrono::steady_clock::now() >= until) {
      return Error{"perf did not acknowledge '" + what + "' in time: " + read_all(log_path_),
                   Errc::kTimeout};
    }
    pollfd p{ack_, POLLIN, 0};
    if (::poll(&p, 1, 10) > 0) {
      char buf[64];
      const ssize_t n = ::read(ack_, buf, sizeof buf);
      if (n > 0) got.append(buf, static_cast<std::size_t>(n));
    }
  }
  return Ok{};
}

std::string PerfAttach::stop(double timeout_s) {
  if (pid_ > 0) {
    ::kill(pid_, SIGINT);
    if (!wait_for(pid_, timeout_s)) {
      ::kill(pid_, SIGKILL);
      wait_for(pid_, 5);
    }
    pid_ = -1;
  }
  return read_all(log_path_);
}

}  // namespace hpcab::judge
