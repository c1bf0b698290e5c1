// The values a grade passes from stage to stage (docs/grading.md, "The pipeline"): what to run
// (ConfigPlan), what came of it (ConfigOutcome, RunFailure) and the verdicts.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/expr.h"

namespace hpcab::judge {

// SPEC §4: the verdict of a grade.
enum class Verdict {
  kOk,
  kBuildError,
  kIncorrect,
  kOverfit,
  kTimeout,
  kCrash,
  kMemory,
  kRejected,
  kJudgeError,
};

// The wire name ("ok", "build_error", ...).
const char* verdict_name(Verdict v);

// Which of the judge's own resources failed (fault attribution: never the candidate's).
enum class Resource {
  kNone,
  kScratch,   // the scratch filesystem (sandbox work dirs)
  kState,     // the state dir (build cache, database)
  kRunner,    // the hpcab-runner binary
  kSandbox,   // fork, pipes, bubblewrap set-up
  kDatabase,  // recording
  kCompiler,  // the toolchain or the reference build
  kInternal,  // an exception or a broken invariant inside the judge
  kSlot,      // the slot's CPUs were taken by other work while calls were timed (slot watch)
};

// The metrics label ("scratch", "state", ...); empty for kNone.
const char* resource_name(Resource r);

// Why a grade was `rejected` without any fault of its submission: this judge cannot run the
// language at all. The response's `reason` carries it (a value clients branch on, not the
// detail's text); kNone for every other verdict and rejection.
enum class RejectReason {
  kNone,
  kNoGpu,        // a GPU language, built fine, on a judge without a GPU
  kNoToolchain,  // a GPU language whose compiler this judge does not have
};

// The wire name ("no_gpu", "no_toolchain"); empty for kNone.
const char* reject_reason_name(RejectReason r);

// The detail of a kNoGpu rejection.
inline constexpr const char* kNoGpuDetail = "this judge has no GPU";

// A verdict-bearing failure of one runner session or stage. `harness` (the judge's own fault)
// implies verdict kJudgeError and a `resource`.
struct RunFailure {
  Verdict verdict = Verdict::kCrash;
  std::string detail;
  bool harness = false;
  bool timed_out = false;
  Resource resource = Resource::kNone;
  // The sandbox ended before the runner's first line ("boot"): bubblewrap's own set-up failed
  // (on a host short of processes: "Can't fork for pid 1"), nothing of the submission ran, and
  // the start may be retried (sandbox_start_retries).
  bool before_boot = false;
  RejectReason reason = RejectReason::kNone;  // with verdict kRejected only
};

// A failure of the judge's machinery: verdict judge_error, harness_fault, the resource named.
RunFailure judge_fault(Resource r, const std::string& detail);

using MaybeFailure = std::optional<RunFailure>;

// The last `n` bytes of a log for a detail ("..." in front when cut).
std::string tail(const std::string& s, std::size_t n);

// What one configuration runs (the plan stage makes these; the configuration run executes
// them).
struct ConfigPlan {
  enum class Kind { kPublic, kHiddenVariant, kHiddenPreset, kHiddenTimed, kBaseline };
  Kind kind = Kind::kPublic;
  std::string label;
  SymbolTable sizes;
  std::vector<uint64_t> seeds;  // one per timed call (one per case when untimed)
  uint64_t warm_seed = 0;
  std::string dist = "auto";
  double scale = 1;
  bool timed = true;         // false: correctness only (one call per seed)
  bool paired = false;       // baseline alternates with the candidate in the same slot
  bool determinism = false;  // run seeds[0] twice and compare (before /submit records)
  bool check = true;         // false: timing only (baseline measurement), no oracle, no compare
  int cand_threads = 0;      // threads of the timed library; 0: every CPU of the slot
  // Hidden timed: the secret jitter around the calibrated sizes. Hidden variant: the secret
  // fuzzed sizes (apply_calibration moves the variants at preset S there).
  uint64_t size_seed = 0;
  // Timing only (choosing the fastest baseline): > 0, the calls stop after a timed call slower
  // than this, or a warm-up call slower than twice it; the calls timed so far are the outcome.
  // An option that slow cannot be the fastest, and at a slow option's pace (gcc's autopar gemm
  // ran 67x slower than plain C) its remaining calls would cost seconds per kernel.
  double stop_above_ns = 0;
  // > 0 (hidden presets): the reference computes the draw first, under this call limit instead
  // of call_timeout_s; a reference slower than that leaves the configuration out for time
  // (ConfigOutcome::too_slow). A size the judge's own code cannot compute in good time is not a
  // test of the answer, and an honest candidate as fast as the reference then still has
  // call_timeout_s / reference_limit_s times that long.
  double reference_limit_s = 0;
};

// What came of one configuration.
// What the slot watch saw during a timed configuration's calls (docs/grading.md "Slot watch").
struct SlotUse {
  bool measured = false;
  // The timed runners' run-queue delay over their runnable time (CPU + delay): the share of the
  // time they wanted a CPU of the slot and another thread had it.
  double wait = 0;
  double steal = 0;  // the share of the slot's CPU time the hypervisor took
  int retries = 0;   // configurations rerun because the slot was disturbed
};

// Why `u` is past the limits (JudgeConfig::slot_wait_max, slot_steal_max; 0 turns a check
// off), or "" when the calls ran undisturbed enough to be credited.
std::string slot_disturbance(const SlotUse& u, double wait_max, double steal_max);

struct ConfigOutcome {
  std::vector<double> cand_ns, base_ns;
  // Timed in parts (JudgeConfig::timing_processes): each part's number of samples per side, in
  // call order. Empty: one process per side.
  std::vector<std::size_t> part_samples;
  std::string failed_output;  // the first output that did not match (for redacted details)
  // The judge's own view of the candidate's calls (median) and the least overshoot of any call
  // beyond the allowance (> 0: even the most favourable call shows a lying clock).
  double judge_median_ns = 0, overshoot_min_ns = 0;
  double reported_median_ns = 0;  // what the runner claimed (the floor judges the claim)
  // What the clock audit added to every candidate report (judge/grade/clock_audit.h); with timing
  // parts, the largest of theirs. Reported per configuration, so a reader sees when it acted.
  double clock_shift_ns = 0;
  SlotUse slot;
  bool correct = true;
  std::string detail;
  double max_rel_error = 0;
  // The comparison found the configuration ungradeable (SPEC §5.6): it is excluded from the
  // verdict and reported, never a rejection of the answer.
  std::optional<std::string> ungradeable;
  // The reference did not finish within ConfigPlan::reference_limit_s: excluded (why, with
  // the limit), never a failure of the candidate, which has not run.
  std::optional<std::string> too_slow;
  MaybeFailure failure;
};

// One reported baseline's figure, from a configuration timed paired with the candidate: both
// sides' median call, their ratio and its credit under the credited baseline's rules (1 unless
// a difference is confirmed).
struct ReportedFigure {
  double base_median_ns = 0;
  double cand_median_ns = 0;
  double ratio = 0;
  double credit = 0;
};

// A configuration left out of the verdict, and why (reported in the response as `excluded`).
struct ExcludedConfig {
  // Why, as a value: the response's text for a hidden configuration follows it (the reason
  // itself names sizes).
  enum class Cause {
    kUngradeable,  // reduction length times epsilon reaches rtol at the run's precision
    kMemory,       // its arrays do not fit the data budget of the runner's memory limit
    kTime,         // the reference alone took longer than hidden_preset_reference_s there
  };
  std::string label;
  std::string reason;  // may name sizes: shown only for public configurations
  bool hidden = false;
  Cause cause = Cause::kUngradeable;
};

}  // namespace hpcab::judge
