// The judge's database (SPEC §5.12) on the project's SQLite layer (common/db.h). See
// docs/database.md for the schema as a researcher reads it; this file is the authority on how
// rows are written, and judge/store/schema.h names the tables and columns other components read.
//
// Contracts kept here:
//  - Every value reaches SQLite through a bound parameter of a prepared statement; SQL text is
//    only ever built from constants of this file.
//  - A submission (its row, its samples, its per-configuration results) is written in one
//    BEGIN IMMEDIATE ... COMMIT transaction: after any crash a reader sees all of it or none.
//  - Every failure is returned as an Error naming what was being done and SQLite's message.
//  - One connection, serialized by Impl::mu (db::Connection opens it SQLITE_OPEN_NOMUTEX
//    because SQLite's own per-call mutex would only repeat that serialization).
//  - SQLite has no NaN: binding NaN stores NULL. Optional doubles therefore read back as
//    nullopt, and the non-optional statistics of config_results (nullable columns) read back
//    as NaN, so a degenerate statistic never makes a /submit fail to record.
#include "judge/store/store.h"

#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <utility>

#include "common/db.h"

namespace hpcab::judge {
namespace {

// How long a statement waits for a lock held by another connection (another judge process or
// a researcher's sqlite3 shell in the middle of a write) before failing with SQLITE_BUSY.
constexpr int kBusyTimeoutMs = 10'000;

// One schema step. Migrations are applied in order, each in its own transaction together with
// the PRAGMA user_version bump, so a crash mid-migration leaves the previous version intact.
// Policy: a released migration is never edited; a schema change is a new entry appended here
// (and described in docs/database.md).
// Comments inside CREATE TABLE are kept in sqlite_master, so `.schema` in the sqlite3 shell
// shows them to researchers.
constexpr db::Migration kMigrations[] = {
    {1, "initial schema", R"sql(
CREATE TABLE submissions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,  -- submission_id given to the client; never reused
  route TEXT NOT NULL,                   -- 'submit' or its alias 'oracle'
  rank INTEGER NOT NULL,                 -- the judge's rank (one judge per rank)
  kernel TEXT NOT NULL,
  language TEXT NOT NULL,
  precision TEXT NOT NULL,
  preset TEXT NOT NULL,
  sizes_json TEXT NOT NULL,              -- the public configuration's sizes, {"N": 1000, ...}
  source TEXT NOT NULL,                  -- full source text; '' for a library submission
  library_path TEXT NOT NULL,            -- library submissions only; '' otherwise
  build_tokens_json TEXT NOT NULL,       -- JSON array of the request's build tokens
  build_log TEXT NOT NULL,               -- capped by the judge
  content_hash TEXT NOT NULL,            -- build cache key
  verdict TEXT NOT NULL,                 -- ok, build_error, incorrect, overfit, timeout, ...
  detail TEXT NOT NULL,
  build_ok INTEGER NOT NULL CHECK (build_ok IN (0, 1)),
  correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
  public_correct INTEGER NOT NULL CHECK (public_correct IN (0, 1)),
  hidden_correct INTEGER NOT NULL CHECK (hidden_correct IN (0, 1)),
  hidden_passed INTEGER NOT NULL,
  hidden_total INTEGER NOT NULL,
  speedup REAL,                          -- credited task speedup; NULL when unsolved
  baseline TEXT NOT NULL,                -- name of the credited baseline
  native_ns REAL,                        -- candidate median, nanoseconds
  baseline_ns REAL,                      -- baseline median, nanoseconds
  max_rel_error REAL,
  suspect INTEGER NOT NULL CHECK (suspect IN (0, 1)),
  timed_out INTEGER NOT NULL CHECK (timed_out IN (0, 1)),
  machine TEXT NOT NULL,                 -- machine fingerprint
  judge_version TEXT NOT NULL,
  run_id TEXT NOT NULL,
  optimizer TEXT NOT NULL,
  tokens INTEGER,                        -- as reported by the client; NULL when not given
  workspace_bytes INTEGER,
  received_at REAL NOT NULL,             -- unix seconds (UTC)
  finished_at REAL NOT NULL,             -- unix seconds (UTC)
  received_at_iso TEXT GENERATED ALWAYS AS
    (strftime('%Y-%m-%dT%H:%M:%fZ', received_at, 'unixepoch')) VIRTUAL,
  finished_at_iso TEXT GENERATED ALWAYS AS
    (strftime('%Y-%m-%dT%H:%M:%fZ', finished_at, 'unixepoch')) VIRTUAL,
  response_json TEXT NOT NULL            -- exactly what the client got
);
CREATE INDEX submissions_kernel ON submissions (kernel);
CREATE INDEX submissions_run_id ON submissions (run_id);
CREATE INDEX submissions_optimizer ON submissions (optimizer);

CREATE TABLE samples (
  id INTEGER PRIMARY KEY,
  submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
  set_index INTEGER NOT NULL,            -- position of the (config, side) set in the record
  config TEXT NOT NULL,                  -- configuration label, e.g. 'public S', 'hidden#2'
  side TEXT NOT NULL,                    -- 'candidate' or the baseline name ('c', 'c-autopar')
  call_index INTEGER NOT NULL,           -- 0-based timed call within the set
  ns INTEGER NOT NULL,                   -- wall time of that call, nanoseconds
  UNIQUE (submission_id, set_index, call_index)
);

CREATE TABLE config_results (
  id INTEGER PRIMARY KEY,
  submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
  config_index INTEGER NOT NULL,         -- position of the configuration in the record
  config TEXT NOT NULL,
  sizes_json TEXT NOT NULL,
  candidate_median_ns REAL,              -- NULL stands for NaN
  baseline_median_ns REAL,
  ratio REAL,                            -- baseline median / candidate median
  p_faster REAL,                         -- one-sided Mann-Whitney p, candidate faster
  p_slower REAL,                         -- one-sided Mann-Whitney p, candidate slower
  credit REAL,                           -- credited speedup of this configuration
  suspect INTEGER NOT NULL CHECK (suspect IN (0, 1)),
  UNIQUE (submission_id, config_index)
);

CREATE TABLE score_calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  rank INTEGER NOT NULL,
  kernel TEXT NOT NULL,
  language TEXT NOT NULL,
  precision TEXT NOT NULL,
  preset TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  verdict TEXT NOT NULL,
  speedup REAL,                          -- NULL when unsolved
  run_id TEXT NOT NULL,
  optimizer TEXT NOT NULL,
  received_at REAL NOT NULL,             -- unix seconds (UTC)
  finished_at REAL NOT NULL,
  received_at_iso TEXT GENERATED ALWAYS AS
    (strftime('%Y-%m-%dT%H:%M:%fZ', received_at, 'unixepoch')) VIRTUAL,
  finished_at_iso TEXT GENERATED ALWAYS AS
    (strftime('%Y-%m-%dT%H:%M:%fZ', finished_at, 'unixepoch')) VIRTUAL,
  response_json TEXT NOT NULL
);
CREATE INDEX score_calls_kernel ON score_calls (kernel);
CREATE INDEX score_calls_run_id ON score_calls (run_id);

CREATE TABLE baselines (
  id INTEGER PRIMARY KEY,
  kernel TEXT NOT NULL,
  precision TEXT NOT NULL,
  sizes_json TEXT NOT NULL,
  baseline TEXT NOT NULL,                -- baseline name ('c', 'c-autopar', ...)
  machine TEXT NOT NULL,                 -- machine fingerprint
  reference_hash TEXT NOT NULL,          -- hash of reference.c + flags + compiler version
  samples_json TEXT NOT NULL,            -- JSON array of integer nanoseconds
  measured_at REAL NOT NULL,             -- unix seconds (UTC)
  measured_at_iso TEXT GENERATED ALWAYS AS
    (strftime('%Y-%m-%dT%H:%M:%fZ', measured_at, 'unixepoch')) VIRTUAL,
  protocol TEXT NOT NULL,                -- how the samples were taken
  UNIQUE (kernel, precision, sizes_json, baseline, machine, reference_hash)
);
)sql"},
    {2, "calibrated timed sizes", R"sql(
CREATE TABLE calibrations (
  id INTEGER PRIMARY KEY,
  kernel TEXT NOT NULL,
  precision TEXT NOT NULL,
  baseline TEXT NOT NULL,                -- the credited baseline whose call was timed
  machine TEXT NOT NULL,                 -- machine fingerprint
  reference_hash TEXT NOT NULL,          -- its build's hash (reference.c + flags + compiler)
  min_call_ms REAL NOT NULL,             -- the target the sizes were chosen for
  sizes_json TEXT NOT NULL,              -- the chosen sizes, {"N": 1000000, ...}
  baseline_ns REAL NOT NULL,             -- the measured median call at those sizes
  reached INTEGER NOT NULL,              -- 0: the largest usable size was still faster
  measured_at REAL NOT NULL,             -- unix seconds (UTC)
  UNIQUE (kernel, precision, baseline, machine, reference_hash, min_call_ms)
);
)sql"},
    // Unique per rank, not per file: one judge serves one rank, and a merged file of several
    // judges (hpcab db merge) keeps every judge's keys even where two chose the same one.
    {3, "idempotency keys of /submit", R"sql(
ALTER TABLE submissions ADD COLUMN
  idempotency_key TEXT;                  -- the request's Idempotency-Key; NULL when it had none
CREATE UNIQUE INDEX submissions_idempotency_key ON submissions (rank, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
)sql"},
    {4, "reported speedups against the baselines not credited", R"sql(
CREATE TABLE reported_speedups (
  id INTEGER PRIMARY KEY,
  submission_id INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
  baseline TEXT NOT NULL,                -- 'c', 'numpy', 'numba', ... (never the credited one)
  baseline_median_ns REAL NOT NULL,      -- timed alone on the public draws (baselines table)
  candidate_median_ns REAL NOT NULL,     -- the candidate's public median in this submission
  speedup REAL NOT NULL,                 -- paired ratio x (this / credited baseline, both alone)
  UNIQUE (submission_id, baseline)
);
)sql"},
    // A repeat of an Idempotency-Key must be the same request (judge/http/idempotency.h), and the
    // row kept its preset and workspace only as the grade resolved them.
    {5, "what a request named, for its Idempotency-Key", R"sql(
ALTER TABLE submissions ADD COLUMN
  request_json TEXT;                     -- {"preset": .., "workspace_bytes": ..} as the request named them (null: not named); NULL before version 5
)sql"},
    {6, "what the slot watch saw during each timed configuration", R"sql(
ALTER TABLE config_results ADD COLUMN
  slot_wait REAL;                        -- timed runners' run-queue delay / runnable time; NULL: not watched
ALTER TABLE config_results ADD COLUMN
  slot_steal REAL;                       -- share of the slot's CPU time stolen by the hypervisor; NULL: not watched
ALTER TABLE config_results ADD COLUMN
  slot_retries INTEGER NOT NULL DEFAULT 0;  -- reruns because the slot was disturbed
)sql"},
};

constexpr int kLatestVersion = static_cast<int>(std::size(kMigrations));

constexpr bool migrations_are_ordered() {
  for (int i = 0; i < kLatestVersion; ++i) {
    if (kMigrations[i].version != i + 1) return false;
  }
  return true;
}
static_assert(migrations_are_ordered(), "kMigrations must be versions 1, 2, ... in order");

Error closed_error() { return Error{"store: the database is closed"}; }

using Query = db::Query;

constexpr const char* kInsertSubmission = R"sql(
INSERT INTO submissions (
  route, rank, kernel, language, precision, preset, sizes_json, source, library_path,
  build_tokens_json, build_log, content_hash, verdict, detail, build_ok, correct, public_correct,
  hidden_correct, hidden_passed, hidden_total, speedup, baseline, native_ns, baseline_ns,
  max_rel_error, suspect, timed_out, machine, judge_version, run_id, optimizer, tokens,
  workspace_bytes, received_at, finished_at, response_json, idempotency_key, request_json)
VALUES (
  :route, :rank, :kernel, :language, :precision, :preset, :sizes_json, :source, :library_path,
  :build_tokens_json, :build_log, :content_hash, :verdict, :detail, :build_ok, :correct,
  :public_correct, :hidden_correct, :hidden_passed, :hidden_total, :speedup, :baseline,
  :native_ns, :baseline_ns, :max_rel_error, :suspect, :timed_out, :machine, :judge_version,
  :run_id, :optimizer, :tokens, :workspace_bytes, :received_at, :finished_at, :response_json,
  :idempotency_key, :request_json)
)sql";

