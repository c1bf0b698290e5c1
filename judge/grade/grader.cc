#include "judge/grade/grader.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "common/hmac.h"
#include "common/inputs.h"
#include "common/stats.h"
#include "judge/build/diagnostics.h"
#include "judge/grade/baseline_choice.h"
#include "judge/grade/build_stage.h"
#include "judge/grade/config_run.h"
#include "judge/grade/plan.h"
#include "judge/grade/real_effects.h"
#include "judge/grade/record.h"
#include "judge/grade/sizes.h"
#include "judge/grade/verdict.h"

namespace hpcab::judge {

using json = nlohmann::json;

// Bumped whenever the runner changes how fast the same code runs on the same machine (2: large
// arrays on transparent huge pages; 3: huge pages from 512 KiB instead of 4 MiB), so
// calibrations and baseline samples measured before are not reused.
constexpr int kTimingProtocol = 3;

std::string machine_fingerprint(Builder* builder, const JudgeConfig& config) {
  std::string model = "unknown cpu";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  return std::string(host) + " | " + model + " | " + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) +
         " cpus | " + builder->compiler_version("c") + " | " + builder->compiler_version("python") +
         " | timing protocol " + std::to_string(kTimingProtocol) + " | " + config.platform.arch +
         (config.platform.isa_level.empty() ? "" : " " + config.platform.isa_level) +
         (config.image_digest.empty() ? "" : " | image " + config.image_digest);
}

// ---------------------------------------------------------------------------------------------
// One grade's state, passed from stage to stage.

struct Grader::State {
  const GradeRequest& req;
  const Manifest& m;
  Precision precision;
  GradePlan plan;
  GradeOutcome outcome;
  BuiltLibraries libs;
  std::vector<double> cached_base_ns;  // /score: the cached baseline samples
  std::map<std::string, double> phases;
  std::optional<RunContext> run;      // once the slot and the scratch dir are held
  json calibration;                   // the timed sizes used (null without calibration)
  json baseline_choice;               // how the fastest of several baselines was chosen, or null
  json unavailable = json::object();  // baseline options left out (a failed probe) and why
};

namespace {

// Scope guard for a phase's wall time.
class Phase {
 public:
  Phase(Clock& clock, std::map<std::string, double>& into, std::string name)
      : clock_(clock), into_(into), name_(std::move(name)), t0_(clock.monotonic_ns()) {}
  ~Phase() { into_[name_] += static_cast<double>(clock_.monotonic_ns() - t0_) * 1e-9; }

 private:
  Clock& clock_;
  std::map<std::string, double>& into_;
  std::string name_;
  int64_t t0_;
};

// A scratch dir removed however the grade ends (an exception included).
struct ScratchDir {
  ScratchFs& fs;
  std::string path;
  ~ScratchDir() {
    if (!path.empty()) fs.remove(path);
  }
};

TimedConfig timed_config(const ConfigPlan& plan, const ConfigOutcome& o,
                         std::vector<double> base_ns) {
  return TimedConfig{plan.label,
                     plan.sizes,
                     plan.kind != ConfigPlan::Kind::kPublic,
                     o.cand_ns,
                     std::move(base_ns),
                     o.judge_median_ns,
                     o.overshoot_min_ns,
                     o.reported_median_ns,
                     o.clock_shift_ns,
                     o.part_samples,
                     o.slot};
}

// Which of the judge's resources failed a measurement of its own (a baseline timed alone, a
// calibration): the slot when it was too busy to time on, else the judge's internals.
Resource measuring_fault(const Error& e) {
  return e.code == Errc::kBusy ? Resource::kSlot : Resource::kInternal;
}

void note_max_rel(GradeOutcome& g, const ConfigOutcome& o) {
  if (o.failure && !o.correct) return;
  g.max_rel_error = std::max(g.max_rel_error.value_or(0), o.max_rel_error);
}

}  // namespace

Grader::Grader(const JudgeConfig& config, std::vector<Manifest> corpus, Store* store,
               std::string key, Builder* builder, BandwidthTable bandwidth)
    : config_(config),
      corpus_(std::move(corpus)),
      owned_(std::make_unique<RealEffects>(config, store, builder)),
      fx_(owned_->effects()),
      key_(std::move(key)),
      slots_(config.slots),
      machine_(machine_fingerprint(builder, config)),
      bandwidth_(std::move(bandwidth)) {}

Grader::Grader(const JudgeConfig& config, std::vector<Manifest> corpus, GradeEffects effects,
               std::string key, std::string machine, BandwidthTable bandwidth)
    : config_(config),
      corpus_(std::move(corpus)),
      fx_(effects),
      key_(std::move(key)),
      slots_(config.slots),
      machine_(std::move(machine)),
      bandwidth_(std::move(bandwidth)) {}

Grader::~Grader() = default;

const Manifest* Grader::kernel(const std::string& id) const { return find_kernel(corpus_, id); }

