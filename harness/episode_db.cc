// The episode database on the project's SQLite layer (common/db.h); harness/schema.h names the
// tables and columns other components read. Contracts (as judge/store/store.cc):
//  - every value is a bound parameter of a prepared statement; SQL text is constants only;
//  - every multi-statement change is one BEGIN IMMEDIATE ... COMMIT transaction, so after
//    kill -9 a reader sees all of it or none (WAL recovery stops at the last commit);
//  - schema changes are appended migrations, each committed with its PRAGMA user_version bump.
#include "harness/episode_db.h"

#include <cstdio>
#include <filesystem>
#include <iterator>
#include <limits>
#include <mutex>
#include <optional>
#include <string_view>

#include "common/db.h"
#include "harness/schema.h"

namespace hpcab::harness {
namespace {

constexpr int kBusyTimeoutMs = 10'000;

constexpr db::Migration kMigrations[] = {
    {1, "initial schema", R"sql(
CREATE TABLE episodes (
  id TEXT PRIMARY KEY,                   -- '<arm>/<kernel>/<repetition>'
  arm TEXT NOT NULL,
  kernel TEXT NOT NULL,
  repetition INTEGER NOT NULL,           -- 0-based
  seq INTEGER NOT NULL,                  -- position in the arm's queue order
  worker INTEGER,                        -- worker of the last attempt
  attempt INTEGER NOT NULL DEFAULT 0,    -- claims so far
  inference_url TEXT NOT NULL DEFAULT '',
  judge_url TEXT NOT NULL DEFAULT '',
  rank INTEGER,                          -- judge rank sent on every request (worker % J)
  started_at REAL,                       -- unix seconds (UTC), last attempt
  ended_at REAL,
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'running', 'finished', 'interrupted', 'failed')),
  exit_reason TEXT NOT NULL DEFAULT '',
  exit_code INTEGER,                     -- 124 wall, 125 tokens, 126 context, agent's otherwise
  input_tokens INTEGER NOT NULL DEFAULT 0,   -- totals over every attempt
  cached_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  weighted_tokens REAL NOT NULL DEFAULT 0,
  requests INTEGER NOT NULL DEFAULT 0,
  budget_factor REAL NOT NULL DEFAULT 1, -- LIMIT_RERUN_FACTOR on the limit rerun
  limit_reruns INTEGER NOT NULL DEFAULT 0,
  final_submission_id INTEGER,           -- the judge's submission_id of the answer
  final_verdict TEXT NOT NULL DEFAULT ''
);
CREATE INDEX episodes_queue ON episodes (arm, status, seq);

CREATE TABLE requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  episode_id TEXT NOT NULL REFERENCES episodes (id),
  at REAL NOT NULL,                      -- unix seconds (UTC)
  model TEXT NOT NULL,
  route TEXT NOT NULL,
  input INTEGER NOT NULL,                -- uncached input tokens
  cached INTEGER NOT NULL,               -- cached input tokens
  output INTEGER NOT NULL,
  latency_ms REAL NOT NULL,
  status INTEGER NOT NULL                -- HTTP status returned to the agent
);
CREATE INDEX requests_episode ON requests (episode_id);
)sql"},
    {2, "arms: each arm's setup, for research outputs", R"sql(
CREATE TABLE arms (
  name TEXT PRIMARY KEY,
  agent TEXT NOT NULL,
  model TEXT NOT NULL,
  language TEXT NOT NULL,
  setup_json TEXT NOT NULL,              -- every setting of the arm, as JSON (docs/harness.md)
  arm_file TEXT NOT NULL,                -- the path it was loaded from
  arm_text TEXT NOT NULL,                -- the arm file's text, verbatim
  prompt_text TEXT NOT NULL,             -- the prompt template ('' = the built-in one)
  first_run_at REAL NOT NULL,            -- unix seconds (UTC) of the first daemon run
  last_run_at REAL NOT NULL              -- and of the latest
);
)sql"},
    // SQLite cannot change a CHECK constraint in place, and with foreign keys on (every
    // connection) `episodes` cannot be dropped while `requests` rows refer to it: both tables are
    // rebuilt, the new `requests` referring to the new `episodes`, which the renames then give
    // their old names (ALTER TABLE RENAME rewrites the reference).
    {3, "episodes: infra_failed status, infrastructure failure counts", R"sql(
CREATE TABLE episodes_v3 (
  id TEXT PRIMARY KEY,
  arm TEXT NOT NULL,
  kernel TEXT NOT NULL,
  repetition INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  worker INTEGER,
  attempt INTEGER NOT NULL DEFAULT 0,
  inference_url TEXT NOT NULL DEFAULT '',
  judge_url TEXT NOT NULL DEFAULT '',
  rank INTEGER,
  started_at REAL,
  ended_at REAL,
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'running', 'finished', 'interrupted', 'failed', 'infra_failed')),
  exit_reason TEXT NOT NULL DEFAULT '',
  exit_code INTEGER,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  cached_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  weighted_tokens REAL NOT NULL DEFAULT 0,
  requests INTEGER NOT NULL DEFAULT 0,
  budget_factor REAL NOT NULL DEFAULT 1,
  limit_reruns INTEGER NOT NULL DEFAULT 0,
  final_submission_id INTEGER,
  final_verdict TEXT NOT NULL DEFAULT '',
  infra_failures INTEGER NOT NULL DEFAULT 0, -- attempts ended by the infrastructure, all runs
  infra_requeues INTEGER NOT NULL DEFAULT 0  -- of those, handed out again by this daemon run
);
INSERT INTO episodes_v3 (id, arm, kernel, repetition, seq, worker, attempt, inference_url,
  judge_url, rank, started_at, ended_at, status, exit_reason, exit_code, input_tokens,
  cached_tokens, output_tokens, weighted_tokens, requests, budget_factor, limit_reruns,
  final_submission_id, final_verdict)
