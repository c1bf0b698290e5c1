// The observations table (SPEC §8): one row per harness episode, joined with
// the judge's record of its final submission and the corpus's description of its kernel.
// docs/research.md defines every column.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::report {

// One graded candidate of an episode: a /score call (public inputs, never an answer) or a
// /submit (an answer), as the judge recorded it under one of the episode's run ids.
struct Candidate {
  int attempt = 0;                // the attempt whose run id '<episode id>#<attempt>' it carried
  std::string route;              // "score" or "submit"
  std::string verdict;            // the judge's verdict
  std::optional<double> speedup;  // the judge's credited speedup; none when unsolved or suspect
  friend bool operator==(const Candidate&, const Candidate&) = default;
};

// The CSV form of a history (docs/research.md): entries 'attempt:route:verdict:speedup' joined
// by ';' in the order the judge finished them, speedup empty when there is none.
std::string format_history(const std::vector<Candidate>& history);
// Errors: an entry that is not of that form (the message quotes it).
Result<std::vector<Candidate>> parse_history(const std::string& text);

struct Observation {
  // The episode and its kernel.
  std::string arm, kernel, track, dwarf;
  int level = 0;
  int repetition = 0;
  // The arm's setup (from the harness database's `arms` table).
  std::string agent, model, language, submission_policy;
  int64_t token_budget = 0, wall_budget_s = 0;
  // How the episode went.
  int attempts = 0;
  std::string status, exit_reason;
  std::optional<int> exit_code;
  bool solved = false;            // the final submission's verdict is ok
  std::string verdict;            // '' when nothing was submitted
  std::optional<double> speedup;  // the judge's credited speedup; only when solved
  bool suspect = false;
  int64_t input_tokens = 0, cached_tokens = 0, output_tokens = 0, requests = 0;
  double weighted_cost = 0;  // with the arm's weights, as the harness recorded it
  // Where the token counts came from (docs/research.md): reported|counted|estimated|mixed|none.
  std::string tokens_source;
  std::optional<double> wall_s;
  int64_t submissions = 0, score_calls = 0;  // judge calls made by the episode, all attempts
  std::optional<int> judge_rank;
  std::optional<int64_t> submission_id;  // the judge's id of the final submission
  std::string run_id;                    // '<episode id>#<attempt>' of the last attempt
  // The best submission of the last attempt (docs/research.md, "final or best"): the solved one
  // with the highest credited speedup, else a solved one without a credited speedup (suspect),
  // else the final one. Equal to the final submission's fields when there is one submission.
  std::string best_verdict;
  bool best_solved = false;
  std::optional<double> best_speedup;
  std::optional<int64_t> best_submission_id;
  // Every /score and /submit of every attempt, in order.
  std::vector<Candidate> history;
};

struct ExtractOptions {
  std::vector<std::filesystem::path> judge_dbs;    // shards or a merged file
  std::vector<std::filesystem::path> harness_dbs;  // one per agent node
  std::filesystem::path corpus_dir;                // track, dwarf and level of each kernel
};

// Episodes extract leaves out of the observations (docs/research.md): their agent never ran to
// an end, or the infrastructure ended them before any grade, so they say nothing about the
// agent. Only episodes whose agent ran count, solved or not.
struct Excluded {
  int infrastructure = 0;  // infra_failed (the judge or model server failed) with no judge grade
  int not_run = 0;         // never ended (queued, interrupted, running) or never started an
                           // agent (failed with task_unavailable or harness_error)
  int total() const { return infrastructure + not_run; }
};

struct ExtractResult {
  std::vector<Observation> rows;      // arms in first-seen order, then plan order
  std::vector<std::string> warnings;  // e.g. a final submission not found in any judge db
  // Per arm, in first-seen order (an arm whose every episode is excluded is listed too).
  std::vector<std::pair<std::string, Excluded>> excluded;
};

// Reads the databases read-only. Errors: a database that cannot be opened or lacks the tables.
Result<ExtractResult> extract_observations(const ExtractOptions& options);

// The CSV columns, in order (docs/research.md).
const std::vector<std::string>& observation_columns();
std::string observations_csv(const std::vector<Observation>& rows);
// Reads a file written by observations_csv (extra columns are ignored; missing ones are an
// error naming them, except the columns added later, best_*, history and tokens_source: a file
// without them reads with best_* equal to the final submission's, an empty history and an empty
// tokens_source).
Result<std::vector<Observation>> parse_observations_csv(const std::string& text,
                                                        const std::string& label);

}  // namespace hpcab::report
