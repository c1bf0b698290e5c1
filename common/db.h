// The project's one SQLite layer: every database of the project (the judge's store and its
// merge, the harness's episode database, report extraction) goes through this file, and no
// other source file calls the SQLite C API (tests/deps/check_deps.sh enforces it; tests may
// still open files raw to inspect or corrupt them).
//
// What it provides:
//  - Connection::open: read-write, creating the file, WAL + synchronous=NORMAL, foreign keys,
//    a busy timeout (all in Options); Connection::open_readonly for readers of finished files.
//  - Connection::migrate: numbered migrations recorded in PRAGMA user_version (the scheme the
//    judge's and the harness's files already use), each applied in its own BEGIN IMMEDIATE
//    transaction together with the version bump.
//  - A prepared-statement cache (Connection::query) and owned one-off statements
//    (Connection::prepare) for SQL built at run time.
//  - Transaction: RAII, rolled back on destruction unless committed; writers use
//    begin_immediate so a transaction never fails half-way on a lock upgrade.
//  - Query: binds by parameter name, steps, reads columns by name; every failure is a Result
//    or Status naming the owner, what was being done and SQLite's message. Nothing throws.
//
// Thread safety: a Connection is one SQLite connection opened SQLITE_OPEN_NOMUTEX; its users
// serialize calls (the store and the episode database hold a mutex around every call).
// sqlite3.h is not included here, so only common/db.cc depends on SQLite's headers.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace hpcab::db {

struct Options {
  // Prefixes every error message: "store", "episode db", "merge", or a file name.
  std::string owner = "db";
  // How long a statement waits for a lock another connection holds (another process, or a
  // researcher's sqlite3 shell in the middle of a write) before failing with SQLITE_BUSY.
  int busy_timeout_ms = 10'000;
  // Read-write opens only: create the file when missing.
  bool create = true;
  // Read-write opens only: PRAGMA journal_mode=WAL (an error when refused, except for
  // ":memory:") and synchronous=NORMAL. WAL is persistent in the file, so a connection to a
  // file made by another WAL connection may leave this off.
  bool wal = true;
  // PRAGMA foreign_keys=ON (per connection, off by default in SQLite).
  bool foreign_keys = true;
  // Fail the open when this SQLite build does not enforce foreign keys.
  bool require_foreign_keys = false;
};

// One schema step: `sql` (constant DDL, several statements allowed) takes the file from
// user_version `version - 1` to `version`. The i-th entry of a list has version i + 1.
struct Migration {
  int version;
  const char* what;  // named in error messages: "migration 2 (arms: ...)"
  const char* sql;
};

class Connection;

// One use of a prepared statement. Binding errors are remembered and reported by the first
// step; reading a column the statement does not have sets column_error() (a bug in the
// caller's SQL). The statement is reset and its bindings cleared when the Query dies, so the
// next use starts clean. At most one Query of a given statement may be alive at a time.
class Query {
 public:
  Query(Query&& o) noexcept;
  Query& operator=(Query&&) = delete;
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  ~Query();

  void text(const char* name, std::string_view v);
  void integer(const char* name, int64_t v);
  void integer(const char* name, const std::optional<int64_t>& v);  // nullopt binds NULL
  void opt_integer(const char* name, const std::optional<int64_t>& v) { integer(name, v); }
  void opt_text(const char* name, const std::optional<std::string>& v);
  void boolean(const char* name, bool v) { integer(name, v ? 1 : 0); }
  void real(const char* name, double v);  // SQLite stores NaN as NULL
  void real(const char* name, const std::optional<double>& v);
  void null(const char* name);

  // True when a row is available, false when the statement is done.
  Result<bool> step(std::string_view context);
  // Runs a statement that returns no rows (or whose rows are not needed).
  Status run(std::string_view context);

  // Columns of the current row, by name. A missing column reads as empty/0 and sets
  // column_error(); NULL reads as empty/0, or nullopt for the opt_ readers.
  std::string col_text(const char* name);
  int64_t col_int(const char* name);
  bool col_bool(const char* name) { return col_int(name) != 0; }
  double col_real(const char* name);
  std::optional<double> col_opt_real(const char* name);
  double col_real_or_nan(const char* name);
  std::optional<int64_t> col_opt_int(const char* name);
  std::optional<std::string> col_opt_text(const char* name);
  const std::string& column_error() const { return column_error_; }

