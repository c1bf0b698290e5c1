#include "harness/judge_client.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "common/hmac.h"
#include "common/url.h"

namespace hpcab::harness {

namespace fs = std::filesystem;

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::string query(const std::map<std::string, std::string>& params) {
  std::string q;
  for (const auto& [k, v] : params) {
    if (v.empty()) continue;
    q += (q.empty() ? "?" : "&") + k + "=" + percent_encode(v);
  }
  return q;
}

// A run id becomes part of a file name: keep [A-Za-z0-9._-], map the rest to '_'.
std::string file_safe(const std::string& s) {
  std::string out;
  for (unsigned char c : s) out += std::isalnum(c) || c == '.' || c == '_' || c == '-' ? c : '_';
  return out;
}

}  // namespace

namespace {

// A positive (or, with `allow_zero`, non-negative) number of seconds from a variable.
Result<double> seconds_from_env(const char* name, double fallback, bool allow_zero) {
  const std::string t = env_or(name, "");
  if (t.empty()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v) || v < 0 || (!allow_zero && v == 0)) {
    return Error{std::string(name) + " must be a " + (allow_zero ? "non-negative" : "positive") +
                 " number of seconds, got '" + t + "'"};
  }
  return v;
}

// A judge URL that can be requested at all (common/url.h): a malformed one would otherwise be
// "waited out" like an outage.
bool plausible_url(const std::string& url) { return parse_url(url).ok(); }

// Appends one JSON line to a file of the state dir (O_APPEND: lines of concurrent writers do not
// interleave).
void append_line(const fs::path& file, const json& line) {
  const std::string text = line.dump() + "\n";
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  [[maybe_unused]] ssize_t n = ::write(fd, text.data(), text.size());
  ::close(fd);
}

// Written to a temporary and renamed: a reader (the next tool process) sees all of it or none.
bool write_atomically(const fs::path& file, const std::string& text) {
  fs::path tmp = file;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out << text;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  return !ec;
}

// An exclusive flock on a file of the state dir, held for one submit of a run so that its
// marker and pending record are decided by one call at a time (two tool processes, or two MCP
// calls). The kernel releases it however the holder dies. Waiting polls, so a cancelled call
// stops waiting.
class SubmitLock {
 public:
  static Result<SubmitLock> acquire(const std::string& path, const CancelToken* cancel) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      return Error{"cannot create the submission lock " + path + ": " + std::strerror(errno),
                   errc_from_errno(errno)};
    }
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        const int e = errno;
        ::close(fd);
        return Error{"cannot lock " + path + ": " + std::strerror(e), errc_from_errno(e)};
      }
      if (!pause(0.05, cancel)) {
        ::close(fd);
        return Error{"cancelled while another submit of this run was in flight"};
      }
    }
    return SubmitLock(fd);
  }
  SubmitLock(SubmitLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  SubmitLock& operator=(SubmitLock&&) = delete;
  ~SubmitLock() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  explicit SubmitLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// What identifies a submission for "is the pending one the same as this one": every field the
// judge grades, not the token count (which grows between two tool processes).
json submission_identity(const Submission& s, const std::string& library) {
  return {{"kernel", s.kernel},
          {"language", s.language.empty() ? "c" : s.language},
          {"source_sha256", library.empty() ? to_hex(sha256(s.source)) : ""},
          {"library", library},
          {"preset", s.preset},
          {"precision", s.precision}};
}

}  // namespace

std::string new_idempotency_key(const std::string& run_id) {
  std::random_device rd;
  std::uniform_int_distribution<unsigned> hex(0, 15);
  std::string key = "hpcab:";
  for (int i = 0; i < 16; ++i) key += "0123456789abcdef"[hex(rd)];
  key += ':';
  std::string run;
  for (unsigned char c : run_id) {
    run += std::isalnum(c) || c == '.' || c == '_' || c == ':' || c == '-' ? static_cast<char>(c)
                                                                           : '_';
  }
  if (run.empty()) run = "-";
  return key + run.substr(0, 128 - key.size());
}

