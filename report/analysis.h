// Summaries per arm and intervention efficacy between arms (SPEC §8),
// computed from the observations table only. Definitions: docs/research.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "report/observations.h"
#include "report/stats.h"

namespace hpcab::report {

// Weighted token cost = input * w_input + cached * w_cached + output * w_output.
struct CostWeights {
  double input = 1.0, cached = 0.1, output = 1.0;
};
double episode_cost(const Observation& o, const CostWeights& w);

// Which submission of an episode is its answer (docs/research.md, "final or best"): the final
// one (the paper's rule and the default) or the best one of the episode's last attempt.
enum class Pick { kFinal, kBest };
// "final" | "best"; errors name the text.
Result<Pick> parse_pick(const std::string& text);
const char* pick_name(Pick p);
// The rows with solved, verdict, speedup and submission_id taken from the chosen submission.
std::vector<Observation> apply_pick(std::vector<Observation> rows, Pick pick);

// The original HPCAgent-Bench's per-task score (docs/research.md, "Suite score"):
// S_i = clamp(speedup_i, 1, c_max) when episode i is solved with a credited speedup, else 1.
double task_score(const Observation& o, double c_max);
// The suite score exp(mean ln S_i) over every given episode; NaN when there is none.
double suite_score(const std::vector<const Observation*>& rows, double c_max);

// Success, speedup, fast_p and suite score over one set of episodes (an arm, or one track,
// dwarf or level of it). "Solved" is the one rule of docs/research.md: the chosen submission's
// verdict is ok; `speedups` counts those of them with a credited speedup (a suspect grade has
// none), over which the geometric mean is taken.
struct GroupStats {
  int episodes = 0;
  int solved = 0;
  double success_rate = 0;
  int speedups = 0;
  double geomean_speedup = 0;  // NaN when none
  double fast_1 = 0, fast_1_5 = 0, fast_2 = 0;
  double suite_score = 0;  // NaN when no episode
};
GroupStats group_stats(const std::vector<const Observation*>& rows, double c_max);

struct ArmSummary {
  std::string arm, agent, model;
  int episodes = 0;
  int kernels = 0;  // distinct kernels attempted
  int solved = 0;   // episodes whose final submission is correct
  double success_rate = 0;
  int speedups = 0;                    // solved episodes with a credited speedup
  double geomean_speedup = 0;          // NaN when none
  std::optional<Interval> speedup_ci;  // bootstrap, over those episodes
  double fast_1 = 0, fast_1_5 = 0, fast_2 = 0;
  int64_t input_tokens = 0, cached_tokens = 0, output_tokens = 0, requests = 0;
  double cost = 0;              // with the given weights
  double cost_cached_free = 0;  // cached input at weight 0
  double cost_cached_full = 0;  // cached input at the input weight
  double cost_per_episode = 0;
  double cost_per_solved = 0;  // NaN when nothing solved
  double suite_score = 0;      // the original's convention, with SummaryOptions::c_max
  // Per dwarf (first-seen order; '' is "unclassified"): episodes and geomean S_i. The suite
  // score is their episode-weighted geometric mean.
  std::vector<std::pair<std::string, std::pair<int, double>>> dwarf_scores;
};

// The original's default speedup cap (its score_task_fuzzed c_max).
inline constexpr double kDefaultCMax = 100.0;

struct SummaryOptions {
  CostWeights weights;
  int resamples = 10000;
  double level = 0.95;
  std::uint64_t seed = 1;
  double c_max = kDefaultCMax;  // suite score cap (>= 1)
  Pick pick = Pick::kFinal;     // applied by run_summary before summarizing
  std::vector<std::string> by;  // breakdowns the text shows: "track", "dwarf", "level"
};

// One arm's episodes of one track, dwarf or level.
struct BreakdownRow {
  std::string arm, by, group;  // by: "track" | "dwarf" | "level"; group '' shows as "unclassified"
  GroupStats stats;
};
// Errors: a dimension other than track, dwarf and level.
Result<std::vector<BreakdownRow>> breakdowns(const std::vector<Observation>& rows,
                                             const std::vector<std::string>& by, double c_max);
std::string breakdown_csv(const std::vector<BreakdownRow>& b);
std::string breakdown_text(const std::vector<BreakdownRow>& b);

// One summary per arm, arms in first-seen order.
std::vector<ArmSummary> summarize(const std::vector<Observation>& rows, const SummaryOptions& o);
std::string summary_csv(const std::vector<ArmSummary>& s);
std::string summary_text(const std::vector<ArmSummary>& s, const SummaryOptions& o);

// Control vs one treatment, paired by (kernel, repetition).
struct Comparison {
  std::string control, treatment;
  int pairs = 0;
  int control_solved = 0, treatment_solved = 0;
  int only_control = 0, only_treatment = 0;  // discordant pairs (McNemar's b and c)
  double mcnemar_p = 1;
  RatioTest speedup;  // treatment / control speedup on jointly solved pairs
  double control_cost = 0, treatment_cost = 0;  // summed over every pair (failures still cost)
  double cost_ratio = 0;                        // treatment_cost / control_cost (NaN if 0)
  RatioTest cost;                               // per-pair cost ratios where both costs are > 0
  std::optional<double> q_mcnemar, q_speedup, q_cost;  // Benjamini-Hochberg over the run
};

struct CompareOptions {
  CostWeights weights;
  double level = 0.95;
  int min_pairs = 6;
};

// Errors: an arm missing from the observations (the message lists the arms present), the
// control among the treatments.
Result<std::vector<Comparison>> compare_arms(const std::vector<Observation>& rows,
                                             const std::string& control,
                                             const std::vector<std::string>& treatments,
                                             const CompareOptions& o);
std::string comparisons_csv(const std::vector<Comparison>& c);
std::string comparisons_text(const std::vector<Comparison>& c, const CompareOptions& o);

// "arm: 12 episodes (12 ended), 12 kernels, 9 solved" per arm: extract prints it so a missing
// arm shows; with `excluded`, each line also says how many episodes were left out and why
// ("; excluded 3 that never reached a grade: 2 infrastructure, 1 not run").
std::string arm_lines(const std::vector<Observation>& rows,
                      const std::vector<std::pair<std::string, Excluded>>& excluded = {});

}  // namespace hpcab::report
