#include "judge/views/admin_views.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "judge/views/results_page.h"

namespace hpcab::judge {

using json = nlohmann::json;

namespace {

ApiError judge_fault(std::string message) {
  return ApiError{ErrorCode::kJudgeFault, std::move(message)};
}

ApiError no_store() { return judge_fault("the judge has no database attached"); }

// Admin responses quote stored text (build logs carry compiler output): invalid UTF-8 is
// replaced rather than failing the response.
HttpResponse lenient_json_response(const json& body) {
  HttpResponse r;
  r.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return r;
}

// A stored JSON text as JSON; a text that does not parse is returned as the string itself.
json stored_json(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? json(text) : j;
}

// Non-negative ASCII decimal of at most `digits` digits.
std::optional<int64_t> parse_count(const std::string& s, std::size_t digits) {
  if (s.empty() || s.size() > digits) return std::nullopt;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return std::stoll(s);
}

constexpr int64_t kAdminDefaultLimit = 100;
constexpr int64_t kAdminMaxLimit = 1000;
// The results page groups what it lists by kernel, so by default it lists as much as it may.
constexpr int64_t kResultsDefaultLimit = kAdminMaxLimit;

// The listing filters of /admin/submissions and the results page: exact-match text filters,
// `limit` 1 to kAdminMaxLimit and (admin only) `offset`. Any other parameter is refused, so a
// misspelt filter never silently lists everything. Returns the 400 to answer, or fills `f`.
std::optional<ApiError> parse_submission_filter(const std::map<std::string, std::string>& q,
                                                bool with_offset, int64_t default_limit,
                                                SubmissionFilter& f) {
  for (const auto& [k, v] : q) {
    const bool known = k == "kernel" || k == "run_id" || k == "optimizer" || k == "verdict" ||
                       k == "limit" || (with_offset && k == "offset");
    if (!known) {
      return bad_request(ErrorCode::kBadQuery, "unknown query parameter '" + k +
                                                   "' (kernel, run_id, optimizer, verdict, limit" +
                                                   (with_offset ? ", offset)" : ")"));
    }
  }
  auto text = [&q](const char* k) -> std::optional<std::string> {
    auto it = q.find(k);
    return it == q.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  f.kernel = text("kernel");
  f.run_id = text("run_id");
  f.optimizer = text("optimizer");
  f.verdict = text("verdict");
  f.limit = default_limit;
  if (auto l = text("limit")) {
    auto n = parse_count(*l, 4);
    if (!n || *n < 1 || *n > kAdminMaxLimit) {
      return bad_request(ErrorCode::kBadQuery,
                         "'limit' must be an integer from 1 to " + std::to_string(kAdminMaxLimit));
    }
    f.limit = *n;
  }
  if (auto o = text("offset")) {
    auto n = parse_count(*o, 15);
    if (!n) return bad_request(ErrorCode::kBadQuery, "'offset' must be a non-negative integer");
    f.offset = *n;
  }
  return std::nullopt;
}

}  // namespace

ApiResult<HttpResponse> admin_submissions_view(SubmissionStore* store, const Query& q) {
  SubmissionFilter f;
  if (auto bad = parse_submission_filter(q, /*with_offset=*/true, kAdminDefaultLimit, f)) {
    return *bad;
  }
  if (!store) return no_store();
  auto page = store->list_submissions(f);
  if (!page) return judge_fault(page.error().message);
  json rows = json::array();
  for (const auto& s : page->rows) {
    rows.push_back({{"submission_id", s.id},
                    {"kernel", s.kernel},
                    {"language", s.language},
                    {"precision", s.precision},
                    {"preset", s.preset},
                    {"verdict", s.verdict},
                    {"speedup", s.speedup ? json(*s.speedup) : json(nullptr)},
                    {"suspect", s.suspect},
                    {"run_id", s.run_id},
                    {"optimizer", s.optimizer},
                    {"received_at", s.received_at},
                    {"finished_at", s.finished_at},
                    {"content_hash", s.content_hash}});
  }
  return lenient_json_response({{"submissions", std::move(rows)},
                                {"total", page->total},
                                {"limit", f.limit},
                                {"offset", f.offset}});
}

ApiResult<HttpResponse> admin_submission_view(SubmissionStore* store, const std::string& id_text) {
  auto id = parse_count(id_text, 18);
  if (!id || *id < 1) {
    return bad_request(ErrorCode::kBadSubmissionId,
                       "submission id must be a positive integer (got '" + id_text + "')");
  }
  if (!store) return no_store();
  auto got = store->get_submission(*id);
  if (!got) return judge_fault(got.error().message);
  if (!got->has_value())
    return ApiError{ErrorCode::kUnknownSubmission, "no submission " + std::to_string(*id)};
  const SubmissionRecord& r = **got;
  auto opt = [](const auto& v) { return v ? json(*v) : json(nullptr); };
  json configs = json::array();
  for (const auto& c : r.configs) {
    configs.push_back({{"config", c.config},
                       {"sizes", stored_json(c.sizes_json)},
                       {"candidate_median_ns", c.candidate_median_ns},
                       {"baseline_median_ns", c.baseline_median_ns},
                       {"ratio", c.ratio},
                       {"p_faster", c.p_faster},
                       {"p_slower", c.p_slower},
                       {"credit", c.credit},
                       {"suspect", c.suspect}});
  }
  json samples = json::array();
  for (const auto& set : r.samples) {
    samples.push_back({{"config", set.config}, {"side", set.side}, {"ns", set.ns}});
  }
  // NaN statistics dump as null (strict JSON, SPEC §4).
  return lenient_json_response({{"submission_id", *id},
                                {"route", r.route},
                                {"rank", r.rank},
                                {"kernel", r.kernel},
                                {"language", r.language},
                                {"precision", r.precision},
                                {"preset", r.preset},
                                {"sizes", stored_json(r.sizes_json)},
                                {"source", r.source},
                                {"library_path", r.library_path},
                                {"build", stored_json(r.build_tokens_json)},
                                {"build_log", r.build_log},
                                {"content_hash", r.content_hash},
                                {"verdict", r.verdict},
                                {"detail", r.detail},
                                {"build_ok", r.build_ok},
                                {"correct", r.correct},
                                {"public_correct", r.public_correct},
                                {"hidden_correct", r.hidden_correct},
                                {"hidden_passed", r.hidden_passed},
                                {"hidden_total", r.hidden_total},
                                {"speedup", opt(r.speedup)},
                                {"baseline", r.baseline},
                                {"native_ns", opt(r.native_ns)},
                                {"baseline_ns", opt(r.baseline_ns)},
                                {"max_rel_error", opt(r.max_rel_error)},
                                {"suspect", r.suspect},
                                {"timed_out", r.timed_out},
                                {"machine", r.machine},
                                {"judge_version", r.judge_version},
                                {"run_id", r.run_id},
                                {"optimizer", r.optimizer},
                                {"tokens", opt(r.tokens)},
                                {"workspace_bytes", opt(r.workspace_bytes)},
                                {"received_at", r.received_at},
                                {"finished_at", r.finished_at},
                                {"response", stored_json(r.response_json)},
                                {"configs", std::move(configs)},
                                {"samples", std::move(samples)}});
}

ApiResult<HttpResponse> results_page_view(SubmissionStore* store, const JudgeConfig& config,
                                          const Query& q) {
  SubmissionFilter f;
  if (auto bad = parse_submission_filter(q, /*with_offset=*/false, kResultsDefaultLimit, f)) {
    return *bad;
  }
  if (!store) return no_store();
  auto page = store->list_submissions(f);
  if (!page) return judge_fault(page.error().message);
  ResultsPageView view;
  view.rows = std::move(page->rows);
  std::vector<std::string> runs;
  for (const auto& r : view.rows) {
    if (!r.run_id.empty() && std::find(runs.begin(), runs.end(), r.run_id) == runs.end()) {
      runs.push_back(r.run_id);
    }
  }
  // Bounded like the page: at most `limit` calls of each listed run.
  auto calls = store->list_score_calls(runs, f.limit);
  if (!calls) return judge_fault(calls.error().message);
  view.score_calls = std::move(*calls);
  view.total = page->total;
  view.limit = f.limit;
  for (const auto& [k, v] : q) {
    if (k != "limit") view.filters[k] = v;
  }
  view.rank = config.rank;
  view.judge_version = HPCAB_VERSION;
  view.generated_at =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  return results_html_response(render_results_page(view));
}

ApiResult<HttpResponse> results_source_view(SubmissionStore* store, const std::string& id_text) {
  auto id = parse_count(id_text, 18);
  if (!id || *id < 1) {
    return bad_request(ErrorCode::kBadSubmissionId,
                       "submission id must be a positive integer (got '" + id_text + "')");
  }
  if (!store) return no_store();
  auto got = store->get_submission(*id);
  if (!got) return judge_fault(got.error().message);
  if (!got->has_value())
    return ApiError{ErrorCode::kUnknownSubmission, "no submission " + std::to_string(*id)};
  return results_text_response(render_source_text(*id, **got));
}

}  // namespace hpcab::judge