std::vector<std::string> Grader::baseline_options(const Manifest& m) const {
  std::string spec = "c";
  if (auto k = config_.kernel_baseline.find(m.id); k != config_.kernel_baseline.end()) {
    spec = k->second;
  } else if (auto t = config_.track_baseline.find(m.track); t != config_.track_baseline.end()) {
    spec = t->second;
  }
  auto options = available_options(judge::baseline_options(spec).value(),  // finalize checked it
                                   m.has_reference_c(), m.has_reference_py());
  if (options.empty()) options = {m.has_reference_c() ? "c" : "numpy"};
  return options;
}

std::string Grader::oracle_name(const Manifest& m) const {
  if (m.oracle) return *m.oracle;
  if (!m.has_reference_c()) return "numpy";
  auto it = config_.track_oracle.find(m.track);
  return it == config_.track_oracle.end() ? "c" : it->second;
}

std::string Grader::chosen_baseline(const Manifest& m, Precision p) const {
  const auto options = baseline_options(m);
  if (options.size() == 1) return options[0];
  std::lock_guard lock(chosen_mu_);  // never held across a measurement: /task reads it
  auto it = chosen_.find(m.id + "|" + std::string(precision_name(p)));
  return it == chosen_.end() ? "" : it->second;
}

std::string Grader::baseline_name(const Manifest& m) const {
  const auto options = baseline_options(m);
  if (options.size() == 1) return options[0];
  for (Precision p : {Precision::kFp64, Precision::kFp32}) {
    if (auto c = chosen_baseline(m, p); !c.empty()) return c;
  }
  return describe_baselines(options);
}

// ---------------------------------------------------------------------------------------------
// The pipeline

json Grader::syntax_check(const GradeRequest& req) {
  const Manifest& m = *kernel(req.kernel);  // routes validated the kernel and the source
  auto built = fx_.compiler->build(
      {req.language, "submission", req.source.value_or(""), req.build_tokens, m.id});
  // The compiler could not run at all: the judge's fault, answered 500 by the route.
  if (!built) throw std::runtime_error("building the submission: " + built.error().message);
  json diagnostics = json::array();
  for (const auto& d : parse_diagnostics(built->log, req.language)) {
    diagnostics.push_back({{"file", d.file},
                           {"line", d.line},
                           {"column", d.column},
                           {"severity", d.severity},
                           {"message", d.message}});
  }
  json out = {{"kernel", m.id},
              {"language", req.language},
              {"ok", built->ok},
              {"verdict", built->toolchain_missing ? "rejected"
                          : built->ok              ? "ok"
                                                   : "build_error"},
              {"timed_out", built->timed_out},
              {"cached", built->cached},
              {"seconds", built->seconds},
              {"diagnostics", diagnostics},
              {"log", tail(built->log, 8000)}};
  if (built->toolchain_missing) out["reason"] = reject_reason_name(RejectReason::kNoToolchain);
  return out;
}

json Grader::grade(const GradeRequest& req) {
  const Manifest& m = *kernel(req.kernel);  // routes validated the kernel and precision
  const std::string preset = req.preset.value_or(config_.default_preset);
  unsigned char nonce[16];
  fx_.entropy->fill(nonce, sizeof nonce);
  State st{req,
           m,
           *parse_precision(req.precision),
           plan_grade(config_, m, req.route, req.precision, preset, key_,
                      to_hex(sha256(std::string(reinterpret_cast<char*>(nonce), sizeof nonce)))),
           {},
           {},
           {},
           {},
           std::nullopt,
           nullptr,
           nullptr};
  st.outcome.submit = st.plan.submit;
  st.outcome.excluded = st.plan.excluded;
  build(st);
  if (!st.outcome.stopped && gpu_language(req.language) && config_.gpus.empty()) {
    // Built (a compile error is the answer first), but nothing here can run it.
    RunFailure f;
    f.verdict = Verdict::kRejected;
    f.reason = RejectReason::kNoGpu;
    f.detail = kNoGpuDetail;
    st.outcome.stopped = f;
    return finish(st);
  }
  if (!st.outcome.stopped) probe_options(st);
  if (!st.outcome.stopped) choose_baseline(st);
  if (!st.outcome.stopped && config_.min_call_ms > 0) calibrate(st);
  if (!st.outcome.stopped && !st.plan.public_config.paired) cached_baseline(st);
  if (!st.outcome.stopped) {
    auto lease = slots_.acquire();
    auto dir = fx_.scratch->make_dir("grade");
    if (!dir) {
      st.outcome.stopped =
          judge_fault(Resource::kScratch, "judge fault: the scratch filesystem (" +
                                              config_.scratch_dir + "): " + dir.error().message);
      return finish(st);
    }
    ScratchDir cleanup{*fx_.scratch, *dir};
    st.run.emplace(grade_context(st, *dir, lease.cpus()));
    run_public(st);
    if (!st.outcome.stopped && st.outcome.public_correct && st.plan.submit) run_hidden(st);
  }
  return finish(st);
}

void Grader::build(State& st) {
  Phase phase(*fx_.clock, st.phases, "build");
  st.outcome.stopped = build_stage(*fx_.compiler, *fx_.scratch, st.req, st.m, oracle_name(st.m),
                                   baseline_options(st.m), st.libs);
  st.outcome.build_ok = !st.libs.candidate.empty();
}

