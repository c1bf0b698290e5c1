// The judge's database (SPEC §5.12) on the SQLite3 C API. See docs/database.md for the schema
// as a researcher reads it; this file is the authority on how rows are written.
//
// Contracts kept here:
//  - Every value reaches SQLite through a bound parameter of a prepared statement; SQL text is
//    only ever built from constants of this file.
//  - A submission (its row, its samples, its per-configuration results) is written in one
//    BEGIN IMMEDIATE ... COMMIT transaction: after any crash a reader sees all of it or none.
//  - Every failure is returned as an Error naming what was being done and sqlite3_errmsg.
//  - One connection, serialized by Impl::mu; the connection is opened SQLITE_OPEN_NOMUTEX
//    because SQLite's own per-call mutex would only repeat that serialization.
//  - SQLite has no NaN: binding NaN stores NULL. Optional doubles therefore read back as
//    nullopt, and the non-optional statistics of config_results (nullable columns) read back
//    as NaN, so a degenerate statistic never makes a /submit fail to record.
#include "judge/store.h"

#include <sqlite3.h>

#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/sqlite_query.h"

namespace hpcab::judge {
namespace {

// How long a statement waits for a lock held by another connection (another judge process or
// a researcher's sqlite3 shell in the middle of a write) before failing with SQLITE_BUSY.
constexpr int kBusyTimeoutMs = 10'000;

// One schema step. Migrations are applied in order, each in its own transaction together with
// the PRAGMA user_version bump, so a crash mid-migration leaves the previous version intact.
// Policy: a released migration is never edited; a schema change is a new entry appended here
// (and described in docs/database.md).
struct Migration {
  int version;  // the user_version after this migration; the i-th entry has version i + 1
  const char* what;
  const char* sql;  // constant DDL, run with sqlite3_exec
};

// Comments inside CREATE TABLE are kept in sqlite_master, so `.schema` in the sqlite3 shell
// shows them to researchers.
constexpr Migration kMigrations[] = {
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
};

constexpr int kLatestVersion = static_cast<int>(std::size(kMigrations));

constexpr bool migrations_are_ordered() {
  for (int i = 0; i < kLatestVersion; ++i) {
    if (kMigrations[i].version != i + 1) return false;
  }
  return true;
}
static_assert(migrations_are_ordered(), "kMigrations must be versions 1, 2, ... in order");

Error sql_error(sqlite3* db, std::string_view context) {
  return hpcab::sql_error(db, "store", context);
}

Error closed_error() { return Error{"store: the database is closed"}; }

class Query : public SqlQuery {
 public:
  Query(sqlite3* db, sqlite3_stmt* stmt) : SqlQuery(db, stmt, "store") {}
};

// Runs constant SQL text (no values in it) that returns no rows we need.
Status exec(sqlite3* db, const char* sql, std::string_view context) {
  char* msg = nullptr;
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, &msg);
  if (rc == SQLITE_OK) return Ok{};
  std::string text = msg ? msg : sqlite3_errstr(rc);
  sqlite3_free(msg);
  return Error{"store: " + std::string(context) + ": " + text + " (code " + std::to_string(rc) +
               ")"};
}

// Ends a failed transaction. Its own failure is ignored: it fails only when SQLite has already
// rolled back (e.g. after an I/O error), and either way nothing of the transaction remains.
void rollback(sqlite3* db) { (void)exec(db, "ROLLBACK", "rolling back"); }

// Runs a constant single-row query (a PRAGMA) and returns its first column as text.
Result<std::string> query_text(sqlite3* db, const char* sql, std::string_view context) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) return sql_error(db, context);
  int rc = sqlite3_step(stmt);
  std::string out;
  if (rc == SQLITE_ROW) {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    out = p ? p : "";
  }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
    Error e = sql_error(db, context);
    sqlite3_finalize(stmt);
    return e;
  }
  sqlite3_finalize(stmt);
  return out;
}

constexpr const char* kInsertSubmission = R"sql(
INSERT INTO submissions (
  route, rank, kernel, language, precision, preset, sizes_json, source, library_path,
  build_tokens_json, build_log, content_hash, verdict, detail, build_ok, correct, public_correct,
  hidden_correct, hidden_passed, hidden_total, speedup, baseline, native_ns, baseline_ns,
  max_rel_error, suspect, timed_out, machine, judge_version, run_id, optimizer, tokens,
  workspace_bytes, received_at, finished_at, response_json)
