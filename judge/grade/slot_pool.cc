#include "judge/grade/slot_pool.h"

#include <algorithm>
#include <atomic>
#include <utility>

namespace hpcab::judge {

namespace {

// process_occupancy()'s figures: every live pool's slots and its leases, kept by the pools.
std::atomic<std::size_t> g_process_total{0};
std::atomic<std::size_t> g_process_busy{0};

}  // namespace

SlotPool::SlotPool(std::vector<std::vector<int>> slots)
    : slots_(std::move(slots)), busy_(slots_.size(), false) {
  g_process_total += slots_.size();
}

// Leases hold a pointer to their pool, so none outlives it: every busy slot was returned.
SlotPool::~SlotPool() { g_process_total -= slots_.size(); }

SlotPool::Lease SlotPool::acquire() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (!busy_[i]) {
        busy_[i] = true;
        ++g_process_busy;
        return Lease(this, i);
      }
    }
    cv_.wait(lock);
  }
}

SlotOccupancy SlotPool::occupancy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {static_cast<std::size_t>(std::count(busy_.begin(), busy_.end(), true)), slots_.size()};
}

SlotOccupancy SlotPool::process_occupancy() {
  return {g_process_busy.load(), g_process_total.load()};
}

SlotPool::Lease::~Lease() {
  if (pool_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(pool_->mu_);
    pool_->busy_[index_] = false;
    --g_process_busy;
  }
  pool_->cv_.notify_one();
}

}  // namespace hpcab::judge