void Grader::probe_options(State& st) {
  auto& options = st.libs.options;
  std::vector<BuiltLibraries::Option> kept;
  for (const auto& o : options) {
    if (!baseline_needs_probe(o.name)) {
      kept.push_back(o);
      continue;
    }
    Phase phase(*fx_.clock, st.phases, "probe baselines");
    const std::string why = probe(st.m, st.precision, o.name, o.library, o.hash, st.libs.oracle);
    if (why.empty()) {
      kept.push_back(o);
    } else {
      st.unavailable[o.name] = why;
    }
  }
  if (kept.empty()) {
    // Every option failed its probe: the kernel is credited against the fallback, reported.
    const std::string name = st.m.has_reference_c() ? "c" : "numpy";
    auto built = build_reference(*fx_.compiler, *fx_.scratch, st.m, name);
    if (!built) {
      st.outcome.stopped =
          judge_fault(Resource::kCompiler,
                      "judge fault: the fallback baseline " + name + ": " + built.error().message);
      return;
    }
    kept.push_back({name, built->library, built->hash});
  }
  options = kept;
  if (options.size() == 1) {
    st.libs.baseline = options[0].library;
    st.libs.baseline_hash = options[0].hash;
  }
}

// A small checked run of the option as if it were a candidate (every check applies) against
// the oracle: Numba compiles a subset of NumPy, so whether this reference.py runs under njit
// is known only by running it, and a compiled version that disagrees with NumPy is no
// baseline either. Trusted code failing here is never a grade's failure: the option is left
// out (and said so in the response).
std::string Grader::probe(const Manifest& m, Precision p, const std::string& name,
                          const std::string& library, const std::string& hash,
                          const std::string& oracle_library) {
  const std::string precision(precision_name(p));
  const std::string memo = m.id + "|" + precision + "|" + hash;
  std::lock_guard lock(probe_mu_);  // one probe at a time; the others wait for its answer
  if (auto it = probes_.find(memo); it != probes_.end()) return it->second;
  ConfigPlan plan;
  plan.kind = ConfigPlan::Kind::kHiddenVariant;
  plan.label = "probe " + name;
  plan.timed = false;
  plan.check = true;
  plan.seeds = {derive_seed(key_, "score", m.id + "|" + precision + "|probe|" + name)};
  plan.sizes = fuzzed_sizes(m, derive_seed(key_, "score", m.id + "|probe sizes"));
  plan.cand_threads = sequential_baseline(name) ? 1 : 0;
  std::string why;
  {
    auto lease = slots_.acquire();
    auto dir = fx_.scratch->make_dir("probe");
    if (!dir) return "the scratch filesystem: " + dir.error().message;  // not memoized
    ScratchDir cleanup{*fx_.scratch, *dir};
    RunContext ctx{config_,
                   m,
                   p,
                   *dir,
                   lease.cpus(),
                   library,
                   "",
                   oracle_library,
                   name,
                   oracle_name(m),
                   std::nullopt,
                   &bandwidth_,
                   fx_.launcher,
                   fx_.clock,
                   fx_.entropy,
                   0,
                   {},
                   "",
                   "host",
                   fx_.slots};
    ConfigOutcome o = run_config(ctx, plan);
    if (o.failure) {
      if (o.failure->harness) return o.failure->detail;  // the judge's: asked again later
      why = std::string(verdict_name(o.failure->verdict)) + ": " + tail(o.failure->detail, 600);
    } else if (!o.correct) {
      why = "disagrees with the oracle: " + o.detail;
    }
  }
  probes_[memo] = why;
  return why;
}

