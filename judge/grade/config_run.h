// Stage: configuration run. Runs one ConfigPlan: the candidate (and, paired, the baseline in
// alternation) call by call with a fresh draw per call, the oracle on every checked draw, and
// the outputs compared in the judge (never inside a sandboxed process).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/manifest.h"
#include "judge/config/config.h"
#include "judge/grade/effects.h"
#include "judge/grade/types.h"
#include "judge/host/bandwidth.h"

namespace hpcab::judge {

// Observes the candidate's calls from the judge's side (POST /profile attaches perf): told the
// candidate runner's pid once every side started, and called right before and after each
// candidate call (`go`), outside the timed interval's bookkeeping but around the call itself.
class CallHooks {
 public:
  virtual ~CallHooks() = default;
  virtual void started(pid_t candidate_runner) = 0;
  virtual void before_call() = 0;
  virtual void after_call() = 0;
};

// What stays the same across the configurations of one grade (or one baseline measurement).
struct RunContext {
  const JudgeConfig& config;
  const Manifest& m;
  Precision precision;
  std::string work_dir;  // the grade's scratch dir
  std::vector<int> cpus;
  std::string cand_lib, base_lib, oracle_lib;
  std::string base_name;
  std::string oracle_name = "c";  // the oracle's baseline name ("c" or "numpy")
  std::optional<std::string> workspace_expr;
  const BandwidthTable* bandwidth = nullptr;  // for the copy-out allowance of the clock audit
  RunnerLauncher* launcher = nullptr;
  Clock* clock = nullptr;
  Entropy* entropy = nullptr;
  int sessions = 0;  // runner processes started so far (names their dirs)
  // Wall seconds per stage of the grade (reported as "timings_s"; `make bench` prints them).
  std::map<std::string, double> phase_s;
  // The candidate's GPU runtime ("" for CPU languages; "cuda" or "hip") and residency (host |
  // device, GradeRequest::residency). Only the candidate's side runs on the GPU: the baselines
  // and the oracle are the corpus's CPU code.
  std::string cand_gpu_runtime;
  std::string cand_residency = "host";
  SlotMonitor* slots = nullptr;  // GradeEffects::slots: none, the slot is not watched
  CallHooks* hooks = nullptr;    // none: nothing observes the calls (every grade)
};

ConfigOutcome run_config(RunContext& ctx, const ConfigPlan& plan);

// The workspace a submission asked for at `sizes` (0 when it asked for none).
Result<int64_t> workspace_size(const Manifest& m, const std::optional<std::string>& expr,
                               const SymbolTable& sizes);

// "{"N": 100}": the sizes as recorded.
std::string sizes_json(const SymbolTable& sizes);

}  // namespace hpcab::judge
