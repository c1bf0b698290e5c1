// Judge database merge (merge.h). The merged file's schema comes from Store::open, so it is
// always the current judge schema; shards must be at that version. Column lists are read from
// the merged file's own schema (PRAGMA table_xinfo, generated columns left out), so a future
// migration needs no change here. Every value goes through bound parameters or INSERT ...
// SELECT; only schema identifiers (quoted) are put into SQL text.
#include "cli/merge.h"

#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "common/db.h"
#include "judge/store/store.h"

namespace hpcab::cli {
namespace fs = std::filesystem;
using judge::Store;

namespace {

constexpr const char* kProvenanceSql = R"sql(
CREATE TABLE merge_shards (
  shard INTEGER PRIMARY KEY,             -- position of the shard on the merge command line
  file TEXT NOT NULL,                    -- the shard database as given
  ranks_json TEXT NOT NULL,              -- JSON array of the judge ranks found in the shard
  submissions INTEGER NOT NULL,          -- rows copied
  score_calls INTEGER NOT NULL,
  baselines INTEGER NOT NULL,            -- cached baselines new to the merged file
  merged_at REAL NOT NULL                -- unix seconds (UTC)
);
CREATE TABLE merged_submissions (
  id INTEGER PRIMARY KEY REFERENCES submissions (id),  -- the submission's id in this file
  shard INTEGER NOT NULL REFERENCES merge_shards (shard),
  rank INTEGER NOT NULL,                 -- the grading judge's rank
  shard_submission_id INTEGER NOT NULL,  -- the submission_id that judge returned to the client
  UNIQUE (rank, shard_submission_id)
);
)sql";

std::string quoted(const std::string& id) {
  std::string out = "\"";
  for (char c : id) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// The stored (non-generated) columns of `table` in the merged file, without `skip`.
Result<std::vector<std::string>> columns(db::Connection& db, const std::string& table,
                                         const std::set<std::string>& skip) {
  auto st = db.prepare("SELECT name, hidden FROM pragma_table_xinfo(:t, 'main')",
                       "reading the columns of " + table);
  if (!st.ok()) return st.error();
  auto q = st->use();
  q.text(":t", table);
  std::vector<std::string> out;
  for (;;) {
    auto row = q.step("reading the columns of " + table);
    if (!row.ok()) return row.error();
    if (!*row) break;
    std::string name = q.col_text("name");
    if (q.col_int("hidden") == 0 && !skip.count(name)) out.push_back(name);
  }
  if (out.empty()) return Error{"merge: table " + table + " has no columns"};
  return out;
}

std::string join(const std::vector<std::string>& cols) {
  std::string out;
  for (const auto& c : cols) out += (out.empty() ? "" : ", ") + quoted(c);
  return out;
}

class Merger {
 public:
  explicit Merger(db::Connection& db) : db_(db) {}

  Status prepare_columns() {
    auto sub = columns(db_, "submissions", {"id"});
    auto smp = columns(db_, "samples", {"id", "submission_id"});
    auto cfg = columns(db_, "config_results", {"id", "submission_id"});
    auto rep = columns(db_, "reported_speedups", {"id", "submission_id"});
    auto sc = columns(db_, "score_calls", {"id"});
    auto bl = columns(db_, "baselines", {"id"});
    for (auto* r : {&sub, &smp, &cfg, &rep, &sc, &bl}) {
      if (!r->ok()) return r->error();
    }
    submission_cols_ = join(*sub);
    sample_cols_ = join(*smp);
    config_cols_ = join(*cfg);
    reported_cols_ = join(*rep);
    score_cols_ = join(*sc);
    baseline_cols_ = join(*bl);
    return Ok{};
  }

  // Copies the shard attached as `shard` (the caller attached it) in one transaction.
  Result<ShardReport> copy(int index, const std::string& file, int expected_version) {
    ShardReport rep;
    rep.file = file;
    auto version = shard_version();
    if (!version.ok()) return version.error();
    if (*version != expected_version) {
      return Error{"merge: " + file + " has judge schema version " + std::to_string(*version) +
                   ", the merged file " + std::to_string(expected_version) +
                   (*version == 0 ? " (is it a judge database?)"
                                  : " (start a judge of this version on it once to migrate it)")};
    }
    {
      auto st =
          db_.prepare("SELECT rank FROM shard.submissions UNION SELECT rank FROM shard.score_calls",
                      "reading the shard's ranks");
      if (!st.ok()) return st.error();
      auto q = st->use();
      for (;;) {
        auto row = q.step("reading the shard's ranks");
        if (!row.ok()) return row.error();
        if (!*row) break;
        rep.ranks.push_back(static_cast<int>(q.col_int("rank")));
      }
    }
    for (int r : rep.ranks) {
      auto [it, fresh] = rank_owner_.emplace(r, file);
      if (!fresh) {
        return Error{"merge: judge rank " + std::to_string(r) + " appears in both " + it->second +
                     " and " + file +
                     ": submission ids are only unique per rank, so this merge would make them "
                     "ambiguous"};
      }
    }

    auto tx = db_.begin_immediate("starting the copy of " + file);
    if (!tx.ok()) return tx.error();
    if (auto copied = copy_rows(index, &rep); !copied.ok()) return copied.error();  // rolls back
    if (auto s = tx->commit("committing the copy of " + file); !s.ok()) return s.error();
    return rep;
  }

 private:
  // The user_version of the attached shard.
  Result<int64_t> shard_version() {
    auto st = db_.prepare("PRAGMA shard.user_version", "reading the shard's version");
    if (!st.ok()) return st.error();
    auto q = st->use();
    auto row = q.step("reading the shard's schema version");
    if (!row.ok()) return row.error();
    if (!*row) return Error{"merge: the shard has no schema version"};
    return q.col_int("user_version");
  }

  Status copy_rows(int index, ShardReport* rep) {
    {
      // The shard's row first: merged_submissions rows refer to it.
      nlohmann::json ranks = rep->ranks;
      auto ins = db_.prepare(
          "INSERT INTO main.merge_shards (shard, file, ranks_json, "
          "submissions, score_calls, baselines, merged_at) VALUES (:shard, "
          ":file, :ranks, 0, 0, 0, :at)",
          "preparing the shard row");
      if (!ins.ok()) return ins.error();
      auto q = ins->use();
      q.integer(":shard", index);
      q.text(":file", rep->file);
      q.text(":ranks", ranks.dump());
      q.real(":at", static_cast<double>(std::time(nullptr)));
      if (auto s = q.run("recording the shard"); !s.ok()) return s;
    }
    std::vector<int64_t> ids;
    {
      auto st = db_.prepare("SELECT id FROM shard.submissions ORDER BY id",
                            "listing the shard's submissions");
      if (!st.ok()) return st.error();
      auto q = st->use();
      for (;;) {
        auto row = q.step("listing the shard's submissions");
        if (!row.ok()) return row.error();
        if (!*row) break;
        ids.push_back(q.col_int("id"));
      }
    }
    auto ins_sub = db_.prepare("INSERT INTO main.submissions (" + submission_cols_ + ") SELECT " +
                                   submission_cols_ + " FROM shard.submissions WHERE id = :old",
                               "preparing the submission copy");
    auto ins_map = db_.prepare(
        "INSERT INTO main.merged_submissions (id, shard, rank, shard_submission_id) "
        "SELECT :new, :shard, rank, id FROM shard.submissions WHERE id = :old",
        "preparing the provenance row");
    auto ins_smp =
        db_.prepare("INSERT INTO main.samples (submission_id, " + sample_cols_ + ") SELECT :new, " +
                        sample_cols_ + " FROM shard.samples WHERE submission_id = :old",
                    "preparing the sample copy");
    auto ins_cfg = db_.prepare("INSERT INTO main.config_results (submission_id, " + config_cols_ +
                                   ") SELECT :new, " + config_cols_ +
                                   " FROM shard.config_results WHERE submission_id = :old",
                               "preparing the configuration copy");
    auto ins_rep = db_.prepare("INSERT INTO main.reported_speedups (submission_id, " +
                                   reported_cols_ + ") SELECT :new, " + reported_cols_ +
                                   " FROM shard.reported_speedups WHERE submission_id = :old",
                               "preparing the reported-speedup copy");
    for (auto* s : {&ins_sub, &ins_map, &ins_smp, &ins_cfg, &ins_rep}) {
      if (!s->ok()) return s->error();
    }
    for (int64_t old : ids) {
      {
        auto q = ins_sub->use();
        q.integer(":old", old);
        if (auto s = q.run("copying submission " + std::to_string(old)); !s.ok()) return s;
      }
      const int64_t fresh = db_.last_insert_rowid();
      for (auto* st : {&ins_map, &ins_smp, &ins_cfg, &ins_rep}) {
        auto q = (*st)->use();
        q.integer(":old", old);
        q.integer(":new", fresh);
        if (st == &ins_map) q.integer(":shard", index);
        if (auto s = q.run("copying the rows of submission " + std::to_string(old)); !s.ok()) {
          return s;
        }
      }
      ++rep->submissions;
    }

    auto changes = [&](const std::string& sql, const std::string& context) -> Result<int64_t> {
      if (auto s = db_.exec(sql, context); !s.ok()) return s.error();
      return db_.changes();
    };
    auto sc = changes("INSERT INTO main.score_calls (" + score_cols_ + ") SELECT " + score_cols_ +
                          " FROM shard.score_calls ORDER BY id",
                      "copying the score calls");
    if (!sc.ok()) return sc.error();
    rep->score_calls = *sc;
    // The same measurement (kernel, sizes, baseline, machine, reference) cached by two judges
    // on one machine is kept once.
    auto bl = changes("INSERT OR IGNORE INTO main.baselines (" + baseline_cols_ + ") SELECT " +
                          baseline_cols_ + " FROM shard.baselines ORDER BY id",
                      "copying the cached baselines");
    if (!bl.ok()) return bl.error();
    rep->baselines = *bl;

    auto upd = db_.prepare(
        "UPDATE main.merge_shards SET submissions = :subs, score_calls = "
        ":scores, baselines = :baselines WHERE shard = :shard",
        "preparing the shard row");
    if (!upd.ok()) return upd.error();
    auto q = upd->use();
    q.integer(":shard", index);
    q.integer(":subs", rep->submissions);
    q.integer(":scores", rep->score_calls);
    q.integer(":baselines", rep->baselines);
    return q.run("recording the shard's counts");
  }

  db::Connection& db_;
  std::string submission_cols_, sample_cols_, config_cols_, reported_cols_, score_cols_,
      baseline_cols_;
  std::map<int, std::string> rank_owner_;
};

void remove_db_files(const std::string& out) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(out + suffix, ec);
}

}  // namespace

