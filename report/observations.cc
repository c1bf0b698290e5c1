#include "report/observations.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/manifest.h"
#include "report/csv.h"

namespace hpcab::report {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// A database opened read-only: extraction never writes a campaign's records.
class ReadDb {
 public:
  static Result<ReadDb> open(const fs::path& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return Error{path.string() + ": no such database file"};
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
      std::string why = db ? sqlite3_errmsg(db) : "out of memory";
      sqlite3_close(db);
      return Error{path.string() + ": " + why};
    }
    sqlite3_busy_timeout(db, 10'000);
    return ReadDb(db, path.string());
  }
  ReadDb(ReadDb&& o) noexcept : db_(o.db_), name_(std::move(o.name_)) { o.db_ = nullptr; }
  ReadDb& operator=(ReadDb&&) = delete;
  ~ReadDb() { sqlite3_close(db_); }

  bool has_table(const std::string& table) {
    bool found = false;
    (void)each("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'",
               [&](sqlite3_stmt*) { found = true; });
    return found;
  }

  // Runs `sql` (no parameters: every value here is a constant) and calls `row` per result row.
  Status each(const std::string& sql, const std::function<void(sqlite3_stmt*)>& row) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      return Error{name_ + ": " + sqlite3_errmsg(db_)};
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(st);
    Status out = Ok{};
    if (rc != SQLITE_DONE) out = Error{name_ + ": " + sqlite3_errmsg(db_)};
    sqlite3_finalize(st);
    return out;
  }

 private:
  ReadDb(sqlite3* db, std::string name) : db_(db), name_(std::move(name)) {}
  sqlite3* db_;
  std::string name_;
};

