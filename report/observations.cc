#include "report/observations.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/db.h"
#include "common/manifest.h"
#include "harness/schema.h"
#include "judge/store/schema.h"
#include "report/csv.h"

// Extraction reads the judge's and the harness's files as they are on disk; what it reads of
// their schemas is named by judge/store/schema.h and harness/schema.h (header-only: report links
// neither the judge nor the harness).
namespace hpcab::report {

namespace fs = std::filesystem;
using json = nlohmann::json;
namespace js = judge::schema;
namespace hs = harness::schema;

namespace {

// A database opened read-only: extraction never writes a campaign's records. Errors name the
// file.
Result<db::Connection> open_readonly(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return Error{path.string() + ": no such database file"};
  db::Options options;
  options.owner = path.string();
  return db::Connection::open_readonly(path.string(), options);
}

// Runs `sql` (built from schema names only; no values) and calls `row` per result row.
Status each(db::Connection& db, const std::string& sql,
            const std::function<void(db::Query&)>& row) {
  auto st = db.prepare(sql, "reading");
  if (!st.ok()) return st.error();
  auto q = st->use();
  for (;;) {
    auto more = q.step("reading");
    if (!more.ok()) return more.error();
    if (!*more) break;
    row(q);
  }
  if (!q.column_error().empty()) return Error{db.owner() + ": " + q.column_error()};
  return Ok{};
}

Result<bool> has_table(db::Connection& db, const char* table) { return db.has_table(table); }

// "a.x AS x, a.y AS y": columns qualified for a join and named for Query's by-name reads.
std::string select_list(const std::string& alias, std::initializer_list<const char*> cols) {
  std::string out;
  for (const char* c : cols) {
    out += (out.empty() ? "" : ", ") + alias + "." + c + " AS " + c;
  }
  return out;
}

struct JudgeSubmission {
  int rank = 0;
  int64_t id = 0;  // the id the judge that graded it gave (a merged file's shard id)
  std::string kernel, verdict, run_id;
  std::optional<double> speedup;
  bool suspect = false;
  double finished_at = 0;
};

struct ScoreCall {
  std::string verdict;
  std::optional<double> speedup;
  double finished_at = 0;
};

// Orders a candidate for "best": a credited speedup (higher first), then solved without one
// (suspect), then unsolved.
int best_class(const JudgeSubmission& j) {
  if (j.verdict != "ok") return 0;
  return j.speedup && *j.speedup > 0 ? 2 : 1;
}

// The episode id of a run id '<episode id>#<attempt>'.
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

// The judge's records, by run id (every attempt of every episode), from every shard.
struct JudgeRecords {
  std::map<std::string, std::vector<JudgeSubmission>> by_run;
  std::map<std::string, int64_t> submits_by_episode, scores_by_episode;
  std::map<std::string, std::vector<ScoreCall>> scores_by_run;
  std::set<std::pair<int, int64_t>> seen_ids;  // (rank, id): a submission read once
};

// The submissions of one judge database. A merged file (hpcab db merge) renumbers
// submissions; episodes name the shard's id, which its merged_submissions table keeps.
Status read_submissions(db::Connection& db, bool merged, JudgeRecords& records,
                        std::vector<std::string>& warnings) {
  namespace S = js::submissions;
  namespace M = js::merged_submissions;
  const std::string sql =
      std::string("SELECT ") +
      select_list("s", {S::kRank, S::kKernel, S::kVerdict, S::kRunId, S::kSpeedup, S::kSuspect,
                        S::kFinishedAt}) +
      ", " +
      (merged ? std::string("COALESCE(m.") + M::kShardSubmissionId + ", s." + S::kId + ")"
              : std::string("s.") + S::kId) +
      " AS " + S::kId + " FROM " + S::kTable + " AS s" +
      (merged ? std::string(" LEFT JOIN ") + M::kTable + " AS m ON m." + M::kId + " = s." + S::kId
              : std::string());
  return each(db, sql, [&](db::Query& q) {
    JudgeSubmission j;
    j.rank = static_cast<int>(q.col_int(S::kRank));
    j.id = q.col_int(S::kId);
    j.kernel = q.col_text(S::kKernel);
    j.verdict = q.col_text(S::kVerdict);
    j.run_id = q.col_text(S::kRunId);
    j.speedup = q.col_opt_real(S::kSpeedup);
    j.suspect = q.col_int(S::kSuspect) != 0;
    j.finished_at = q.col_real(S::kFinishedAt);
    if (!records.seen_ids.insert({j.rank, j.id}).second) {
      warnings.push_back("submission " + std::to_string(j.id) + " of rank " +
                         std::to_string(j.rank) + " is in more than one judge database; " +
                         "counted once");
      return;
    }
    if (j.run_id.empty()) return;
    ++records.submits_by_episode[hs::episode_of_run_id(j.run_id)];
    records.by_run[j.run_id].push_back(std::move(j));
  });
}

Status read_score_calls(db::Connection& db, JudgeRecords& records) {
  namespace C = js::score_calls;
  return each(db,
              std::string("SELECT ") + C::kRunId + ", " + C::kVerdict + ", " + C::kSpeedup + ", " +
                  C::kFinishedAt + " FROM " + C::kTable,
              [&](db::Query& q) {
                ScoreCall c;
                c.verdict = q.col_text(C::kVerdict);
                c.speedup = q.col_opt_real(C::kSpeedup);
                c.finished_at = q.col_real(C::kFinishedAt);
                const std::string run = q.col_text(C::kRunId);
                if (run.empty()) return;
                ++records.scores_by_episode[hs::episode_of_run_id(run)];
                records.scores_by_run[run].push_back(std::move(c));
              });
}

Status read_judge_db(const fs::path& path, JudgeRecords& records,
                     std::vector<std::string>& warnings) {
  auto db = open_readonly(path);
  if (!db) return Error{db.error().message};
  auto is_judge = has_table(*db, js::submissions::kTable);
  if (!is_judge) return Error{is_judge.error().message};
  if (!*is_judge) return Error{path.string() + ": not a judge database (no submissions table)"};
  auto merged = has_table(*db, js::merged_submissions::kTable);
  if (!merged) return Error{merged.error().message};
  auto st = read_submissions(*db, *merged, records, warnings);
  if (!st) return Error{st.error().message};
  auto has_scores = has_table(*db, js::score_calls::kTable);
  if (!has_scores) return Error{has_scores.error().message};
  if (*has_scores) {
    st = read_score_calls(*db, records);
    if (!st) return Error{st.error().message};
  }
  return Ok{};
}

Result<std::map<std::string, Manifest>> load_kernels(const fs::path& corpus_dir) {
  std::map<std::string, Manifest> kernels;
  if (corpus_dir.empty()) return kernels;
  auto corpus = load_corpus(corpus_dir);
  if (!corpus) return Error{"corpus " + corpus_dir.string() + ": " + corpus.error().message};
  for (auto& m : *corpus) kernels.emplace(m.id, m);
  return kernels;
}

// Each arm's setup JSON by arm name (none when the database has no arms table).
Result<std::map<std::string, json>> read_arm_setups(db::Connection& db) {
  namespace A = hs::arms;
  std::map<std::string, json> setups;
  auto has_arms = has_table(db, A::kTable);
  if (!has_arms) return Error{has_arms.error().message};
  if (*has_arms) {
    auto st = each(
        db, std::string("SELECT ") + A::kName + ", " + A::kSetupJson + " FROM " + A::kTable,
        [&](db::Query& q) {
          setups[q.col_text(A::kName)] = json::parse(q.col_text(A::kSetupJson), nullptr, false);
        });
    if (!st) return Error{st.error().message};
  }
  return setups;
}

// Whether the episodes table counts requests by token source (harness migration 4).
Result<bool> has_token_sources(db::Connection& db) {
  bool found = false;
  auto st = each(
      db, std::string("SELECT name FROM pragma_table_info('") + hs::episodes::kTable + "')",
      [&](db::Query& q) { found = found || q.col_text("name") == hs::episodes::kCountedRequests; });
  if (!st) return Error{st.error().message};
  return found;
}

// Arms in first-seen order (the smallest rowid of their episodes), then plan order. A file
// from before the token sources reads -1 reported requests (read_episode).
std::string episodes_sql(bool token_sources) {
  namespace E = hs::episodes;
  const std::string sources =
      token_sources
          ? ", " +
                select_list("e", {E::kReportedRequests, E::kCountedRequests, E::kEstimatedRequests})
          : std::string(", -1 AS ") + E::kReportedRequests + ", 0 AS " + E::kCountedRequests +
                ", 0 AS " + E::kEstimatedRequests;
  return std::string("SELECT ") +
         select_list("e", {E::kId, E::kArm, E::kKernel, E::kRepetition, E::kAttempt, E::kRank,
                           E::kStartedAt, E::kEndedAt, E::kStatus, E::kExitReason, E::kExitCode,
                           E::kInputTokens, E::kCachedTokens, E::kOutputTokens, E::kWeightedTokens,
                           E::kRequests, E::kFinalSubmissionId, E::kFinalVerdict}) +
         sources + " FROM " + E::kTable + " AS e ORDER BY (SELECT min(rowid) FROM " + E::kTable +
         " AS e2 WHERE e2." + E::kArm + " = e." + E::kArm + "), e." + E::kSeq;
}

// What the harness recorded of one episode row: the columns episodes_sql selects.
struct EpisodeRow {
  std::string id;
  Observation o;
  std::optional<int64_t> rank, final_id;
};

EpisodeRow read_episode(db::Query& q) {
  namespace E = hs::episodes;
  EpisodeRow row;
  Observation& o = row.o;
  row.id = q.col_text(E::kId);
  o.arm = q.col_text(E::kArm);
  o.kernel = q.col_text(E::kKernel);
  o.repetition = static_cast<int>(q.col_int(E::kRepetition));
  o.attempts = static_cast<int>(q.col_int(E::kAttempt));
  row.rank = q.col_opt_int(E::kRank);
  if (row.rank) o.judge_rank = static_cast<int>(*row.rank);
  auto started = q.col_opt_real(E::kStartedAt), ended = q.col_opt_real(E::kEndedAt);
  if (started && ended) o.wall_s = *ended - *started;
  o.status = q.col_text(E::kStatus);
  o.exit_reason = q.col_text(E::kExitReason);
  if (auto c = q.col_opt_int(E::kExitCode)) o.exit_code = static_cast<int>(*c);
  o.input_tokens = q.col_int(E::kInputTokens);
  o.cached_tokens = q.col_int(E::kCachedTokens);
  o.output_tokens = q.col_int(E::kOutputTokens);
  o.weighted_cost = q.col_real(E::kWeightedTokens);
  o.requests = q.col_int(E::kRequests);
  const int64_t reported = q.col_int(E::kReportedRequests);
  if (reported < 0) {  // before the proxy counted: any tokens were the servers'
    const bool any = o.input_tokens + o.cached_tokens + o.output_tokens > 0;
    o.tokens_source = any ? "reported" : "none";
  } else {
    o.tokens_source = hs::episodes::tokens_source_of(reported, q.col_int(E::kCountedRequests),
                                                     q.col_int(E::kEstimatedRequests));
  }
  row.final_id = q.col_opt_int(E::kFinalSubmissionId);
  if (o.attempts > 0) o.run_id = row.id + "#" + std::to_string(o.attempts);
  return row;
}

// The kernel's track, dwarf and level, and the arm's setup.
void describe(Observation& o, const std::map<std::string, Manifest>& kernels,
              const std::map<std::string, json>& setups) {
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
}

int64_t count_of(const std::map<std::string, int64_t>& counts, const std::string& key) {
  auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

// The final submission: among the judge's records of the last attempt's run id, the one the
// harness named (same rank and id), else the last one graded. An id the harness names that
// the judge holds under another run id is not trusted, and draws a warning.
const JudgeSubmission* final_submission(const EpisodeRow& row, const JudgeRecords& records,
                                        std::vector<std::string>& warnings) {
  const Observation& o = row.o;
  const JudgeSubmission* pick = nullptr;
  if (auto it = records.by_run.find(o.run_id); it != records.by_run.end()) {
    for (const auto& j : it->second) {
      if (row.final_id && row.rank && j.id == *row.final_id && j.rank == *row.rank) pick = &j;
    }
    if (!pick) {
      for (const auto& j : it->second) {
        if (!pick || j.finished_at > pick->finished_at) pick = &j;
      }
    }
  }
  if (row.final_id && (!pick || pick->id != *row.final_id)) {
    warnings.push_back(
        "episode " + row.id + ": its final submission " + std::to_string(*row.final_id) +
        " is not a judge record of run " + o.run_id +
        (pick ? "; using submission " + std::to_string(pick->id) : "; treated as unsolved"));
  }
  return pick;
}

// The best submission of the same attempt; the final one when none is better, so an
// episode's best is never worse than its final.
const JudgeSubmission* best_submission(const Observation& o, const JudgeSubmission* pick,
                                       const JudgeRecords& records) {
  const JudgeSubmission* best = pick;
  if (auto it = records.by_run.find(o.run_id); it != records.by_run.end()) {
    for (const auto& j : it->second) {
      if (!best || best_class(j) > best_class(*best) ||
          (best_class(j) == 2 && best_class(*best) == 2 && *j.speedup > *best->speedup)) {
        best = &j;
      }
    }
  }
  return best;
}

// Every grade of every attempt, each attempt's in the order the judge finished them.
std::vector<Candidate> history_of(const std::string& id, int attempts,
                                  const JudgeRecords& records) {
  std::vector<Candidate> history;
  for (int a = 1; a <= attempts; ++a) {
    const std::string run = id + "#" + std::to_string(a);
    std::vector<std::pair<double, Candidate>> calls;
    if (auto it = records.by_run.find(run); it != records.by_run.end()) {
      for (const auto& j : it->second) {
        calls.push_back({j.finished_at, Candidate{a, "submit", j.verdict,
                                                  j.verdict == "ok" ? j.speedup : std::nullopt}});
      }
    }
    if (auto it = records.scores_by_run.find(run); it != records.scores_by_run.end()) {
      for (const auto& c : it->second) {
        calls.push_back({c.finished_at, Candidate{a, "score", c.verdict,
                                                  c.verdict == "ok" ? c.speedup : std::nullopt}});
      }
    }
    std::stable_sort(calls.begin(), calls.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (auto& [t, c] : calls) history.push_back(std::move(c));
  }
  return history;
}

// Sets the final and best submissions' fields of `o`.
void credit(Observation& o, const JudgeSubmission* pick, const JudgeSubmission* best) {
  if (pick) {
    o.submission_id = pick->id;
    o.verdict = pick->verdict;
    o.suspect = pick->suspect;
    o.solved = pick->verdict == "ok";
    if (o.solved) o.speedup = pick->speedup;
  }
  if (best) {
    o.best_submission_id = best->id;
    o.best_verdict = best->verdict;
    o.best_solved = best->verdict == "ok";
    if (o.best_solved) o.best_speedup = best->speedup;
  }
}

// Only episodes whose agent ran to an end count (docs/research.md). An infrastructure failure
// that the judge nevertheless graded (its answer was lost on the way back) did reach a grade
// and counts with it. Returns whether `o` counts; `ex` tallies its arm's excluded episodes.
bool counts(const Observation& o, const std::string& id, bool graded, Excluded& ex,
            std::vector<std::string>& warnings) {
  if (o.status == "infra_failed" && !graded) {
    ++ex.infrastructure;
    return false;
  }
  const bool never_ran =
      o.status == "queued" || o.status == "interrupted" || o.status == "running" ||
      (o.status == "failed" &&
       (o.exit_reason == "task_unavailable" || o.exit_reason == "harness_error"));
  if (never_ran && !graded) {
    ++ex.not_run;
    return false;
  }
  if (o.status == "infra_failed") {
    warnings.push_back("episode " + id + " is infra_failed (" + o.exit_reason +
                       ") but the judge graded run " + o.run_id + ": counted with that " + "grade");
  }
  return true;
}

Excluded& excluded_of(ExtractResult& out, const std::string& arm) {
  for (auto& [a, e] : out.excluded) {
    if (a == arm) return e;
  }
  return out.excluded.emplace_back(arm, Excluded{}).second;
}

// What every harness database is read against.
struct ExtractContext {
  const JudgeRecords& records;
  const std::map<std::string, Manifest>& kernels;
  std::set<std::string>& seen_episodes;  // an episode in several databases counts once
};

Status read_harness_db(const fs::path& path, ExtractContext& ctx, ExtractResult& out) {
  auto db = open_readonly(path);
  if (!db) return Error{db.error().message};
  auto is_harness = has_table(*db, hs::episodes::kTable);
  if (!is_harness) return Error{is_harness.error().message};
  if (!*is_harness) {
    return Error{path.string() + ": not a harness episode database (no episodes table)"};
  }
  auto setups = read_arm_setups(*db);
  if (!setups) return setups.error();
  auto sources = has_token_sources(*db);
  if (!sources) return Error{sources.error().message};
  auto st = each(*db, episodes_sql(*sources), [&](db::Query& q) {
    EpisodeRow row = read_episode(q);
    if (!ctx.seen_episodes.insert(row.id).second) {
      out.warnings.push_back("episode " + row.id + " is in more than one harness database; " +
                             "the first is used");
      return;
    }
    Observation& o = row.o;
    describe(o, ctx.kernels, *setups);
    o.submissions = count_of(ctx.records.submits_by_episode, row.id);
    o.score_calls = count_of(ctx.records.scores_by_episode, row.id);
    const JudgeSubmission* pick = final_submission(row, ctx.records, out.warnings);
    credit(o, pick, best_submission(o, pick, ctx.records));
    o.history = history_of(row.id, o.attempts, ctx.records);
    if (counts(o, row.id, pick != nullptr, excluded_of(out, o.arm), out.warnings)) {
      out.rows.push_back(std::move(o));
    }
  });
  if (!st) return Error{st.error().message};
  return Ok{};
}

}  // namespace

Result<ExtractResult> extract_observations(const ExtractOptions& opt) {
  if (opt.harness_dbs.empty()) return Error{"no harness database given (--harness-db)"};
  ExtractResult out;
  JudgeRecords records;
  for (const auto& path : opt.judge_dbs) {
    if (auto st = read_judge_db(path, records, out.warnings); !st) return st.error();
  }
  auto kernels = load_kernels(opt.corpus_dir);
  if (!kernels) return kernels.error();
  std::set<std::string> seen_episodes;
  ExtractContext ctx{records, *kernels, seen_episodes};
  for (const auto& path : opt.harness_dbs) {
    if (auto st = read_harness_db(path, ctx, out); !st) return st.error();
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
      "run_id",       "best_verdict",  "best_solved",   "best_speedup",  "best_submission_id",
      "history",      "tokens_source"};
  return cols;
}

namespace {
// Columns added after the first release: a CSV without them still reads (observations.h).
bool optional_column(const std::string& c) {
  return c.rfind("best_", 0) == 0 || c == "history" || c == "tokens_source";
}
}  // namespace

std::string format_history(const std::vector<Candidate>& history) {
  std::string out;
  for (const auto& c : history) {
    if (!out.empty()) out += ';';
    out += std::to_string(c.attempt) + ":" + c.route + ":" + c.verdict + ":" + fmt(c.speedup);
  }
  return out;
}

Result<std::vector<Candidate>> parse_history(const std::string& text) {
  std::vector<Candidate> out;
  if (text.empty()) return out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    const std::string entry = text.substr(start, end - start);
    std::vector<std::string> f;
    std::size_t p = 0;
    for (;;) {
      std::size_t q = entry.find(':', p);
      f.push_back(entry.substr(p, q == std::string::npos ? std::string::npos : q - p));
      if (q == std::string::npos) break;
      p = q + 1;
    }
    auto bad = [&] {
      return Error{"history entry '" + entry + "' is not 'attempt:score|submit:verdict:speedup'"};
    };
    if (f.size() != 4 || (f[1] != "score" && f[1] != "submit")) return bad();
    Candidate c;
    char* e = nullptr;
    const long a = std::strtol(f[0].c_str(), &e, 10);
    if (f[0].empty() || !e || *e || a < 1) return bad();
    c.attempt = static_cast<int>(a);
    c.route = f[1];
    c.verdict = f[2];
    if (!f[3].empty()) {
      const double v = std::strtod(f[3].c_str(), &e);
      if (!e || *e) return bad();
      c.speedup = v;
    }
    out.push_back(std::move(c));
    start = end + 1;
  }
  return out;
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
                     o.run_id,
                     o.best_verdict,
                     o.best_solved ? "1" : "0",
                     fmt(o.best_speedup),
                     fmt_int(o.best_submission_id),
                     format_history(o.history),
                     o.tokens_source});
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
    if (idx.back() < 0 && !optional_column(c)) missing += (missing.empty() ? "" : ", ") + c;
  }
  if (!missing.empty()) return Error{label + ": missing columns: " + missing};
  std::vector<Observation> rows;
  for (std::size_t r = 0; r < t->rows.size(); ++r) {
    const CsvRow& row = t->rows[r];
    std::string bad;
    static const std::string kAbsent;
    auto get = [&](int c) -> const std::string& { return idx[c] < 0 ? kAbsent : row[idx[c]]; };
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
    const bool has_best = idx[c] >= 0;
    o.best_verdict = get(c++);
    o.best_solved = as_int(c++).value_or(0) != 0;
    o.best_speedup = as_real(c++);
    o.best_submission_id = as_int(c++);
    if (!has_best) {  // a file from before the best_* columns: the final is the best known
      o.best_verdict = o.verdict;
      o.best_solved = o.solved;
      o.best_speedup = o.speedup;
      o.best_submission_id = o.submission_id;
    }
    auto history = parse_history(get(c++));
    if (!history) {
      return Error{label + ": row " + std::to_string(r + 2) +
                   ": column history: " + history.error().message};
    }
    o.history = std::move(*history);
    o.tokens_source = get(c++);
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
