#include "judge/sandbox/affinity.h"

#include <exception>
#include <thread>

namespace hpcab::judge {

std::set<int> calling_thread_cpus() {
  cpu_set_t m;
  CPU_ZERO(&m);
  std::set<int> out;
  if (sched_getaffinity(0, sizeof m, &m) != 0) return out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &m)) out.insert(c);
  }
  return out;
}

ScopedAffinity::ScopedAffinity(const std::vector<int>& cpus) {
  CPU_ZERO(&saved_);
  if (cpus.empty() || sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
  cpu_set_t want;
  CPU_ZERO(&want);
  for (int c : cpus) {
    if (c >= 0 && c < CPU_SETSIZE && CPU_ISSET(c, &saved_)) CPU_SET(c, &want);
  }
  if (CPU_COUNT(&want) == 0 || CPU_EQUAL(&want, &saved_)) return;
  pinned_ = sched_setaffinity(0, sizeof want, &want) == 0;
}

ScopedAffinity::~ScopedAffinity() {
  if (pinned_) (void)sched_setaffinity(0, sizeof saved_, &saved_);
}

void run_on_cpus(const std::vector<int>& cpus, const std::function<void()>& fn) {
  std::exception_ptr failure;
  // The new thread inherits the caller's mask; the scope narrows it before fn starts anything.
  std::thread worker([&] {
    ScopedAffinity on_cpus(cpus);
    try {
      fn();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  worker.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace hpcab::judge
