// Stage: plan (pure). From the request, the settings, the secret key and the /submit nonce to
// the configurations a grade runs, in order: the public preset (timed; paired on /submit), then
// on /submit the hidden correctness variants, the hidden presets and the secret timed sizes.
// Every seed is derived here (HMAC of the key, judge/config/secrets.h), so nothing later needs the
// key.
#pragma once

#include <string>
#include <vector>

#include "common/dtype.h"
#include "common/manifest.h"
#include "judge/config/config.h"
#include "judge/grade/types.h"

namespace hpcab::judge {

// The label of the calibrated public configuration ("public timed").
inline constexpr const char* kTimedPreset = "timed";

struct GradePlan {
  std::string preset;
  SymbolTable sizes;  // the public preset's
  bool submit = false;
  ConfigPlan public_config;
  std::vector<ConfigPlan> hidden;  // /submit only, in the order they run
  // Hidden configurations left out because they are ungradeable at the run's precision or do
  // not fit the runner's memory limit: an answer must never fail because of one.
  std::vector<ExcludedConfig> excluded;
};

// `nonce`: fresh unpredictable text per /submit (ignored for /score, whose draws are stable per
// kernel, precision and preset so an agent's iterations compare).
GradePlan plan_grade(const JudgeConfig& config, const Manifest& m, const std::string& route,
                     const std::string& precision, const std::string& preset,
                     const std::string& key, const std::string& nonce);

// The baseline measured alone on the public draws (cached for /score): same seeds as the
// public configuration of `preset` (a preset name, or "timed" with the calibrated `sizes`),
// timing only; sequential baselines on one core (SPEC §5.10).
ConfigPlan plan_baseline(const JudgeConfig& config, const Manifest& m, const std::string& precision,
                         const std::string& preset, const SymbolTable& sizes,
                         const std::string& baseline, const std::string& key);

// Timed sizes chosen by time: the public configuration of a request that named no preset
// (`explicit_preset` false) moves to the calibrated `sizes` ("timed", stable per kernel, so an
// agent's iterations compare), and every hidden timed configuration to its secret jitter around
// them, never to the small fuzzed ranges. Hidden preset draws are dropped: the checked timed
// configurations are the correctness case at the timed size; and every correctness variant
// is drawn at small fuzzed sizes (none at preset S).
void apply_calibration(GradePlan& g, const JudgeConfig& config, const Manifest& m, Precision p,
                       const SymbolTable& sizes, bool explicit_preset, const std::string& key,
                       const std::string& precision);

}  // namespace hpcab::judge