// The credited baseline. One option: it. Several: each timed alone at the same sizes (the
// first option's calibrated timed sizes, or the public sizes without calibration), the least
// median wins; chosen once per (kernel, precision, builds) and kept while the judge runs, so
// every grade of a kernel is credited against the same code.
void Grader::choose_baseline(State& st) {
  const auto& options = st.libs.options;
  auto use = [&st](const BuiltLibraries::Option& o) {
    st.outcome.baseline = o.name;
    st.libs.baseline = o.library;
    st.libs.baseline_hash = o.hash;
  };
  if (options.size() == 1) {
    use(options[0]);
    return;
  }
  Phase phase(*fx_.clock, st.phases, "choose baseline");
  const std::string precision(precision_name(st.precision));
  std::string memo = st.m.id + "|" + precision;
  for (const auto& o : options) memo += "|" + o.hash;
  std::lock_guard lock(choice_mu_);  // one choice at a time; the others wait for it
  auto it = choices_.find(memo);
  if (it == choices_.end()) {
    std::map<std::string, double> medians;
    SymbolTable at = st.plan.sizes;
    std::string where = "the public sizes";
    if (config_.min_call_ms > 0) {
      auto c =
          timed_sizes(st.m, st.precision, options[0].name, options[0].library, options[0].hash);
      if (!c) {
        st.outcome.stopped =
            judge_fault(measuring_fault(c.error()),
                        "judge fault: calibrating the timed sizes: " + c.error().message);
        return;
      }
      at = c->sizes;
      medians[options[0].name] = c->baseline_ns;
      where = "the timed sizes of " + options[0].name;
    }
    std::vector<std::string> names, stopped;
    for (const auto& o : options) {
      names.push_back(o.name);
      if (medians.count(o.name)) continue;
      ConfigPlan plan = calibration_plan(st.m, precision, o.name, at, "choose|" + o.name);
      double fastest = INFINITY;
      for (const auto& [name, ns] : medians) fastest = std::min(fastest, ns);
      // Noise on a quiet host is a few percent; an option 1.5x slower in a call is not the
      // fastest, and its other calls are not worth their time.
      if (std::isfinite(fastest)) plan.stop_above_ns = 1.5 * fastest;
      auto ns = measure_alone(st.m, st.precision, o.name, o.library, plan);
      if (!ns) {
        st.outcome.stopped =
            judge_fault(measuring_fault(ns.error()),
                        "judge fault: choosing the baseline: " + ns.error().message);
        return;
      }
      // Stopped in its warm-up: no timed call, slower than the fastest by the rule above.
      medians[o.name] =
          ns->empty() ? 2 * plan.stop_above_ns : *std::min_element(ns->begin(), ns->end());
      if (ns->size() < plan.seeds.size()) stopped.push_back(o.name);
    }
    const std::string best = fastest_baseline(names, medians);
    if (best.empty()) {
      st.outcome.stopped = judge_fault(Resource::kInternal,
                                       "judge fault: choosing the baseline: no option was timed");
      return;
    }
    json timed = json::object();
    for (const auto& [k, v] : medians) timed[k] = v;
    it = choices_
             .emplace(memo, json{{"rule", "the fastest call, each timed alone at " + where},
                                 {"options", names},
                                 {"fastest_ns", timed},
                                 {"stopped_early", stopped},
                                 {"chosen", best}})
             .first;
    std::lock_guard named(chosen_mu_);
    chosen_[st.m.id + "|" + precision] = best;
  }
  st.baseline_choice = it->second;
  for (const auto& o : options) {
    if (o.name == it->second["chosen"].get<std::string>()) use(o);
  }
}

// /score compares against cached baseline samples (measured now if missing, which takes the
// slot itself, so before this grade holds it).
void Grader::cached_baseline(State& st) {
  auto times = baseline_times_at(st.m, st.plan.preset, st.plan.sizes, st.req.precision,
                                 {st.outcome.baseline});
  if (!times) {
    st.outcome.stopped = judge_fault(measuring_fault(times.error()),
                                     "judge fault: baseline: " + times.error().message);
    return;
  }
  BaselineKey key{st.m.id,  st.req.precision,     sizes_json(st.plan.sizes), st.outcome.baseline,
                  machine_, st.libs.baseline_hash};
  auto cached = fx_.store->get_baseline(key);
  if (!cached || !*cached) {
    st.outcome.stopped =
        judge_fault(Resource::kDatabase, "judge fault: baseline cache miss after measuring");
    return;
  }
  st.cached_base_ns.assign((*cached)->ns.begin(), (*cached)->ns.end());
  st.outcome.baseline_protocol = "cached: " + (*cached)->protocol;
}

// `calibration_calls` timed calls of a baseline alone at `sizes`, on draws of the "score" key
// domain (not any grade's hidden ones), sequential baselines on one core.
ConfigPlan Grader::calibration_plan(const Manifest& m, const std::string& precision,
                                    const std::string& base, const SymbolTable& sizes,
                                    const std::string& what) const {
  ConfigPlan plan;
  plan.kind = ConfigPlan::Kind::kBaseline;
  plan.label = "calibration";
  plan.sizes = sizes;
  const std::string tag = m.id + "|" + precision + "|" + what;
  for (int k = 0; k < config_.calibration_calls; ++k) {
    plan.seeds.push_back(derive_seed(key_, "score", tag + "|call" + std::to_string(k)));
  }
  plan.warm_seed = derive_seed(key_, "score", tag + "|warm");
  plan.check = false;
  plan.cand_threads = sequential_baseline(base) ? 1 : 0;
  return plan;
}

// Timed sizes chosen by time: found once per (kernel, precision, baseline build, machine,
// min_call_ms) by timing the credited baseline alone, cached in memory and in the database.
Result<Calibration> Grader::timed_sizes(const Manifest& m, Precision p, const std::string& base,
                                        const std::string& library, const std::string& hash) {
  const std::string precision(precision_name(p));
  CalibrationKey key{m.id, precision, base, machine_, hash, config_.min_call_ms};
  const std::string memo = m.id + "|" + precision + "|" + base + "|" + hash;
  std::lock_guard lock(calibration_mu_);  // one search at a time; the others wait for it
  if (auto it = calibrations_.find(memo); it != calibrations_.end()) return it->second;
  auto stored = fx_.store->get_calibration(key);
  if (!stored) return stored.error();
  if (*stored && fx_.clock->now_unix() - (*stored)->measured_at <= config_.baseline_max_age_s) {
    auto sizes = nlohmann::json::parse((*stored)->sizes_json, nullptr, false);
    if (sizes.is_object()) {
      Calibration c;
      for (const auto& [k, v] : sizes.items()) c.sizes[k] = v.get<int64_t>();
      c.baseline_ns = (*stored)->baseline_ns;
      c.reached = (*stored)->reached;
      calibrations_[memo] = c;
      return c;
    }
  }
  int serial = 0;
  auto measure = [&](const SymbolTable& sizes) -> Result<double> {
    auto ns = measure_alone(
        m, p, base, library,
        calibration_plan(m, precision, base, sizes, "calibrate" + std::to_string(serial++)));
    if (!ns) return ns.error();
    // The fastest call, not the median: a loaded host slows calls down (never speeds them
    // up), and sizes found on one must still give min_call_ms calls when it is quiet. Measured
    // under a parallel build, the median chose tsvc_2_s000 sizes whose quiet call lasted 1.8 ms
    // of 5.
    return *std::min_element(ns->begin(), ns->end());
  };
  auto c =
      calibrate_sizes(m, p, config_.min_call_ms * 1e6, data_budget(config_.memory_bytes), measure);
  if (!c) return c.error();
  StoredCalibration row{sizes_json(c->sizes), c->baseline_ns, c->reached, fx_.clock->now_unix()};
  if (auto st = fx_.store->put_calibration(key, row); !st) return st.error();
  calibrations_[memo] = *c;
  return *c;
}