Result<JudgeSettings> JudgeSettings::from_env() {
  JudgeSettings s;
  s.url = env_or("JUDGE_URL", "");
  const std::string rank = env_or("JUDGE_RANK", "0");
  if (rank.empty() || rank.size() > 9 || rank.find_first_not_of("0123456789") != std::string::npos)
    return Error{"JUDGE_RANK must be a non-negative integer, got '" + rank + "'"};
  s.rank = std::stoi(rank);
  s.run_id = env_or("RUN_ID", "");
  s.optimizer = env_or("AGENT", "agent");
  s.token = env_or("JUDGE_TOKEN", "");
  if (s.token.empty()) {
    if (const std::string file = env_or("JUDGE_TOKEN_FILE", ""); !file.empty()) {
      auto t = read_client_token_file(file);
      if (!t) return Error{"JUDGE_TOKEN_FILE: " + t.error().message};
      s.token = *t;
    }
  }
  s.ca_file = env_or("JUDGE_CA_FILE", "");
  auto timeout = seconds_from_env("HPCAB_TOOL_TIMEOUT", s.timeout_s, /*allow_zero=*/false);
  if (!timeout) return timeout.error();
  s.timeout_s = *timeout;
  auto wait = seconds_from_env("HPCAB_OUTAGE_WAIT_S", s.outage.wait_s, /*allow_zero=*/true);
  if (!wait) return wait.error();
  s.outage.wait_s = *wait;
  auto backoff =
      seconds_from_env("HPCAB_OUTAGE_BACKOFF_MAX_S", s.outage.backoff_max_s, /*allow_zero=*/false);
  if (!backoff) return backoff.error();
  s.outage.backoff_max_s = *backoff;
  const std::string policy = env_or("HPCAB_SUBMISSION_POLICY", "multiple");
  if (policy != "single" && policy != "multiple")
    return Error{"HPCAB_SUBMISSION_POLICY must be 'single' or 'multiple', got '" + policy + "'"};
  s.single_submission = policy == "single";
  s.state_dir = env_or("HPCAB_TOOL_STATE", "");
  s.usage_url = env_or("HPCAB_USAGE_URL", "");
  s.search_url = env_or("HPCAB_SEARCH_URL", "");
  s.residency = env_or("HPCAB_RESIDENCY", "");
  if (!s.residency.empty() && s.residency != "host" && s.residency != "device")
    return Error{"HPCAB_RESIDENCY must be 'host' or 'device', got '" + s.residency + "'"};
  return s;
}

JudgeClient::JudgeClient(JudgeSettings settings, Transport transport, UsageFetch usage)
    : JudgeClient(std::move(settings), HeaderTransport(), std::move(usage)) {
  if (transport) {
    transport_ = [plain = std::move(transport)](
                     const std::string& method, const std::string& url, const std::string& body,
                     const std::map<std::string, std::string>&,
                     const CancelToken*) { return plain(method, url, body); };
  }
}

JudgeClient::JudgeClient(JudgeSettings settings, CancellableTransport transport, UsageFetch usage)
    : JudgeClient(std::move(settings), HeaderTransport(), std::move(usage)) {
  if (transport) {
    transport_ = [c = std::move(transport)](
                     const std::string& method, const std::string& url, const std::string& body,
                     const std::map<std::string, std::string>&,
                     const CancelToken* cancel) { return c(method, url, body, cancel); };
  }
}

