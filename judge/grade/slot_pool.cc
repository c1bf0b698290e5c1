#include "judge/grade/slot_pool.h"

#include <utility>

namespace hpcab::judge {

SlotPool::SlotPool(std::vector<std::vector<int>> slots)
    : slots_(std::move(slots)), busy_(slots_.size(), false) {}

SlotPool::Lease SlotPool::acquire() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (!busy_[i]) {
        busy_[i] = true;
        return Lease(this, i);
      }
    }
    cv_.wait(lock);
  }
}

SlotPool::Lease::~Lease() {
  if (pool_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(pool_->mu_);
    pool_->busy_[index_] = false;
  }
  pool_->cv_.notify_one();
}

}  // namespace hpcab::judge
