// Where the judge's own work for a configuration runs: on the CPUs of the slot its runners hold
// (judge/grade/slot_pool.h, SlotPool). With several slots, work left unpinned (the judge's polling
// of a runner, the comparison of outputs and its OpenMP team) runs wherever the scheduler puts it,
// which includes CPUs another slot is timing a candidate on: interference in that grade's
// samples that no audit attributes to anyone. With the default single slot (every CPU) nothing
// changes.
#pragma once

#include <sched.h>

#include <functional>
#include <set>
#include <vector>

namespace hpcab::judge {

// The CPUs the calling thread may run on (empty if the kernel does not say).
std::set<int> calling_thread_cpus();

// Narrows the calling thread's affinity to `cpus` for the scope, then restores it. Only ever
// narrows: the CPUs used are `cpus` intersected with the thread's mask at construction, so an
// operator's taskset or cgroup is never widened. pinned(): the mask was changed (false when
// it already was that set, when the intersection is empty, or when the call failed).
class ScopedAffinity {
 public:
  explicit ScopedAffinity(const std::vector<int>& cpus);
  ~ScopedAffinity();
  ScopedAffinity(const ScopedAffinity&) = delete;
  ScopedAffinity& operator=(const ScopedAffinity&) = delete;
  bool pinned() const { return pinned_; }

 private:
  cpu_set_t saved_;
  bool pinned_ = false;
};

// Runs `fn` on a new thread pinned as ScopedAffinity would pin the caller, and waits for it;
// an exception from `fn` is rethrown here. OpenMP keeps one thread pool per thread that starts
// a parallel region, created under that thread's mask at the time and reused by it ever after,
// so the judge's long-lived grade threads cannot confine their teams to each grade's slot; a
// thread of its own per use starts a team under the slot's mask, and that team ends with it
// (no pool left spinning after the work).
void run_on_cpus(const std::vector<int>& cpus, const std::function<void()>& fn);

}  // namespace hpcab::judge
