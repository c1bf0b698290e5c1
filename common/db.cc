// The SQLite layer (db.h) on the SQLite3 C API: the only file of the project outside tests/
// that includes sqlite3.h.
#include "common/db.h"

#include <sqlite3.h>

#include <limits>
#include <utility>

namespace hpcab::db {
namespace {

Error closed(const std::string& owner) { return Error{owner + ": the database is closed"}; }

// SQLite's message for `rc` on `db`, or its generic text when there is no connection.
std::string message(sqlite3* db, int rc) { return db ? sqlite3_errmsg(db) : sqlite3_errstr(rc); }

}  // namespace

// ---- Query ----------------------------------------------------------------------------------

Query::Query(Query&& o) noexcept
    : conn_(o.conn_),
      stmt_(o.stmt_),
      bind_error_(std::move(o.bind_error_)),
      column_error_(std::move(o.column_error_)) {
  o.stmt_ = nullptr;
}

Query::~Query() {
  if (!stmt_) return;
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

void Query::text(const char* name, std::string_view v) {
  if (v.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    fail(std::string("value for ") + name + " is larger than SQLite can store");
    return;
  }
  // SQLITE_TRANSIENT: SQLite copies the bytes, so the caller's string may die first.
  check(
      sqlite3_bind_text(stmt_, index(name), v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT),
      name);
}

void Query::integer(const char* name, int64_t v) {
  check(sqlite3_bind_int64(stmt_, index(name), v), name);
}

void Query::integer(const char* name, const std::optional<int64_t>& v) {
  if (v) return integer(name, *v);
  null(name);
}

void Query::opt_text(const char* name, const std::optional<std::string>& v) {
  if (v) return text(name, *v);
  null(name);
}

void Query::real(const char* name, double v) {
  check(sqlite3_bind_double(stmt_, index(name), v), name);
}

void Query::real(const char* name, const std::optional<double>& v) {
  if (v) return real(name, *v);
  null(name);
}

void Query::null(const char* name) { check(sqlite3_bind_null(stmt_, index(name)), name); }

Result<bool> Query::step(std::string_view context) {
  if (!bind_error_.empty()) {
    return Error{conn_->owner_ + ": " + std::string(context) + ": " + bind_error_};
  }
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return conn_->error(context);
}

Status Query::run(std::string_view context) {
  auto r = step(context);
  if (!r.ok()) return r.error();
  return Ok{};
}

std::string Query::col_text(const char* name) {
  int i = column(name);
  if (i < 0) return {};
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
  int n = sqlite3_column_bytes(stmt_, i);  // after column_text: the byte count of that text
  return p ? std::string(p, static_cast<std::size_t>(n)) : std::string();
}

int64_t Query::col_int(const char* name) {
  int i = column(name);
  return i < 0 ? 0 : sqlite3_column_int64(stmt_, i);
}

double Query::col_real(const char* name) {
  int i = column(name);
  return i < 0 ? 0 : sqlite3_column_double(stmt_, i);
}

std::optional<double> Query::col_opt_real(const char* name) {
  int i = column(name);
  if (i < 0 || sqlite3_column_type(stmt_, i) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_double(stmt_, i);
}

double Query::col_real_or_nan(const char* name) {
  return col_opt_real(name).value_or(std::numeric_limits<double>::quiet_NaN());
}

std::optional<std::string> Query::col_opt_text(const char* name) {
  int i = column(name);
  if (i < 0 || sqlite3_column_type(stmt_, i) == SQLITE_NULL) return std::nullopt;
  return col_text(name);
}

std::optional<int64_t> Query::col_opt_int(const char* name) {
  int i = column(name);
  if (i < 0 || sqlite3_column_type(stmt_, i) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_int64(stmt_, i);
}

int Query::index(const char* name) {
  int i = sqlite3_bind_parameter_index(stmt_, name);
  if (i == 0) fail(std::string("statement has no parameter ") + name);
  return i;  // binding index 0 fails with SQLITE_RANGE, already reported
}

void Query::check(int rc, const char* name) {
  if (rc != SQLITE_OK) fail(std::string("binding ") + name + ": " + sqlite3_errmsg(conn_->db_));
}

void Query::fail(std::string message) {
  if (bind_error_.empty()) bind_error_ = std::move(message);
}

int Query::column(const char* name) {
  int n = sqlite3_column_count(stmt_);
  for (int i = 0; i < n; ++i) {
    if (std::string_view(sqlite3_column_name(stmt_, i)) == name) return i;
  }
  if (column_error_.empty()) column_error_ = std::string("statement has no column ") + name;
  return -1;
}

// ---- Statement, Transaction -------------------------------------------------------------------

Statement::~Statement() { sqlite3_finalize(stmt_); }  // a no-op on nullptr

Status Transaction::commit(std::string_view context) {
  if (!conn_) return Error{"transaction: " + std::string(context) + ": not active"};
  Status s = conn_->exec("COMMIT", context);
  if (s.ok()) {
    conn_ = nullptr;
    return s;
  }
  rollback();
  return s;
}

void Transaction::rollback() {
  if (!conn_) return;
  (void)conn_->exec("ROLLBACK", "rolling back");
  conn_ = nullptr;
}

// ---- Connection -------------------------------------------------------------------------------

Result<Connection> Connection::open(const std::string& path, const Options& options) {
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  if (options.create) flags |= SQLITE_OPEN_CREATE;
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = message(raw, rc);
    sqlite3_close(raw);
    return Error{options.owner + ": cannot open database " + path + ": " + msg};
  }
  Connection c(raw, options.owner);  // from here on, a failure closes the connection through ~
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, options.busy_timeout_ms);
  auto fail = [&](const Error& e) { return Error{e.message + " [" + path + "]"}; };

  if (options.wal) {
    // WAL: readers never block the writer and a commit is one append to the -wal file. Each
    // WAL frame carries a checksum chained from the previous one and a commit marker; recovery
    // after kill -9 or a power cut replays only frames up to the last valid commit, so a
    // half-written transaction is simply absent.
    auto mode = c.query_text("PRAGMA journal_mode = WAL", "enabling WAL");
    if (!mode.ok()) return fail(mode.error());
    if (*mode != "wal" && !(*mode == "memory" && path == ":memory:")) {
      return fail(
          Error{options.owner + ": the database refused WAL mode (journal_mode is " + *mode + ")"});
    }
    // synchronous=NORMAL in WAL mode: the -wal file is fsynced at each checkpoint, not at each
    // commit. After kill -9 nothing is lost (committed frames are in the OS page cache). After
    // a power cut the last few commits may be missing, but the database is still consistent:
    // the checksums stop recovery at the last durable commit, never inside one. That trade is
    // the one SQLite recommends.
    if (auto s = c.exec("PRAGMA synchronous = NORMAL", "setting synchronous"); !s.ok()) {
      return fail(s.error());
    }
  }
  if (options.foreign_keys) {
    // Per connection and off by default; must be set outside a transaction.
    if (auto s = c.exec("PRAGMA foreign_keys = ON", "enabling foreign keys"); !s.ok()) {
      return fail(s.error());
    }
    if (options.require_foreign_keys) {
      auto fk = c.query_text("PRAGMA foreign_keys", "checking foreign keys");
      if (!fk.ok()) return fail(fk.error());
      if (*fk != "1") {
        return fail(Error{options.owner + ": this SQLite build does not enforce foreign keys"});
      }
    }
  }
  return c;
}

Result<Connection> Connection::open_readonly(const std::string& path, const Options& options) {
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = message(raw, rc);
    sqlite3_close(raw);
    return Error{options.owner + ": cannot open database " + path + " read-only: " + msg};
  }
  Connection c(raw, options.owner);
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, options.busy_timeout_ms);
  return c;
}

