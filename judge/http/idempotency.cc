#include "judge/http/idempotency.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include <utility>

#include "common/hmac.h"
#include "judge/http/http_errors.h"

namespace hpcab::judge {

using json = nlohmann::json;

namespace {

// The fields of SubmitIdentity that differ, by their request names (a 409 lists them).
std::vector<std::string> differences(const SubmitIdentity& a, const SubmitIdentity& b) {
  std::vector<std::string> out;
  if (a.rank != b.rank) out.push_back("rank");
  if (a.kernel != b.kernel) out.push_back("kernel");
  if (a.language != b.language) out.push_back("language");
  if (a.residency != b.residency) out.push_back("residency");
  if (a.precision != b.precision) out.push_back("precision");
  if (a.run_id != b.run_id) out.push_back("run_id");
  if (a.source_sha256 != b.source_sha256) out.push_back("source");
  if (a.library_path != b.library_path) out.push_back("library");
  if (a.build_tokens != b.build_tokens) out.push_back("build");
  if (a.named_known && b.named_known) {
    if (a.preset != b.preset) out.push_back("preset");
    if (a.workspace_bytes != b.workspace_bytes) out.push_back("workspace_bytes");
  }
  return out;
}

ApiError conflict(const std::string& key, const SubmitIdentity& used, const SubmitIdentity& now,
                  const std::string& where) {
  const std::vector<std::string> differs = differences(used, now);
  std::string fields;
  for (const auto& f : differs) fields += (fields.empty() ? "" : ", ") + f;
  // The key is quoted back: parse_idempotency_key admitted only [A-Za-z0-9._:-].
  return ApiError{ErrorCode::kIdempotencyConflict,
                  "the Idempotency-Key '" + key + "' was used for another request (" + where +
                      "; this one differs in " + fields + "): send a new key with a new request",
                  {{"idempotency_key", key}, {"differs", differs}}};
}

// The recorded answer of `s`, as a repeat of its key receives it.
HttpResponse replay_of(const KeyedSubmission& s) {
  json body = json::parse(s.response_json, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) {
    return error_response(ApiError{ErrorCode::kJudgeFault,
                                   "the recorded answer of submission " + std::to_string(s.id) +
                                       " is not a JSON object; it cannot be replayed"});
  }
  // A judge killed between recording the row and sending its answer left the body as the
  // record stage wrote it, without the row's id: the one field the client relies on.
  if (!body.contains("submission_id")) body["submission_id"] = s.id;
  body["replayed"] = true;
  HttpResponse r;
  r.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return r;
}

// A string member of a recorded request_json, or nullopt where it is null or absent.
std::optional<std::string> named(const json& j, const char* field) {
  if (!j.is_object() || !j.contains(field) || !j[field].is_string()) return std::nullopt;
  return j[field].get<std::string>();
}

}  // namespace

bool same_request(const SubmitIdentity& a, const SubmitIdentity& b) {
  return differences(a, b).empty();
}

SubmitIdentity submit_identity(const GradeRequest& g) {
  return {g.rank,
          g.kernel,
          g.language,
          g.precision,
          g.run_id,
          g.residency,
          to_hex(sha256(g.source.value_or(""))),
          g.library_path.value_or(""),
          g.build_tokens,
          g.preset,
          g.workspace_bytes,
          true};
}

// The residency a recorded grade ran with is the one its answer states (every answer since GPU
// languages were accepted carries it; an older one could only have been "host").
Result<SubmitIdentity> submit_identity(const KeyedSubmission& s) {
  std::string residency = "host";
  const json body = json::parse(s.response_json, nullptr, /*allow_exceptions=*/false);
  if (body.is_object() && body.contains("residency") && body["residency"].is_string()) {
    residency = body["residency"].get<std::string>();
  }
  SubmitIdentity id{s.rank,
                    s.kernel,
                    s.language,
                    s.precision,
                    s.run_id,
                    residency,
                    to_hex(sha256(s.source)),
                    s.library_path,
                    {},
                    std::nullopt,
                    std::nullopt,
                    s.request_json.has_value()};
  // The record stage wrote both columns as JSON; one that does not parse is the database's
  // fault, and its key is answered with an error rather than compared on a guess.
  const auto unreadable = [&s](const char* what) {
    return Error{"submission " + std::to_string(s.id) + ": " + what};
  };
  const json tokens = json::parse(s.build_tokens_json, nullptr, /*allow_exceptions=*/false);
  if (!tokens.is_array()) return unreadable("build_tokens_json is not a JSON array");
  for (const auto& t : tokens) {
    if (!t.is_string()) return unreadable("build_tokens_json holds a non-string");
    id.build_tokens.push_back(t.get<std::string>());
  }
  if (s.request_json) {
    const json named_json = json::parse(*s.request_json, nullptr, /*allow_exceptions=*/false);
    if (!named_json.is_object()) return unreadable("request_json is not a JSON object");
    id.preset = named(named_json, "preset");
    id.workspace_bytes = named(named_json, "workspace_bytes");
  }
  return id;
}

HttpResponse as_replay(HttpResponse response) {
  if (response.status != 200) return response;
  json body = json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) return response;
  body["replayed"] = true;
  response.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return response;
}