void Grader::calibrate(State& st) {
  Phase phase(*fx_.clock, st.phases, "calibrate");
  auto c =
      timed_sizes(st.m, st.precision, st.outcome.baseline, st.libs.baseline, st.libs.baseline_hash);
  if (!c) {
    st.outcome.stopped =
        judge_fault(measuring_fault(c.error()),
                    "judge fault: calibrating the timed sizes: " + c.error().message);
    return;
  }
  apply_calibration(st.plan, config_, st.m, st.precision, c->sizes, st.req.preset.has_value(), key_,
                    st.req.precision);
  st.calibration = {{"min_call_ms", config_.min_call_ms},
                    {"baseline", st.outcome.baseline},
                    {"baseline_ns", c->baseline_ns},
                    {"reached", c->reached},
                    {"sizes", json::parse(sizes_json(c->sizes))},
                    {"hidden_jitter", config_.hidden_size_jitter}};
}

std::optional<SymbolTable> Grader::cached_timed_sizes(const Manifest& m, Precision p) const {
  if (config_.min_call_ms <= 0) return std::nullopt;
  const std::string base = chosen_baseline(m, p);
  if (base.empty()) return std::nullopt;
  const std::string prefix = m.id + "|" + std::string(precision_name(p)) + "|" + base + "|";
  std::lock_guard lock(calibration_mu_);
  for (const auto& [k, c] : calibrations_) {
    if (k.rfind(prefix, 0) == 0) return c.sizes;
  }
  return std::nullopt;
}

// One configuration under the slot watch (JudgeConfig::slot_wait_max): rerun while another
// process or the hypervisor took the slot's CPUs during its timed calls, up to slot_retries
// times, then a judge fault. Timings taken on a disturbed slot measured the host, not the code,
// and are never credited or charged. A run that failed or answered wrongly stands as it is:
// its verdict does not depend on timing.
ConfigOutcome Grader::run_watched(RunContext& ctx, const ConfigPlan& plan) {
  for (int attempt = 0;; ++attempt) {
    ConfigOutcome o = run_config(ctx, plan);
    o.slot.retries = attempt;
    if (o.failure || !o.correct || o.ungradeable || o.too_slow) return o;
    const std::string why = slot_disturbance(o.slot, config_.slot_wait_max, config_.slot_steal_max);
    if (why.empty()) return o;
    if (attempt < config_.slot_retries) continue;
    o.failure = judge_fault(Resource::kSlot, "judge fault: " + plan.label + ": " + why + " (" +
                                                 std::to_string(attempt + 1) +
                                                 " tries); not charged to the submission");
    return o;
  }
}

// A paired timed configuration run as `timing_processes` parts, each with its own runner
// processes (and warm-up) on its share of the calls, samples concatenated in call order:
// placement effects of one process then hit only its share of a side's samples.
ConfigOutcome Grader::run_timed(RunContext& ctx, const ConfigPlan& plan) {
  const std::vector<std::size_t> parts =
      timing_parts(plan.seeds.size(), plan.timed && plan.paired ? config_.timing_processes : 1);
  if (parts.size() <= 1) return run_watched(ctx, plan);
  ConfigOutcome all;
  std::vector<double> judge_medians, reported_medians;
  std::size_t from = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    ConfigPlan part = plan;
    part.seeds.assign(plan.seeds.begin() + static_cast<std::ptrdiff_t>(from),
                      plan.seeds.begin() + static_cast<std::ptrdiff_t>(from + parts[k]));
    from += parts[k];
    part.determinism = plan.determinism && k == 0;
    ConfigOutcome o = run_watched(ctx, part);
    all.slot.measured = all.slot.measured || o.slot.measured;
    all.slot.wait = std::max(all.slot.wait, o.slot.wait);
    all.slot.steal = std::max(all.slot.steal, o.slot.steal);
    all.slot.retries += o.slot.retries;
    o.slot = all.slot;
    all.max_rel_error = std::max(all.max_rel_error, o.max_rel_error);
    if (o.failure || o.ungradeable || !o.correct) {
      o.max_rel_error = all.max_rel_error;
      return o;
    }
    all.cand_ns.insert(all.cand_ns.end(), o.cand_ns.begin(), o.cand_ns.end());
    all.base_ns.insert(all.base_ns.end(), o.base_ns.begin(), o.base_ns.end());
    all.part_samples.push_back(o.cand_ns.size());
    judge_medians.push_back(o.judge_median_ns);
    reported_medians.push_back(o.reported_median_ns);
    all.clock_shift_ns = std::max(all.clock_shift_ns, o.clock_shift_ns);
    // The audit flags a configuration only when every call of every part lied.
    all.overshoot_min_ns =
        k == 0 ? o.overshoot_min_ns : std::min(all.overshoot_min_ns, o.overshoot_min_ns);
  }
  all.judge_median_ns = median(judge_medians);
  all.reported_median_ns = median(reported_medians);
  return all;
}