Connection::Connection(Connection&& o) noexcept
    : db_(o.db_), owner_(std::move(o.owner_)), cache_(std::move(o.cache_)) {
  o.db_ = nullptr;
  o.cache_.clear();
}

Connection::~Connection() { (void)close(); }

Result<int> Connection::user_version() {
  auto v = query_text("PRAGMA user_version", "reading the schema version");
  if (!v.ok()) return v.error();
  try {
    return std::stoi(*v);
  } catch (const std::exception&) {
    return Error{owner_ + ": reading the schema version: not a number: " + *v};
  }
}

Result<int> Connection::migrate(std::span<const Migration> migrations,
                                const std::function<Error(int found, int latest)>& too_new) {
  const int latest = static_cast<int>(migrations.size());
  for (int i = 0; i < latest; ++i) {
    if (migrations[i].version != i + 1) {
      return Error{owner_ + ": migration list is out of order at entry " + std::to_string(i)};
    }
  }
  for (;;) {
    auto tx = begin_immediate("starting a migration");
    if (!tx.ok()) return tx.error();
    auto v = user_version();
    if (!v.ok()) return v.error();  // ~Transaction rolls back
    if (*v == latest) {
      if (auto s = tx->commit("ending the migration check"); !s.ok()) return s.error();
      return latest;
    }
    if (*v < 0 || *v > latest) return too_new(*v, latest);
    const Migration& m = migrations[static_cast<std::size_t>(*v)];  // to version v + 1
    std::string context = "migration " + std::to_string(m.version) + " (" + m.what + ")";
    if (auto s = exec(m.sql, context); !s.ok()) return s.error();
    // A PRAGMA takes no bound parameters; the value is the migration list's own constant.
    if (auto s = exec("PRAGMA user_version = " + std::to_string(m.version), context); !s.ok()) {
      return s.error();
    }
    if (auto s = tx->commit(context); !s.ok()) return s.error();
  }
}

