// The grade pipeline (SPEC §5), one path from request to recorded answer, a stage per file
// under judge/grade/ (docs/grading.md): plan -> build -> configuration runs (runner sessions
// in the sandbox: candidate, baseline, oracle; outputs compared in the judge) -> verdict ->
// record.
// Expected failures (build error, wrong answer, crash, timeout, memory) are verdicts in a 200
// response; only a fault of the judge itself becomes `judge_error` with harness_fault = true.
#pragma once

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/manifest.h"
#include "judge/build/build.h"
#include "judge/config/config.h"
#include "judge/grade/config_run.h"
#include "judge/grade/effects.h"
#include "judge/grade/request.h"
#include "judge/grade/service.h"
#include "judge/grade/sizes.h"
#include "judge/grade/slot_pool.h"
#include "judge/grade/verdict.h"
#include "judge/host/bandwidth.h"
#include "judge/store/store.h"

namespace hpcab::judge {

// "host | cpu model | N cpus | compiler | Python, NumPy and Numba versions | timing protocol |
// arch ISA level[ | image sha256:...]": what baseline samples, calibrations and bandwidth figures
// are keyed by, so a baseline timed under one version of any of them is never reused under
// another, and what every recorded answer carries (the image it was graded in too).
std::string machine_fingerprint(Builder* builder, const JudgeConfig& config);

struct RealEffects;  // judge/grade/real_effects.h
struct RunContext;   // judge/grade/config_run.h
struct ConfigPlan;   // judge/grade/types.h
struct ConfigOutcome;

class Grader : public GradeService {
 public:
  // The production judge: real effects (bubblewrap, the builder, the store, the clocks).
  // `bandwidth` feeds the plausibility floor (SPEC §5.9); an empty table turns the floor off.
  Grader(const JudgeConfig& config, std::vector<Manifest> corpus, Store* store, std::string key,
         Builder* builder, BandwidthTable bandwidth = {});
  // Any effects (tests pass fakes: tests/judge/grader_test.cc). Not owned.
  Grader(const JudgeConfig& config, std::vector<Manifest> corpus, GradeEffects effects,
         std::string key, std::string machine, BandwidthTable bandwidth = {});
  ~Grader();

  const Manifest* kernel(const std::string& id) const override;
  const std::vector<Manifest>& corpus() const override { return corpus_; }
  // The baseline a kernel is credited against (per track, SPEC §11): its name, the one chosen
  // when the track names several (once this judge has chosen), else "the fastest of a, b".
  std::string baseline_name(const Manifest& m) const override;
  // The graded answer (always a JSON object for a 200 response); records it in the store.
  // The pipeline (docs/grading.md): plan, build, configuration runs (runner sessions),
  // verdict, record. An exception escaping a stage propagates (the caller answers 500);
  // everything the grade holds (slot, scratch dir, runner processes) is released on the way.
  nlohmann::json grade(const GradeRequest& request) override;
  nlohmann::json syntax_check(const GradeRequest& request) override;
  // POST /profile (judge/grade/profile.cc): the candidate (target "candidate") or the kernel's
  // baseline ("baseline") on one public draw with perf attached from the judge's side; nothing
  // recorded. An Error with Errc::kNotFound when perf is missing or cannot count here.
  Result<nlohmann::json> profile(const GradeRequest& request, const std::string& target) override;
  // {kernel, preset, precision, baselines: {name: median ns}, protocol}; measures and caches
  // what is missing. An Error for a judge fault.
  Result<nlohmann::json> baseline_times(const Manifest& m, const std::string& preset,
                                        const std::string& precision) override;
  const std::string& machine() const override { return machine_; }
  // The calibrated timed sizes of (m, p) when this judge has found them (shown by /task);
  // nullopt without calibration (min_call_ms 0) or before the first grade of the kernel.
  std::optional<SymbolTable> cached_timed_sizes(const Manifest& m, Precision p) const override;

  // Why a timed configuration's numbers cannot be trusted (empty when they can): every call's
  // runner clock disagrees with the judge's beyond the allowance, or the median beats the
  // bandwidth floor.
  std::string plausibility_problem(const Manifest& m, Precision p, const SymbolTable& sizes,
                                   double cand_median_ns, double judge_median_ns,
                                   double overshoot_min_ns, double reported_median_ns) const;

  struct State;  // one grade's state (grader.cc)

