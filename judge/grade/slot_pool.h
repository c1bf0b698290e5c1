// The judge's CPU slots (the `slots` setting): sets of cores that timed work is pinned to.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace hpcab::judge {

// CPU sets for timed work: a grade holds one for its whole run phase, so two clocks never share
// cores (SPEC §5.10).
class SlotPool {
 public:
  explicit SlotPool(std::vector<std::vector<int>> slots);
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

 private:
  std::vector<std::vector<int>> slots_;
  std::vector<bool> busy_;
  std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace hpcab::judge
