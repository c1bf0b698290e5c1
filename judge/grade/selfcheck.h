// The judge checking itself on its host (docs/grading.md "Self-check"): references of different
// classes graded against their own builds, which must be credited 1, and an honest parallel
// candidate, whose paired credit must match its ratio timed directly (each side alone). A lab
// runs it on a new host (`hpcab-judge selfcheck`); a judge with `selfcheck_at_start` runs it in
// its queue after it starts listening and reports it in /health. The verdicts on responses are
// pure functions; the grades come from whatever the caller wires in.
#pragma once

#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/manifest.h"
#include "judge/config/config.h"
#include "judge/grade/grader.h"

namespace hpcab::judge {

struct SelfcheckCase {
  std::string name;    // the class: "memory-bound", "compute-bound", "python", "parallel"
  std::string kernel;  // a corpus id
  std::string language;
  std::string source;
  std::string
      own_baseline;       // the baseline built from the same code ("c" or "numpy"); parallel: "c"
  bool parallel = false;  // judged against its direct ratio, not against 1
};

enum class SelfcheckOutcome {
  kPass,
  kMisjudged,  // credited outside the tolerance around the expected figure
  kSuspect,    // an honest reference judged implausible (a wrong bandwidth, a broken floor)
  kFailed,     // the grade did not end ok (a judge fault, a crash, a wrong answer)
  kSkipped,    // this host cannot run the case (no Python runner, a one-CPU slot)
};
const char* selfcheck_outcome_name(SelfcheckOutcome o);

struct SelfcheckResult {
  std::string name, kernel;
  SelfcheckOutcome outcome = SelfcheckOutcome::kFailed;
  std::optional<double> credit;    // what the judge credited
  std::optional<double> expected;  // 1, or the direct ratio
  double tolerance = 0;            // relative, around `expected`
  std::string detail;
};

struct SelfcheckReport {
  std::vector<SelfcheckResult> results;
  // Fit to grade here: no case misjudged, suspect or failed (skipped ones say what was not
  // checked, they do not fail the host).
  bool fit() const;
  nlohmann::json to_json() const;
};

// The cases for this judge: the references of tsvc_2_s000 (memory-bound), gemm (compute-bound)
// and softmax's reference.py (Python; only with a Python runner), and an OpenMP gemm shipped with
// the judge (parallel; only with a slot of two CPUs or more). Kernels missing from the corpus are
// left out. Sources are read from the corpus.
std::vector<SelfcheckCase> selfcheck_cases(const std::vector<Manifest>& corpus,
                                           std::size_t slot_cpus, bool python);

// A reference against its own build: ok, not suspect, credited within 1 +- tolerance.
SelfcheckResult judge_self(const SelfcheckCase& c, const nlohmann::json& response,
                           double tolerance);
// The parallel candidate: its paired /submit credit within the tolerance of the ratio of
// medians of the unpaired /score, where each side was timed alone.
SelfcheckResult judge_parallel(const SelfcheckCase& c, const nlohmann::json& paired,
                               const nlohmann::json& direct, double tolerance);

// The grades a self-check needs: a paired /submit, and an unpaired /score (the direct ratio).
struct SelfcheckGraders {
  std::function<nlohmann::json(const GradeRequest&)> paired;
  std::function<nlohmann::json(const GradeRequest&)> direct;
};

SelfcheckReport run_selfcheck(const std::vector<SelfcheckCase>& cases, const SelfcheckGraders& g,
                              double tolerance, double parallel_tolerance,
                              const std::function<void(const SelfcheckResult&)>& progress);

// The settings the self-check grades with: the judge's own, with every case's credited baseline
// its own build (C for C references, numpy for the Python one), no reported figures, and /score
// unpaired when `direct`.
JudgeConfig selfcheck_config(const JudgeConfig& base, const std::vector<SelfcheckCase>& cases,
                             bool direct);

// What /health reports while a judge checks itself: {"state": "off" | "pending" | "running" |
// "fit" | "unfit" | "error", "report": ...}. Thread-safe.
class SelfcheckState {
 public:
  void set(nlohmann::json j) {
    std::lock_guard lock(mu_);
    j_ = std::move(j);
  }
  nlohmann::json get() const {
    std::lock_guard lock(mu_);
    return j_;
  }

 private:
  mutable std::mutex mu_;
  nlohmann::json j_ = {{"state", "off"}};
};

}  // namespace hpcab::judge