SELECT id, arm, kernel, repetition, seq, worker, attempt, inference_url, judge_url, rank,
  started_at, ended_at, status, exit_reason, exit_code, input_tokens, cached_tokens,
  output_tokens, weighted_tokens, requests, budget_factor, limit_reruns, final_submission_id,
  final_verdict FROM episodes;
CREATE TABLE requests_v3 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  episode_id TEXT NOT NULL REFERENCES episodes_v3 (id),
  at REAL NOT NULL,
  model TEXT NOT NULL,
  route TEXT NOT NULL,
  input INTEGER NOT NULL,
  cached INTEGER NOT NULL,
  output INTEGER NOT NULL,
  latency_ms REAL NOT NULL,
  status INTEGER NOT NULL
);
INSERT INTO requests_v3 SELECT * FROM requests;
DROP TABLE requests;
DROP TABLE episodes;
ALTER TABLE episodes_v3 RENAME TO episodes;
ALTER TABLE requests_v3 RENAME TO requests;
CREATE INDEX episodes_queue ON episodes (arm, status, seq);
CREATE INDEX requests_episode ON requests (episode_id);
)sql"},
    // Rows written before: a request with tokens had them from the server's usage; one without
    // had none to count (the proxy did not count then).
    {4, "token counts' source: reported by the server, counted or estimated by the proxy", R"sql(
ALTER TABLE requests ADD COLUMN tokens_source TEXT NOT NULL DEFAULT 'reported'
  CHECK (tokens_source IN ('none', 'reported', 'counted', 'estimated'));
UPDATE requests SET tokens_source = 'none' WHERE input = 0 AND cached = 0 AND output = 0;
ALTER TABLE episodes ADD COLUMN reported_requests INTEGER NOT NULL DEFAULT 0;
ALTER TABLE episodes ADD COLUMN counted_requests INTEGER NOT NULL DEFAULT 0;
ALTER TABLE episodes ADD COLUMN estimated_requests INTEGER NOT NULL DEFAULT 0;
UPDATE episodes SET reported_requests = (SELECT count(*) FROM requests
  WHERE requests.episode_id = episodes.id AND requests.tokens_source = 'reported');
)sql"},
    {5, "the search tool's queries and what they returned", R"sql(
CREATE TABLE searches (
  id INTEGER PRIMARY KEY,
  episode_id TEXT NOT NULL REFERENCES episodes (id),
  at REAL NOT NULL,
  query TEXT NOT NULL,
  status INTEGER NOT NULL,
  error_code TEXT NOT NULL,
  results_json TEXT NOT NULL,
  kept INTEGER NOT NULL,
  dropped INTEGER NOT NULL,
  latency_ms REAL NOT NULL
);
CREATE INDEX searches_episode ON searches (episode_id);
ALTER TABLE episodes ADD COLUMN searches INTEGER NOT NULL DEFAULT 0;
)sql"},
};