VALUES (
  :route, :rank, :kernel, :language, :precision, :preset, :sizes_json, :source, :library_path,
  :build_tokens_json, :build_log, :content_hash, :verdict, :detail, :build_ok, :correct,
  :public_correct, :hidden_correct, :hidden_passed, :hidden_total, :speedup, :baseline,
  :native_ns, :baseline_ns, :max_rel_error, :suspect, :timed_out, :machine, :judge_version,
  :run_id, :optimizer, :tokens, :workspace_bytes, :received_at, :finished_at, :response_json)
)sql";

constexpr const char* kInsertSample = R"sql(
INSERT INTO samples (submission_id, set_index, config, side, call_index, ns)
VALUES (:submission_id, :set_index, :config, :side, :call_index, :ns)
)sql";

constexpr const char* kInsertConfig = R"sql(
INSERT INTO config_results (
  submission_id, config_index, config, sizes_json, candidate_median_ns, baseline_median_ns, ratio,
  p_faster, p_slower, credit, suspect)
VALUES (
  :submission_id, :config_index, :config, :sizes_json, :candidate_median_ns, :baseline_median_ns,
  :ratio, :p_faster, :p_slower, :credit, :suspect)
)sql";

constexpr const char* kInsertScoreCall = R"sql(
INSERT INTO score_calls (
  rank, kernel, language, precision, preset, content_hash, verdict, speedup, run_id, optimizer,
  received_at, finished_at, response_json)
VALUES (
  :rank, :kernel, :language, :precision, :preset, :content_hash, :verdict, :speedup, :run_id,
  :optimizer, :received_at, :finished_at, :response_json)
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

constexpr const char* kSelectSamples = R"sql(
SELECT set_index, config, side, ns FROM samples WHERE submission_id = :id
ORDER BY set_index, call_index
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

constexpr const char* kCountFilteredSubmissions = R"sql(
SELECT count(*) AS n FROM submissions
WHERE (:kernel IS NULL OR kernel = :kernel) AND (:run_id IS NULL OR run_id = :run_id)
  AND (:optimizer IS NULL OR optimizer = :optimizer) AND (:verdict IS NULL OR verdict = :verdict)
)sql";

}  // namespace

struct Store::Impl {
  std::mutex mu;
  sqlite3* db = nullptr;  // nullptr once closed
  int version = 0;
  // Prepared statements, keyed by the address of their SQL constant above; finalized by close().
  std::unordered_map<const char*, sqlite3_stmt*> stmts;

  // The cached statement for `sql` (prepared on first use). Caller holds mu.
  Result<sqlite3_stmt*> prepare(const char* sql) {
    if (auto it = stmts.find(sql); it != stmts.end()) return it->second;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) {
      return sql_error(db, "preparing a statement");
    }
    stmts.emplace(sql, stmt);
    return stmt;
  }

  // Caller holds mu and an open transaction; the caller rolls back on failure.
  Result<int64_t> insert_submission(const SubmissionRecord& r) {
    auto stmt = prepare(kInsertSubmission);
    if (!stmt.ok()) return stmt.error();
    int64_t id = 0;
    {
      Query q(db, *stmt);
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
      if (auto s = q.run("inserting the submission"); !s.ok()) return s.error();
      id = sqlite3_last_insert_rowid(db);
    }

    stmt = prepare(kInsertSample);
    if (!stmt.ok()) return stmt.error();
    for (std::size_t si = 0; si < r.samples.size(); ++si) {
      const SampleSet& set = r.samples[si];
      for (std::size_t ci = 0; ci < set.ns.size(); ++ci) {
        Query q(db, *stmt);
        q.integer(":submission_id", id);
        q.integer(":set_index", static_cast<int64_t>(si));
        q.text(":config", set.config);
        q.text(":side", set.side);
        q.integer(":call_index", static_cast<int64_t>(ci));
        q.integer(":ns", set.ns[ci]);
        if (auto s = q.run("inserting a timing sample"); !s.ok()) return s.error();
      }
    }

    stmt = prepare(kInsertConfig);
    if (!stmt.ok()) return stmt.error();
    for (std::size_t i = 0; i < r.configs.size(); ++i) {
      const ConfigResult& c = r.configs[i];
      Query q(db, *stmt);
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
      if (auto s = q.run("inserting a configuration result"); !s.ok()) return s.error();
    }
    return id;
  }

  // Applies the pending migrations. Each step re-reads user_version inside its own
  // BEGIN IMMEDIATE transaction, so two processes opening a fresh file at once cannot both
  // apply the same migration: the second waits for the lock and then sees the new version.
  Status migrate(const std::string& path) {
    for (;;) {
      if (auto s = exec(db, "BEGIN IMMEDIATE", "starting a migration"); !s.ok()) return s;
      auto current = query_text(db, "PRAGMA user_version", "reading the schema version");
      if (!current.ok()) {
        rollback(db);
        return current.error();
      }
      int v = std::stoi(*current);
      if (v == kLatestVersion) {
        version = v;
        return exec(db, "COMMIT", "ending the migration check");
      }
      if (v < 0 || v > kLatestVersion) {
        rollback(db);
        return Error{"store: database " + path + " has schema version " + std::to_string(v) +
                     ", but this judge knows schema versions up to " +
                     std::to_string(kLatestVersion) +
                     "; open it with the newer judge that wrote it (this one will not touch it)"};
      }
      const Migration& m = kMigrations[v];  // the migration to version v + 1
      std::string context = "migration " + std::to_string(m.version) + " (" + m.what + ")";
      Status s = exec(db, m.sql, context);
      if (s.ok()) {
        // A PRAGMA takes no bound parameters; the value is this file's own constant.
        std::string bump = "PRAGMA user_version = " + std::to_string(m.version);
        s = exec(db, bump.c_str(), context);
      }
      if (s.ok()) s = exec(db, "COMMIT", context);
      if (!s.ok()) {
        rollback(db);
        return s;
      }
    }
  }
};

