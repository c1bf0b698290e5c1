// The agent tools' judge client (SPEC §6): task, baseline, score and submit against one judge,
// adding rank, run id and optimizer to every request and the episode's token count (read from
// the metering proxy) to each score and submit, and enforcing the single-submission policy
// locally. Shared by the `hpcab-tool` command line, its stdio MCP server, the built-ins and the
// daemon's own /task.
//
// Outages: a call whose judge is unreachable or answers 429/502/503/504 is retried
// with backoff and a GET /health probe for up to JudgeSettings::outage.wait_s from the first
// failure (harness/outage.h). Every /submit carries an Idempotency-Key, the same on every retry
// of one submission and new for each new one, so a retry after a connection broke behind the
// judge's back returns the recorded grade instead of grading twice (docs/api.md). Under the
// single policy the marker is written only once a grade has been received.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/http_client.h"
#include "common/result.h"
#include "harness/outage.h"

namespace hpcab::harness {

using json = nlohmann::json;

// Where the client points and what it adds to each request. from_env() reads the variables the
// harness sets for an agent; flags may override any field afterwards.
struct JudgeSettings {
  std::string url;                  // JUDGE_URL, e.g. http://127.0.0.1:8800
  int rank = 0;                     // JUDGE_RANK
  std::string run_id;               // RUN_ID
  std::string optimizer = "agent";  // AGENT
  std::string token;                // JUDGE_TOKEN (bearer), or read from JUDGE_TOKEN_FILE
  std::string ca_file;              // JUDGE_CA_FILE (https)
  double timeout_s = 1800;          // HPCAB_TOOL_TIMEOUT: grading a submission can take minutes
  bool single_submission = false;   // HPCAB_SUBMISSION_POLICY=single
  std::string state_dir;            // HPCAB_TOOL_STATE, else the working directory
  // HPCAB_USAGE_URL: the metering proxy's usage endpoint (http://127.0.0.1:<port>/hpcab/usage).
  // When set, score and submit first GET it and send the episode's tokens so far (input +
  // cached + output) as the judge request's "tokens"; unset, or the fetch fails: null.
  std::string usage_url;
  // HPCAB_RESIDENCY (the arm's RESIDENCY): "host" or "device", sent as every score and
  // submit's "residency"; empty (unset): not sent, the judge's default (host).
  std::string residency;
  double usage_timeout_s = 2;  // the usage fetch; it must never hold up a score or submit
  // HPCAB_SEARCH_URL: the metering proxy's search endpoint (http://127.0.0.1:<port>/hpcab/search),
  // set by the harness for arms whose TOOLS has search; unset: search() refuses locally.
  std::string search_url;
  double search_timeout_s = 120;  // one search call (the proxy bounds the endpoint's own time)
  // HPCAB_OUTAGE_WAIT_S, HPCAB_OUTAGE_BACKOFF_MAX_S: how long a call waits out an unreachable or
  // overloaded judge before it fails (harness/outage.h).
  OutagePolicy outage;

  // Errors: a malformed JUDGE_RANK, policy, timeout or outage setting, or an unreadable token
  // file.
  static Result<JudgeSettings> from_env();
};

// One HTTP exchange; a fake in tests. Errors are transport failures only.
using Transport = std::function<Result<HttpResult>(
    const std::string& method, const std::string& url, const std::string& body)>;
// The same, abandoned when `cancel` (null: never) is cancelled; the real one passes it to
// http_request (HttpOptions::cancel).
using CancellableTransport =
    std::function<Result<HttpResult>(const std::string& method, const std::string& url,
                                     const std::string& body, const CancelToken* cancel)>;
// The same with request headers (the Idempotency-Key of a /submit); the real one.
using HeaderTransport = std::function<Result<HttpResult>(
    const std::string& method, const std::string& url, const std::string& body,
    const std::map<std::string, std::string>& headers, const CancelToken* cancel)>;

// GET of the proxy's usage endpoint; a fake in tests. The real one sends no judge credentials
// and gives up after JudgeSettings::usage_timeout_s.
using UsageFetch = std::function<Result<HttpResult>(const std::string& url)>;

// What failed in the last call that returned an error (the CLI maps it to its exit code).
enum class Failure {
  kNone,
  kLocal,      // bad arguments, unreadable file, no JUDGE_URL: nothing was sent
  kPolicy,     // refused by the single-submission policy: nothing was sent
  kTransport,  // no HTTP answer (refused, timeout, TLS), after waiting out the outage
  kHttp,       // the judge answered with a non-200 status (nothing graded)
};

// The files a run's submissions leave in JudgeSettings::state_dir (HPCAB_TOOL_STATE), beside the
// single-policy marker; the daemon reads them when an attempt ends (docs/harness.md).
inline constexpr const char* kSubmissionsFile = "submissions.jsonl";  // every graded submit
inline constexpr const char* kOutagesFile = "outages.jsonl";          // calls that gave up
inline constexpr const char* kFaultsFile = "faults.jsonl";  // grades that were judge faults

struct Submission {
  std::string kernel;
  std::string language = "c";
  std::string source;
  std::string preset;     // empty: the judge's default
  std::string precision;  // empty: fp64
};

class JudgeClient {
 public:
  // `transport` and `usage` empty: real HTTP(S) through common/http_client.h. A plain
  // Transport cannot be interrupted: a cancelled call then ends when its exchange does.
  explicit JudgeClient(JudgeSettings settings, Transport transport = {}, UsageFetch usage = {});
  JudgeClient(JudgeSettings settings, CancellableTransport transport, UsageFetch usage = {});
  JudgeClient(JudgeSettings settings, HeaderTransport transport, UsageFetch usage = {});