 private:
  friend class Connection;
  friend class Statement;
  Query(Connection* conn, sqlite3_stmt* stmt) : conn_(conn), stmt_(stmt) {}
  int index(const char* name);
  void check(int rc, const char* name);
  void fail(std::string message);
  int column(const char* name);

  Connection* conn_;
  sqlite3_stmt* stmt_;  // nullptr once moved from
  std::string bind_error_;
  std::string column_error_;
};

// A statement prepared for a while (SQL built at run time, e.g. with an attached database's
// column lists), finalized when it dies. It must die before its Connection.
class Statement {
 public:
  Statement(Statement&& o) noexcept : conn_(o.conn_), stmt_(o.stmt_) { o.stmt_ = nullptr; }
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();
  Query use() { return Query(conn_, stmt_); }

 private:
  friend class Connection;
  Statement(Connection* conn, sqlite3_stmt* stmt) : conn_(conn), stmt_(stmt) {}
  Connection* conn_;
  sqlite3_stmt* stmt_;
};

// An open transaction; rolled back when it dies uncommitted. A failed rollback is ignored: it
// fails only when SQLite has already rolled back (e.g. after an I/O error), and either way
// nothing of the transaction remains.
class Transaction {
 public:
  Transaction(Transaction&& o) noexcept : conn_(o.conn_) { o.conn_ = nullptr; }
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction() { rollback(); }
  // COMMIT. On failure the transaction is rolled back before the error is returned.
  Status commit(std::string_view context);
  void rollback();

 private:
  friend class Connection;
  explicit Transaction(Connection* conn) : conn_(conn) {}
  Connection* conn_;  // nullptr once committed or rolled back
};

class Connection {
 public:
  // Opens `path` read-write (creating it when options.create), with the options' pragmas.
  // Errors after the file is open name the path: "<owner>: <what>: <message> [path]".
  static Result<Connection> open(const std::string& path, const Options& options);
  // Opens `path` read-only with a busy timeout; never creates or modifies the file.
  static Result<Connection> open_readonly(const std::string& path, const Options& options);

  Connection(Connection&& o) noexcept;
  Connection& operator=(Connection&&) = delete;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  // Applies the pending migrations of `migrations` (versions 1, 2, ... in order) and returns
  // the schema version after them. Each step re-reads user_version inside its own
  // BEGIN IMMEDIATE transaction, so two processes opening a fresh file at once cannot both
  // apply one migration: the second waits for the lock and then sees the new version. A file
  // newer than the list is left untouched and reported with too_new(found, latest).
  Result<int> migrate(std::span<const Migration> migrations,
                      const std::function<Error(int found, int latest)>& too_new);
  Result<int> user_version();

  // Runs constant SQL text (no values in it; several statements allowed), discarding rows.
  Status exec(const std::string& sql, std::string_view context);
  // Runs a constant query (a PRAGMA) and returns the first column of its first row as text
  // ("" when there is no row).
  Result<std::string> query_text(const std::string& sql, std::string_view context);
  // Whether the main database has a table of that name.
  Result<bool> has_table(const std::string& name);

  // The cached prepared statement for `sql` (prepared on first use, finalized by close()).
  // For SQL from the caller's constants; SQL built at run time belongs in prepare().
  Result<Query> query(const std::string& sql);
  // A statement of its own, for SQL built at run time.
  Result<Statement> prepare(const std::string& sql, std::string_view context);

  Result<Transaction> begin_immediate(std::string_view context);  // takes the write lock now
  Result<Transaction> begin_read(std::string_view context);       // deferred: one snapshot

  int64_t last_insert_rowid() const;
  int64_t changes() const;  // rows changed by the last INSERT, UPDATE or DELETE

  // "<owner>: <context>: <sqlite message> (code N)" for the connection's last error.
  Error error(std::string_view context) const;
  const std::string& owner() const { return owner_; }
  bool is_open() const { return db_ != nullptr; }

  // PRAGMA optimize (refreshes planner statistics, as SQLite advises before closing); errors
  // are ignored, it is advisory.
  void optimize();
  // Finalizes the cached statements and closes. The last connection to a WAL file checkpoints
  // it into the database file and removes it. Fails (still closing) when a Statement is
  // alive. Further calls on the connection fail; close() again is a no-op.
  Status close();

 private:
  Connection(sqlite3* db, std::string owner) : db_(db), owner_(std::move(owner)) {}
  friend class Query;
  friend class Transaction;

  sqlite3* db_;
  std::string owner_;
  std::unordered_map<std::string, sqlite3_stmt*> cache_;
};

}  // namespace hpcab::db
