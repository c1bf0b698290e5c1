// The judge's HTTP routes (SPEC §4) as dispatch: method and path to a handler, the access check
// before any route, and the request count per route. What the handlers do lives elsewhere:
//   judge/http/grade_request.h  POST bodies into GradeRequests, the rank check
//   judge/views/task_view.h      GET /task
//   judge/views/admin_views.h    /admin/* and the results page
//   judge/http/job_queue.h      the bounded grading queue
//   judge/http/metrics.h        GET /metrics
//   judge/http/http_errors.h    every non-200 answer
//   judge/http/idempotency.h    /submit's Idempotency-Key: replays, waits for the grade in flight
// A grade (even a failed build or a crash) is a 200; a grade or baseline job that throws is a
// 500 judge_error, and the worker keeps serving.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "judge/config/config.h"
#include "judge/grade/selfcheck.h"
#include "judge/grade/service.h"
#include "judge/http/access.h"
#include "judge/http/http_errors.h"
#include "judge/http/idempotency.h"
#include "judge/http/job_queue.h"
#include "judge/http/metrics.h"
#include "judge/http/server.h"
#include "judge/store/records.h"
#include "judge/views/task_view.h"

namespace hpcab::judge {

class Routes {
 public:
  // `grader` serves the corpus, grades and baselines (a Grader; tests may pass a fake). `store`
  // serves the admin routes and the results page, and `access` decides who may call what;
  // without an Access the judge is open (results page included) except /admin/*, which is
  // disabled. The results routes touch neither the grader nor the queue.
  Routes(const JudgeConfig& config, GradeService* grader, JobQueue* queue, Metrics* metrics,
         SubmissionStore* store = nullptr, const Access* access = nullptr);
  // The server's Handler.
  void handle(HttpRequest request, Responder respond);
  // What /health reports of the self-check (none: "off"). Not owned; set before serving.
  void set_selfcheck(const SelfcheckState* state) { selfcheck_ = state; }
  // The queue POST /syntax-check builds wait in (not owned; unset: the grades' queue).
  void set_check_queue(JobQueue* queue) { checks_ = queue; }

 private:
  HttpResponse health();
  // What /metrics reads at the moment of the request: the queue, the settings, the slots.
  MetricsGauges metrics_gauges() const;
  void baseline(const std::string& kernel, const std::map<std::string, std::string>& query,
                Responder respond);
  void grade(const std::string& route, const HttpRequest& request, Responder respond);
  // The body of a /syntax-check or /profile (a /score body) parsed and its source_file read.
  ApiResult<GradeRequest> probe_request(std::string_view body) const;
  void syntax_check(const HttpRequest& request, Responder respond);
  void profile(const HttpRequest& request, Responder respond);
  // POST /profile's rate limit: seconds the client (its bearer token, else its address) must
  // still wait, 0 when it may profile now (then counted from now).
  double profile_wait_s(const HttpRequest& request);

  const JudgeConfig& config_;
  GradeService* grader_;
  JobQueue* queue_;
  Metrics* metrics_;
  SubmissionStore* store_;
  const Access* access_;
  SubmitKeys submit_keys_;  // the Idempotency-Keys of /submit and /oracle
  const SelfcheckState* selfcheck_ = nullptr;
  JobQueue* checks_ = nullptr;
  std::mutex profile_mu_;
  std::map<std::string, std::chrono::steady_clock::time_point> last_profile_;  // by client
};

}  // namespace hpcab::judge