std::optional<Responder> SubmitKeys::begin(const std::string& key, const SubmitIdentity& who,
                                           Responder respond) {
  std::unique_lock lock(mu_);
  if (auto it = in_flight_.find(key); it != in_flight_.end()) {
    if (same_request(it->second.who, who)) {
      it->second.waiting.push_back(std::move(respond));
      spdlog::info("submit: Idempotency-Key {} is being graded; the repeat waits for it", key);
      return std::nullopt;
    }
    const SubmitIdentity used = it->second.who;
    lock.unlock();
    respond(error_response(conflict(key, used, who, "a grade in flight")));
    return std::nullopt;
  }
  if (store_) {
    // Under mu_: a claim released after this read has its row committed before the release,
    // so a key that is neither in flight nor found here has no recorded grade.
    auto found = store_->find_by_idempotency_key(rank_, key);
    if (!found.ok()) {
      lock.unlock();
      respond(error_response(
          ApiError{ErrorCode::kJudgeFault,
                   "cannot look up the Idempotency-Key (nothing was graded; retry later): " +
                       found.error().message}));
      return std::nullopt;
    }
    if (found->has_value()) {
      lock.unlock();
      const KeyedSubmission& s = **found;
      const auto used = submit_identity(s);
      if (!used) {
        respond(error_response(
            ApiError{ErrorCode::kJudgeFault,
                     "cannot compare with the Idempotency-Key's recorded request (nothing was "
                     "graded): " +
                         used.error().message}));
        return std::nullopt;
      }
      if (!same_request(*used, who)) {
        respond(error_response(conflict(key, *used, who, "submission " + std::to_string(s.id))));
        return std::nullopt;
      }
      spdlog::info("submit: Idempotency-Key {} replays submission {}", key, s.id);
      respond(replay_of(s));
      return std::nullopt;
    }
  }
  in_flight_.emplace(key, InFlight{who, {}});
  return Responder([this, key, first = std::move(respond)](HttpResponse response) {
    release(key, first, std::move(response));
  });
}

void SubmitKeys::release(const std::string& key, const Responder& first, HttpResponse response) {
  std::vector<Responder> waiting;
  {
    std::lock_guard lock(mu_);
    if (auto it = in_flight_.find(key); it != in_flight_.end()) {
      waiting = std::move(it->second.waiting);
      in_flight_.erase(it);
    }
  }
  if (!waiting.empty()) {
    const HttpResponse replay = as_replay(response);
    for (const auto& w : waiting) w(replay);
  }
  first(std::move(response));
}

std::size_t SubmitKeys::in_flight() const {
  std::lock_guard lock(mu_);
  return in_flight_.size();
}

}  // namespace hpcab::judge