  // Every call may be given a `cancel` token (null: none; not owned, it must outlive the call).
  // Cancelling it abandons the judge request in flight (its connection is closed) or the wait
  // for a judge that is down, and the call fails as a transport failure; what the judge did with
  // a request it already had is unknown, so under the single policy a cancelled submit stays
  // pending and the run's next submit first asks for its grade. The client is safe to use from
  // several threads at once (the MCP server runs each tool call on its own thread).
  Result<json> task(const std::string& kernel, const std::string& language,
                    const std::string& preset = "", const std::string& precision = "",
                    const CancelToken* cancel = nullptr);
  Result<json> baseline(const std::string& kernel, const std::string& language,
                        const std::string& preset = "", const std::string& precision = "",
                        const CancelToken* cancel = nullptr);
  Result<json> score(const Submission& s, const CancelToken* cancel = nullptr);
  // POST /syntax-check: s built with the judge's flags, nothing run or recorded (docs/api.md).
  Result<json> syntax_check(const Submission& s, const CancelToken* cancel = nullptr);
  // POST /profile: s run once on a public draw with the judge's profiler attached (counters,
  // hotspots, roofline); nothing recorded (docs/api.md).
  Result<json> profile(const Submission& s, const CancelToken* cancel = nullptr);
  // The search tool (harness/search.h): POST {"query"} to settings().search_url. The answer
  // {"query", "results": [{title, url, snippet}], "dropped"}; a refusal (no search in this arm,
  // the episode's queries spent, the endpoint down) is Failure::kHttp with the proxy's code
  // (search_disabled, search_limit, search_upstream_error, bad_request), and no search_url is
  // Failure::kLocal. Nothing reaches the judge.
  Result<json> search(const std::string& query, const CancelToken* cancel = nullptr);
  // With the single policy, a second submit in the same run is refused before any request. A
  // submit whose answer was lost (the tool died, or gave up on an outage after the request had
  // left) stays pending in the state dir: the run's next submit resends it with its key first,
  // so the judge answers with the grade it recorded (or grades it now), and returns that grade
  // when it is the same submission, else refuses the new one (the run has submitted).
  Result<json> submit(const Submission& s, const CancelToken* cancel = nullptr);
  // A prebuilt shared library instead of source (the judge's `library` field; s.source is
  // ignored): `library_path` must name a file inside the judge's --shared-dir, and the judge must
  // run with --input-mode library or any. The same policy applies as for submit.
  Result<json> score_library(const Submission& s, const std::string& library_path);
  Result<json> submit_library(const Submission& s, const std::string& library_path);