 private:
  void build(State& st);
  void cached_baseline(State& st);
  void run_public(State& st);
  void run_hidden(State& st);
  ConfigOutcome run_timed(RunContext& ctx, const ConfigPlan& plan);
  ConfigOutcome run_watched(RunContext& ctx, const ConfigPlan& plan);
  nlohmann::json finish(State& st);
  Result<std::vector<double>> measure_alone(const Manifest& m, Precision p, const std::string& name,
                                            const std::string& library, const ConfigPlan& plan);
  // The `names` baselines' medians alone at `sizes` (measured once and cached); a Numba one
  // that fails its probe is listed under "unavailable" with why.
  Result<nlohmann::json> baseline_times_at(const Manifest& m, const std::string& preset,
                                           const SymbolTable& sizes, const std::string& precision,
                                           const std::vector<std::string>& names);
  Result<Calibration> timed_sizes(const Manifest& m, Precision p, const std::string& base,
                                  const std::string& library, const std::string& hash);
  void calibrate(State& st);
  void choose_baseline(State& st);
  ConfigPlan calibration_plan(const Manifest& m, const std::string& precision,
                              const std::string& base, const SymbolTable& sizes,
                              const std::string& what) const;
  // The kernel's baseline options: kernel_baseline, else track_baseline, less the options whose
  // reference file it lacks; never empty (the fallback is `c`, or `numpy` without
  // reference.c). A grade drops those its precision's probe fails (probe_options).
  std::vector<std::string> baseline_options(const Manifest& m) const;
  // The oracle of a kernel: its manifest's "oracle", else `numpy` without reference.c, else
  // the track's track_oracle entry.
  std::string oracle_name(const Manifest& m) const override;
  // Numba options that fail their probe are dropped from the grade's options (a fallback
  // built when none is left); `unavailable` names each dropped one with why.
  void probe_options(State& st);
  // "" when `library` (a baseline needing a probe) runs and matches the oracle on one small
  // draw, else why not; once per (kernel, precision, build).
  std::string probe(const Manifest& m, Precision p, const std::string& name,
                    const std::string& library, const std::string& hash,
                    const std::string& oracle_library);
  // The report_baselines figures of an ok /submit: each other baseline timed paired with the
  // candidate on the public configuration and credited under `rules`, as the credited one.
  void report_other_baselines(State& st, const VerdictRules& rules,
                              std::map<std::string, ReportedFigure>& out);
  // The grade's runner context in `dir` on `cpus`, its baseline the credited one.
  RunContext grade_context(State& st, const std::string& dir, const std::vector<int>& cpus);
  // POST /profile's stages (judge/grade/profile.cc).
  struct ProfileBuild {
    std::string library, oracle, name;  // oracle empty: outputs not checked (a baseline)
    int threads = 0;
  };
  Status profiler_available() const;
  Result<ProfileBuild> profile_build(const GradeRequest& req, const Manifest& m, Precision p,
                                     bool baseline, nlohmann::json& out);
  nlohmann::json profile_hotspots(RunContext& ctx, ConfigPlan plan, const std::string& perf_dir,
                                  double median_ns, bool candidate);
  // The track's baseline for (m, p): its only option, or the chosen one; empty before a choice.
  std::string chosen_baseline(const Manifest& m, Precision p) const;

  const JudgeConfig& config_;
  std::vector<Manifest> corpus_;
  std::unique_ptr<RealEffects> owned_;  // the production constructor's
  GradeEffects fx_;
  std::string key_;
  SlotPool slots_;
  std::string machine_;
  BandwidthTable bandwidth_;
  mutable std::mutex calibration_mu_;
  std::map<std::string, Calibration> calibrations_;  // kernel|precision|baseline|hash
  mutable std::mutex choice_mu_;
  std::map<std::string, nlohmann::json> choices_;  // kernel|precision|option hashes: the choice
  mutable std::mutex probe_mu_;
  std::map<std::string, std::string> probes_;  // kernel|precision|hash: "" or why not
  mutable std::mutex chosen_mu_;
  std::map<std::string, std::string> chosen_;  // kernel|precision: the latest chosen name
  // Hidden presets whose reference took longer than hidden_preset_reference_s on this machine
  // (kernel|precision|oracle|label: why): later grades leave them out without rerunning it.
  mutable std::mutex too_slow_mu_;
  std::map<std::string, std::string> too_slow_;
};

}  // namespace hpcab::judge
