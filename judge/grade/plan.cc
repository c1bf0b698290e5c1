#include "judge/grade/plan.h"

#include "common/compare.h"
#include "common/hmac.h"
#include "common/inputs.h"
#include "judge/grade/baseline_choice.h"
#include "judge/grade/sizes.h"

namespace hpcab::judge {

namespace {

// The public draws: the "score" key domain, stable per kernel, precision and preset.
ConfigPlan public_plan(const JudgeConfig& c, const Manifest& m, const std::string& precision,
                       const std::string& preset, const SymbolTable& sizes,
                       const std::string& key) {
  const std::string pub = m.id + "|" + precision + "|" + preset;
  ConfigPlan plan;
  plan.kind = ConfigPlan::Kind::kPublic;
  plan.label = "public " + preset;
  plan.sizes = sizes;
  for (int k = 0; k < c.timed_calls; ++k) {
    plan.seeds.push_back(derive_seed(key, "score", pub + "|call" + std::to_string(k)));
  }
  plan.warm_seed = derive_seed(key, "score", pub + "|warm");
  return plan;
}

struct Variant {
  const char* label;
  const char* dist;
  double scale;
  bool fuzzed;
};

// SPEC §5.4: mixed uniform, positive lognormal, normal, large-scale uniform, small positive.
constexpr Variant kVariants[] = {{"hidden positive lognormal", "lognormal", 1, false},
                                 {"hidden normal", "normal", 1, false},
                                 {"hidden mixed uniform", "uniform", 1, true},
                                 {"hidden large-scale uniform", "uniform", 1e3, true},
                                 {"hidden small positive", "lognormal", 1e-3, true}};

// Appends `plan` unless it is ungradeable at `p` or its arrays do not fit the data budget of a
// runner limited to `memory_bytes`, in which case it is reported as excluded: an answer must
// never fail because of a size this judge cannot grade.
void add(GradePlan& g, const Manifest& m, Precision p, uint64_t memory_bytes, ConfigPlan plan) {
  if (auto why = ungradeable_reason(m, p, plan.sizes)) {
    g.excluded.push_back(
        {plan.label, "ungradeable: " + *why, true, ExcludedConfig::Cause::kUngradeable});
    return;
  }
  if (auto why = memory_shortfall(m, plan.sizes, p, memory_bytes)) {
    g.excluded.push_back({plan.label, "memory: " + *why, true, ExcludedConfig::Cause::kMemory});
    return;
  }
  g.hidden.push_back(std::move(plan));
}

// The hidden cases of one /submit, all in the "submit" key domain under the nonce.
void add_hidden(const JudgeConfig& c, const Manifest& m, Precision p, const std::string& preset,
                const std::string& key, const std::string& nonce, GradePlan& g) {
  constexpr std::size_t n_variants = sizeof kVariants / sizeof kVariants[0];
  for (int v = 0; v < c.hidden_variants; ++v) {
    const Variant& var = kVariants[static_cast<std::size_t>(v) % n_variants];
    ConfigPlan plan;
    plan.kind = ConfigPlan::Kind::kHiddenVariant;
    plan.label = var.label;
    plan.size_seed = derive_seed(key, "submit", nonce + "|vsizes" + std::to_string(v));
    plan.sizes = var.fuzzed ? fuzzed_sizes(m, plan.size_seed) : m.presets.at("S");
    plan.seeds = {derive_seed(key, "submit", nonce + "|variant" + std::to_string(v))};
    plan.dist = var.dist;
    plan.scale = var.scale;
    plan.timed = false;
    plan.determinism = v == 0;
    add(g, m, p, c.memory_bytes, std::move(plan));
  }
  for (const auto& hp : c.hidden_presets) {
    if (hp == preset || !m.presets.count(hp)) continue;  // the public preset is checked already
    ConfigPlan plan;
    plan.kind = ConfigPlan::Kind::kHiddenPreset;
    plan.label = "hidden preset " + hp;
    plan.sizes = m.presets.at(hp);
    plan.seeds = {derive_seed(key, "submit", nonce + "|preset" + hp)};
    plan.timed = false;
    plan.reference_limit_s = c.hidden_preset_reference_s;
    add(g, m, p, c.memory_bytes, std::move(plan));
  }
  for (int t = 0; t < c.submit_fuzzed_configs; ++t) {
    const std::string tn = nonce + "|t" + std::to_string(t);
    ConfigPlan plan;
    plan.kind = ConfigPlan::Kind::kHiddenTimed;
    plan.label = "hidden#" + std::to_string(t + 1);
    plan.sizes = fuzzed_sizes(m, derive_seed(key, "submit", nonce + "|tsizes" + std::to_string(t)));
    for (int k = 0; k < c.timed_calls; ++k) {
      plan.seeds.push_back(derive_seed(key, "submit", tn + "|call" + std::to_string(k)));
    }
    plan.warm_seed = derive_seed(key, "submit", tn + "|warm");
    plan.size_seed = derive_seed(key, "submit", tn + "|jitter");
    plan.paired = true;
    add(g, m, p, c.memory_bytes, std::move(plan));
  }
}

}  // namespace

GradePlan plan_grade(const JudgeConfig& config, const Manifest& m, const std::string& route,
                     const std::string& precision, const std::string& preset,
                     const std::string& key, const std::string& nonce) {
  GradePlan g;
  g.preset = preset;
  g.sizes = m.presets.at(preset);
  g.submit = route != "score";
  g.public_config = public_plan(config, m, precision, preset, m.presets.at(preset), key);
  g.public_config.paired = g.submit || config.score_paired;
  if (g.submit) {
    add_hidden(config, m, parse_precision(precision).value_or(Precision::kFp64), preset, key,
               m.id + "|" + precision + "|" + nonce, g);
  }
  return g;
}

ConfigPlan plan_baseline(const JudgeConfig& config, const Manifest& m, const std::string& precision,
                         const std::string& preset, const SymbolTable& sizes,
                         const std::string& baseline, const std::string& key) {
  ConfigPlan plan = public_plan(config, m, precision, preset, sizes, key);
  plan.kind = ConfigPlan::Kind::kBaseline;
  plan.label = "baseline";
  plan.check = false;
  plan.cand_threads = sequential_baseline(baseline) ? 1 : 0;
  return plan;
}

void apply_calibration(GradePlan& g, const JudgeConfig& config, const Manifest& m, Precision p,
                       const SymbolTable& sizes, bool explicit_preset, const std::string& key,
                       const std::string& precision) {
  if (!explicit_preset) {
    const bool paired = g.public_config.paired;
    g.preset = kTimedPreset;
    g.sizes = sizes;
    g.public_config = public_plan(config, m, precision, kTimedPreset, sizes, key);
    g.public_config.paired = paired;
  }
  // One correctness case at the timed sizes is what the timed configurations already are (they
  // are checked); a hidden preset draw on top would only add a sequential oracle run at a size
  // that is neither small and varied nor timed (tsvc_2_s000's M: 64 M elements, most of a /submit).
  std::erase_if(g.hidden, [](const ConfigPlan& plan) {
    return plan.kind == ConfigPlan::Kind::kHiddenPreset;
  });
  // For the same reason the correctness variants are all small and varied: at the paper's
  // presets a variant at S (gemm 1000 x 1100 x 1200) cost a sequential oracle call and a
  // candidate call of a second or more each, most of a gemm /submit, and checked nothing the
  // timed sizes do not. A fuzzed draw this judge cannot grade (constraints that fell back to S,
  // a reduction too long for the precision, arrays over the budget) keeps the sizes it had.
  for (auto& plan : g.hidden) {
    if (plan.kind != ConfigPlan::Kind::kHiddenVariant) continue;
    SymbolTable small = fuzzed_sizes(m, plan.size_seed);
    if (!ungradeable_reason(m, p, small) && !memory_shortfall(m, small, p, config.memory_bytes)) {
      plan.sizes = std::move(small);
    }
  }
  const double j = config.hidden_size_jitter;
  for (auto& plan : g.hidden) {
    if (plan.kind != ConfigPlan::Kind::kHiddenTimed) continue;
    plan.sizes =
        jittered_sizes(m, p, sizes, plan.size_seed, 1 - j, 1 + j, data_budget(config.memory_bytes));
  }
}

}  // namespace hpcab::judge
