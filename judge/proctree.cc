#include "judge/proctree.h"

#include <dirent.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace hpcab::judge {

namespace {

std::optional<ProcEntry> read_stat(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  // "pid (comm) state ppid ...": comm may itself contain spaces and ')' so split at the last ')'.
  auto open = line.find('(');
  auto close = line.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  ProcEntry e;
  e.pid = pid;
  e.comm = line.substr(open + 1, close - open - 1);
  std::istringstream rest(line.substr(close + 1));
  long ppid = 0;
  rest >> e.state >> ppid;
  if (!rest) return std::nullopt;
  e.ppid = static_cast<pid_t>(ppid);
  return e;
}

}  // namespace

std::vector<ProcEntry> descendants(pid_t root) {
  std::multimap<pid_t, ProcEntry> by_parent;
  if (DIR* d = opendir("/proc")) {
    while (dirent* ent = readdir(d)) {
      char* end = nullptr;
      long pid = std::strtol(ent->d_name, &end, 10);
      if (end == ent->d_name || *end != '\0' || pid <= 0) continue;
      if (auto e = read_stat(static_cast<pid_t>(pid))) by_parent.emplace(e->ppid, *e);
    }
    closedir(d);
  }
  std::vector<ProcEntry> out;
  std::vector<pid_t> frontier = {root};
  while (!frontier.empty()) {
    pid_t parent = frontier.back();
    frontier.pop_back();
    auto [lo, hi] = by_parent.equal_range(parent);
    for (auto it = lo; it != hi; ++it) {
      if (it->second.pid == root) continue;
      out.push_back(it->second);
      frontier.push_back(it->second.pid);
    }
  }
  return out;
}

std::optional<BlockedIn> blocked_in(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/syscall");
  std::string first;
  if (!(in >> first) || first == "running") return std::nullopt;
  BlockedIn b;
  char* end = nullptr;
  b.nr = std::strtol(first.c_str(), &end, 10);
  if (end == first.c_str()) return std::nullopt;
  std::string arg0;
  if (in >> arg0) b.arg0 = std::strtoull(arg0.c_str(), nullptr, 16);
  return b;
}

std::vector<ThreadEntry> other_threads(pid_t pid) {
  std::vector<ThreadEntry> out;
  const std::string dir = "/proc/" + std::to_string(pid) + "/task";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* ent = readdir(d)) {
    char* end = nullptr;
    long tid = std::strtol(ent->d_name, &end, 10);
    if (end == ent->d_name || *end != '\0' || tid <= 0 || tid == pid) continue;
    ThreadEntry t;
    t.tid = static_cast<pid_t>(tid);
    const std::string base = dir + "/" + ent->d_name;
    std::ifstream stat(base + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;  // exited meanwhile
    auto close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size()) t.state = line[close + 2];
    std::ifstream sched(base + "/schedstat");
    long long run = -1;
    if (sched >> run) t.cpu_ns = run;
    out.push_back(t);
  }
  closedir(d);
  return out;
}

int kill_processes_mentioning(const std::string& needle) {
  if (needle.empty()) return 0;
  int killed = 0;
  if (DIR* d = opendir("/proc")) {
    while (dirent* ent = readdir(d)) {
      char* end = nullptr;
      long pid = std::strtol(ent->d_name, &end, 10);
      if (end == ent->d_name || *end != '\0' || pid <= 0 || pid == getpid()) continue;
      std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
      std::string cmd((std::istreambuf_iterator<char>(in)), {});
      if (cmd.find(needle) == std::string::npos) continue;
      if (::kill(static_cast<pid_t>(pid), SIGKILL) == 0) ++killed;
    }
    closedir(d);
  }
  return killed;
}

bool waiting_on_read(pid_t pid, int fd) {
  // /proc/<pid>/syscall waits for a runnable target to leave its CPU (wait_task_inactive), which
  // can cost a scheduler tick; the state letter in stat costs nothing. Read the syscall only
  // once the process is asleep, when that wait is immediate.
  auto e = read_stat(pid);
  if (!e || e->state != 'S') return false;
  auto b = blocked_in(pid);
  return b && b->nr == SYS_read && b->arg0 == static_cast<unsigned long long>(fd);
}

}  // namespace hpcab::judge