constexpr const char* kInsertSample = R"sql(
INSERT INTO samples (submission_id, set_index, config, side, call_index, ns)
VALUES (:submission_id, :set_index, :config, :side, :call_index, :ns)
)sql";

constexpr const char* kInsertConfig = R"sql(
INSERT INTO config_results (
  submission_id, config_index, config, sizes_json, candidate_median_ns, baseline_median_ns, ratio,
  p_faster, p_slower, credit, suspect, slot_wait, slot_steal, slot_retries)
VALUES (
  :submission_id, :config_index, :config, :sizes_json, :candidate_median_ns, :baseline_median_ns,
  :ratio, :p_faster, :p_slower, :credit, :suspect, :slot_wait, :slot_steal, :slot_retries)
)sql";

constexpr const char* kInsertReported = R"sql(
INSERT INTO reported_speedups (
  submission_id, baseline, baseline_median_ns, candidate_median_ns, speedup)
VALUES (:submission_id, :baseline, :baseline_median_ns, :candidate_median_ns, :speedup)
)sql";

constexpr const char* kInsertScoreCall = R"sql(
INSERT INTO score_calls (
  rank, kernel, language, precision, preset, content_hash, verdict, speedup, run_id, optimizer,
  received_at, finished_at, response_json)
VALUES (
  :rank, :kernel, :language, :precision, :preset, :content_hash, :verdict, :speedup, :run_id,
  :optimizer, :received_at, :finished_at, :response_json)
)sql";

