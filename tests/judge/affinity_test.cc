#include "judge/affinity.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>

#include <mutex>
#include <set>
#include <stdexcept>

namespace hpcab::judge {
namespace {

std::set<int> allowed_cpus() {
  cpu_set_t s;
  CPU_ZERO(&s);
  std::set<int> out;
  if (sched_getaffinity(0, sizeof s, &s) != 0) return out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &s)) out.insert(c);
  }
  return out;
}

TEST(ScopedAffinity, NarrowsTheCallingThreadForTheScopeOnly) {
  const std::set<int> before = allowed_cpus();
  if (before.size() < 2) GTEST_SKIP() << "needs two CPUs";
  const int last = *before.rbegin();
  {
    ScopedAffinity a({last});
    EXPECT_TRUE(a.pinned());
    EXPECT_EQ(allowed_cpus(), std::set<int>{last});
  }
  EXPECT_EQ(allowed_cpus(), before);
}

TEST(ScopedAffinity, NeverWidensNorPinsToNothing) {
  const std::set<int> before = allowed_cpus();
  if (before.size() < 2) GTEST_SKIP() << "needs two CPUs";
  const int first = *before.begin(), last = *before.rbegin();
  ScopedAffinity outer({first});
  ASSERT_EQ(allowed_cpus(), std::set<int>{first});
  {
    // The slot lists a CPU the thread may not use (an operator's taskset): only the allowed
    // part is taken, here nothing new, so the mask stays.
    ScopedAffinity wider({first, last});
    EXPECT_FALSE(wider.pinned());
    EXPECT_EQ(allowed_cpus(), std::set<int>{first});
    ScopedAffinity elsewhere({last, CPU_SETSIZE + 5, -1});
    EXPECT_FALSE(elsewhere.pinned());
    EXPECT_EQ(allowed_cpus(), std::set<int>{first});
  }
  EXPECT_EQ(allowed_cpus(), std::set<int>{first});
}

// The comparison's OpenMP team: every member runs on the given CPUs, although the caller (a
// grade thread) may use more, and the caller's own mask is untouched.
TEST(RunOnCpus, AnOpenMpTeamStartedInsideStaysOnTheCpus) {
  const std::set<int> before = allowed_cpus();
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
      const std::set<int> mine = allowed_cpus();
      std::lock_guard<std::mutex> lock(mu);
      ++members;
      seen_masks_union.insert(mine.begin(), mine.end());
    }
  });
  EXPECT_EQ(members, 2);
  EXPECT_EQ(seen_masks_union, std::set<int>{last});
  EXPECT_EQ(allowed_cpus(), before);
}

TEST(RunOnCpus, RethrowsWhatTheWorkThrew) {
  EXPECT_THROW(run_on_cpus({0}, [] { throw std::runtime_error("x"); }), std::runtime_error);
}

}  // namespace
}  // namespace hpcab::judge