Error closed_error() { return Error{"episode db: the database is closed"}; }

using Query = db::Query;

constexpr const char* kRecordArm = R"sql(
INSERT INTO arms (name, agent, model, language, setup_json, arm_file, arm_text, prompt_text,
                  first_run_at, last_run_at)
VALUES (:name, :agent, :model, :language, :setup_json, :arm_file, :arm_text, :prompt_text,
        :now, :now)
ON CONFLICT (name) DO UPDATE SET agent = excluded.agent, model = excluded.model,
  language = excluded.language, setup_json = excluded.setup_json, arm_file = excluded.arm_file,
  arm_text = excluded.arm_text, prompt_text = excluded.prompt_text, last_run_at = excluded.last_run_at
)sql";

constexpr const char* kInsertEpisode = R"sql(
INSERT INTO episodes (id, arm, kernel, repetition, seq)
VALUES (:id, :arm, :kernel, :repetition, :seq)
ON CONFLICT (id) DO NOTHING
)sql";

// Interrupted episodes go first (they were already running once), then queued ones, then those
// an infrastructure failure ended that this daemon run may still hand out again; plan order
// within each.
constexpr const char* kNextWaiting = R"sql(
SELECT id FROM episodes
WHERE arm = :arm AND seq % :shards = :shard AND (status IN ('interrupted', 'queued')
  OR (status = 'infra_failed' AND infra_requeues < :max_requeues))
ORDER BY CASE status WHEN 'interrupted' THEN 0 WHEN 'queued' THEN 1 ELSE 2 END, seq LIMIT 1
)sql";

constexpr const char* kClaim = R"sql(
UPDATE episodes SET status = 'running', worker = :worker, attempt = attempt + 1,
  inference_url = :inference_url, judge_url = :judge_url, rank = :rank, started_at = :now,
  ended_at = NULL, exit_reason = '', exit_code = NULL,
  infra_requeues = infra_requeues + (status = 'infra_failed')
WHERE id = :id AND (status IN ('interrupted', 'queued') OR status = 'infra_failed')
)sql";

constexpr const char* kInfraFail = R"sql(
UPDATE episodes SET status = 'infra_failed', ended_at = :now, exit_reason = :exit_reason,
  exit_code = :exit_code, final_submission_id = NULL, final_verdict = '',
  infra_failures = infra_failures + 1
WHERE id = :id AND status = 'running'
)sql";

constexpr const char* kEnd = R"sql(
UPDATE episodes SET status = :status, ended_at = :now, exit_reason = :exit_reason,
  exit_code = :exit_code, final_submission_id = :final_submission_id,
  final_verdict = :final_verdict
WHERE id = :id AND status = 'running'
)sql";

constexpr const char* kRequeue = R"sql(
UPDATE episodes SET status = 'queued', ended_at = :now, exit_reason = :exit_reason,
  exit_code = :exit_code, budget_factor = :factor, limit_reruns = limit_reruns + 1
WHERE id = :id AND status = 'running' AND limit_reruns = 0
)sql";

constexpr const char* kInsertRequest = R"sql(
INSERT INTO requests (episode_id, at, model, route, input, cached, output, latency_ms, status,
  tokens_source)
VALUES (:episode_id, :at, :model, :route, :input, :cached, :output, :latency_ms, :status,
  :tokens_source)
)sql";

