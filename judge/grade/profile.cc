// POST /profile (docs/api.md "POST /profile"): the candidate (or the kernel's baseline) built as
// a grade builds it, run in its sandbox on one public draw at the public preset's sizes with perf
// attached from the judge's side (judge/grade/perf.h), outside any recorded grade.
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/ndarray.h"
#include "common/process.h"
#include "common/stats.h"
#include "judge/build/languages.h"
#include "judge/grade/baseline_choice.h"
#include "judge/grade/build_stage.h"
#include "judge/grade/config_run.h"
#include "judge/grade/grader.h"
#include "judge/grade/perf.h"
#include "judge/grade/plan.h"
#include "judge/grade/types.h"

namespace hpcab::judge {

using json = nlohmann::json;

namespace {

// Calls timed with the counters on (the median is the answer's time per call).
constexpr int kTimedCalls = 5;
// The sampling run aims at this much sampled call time (cpu-clock at kSampleHz), in at most
// kMaxSampleCalls calls.
constexpr double kSampleSeconds = 0.3;
constexpr int kMaxSampleCalls = 1000;
constexpr int kSampleHz = 19997;
const char* const kEvents =
    "task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,"
    "cache-references,cache-misses,branch-instructions,branch-misses";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// perf keeps its build-id cache under $HOME/.debug (PERF_BUILDID_DIR is only what it tells
// its children): HOME is the private dir for every perf the profile runs.
std::string buildid_env(const std::string& perf_dir) { return "HOME=" + perf_dir; }

// perf attached for exactly `calls` candidate calls: started once the runner is known, switched
// on around each call, stopped (SIGINT: it writes its results) after the last one while the
// runner still lives, so perf record can still read the runner's libraries through its
// /proc/<pid>/root for their build ids.
class PerfHooks : public CallHooks {
 public:
  PerfHooks(std::string perf, std::vector<std::string> args, std::string dir, std::string name,
            int calls, int warmups)
      : perf_(std::move(perf)),
        args_(std::move(args)),
        dir_(std::move(dir)),
        name_(std::move(name)),
        calls_(calls),
        skip_(warmups) {}
  void started(pid_t runner) override {
    if (runner <= 0) {
      error = Error{"the candidate's runner process was not identified"};
      return;
    }
    // perf record copies every library it sampled into its build-id cache (by default the
    // judge's ~/.debug): kept in the private dir instead, removed with it.
    if (auto st = attach_.start(perf_, args_, dir_, name_, runner, {buildid_env(dir_)}); !st) {
      error = st.error();
    }
  }
  void before_call() override {
    if (error || !attach_.running() || seen_ < skip_) return;  // a warm-up call: not counted
    // perf answers the first enable only once attached: no event of the call is lost.
    if (auto st = attach_.enable(); !st) fail(st.error());
  }
  void after_call() override {
    if (seen_++ < skip_ || error || !attach_.running()) return;
    if (auto st = attach_.disable(); !st) return fail(st.error());
    if (++done_ == calls_) log = attach_.stop();
  }
  std::optional<Error> error;
  std::string log;