constexpr const char* kSelectCalibration = R"sql(
SELECT sizes_json, baseline_ns, reached, measured_at FROM calibrations
WHERE kernel = :kernel AND precision = :precision AND baseline = :baseline
  AND machine = :machine AND reference_hash = :reference_hash AND min_call_ms = :min_call_ms
)sql";
constexpr const char* kUpsertCalibration = R"sql(
INSERT INTO calibrations (
  kernel, precision, baseline, machine, reference_hash, min_call_ms, sizes_json, baseline_ns,
  reached, measured_at)
VALUES (
  :kernel, :precision, :baseline, :machine, :reference_hash, :min_call_ms, :sizes_json,
  :baseline_ns, :reached, :measured_at)
ON CONFLICT (kernel, precision, baseline, machine, reference_hash, min_call_ms) DO UPDATE SET
  sizes_json = excluded.sizes_json,
  baseline_ns = excluded.baseline_ns,
  reached = excluded.reached,
  measured_at = excluded.measured_at
)sql";
constexpr const char* kSelectBaseline = R"sql(
SELECT samples_json, measured_at, protocol FROM baselines
WHERE kernel = :kernel AND precision = :precision AND sizes_json = :sizes_json
  AND baseline = :baseline AND machine = :machine AND reference_hash = :reference_hash
)sql";