void Grader::run_public(State& st) {
  const ConfigPlan& plan = st.plan.public_config;
  ConfigOutcome o = run_timed(*st.run, plan);
  note_max_rel(st.outcome, o);
  if (o.failure) {
    st.outcome.stopped = o.failure;
    return;
  }
  if (o.ungradeable) {
    // The routes refuse a public preset that is ungradeable by its manifest, so this is a
    // configuration the judge should not have run.
    st.outcome.stopped = judge_fault(Resource::kInternal,
                                     "judge fault: the public configuration is " + *o.ungradeable);
    return;
  }
  st.outcome.public_run = true;
  st.outcome.public_correct = o.correct;
  if (!o.correct) {
    st.outcome.public_failure = o.detail;
    return;
  }
  // Baseline samples: paired (/submit; /score with score_paired), else cached (same protocol,
  // same draws).
  if (plan.paired) {
    st.outcome.baseline_protocol =
        "paired: candidate and baseline alternate call by call in one slot";
    st.outcome.timed.push_back(timed_config(plan, o, o.base_ns));
  } else {
    st.outcome.timed.push_back(timed_config(plan, o, st.cached_base_ns));
  }
}

// /submit: every hidden case, counted; a run failure (crash, timeout...) ends the grade.
void Grader::run_hidden(State& st) {
  GradeOutcome& g = st.outcome;
  for (const ConfigPlan& plan : st.plan.hidden) {
    const std::string slow_key = st.m.id + "|" + std::string(precision_name(st.precision)) + "|" +
                                 st.run->oracle_name + "|" + plan.label;
    if (plan.reference_limit_s > 0) {
      std::lock_guard lock(too_slow_mu_);
      if (auto it = too_slow_.find(slow_key); it != too_slow_.end()) {
        g.excluded.push_back({plan.label, it->second, true, ExcludedConfig::Cause::kTime});
        continue;
      }
    }
    ConfigOutcome o = run_timed(*st.run, plan);
    note_max_rel(g, o);
    if (o.failure) {
      g.stopped = o.failure;
      return;
    }
    if (o.too_slow) {
      g.excluded.push_back({plan.label, *o.too_slow, true, ExcludedConfig::Cause::kTime});
      std::lock_guard lock(too_slow_mu_);
      too_slow_[slow_key] = *o.too_slow;
      continue;
    }
    if (o.ungradeable) {
      g.excluded.push_back({plan.label, *o.ungradeable, true});
      continue;
    }
    ++g.hidden_total;
    if (o.correct) {
      ++g.hidden_passed;
      if (plan.kind == ConfigPlan::Kind::kHiddenTimed) {
        g.timed.push_back(timed_config(plan, o, o.base_ns));
      }
    } else if (g.first_hidden_recorded.empty()) {
      g.first_hidden_recorded = o.detail;
      g.first_hidden_public =
          plan.label + ": output '" + o.failed_output + "' does not match the oracle";
    }
  }
}

json Grader::finish(State& st) {
  VerdictRules rules;
  rules.alpha = config_.alpha;
  rules.suspect_speedup = config_.suspect_speedup;
  rules.equivalence_margin = config_.equivalence_margin;
  rules.process_replication = config_.process_replication;
  rules.implausible = [this, &st](const TimedConfig& t, double cand_median_ns) {
    return plausibility_problem(st.m, st.precision, t.sizes, cand_median_ns, t.judge_median_ns,
                                t.overshoot_min_ns, t.reported_median_ns);
  };
  GradeResult result = decide(st.outcome, rules);
  RecordContext rc;
  if (result.verdict == Verdict::kOk && result.native_ns && st.plan.submit) {
    Phase phase(*fx_.clock, st.phases, "other baselines");
    report_other_baselines(st, rules, rc.other_baselines);
  }
  rc.oracle = st.libs.oracle_name.empty() ? oracle_name(st.m) : st.libs.oracle_name;
  rc.unavailable = st.unavailable;
  rc.request = &st.req;
  rc.kernel = st.m.id;
  rc.preset = st.plan.preset;
  rc.sizes = st.plan.sizes;
  rc.content_hash = st.libs.content_hash;
  rc.build_log = st.libs.build_log;
  if (st.req.workspace_bytes) {
    auto ws = workspace_size(st.m, st.req.workspace_bytes, st.plan.sizes);
    if (ws) rc.workspace_bytes = *ws;
  }
  rc.machine = machine_;
  rc.calibration = st.calibration;
  rc.baseline_choice = st.baseline_choice;
  rc.rules = {{"test", "one-sided Mann-Whitney per configuration"},
              {"alpha", config_.alpha},
              {"equivalence_margin", config_.equivalence_margin},
              {"timing_processes", config_.timing_processes},
              {"process_replication", config_.process_replication},
              {"score_paired", config_.score_paired},
              {"realtime_observer", fx_.clock->watch_boosted()},
              {"credit", "geometric mean of the configurations' credits"}};
  rc.received_at = st.req.received_at > 0 ? st.req.received_at : fx_.clock->now_unix();
  rc.timings_s = st.phases;
  if (st.run) {
    for (const auto& [k, v] : st.run->phase_s) rc.timings_s[k] += v;
  }
  if (result.verdict == Verdict::kOk) rc.timed = st.outcome.timed;
  return record_grade(*fx_.store, *fx_.clock, result, rc);
}

