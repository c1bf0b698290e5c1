#include "judge/http/routes.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "judge/build/build.h"
#include "judge/grade/slot_pool.h"
#include "judge/http/grade_request.h"
#include "judge/http/idempotency.h"
#include "judge/http/request.h"
#include "judge/views/admin_views.h"
#include "judge/views/results_page.h"

namespace hpcab::judge {

using json = nlohmann::json;

namespace {

HttpResponse json_response(const json& body) {
  HttpResponse r;
  r.body = body.dump();
  return r;
}

GradeBodyRules grade_body_rules(const JudgeConfig& config) {
  GradeBodyRules rules;
  rules.rank = config.rank;
  rules.max_json_depth = config.max_json_depth;
  rules.input_mode = config.input_mode;
  rules.has_shared_dir = !config.shared_dir.empty();
  rules.max_source_bytes = config.max_source_bytes;
  rules.default_preset = config.default_preset;
  rules.memory_bytes = config.memory_bytes;
  return rules;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs a queued job's work and answers its request exactly once: with what `work` built, or,
// when it throws (filesystem_error, json type_error, bad_alloc, ...), with a 500 judge_error,
// counted as hpcab_judge_faults_total{kind="exception"} (and, for a grade, as a judge_error
// grade) and logged. `respond` is called outside the try, so a throwing responder is never
// called twice; the worker loop catches that one.
void answer_guarded(const std::string& route, bool is_grade, const std::string& kernel,
                    Metrics* metrics, const Responder& respond,
                    const std::function<HttpResponse()>& work) {
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<HttpResponse> response;
  std::string what;
  try {
    response = work();
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
    what = "an exception that is not a std::exception";
  }
  if (!response) {
    const double secs = seconds_since(t0);
    spdlog::error("{} {}: the job threw after {:.2f} s: {}; answered 500 judge_error", route,
                  kernel, secs, what);
    metrics->fault("exception");
    if (is_grade) metrics->grade(route, "judge_error", secs);
    response = error_response(judge_fault(route, kernel, what));
  }
  respond(std::move(*response));
}

}  // namespace

Routes::Routes(const JudgeConfig& config, GradeService* grader, JobQueue* queue, Metrics* metrics,
               SubmissionStore* store, const Access* access)
    : config_(config),
      grader_(grader),
      queue_(queue),
      metrics_(metrics),
      store_(store),
      access_(access),
      submit_keys_(store, config.rank) {}

namespace {

// The platform a regrade checks answers against (common/portability.h).
json platform_json(const Platform& p) {
  return {{"arch", p.arch},
          {"isa_level", p.isa_level.empty() ? json(nullptr) : json(p.isa_level)},
          {"gpu_vendors", p.gpu_vendors}};
}

}  // namespace

HttpResponse Routes::health() {
  // The GPUs this judge grades cuda and hip on (the harness routes GPU arms by this list).
  json gpus = json::array();
  for (const auto& g : config_.gpus) gpus.push_back({{"vendor", g.vendor}, {"node", g.node}});
  // Any rank may ask: /health reports this judge's own rank.
  return json_response(
      {{"status", "ok"},
       {"rank", config_.rank},
       {"version", HPCAB_VERSION},
       {"kernels", grader_->corpus().size()},
       {"corpus", json::parse(corpus_counts_json(grader_->corpus()))},
       {"oracle", config_.track_oracle},
       {"baseline", config_.track_baseline},
       {"kernel_baseline", config_.kernel_baseline},
       {"input_mode", config_.input_mode},
       {"languages", {"c", "cpp", "fortran", "python", "cuda", "hip"}},
       {"gpus", gpus},
       {"platform", platform_json(config_.platform)},
       {"image", config_.image_digest.empty()
                     ? json(nullptr)
                     : json{{"name", config_.image}, {"digest", config_.image_digest}}},
       {"queue_waiting", queue_->waiting()},
       {"machine", grader_->machine()},
       {"blas", blas_in_fingerprint(grader_->machine())},
       {"selfcheck", selfcheck_ ? selfcheck_->get() : json{{"state", "off"}}}});
}

MetricsGauges Routes::metrics_gauges() const {
  MetricsGauges g;
  g.queue_waiting = queue_->waiting();
  g.queue_running = queue_->running();
  g.queue_capacity = config_.queue_depth;
  g.grade_workers = config_.grade_workers;
  const SlotOccupancy slots = SlotPool::process_occupancy();
  g.slots_busy = slots.busy;
  g.slots_total = slots.total;
  return g;
}

void Routes::baseline(const std::string& id, const std::map<std::string, std::string>& q,
                      Responder respond) {
  auto fail = [&respond](ErrorCode code, std::string message) {
    respond(error_response(ApiError{code, std::move(message)}));
  };
  if (auto bad = check_query_rank(q, config_.rank)) return respond(error_response(*bad));
  const Manifest* m = valid_kernel_name(id) ? grader_->kernel(id) : nullptr;
  if (!m) return fail(ErrorCode::kUnknownKernel, "unknown kernel '" + id + "'");
  std::string preset = q.count("preset") ? q.at("preset") : config_.default_preset;
  if (!m->presets.count(preset))
    return fail(ErrorCode::kUnknownPreset, "unknown preset '" + preset + "'");
  std::string precision = q.count("precision") ? q.at("precision") : "fp64";
  auto p = parse_precision(precision);
  if (!p || !m->supports(*p)) {
    return fail(ErrorCode::kBadPrecision, "precision '" + precision + "' not supported");
  }
  GradeService* grader = grader_;
  Metrics* metrics = metrics_;
  bool queued = queue_->try_push([grader, metrics, m, preset, precision, respond] {
    answer_guarded("baseline", /*is_grade=*/false, m->id, metrics, respond, [&] {
      auto r = grader->baseline_times(*m, preset, precision);
      return r ? json_response(*r)
               : error_response(ApiError{ErrorCode::kJudgeFault, r.error().message});
    });
  });
  if (!queued) {
    respond(error_response(
        ApiError{ErrorCode::kQueueFull, "the grading queue is full; retry later", nullptr, 5}));
  }
}

void Routes::grade(const std::string& route, const HttpRequest& req, Responder respond) {
  GradeService* grader = grader_;
  auto parsed = parse_grade_body(req.body, route, grade_body_rules(config_),
                                 [grader](const std::string& id) { return grader->kernel(id); });
  if (!parsed) return respond(error_response(parsed.error()));
  // Only a recorded answer can be repeated: /score ignores the header (docs/api.md).
  std::optional<std::string> key;
  if (route != "score") {
    auto header = parse_idempotency_key(req.headers);
    if (!header) return respond(error_response(header.error()));
    key = std::move(*header);
  }
  auto resolved =
      resolve_shared_file(std::move(*parsed), config_.shared_dir, config_.max_source_bytes);
  if (!resolved) return respond(error_response(resolved.error()));
  GradeRequest g = std::move(*resolved);
  g.received_at =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  g.idempotency_key = std::move(key);
  if (g.idempotency_key) {
    // A repeat (or a conflict) is answered here; a fresh key is answered through its claim,
    // which every outcome below (a grade, a 500, a full queue) calls once.
    auto claim = submit_keys_.begin(*g.idempotency_key, submit_identity(g), std::move(respond));
    if (!claim) return;
    respond = std::move(*claim);
  }

  Metrics* metrics = metrics_;
  SubmissionStore* store = store_;
  bool queued = queue_->try_push([g, respond, metrics, grader, store] {
    answer_guarded(g.route, /*is_grade=*/true, g.kernel, metrics, respond, [&] {
      const auto t0 = std::chrono::steady_clock::now();
      json result = grader->grade(g);
      // Everything that can throw on an odd result (a missing or mistyped field) runs before
      // anything is counted, so a fault is counted once, as a fault.
      HttpResponse response = json_response(result);
      // The record stage wrote the row before its id and its own time were in the body; the
      // row keeps the body its client is sent, which is what a repeat of its key replays. A
      // failure leaves the record stage's body there (replays add the id), so it is no fault
      // of this grade.
      if (store && result.contains("submission_id") &&
          result["submission_id"].is_number_integer()) {
        const int64_t id = result["submission_id"].get<int64_t>();
        if (auto st = store->replace_response(id, response.body); !st) {
          spdlog::warn("{} {}: keeping submission {}'s answer failed: {}", g.route, g.kernel, id,
                       st.error().message);
        }
      }
      const std::string verdict = result.value("verdict", "judge_error");
      std::map<std::string, double> stages;
      if (result.contains("timings_s") && result["timings_s"].is_object()) {
        stages = result["timings_s"].get<std::map<std::string, double>>();
      }
      const std::string speedup = result.contains("speedup") ? result["speedup"].dump() : "null";
      const double secs = seconds_since(t0);
      metrics->grade(g.route, verdict, secs);
      if (result.value("harness_fault", false)) {
        // The resource names are the grader's fixed set (judge/grade/types.h); anything else
        // would mint label values, so it is counted as "internal".
        static const std::set<std::string> kResources = {
            "scratch", "state", "runner", "sandbox", "database", "compiler", "internal", "slot"};
        const std::string kind = result.value("fault", "internal");
        metrics->fault(kResources.count(kind) ? kind : "internal");
      }
      metrics->stages(stages);
      spdlog::info("{} {} {} -> {} (speedup {}) in {:.2f} s", g.route, g.kernel, g.language,
                   verdict, speedup, secs);
      return response;
    });
  });
  if (!queued) {
    respond(
        error_response(ApiError{ErrorCode::kQueueFull,
                                "the grading queue is full (" +
                                    std::to_string(config_.queue_depth) + " waiting); retry later",
                                nullptr, 10}));
  }
}

ApiResult<GradeRequest> Routes::probe_request(std::string_view body) const {
  GradeService* grader = grader_;
  auto parsed = parse_grade_body(body, "score", grade_body_rules(config_),
                                 [grader](const std::string& id) { return grader->kernel(id); });
  if (!parsed) return parsed.error();
  return resolve_shared_file(std::move(*parsed), config_.shared_dir, config_.max_source_bytes);
}

void Routes::syntax_check(const HttpRequest& req, Responder respond) {
  GradeService* grader = grader_;
  auto resolved = probe_request(req.body);
  if (!resolved) return respond(error_response(resolved.error()));
  GradeRequest g = std::move(*resolved);
  if (!g.source) {
    return respond(error_response(ApiError{
        ErrorCode::kBadField, "a syntax check needs 'source' or 'source_file', not 'library'"}));
  }
  Metrics* metrics = metrics_;
  JobQueue* queue = checks_ ? checks_ : queue_;
  const bool queued = queue->try_push([g, respond, metrics, grader] {
    answer_guarded("syntax-check", /*is_grade=*/false, g.kernel, metrics, respond, [&] {
      json result = grader->syntax_check(g);
      spdlog::info("syntax-check {} {} -> {} ({} diagnostics) in {:.2f} s", g.kernel, g.language,
                   result.value("verdict", "?"), result["diagnostics"].size(),
                   result.value("seconds", 0.0));
      return json_response(result);
    });
  });
  if (!queued) {
    respond(error_response(ApiError{ErrorCode::kQueueFull,
                                    "the syntax-check queue is full (" +
                                        std::to_string(config_.syntax_check_queue_depth) +
                                        " waiting); retry later",
                                    nullptr, 2}));
  }
}

double Routes::profile_wait_s(const HttpRequest& req) {
  // The client: its bearer token where tokens are in use (hashed, never kept), else the host
  // part of its address.
  std::string client = req.remote.substr(0, req.remote.rfind(':'));
  if (auto it = req.headers.find("authorization"); it != req.headers.end()) {
    client = "token " + std::to_string(std::hash<std::string>{}(it->second));
  }
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(profile_mu_);
  auto it = last_profile_.find(client);
  if (it != last_profile_.end()) {
    const double since = std::chrono::duration<double>(now - it->second).count();
    if (since < config_.profile_min_interval_s) return config_.profile_min_interval_s - since;
  }
  if (last_profile_.size() >= 4096) {
    // Clients whose interval has passed need no entry: the map stays bounded however many
    // addresses or tokens ask.
    std::erase_if(last_profile_, [&](const auto& e) {
      return std::chrono::duration<double>(now - e.second).count() >=
             config_.profile_min_interval_s;
    });
  }
  last_profile_[client] = now;
  return 0;
}

void Routes::profile(const HttpRequest& req, Responder respond) {
  GradeService* grader = grader_;
  json body = json::parse(req.body, nullptr, false);  // checked by parse_grade_body below
  std::string target = "candidate";
  if (body.is_object() && body.contains("target")) {
    if (!body["target"].is_string() ||
        (body["target"] != "candidate" && body["target"] != "baseline")) {
      return respond(error_response(
          ApiError{ErrorCode::kBadField, "'target' must be \"candidate\" or \"baseline\""}));
    }
    target = body["target"].get<std::string>();
  }
  // The baseline is the judge's own code: a request for it needs no source. The body's rules
  // still want one, so a comment-only source stands in; the profile never builds it.
  const bool no_source = body.is_object() && !body.contains("source") &&
                         !body.contains("source_file") && !body.contains("library");
  if (target == "baseline" && no_source) body["source"] = "/* baseline */";
  auto resolved = probe_request(target == "baseline" && no_source ? body.dump() : req.body);
  if (!resolved) return respond(error_response(resolved.error()));
  GradeRequest g = std::move(*resolved);
  if (target == "candidate" && !g.source) {
    return respond(error_response(ApiError{
        ErrorCode::kBadField, "a profile needs 'source' or 'source_file', not 'library'"}));
  }
  if (const double wait = profile_wait_s(req); wait > 0) {
    const int after = static_cast<int>(std::ceil(wait));
    ApiError e{ErrorCode::kRateLimited,
               fmt::format("one profile per {:g} s per client (profile_min_interval_s); retry "
                           "in {} s",
                           config_.profile_min_interval_s, after)};
    e.headers.emplace_back("Retry-After", std::to_string(std::max(1, after)));
    return respond(error_response(e));
  }
  Metrics* metrics = metrics_;
  const bool queued = queue_->try_push([g, target, respond, metrics, grader] {
    answer_guarded("profile", /*is_grade=*/false, g.kernel, metrics, respond, [&] {
      const auto t0 = std::chrono::steady_clock::now();
      auto result = grader->profile(g, target);
      if (!result) {
        const bool missing = result.error().code == Errc::kNotFound;
        spdlog::warn("profile {} {}: {}", g.kernel, target, result.error().message);
        return error_response(
            missing ? ApiError{ErrorCode::kProfilerUnavailable,
                               "no usable profiler on this judge: " + result.error().message}
                    : judge_fault("profile", g.kernel, result.error().message));
      }
      spdlog::info("profile {} {} {} -> {} in {:.2f} s", g.kernel, target, g.language,
                   result->value("time_per_call_ns", 0.0), seconds_since(t0));
      return json_response(*result);
    });
  });
  if (!queued) {
    respond(
        error_response(ApiError{ErrorCode::kQueueFull,
                                "the grading queue is full (" +
                                    std::to_string(config_.queue_depth) + " waiting); retry later",
                                nullptr, 10}));
  }
}

void Routes::handle(HttpRequest req, Responder respond) {
  RequestTarget target = split_target(req.target);
  const std::string& path = target.path;
  const std::map<std::string, std::string>& query = target.query;
  // The metrics label: only known routes, so a client cannot mint label values (unbounded
  // memory, or quotes and newlines breaking the exposition format) with made-up paths.
  std::string route = "other";
  if (path == "/health" || path == "/metrics" || path == "/score" || path == "/submit" ||
      path == "/oracle" || path == "/syntax-check" || path == "/profile") {
    route = path;
  }
  if (path.rfind("/task/", 0) == 0) route = "/task";
  if (path.rfind("/baseline/", 0) == 0) route = "/baseline";
  if (is_admin_path(path)) route = "/admin";
  if (is_results_path(path)) route = "/results";
  Metrics* metrics = metrics_;
  auto counted = [metrics, route, respond](HttpResponse r) {
    metrics->request(route, r.status);
    respond(std::move(r));
  };
  auto fail = [&counted](ErrorCode code, std::string message) {
    counted(error_response(ApiError{code, std::move(message)}));
  };
  // A view's value, or its error, counted.
  auto answer = [&counted](ApiResult<HttpResponse> r) {
    counted(r ? std::move(*r) : error_response(r.error()));
  };
  // Access control comes before any route (SPEC §4 additions, docs/api.md "Access control").
  static const Access kNoTokens;
  if (auto denied = (access_ ? *access_ : kNoTokens).check(path, req.headers)) {
    metrics->request(route, denied->status);
    return respond(std::move(*denied));
  }
  bool target_ok = valid_utf8(path);
  for (const auto& [k, v] : query) target_ok = target_ok && valid_utf8(k) && valid_utf8(v);
  if (!target_ok) {
    return fail(ErrorCode::kBadTarget,
                "the request target is not valid UTF-8 once percent-decoded");
  }
  const bool get = req.method == "GET";
  const bool post = req.method == "POST";
  if (path == "/health") {
    if (!get) return fail(ErrorCode::kMethodNotAllowed, "use GET /health");
    return counted(health());
  }
  if (path == "/metrics") {
    if (!get) return fail(ErrorCode::kMethodNotAllowed, "use GET /metrics");
    HttpResponse r;
    r.content_type = "text/plain; version=0.0.4";
    r.body = metrics_->render(metrics_gauges());
    return counted(r);
  }
  if (route == "/task") {
    if (!get) return fail(ErrorCode::kMethodNotAllowed, "use GET /task/<kernel>");
    auto body = task_view(*grader_, config_, path.substr(6), query);
    return counted(body ? json_response(*body) : error_response(body.error()));
  }
  if (route == "/baseline") {
    if (!get) return fail(ErrorCode::kMethodNotAllowed, "use GET /baseline/<kernel>");
    return baseline(path.substr(10), query, counted);
  }
  if (path == "/score" || path == "/submit" || path == "/oracle") {
    if (!post) return fail(ErrorCode::kMethodNotAllowed, "use POST " + path);
    return grade(path == "/score"    ? "score"
                 : path == "/oracle" ? "oracle"
                                     : "submit",
                 req, counted);
  }
  if (path == "/syntax-check") {
    if (!post) return fail(ErrorCode::kMethodNotAllowed, "use POST /syntax-check");
    return syntax_check(req, counted);
  }
  if (path == "/profile") {
    if (!post) return fail(ErrorCode::kMethodNotAllowed, "use POST /profile");
    return profile(req, counted);
  }
  if (path == "/admin/submissions") {
    if (!get) return fail(ErrorCode::kMethodNotAllowed, "use GET /admin/submissions");
    return answer(admin_submissions_view(store_, query));
  }
  if (path.rfind("/admin/submissions/", 0) == 0) {
    if (!get) return fail(ErrorCode::kMethodNotAllowed, "use GET /admin/submissions/<id>");
    return answer(admin_submission_view(store_, path.substr(19)));
  }
  if (route == "/results") {
    if (!config_.results_page) {
      return fail(ErrorCode::kRouteOff,
                  "the results page is turned off on this judge (setting results_page: false)");
    }
    if (!get) return fail(ErrorCode::kMethodNotAllowed, "use GET " + path);
    if (path == "/" || path == "/results") return answer(results_page_view(store_, config_, query));
    // /results/<id>/source
    const std::string rest = path.substr(9);
    const auto slash = rest.find('/');
    if (slash != std::string::npos && rest.compare(slash, std::string::npos, "/source") == 0) {
      return answer(results_source_view(store_, rest.substr(0, slash)));
    }
    return fail(ErrorCode::kNoRoute, "no route GET " + path +
                                         " (the results page has / , /results and "
                                         "/results/<id>/source)");
  }
  return fail(ErrorCode::kNoRoute, "no route " + req.method + " " + path);
}

}  // namespace hpcab::judge