constexpr const char* kAddUsage = R"sql(
UPDATE episodes SET input_tokens = input_tokens + :input, cached_tokens = cached_tokens + :cached,
  output_tokens = output_tokens + :output, weighted_tokens = weighted_tokens + :weighted,
  requests = requests + 1, reported_requests = reported_requests + (:source = 'reported'),
  counted_requests = counted_requests + (:source = 'counted'),
  estimated_requests = estimated_requests + (:source = 'estimated')
WHERE id = :id
)sql";

constexpr const char* kInsertSearch = R"sql(
INSERT INTO searches (episode_id, at, query, status, error_code, results_json, kept, dropped,
  latency_ms)
VALUES (:episode_id, :at, :query, :status, :error_code, :results_json, :kept, :dropped,
  :latency_ms)
)sql";

constexpr const char* kCountSearch = R"sql(
UPDATE episodes SET searches = searches + 1 WHERE id = :id
)sql";

constexpr const char* kListSearches = R"sql(
SELECT at, query, status, error_code, results_json, kept, dropped, latency_ms FROM searches
WHERE episode_id = :episode_id ORDER BY id
)sql";

constexpr const char* kResume = R"sql(
UPDATE episodes SET status = 'interrupted', ended_at = :now, exit_reason = 'daemon_died',
  exit_code = NULL
WHERE arm = :arm AND status = 'running'
)sql";

// A new daemon run gives every infrastructure failure its requeues again.
constexpr const char* kResetInfraRequeues = R"sql(
UPDATE episodes SET infra_requeues = 0 WHERE arm = :arm AND infra_requeues != 0
)sql";

constexpr const char* kCounts = R"sql(
SELECT
  coalesce(sum(status = 'queued'), 0) AS queued,
  coalesce(sum(status = 'interrupted'), 0) AS interrupted,
  coalesce(sum(status = 'running'), 0) AS running,
  coalesce(sum(status = 'finished'), 0) AS finished,
  coalesce(sum(status = 'failed'), 0) AS failed,
  coalesce(sum(status = 'infra_failed'), 0) AS infra_failed,
  coalesce(sum(input_tokens), 0) AS input_tokens,
  coalesce(sum(cached_tokens), 0) AS cached_tokens,
  coalesce(sum(output_tokens), 0) AS output_tokens,
  coalesce(sum(weighted_tokens), 0) AS weighted_tokens,
  coalesce(sum(requests), 0) AS requests,
  coalesce(sum(counted_requests), 0) AS counted_requests,
  coalesce(sum(estimated_requests), 0) AS estimated_requests
FROM episodes WHERE arm = :arm AND seq % :shards = :shard
)sql";

constexpr const char* kSelectEpisode = "SELECT * FROM episodes WHERE id = :id";
constexpr const char* kListEpisodes =
    "SELECT * FROM episodes WHERE arm = :arm AND seq % :shards = :shard ORDER BY seq";
constexpr const char* kListRequests = R"sql(
SELECT * FROM requests WHERE episode_id = :episode_id ORDER BY id
)sql";

EpisodeRow read_row(Query& q) {
  EpisodeRow r;
  r.id = q.col_text("id");
  r.arm = q.col_text("arm");
  r.kernel = q.col_text("kernel");
  r.repetition = static_cast<int>(q.col_int("repetition"));
  r.seq = q.col_int("seq");
  if (auto w = q.col_opt_int("worker")) r.worker = static_cast<int>(*w);
  r.attempt = static_cast<int>(q.col_int("attempt"));
  r.inference_url = q.col_text("inference_url");
  r.judge_url = q.col_text("judge_url");
  if (auto k = q.col_opt_int("rank")) r.rank = static_cast<int>(*k);
  r.started_at = q.col_opt_real("started_at");
  r.ended_at = q.col_opt_real("ended_at");
  r.status = q.col_text("status");
  r.exit_reason = q.col_text("exit_reason");
  if (auto c = q.col_opt_int("exit_code")) r.exit_code = static_cast<int>(*c);
  r.input_tokens = q.col_int("input_tokens");
  r.cached_tokens = q.col_int("cached_tokens");
  r.output_tokens = q.col_int("output_tokens");
  r.weighted_tokens = q.col_real("weighted_tokens");
  r.requests = q.col_int("requests");
  r.budget_factor = q.col_real("budget_factor");
  r.limit_reruns = static_cast<int>(q.col_int("limit_reruns"));
  r.final_submission_id = q.col_opt_int("final_submission_id");
  r.final_verdict = q.col_text("final_verdict");
  r.infra_failures = static_cast<int>(q.col_int("infra_failures"));
  r.infra_requeues = static_cast<int>(q.col_int("infra_requeues"));
  r.reported_requests = q.col_int("reported_requests");
  r.counted_requests = q.col_int("counted_requests");
  r.estimated_requests = q.col_int("estimated_requests");
  return r;
}

}  // namespace

