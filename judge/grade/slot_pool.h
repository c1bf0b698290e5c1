// The judge's CPU slots (the `slots` setting): sets of cores that timed work is pinned to.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace hpcab::judge {

// How many slots are leased now, of how many.
struct SlotOccupancy {
  std::size_t busy = 0;
  std::size_t total = 0;
};

// CPU sets for timed work: a grade holds one for its whole run phase, so two clocks never share
// cores (SPEC §5.10).
class SlotPool {
 public:
  explicit SlotPool(std::vector<std::vector<int>> slots);
  ~SlotPool();
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;
  class Lease {
   public:
    Lease(SlotPool* pool, std::size_t index) : pool_(pool), index_(index) {}
    Lease(Lease&& o) noexcept : pool_(o.pool_), index_(o.index_) { o.pool_ = nullptr; }
    Lease(const Lease&) = delete;
    ~Lease();
    const std::vector<int>& cpus() const { return pool_->slots_[index_]; }

   private:
    SlotPool* pool_;
    std::size_t index_;
  };
  Lease acquire();
  // This pool's slots now.
  SlotOccupancy occupancy() const;
  // The slots of every SlotPool alive in this process, and how many of them are leased: what
  // GET /metrics reports (hpcab_slots, hpcab_slots_busy), read there without reaching into the
  // Grader that owns the pool. A serving judge has one pool, its Grader's; the graders of a
  // start-up self-check add theirs while the check runs. Each figure is exact; the pair is read
  // without a common lock, so a lease taken between the two reads may show in one only.
  static SlotOccupancy process_occupancy();

 private:
  std::vector<std::vector<int>> slots_;
  std::vector<bool> busy_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace hpcab::judge