// ---------------------------------------------------------------------------------------------
// Baselines

RunContext Grader::grade_context(State& st, const std::string& dir, const std::vector<int>& cpus) {
  return RunContext{config_,
                    st.m,
                    st.precision,
                    dir,
                    cpus,
                    st.libs.candidate,
                    st.libs.baseline,
                    st.libs.oracle,
                    st.outcome.baseline,
                    st.libs.oracle_name,
                    st.req.workspace_bytes,
                    &bandwidth_,
                    fx_.launcher,
                    fx_.clock,
                    fx_.entropy,
                    0,
                    {},
                    gpu_language(st.req.language) ? st.req.language : "",
                    st.req.residency,
                    fx_.slots};
}

// Reported, never credited: a reader sees how the candidate compares with the other baselines
// (the paper reports loop-level results against Numba and C both). Each is timed paired with
// the candidate on the public configuration, as the credited baseline is: a ratio of two
// figures taken at different times (a cached baseline against this grade's candidate) credits
// whatever the host did in between (20 % on tsvc_2_s000's reference against its own C build).
// A baseline that cannot be built, fails its probe or fails to run is left out of the figures
// (the credited grade stands) and listed in baselines_unavailable.
void Grader::report_other_baselines(State& st, const VerdictRules& rules,
                                    std::map<std::string, ReportedFigure>& out) {
  if (config_.report_baselines.empty()) return;
  std::vector<std::pair<std::string, std::string>> libs;  // name, library
  for (const auto& n : available_options(judge::baseline_options(config_.report_baselines).value(),
                                         st.m.has_reference_c(), st.m.has_reference_py())) {
    if (n == st.outcome.baseline || st.unavailable.contains(n)) continue;
    auto built = build_reference(*fx_.compiler, *fx_.scratch, st.m, n);
    if (!built) {
      st.unavailable[n] = built.error().message;
      continue;
    }
    if (baseline_needs_probe(n)) {
      const std::string why =
          probe(st.m, st.precision, n, built->library, built->hash, st.libs.oracle);
      if (!why.empty()) {
        st.unavailable[n] = why;
        continue;
      }
    }
    libs.emplace_back(n, built->library);
  }
  if (libs.empty()) return;
  auto lease = slots_.acquire();
  auto dir = fx_.scratch->make_dir("reported");
  if (!dir) {
    st.unavailable["(reported baselines)"] = "the scratch filesystem: " + dir.error().message;
    return;
  }
  ScratchDir cleanup{*fx_.scratch, *dir};
  RunContext ctx = grade_context(st, *dir, lease.cpus());
  for (const auto& [name, library] : libs) {
    ctx.base_name = name;
    ctx.base_lib = library;
    ConfigPlan plan = st.plan.public_config;
    plan.label = "reported " + name;
    plan.paired = true;
    plan.check = false;
    plan.determinism = false;
    ConfigOutcome o = run_timed(ctx, plan);
    if (o.failure || o.cand_ns.empty() || o.base_ns.empty()) {
      st.unavailable[name] = o.failure ? o.failure->detail : "no timed calls";
      continue;
    }
    // The credit rules of the credited baseline (a reference against its own build is 1
    // unless every timing process confirms a difference); plausibility was the grade's.
    VerdictRules credit_rules = rules;
    credit_rules.implausible = nullptr;
    std::string why;
    const ConfigCredit cc = credit_config(timed_config(plan, o, o.base_ns), credit_rules, &why);
    out[name] = {cc.base_median_ns, cc.cand_median_ns, cc.ratio, cc.credit};
  }
}