std::string tokens_source(int64_t reported, int64_t counted, int64_t estimated) {
  return schema::episodes::tokens_source_of(reported, counted, estimated);
}

std::string status_line(const EpisodeCounts& c) {
  char weighted[32];
  std::snprintf(weighted, sizeof weighted, "%.1f", c.weighted_tokens);
  std::string s = "done " + std::to_string(c.finished) + " | running " + std::to_string(c.running) +
                  " | queued " + std::to_string(c.waiting()) + " | failed " +
                  std::to_string(c.failed) + " | infra " + std::to_string(c.infra_failed) +
                  " | tokens " +
                  std::to_string(c.input_tokens + c.cached_tokens + c.output_tokens) +
                  " (weighted " + weighted + ", " + std::to_string(c.requests) + " requests";
  // Tokens the servers did not report are marked as the proxy's (docs/harness.md).
  if (c.counted_requests > 0) s += ", " + std::to_string(c.counted_requests) + " counted";
  if (c.estimated_requests > 0) s += ", " + std::to_string(c.estimated_requests) + " estimated";
  return s + ")";
}

struct EpisodeDb::Impl {
  std::mutex mu;
  std::optional<db::Connection> db;  // empty once closed
  int version = 0;

  // Runs `body` inside BEGIN IMMEDIATE ... COMMIT, rolling back on failure.
  template <typename T, typename F>
  Result<T> transaction(std::string_view what, F&& body) {
    auto tx = db->begin_immediate(what);
    if (!tx.ok()) return tx.error();
    Result<T> r = body();
    if (!r.ok()) return r;  // ~Transaction rolls back
    if (auto c = tx->commit(what); !c.ok()) return c.error();
    return r;
  }

  // Caller holds mu.
  Result<std::optional<EpisodeRow>> get(const std::string& id) {
    auto qr = db->query(kSelectEpisode);
    if (!qr.ok()) return qr.error();
    Query& q = *qr;
    q.text(":id", id);
    auto row = q.step("reading an episode");
    if (!row.ok()) return row.error();
    if (!*row) return std::optional<EpisodeRow>();
    EpisodeRow r = read_row(q);
    if (!q.column_error().empty()) return Error{"episode db: " + q.column_error()};
    return std::optional<EpisodeRow>(std::move(r));
  }

  // Caller holds mu. running -> `status` with the exit information.
  Status end(const char* status, const std::string& id, const ExitInfo& exit, double now) {
    if (!db) return closed_error();
    auto qr = db->query(kEnd);
    if (!qr.ok()) return qr.error();
    Query& q = *qr;
    q.text(":status", status);
    q.text(":id", id);
    q.real(":now", now);
    q.text(":exit_reason", exit.reason);
    q.integer(":exit_code", exit.code);
    q.opt_integer(":final_submission_id", exit.final_submission_id);
    q.text(":final_verdict", exit.final_verdict);
    if (auto s = q.run(std::string("marking ") + id + " " + status); !s.ok()) return s;
    if (db->changes() != 1) {
      return Error{"episode db: episode " + id + " is not running (cannot mark it " + status + ")"};
    }
    return Ok{};
  }
};

