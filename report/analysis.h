// Summaries per arm and intervention efficacy between arms (SPEC §8, issue 7 items 2 and 3),
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
};

struct SummaryOptions {
  CostWeights weights;
  int resamples = 10000;
  double level = 0.95;
  std::uint64_t seed = 1;
};

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