constexpr const char* kUpsertBaseline = R"sql(
INSERT INTO baselines (
  kernel, precision, sizes_json, baseline, machine, reference_hash, samples_json, measured_at,
  protocol)
VALUES (
  :kernel, :precision, :sizes_json, :baseline, :machine, :reference_hash, :samples_json,
  :measured_at, :protocol)
ON CONFLICT (kernel, precision, sizes_json, baseline, machine, reference_hash) DO UPDATE SET
  samples_json = excluded.samples_json,
  measured_at = excluded.measured_at,
  protocol = excluded.protocol
)sql";

constexpr const char* kCountSubmissions = "SELECT count(*) AS n FROM submissions";

constexpr const char* kSelectSubmission = "SELECT * FROM submissions WHERE id = :id";

constexpr const char* kSelectByIdempotencyKey = R"sql(
SELECT id, rank, kernel, language, precision, run_id, source, library_path, response_json,
  build_tokens_json, request_json
FROM submissions WHERE rank = :rank AND idempotency_key = :key
)sql";
constexpr const char* kUpdateResponse =
    "UPDATE submissions SET response_json = :response_json WHERE id = :id";
constexpr const char* kSelectSamples = R"sql(
SELECT set_index, config, side, ns FROM samples WHERE submission_id = :id
ORDER BY set_index, call_index
)sql";

constexpr const char* kSelectReported = R"sql(
SELECT baseline, baseline_median_ns, candidate_median_ns, speedup FROM reported_speedups
WHERE submission_id = :id ORDER BY baseline
)sql";

constexpr const char* kSelectConfigs = R"sql(
SELECT * FROM config_results WHERE submission_id = :id ORDER BY config_index
)sql";

// The admin listing's filters: a NULL parameter matches every row, so one constant statement
// serves every combination of filters.
constexpr const char* kListSubmissions = R"sql(
SELECT id, kernel, language, precision, preset, verdict, speedup, suspect, run_id, optimizer,
       received_at, finished_at, content_hash, library_path != '' AS library
FROM submissions
WHERE (:kernel IS NULL OR kernel = :kernel) AND (:run_id IS NULL OR run_id = :run_id)
  AND (:optimizer IS NULL OR optimizer = :optimizer) AND (:verdict IS NULL OR verdict = :verdict)
ORDER BY id DESC LIMIT :limit OFFSET :offset
)sql";

constexpr const char* kListScoreCalls = R"sql(
SELECT id, kernel, verdict, speedup, run_id, received_at FROM score_calls
WHERE run_id = :run_id ORDER BY id LIMIT :limit
)sql";

constexpr const char* kCountFilteredSubmissions = R"sql(
SELECT count(*) AS n FROM submissions
WHERE (:kernel IS NULL OR kernel = :kernel) AND (:run_id IS NULL OR run_id = :run_id)
  AND (:optimizer IS NULL OR optimizer = :optimizer) AND (:verdict IS NULL OR verdict = :verdict)
)sql";

}  // namespace

struct Store::Impl {
  std::mutex mu;
  std::optional<db::Connection> db;  // empty once closed
  int version = 0;