Result<std::unique_ptr<EpisodeDb>> EpisodeDb::open(const std::string& path) {
  std::unique_ptr<EpisodeDb> out(new EpisodeDb());
  out->impl_ = std::make_unique<Impl>();
  Impl& im = *out->impl_;
  if (path != ":memory:") {
    auto parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) return Error{"episode db: cannot create " + parent.string() + ": " + ec.message()};
  }
  db::Options options;
  options.owner = "episode db";
  options.busy_timeout_ms = kBusyTimeoutMs;
  auto conn = db::Connection::open(path, options);
  if (!conn.ok()) return conn.error();
  im.db.emplace(std::move(*conn));
  auto version = im.db->migrate(kMigrations, [&](int found, int latest) {
    return Error{"episode db: " + path + " has schema version " + std::to_string(found) +
                 ", newer than this harness knows (" + std::to_string(latest) + ")"};
  });
  if (!version.ok()) return Error{version.error().message + " [" + path + "]"};
  im.version = *version;
  return out;
}

EpisodeDb::~EpisodeDb() { close(); }

void EpisodeDb::close() {
  if (!impl_) return;
  std::lock_guard lock(impl_->mu);
  if (impl_->db) (void)impl_->db->close();
  impl_->db.reset();
}

int EpisodeDb::schema_version() const {
  std::lock_guard lock(impl_->mu);
  return impl_->version;
}

Status EpisodeDb::record_arm(const ArmRecord& a, double now) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kRecordArm);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  q.text(":name", a.name);
  q.text(":agent", a.agent);
  q.text(":model", a.model);
  q.text(":language", a.language);
  q.text(":setup_json", a.setup_json);
  q.text(":arm_file", a.arm_file);
  q.text(":arm_text", a.arm_text);
  q.text(":prompt_text", a.prompt_text);
  q.real(":now", now);
  return q.run("recording arm " + a.name);
}

Result<int64_t> EpisodeDb::enqueue(const std::vector<EpisodeSpec>& plan) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  return im.transaction<int64_t>("enqueueing the plan", [&]() -> Result<int64_t> {
    int64_t added = 0;
    for (const auto& e : plan) {
      auto qr = im.db->query(kInsertEpisode);
      if (!qr.ok()) return qr.error();
      Query& q = *qr;
      q.text(":id", e.id);
      q.text(":arm", e.arm);
      q.text(":kernel", e.kernel);
      q.integer(":repetition", e.repetition);
      q.integer(":seq", e.seq);
      if (auto s = q.run("enqueueing " + e.id); !s.ok()) return s.error();
      added += im.db->changes();
    }
    return added;
  });
}

Result<std::optional<EpisodeRow>> EpisodeDb::claim(const std::string& arm, const Pin& pin,
                                                   double now, const Shard& shard,
                                                   int max_infra_requeues) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  using Out = std::optional<EpisodeRow>;
  return im.transaction<Out>("claiming an episode", [&]() -> Result<Out> {
    std::string id;
    {
      auto qr = im.db->query(kNextWaiting);
      if (!qr.ok()) return qr.error();
      Query& q = *qr;
      q.text(":arm", arm);
      q.integer(":shards", shard.count);
      q.integer(":shard", shard.index);
      q.integer(":max_requeues", max_infra_requeues);
      auto row = q.step("finding the next episode");
      if (!row.ok()) return row.error();
      if (!*row) return Out();
      id = q.col_text("id");
    }
    {
      auto qr = im.db->query(kClaim);
      if (!qr.ok()) return qr.error();
      Query& q = *qr;
      q.text(":id", id);
      q.integer(":worker", pin.worker);
      q.text(":inference_url", pin.inference_url);
      q.text(":judge_url", pin.judge_url);
      q.integer(":rank", pin.rank);
      q.real(":now", now);
      if (auto s = q.run("claiming " + id); !s.ok()) return s.error();
    }
    return im.get(id);
  });
}