JudgeClient::JudgeClient(JudgeSettings settings, HeaderTransport transport, UsageFetch usage)
    : settings_(std::move(settings)), transport_(std::move(transport)), usage_(std::move(usage)) {
  if (!transport_) {
    HttpOptions options{settings_.token, settings_.ca_file};
    const double timeout = settings_.timeout_s;
    const double probe_timeout = settings_.outage.probe_timeout_s;
    transport_ = [options, timeout, probe_timeout](
                     const std::string& method, const std::string& url, const std::string& body,
                     const std::map<std::string, std::string>& extra, const CancelToken* cancel) {
      std::map<std::string, std::string> headers = extra;
      if (!body.empty()) headers["Content-Type"] = "application/json";
      HttpOptions with_cancel = options;
      with_cancel.cancel = cancel;
      // The health probe answers at once or the judge is not there: it gets its own timeout.
      const bool probe =
          method == "GET" && url.size() >= 7 && url.compare(url.size() - 7, 7, "/health") == 0;
      return http_request(method, url, body, headers, probe ? probe_timeout : timeout, with_cancel);
    };
  }
  if (!usage_) {
    const double timeout = settings_.usage_timeout_s;
    usage_ = [timeout](const std::string& url) {
      return http_request("GET", url, "", {}, timeout, HttpOptions{});
    };
  }
}

