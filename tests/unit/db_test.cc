// The SQLite layer (common/db.h) on real files in a fresh temporary directory per test: open
// options, migrations and user_version, transactions, the statement cache, binding and column
// errors, read-only opens. Raw SQLite (own connection) checks what the layer wrote.
#include "common/db.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

namespace hpcab::db {
namespace {

namespace fs = std::filesystem;

// The first column of the first row of `sql`, on a connection of its own ("" when no row).
std::string Raw(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
  sqlite3_busy_timeout(db, 10'000);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  std::string out;
  if (sqlite3_step(st) == SQLITE_ROW) {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    out = p ? p : "";
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

constexpr Migration kTwo[] = {
    {1, "table t", "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, x REAL);"},
    {2, "table u", "CREATE TABLE u (id INTEGER PRIMARY KEY, t_id INTEGER REFERENCES t (id));"},
};

Error TooNew(int found, int latest) {
  return Error{"too new: " + std::to_string(found) + " > " + std::to_string(latest)};
}

class DbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("hpcab-db-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "t.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  Connection Open(Options o = {}) {
    o.owner = "test";
    auto c = Connection::open(path_, o);
    EXPECT_TRUE(c.ok()) << c.error().message;
    return std::move(*c);
  }

  fs::path dir_;
  std::string path_;
};

TEST_F(DbTest, OpenSetsWalForeignKeysAndMigrates) {
  auto c = Open();
  auto v = c.migrate(kTwo, TooNew);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_EQ(*v, 2);
  auto mode = c.query_text("PRAGMA journal_mode", "mode");
  ASSERT_TRUE(mode.ok());
  EXPECT_EQ(*mode, "wal");
  auto fk = c.query_text("PRAGMA foreign_keys", "fk");
  ASSERT_TRUE(fk.ok());
  EXPECT_EQ(*fk, "1");
  auto has = c.has_table("u");
  ASSERT_TRUE(has.ok());
  EXPECT_TRUE(*has);
  has = c.has_table("nope");
  ASSERT_TRUE(has.ok());
  EXPECT_FALSE(*has);
  EXPECT_EQ(Raw(path_, "PRAGMA user_version"), "2");
}

TEST_F(DbTest, MigrationsApplyOnlyWhatIsMissing) {
  {
    auto c = Open();
    auto v = c.migrate(std::span<const Migration>(kTwo, 1), TooNew);
    ASSERT_TRUE(v.ok()) << v.error().message;
    EXPECT_EQ(*v, 1);
  }
  EXPECT_EQ(Raw(path_, "PRAGMA user_version"), "1");
  Raw(path_, "INSERT INTO t (name) VALUES ('kept')");
  auto c = Open();
  auto v = c.migrate(kTwo, TooNew);  // only migration 2 runs; migration 1 would fail (exists)
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_EQ(*v, 2);
  EXPECT_EQ(Raw(path_, "SELECT name FROM t"), "kept");
  v = c.migrate(kTwo, TooNew);  // idempotent
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 2);
}

TEST_F(DbTest, AFailedMigrationLeavesThePreviousVersion) {
  constexpr Migration bad[] = {
      kTwo[0],
      {2, "broken", "CREATE TABLE v (a INTEGER); CREATE TABLE t (again INTEGER);"},
  };
  auto c = Open();
  auto v = c.migrate(bad, TooNew);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("migration 2 (broken)"), std::string::npos) << v.error().message;
  EXPECT_EQ(Raw(path_, "PRAGMA user_version"), "1");
  EXPECT_EQ(Raw(path_, "SELECT count(*) FROM sqlite_master WHERE name = 'v'"), "0");
}

TEST_F(DbTest, ANewerFileIsRefusedAndLeftUntouched) {
  {
    auto c = Open();
    ASSERT_TRUE(c.migrate(kTwo, TooNew).ok());
  }
  Raw(path_, "PRAGMA user_version = 7");
  auto c = Open();
  auto v = c.migrate(kTwo, TooNew);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().message, "too new: 7 > 2");
  EXPECT_EQ(Raw(path_, "PRAGMA user_version"), "7");
}

TEST_F(DbTest, TransactionRollsBackUnlessCommitted) {
  auto c = Open();
  ASSERT_TRUE(c.migrate(kTwo, TooNew).ok());
  {
    auto tx = c.begin_immediate("writing");
    ASSERT_TRUE(tx.ok()) << tx.error().message;
    ASSERT_TRUE(c.exec("INSERT INTO t (name) VALUES ('dropped')", "insert").ok());
  }  // destroyed uncommitted
  EXPECT_EQ(Raw(path_, "SELECT count(*) FROM t"), "0");
  {
    auto tx = c.begin_immediate("writing");
    ASSERT_TRUE(tx.ok());
    ASSERT_TRUE(c.exec("INSERT INTO t (name) VALUES ('kept')", "insert").ok());
    ASSERT_TRUE(tx->commit("committing").ok());
  }
  EXPECT_EQ(Raw(path_, "SELECT count(*) FROM t"), "1");
  // The connection is usable after both (no transaction left open).
  auto tx = c.begin_read("reading");
  ASSERT_TRUE(tx.ok()) << tx.error().message;
}

TEST_F(DbTest, CachedQueriesBindStepAndReadByName) {
  auto c = Open();
  ASSERT_TRUE(c.migrate(kTwo, TooNew).ok());
  const char* kInsert = "INSERT INTO t (name, x) VALUES (:name, :x)";
  for (int i = 0; i < 3; ++i) {
    auto q = c.query(kInsert);
    ASSERT_TRUE(q.ok()) << q.error().message;
    q->text(":name", "row" + std::to_string(i));
    if (i == 1) {
      q->real(":x", std::optional<double>());
    } else {
      q->real(":x", i == 2 ? std::numeric_limits<double>::quiet_NaN() : 1.5);
    }
    ASSERT_TRUE(q->run("inserting").ok());
    EXPECT_EQ(c.last_insert_rowid(), i + 1);
    EXPECT_EQ(c.changes(), 1);
  }
  auto q = c.query("SELECT id, name, x FROM t ORDER BY id");
  ASSERT_TRUE(q.ok());
  std::vector<std::optional<double>> xs;
  for (;;) {
    auto row = q->step("listing");
    ASSERT_TRUE(row.ok()) << row.error().message;
    if (!*row) break;
    EXPECT_EQ(q->col_text("name"), "row" + std::to_string(q->col_int("id") - 1));
    xs.push_back(q->col_opt_real("x"));
  }
  ASSERT_EQ(xs.size(), 3u);
  EXPECT_EQ(xs[0], 1.5);
  EXPECT_FALSE(xs[1].has_value());
  EXPECT_FALSE(xs[2].has_value());  // SQLite has no NaN: stored as NULL
  EXPECT_TRUE(q->column_error().empty());
  (void)q->col_int("missing");
  EXPECT_NE(q->column_error().find("no column missing"), std::string::npos);

  // NULL text reads as nullopt with col_opt_text, and an empty string as "".
  auto nulls = c.query("SELECT NULL AS none, '' AS empty, 'x' AS x");
  ASSERT_TRUE(nulls.ok());
  auto row = nulls->step("nulls");
  ASSERT_TRUE(row.ok() && *row);
  EXPECT_FALSE(nulls->col_opt_text("none").has_value());
  EXPECT_EQ(nulls->col_opt_text("empty"), std::optional<std::string>(""));
  EXPECT_EQ(nulls->col_opt_text("x"), std::optional<std::string>("x"));
}

TEST_F(DbTest, BindErrorsAreReportedByStep) {
  auto c = Open();
  ASSERT_TRUE(c.migrate(kTwo, TooNew).ok());
  auto q = c.query("INSERT INTO t (name) VALUES (:name)");
  ASSERT_TRUE(q.ok());
  q->text(":nmae", "typo");
  auto r = q->run("inserting");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("test: inserting: statement has no parameter :nmae"),
            std::string::npos)
      << r.error().message;
}

TEST_F(DbTest, SqlErrorsNameOwnerContextAndCode) {
  auto c = Open();
  ASSERT_TRUE(c.migrate(kTwo, TooNew).ok());
  auto q = c.query("INSERT INTO u (t_id) VALUES (:t)");  // no such t: foreign key
  ASSERT_TRUE(q.ok());
  q->integer(":t", int64_t{42});
  auto r = q->run("inserting u");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("test: inserting u: FOREIGN KEY constraint failed (code "),
            std::string::npos)
      << r.error().message;
  auto bad = c.query("SELEKT 1");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("syntax error"), std::string::npos);
}