Status EpisodeDb::finish(const std::string& id, const ExitInfo& exit, double now) {
  std::lock_guard lock(impl_->mu);
  return impl_->end("finished", id, exit, now);
}

Status EpisodeDb::fail(const std::string& id, const ExitInfo& exit, double now) {
  std::lock_guard lock(impl_->mu);
  return impl_->end("failed", id, exit, now);
}

Status EpisodeDb::infra_fail(const std::string& id, const ExitInfo& exit, double now) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kInfraFail);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  q.text(":id", id);
  q.real(":now", now);
  q.text(":exit_reason", exit.reason);
  q.integer(":exit_code", exit.code);
  if (auto s = q.run("marking " + id + " infra_failed"); !s.ok()) return s;
  if (im.db->changes() != 1) {
    return Error{"episode db: episode " + id + " is not running (cannot mark it infra_failed)"};
  }
  return Ok{};
}

Result<bool> EpisodeDb::requeue_for_rerun(const std::string& id, const ExitInfo& exit,
                                          double factor, double now) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kRequeue);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  q.text(":id", id);
  q.real(":now", now);
  q.text(":exit_reason", exit.reason);
  q.integer(":exit_code", exit.code);
  q.real(":factor", factor);
  if (auto s = q.run("requeueing " + id + " for its limit rerun"); !s.ok()) return s.error();
  return im.db->changes() == 1;
}

Result<EpisodeRow> EpisodeDb::add_request(const std::string& episode_id, const RequestUsage& r,
                                          const TokenWeights& w) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  double weighted = static_cast<double>(r.input) * w.input +
                    static_cast<double>(r.cached) * w.cached +
                    static_cast<double>(r.output) * w.output;
  return im.transaction<EpisodeRow>("recording a request", [&]() -> Result<EpisodeRow> {
    {
      auto qr = im.db->query(kInsertRequest);
      if (!qr.ok()) return qr.error();
      Query& q = *qr;
      q.text(":episode_id", episode_id);
      q.real(":at", r.at);
      q.text(":model", r.model);
      q.text(":route", r.route);
      q.integer(":input", r.input);
      q.integer(":cached", r.cached);
      q.integer(":output", r.output);
      q.real(":latency_ms", r.latency_ms);
      q.integer(":status", r.status);
      q.text(":tokens_source", r.tokens_source);
      if (auto s = q.run("recording a request of " + episode_id); !s.ok()) return s.error();
    }
    {
      auto qr = im.db->query(kAddUsage);
      if (!qr.ok()) return qr.error();
      Query& q = *qr;
      q.text(":id", episode_id);
      q.integer(":input", r.input);
      q.integer(":cached", r.cached);
      q.integer(":output", r.output);
      q.real(":weighted", weighted);
      q.text(":source", r.tokens_source);
      if (auto s = q.run("adding usage to " + episode_id); !s.ok()) return s.error();
    }
    auto row = im.get(episode_id);
    if (!row.ok()) return row.error();
    if (!*row) return Error{"episode db: no episode " + episode_id};
    return **row;
  });
}

Result<int64_t> EpisodeDb::resume(const std::string& arm, double now) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kResume);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  q.text(":arm", arm);
  q.real(":now", now);
  if (auto s = q.run("interrupting the running episodes of " + arm); !s.ok()) return s.error();
  const int64_t interrupted = im.db->changes();
  auto rq = im.db->query(kResetInfraRequeues);
  if (!rq.ok()) return rq.error();
  rq->text(":arm", arm);
  if (auto s = rq->run("resetting the infrastructure requeues of " + arm); !s.ok()) {
    return s.error();
  }
  return interrupted;
}