// The baseline alone, timed like a candidate (same runner, same protocol, same draws), holding
// a slot: its samples (baselines) or the median call of a size search (calibration).
Result<std::vector<double>> Grader::measure_alone(const Manifest& m, Precision p,
                                                  const std::string& name,
                                                  const std::string& library,
                                                  const ConfigPlan& plan) {
  auto lease = slots_.acquire();
  auto dir = fx_.scratch->make_dir("baseline");
  if (!dir) return Error{"the scratch filesystem: " + dir.error().message, dir.error().code};
  ScratchDir cleanup{*fx_.scratch, *dir};
  RunContext ctx{config_,     m,    p,    *dir,         lease.cpus(), library,      "",
                 library,     name, name, std::nullopt, &bandwidth_,  fx_.launcher, fx_.clock,
                 fx_.entropy, 0,    {},   "",           "host",       fx_.slots};
  ConfigOutcome o = run_watched(ctx, plan);
  if (o.failure) {
    return Error{"measuring baseline " + name + ": " + o.failure->detail,
                 o.failure->resource == Resource::kSlot ? Errc::kBusy : Errc::kFailed};
  }
  return o.cand_ns;
}

Result<json> Grader::baseline_times(const Manifest& m, const std::string& preset,
                                    const std::string& precision_text) {
  auto sizes = preset_sizes(m, preset);
  if (!sizes) return sizes.error();
  // Every baseline the kernel has: /baseline lists them all.
  return baseline_times_at(m, preset, *sizes, precision_text,
                           available_options({"c", "c-autopar", "numpy", "numba", "numba-parallel"},
                                             m.has_reference_c(), m.has_reference_py()));
}

Result<json> Grader::baseline_times_at(const Manifest& m, const std::string& preset,
                                       const SymbolTable& at, const std::string& precision_text,
                                       const std::vector<std::string>& names) {
  auto p = parse_precision(precision_text);
  if (!p || !m.supports(*p)) return Error{"precision not supported"};
  const SymbolTable* sizes = &at;
  json result = {{"kernel", m.id},
                 {"preset", preset},
                 {"precision", precision_text},
                 {"baselines", json::object()},
                 {"unavailable", json::object()}};
  std::string protocol;
  std::optional<BuildResult> oracle;
  for (const auto& name : names) {
    auto built = build_reference(*fx_.compiler, *fx_.scratch, m, name);
    if (!built) return built.error();
    if (baseline_needs_probe(name)) {
      if (!oracle) {
        auto o = build_reference(*fx_.compiler, *fx_.scratch, m, oracle_name(m));
        if (!o) return o.error();
        oracle = *o;
      }
      const std::string why = probe(m, *p, name, built->library, built->hash, oracle->library);
      if (!why.empty()) {
        result["unavailable"][name] = why;
        continue;
      }
    }
    BaselineKey key{m.id, precision_text, sizes_json(*sizes), name, machine_, built->hash};
    auto cached = fx_.store->get_baseline(key);
    if (!cached) return cached.error();
    // Stale samples (SPEC §11) are measured again; the key already covers reference, flags,
    // compiler and machine changes.
    if (*cached && fx_.clock->now_unix() - (*cached)->measured_at > config_.baseline_max_age_s) {
      cached->reset();
    }
    if (*cached) {
      result["baselines"][name] =
          median(std::vector<double>((*cached)->ns.begin(), (*cached)->ns.end()));
      protocol = (*cached)->protocol;
      continue;
    }
    auto ns = measure_alone(m, *p, name, built->library,
                            plan_baseline(config_, m, precision_text, preset, *sizes, name, key_));
    if (!ns) return ns.error();
    BaselineSamples samples;
    for (double v : *ns) samples.ns.push_back(static_cast<int64_t>(v));
    samples.measured_at = fx_.clock->now_unix();
    samples.protocol = "unpaired: " + std::to_string(config_.timed_calls) +
                       " calls on the public draws, fresh draw per call, slot of " +
                       std::to_string(config_.slots.empty() ? 0 : config_.slots[0].size()) +
                       " cpu(s), " + (sequential_baseline(name) ? "1 thread" : "all slot threads") +
                       ", this machine";
    protocol = samples.protocol;
    if (auto st = fx_.store->put_baseline(key, samples); !st) return st.error();
    result["baselines"][name] = median(*ns);
  }
  result["protocol"] = protocol;
  return result;
}

std::string Grader::plausibility_problem(const Manifest& m, Precision p, const SymbolTable& sizes,
                                         double cand_median_ns, double judge_median_ns,
                                         double overshoot_min_ns, double reported_median_ns) const {
  // 1. The runner's clock against the judge's (judge/grade/session.cc): when even the call
  // closest to agreement overshoots the allowance, the runner's clock was subverted on every
  // call.
  if (overshoot_min_ns > 0) {
    auto fmt = [](double v) { return std::to_string(static_cast<int64_t>(v)); };
    return "the runner's clock reported a median of " + fmt(reported_median_ns) +
           " ns per call but the judge saw " + fmt(judge_median_ns) + " ns (every call at least " +
           fmt(overshoot_min_ns) + " ns beyond the allowance): clock tampering";
  }
  // 2. The bandwidth floor, on what the runner claimed (never above the recorded time): an
  // honest clock cannot report a call faster than the machine moves the declared bytes.
  return bandwidth_floor_problem(m, p, sizes, std::min(cand_median_ns, reported_median_ns),
                                 bandwidth_, config_.bandwidth_floor_fraction,
                                 config_.bandwidth_floor_cache_fraction,
                                 config_.bandwidth_floor_dram_bytes);
}

}  // namespace hpcab::judge
