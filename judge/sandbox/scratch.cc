#include "judge/sandbox/scratch.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "judge/sandbox/proctree.h"

namespace hpcab::judge {

namespace fs = std::filesystem;

namespace {

constexpr const char* kOwnerLock = "owner.lock";

std::string errno_text() { return std::strerror(errno); }

// Closes on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

std::string read_small(int fd) {
  char buf[64];
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return "";
  std::string s(buf, static_cast<std::size_t>(n));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

Result<ScratchClaim> ScratchClaim::claim(const std::string& root) {
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) return Error{"cannot create scratch dir " + root + ": " + ec.message()};
  // Claiming and sweeping are serialized across processes, so a sweeper never sees a run dir
  // whose owner has not locked it yet.
  Fd root_lock{
      open((fs::path(root) / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600)};
  if (root_lock.fd < 0) {
    return Error{"cannot open " + root + "/.lock: " + errno_text()};
  }
  while (flock(root_lock.fd, LOCK_EX) != 0) {
    if (errno != EINTR) return Error{"cannot lock " + root + "/.lock: " + errno_text()};
  }

  ScratchClaim c;
  std::string tmpl = (fs::path(root) / "run-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    return Error{"cannot create a run dir in " + root + ": " + errno_text()};
  }
  c.dir_ = tmpl;
  // Traversable, not listable, by the sandbox's unprivileged uid (as the scratch root).
  chmod(c.dir_.c_str(), 0711);
  c.lock_fd_ = open((fs::path(c.dir_) / kOwnerLock).c_str(),
                    O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (c.lock_fd_ < 0 || flock(c.lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    std::string why = errno_text();
    fs::remove_all(c.dir_, ec);
    return Error{"cannot lock " + c.dir_ + "/" + kOwnerLock + ": " + why};
  }
  std::string pid = std::to_string(getpid()) + "\n";
  if (pwrite(c.lock_fd_, pid.data(), pid.size(), 0) < 0) {
    // Only informational (the lock is what counts); the log of a later sweep says "pid ?".
  }

  for (const auto& e : fs::directory_iterator(root, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("run-", 0) != 0 || e.path() == fs::path(c.dir_)) continue;
    std::error_code st_ec;
    if (!e.is_directory(st_ec) || e.is_symlink(st_ec)) continue;
    Fd owner{open((e.path() / kOwnerLock).c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW)};
    std::string who = "?";
    if (owner.fd >= 0) {
      if (flock(owner.fd, LOCK_EX | LOCK_NB) != 0) continue;  // a live judge holds it
      who = read_small(owner.fd);
    } else if (errno != ENOENT) {
      continue;  // cannot tell: leave it
    }
    // No lock file: its judge died between creating the dir and the lock, which happens only
    // under the root lock we hold, so it is stale too.
    // Its sandboxes die with it, except one caught inside bubblewrap's own set-up by the kill:
    // such a leftover names this dir in its bind mounts.
    int killed = kill_processes_mentioning(e.path().string() + "/");
    std::error_code rm_ec;
    fs::remove_all(e.path(), rm_ec);
    c.removed_.push_back(
        e.path().string() + " (pid " + (who.empty() ? "?" : who) + ")" +
        (killed > 0 ? " [killed " + std::to_string(killed) + " leftover sandbox process(es)]"
                    : "") +
        (rm_ec ? " [not fully removed: " + rm_ec.message() + "]" : ""));
  }
  return c;
}

ScratchClaim::ScratchClaim(ScratchClaim&& o) noexcept
    : dir_(std::move(o.dir_)), lock_fd_(o.lock_fd_), removed_(std::move(o.removed_)) {
  o.dir_.clear();  // a moved-from string is unspecified; the destructor must not remove ours
  o.lock_fd_ = -1;
}

ScratchClaim& ScratchClaim::operator=(ScratchClaim&& o) noexcept {
  if (this != &o) {
    remove();
    dir_ = std::move(o.dir_);
    lock_fd_ = o.lock_fd_;
    removed_ = std::move(o.removed_);
    o.dir_.clear();
    o.lock_fd_ = -1;
  }
  return *this;
}

ScratchClaim::~ScratchClaim() { remove(); }

void ScratchClaim::remove() {
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  }
  if (lock_fd_ >= 0) close(lock_fd_);
  lock_fd_ = -1;
}

}  // namespace hpcab::judge