Status Connection::exec(const std::string& sql, std::string_view context) {
  if (!db_) return closed(owner_);
  char* msg = nullptr;
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg);
  if (rc == SQLITE_OK) return Ok{};
  std::string text = msg ? msg : sqlite3_errstr(rc);
  sqlite3_free(msg);
  return Error{owner_ + ": " + std::string(context) + ": " + text + " (code " + std::to_string(rc) +
               ")"};
}

Result<std::string> Connection::query_text(const std::string& sql, std::string_view context) {
  auto st = prepare(sql, context);
  if (!st.ok()) return st.error();
  auto q = st->use();
  auto row = q.step(context);
  if (!row.ok()) return row.error();
  if (!*row) return std::string();
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(q.stmt_, 0));
  return std::string(p ? p : "");
}

Result<bool> Connection::has_table(const std::string& name) {
  auto st = prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = :name",
                    "looking for table " + name);
  if (!st.ok()) return st.error();
  auto q = st->use();
  q.text(":name", name);
  return q.step("looking for table " + name);
}

Result<Query> Connection::query(const std::string& sql) {
  if (!db_) return closed(owner_);
  if (auto it = cache_.find(sql); it != cache_.end()) return Query(this, it->second);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) !=
      SQLITE_OK) {
    return error("preparing a statement");
  }
  cache_.emplace(sql, stmt);
  return Query(this, stmt);
}

Result<Statement> Connection::prepare(const std::string& sql, std::string_view context) {
  if (!db_) return closed(owner_);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    return error(context);
  }
  return Statement(this, stmt);
}

Result<Transaction> Connection::begin_immediate(std::string_view context) {
  // IMMEDIATE takes the write lock now (waiting up to the busy timeout), so the transaction
  // cannot fail half-way with SQLITE_BUSY on a lock upgrade.
  if (auto s = exec("BEGIN IMMEDIATE", context); !s.ok()) return s.error();
  return Transaction(this);
}

Result<Transaction> Connection::begin_read(std::string_view context) {
  if (auto s = exec("BEGIN", context); !s.ok()) return s.error();
  return Transaction(this);
}

int64_t Connection::last_insert_rowid() const {
  return db_ ? static_cast<int64_t>(sqlite3_last_insert_rowid(db_)) : 0;
}

int64_t Connection::changes() const {
  return db_ ? static_cast<int64_t>(sqlite3_changes64(db_)) : 0;
}

Error Connection::error(std::string_view context) const {
  if (!db_) return closed(owner_);
  return Error{owner_ + ": " + std::string(context) + ": " + sqlite3_errmsg(db_) + " (code " +
               std::to_string(sqlite3_extended_errcode(db_)) + ")"};
}

void Connection::optimize() { (void)exec("PRAGMA optimize", "optimizing"); }

Status Connection::close() {
  if (!db_) return Ok{};
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  cache_.clear();
  sqlite3* db = std::exchange(db_, nullptr);
  if (sqlite3_close(db) == SQLITE_OK) return Ok{};
  // A Statement still alive: close_v2 closes once it is finalized, so nothing leaks.
  sqlite3_close_v2(db);
  return Error{owner_ + ": closing the database: a statement was still open"};
}

}  // namespace hpcab::db