 private:
  void fail(Error e) {
    log = attach_.stop(2);
    error = Error{e.message, Errc::kNotFound};
  }
  PerfAttach attach_;
  std::string perf_;
  std::vector<std::string> args_;
  std::string dir_, name_;
  int calls_, skip_, seen_ = 0, done_ = 0;
};

// {event: {value, per_call, unit, supported}}, plus ipc from cycles and instructions.
json counters_json(const std::vector<PerfCounter>& counters, int calls) {
  json out = json::object();
  std::optional<double> cycles, instructions;
  for (const auto& c : counters) {
    std::string name = c.event.substr(0, c.event.find(':'));
    json v = {{"value", c.value ? json(*c.value) : json(nullptr)},
              {"per_call", c.value ? json(*c.value / calls) : json(nullptr)},
              {"supported", c.supported}};
    if (!c.unit.empty()) v["unit"] = c.unit;
    if (name == "cycles") cycles = c.value;
    if (name == "instructions") instructions = c.value;
    out[name] = v;
  }
  const bool ipc = cycles && instructions && *cycles > 0;
  out["ipc"] = {{"value", ipc ? json(*instructions / *cycles) : json(nullptr)}, {"supported", ipc}};
  return out;
}

// The compulsory bytes (the manifest's `bytes`, as the bandwidth floor uses them) and flops of
// one call, against the host's measured bandwidth at the call's working set.
json roofline_json(const Manifest& m, Precision p, const SymbolTable& sizes, double ns,
                   const BandwidthTable& bw, double peak_gflops) {
  SymbolTable syms = m.symbols(sizes);
  syms["REAL_BYTES"] = static_cast<int64_t>(dtype_size(real_dtype(p)));
  auto value = [&](const std::optional<Expr>& e) -> std::optional<double> {
    if (!e) return std::nullopt;
    auto v = e->eval(syms);
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
  };
  const auto bytes = value(m.bytes), flops = value(m.flops);
  auto ws = data_bytes(m, sizes, p);
  const double host_bps = ws ? bw.at(*ws) : 0;
  auto num = [](std::optional<double> v) { return v ? json(*v) : json(nullptr); };
  auto rate = [&](std::optional<double> v) -> std::optional<double> {
    if (!v || !(ns > 0)) return std::nullopt;
    return *v / ns;  // per ns = G per s
  };
  std::optional<double> intensity;
  if (bytes && flops && *bytes > 0) intensity = *flops / *bytes;
  json out = {{"bytes_per_call", num(bytes)},
              {"flops_per_call", num(flops)},
              {"working_set_bytes", ws ? json(*ws) : json(nullptr)},
              {"achieved_gb_per_s", num(rate(bytes))},
              {"achieved_gflop_per_s", num(rate(flops))},
              {"arithmetic_intensity", num(intensity)},
              {"host_gb_per_s", host_bps > 0 ? json(host_bps / 1e9) : json(nullptr)},
              {"peak_gflops", peak_gflops > 0 ? json(peak_gflops) : json(nullptr)}};
  if (host_bps > 0 && rate(bytes)) out["bandwidth_fraction"] = *rate(bytes) / (host_bps / 1e9);
  if (intensity && host_bps > 0) {
    double roof = *intensity * host_bps / 1e9;
    if (peak_gflops > 0) roof = std::min(roof, peak_gflops);
    out["attainable_gflop_per_s"] = roof;
  }
  return out;
}

}  // namespace

Status Grader::profiler_available() const {
  ProcessOptions o;
  o.argv = {config_.perf, "stat", "-x,", "-e", "task-clock", "--", "true"};
  o.timeout_s = 20;
  auto r = run_process(o);
  if (!r)
    return Error{"cannot run perf (" + config_.perf + "): " + r.error().message, Errc::kNotFound};
  for (const auto& c : parse_perf_stat(r->output)) {
    if (c.event.rfind("task-clock", 0) == 0 && c.supported && r->success()) return Ok{};
  }
  return Error{"perf (" + config_.perf + ") cannot count events on this host (" + r->describe() +
                   "): " + tail(r->output, 600),
               Errc::kNotFound};
}

// The libraries a profile runs: the candidate built as a grade builds it (with the oracle, to
// check its outputs), or the kernel's baseline; a build error is an answer (`out`), not an Error.
Result<Grader::ProfileBuild> Grader::profile_build(const GradeRequest& req, const Manifest& m,
                                                   Precision p, bool baseline, json& out) {
  ProfileBuild b;
  if (baseline) {
    std::string name = chosen_baseline(m, p);
    if (name.empty()) name = baseline_options(m).front();
    auto built = build_reference(*fx_.compiler, *fx_.scratch, m, name);
    if (!built) return Error{"building baseline " + name + ": " + built.error().message};
    b.library = built->library;
    b.name = name;
    b.threads = sequential_baseline(name) ? 1 : 0;
    return b;
  }
  BuiltLibraries libs;
  if (auto f = build_stage(*fx_.compiler, *fx_.scratch, req, m, oracle_name(m), {oracle_name(m)},
                           libs)) {
    if (f->harness) return Error{f->detail};
    out = {{"ok", false},
           {"verdict", verdict_name(f->verdict)},
           {"detail", tail(f->detail, 4000)},
           {"log", tail(libs.build_log, 8000)}};
    return b;
  }
  b.library = libs.candidate;
  b.oracle = libs.oracle;
  b.name = "candidate";
  return b;
}

Result<json> Grader::profile(const GradeRequest& req, const std::string& target) {
  if (auto st = profiler_available(); !st) return st.error();
  const Manifest& m = *kernel(req.kernel);  // routes validated the kernel and the precision
  const Precision p = *parse_precision(req.precision);
  const std::string preset = req.preset.value_or(config_.default_preset);
  json answer;
  auto built = profile_build(req, m, p, target == "baseline", answer);
  if (!built) return built.error();
  if (built->library.empty()) return answer;  // a build error: the answer says so
  if (target != "baseline" && gpu_language(req.language) && config_.gpus.empty()) {
    return json{{"ok", false},
                {"verdict", verdict_name(Verdict::kRejected)},
                {"reason", reject_reason_name(RejectReason::kNoGpu)},
                {"detail", "this judge has no GPU to run the submission on"}};
  }
  GradePlan gp = plan_grade(config_, m, "score", req.precision, preset, key_, "profile");
  ConfigPlan plan = gp.public_config;
  plan.label = "profile";
  plan.paired = false;
  plan.determinism = false;
  plan.check = !built->oracle.empty();
  plan.cand_threads = built->threads;
  plan.seeds.assign(kTimedCalls, gp.public_config.seeds.at(0));  // one public draw
  plan.warm_seed = plan.seeds[0];
  auto lease = slots_.acquire();
  auto dir = fx_.scratch->make_dir("profile");
  if (!dir) return Error{"the scratch filesystem: " + dir.error().message};
  struct Cleanup {
    ScratchFs& fs;
    std::string path;
    ~Cleanup() { fs.remove(path); }
  } cleanup{*fx_.scratch, *dir};
  // perf's own files: a judge-private dir beside the session dirs (never mounted into a
  // sandbox, which sees only its own s<N>/ as /sandbox), mode 0700 (judge/grade/perf.h).
  const std::string perf_dir = *dir + "/perf";
  if (::mkdir(perf_dir.c_str(), 0700) != 0) return Error{"mkdir " + perf_dir};
  // The profile's calls get at most profile_timeout_s each.
  JudgeConfig cfg = config_;
  cfg.call_timeout_s = std::min(cfg.call_timeout_s, cfg.profile_timeout_s);
  const bool gpu = target != "baseline" && gpu_language(req.language);
  RunContext ctx{cfg,
                 m,
                 p,
                 *dir,
                 lease.cpus(),
                 built->library,
                 "",
                 built->oracle,
                 built->name,
                 oracle_name(m),
                 target == "baseline" ? std::nullopt : req.workspace_bytes,
                 &bandwidth_,
                 fx_.launcher,
                 fx_.clock,
                 fx_.entropy,
                 0,
                 {},
                 gpu ? req.language : "",
                 req.residency,
                 fx_.slots};
  PerfHooks stat(config_.perf, {"stat", "-x,", "-o", perf_dir + "/stat.csv", "-e", kEvents},
                 perf_dir, "stat", kTimedCalls, cfg.warmup_calls);
  ctx.hooks = &stat;
  ConfigOutcome o = run_config(ctx, plan);
  answer = {{"kernel", m.id},
            {"language", target == "baseline" ? "reference" : req.language},
            {"target", target},
            {"baseline", target == "baseline" ? json(built->name) : json(nullptr)},
            {"preset", preset},
            {"precision", req.precision},
            {"sizes", json::parse(sizes_json(plan.sizes))},
            {"recorded", false}};
  if (o.failure) {
    if (o.failure->harness) return Error{o.failure->detail};
    answer["ok"] = false;
    answer["verdict"] = verdict_name(o.failure->verdict);
    answer["detail"] = tail(o.failure->detail, 4000);
    return answer;
  }
  if (stat.error) return *stat.error;
  const double median_ns = median(o.cand_ns);
  answer["ok"] = true;
  answer["calls"] = kTimedCalls;
  answer["time_per_call_ns"] = median_ns;
  answer["times_ns"] = o.cand_ns;
  answer["outputs_checked"] = plan.check;
  answer["correct"] = plan.check ? json(o.correct && !o.ungradeable) : json(nullptr);
  if (plan.check && !o.correct) answer["detail"] = tail(o.detail, 2000);
  answer["counters"] = counters_json(parse_perf_stat(slurp(perf_dir + "/stat.csv")), kTimedCalls);
  answer["roofline"] = roofline_json(m, p, plan.sizes, median_ns, bandwidth_, config_.peak_gflops);
  answer["hotspots"] = profile_hotspots(ctx, plan, perf_dir, median_ns, built->name == "candidate");
  return answer;
}

// The sampling run: the same draw again, enough calls for kSampleSeconds of samples (bounded by
// profile_timeout_s), perf record -e cpu-clock around each; its report parsed.
json Grader::profile_hotspots(RunContext& ctx, ConfigPlan plan, const std::string& perf_dir,
                              double median_ns, bool candidate) {
  const double budget_s = std::min(kSampleSeconds, config_.profile_timeout_s / 4);
  const int calls = static_cast<int>(std::clamp(
      std::ceil(budget_s * 1e9 / std::max(median_ns, 1.0)), 1.0, double(kMaxSampleCalls)));
  plan.seeds.assign(static_cast<std::size_t>(calls), plan.seeds.at(0));
  plan.check = false;
  const std::string data = perf_dir + "/perf.data";
  PerfHooks record(config_.perf,
                   {"record", "-e", "cpu-clock", "-F", std::to_string(kSampleHz), "-o", data},
                   perf_dir, "record", calls, ctx.config.warmup_calls);
  ctx.hooks = &record;
  ConfigOutcome o = run_config(ctx, plan);
  json out = {{"calls", calls},
              {"sample_hz", kSampleHz},
              {"functions", json::array()},
              {"source_lines", json::array()}};
  if (o.failure || record.error) {
    out["error"] = o.failure ? o.failure->detail : record.error->message;
    return out;
  }
  ProcessOptions report;
  report.argv = {config_.perf, "report",        "-i",     data,
                 "--stdio",    "--no-children", "--sort", "dso,sym"};
  report.timeout_s = 60;
  report.extra_env = {buildid_env(perf_dir)};
  auto r = run_process(report);
  if (!r || !r->success()) {
    out["error"] = r ? tail(r->output, 2000) : r.error().message;
    return out;
  }
  const std::string own = is_python_artifact(ctx.cand_lib) ? "kernel.py" : "lib.so";
  // The top functions, and every function of the submission's own library however small its
  // share (a short call at preset S leaves most samples to the runner's protocol and the OS).
  std::size_t listed = 0;
  for (const auto& h : parse_perf_report(r->output, 10000)) {
    const bool mine = candidate && h.dso == own;
    if (listed++ >= 20 && !mine) continue;
    out["functions"].push_back({{"function", h.symbol},
                                {"dso", h.dso},
                                {"share", h.share},
                                {"own", mine},
                                {"kernel", h.kernel}});
  }
  out["samples"] = perf_report_samples(r->output);
  // Source lines of the submission's own library, where its debug info lets perf map them.
  report.argv = {config_.perf,    "report", "-i", data,     "--stdio",
                 "--no-children", "--dsos", own,  "--sort", "srcline"};
  if (auto s = run_process(report); s && s->success()) {
    for (const auto& l : parse_perf_srclines(s->output)) {
      out["source_lines"].push_back({{"file", l.file}, {"line", l.line}, {"share", l.share}});
    }
  }
  return out;
}

}  // namespace hpcab::judge