TEST_F(DbTest, ReadOnlyOpenNeverWrites) {
  {
    auto c = Open();
    ASSERT_TRUE(c.migrate(kTwo, TooNew).ok());
  }
  Options o;
  o.owner = "reader";
  auto r = Connection::open_readonly(path_, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto s = r->exec("INSERT INTO t (name) VALUES ('no')", "writing");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("readonly"), std::string::npos) << s.error().message;
  EXPECT_EQ(Raw(path_, "SELECT count(*) FROM t"), "0");
  auto missing = Connection::open_readonly((dir_ / "missing.db").string(), o);
  EXPECT_FALSE(missing.ok());
  EXPECT_FALSE(fs::exists(dir_ / "missing.db"));
}

TEST_F(DbTest, NotADatabaseFailsNamingThePath) {
  std::ofstream(path_) << "not an SQLite database" << std::string(4096, 'x');
  Options o;
  auto c = Connection::open(path_, o);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find(path_), std::string::npos) << c.error().message;
}

TEST_F(DbTest, ClosedConnectionAndOwnedStatements) {
  auto c = Open();
  ASSERT_TRUE(c.migrate(kTwo, TooNew).ok());
  {
    auto st = c.prepare("SELECT count(*) AS n FROM t", "counting");
    ASSERT_TRUE(st.ok());
    for (int i = 0; i < 2; ++i) {  // an owned statement serves several uses
      auto q = st->use();
      auto row = q.step("counting");
      ASSERT_TRUE(row.ok() && *row);
      EXPECT_EQ(q.col_int("n"), 0);
    }
  }
  ASSERT_TRUE(c.close().ok());
  EXPECT_FALSE(c.is_open());
  auto q = c.query("SELECT 1");
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.error().message, "test: the database is closed");
  EXPECT_TRUE(c.close().ok());  // again: a no-op
}

}  // namespace
}  // namespace hpcab::db