  // Caller holds mu and an open transaction; the transaction rolls back on failure.
  Result<int64_t> insert_submission(const SubmissionRecord& r) {
    int64_t id = 0;
    {
      auto qr = db->query(kInsertSubmission);
      if (!qr.ok()) return qr.error();
      Query& q = *qr;
      q.text(":route", r.route);
      q.integer(":rank", int64_t{r.rank});
      q.text(":kernel", r.kernel);
      q.text(":language", r.language);
      q.text(":precision", r.precision);
      q.text(":preset", r.preset);
      q.text(":sizes_json", r.sizes_json);
      q.text(":source", r.source);
      q.text(":library_path", r.library_path);
      q.text(":build_tokens_json", r.build_tokens_json);
      q.text(":build_log", r.build_log);
      q.text(":content_hash", r.content_hash);
      q.text(":verdict", r.verdict);
      q.text(":detail", r.detail);
      q.boolean(":build_ok", r.build_ok);
      q.boolean(":correct", r.correct);
      q.boolean(":public_correct", r.public_correct);
      q.boolean(":hidden_correct", r.hidden_correct);
      q.integer(":hidden_passed", int64_t{r.hidden_passed});
      q.integer(":hidden_total", int64_t{r.hidden_total});
      q.real(":speedup", r.speedup);
      q.text(":baseline", r.baseline);
      q.real(":native_ns", r.native_ns);
      q.real(":baseline_ns", r.baseline_ns);
      q.real(":max_rel_error", r.max_rel_error);
      q.boolean(":suspect", r.suspect);
      q.boolean(":timed_out", r.timed_out);
      q.text(":machine", r.machine);
      q.text(":judge_version", r.judge_version);
      q.text(":run_id", r.run_id);
      q.text(":optimizer", r.optimizer);
      q.integer(":tokens", r.tokens);
      q.integer(":workspace_bytes", r.workspace_bytes);
      q.real(":received_at", r.received_at);
      q.real(":finished_at", r.finished_at);
      q.text(":response_json", r.response_json);
      q.opt_text(":idempotency_key", r.idempotency_key);
      q.opt_text(":request_json", r.request_json);
      if (auto s = q.run("inserting the submission"); !s.ok()) return s.error();
      id = db->last_insert_rowid();
    }

    for (std::size_t si = 0; si < r.samples.size(); ++si) {
      const SampleSet& set = r.samples[si];
      for (std::size_t ci = 0; ci < set.ns.size(); ++ci) {
        auto qr = db->query(kInsertSample);
        if (!qr.ok()) return qr.error();
        Query& q = *qr;
        q.integer(":submission_id", id);
        q.integer(":set_index", static_cast<int64_t>(si));
        q.text(":config", set.config);
        q.text(":side", set.side);
        q.integer(":call_index", static_cast<int64_t>(ci));
        q.integer(":ns", set.ns[ci]);
        if (auto s = q.run("inserting a timing sample"); !s.ok()) return s.error();
      }
    }

    for (std::size_t i = 0; i < r.configs.size(); ++i) {
      const ConfigResult& c = r.configs[i];
      auto qr = db->query(kInsertConfig);
      if (!qr.ok()) return qr.error();
      Query& q = *qr;
      q.integer(":submission_id", id);
      q.integer(":config_index", static_cast<int64_t>(i));
      q.text(":config", c.config);
      q.text(":sizes_json", c.sizes_json);
      q.real(":candidate_median_ns", c.candidate_median_ns);
      q.real(":baseline_median_ns", c.baseline_median_ns);
      q.real(":ratio", c.ratio);
      q.real(":p_faster", c.p_faster);
      q.real(":p_slower", c.p_slower);
      q.real(":credit", c.credit);
      q.boolean(":suspect", c.suspect);
      q.real(":slot_wait", c.slot_wait);
      q.real(":slot_steal", c.slot_steal);
      q.integer(":slot_retries", c.slot_retries);
      if (auto s = q.run("inserting a configuration result"); !s.ok()) return s.error();
    }

    for (const ReportedSpeedup& rs : r.reported) {
      auto qr = db->query(kInsertReported);
      if (!qr.ok()) return qr.error();
      Query& q = *qr;
      q.integer(":submission_id", id);
      q.text(":baseline", rs.baseline);
      q.real(":baseline_median_ns", rs.baseline_median_ns);
      q.real(":candidate_median_ns", rs.candidate_median_ns);
      q.real(":speedup", rs.speedup);
      if (auto s = q.run("inserting a reported speedup"); !s.ok()) return s.error();
    }
    return id;
  }
};

Result<std::unique_ptr<Store>> Store::open(const std::string& path) {
  std::unique_ptr<Store> store(new Store());
  store->impl_ = std::make_unique<Impl>();
  Impl& im = *store->impl_;

  // WAL with synchronous=NORMAL (common/db.cc says why that is crash-safe), foreign keys
  // enforced (samples and configuration results cascade with their submission).
  db::Options options;
  options.owner = "store";
  options.busy_timeout_ms = kBusyTimeoutMs;
  options.require_foreign_keys = true;
  auto conn = db::Connection::open(path, options);
  if (!conn.ok()) return conn.error();
  im.db.emplace(std::move(*conn));

  auto version = im.db->migrate(kMigrations, [&](int found, int latest) {
    return Error{"store: database " + path + " has schema version " + std::to_string(found) +
                 ", but this judge knows schema versions up to " + std::to_string(latest) +
                 "; open it with the newer judge that wrote it (this one will not touch it)"};
  });
  if (!version.ok()) return version.error();
  im.version = *version;
  return store;
}

Store::~Store() { close(); }

int Store::schema_version() const {
  std::lock_guard lock(impl_->mu);
  return impl_->version;
}