std::optional<std::int64_t> JudgeClient::tokens_used() {
  if (settings_.usage_url.empty()) return std::nullopt;
  auto r = usage_(settings_.usage_url);
  if (!r || r->status != 200) return std::nullopt;
  const json j = json::parse(r->body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  std::int64_t total = 0;
  for (const char* field : {"input", "cached", "output"}) {
    auto it = j.find(field);
    if (it == j.end() || !it->is_number_integer()) return std::nullopt;
    if (it->is_number_unsigned() ? it->get<std::uint64_t>() > std::uint64_t{INT64_MAX} / 4
                                 : it->get<std::int64_t>() < 0)
      return std::nullopt;
    total += it->get<std::int64_t>();
  }
  return total;
}

Result<json> JudgeClient::fail(Call& call, Failure kind, std::string message, std::string code) {
  call.failure = kind;
  std::lock_guard lock(mu_);
  last_failure_ = kind;
  last_error_code_ = std::move(code);
  return Error{std::move(message)};
}

JudgeClient::Call JudgeClient::begin(const CancelToken* cancel) {
  std::lock_guard lock(mu_);
  last_failure_ = Failure::kNone;
  last_error_code_.clear();
  return Call{cancel, Failure::kNone};
}

std::string JudgeClient::submission_marker() const {
  fs::path dir = settings_.state_dir.empty() ? fs::current_path() : fs::path(settings_.state_dir);
  std::string name = ".hpcab-submitted";
  if (!settings_.run_id.empty()) name += "." + file_safe(settings_.run_id);
  return (dir / name).string();
}

std::string JudgeClient::pending_submission() const {
  fs::path dir = settings_.state_dir.empty() ? fs::current_path() : fs::path(settings_.state_dir);
  std::string name = ".hpcab-pending";
  if (!settings_.run_id.empty()) name += "." + file_safe(settings_.run_id);
  return (dir / (name + ".json")).string();
}

void JudgeClient::clear_outage_note() {
  std::lock_guard lock(mu_);
  outage_note_.clear();
}

void JudgeClient::note_outage(const OutageEvent& e) {
  {
    std::lock_guard lock(mu_);
    outage_note_ = e.kind == OutageEvent::Kind::kWaiting ? outage_line("judge", e) : "";
  }
  if (observer_) observer_(e);
}

void JudgeClient::record_outage(const OutageEvent& e, bool transport) {
  if (settings_.state_dir.empty()) return;
  append_line(fs::path(settings_.state_dir) / kOutagesFile,
              {{"run_id", settings_.run_id},
               {"url", e.url},
               {"request", e.what},
               {"since", e.since},
               {"gave_up_at", e.since + e.waited_s},
               {"kind", transport ? "transport" : "http"},
               {"error", e.error}});
}

Result<json> JudgeClient::get(Call& call, const std::string& path_and_query) {
  if (settings_.url.empty())
    return fail(call, Failure::kLocal, "no judge URL: set JUDGE_URL or pass --url");
  return exchange(call, "GET", path_and_query, "", path_and_query, "");
}

using SteadyClock = std::chrono::steady_clock;

struct JudgeClient::Exchange {
  explicit Exchange(const OutagePolicy& policy) : backoff(policy) {}
  std::string base, label, refusal_note;
  OutageEvent event;
  bool waiting = false;  // an outage was reported and has not ended
  // The outage's clock starts at the call's first failure and does not restart within the
  // call: a judge that keeps coming back and failing again still ends the call in time.
  std::optional<SteadyClock::time_point> first_failure;
  SteadyClock::time_point next_report = SteadyClock::now();
  double at_least = 0;  // the next nap's floor (a Retry-After)
  bool transport_failure = false;
  Backoff backoff;  // one per exchange: naps keep growing across the call's outages

  double elapsed() const {
    return first_failure
               ? std::chrono::duration<double>(SteadyClock::now() - *first_failure).count()
               : 0.0;
  }
};

namespace {

// The `error` text of a judge's error body, else the body's first `max` bytes.
std::string error_text(const HttpResult& r, std::size_t max) {
  const json answer = json::parse(r.body, nullptr, false);
  return answer.is_object() && answer.contains("error") && answer["error"].is_string()
             ? answer["error"].get<std::string>()
             : r.body.substr(0, max);
}

// The stable `code` of a judge's error body (docs/api.md "Error codes"); "" when it has none or
// it is not a plain name.
std::string error_code(const HttpResult& r) {
  const json answer = json::parse(r.body, nullptr, false);
  if (!answer.is_object() || !answer.contains("code") || !answer["code"].is_string()) return "";
  std::string code = answer["code"].get<std::string>();
  const bool plain = !code.empty() && code.size() <= 64 &&
                     std::all_of(code.begin(), code.end(),
                                 [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
  return plain ? code : "";
}

std::string waited_note(const char* what, double waited_s, double wait_s) {
  if (wait_s <= 0) return "";
  return std::string(" (") + what + std::to_string(std::lround(waited_s)) + " s, the outage wait)";
}

}  // namespace

Result<json> JudgeClient::exchange(Call& call, const std::string& method, const std::string& path,
                                   const std::string& body, const std::string& label,
                                   const std::string& refusal_note,
                                   const std::map<std::string, std::string>& headers) {
  Exchange x(settings_.outage);
  x.base = settings_.url;
  while (!x.base.empty() && x.base.back() == '/') x.base.pop_back();
  if (!plausible_url(x.base)) {
    return fail(call, Failure::kLocal,
                "bad judge URL '" + settings_.url + "' (expected http[s]://host:port)");
  }
  x.label = label;
  x.refusal_note = refusal_note;
  x.event.url = x.base;
  x.event.what = method + " " + path.substr(0, path.find('?'));
  x.event.limit_s = settings_.outage.wait_s;
  for (;;) {
    auto r = transport_(method, x.base + path, body, headers, call.cancel);
    x.at_least = 0;
    x.transport_failure = false;
    if (!r) {
      if (call.cancel && call.cancel->cancelled()) {
        if (x.waiting) clear_outage_note();
        return fail(call, Failure::kTransport, "judge request cancelled: " + r.error().message);
      }
      if (r.error().code != Errc::kNotSent) call.maybe_received = true;
      x.event.error = r.error().message;
      x.transport_failure = true;
    } else if (transient_status(r->status)) {
      x.event.error = "HTTP " + std::to_string(r->status) + ": " + error_text(*r, 200);
      x.at_least = retry_after_s(*r);
    } else {
      return final_answer(call, x, *r);
    }
    if (!x.first_failure) {
      x.first_failure = SteadyClock::now();
      x.event.since = unix_now();
    }
    if (auto failed = wait_out(call, x)) return std::move(*failed);
  }
}

Result<json> JudgeClient::final_answer(Call& call, Exchange& x, const HttpResult& r) {
  // Graded, refused, or an error that a retry would not change.
  if (x.waiting) {
    x.event.kind = OutageEvent::Kind::kRecovered;
    x.event.waited_s = x.elapsed();
    note_outage(x.event);
  }
  if (r.status != 200) {
    const std::string code = error_code(r);
    return fail(call, Failure::kHttp,
                "judge answered HTTP " + std::to_string(r.status) +
                    (code.empty() ? "" : " (" + code + ")") + " for " + x.label + x.refusal_note +
                    ": " + error_text(r, 500),
                code);
  }
  json answer = json::parse(r.body, nullptr, false);
  if (answer.is_discarded()) {
    return fail(call, Failure::kHttp,
                "judge answered HTTP 200 for " + x.label +
                    " with a body that is not JSON: " + r.body.substr(0, 200));
  }
  return answer;
}

Result<json> JudgeClient::give_up(Call& call, Exchange& x) {
  const OutagePolicy& policy = settings_.outage;
  if (x.waiting || policy.wait_s > 0) {
    x.event.kind = OutageEvent::Kind::kGaveUp;
    note_outage(x.event);
  }
  record_outage(x.event, x.transport_failure);
  if (x.transport_failure) {
    return fail(call, Failure::kTransport,
                "judge unreachable: " + x.event.error +
                    waited_note("waited ", x.event.waited_s, policy.wait_s));
  }
  // A judge that keeps saying "not now" is as unavailable as one that is not there.
  return fail(call, Failure::kTransport,
              "judge unavailable: it answered " + x.event.error + " for " + x.label +
                  x.refusal_note + waited_note("still after ", x.event.waited_s, policy.wait_s));
}

std::optional<Result<json>> JudgeClient::wait_out(Call& call, Exchange& x) {
  const OutagePolicy& policy = settings_.outage;
  for (;;) {
    x.event.waited_s = x.elapsed();
    if (x.event.waited_s >= policy.wait_s) return give_up(call, x);
    if (!x.waiting || SteadyClock::now() >= x.next_report) {
      x.event.kind = OutageEvent::Kind::kWaiting;
      note_outage(x.event);
      x.waiting = true;
      x.next_report =
          SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                   std::chrono::duration<double>(policy.report_interval_s));
    }
    const double nap = std::min(x.backoff.next(x.at_least), policy.wait_s - x.event.waited_s);
    x.at_least = 0;
    if (!pause(nap, call.cancel)) {
      clear_outage_note();
      return fail(call, Failure::kTransport, "judge request cancelled while the judge was down");
    }
    // Any answer but a transient one means the judge is there (a server without /health
    // answers 404): try the request again.
    auto probe = transport_("GET", x.base + "/health", "", {}, call.cancel);
    if (probe && !transient_status(probe->status)) {
      // Reported now, not when the request is answered (a grade takes its time); a failure of
      // the try reports the outage again, on the same clock.
      x.event.kind = OutageEvent::Kind::kRecovered;
      x.event.waited_s = x.elapsed();
      note_outage(x.event);
      x.waiting = false;
      return std::nullopt;
    }
    if (call.cancel && call.cancel->cancelled()) {
      clear_outage_note();
      return fail(call, Failure::kTransport, "judge request cancelled while the judge was down");
    }
    if (!probe) {
      x.event.error = probe.error().message;
      x.transport_failure = true;
    } else {
      x.event.error = "GET /health answered HTTP " + std::to_string(probe->status);
      x.transport_failure = false;
      x.at_least = retry_after_s(*probe);
    }
  }
}

Result<json> JudgeClient::task(const std::string& kernel, const std::string& language,
                               const std::string& preset, const std::string& precision,
                               const CancelToken* cancel) {
  Call call = begin(cancel);
  if (kernel.empty()) return fail(call, Failure::kLocal, "no kernel: pass one or set KERNEL");
  return get(call, "/task/" + percent_encode(kernel) +
                       query({{"language", language},
                              {"preset", preset},
                              {"precision", precision},
                              {"rank", std::to_string(settings_.rank)}}));
}

Result<json> JudgeClient::baseline(const std::string& kernel, const std::string& language,
                                   const std::string& preset, const std::string& precision,
                                   const CancelToken* cancel) {
  Call call = begin(cancel);
  if (kernel.empty()) return fail(call, Failure::kLocal, "no kernel: pass one or set KERNEL");
  return get(call, "/baseline/" + percent_encode(kernel) +
                       query({{"language", language},
                              {"preset", preset},
                              {"precision", precision},
                              {"rank", std::to_string(settings_.rank)}}));
}

Result<std::string> JudgeClient::grade_body(Call& call, const Submission& s,
                                            const std::string& library) {
  if (settings_.url.empty())
    return fail(call, Failure::kLocal, "no judge URL: set JUDGE_URL or pass --url").error();
  if (s.kernel.empty())
    return fail(call, Failure::kLocal, "no kernel: pass one or set KERNEL").error();
  if (library.empty() && s.source.empty())
    return fail(call, Failure::kLocal, "the source is empty").error();
  json body = {
      {"kernel", s.kernel},
      {"language", s.language.empty() ? "c" : s.language},
      {"rank", settings_.rank},
      {library.empty() ? "source" : "library", library.empty() ? s.source : library},
      {"build", json::array()},
      {"workspace_bytes", nullptr},
      {"preset", s.preset.empty() ? json(nullptr) : json(s.preset)},
      {"residency", settings_.residency.empty() ? json(nullptr) : json(settings_.residency)},
      {"run_id", settings_.run_id},
      {"optimizer", settings_.optimizer},
      {"tokens", nullptr}};
  // After the local checks, so a call that sends nothing asks nothing either. Fetched once per
  // call: every retry sends the same bytes.
  if (auto tokens = tokens_used()) body["tokens"] = *tokens;
  if (!s.precision.empty()) body["precision"] = s.precision;
  return body.dump();
}

Result<json> JudgeClient::score(const Submission& s, const CancelToken* cancel) {
  Call call = begin(cancel);
  auto body = grade_body(call, s, "");
  if (!body) return body.error();
  auto r = exchange(call, "POST", "/score", *body, "/score", " (nothing was graded)");
  if (r) record_grade("score", s, *r);
  return r;
}

Result<json> JudgeClient::syntax_check(const Submission& s, const CancelToken* cancel) {
  Call call = begin(cancel);
  auto body = grade_body(call, s, "");
  if (!body) return body.error();
  return exchange(call, "POST", "/syntax-check", *body, "/syntax-check", " (nothing was built)");
}

Result<json> JudgeClient::profile(const Submission& s, const CancelToken* cancel) {
  Call call = begin(cancel);
  auto body = grade_body(call, s, "");
  if (!body) return body.error();
  return exchange(call, "POST", "/profile", *body, "/profile", " (nothing was run)");
}

Result<json> JudgeClient::search(const std::string& query, const CancelToken* cancel) {
  Call call = begin(cancel);
  if (settings_.search_url.empty()) {
    return fail(call, Failure::kLocal,
                "this run has no search tool (HPCAB_SEARCH_URL is unset: the arm's TOOLS has no "
                "search)");
  }
  HttpOptions options;
  options.cancel = cancel;
  auto r =
      http_request("POST", settings_.search_url, json{{"query", query}}.dump(),
                   {{"Content-Type", "application/json"}}, settings_.search_timeout_s, options);
  if (!r) return fail(call, Failure::kTransport, "search: " + r.error().message);
  const json j = json::parse(r->body, nullptr, /*allow_exceptions=*/false);
  if (r->status == 200 && j.is_object()) return j;
  std::string code, message = "HTTP " + std::to_string(r->status);
  if (j.is_object() && j.contains("error") && j["error"].is_object()) {
    const json& e = j["error"];
    if (e.contains("code") && e["code"].is_string()) code = e["code"].get<std::string>();
    if (e.contains("message") && e["message"].is_string())
      message = e["message"].get<std::string>();
  }
  return fail(call, Failure::kHttp,
              "search refused: " + message + (code.empty() ? "" : " (" + code + ")"), code);
}

Result<json> JudgeClient::submit(const Submission& s, const CancelToken* cancel) {
  Call call = begin(cancel);
  return submit_impl(call, s, "");
}

void JudgeClient::record_grade(const std::string& route, const Submission& s, const json& grade) {
  // Where the harness asked for it (HPCAB_TOOL_STATE). Every graded submit, any policy: the last
  // line of submissions.jsonl is the episode's final submission (docs/harness.md). A grade the
  // judge's machinery failed (harness_fault) is no answer: it goes to faults.jsonl, which makes
  // an episode without a graded submission an infrastructure failure.
  if (settings_.state_dir.empty() || !grade.is_object()) return;
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  if (grade.value("harness_fault", false) == true) {
    append_line(fs::path(settings_.state_dir) / kFaultsFile,
                {{"run_id", settings_.run_id},
                 {"kernel", s.kernel},
                 {"route", route},
                 {"verdict", grade.value("verdict", json(nullptr))},
                 {"fault", grade.value("fault", json(nullptr))},
                 {"time", now}});
    return;
  }
  if (route != "submit") return;
  append_line(fs::path(settings_.state_dir) / kSubmissionsFile,
              {{"run_id", settings_.run_id},
               {"kernel", s.kernel},
               {"verdict", grade.value("verdict", json(nullptr))},
               {"submission_id", grade.value("submission_id", json(nullptr))},
               {"speedup", grade.value("speedup", json(nullptr))},
               {"replayed", grade.value("replayed", false)},
               {"time", now}});
}

Result<json> JudgeClient::score_library(const Submission& s, const std::string& library_path) {
  Call call = begin(nullptr);
  if (library_path.empty()) return fail(call, Failure::kLocal, "no library path");
  auto body = grade_body(call, s, library_path);
  if (!body) return body.error();
  auto r = exchange(call, "POST", "/score", *body, "/score", " (nothing was graded)");
  if (r) record_grade("score", s, *r);
  return r;
}

Result<json> JudgeClient::submit_library(const Submission& s, const std::string& library_path) {
  Call call = begin(nullptr);
  if (library_path.empty()) return fail(call, Failure::kLocal, "no library path");
  return submit_impl(call, s, library_path);
}

Result<json> JudgeClient::submit_impl(Call& call, const Submission& s, const std::string& library) {
  if (settings_.single_submission) return submit_single(call, s, library);
  // Every submit is a new submission with a new key; its retries share it, so a retry after a
  // connection broke behind the judge's back gets the recorded grade instead of a second one.
  auto body = grade_body(call, s, library);
  if (!body) return body.error();
  auto r = exchange(call, "POST", "/submit", *body, "/submit", " (nothing was graded)",
                    {{"Idempotency-Key", new_idempotency_key(settings_.run_id)}});
  if (r) record_grade("submit", s, *r);
  return r;
}

Result<json> JudgeClient::submit_single(Call& call, const Submission& s,
                                        const std::string& library) {
  // Checked before anything is written, so a call that could never be sent does not touch the
  // run's submission.
  auto fresh_body = grade_body(call, s, library);
  if (!fresh_body) return fresh_body.error();
  const std::string marker = submission_marker();
  auto lock = SubmitLock::acquire(marker + ".lock", call.cancel);
  if (!lock) {
    return fail(call,
                call.cancel && call.cancel->cancelled() ? Failure::kTransport : Failure::kLocal,
                lock.error().message);
  }
  auto refuse = [&](const std::string& why) {
    std::ifstream in(marker);
    std::string previous((std::istreambuf_iterator<char>(in)), {});
    while (!previous.empty() && previous.back() == '\n') previous.pop_back();
    return fail(call, Failure::kPolicy,
                "submission refused: this run (RUN_ID '" + settings_.run_id +
                    "') has already submitted once and the submission policy is 'single'" + why +
                    ". Use score to evaluate further versions; only the first submit is graded. "
                    "(marker " +
                    marker + (previous.empty() ? "" : ": " + previous) + ")");
  };
  std::error_code ec;
  if (fs::exists(marker, ec)) return refuse("");

  // A submit of this run whose answer never arrived (the tool died, or gave up after the
  // request had left): send it again under its own key first. The judge answers with the grade
  // it recorded, waits for the one in flight, or grades it now if it never had it.
  const json identity = submission_identity(s, library);
  std::string body = *fresh_body, key;
  bool recovering = false;
  {
    std::ifstream in(pending_submission());
    const json p = json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (p.is_object() && p.value("key", "") != "" && p.value("body", "") != "") {
      key = p["key"].get<std::string>();
      body = p["body"].get<std::string>();
      recovering = p.value("identity", json()) != identity;
    }
  }
  if (key.empty()) {
    key = new_idempotency_key(settings_.run_id);
    const json p = {{"key", key}, {"identity", identity}, {"body", body}};
    if (!write_atomically(pending_submission(), p.dump())) {
      return fail(call, Failure::kLocal,
                  "cannot write the pending submission " + pending_submission() + ": " +
                      std::strerror(errno));
    }
  }
  auto r = exchange(call, "POST", "/submit", body, "/submit", " (nothing was graded)",
                    {{"Idempotency-Key", key}});
  const bool fault = r && r->is_object() && r->value("harness_fault", false) == true;
  if (r && !fault) {
    // A grade: the run has submitted. The marker records it for a human; its existence alone
    // is the record.
    json record = {
        {"run_id", settings_.run_id},
        {"kernel", s.kernel},
        {"verdict", r->value("verdict", json(nullptr))},
        {"submission_id", r->value("submission_id", json(nullptr))},
        {"time", std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
                     .count()}};
    if (!write_atomically(marker, record.dump() + "\n")) {
      return fail(call, Failure::kLocal,
                  "graded (submission " + r->value("submission_id", json(nullptr)).dump() +
                      "), but the marker " + marker +
                      " cannot be written: " + std::strerror(errno));
    }
  }
  if (r || !call.maybe_received) {
    // Answered (graded, a judge fault, or refused with a 4xx/5xx), or never reached the judge:
    // nothing is pending any more. A judge fault or a refusal leaves the run its submission.
    fs::remove(pending_submission(), ec);
  }
  if (r) record_grade("submit", s, *r);
  if (r && !fault && recovering) {
    return refuse("; its earlier submit, whose answer had been lost, is now graded (verdict " +
                  r->value("verdict", json(nullptr)).dump() + ", submission " +
                  r->value("submission_id", json(nullptr)).dump() +
                  "), and this different source was not sent");
  }
  return r;
}

std::optional<std::string> language_from_extension(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".c") return "c";
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C" || ext == ".c++") return "cpp";
  if (ext == ".f" || ext == ".f90" || ext == ".f95" || ext == ".f03" || ext == ".F90" ||
      ext == ".F")
    return "fortran";
  if (ext == ".cu") return "cuda";
  if (ext == ".hip") return "hip";
  if (ext == ".py") return "python";
  return std::nullopt;
}

Result<std::string> read_source_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return Error{"cannot read source file '" + path + "'"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open source file '" + path + "': " + std::strerror(errno)};
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace hpcab::harness
