#include "judge/sandbox/affinity.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>

#include <mutex>
#include <set>
#include <stdexcept>

namespace hpcab::judge {
namespace {

TEST(ScopedAffinity, NarrowsTheCallingThreadForTheScopeOnly) {
  const std::set<int> before = calling_thread_cpus();
  if (before.size() < 2) GTEST_SKIP() << "needs two CPUs";
  const int last = *before.rbegin();
  {
    ScopedAffinity a({last});
    EXPECT_TRUE(a.pinned());
    EXPECT_EQ(calling_thread_cpus(), std::set<int>{last});
  }
  EXPECT_EQ(calling_thread_cpus(), before);
}

TEST(ScopedAffinity, NeverWidensNorPinsToNothing) {
  const std::set<int> before = calling_thread_cpus();
  if (before.size() < 2) GTEST_SKIP() << "needs two CPUs";
  const int first = *before.begin(), last = *before.rbegin();
  ScopedAffinity outer({first});
  ASSERT_EQ(calling_thread_cpus(), std::set<int>{first});
  {
    // The slot lists a CPU the thread may not use (an operator's taskset): only the allowed
    // part is taken, here nothing new, so the mask stays.
    ScopedAffinity wider({first, last});
    EXPECT_FALSE(wider.pinned());
    EXPECT_EQ(calling_thread_cpus(), std::set<int>{first});
    ScopedAffinity elsewhere({last, CPU_SETSIZE + 5, -1});
    EXPECT_FALSE(elsewhere.pinned());
    EXPECT_EQ(calling_thread_cpus(), std::set<int>{first});
  }
  EXPECT_EQ(calling_thread_cpus(), std::set<int>{first});
}

// The comparison's OpenMP team: every member runs on the given CPUs, although the caller (a
// grade thread) may use more, and the caller's own mask is untouched.
TEST(RunOnCpus, AnOpenMpTeamStartedInsideStaysOnTheCpus) {
  const std::set<int> before = calling_thread_cpus();
  if (before.size() < 2) GTEST_SKIP() << "needs two CPUs";
  const int last = *before.rbegin();
  // A team created by this thread first, so a pool under the wide mask already exists here.
#pragma omp parallel num_threads(2)
  { (void)omp_get_thread_num(); }
  std::mutex mu;
  std::set<int> seen_masks_union;
  int members = 0;
  run_on_cpus({last}, [&] {
#pragma omp parallel num_threads(2)
    {
      const std::set<int> mine = calling_thread_cpus();
      std::lock_guard<std::mutex> lock(mu);
      ++members;
      seen_masks_union.insert(mine.begin(), mine.end());
    }
  });
  EXPECT_EQ(members, 2);
  EXPECT_EQ(seen_masks_union, std::set<int>{last});
  EXPECT_EQ(calling_thread_cpus(), before);
}

TEST(RunOnCpus, RethrowsWhatTheWorkThrew) {
  EXPECT_THROW(run_on_cpus({0}, [] { throw std::runtime_error("x"); }), std::runtime_error);
}

}  // namespace
}  // namespace hpcab::judge
