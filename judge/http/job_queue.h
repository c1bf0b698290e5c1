// The judge's grading queue: a bounded FIFO of jobs run by a fixed set of worker threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hpcab::judge {

// try_push refuses (never blocks) when `depth` jobs are already waiting, which the routes turn
// into 429 + Retry-After. A job should handle its own failures (the routes' jobs answer a 500
// judge_error); one that throws anyway is logged and dropped, and its worker keeps serving: no
// job ends the judge or strands the jobs queued behind it.
class JobQueue {
 public:
  JobQueue(std::size_t depth, int workers);
  ~JobQueue();
  bool try_push(std::function<void()> job);
  std::size_t waiting() const;
  int running() const { return running_; }
  // Jobs that threw out of the job itself (the last-resort catch in the worker loop).
  std::size_t escaped_exceptions() const { return escaped_; }
  // Finishes queued and running jobs, then joins the workers.
  void shutdown();

 private:
  void work();
  std::size_t depth_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  std::atomic<int> running_{0};
  std::atomic<std::size_t> escaped_{0};
  bool stopping_ = false;
};

}  // namespace hpcab::judge