Result<int64_t> Store::record_submission(const SubmissionRecord& r) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto tx = im.db->begin_immediate("starting the submission transaction");
  if (!tx.ok()) return tx.error();
  auto id = im.insert_submission(r);  // on failure ~Transaction rolls back
  if (!id.ok()) return id.error();
  if (auto s = tx->commit("committing the submission"); !s.ok()) return s.error();
  return id;
}

Result<int64_t> Store::record_score_call(const ScoreCallRecord& r) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kInsertScoreCall);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;  // one statement: atomic without an explicit transaction
  q.integer(":rank", int64_t{r.rank});
  q.text(":kernel", r.kernel);
  q.text(":language", r.language);
  q.text(":precision", r.precision);
  q.text(":preset", r.preset);
  q.text(":content_hash", r.content_hash);
  q.text(":verdict", r.verdict);
  q.real(":speedup", r.speedup);
  q.text(":run_id", r.run_id);
  q.text(":optimizer", r.optimizer);
  q.real(":received_at", r.received_at);
  q.real(":finished_at", r.finished_at);
  q.text(":response_json", r.response_json);
  if (auto s = q.run("recording a /score call"); !s.ok()) return s.error();
  return im.db->last_insert_rowid();
}

namespace {

// The six columns that identify cached baseline samples, bound the same way for lookup and upsert.
void bind_baseline_key(Query& q, const BaselineKey& key) {
  q.text(":kernel", key.kernel);
  q.text(":precision", key.precision);
  q.text(":sizes_json", key.sizes_json);
  q.text(":baseline", key.baseline);
  q.text(":machine", key.machine);
  q.text(":reference_hash", key.reference_hash);
}

}  // namespace

Result<std::optional<BaselineSamples>> Store::get_baseline(const BaselineKey& key) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kSelectBaseline);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  bind_baseline_key(q, key);
  auto row = q.step("looking up baseline samples");
  if (!row.ok()) return row.error();
  if (!*row) return std::optional<BaselineSamples>();
  BaselineSamples out;
  out.measured_at = q.col_opt_real("measured_at").value_or(0);
  out.protocol = q.col_text("protocol");
  std::string text = q.col_text("samples_json");
  if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  auto samples = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!samples.is_array()) {
    return Error{"store: cached baseline samples for " + key.kernel + "/" + key.baseline +
                 " are not a JSON array; delete that baselines row to re-measure"};
  }
  out.ns.reserve(samples.size());
  for (const auto& v : samples) {
    if (!v.is_number_integer()) {
      return Error{"store: cached baseline samples for " + key.kernel + "/" + key.baseline +
                   " hold a non-integer; delete that baselines row to re-measure"};
    }
    out.ns.push_back(v.get<int64_t>());
  }
  return std::optional<BaselineSamples>(std::move(out));
}

Status Store::put_baseline(const BaselineKey& key, const BaselineSamples& samples) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kUpsertBaseline);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  bind_baseline_key(q, key);
  q.text(":samples_json", nlohmann::json(samples.ns).dump());
  q.real(":measured_at", samples.measured_at);
  q.text(":protocol", samples.protocol);
  return q.run("storing baseline samples");
}

void bind_calibration_key(Query& q, const CalibrationKey& key) {
  q.text(":kernel", key.kernel);
  q.text(":precision", key.precision);
  q.text(":baseline", key.baseline);
  q.text(":machine", key.machine);
  q.text(":reference_hash", key.reference_hash);
  q.real(":min_call_ms", key.min_call_ms);
}

Result<std::optional<StoredCalibration>> Store::get_calibration(const CalibrationKey& key) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kSelectCalibration);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  bind_calibration_key(q, key);
  auto row = q.step("looking up a calibration");
  if (!row.ok()) return row.error();
  if (!*row) return std::optional<StoredCalibration>();
  StoredCalibration out;
  out.sizes_json = q.col_text("sizes_json");
  out.baseline_ns = q.col_opt_real("baseline_ns").value_or(0);
  out.reached = q.col_int("reached") != 0;
  out.measured_at = q.col_opt_real("measured_at").value_or(0);
  if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  return std::optional<StoredCalibration>(std::move(out));
}

Status Store::put_calibration(const CalibrationKey& key, const StoredCalibration& c) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kUpsertCalibration);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  bind_calibration_key(q, key);
  q.text(":sizes_json", c.sizes_json);
  q.real(":baseline_ns", c.baseline_ns);
  q.integer(":reached", c.reached ? 1 : 0);
  q.real(":measured_at", c.measured_at);
  return q.run("storing a calibration");
}

Result<int64_t> Store::count_submissions() {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kCountSubmissions);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  auto row = q.step("counting submissions");
  if (!row.ok()) return row.error();
  return q.col_int("n");
}

