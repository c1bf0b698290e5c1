// The regrade table (docs/regrade.md; the paper's Table IV): recorded answers graded on judge A
// and resubmitted to judge B, summarised per kernel and language and per language. Pure
// functions over the rows `hpcab regrade` writes (regrade.csv); no I/O but the CSV reader.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "report/stats.h"

namespace hpcab::report {

// One recorded answer and what became of it on B.
struct RegradeRow {
  long long submission_id = 0;  // on A
  std::string episode;          // the answer's episode (run id without "#attempt"), or ""
  std::string kernel;
  std::string language;
  std::string which;      // "best", "final", "best,final" or "all"
  std::string verdict_a;  // as recorded on A
  std::optional<double> speedup_a;
  // graded: B answered a verdict; skipped: not portable to B (skip_code says why, from
  // common/portability.h, or "library": no source to resubmit); failed: B could not grade it
  // (transport error, judge_error, a refusal): neither correct nor wrong.
  std::string status;
  std::string skip_code;
  std::string reason;
  std::string verdict_b;
  std::optional<double> speedup_b;
  long long submission_id_b = 0;

  bool correct_a() const { return verdict_a == "ok"; }
  bool correct_b() const { return status == "graded" && verdict_b == "ok"; }
};

// Per kernel and language.
struct RegradePair {
  std::string kernel, language;
  int answers = 0;        // rows of the pair
  int skipped = 0;        // status skipped
  int failed = 0;         // status failed
  int correct_a = 0;      // correct on A and graded on B
  int still_correct = 0;  // of those, correct on B too
  int both = 0;           // correct on both with a speedup on both
  double speedup_a = 0;   // geometric mean over `both` answers; NaN when none
  double speedup_b = 0;
  std::optional<bool> best_agrees;      // A's fastest answer is B's fastest (both >= 1)
  std::optional<double> best_fraction;  // B's speedup of A's fastest / B's fastest
};

// Per language, and one row "all" over every pair.
struct RegradeSummary {
  std::string language;  // or "all"
  int pairs = 0;
  int answers = 0, skipped = 0, failed = 0;
  int correct_a = 0, still_correct = 0;
  double still_correct_share = 0;    // still_correct / correct_a; NaN when correct_a = 0
  std::optional<Spearman> spearman;  // of the pairs' speedup_a vs speedup_b
  int best_pairs = 0;                // pairs with a best_agrees value
  double best_agrees_share = 0;      // NaN when best_pairs = 0
  double within_90_share = 0;        // best_fraction >= 0.9; NaN when best_pairs = 0
};

struct RegradeTable {
  std::vector<RegradePair> pairs;         // by language, then kernel
  std::vector<RegradeSummary> summaries;  // by language, then "all"
};

RegradeTable regrade_table(const std::vector<RegradeRow>& rows);

// The table as text: the per-language summary, then one line per pair.
std::string format_regrade_table(const RegradeTable& t, const std::string& judge_a,
                                 const std::string& judge_b);

// regrade.csv: a header line naming the RegradeRow fields (submission_id, episode, kernel,
// language, which, verdict_a, speedup_a, status, skip_code, reason, verdict_b, speedup_b,
// submission_id_b), then one row per answer; an empty speedup is none.
std::string regrade_csv(const std::vector<RegradeRow>& rows);
Result<std::vector<RegradeRow>> read_regrade_csv(const std::filesystem::path& path);

}  // namespace hpcab::report
