// Prepared-statement helpers shared by the judge's store and the harness's episode database.
// Header-only: `common` itself does not link SQLite; the libraries including this do.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"

namespace hpcab {

// "<owner>: <context>: <sqlite message> (code N)".
inline Error sql_error(sqlite3* db, const std::string& owner, std::string_view context) {
  return Error{owner + ": " + std::string(context) + ": " + sqlite3_errmsg(db) + " (code " +
               std::to_string(sqlite3_extended_errcode(db)) + ")"};
}

// One use of a cached prepared statement: binds by parameter name, steps, reads columns by
// name, and resets the statement (clearing its bindings) when it goes out of scope so the
// next user starts clean. A bind error is remembered and reported by the first step.
class SqlQuery {
 public:
  // `owner` prefixes error messages ("store", "episode db").
  SqlQuery(sqlite3* db, sqlite3_stmt* stmt, std::string owner)
      : db_(db), stmt_(stmt), owner_(std::move(owner)) {}
  ~SqlQuery() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  SqlQuery(const SqlQuery&) = delete;
  SqlQuery& operator=(const SqlQuery&) = delete;

  void text(const char* name, std::string_view v) {
    if (v.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      fail(std::string("value for ") + name + " is larger than SQLite can store");
      return;
    }
    // SQLITE_TRANSIENT: SQLite copies the bytes, so the caller's string may die first.
    check(sqlite3_bind_text(stmt_, index(name), v.data(), static_cast<int>(v.size()),
                            SQLITE_TRANSIENT),
          name);
  }
  void integer(const char* name, int64_t v) {
    check(sqlite3_bind_int64(stmt_, index(name), v), name);
  }
  void boolean(const char* name, bool v) { integer(name, v ? 1 : 0); }
  void real(const char* name, double v) {  // NaN is stored as NULL by SQLite
    check(sqlite3_bind_double(stmt_, index(name), v), name);
  }
  void real(const char* name, const std::optional<double>& v) {
    if (v) return real(name, *v);
    check(sqlite3_bind_null(stmt_, index(name)), name);
  }
  void integer(const char* name, const std::optional<int64_t>& v) {
    if (v) return integer(name, *v);
    check(sqlite3_bind_null(stmt_, index(name)), name);
  }
  void opt_integer(const char* name, const std::optional<int64_t>& v) { integer(name, v); }
  void opt_text(const char* name, const std::optional<std::string>& v) {
    if (v) return text(name, *v);
    check(sqlite3_bind_null(stmt_, index(name)), name);
  }

  // True when a row is available, false when the statement is done.
  Result<bool> step(std::string_view context) {
    if (!bind_error_.empty())
      return Error{owner_ + ": " + std::string(context) + ": " + bind_error_};
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return sql_error(db_, owner_, context);
  }
  // Runs a statement that returns no rows.
  Status run(std::string_view context) {
    auto r = step(context);
    if (!r.ok()) return r.error();
    return Ok{};
  }

  std::string col_text(const char* name) {
    int i = column(name);
    if (i < 0) return {};
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
    int n = sqlite3_column_bytes(stmt_, i);  // after column_text: the byte count of that text
    return p ? std::string(p, static_cast<std::size_t>(n)) : std::string();
  }
  int64_t col_int(const char* name) {
    int i = column(name);
    return i < 0 ? 0 : sqlite3_column_int64(stmt_, i);
  }
  bool col_bool(const char* name) { return col_int(name) != 0; }
  double col_real(const char* name) {
    int i = column(name);
    return i < 0 ? 0 : sqlite3_column_double(stmt_, i);
  }
  std::optional<double> col_opt_real(const char* name) {
    int i = column(name);
    if (i < 0 || sqlite3_column_type(stmt_, i) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(stmt_, i);
  }
  double col_real_or_nan(const char* name) {
    return col_opt_real(name).value_or(std::numeric_limits<double>::quiet_NaN());
  }
  std::optional<int64_t> col_opt_int(const char* name) {
    int i = column(name);
    if (i < 0 || sqlite3_column_type(stmt_, i) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(stmt_, i);
  }
  // Set when a column read named a column the statement does not have (a bug in this file).
  const std::string& column_error() const { return column_error_; }

 private:
  int index(const char* name) {
    int i = sqlite3_bind_parameter_index(stmt_, name);
    if (i == 0) fail(std::string("statement has no parameter ") + name);
    return i;  // binding index 0 fails with SQLITE_RANGE, already reported
  }
  void check(int rc, const char* name) {
    if (rc != SQLITE_OK) fail(std::string("binding ") + name + ": " + sqlite3_errmsg(db_));
  }
  void fail(std::string message) {
    if (bind_error_.empty()) bind_error_ = std::move(message);
  }
  int column(const char* name) {
    int n = sqlite3_column_count(stmt_);
    for (int i = 0; i < n; ++i) {
      if (std::string_view(sqlite3_column_name(stmt_, i)) == name) return i;
    }
    if (column_error_.empty()) column_error_ = std::string("statement has no column ") + name;
    return -1;
  }

  sqlite3* db_;
  sqlite3_stmt* stmt_;
  std::string owner_;
  std::string bind_error_;
  std::string column_error_;
};

}  // namespace hpcab