std::string text(sqlite3_stmt* st, int i) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, i));
  return p ? p : "";
}
std::optional<int64_t> opt_int(sqlite3_stmt* st, int i) {
  if (sqlite3_column_type(st, i) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_int64(st, i);
}
std::optional<double> opt_real(sqlite3_stmt* st, int i) {
  if (sqlite3_column_type(st, i) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_double(st, i);
}

struct JudgeSubmission {
  int rank = 0;
  int64_t id = 0;  // the id the judge that graded it gave (a merged file's shard id)
  std::string kernel, verdict, run_id;
  std::optional<double> speedup;
  bool suspect = false;
  double finished_at = 0;
};

// The episode id of a run id '<episode id>#<attempt>'.
std::string episode_of(const std::string& run_id) {
  auto hash = run_id.rfind('#');
  return hash == std::string::npos ? run_id : run_id.substr(0, hash);
}

std::string fmt(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}
std::string fmt(const std::optional<double>& v) { return v ? fmt(*v) : ""; }
template <class T>
std::string fmt_int(const std::optional<T>& v) {
  return v ? std::to_string(*v) : "";
}

}  // namespace

Result<ExtractResult> extract_observations(const ExtractOptions& opt) {
  if (opt.harness_dbs.empty()) return Error{"no harness database given (--harness-db)"};
  ExtractResult out;

  // Judge records by run id (every attempt of every episode), from every shard.
  std::map<std::string, std::vector<JudgeSubmission>> by_run;
  std::map<std::string, int64_t> submits_by_episode, scores_by_episode;
  std::set<std::pair<int, int64_t>> seen_ids;
  for (const auto& path : opt.judge_dbs) {
    auto db = ReadDb::open(path);
    if (!db) return Error{db.error().message};
    if (!db->has_table("submissions")) {
      return Error{path.string() + ": not a judge database (no submissions table)"};
    }
    // A merged file (hpcab db merge) renumbers submissions; episodes name the shard's id.
    const bool merged = db->has_table("merged_submissions");
    const std::string sql =
        merged ? "SELECT s.rank, COALESCE(m.shard_submission_id, s.id), s.kernel, s.verdict, "
                 "s.run_id, s.speedup, s.suspect, s.finished_at FROM submissions s "
                 "LEFT JOIN merged_submissions m ON m.id = s.id"
               : "SELECT rank, id, kernel, verdict, run_id, speedup, suspect, finished_at "
                 "FROM submissions";
    auto st = db->each(sql, [&](sqlite3_stmt* s) {
      JudgeSubmission j;
      j.rank = static_cast<int>(sqlite3_column_int64(s, 0));
      j.id = sqlite3_column_int64(s, 1);
      j.kernel = text(s, 2);
      j.verdict = text(s, 3);
      j.run_id = text(s, 4);
      j.speedup = opt_real(s, 5);
      j.suspect = sqlite3_column_int64(s, 6) != 0;
      j.finished_at = sqlite3_column_double(s, 7);
      if (!seen_ids.insert({j.rank, j.id}).second) {
        out.warnings.push_back("submission " + std::to_string(j.id) + " of rank " +
                               std::to_string(j.rank) + " is in more than one judge database; " +
                               "counted once");
        return;
      }
      if (j.run_id.empty()) return;
      ++submits_by_episode[episode_of(j.run_id)];
      by_run[j.run_id].push_back(std::move(j));
    });
    if (!st) return Error{st.error().message};
    if (db->has_table("score_calls")) {
      st = db->each("SELECT run_id, count(*) FROM score_calls GROUP BY run_id",
                    [&](sqlite3_stmt* s) {
                      scores_by_episode[episode_of(text(s, 0))] += sqlite3_column_int64(s, 1);
                    });
      if (!st) return Error{st.error().message};
    }
  }

  std::map<std::string, Manifest> kernels;
  if (!opt.corpus_dir.empty()) {
    auto corpus = load_corpus(opt.corpus_dir);
    if (!corpus) return Error{"corpus " + opt.corpus_dir.string() + ": " + corpus.error().message};
    for (auto& m : *corpus) kernels.emplace(m.id, m);
  }

  std::set<std::string> seen_episodes;
  for (const auto& path : opt.harness_dbs) {
    auto db = ReadDb::open(path);
    if (!db) return Error{db.error().message};
    if (!db->has_table("episodes")) {
      return Error{path.string() + ": not a harness episode database (no episodes table)"};
    }
    std::map<std::string, json> setups;
    if (db->has_table("arms")) {
      auto st = db->each("SELECT name, setup_json FROM arms", [&](sqlite3_stmt* s) {
        setups[text(s, 0)] = json::parse(text(s, 1), nullptr, false);
      });
      if (!st) return Error{st.error().message};
    }
    auto st = db->each(
        "SELECT id, arm, kernel, repetition, attempt, rank, started_at, ended_at, status, "
        "exit_reason, exit_code, input_tokens, cached_tokens, output_tokens, weighted_tokens, "
        "requests, final_submission_id, final_verdict FROM episodes "
        "ORDER BY (SELECT min(rowid) FROM episodes e2 WHERE e2.arm = episodes.arm), seq",
        [&](sqlite3_stmt* s) {
          Observation o;
          const std::string id = text(s, 0);
          if (!seen_episodes.insert(id).second) {
            out.warnings.push_back("episode " + id + " is in more than one harness database; " +
                                   "the first is used");
            return;
          }
          o.arm = text(s, 1);
          o.kernel = text(s, 2);
          o.repetition = static_cast<int>(sqlite3_column_int64(s, 3));
          o.attempts = static_cast<int>(sqlite3_column_int64(s, 4));
          auto rank = opt_int(s, 5);
          if (rank) o.judge_rank = static_cast<int>(*rank);
          auto started = opt_real(s, 6), ended = opt_real(s, 7);
          if (started && ended) o.wall_s = *ended - *started;
          o.status = text(s, 8);
          o.exit_reason = text(s, 9);
          if (auto c = opt_int(s, 10)) o.exit_code = static_cast<int>(*c);
          o.input_tokens = sqlite3_column_int64(s, 11);
          o.cached_tokens = sqlite3_column_int64(s, 12);
          o.output_tokens = sqlite3_column_int64(s, 13);
          o.weighted_cost = sqlite3_column_double(s, 14);
          o.requests = sqlite3_column_int64(s, 15);
          const auto final_id = opt_int(s, 16);
          if (o.attempts > 0) o.run_id = id + "#" + std::to_string(o.attempts);

          if (auto k = kernels.find(o.kernel); k != kernels.end()) {
            o.track = k->second.track;
            o.dwarf = k->second.dwarf;
            o.level = k->second.level;
          }
          if (auto a = setups.find(o.arm); a != setups.end() && a->second.is_object()) {
            const json& j = a->second;
            o.agent = j.value("agent", "");
            o.model = j.value("model", "");
            o.language = j.value("language", "");
            o.submission_policy = j.value("submission_policy", "");
            o.token_budget = j.value("token_budget", int64_t{0});
            o.wall_budget_s = j.value("wall_budget_s", int64_t{0});
          }
          o.submissions = submits_by_episode.count(id) ? submits_by_episode[id] : 0;
          o.score_calls = scores_by_episode.count(id) ? scores_by_episode[id] : 0;

          // The final submission: among the judge's records of the last attempt's run id, the
          // one the harness named (same rank and id), else the last one graded. An id the
          // harness names that the judge holds under another run id is not trusted.
          const JudgeSubmission* pick = nullptr;
          if (auto it = by_run.find(o.run_id); it != by_run.end()) {
            for (const auto& j : it->second) {
              if (final_id && rank && j.id == *final_id && j.rank == *rank) pick = &j;
            }
            if (!pick) {
              for (const auto& j : it->second) {
                if (!pick || j.finished_at > pick->finished_at) pick = &j;
              }
            }
          }
          if (final_id && (!pick || pick->id != *final_id)) {
            out.warnings.push_back("episode " + id + ": its final submission " +
                                   std::to_string(*final_id) + " is not a judge record of run " +
                                   o.run_id +
                                   (pick ? "; using submission " + std::to_string(pick->id)
                                         : "; treated as unsolved"));
          }
          if (pick) {
            o.submission_id = pick->id;
            o.verdict = pick->verdict;
            o.suspect = pick->suspect;
            o.solved = pick->verdict == "ok";
            if (o.solved) o.speedup = pick->speedup;
          }
          out.rows.push_back(std::move(o));
        });
    if (!st) return Error{st.error().message};
  }
  if (opt.judge_dbs.empty()) {
    out.warnings.push_back("no judge database given (--judge-db): no episode can count as solved");
  }
  return out;
}

const std::vector<std::string>& observation_columns() {
  static const std::vector<std::string> cols = {
      "arm",          "kernel",        "track",         "dwarf",         "level",
      "repetition",   "agent",         "model",         "language",      "submission_policy",
      "token_budget", "wall_budget_s", "attempts",      "status",        "exit_reason",
      "exit_code",    "solved",        "verdict",       "speedup",       "suspect",
      "input_tokens", "cached_tokens", "output_tokens", "weighted_cost", "requests",
      "wall_s",       "submissions",   "score_calls",   "judge_rank",    "submission_id",
      "run_id"};
  return cols;
}

std::string observations_csv(const std::vector<Observation>& rows) {
  std::string out = csv_line(observation_columns());
  for (const auto& o : rows) {
    out += csv_line({o.arm,
                     o.kernel,
                     o.track,
                     o.dwarf,
                     o.level ? std::to_string(o.level) : "",
                     std::to_string(o.repetition),
                     o.agent,
                     o.model,
                     o.language,
                     o.submission_policy,
                     std::to_string(o.token_budget),
                     std::to_string(o.wall_budget_s),
                     std::to_string(o.attempts),
                     o.status,
                     o.exit_reason,
                     fmt_int(o.exit_code),
                     o.solved ? "1" : "0",
                     o.verdict,
                     fmt(o.speedup),
                     o.suspect ? "1" : "0",
                     std::to_string(o.input_tokens),
                     std::to_string(o.cached_tokens),
                     std::to_string(o.output_tokens),
                     fmt(o.weighted_cost),
                     std::to_string(o.requests),
                     fmt(o.wall_s),
                     std::to_string(o.submissions),
                     std::to_string(o.score_calls),
                     fmt_int(o.judge_rank),
                     fmt_int(o.submission_id),
                     o.run_id});
  }
  return out;
}

Result<std::vector<Observation>> parse_observations_csv(const std::string& text,
                                                        const std::string& label) {
  auto t = parse_csv_table(text, label);
  if (!t) return Error{t.error().message};
  std::vector<int> idx;
  std::string missing;
  for (const auto& c : observation_columns()) {
    idx.push_back(t->column(c));
    if (idx.back() < 0) missing += (missing.empty() ? "" : ", ") + c;
  }
  if (!missing.empty()) return Error{label + ": missing columns: " + missing};
  std::vector<Observation> rows;
  for (std::size_t r = 0; r < t->rows.size(); ++r) {
    const CsvRow& row = t->rows[r];
    std::string bad;
    auto get = [&](int c) -> const std::string& { return row[idx[c]]; };
    auto as_int = [&](int c) -> std::optional<int64_t> {
      const std::string& s = get(c);
      if (s.empty()) return std::nullopt;
      char* end = nullptr;
      long long v = std::strtoll(s.c_str(), &end, 10);
      if (!end || *end) {
        bad = observation_columns()[c];
        return std::nullopt;
      }
      return v;
    };
    auto as_real = [&](int c) -> std::optional<double> {
      const std::string& s = get(c);
      if (s.empty()) return std::nullopt;
      char* end = nullptr;
      double v = std::strtod(s.c_str(), &end);
      if (!end || *end) {
        bad = observation_columns()[c];
        return std::nullopt;
      }
      return v;
    };
    Observation o;
    int c = 0;
    o.arm = get(c++);
    o.kernel = get(c++);
    o.track = get(c++);
    o.dwarf = get(c++);
    o.level = static_cast<int>(as_int(c++).value_or(0));
    o.repetition = static_cast<int>(as_int(c++).value_or(0));
    o.agent = get(c++);
    o.model = get(c++);
    o.language = get(c++);
    o.submission_policy = get(c++);
    o.token_budget = as_int(c++).value_or(0);
    o.wall_budget_s = as_int(c++).value_or(0);
    o.attempts = static_cast<int>(as_int(c++).value_or(0));
    o.status = get(c++);
    o.exit_reason = get(c++);
    if (auto v = as_int(c++)) o.exit_code = static_cast<int>(*v);
    o.solved = as_int(c++).value_or(0) != 0;
    o.verdict = get(c++);
    o.speedup = as_real(c++);
    o.suspect = as_int(c++).value_or(0) != 0;
    o.input_tokens = as_int(c++).value_or(0);
    o.cached_tokens = as_int(c++).value_or(0);
    o.output_tokens = as_int(c++).value_or(0);
    o.weighted_cost = as_real(c++).value_or(0);
    o.requests = as_int(c++).value_or(0);
    o.wall_s = as_real(c++);
    o.submissions = as_int(c++).value_or(0);
    o.score_calls = as_int(c++).value_or(0);
    if (auto v = as_int(c++)) o.judge_rank = static_cast<int>(*v);
    o.submission_id = as_int(c++);
    o.run_id = get(c++);
    if (!bad.empty()) {
      return Error{label + ": row " + std::to_string(r + 2) + ": column " + bad +
                   " is not a number"};
    }
    if (o.arm.empty() || o.kernel.empty()) {
      return Error{label + ": row " + std::to_string(r + 2) + ": empty arm or kernel"};
    }
    rows.push_back(std::move(o));
  }
  return rows;
}

}  // namespace hpcab::report