Result<EpisodeCounts> EpisodeDb::counts(const std::string& arm, const Shard& shard) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kCounts);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  q.text(":arm", arm);
  q.integer(":shards", shard.count);
  q.integer(":shard", shard.index);
  auto row = q.step("counting episodes");
  if (!row.ok()) return row.error();
  EpisodeCounts c;
  c.queued = q.col_int("queued");
  c.interrupted = q.col_int("interrupted");
  c.running = q.col_int("running");
  c.finished = q.col_int("finished");
  c.failed = q.col_int("failed");
  c.infra_failed = q.col_int("infra_failed");
  c.input_tokens = q.col_int("input_tokens");
  c.cached_tokens = q.col_int("cached_tokens");
  c.output_tokens = q.col_int("output_tokens");
  c.weighted_tokens = q.col_real("weighted_tokens");
  c.requests = q.col_int("requests");
  c.counted_requests = q.col_int("counted_requests");
  c.estimated_requests = q.col_int("estimated_requests");
  if (!q.column_error().empty()) return Error{"episode db: " + q.column_error()};
  return c;
}

Result<std::optional<EpisodeRow>> EpisodeDb::get(const std::string& id) {
  std::lock_guard lock(impl_->mu);
  if (!impl_->db) return closed_error();
  return impl_->get(id);
}

Result<std::vector<EpisodeRow>> EpisodeDb::list(const std::string& arm, const Shard& shard) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kListEpisodes);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  q.text(":arm", arm);
  q.integer(":shards", shard.count);
  q.integer(":shard", shard.index);
  std::vector<EpisodeRow> out;
  for (;;) {
    auto row = q.step("listing episodes");
    if (!row.ok()) return row.error();
    if (!*row) break;
    out.push_back(read_row(q));
  }
  return out;
}

Status EpisodeDb::add_search(const std::string& episode_id, const SearchUsage& r) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto done = im.transaction<bool>("recording a search", [&]() -> Result<bool> {
    {
      auto qr = im.db->query(kInsertSearch);
      if (!qr.ok()) return qr.error();
      Query& q = *qr;
      q.text(":episode_id", episode_id);
      q.real(":at", r.at);
      q.text(":query", r.query);
      q.integer(":status", r.status);
      q.text(":error_code", r.error_code);
      q.text(":results_json", r.results_json);
      q.integer(":kept", r.kept);
      q.integer(":dropped", r.dropped);
      q.real(":latency_ms", r.latency_ms);
      if (auto s = q.run("recording a search of " + episode_id); !s.ok()) return s.error();
    }
    auto qr = im.db->query(kCountSearch);
    if (!qr.ok()) return qr.error();
    qr->text(":id", episode_id);
    if (auto s = qr->run("counting a search of " + episode_id); !s.ok()) return s.error();
    return true;
  });
  if (!done) return done.error();
  return Ok{};
}

Result<std::vector<SearchUsage>> EpisodeDb::searches(const std::string& episode_id) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kListSearches);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  q.text(":episode_id", episode_id);
  std::vector<SearchUsage> out;
  for (;;) {
    auto row = q.step("listing searches");
    if (!row.ok()) return row.error();
    if (!*row) break;
    SearchUsage r;
    r.at = q.col_real("at");
    r.query = q.col_text("query");
    r.status = static_cast<int>(q.col_int("status"));
    r.error_code = q.col_text("error_code");
    r.results_json = q.col_text("results_json");
    r.kept = static_cast<int>(q.col_int("kept"));
    r.dropped = static_cast<int>(q.col_int("dropped"));
    r.latency_ms = q.col_real("latency_ms");
    out.push_back(std::move(r));
  }
  return out;
}

Result<std::vector<RequestUsage>> EpisodeDb::requests(const std::string& episode_id) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kListRequests);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  q.text(":episode_id", episode_id);
  std::vector<RequestUsage> out;
  for (;;) {
    auto row = q.step("listing requests");
    if (!row.ok()) return row.error();
    if (!*row) break;
    RequestUsage r;
    r.at = q.col_real("at");
    r.model = q.col_text("model");
    r.route = q.col_text("route");
    r.input = q.col_int("input");
    r.cached = q.col_int("cached");
    r.output = q.col_int("output");
    r.latency_ms = q.col_real("latency_ms");
    r.status = static_cast<int>(q.col_int("status"));
    r.tokens_source = q.col_text("tokens_source");
    out.push_back(r);
  }
  return out;
}

}  // namespace hpcab::harness