Result<std::optional<KeyedSubmission>> Store::find_by_idempotency_key(int rank,
                                                                      const std::string& key) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kSelectByIdempotencyKey);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  q.integer(":rank", int64_t{rank});
  q.text(":key", key);
  auto row = q.step("looking up an idempotency key");
  if (!row.ok()) return row.error();
  if (!*row) return std::optional<KeyedSubmission>();
  KeyedSubmission k;
  k.id = q.col_int("id");
  k.rank = static_cast<int>(q.col_int("rank"));
  k.kernel = q.col_text("kernel");
  k.language = q.col_text("language");
  k.precision = q.col_text("precision");
  k.run_id = q.col_text("run_id");
  k.source = q.col_text("source");
  k.library_path = q.col_text("library_path");
  k.response_json = q.col_text("response_json");
  k.build_tokens_json = q.col_text("build_tokens_json");
  k.request_json = q.col_opt_text("request_json");
  if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  return std::optional<KeyedSubmission>(std::move(k));
}

Status Store::replace_response(int64_t id, const std::string& response_json) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto qr = im.db->query(kUpdateResponse);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;  // one statement: atomic without an explicit transaction
  q.integer(":id", id);
  q.text(":response_json", response_json);
  if (auto s = q.run("storing the response of a submission"); !s.ok()) return s;
  if (im.db->changes() != 1) {
    return Error{"store: storing the response of submission " + std::to_string(id) +
                 ": no such submission"};
  }
  return Ok{};
}

Result<std::optional<SubmissionRecord>> Store::get_submission(int64_t id) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  // Three reads of one submission: a read transaction makes them one snapshot.
  auto read = im.db->begin_read("starting a read");
  if (!read.ok()) return read.error();

  SubmissionRecord r;
  {
    auto qr = im.db->query(kSelectSubmission);
    if (!qr.ok()) return qr.error();
    Query& q = *qr;
    q.integer(":id", id);
    auto row = q.step("reading a submission");
    if (!row.ok()) return row.error();
    if (!*row) return std::optional<SubmissionRecord>();
    r.route = q.col_text("route");
    r.rank = static_cast<int>(q.col_int("rank"));
    r.kernel = q.col_text("kernel");
    r.language = q.col_text("language");
    r.precision = q.col_text("precision");
    r.preset = q.col_text("preset");
    r.sizes_json = q.col_text("sizes_json");
    r.source = q.col_text("source");
    r.library_path = q.col_text("library_path");
    r.build_tokens_json = q.col_text("build_tokens_json");
    r.build_log = q.col_text("build_log");
    r.content_hash = q.col_text("content_hash");
    r.verdict = q.col_text("verdict");
    r.detail = q.col_text("detail");
    r.build_ok = q.col_bool("build_ok");
    r.correct = q.col_bool("correct");
    r.public_correct = q.col_bool("public_correct");
    r.hidden_correct = q.col_bool("hidden_correct");
    r.hidden_passed = static_cast<int>(q.col_int("hidden_passed"));
    r.hidden_total = static_cast<int>(q.col_int("hidden_total"));
    r.speedup = q.col_opt_real("speedup");
    r.baseline = q.col_text("baseline");
    r.native_ns = q.col_opt_real("native_ns");
    r.baseline_ns = q.col_opt_real("baseline_ns");
    r.max_rel_error = q.col_opt_real("max_rel_error");
    r.suspect = q.col_bool("suspect");
    r.timed_out = q.col_bool("timed_out");
    r.machine = q.col_text("machine");
    r.judge_version = q.col_text("judge_version");
    r.run_id = q.col_text("run_id");
    r.optimizer = q.col_text("optimizer");
    r.tokens = q.col_opt_int("tokens");
    r.workspace_bytes = q.col_opt_int("workspace_bytes");
    r.received_at = q.col_opt_real("received_at").value_or(0);
    r.finished_at = q.col_opt_real("finished_at").value_or(0);
    r.response_json = q.col_text("response_json");
    r.idempotency_key = q.col_opt_text("idempotency_key");
    r.request_json = q.col_opt_text("request_json");
    if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  }
  {
    auto qr = im.db->query(kSelectSamples);
    if (!qr.ok()) return qr.error();
    Query& q = *qr;
    q.integer(":id", id);
    int64_t current_set = -1;
    for (;;) {
      auto row = q.step("reading timing samples");
      if (!row.ok()) return row.error();
      if (!*row) break;
      int64_t set_index = q.col_int("set_index");
      if (set_index != current_set) {  // rows come ordered by set, then call
        current_set = set_index;
        r.samples.push_back(SampleSet{q.col_text("config"), q.col_text("side"), {}});
      }
      r.samples.back().ns.push_back(q.col_int("ns"));
    }
    if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  }
  {
    auto qr = im.db->query(kSelectConfigs);
    if (!qr.ok()) return qr.error();
    Query& q = *qr;
    q.integer(":id", id);
    for (;;) {
      auto row = q.step("reading configuration results");
      if (!row.ok()) return row.error();
      if (!*row) break;
      ConfigResult c;
      c.config = q.col_text("config");
      c.sizes_json = q.col_text("sizes_json");
      c.candidate_median_ns = q.col_real_or_nan("candidate_median_ns");
      c.baseline_median_ns = q.col_real_or_nan("baseline_median_ns");
      c.ratio = q.col_real_or_nan("ratio");
      c.p_faster = q.col_real_or_nan("p_faster");
      c.p_slower = q.col_real_or_nan("p_slower");
      c.credit = q.col_real_or_nan("credit");
      c.suspect = q.col_bool("suspect");
      r.configs.push_back(std::move(c));
    }
    if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  }
  {
    auto qr = im.db->query(kSelectReported);
    if (!qr.ok()) return qr.error();
    Query& q = *qr;
    q.integer(":id", id);
    for (;;) {
      auto row = q.step("reading reported speedups");
      if (!row.ok()) return row.error();
      if (!*row) break;
      r.reported.push_back({q.col_text("baseline"), q.col_real_or_nan("baseline_median_ns"),
                            q.col_real_or_nan("candidate_median_ns"),
                            q.col_real_or_nan("speedup")});
    }
    if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  }
  return std::optional<SubmissionRecord>(std::move(r));
}