Result<MergeReport> merge_databases(const std::string& out,
                                    const std::vector<std::string>& shards) {
  if (shards.empty()) return Error{"merge: no shard databases given"};
  std::error_code ec;
  if (fs::exists(out, ec)) return Error{"merge: " + out + " already exists (choose a new file)"};
  std::set<fs::path> seen;
  for (const auto& s : shards) {
    if (!fs::is_regular_file(s, ec)) return Error{"merge: shard " + s + " is not a file"};
    if (!seen.insert(fs::weakly_canonical(s, ec)).second) {
      return Error{"merge: shard " + s + " is given twice"};
    }
  }

  int version = 0;
  {
    auto store = Store::open(out);  // the current judge schema, WAL, user_version
    if (!store.ok()) return store.error();
    version = (*store)->schema_version();
    (*store)->close();
  }

  // The file Store::open just made: WAL already (persistent in the file), not created again.
  db::Options options;
  options.owner = "merge";
  options.create = false;
  options.wal = false;
  auto conn = db::Connection::open(out, options);
  if (!conn.ok()) {
    remove_db_files(out);
    return conn.error();
  }
  db::Connection& db = *conn;
  auto fail = [&](const Error& e) -> Error {
    (void)db.close();
    remove_db_files(out);
    return e;
  };
  if (auto s = db.exec(kProvenanceSql, "creating the provenance tables"); !s.ok()) {
    return fail(s.error());
  }
  Merger merger(db);
  if (auto s = merger.prepare_columns(); !s.ok()) return fail(s.error());

  MergeReport report;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const std::string& file = shards[i];
    // ATTACH cannot run inside a transaction, and SQLite attaches at most 10 files at a time:
    // one shard at a time, attached read-write so a killed judge's WAL is recovered on open.
    {
      auto st = db.prepare("ATTACH DATABASE :file AS shard", "attaching " + file);
      if (!st.ok()) return fail(st.error());
      auto q = st->use();
      q.text(":file", file);
      if (auto s = q.run("attaching " + file); !s.ok()) return fail(s.error());
    }
    auto rep = merger.copy(static_cast<int>(i), file, version);
    (void)db.exec("DETACH DATABASE shard", "detaching " + file);
    if (!rep.ok()) return fail(rep.error());
    report.submissions += rep->submissions;
    report.score_calls += rep->score_calls;
    report.baselines += rep->baselines;
    report.shards.push_back(std::move(*rep));
  }
  if (auto s = db.close(); !s.ok()) {
    remove_db_files(out);
    return Error{"merge: closing " + out + " failed: " + s.error().message};
  }
  return report;
}

}  // namespace hpcab::cli
