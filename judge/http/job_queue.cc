#include "judge/http/job_queue.h"

#include <spdlog/spdlog.h>

#include <exception>

namespace hpcab::judge {

JobQueue::JobQueue(std::size_t depth, int workers) : depth_(depth) {
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
}

JobQueue::~JobQueue() { shutdown(); }

bool JobQueue::try_push(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ || jobs_.size() >= depth_) return false;
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
  return true;
}

std::size_t JobQueue::waiting() const {
  std::lock_guard<std::mutex> lock(mu_);
  return jobs_.size();
}

void JobQueue::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping and drained
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    ++running_;
    // Last resort: an exception leaving a std::thread's function would call std::terminate and
    // end the judge with every queued grade. The job's own handler (routes) answers its client;
    // here there is nobody left to answer, so it is logged and counted.
    try {
      job();
    } catch (const std::exception& e) {
      ++escaped_;
      spdlog::error("grading queue: a job threw past its own handler: {}", e.what());
    } catch (...) {
      ++escaped_;
      spdlog::error("grading queue: a job threw a non-exception past its own handler");
    }
    --running_;
  }
}

void JobQueue::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

}  // namespace hpcab::judge
