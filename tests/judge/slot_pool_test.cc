// SlotPool (judge/grade/slot_pool.h): a grade holds a whole CPU slot; a grade that finds every
// slot taken waits until one is given back, and then gets exactly that one.
#include "judge/grade/slot_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace hpcab::judge {
namespace {

TEST(SlotPool, LeasesAreExclusiveAndAWaiterGetsTheReturnedSlot) {
  SlotPool pool({{0, 1}, {2, 3}});
  std::optional<SlotPool::Lease> a(pool.acquire());
  std::optional<SlotPool::Lease> b(pool.acquire());
  EXPECT_NE(a->cpus(), b->cpus());

  std::atomic<bool> got{false};
  std::vector<int> third_cpus;
  std::thread waiter([&] {
    SlotPool::Lease c = pool.acquire();
    third_cpus = c.cpus();
    got = true;
  });
  // Not a timing assertion: whatever the scheduling, the waiter cannot hold a slot while both
  // are leased, so `got` is false until one is returned.
  std::this_thread::yield();
  EXPECT_FALSE(got.load());
  const std::vector<int> returned = a->cpus();
  a.reset();
  waiter.join();
  EXPECT_TRUE(got.load());
  EXPECT_EQ(third_cpus, returned);
}

TEST(SlotPool, OccupancyCountsLeasesHereAndAcrossTheProcess) {
  // Relative to what other pools of this process hold: only this test's pools change it.
  const SlotOccupancy before = SlotPool::process_occupancy();
  {
    SlotPool pool({{0}, {1}, {2}});
    SlotPool other(std::vector<std::vector<int>>{{3}});
    EXPECT_EQ(pool.occupancy().busy, 0u);
    EXPECT_EQ(pool.occupancy().total, 3u);
    EXPECT_EQ(SlotPool::process_occupancy().total, before.total + 4);
    std::optional<SlotPool::Lease> a(pool.acquire());
    SlotPool::Lease b = pool.acquire();
    SlotPool::Lease c = other.acquire();
    EXPECT_EQ(pool.occupancy().busy, 2u);
    EXPECT_EQ(other.occupancy().busy, 1u);
    EXPECT_EQ(SlotPool::process_occupancy().busy, before.busy + 3);
    a.reset();
    EXPECT_EQ(pool.occupancy().busy, 1u);
    EXPECT_EQ(SlotPool::process_occupancy().busy, before.busy + 2);
    // A moved lease is returned once, by its new holder.
    SlotPool::Lease moved = std::move(b);
    EXPECT_EQ(pool.occupancy().busy, 1u);
  }
  EXPECT_EQ(SlotPool::process_occupancy().busy, before.busy);
  EXPECT_EQ(SlotPool::process_occupancy().total, before.total);
}

}  // namespace
}  // namespace hpcab::judge
