// The judge's own scratch directory. Every judge process works in <scratch_dir>/run-XXXXXX/,
// which holds `owner.lock`, flock'ed for the life of the process. The kernel releases the lock
// however the process ends (SIGKILL included), so at startup a judge removes every run-* dir
// whose lock nobody holds: the grade, baseline and build dirs of a judge that died mid-grade do
// not pile up, and judges sharing a scratch dir never delete each other's live dirs.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::judge {

class ScratchClaim {
 public:
  // Creates `root` if needed, then, holding `root`/.lock (so no other judge is half-way
  // through claiming or sweeping): creates and locks a fresh run-XXXXXX dir (mode 0711) and
  // removes every other run-* dir whose owner.lock is not held (listed in removed()).
  static Result<ScratchClaim> claim(const std::string& root);

  ScratchClaim(ScratchClaim&& other) noexcept;
  ScratchClaim& operator=(ScratchClaim&& other) noexcept;
  ScratchClaim(const ScratchClaim&) = delete;
  ScratchClaim& operator=(const ScratchClaim&) = delete;
  // remove(). A process that dies without running it (SIGKILL, _Exit) leaves the dir unlocked
  // for the next claim() on the same root to sweep.
  ~ScratchClaim();

  const std::string& dir() const { return dir_; }
  // Stale dirs removed by claim(), each with the pid recorded by the judge that left it.
  const std::vector<std::string>& removed() const { return removed_; }
  // Deletes the own dir (still holding its lock, so no sweeper races us), then releases it.
  // Idempotent.
  void remove();

 private:
  ScratchClaim() = default;
  std::string dir_;
  int lock_fd_ = -1;
  std::vector<std::string> removed_;
};

}  // namespace hpcab::judge