Result<std::unique_ptr<Store>> Store::open(const std::string& path) {
  std::unique_ptr<Store> store(new Store());
  store->impl_ = std::make_unique<Impl>();
  Impl& im = *store->impl_;

  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  int rc = sqlite3_open_v2(path.c_str(), &im.db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = im.db ? sqlite3_errmsg(im.db) : sqlite3_errstr(rc);
    sqlite3_close(im.db);
    im.db = nullptr;
    return Error{"store: cannot open database " + path + ": " + msg};
  }
  sqlite3_extended_result_codes(im.db, 1);
  sqlite3_busy_timeout(im.db, kBusyTimeoutMs);

  // From here on, a failure closes the connection through ~Store.
  auto fail = [&](const Error& e) { return Error{e.message + " [" + path + "]"}; };

  // WAL: readers never block the writer and a commit is one append to the -wal file. Each WAL
  // frame carries a checksum chained from the previous one and a commit marker; recovery after
  // kill -9 or a power cut replays only frames up to the last valid commit, so a half-written
  // transaction is simply absent. The database file itself is only changed by checkpoints,
  // which copy committed frames and are restartable.
  auto mode = query_text(im.db, "PRAGMA journal_mode = WAL", "enabling WAL");
  if (!mode.ok()) return fail(mode.error());
  if (*mode != "wal" && !(*mode == "memory" && path == ":memory:")) {
    return fail(Error{"store: the database refused WAL mode (journal_mode is " + *mode + ")"});
  }
  // synchronous=NORMAL in WAL mode: the -wal file is fsynced at each checkpoint, not at each
  // commit. After kill -9 nothing is lost (committed frames are in the OS page cache). After a
  // power cut or OS crash the last few commits may be missing, but the database is still
  // consistent: the checksums stop recovery at the last durable commit, never inside one.
  // That trade (a few recent rows vs. an fsync per /submit) is the one SQLite recommends.
  if (auto s = exec(im.db, "PRAGMA synchronous = NORMAL", "setting synchronous"); !s.ok()) {
    return fail(s.error());
  }
  // Per connection and off by default; must be set outside a transaction.
  if (auto s = exec(im.db, "PRAGMA foreign_keys = ON", "enabling foreign keys"); !s.ok()) {
    return fail(s.error());
  }
  auto fk = query_text(im.db, "PRAGMA foreign_keys", "checking foreign keys");
  if (!fk.ok()) return fail(fk.error());
  if (*fk != "1") return fail(Error{"store: this SQLite build does not enforce foreign keys"});

  if (auto s = im.migrate(path); !s.ok()) return s.error();
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
  // IMMEDIATE takes the write lock now (waiting up to the busy timeout), so the transaction
  // cannot fail half-way with SQLITE_BUSY on a lock upgrade.
  if (auto s = exec(im.db, "BEGIN IMMEDIATE", "starting the submission transaction"); !s.ok()) {
    return s.error();
  }
  auto id = im.insert_submission(r);
  if (id.ok()) {
    Status committed = exec(im.db, "COMMIT", "committing the submission");
    if (committed.ok()) return id;
    id = committed.error();
  }
  rollback(im.db);
  return id.error();
}