Result<SubmissionPage> Store::list_submissions(const SubmissionFilter& filter) {
  if (filter.limit < 0 || filter.offset < 0) {
    return Error{"store: listing submissions: limit and offset must be non-negative"};
  }
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  // The count and the page: a read transaction makes them one snapshot.
  auto read = im.db->begin_read("starting a read");
  if (!read.ok()) return read.error();
  auto bind_filter = [&filter](Query& q) {
    q.opt_text(":kernel", filter.kernel);
    q.opt_text(":run_id", filter.run_id);
    q.opt_text(":optimizer", filter.optimizer);
    q.opt_text(":verdict", filter.verdict);
  };

  SubmissionPage page;
  {
    auto qr = im.db->query(kCountFilteredSubmissions);
    if (!qr.ok()) return qr.error();
    Query& q = *qr;
    bind_filter(q);
    auto row = q.step("counting submissions");
    if (!row.ok()) return row.error();
    page.total = q.col_int("n");
    if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  }
  auto qr = im.db->query(kListSubmissions);
  if (!qr.ok()) return qr.error();
  Query& q = *qr;
  bind_filter(q);
  q.integer(":limit", filter.limit);
  q.integer(":offset", filter.offset);
  for (;;) {
    auto row = q.step("listing submissions");
    if (!row.ok()) return row.error();
    if (!*row) break;
    SubmissionSummary s;
    s.id = q.col_int("id");
    s.kernel = q.col_text("kernel");
    s.language = q.col_text("language");
    s.precision = q.col_text("precision");
    s.preset = q.col_text("preset");
    s.verdict = q.col_text("verdict");
    s.speedup = q.col_opt_real("speedup");
    s.suspect = q.col_bool("suspect");
    s.run_id = q.col_text("run_id");
    s.optimizer = q.col_text("optimizer");
    s.received_at = q.col_opt_real("received_at").value_or(0);
    s.finished_at = q.col_opt_real("finished_at").value_or(0);
    s.content_hash = q.col_text("content_hash");
    s.library = q.col_bool("library");
    page.rows.push_back(std::move(s));
  }
  if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  return page;
}

Result<std::vector<ScoreCallSummary>> Store::list_score_calls(
    const std::vector<std::string>& run_ids, int64_t per_run) {
  if (per_run < 0) return Error{"store: listing score calls: per_run must be non-negative"};
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto read = im.db->begin_read("starting a read");
  if (!read.ok()) return read.error();
  std::vector<ScoreCallSummary> out;
  for (const auto& run : run_ids) {
    auto qr = im.db->query(kListScoreCalls);
    if (!qr.ok()) return qr.error();
    Query& q = *qr;
    q.text(":run_id", run);
    q.integer(":limit", per_run);
    for (;;) {
      auto row = q.step("listing score calls");
      if (!row.ok()) return row.error();
      if (!*row) break;
      ScoreCallSummary c;
      c.id = q.col_int("id");
      c.kernel = q.col_text("kernel");
      c.verdict = q.col_text("verdict");
      c.speedup = q.col_opt_real("speedup");
      c.run_id = q.col_text("run_id");
      c.received_at = q.col_opt_real("received_at").value_or(0);
      out.push_back(std::move(c));
    }
    if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  }
  return out;
}

void Store::close() {
  if (!impl_) return;
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return;
  // Lets SQLite refresh its planner statistics, as its documentation advises before closing.
  im.db->optimize();
  // The last connection to close checkpoints the WAL into the database file and removes it.
  (void)im.db->close();
  im.db.reset();
}

}  // namespace hpcab::judge
