// The judge's HTTP routes (SPEC §4): request validation, the rank check, the bounded grading
// queue and the metrics. Every error leaves through error_response() with a message a human can
// act on; a grade (even a failed build or a crash) is a 200.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "judge/access.h"
#include "judge/config.h"
#include "judge/grader.h"
#include "judge/server.h"

namespace hpcab::judge {

// A bounded FIFO of jobs run by a fixed set of worker threads. try_push refuses (never blocks)
// when `depth` jobs are already waiting, which the routes turn into 429 + Retry-After.
class JobQueue {
 public:
  JobQueue(std::size_t depth, int workers);
  ~JobQueue();
  bool try_push(std::function<void()> job);
  std::size_t waiting() const;
  int running() const { return running_; }
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
  bool stopping_ = false;
};

class Metrics {
 public:
  void request(const std::string& route, int status);
  void grade(const std::string& route, const std::string& verdict, double seconds);
  // Wall seconds per grade stage (build, inputs, candidate, baseline, oracle, compare, record).
  void stages(const std::map<std::string, double>& seconds);
  std::string render(std::size_t queue_waiting, int queue_running) const;

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int>, uint64_t> requests_;
  std::map<std::pair<std::string, std::string>, uint64_t> grades_;
  double grade_seconds_sum_ = 0;
  uint64_t grade_seconds_count_ = 0;
  std::map<std::string, std::pair<double, uint64_t>> stage_seconds_;
};

class Routes {
 public:
  // `store` serves the admin routes and the results page, and `access` decides who may call
  // what; without an Access the judge is open (results page included) except /admin/*, which is
  // disabled. The results routes touch neither the grader nor the queue.
  Routes(const JudgeConfig& config, Grader* grader, JobQueue* queue, Metrics* metrics,
         Store* store = nullptr, const Access* access = nullptr);
  // The server's Handler.
  void handle(HttpRequest request, Responder respond);

 private:
  HttpResponse health(const std::map<std::string, std::string>& query);
  HttpResponse task(const std::string& kernel, const std::map<std::string, std::string>& query);
  void baseline(const std::string& kernel, const std::map<std::string, std::string>& query,
                Responder respond);
  void grade(const std::string& route, const HttpRequest& request, Responder respond);
  HttpResponse admin_submissions(const std::map<std::string, std::string>& query);
  HttpResponse admin_submission(const std::string& id);
  // The read-only results page (judge/results_page.h): GET / and /results, and
  // /results/<id>/source.
  HttpResponse results_page(const std::map<std::string, std::string>& query);
  HttpResponse results_source(const std::string& id);

  const JudgeConfig& config_;
  Grader* grader_;
  JobQueue* queue_;
  Metrics* metrics_;
  Store* store_;
  const Access* access_;
};

// Stub sources that compile as they are (SPEC §4 /task): c, cpp, fortran.
std::string stub_source(const Manifest& m, Precision p, const std::string& language);

}  // namespace hpcab::judge
