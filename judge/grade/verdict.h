// Stage: verdict (pure). From what the pipeline observed (GradeOutcome) to the typed grade
// (GradeResult): the verdict, the per-configuration statistics and credits (SPEC §5.8), the
// plausibility checks (SPEC §5.9), and the two details: the public one, which may reach the
// agent and never names a hidden draw, and the recorded one, for the database.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/expr.h"
#include "judge/grade/types.h"

namespace hpcab::judge {

// One configuration whose samples are credited.
struct TimedConfig {
  std::string label;
  SymbolTable sizes;
  bool hidden = false;
  std::vector<double> cand, base;
  double judge_median_ns = 0, overshoot_min_ns = 0, reported_median_ns = 0;
  double clock_shift_ns = 0;  // ConfigOutcome::clock_shift_ns
  // Samples per timing process (ConfigOutcome::part_samples); empty or one: a single process.
  std::vector<std::size_t> parts = {};
  SlotUse slot = {};  // ConfigOutcome::slot
};

// Everything the stages before the verdict found out.
struct GradeOutcome {
  bool submit = false;
  std::string baseline;           // the credited baseline's name
  std::string baseline_protocol;  // how its samples were taken (paired, or cached)
  bool build_ok = false;
  // A failure that ended the grade early: a build error, a run failure (crash, timeout,
  // memory, rejected) or a fault of the judge's own.
  MaybeFailure stopped;
  std::optional<double> max_rel_error;
  bool public_run = false;  // the public configuration ran to its comparison
  bool public_correct = false;
  std::string public_failure;  // its comparison's detail (public sizes: may be shown)
  int hidden_passed = 0, hidden_total = 0;
  std::string first_hidden_public;       // which hidden case failed, without its sizes or values
  std::string first_hidden_recorded;     // the same with the draw's detail, for the database
  std::vector<TimedConfig> timed;        // the public configuration first
  std::vector<ExcludedConfig> excluded;  // ungradeable configurations, left out
};

struct ConfigCredit {
  std::string label;
  SymbolTable sizes;
  bool hidden = false;
  double cand_median_ns = 0, base_median_ns = 0, ratio = 0, p_faster = 1, p_slower = 1;
  double credit = 1;
  std::size_t samples = 0;
  bool suspect = false;
  bool within_margin = false;  // confirmed, but inside the equivalence margin: credited 1
  // Confirmed one way while the ratio of medians lies beyond the margin the other way:
  // credited 1 (with an equivalence margin only).
  bool median_disagrees = false;
  // Confirmed by the pooled samples, but not by every timing process alone: credited 1.
  bool unreplicated = false;
  std::vector<double> process_ratios;  // each timing process's ratio of medians (two or more)
  double clock_shift_ns = 0;           // what the clock audit added to each candidate sample
  SlotUse slot;                        // what the slot watch saw during the timed calls
};

struct GradeResult {
  Verdict verdict = Verdict::kJudgeError;
  std::string detail;           // for the response
  std::string recorded_detail;  // for the database (may name hidden draws)
  bool harness_fault = false;
  Resource fault_resource = Resource::kNone;
  RejectReason reason = RejectReason::kNone;  // a rejection the submission is not at fault for
  bool timed_out = false;
  bool build_ok = false, correct = false, public_correct = false;
  std::optional<bool> hidden_correct;  // /submit only
  int hidden_passed = 0, hidden_total = 0;
  std::optional<double> speedup;  // credited task speedup; none unless ok and not suspect
  std::optional<double> public_ratio, native_ns, baseline_ns, p_value;
  std::optional<double> max_rel_error;
  bool suspect = false;
  std::string baseline, baseline_protocol;
  std::vector<ConfigCredit> configs;
  std::vector<ExcludedConfig> excluded;
};

struct VerdictRules {
  double alpha = 0.1;  // one-sided Mann-Whitney per configuration
  // > 0: confirmed ratios within 1 +- this, or beyond it on the side the test did not confirm,
  // are credited 1. 0: the paper's rule (any confirmed ratio is credited).
  double equivalence_margin = 0;
  // A confirmed difference must be confirmed by each timing process's samples alone too
  // (JudgeConfig::process_replication).
  bool process_replication = false;
  double suspect_speedup = 1000;  // above: suspect, not credited
  // Why a timed configuration's numbers cannot be trusted (empty when they can): the clock
  // audit and the bandwidth floor (Grader::plausibility_problem).
  std::function<std::string(const TimedConfig&, double cand_median_ns)> implausible;
};

GradeResult decide(const GradeOutcome& outcome, const VerdictRules& rules);

// One timed configuration's credit under `rules` (the test, the margin, process replication);
// `why` says why its numbers cannot be trusted (empty when they can).
ConfigCredit credit_config(const TimedConfig& t, const VerdictRules& rules, std::string* why);

// How `calls` timed calls split across `processes` runner processes per side (TimedConfig::
// parts): process k takes calls [calls * k / processes, calls * (k + 1) / processes). Fewer
// than two calls per process, or one process: {calls}, a single process.
std::vector<std::size_t> timing_parts(std::size_t calls, int processes);

}  // namespace hpcab::judge