  // Of the call that returned last; with calls on several threads, racy: a caller on another
  // thread may overwrite it (the MCP server does not read it).
  Failure last_failure() const {
    std::lock_guard lock(mu_);
    return last_failure_;
  }
  // The judge's `code` for the refusal that ended the call that returned last
  // (Failure::kHttp; docs/api.md "Error codes", e.g. "unknown_kernel"), "" for any other end.
  // Racy across threads as last_failure() is.
  std::string last_error_code() const {
    std::lock_guard lock(mu_);
    return last_error_code_;
  }
  const JudgeSettings& settings() const { return settings_; }
  // The marker that records this run's submission under the single policy.
  std::string submission_marker() const;
  // The single policy's record of a submit sent without an answer received yet.
  std::string pending_submission() const;
  // Called (from the calling thread) when a call starts waiting out an outage, every
  // outage.report_interval_s while it waits, and when it recovers or gives up. Set before use.
  void set_outage_observer(OutageObserver observer) { observer_ = std::move(observer); }
  // What an outage that a call is waiting out looks like now (outage_line() text), '' when none:
  // the MCP server puts it in its progress notifications.
  std::string outage_note() const {
    std::lock_guard lock(mu_);
    return outage_note_;
  }
  // The episode's tokens so far (input + cached + output) from settings().usage_url; nullopt
  // when it is unset, unreachable, not 200, or not a usage document with those three
  // non-negative integers.
  std::optional<std::int64_t> tokens_used();

 private:
  // One public call's own state: its cancel token and how it failed, so that concurrent calls
  // never see each other's failure (submit_impl decides on the marker from it).
  struct Call {
    const CancelToken* cancel = nullptr;
    Failure failure = Failure::kNone;
    // A try failed after its request had started to leave: the judge may have it.
    bool maybe_received = false;
  };
  Result<json> get(Call& call, const std::string& path_and_query);
  // One request and its answer, waiting out an outage (transport failures and transient
  // statuses) for up to settings().outage.wait_s: a transport failure, a non-200 status (the
  // judge's `error` text, `label` and `refusal_note` in the message) or a non-JSON body is a
  // failure. `headers` go with every try.
  Result<json> exchange(Call& call, const std::string& method, const std::string& path,
                        const std::string& body, const std::string& label,
                        const std::string& refusal_note,
                        const std::map<std::string, std::string>& headers = {});
  // One exchange's state across its tries (judge_client.cc).
  struct Exchange;
  // The call's result from a final (non-transient) answer.
  Result<json> final_answer(Call& call, Exchange& x, const HttpResult& r);
  // Waits out an outage, probing GET /health, until the judge answers (nullopt: try again) or
  // the outage wait is spent or the call is cancelled (the call's failure).
  std::optional<Result<json>> wait_out(Call& call, Exchange& x);
  // The failure of a call whose outage wait is spent.
  Result<json> give_up(Call& call, Exchange& x);
  // The body of a score or submit; `library` non-empty: send it as `library` instead of source.
  Result<std::string> grade_body(Call& call, const Submission& s, const std::string& library);
  Result<json> submit_impl(Call& call, const Submission& s, const std::string& library);
  Result<json> submit_single(Call& call, const Submission& s, const std::string& library);
  // Appends a graded submit to HPCAB_TOOL_STATE/submissions.jsonl (the harness reads the last),
  // or a judge fault to faults.jsonl.
  void record_grade(const std::string& route, const Submission& s, const json& grade);
  // Appends a call that gave up on an outage to HPCAB_TOOL_STATE/outages.jsonl.
  void record_outage(const OutageEvent& e, bool transport);
  // Tells the observer and keeps outage_note() current.
  void note_outage(const OutageEvent& e);
  void clear_outage_note();
  // Records `kind` (and the judge's error `code`, for kHttp) as the call's and the client's
  // last failure.
  Result<json> fail(Call& call, Failure kind, std::string message, std::string code = "");
  // Starts a public call: clears the last failure.
  Call begin(const CancelToken* cancel);

  JudgeSettings settings_;
  HeaderTransport transport_;
  UsageFetch usage_;
  OutageObserver observer_;
  mutable std::mutex mu_;  // last_failure_, last_error_code_, outage_note_
  Failure last_failure_ = Failure::kNone;
  std::string last_error_code_;
  std::string outage_note_;
};

// The Idempotency-Key of a new submission of `run_id`: "hpcab:<16 random hex>:<run id>", the run
// id's characters outside [A-Za-z0-9._:-] as '_' and cut to fit 128 characters (docs/api.md).
std::string new_idempotency_key(const std::string& run_id);

// "c" for .c, "cpp" for .cpp/.cc/.cxx/.C, "fortran" for .f/.f90/.f95/.f03/.F90, "cuda" for .cu,
// "hip" for .hip, "python" for .py; nullopt else.
std::optional<std::string> language_from_extension(const std::string& path);

// The whole file, or an error naming it.
Result<std::string> read_source_file(const std::string& path);

}  // namespace hpcab::harness