Result<int64_t> Store::record_score_call(const ScoreCallRecord& r) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto stmt = im.prepare(kInsertScoreCall);
  if (!stmt.ok()) return stmt.error();
  Query q(im.db, *stmt);  // one statement: atomic without an explicit transaction
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
  return static_cast<int64_t>(sqlite3_last_insert_rowid(im.db));
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
  auto stmt = im.prepare(kSelectBaseline);
  if (!stmt.ok()) return stmt.error();
  Query q(im.db, *stmt);
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
  auto stmt = im.prepare(kUpsertBaseline);
  if (!stmt.ok()) return stmt.error();
  Query q(im.db, *stmt);
  bind_baseline_key(q, key);
  q.text(":samples_json", nlohmann::json(samples.ns).dump());
  q.real(":measured_at", samples.measured_at);
  q.text(":protocol", samples.protocol);
  return q.run("storing baseline samples");
}

Result<int64_t> Store::count_submissions() {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  auto stmt = im.prepare(kCountSubmissions);
  if (!stmt.ok()) return stmt.error();
  Query q(im.db, *stmt);
  auto row = q.step("counting submissions");
  if (!row.ok()) return row.error();
  return q.col_int("n");
}

Result<std::optional<SubmissionRecord>> Store::get_submission(int64_t id) {
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return closed_error();
  // Three reads of one submission: a read transaction makes them one snapshot.
  if (auto s = exec(im.db, "BEGIN", "starting a read"); !s.ok()) return s.error();
  struct EndRead {
    sqlite3* db;
    ~EndRead() { (void)exec(db, "COMMIT", "ending a read"); }
  } end_read{im.db};

  SubmissionRecord r;
  {
    auto stmt = im.prepare(kSelectSubmission);
    if (!stmt.ok()) return stmt.error();
    Query q(im.db, *stmt);
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
    if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  }
  {
    auto stmt = im.prepare(kSelectSamples);
    if (!stmt.ok()) return stmt.error();
    Query q(im.db, *stmt);
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
    auto stmt = im.prepare(kSelectConfigs);
    if (!stmt.ok()) return stmt.error();
    Query q(im.db, *stmt);
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
  if (auto s = exec(im.db, "BEGIN", "starting a read"); !s.ok()) return s.error();
  struct EndRead {
    sqlite3* db;
    ~EndRead() { (void)exec(db, "COMMIT", "ending a read"); }
  } end_read{im.db};
  auto bind_filter = [&filter](Query& q) {
    q.opt_text(":kernel", filter.kernel);
    q.opt_text(":run_id", filter.run_id);
    q.opt_text(":optimizer", filter.optimizer);
    q.opt_text(":verdict", filter.verdict);
  };

  SubmissionPage page;
  {
    auto stmt = im.prepare(kCountFilteredSubmissions);
    if (!stmt.ok()) return stmt.error();
    Query q(im.db, *stmt);
    bind_filter(q);
    auto row = q.step("counting submissions");
    if (!row.ok()) return row.error();
    page.total = q.col_int("n");
    if (!q.column_error().empty()) return Error{"store: " + q.column_error()};
  }
  auto stmt = im.prepare(kListSubmissions);
  if (!stmt.ok()) return stmt.error();
  Query q(im.db, *stmt);
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

void Store::close() {
  if (!impl_) return;
  std::lock_guard lock(impl_->mu);
  Impl& im = *impl_;
  if (!im.db) return;
  for (auto& [sql, stmt] : im.stmts) sqlite3_finalize(stmt);
  im.stmts.clear();
  // Lets SQLite refresh its planner statistics, as its documentation advises before closing.
  (void)exec(im.db, "PRAGMA optimize", "optimizing");
  // The last connection to close checkpoints the WAL into the database file and removes it.
  // close_v2 never fails for unfinalized statements; there are none left anyway.
  sqlite3_close_v2(im.db);
  im.db = nullptr;
}

}  // namespace hpcab::judge
