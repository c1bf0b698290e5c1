#include "judge/config.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "common/build_info.h"
#include "judge/grade/baseline_choice.h"

namespace hpcab::judge {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

template <typename T>
Status take(const json& j, const char* key, T& dst, const std::string& origin) {
  if (!j.contains(key)) return Ok{};
  try {
    dst = j.at(key).get<T>();
  } catch (const json::exception&) {
    return Error{origin + ": setting '" + key + "' has the wrong type (" + j.at(key).dump() + ")"};
  }
  return Ok{};
}

bool inside(const fs::path& child, const fs::path& parent) {
  auto c = fs::weakly_canonical(child), p = fs::weakly_canonical(parent);
  auto [pe, ce] = std::mismatch(p.begin(), p.end(), c.begin(), c.end());
  return pe == p.end();
}

}  // namespace

Status apply_config_json(JudgeConfig& c, const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    return Error{origin + ": invalid JSON: " + e.what()};
  }
  if (!j.is_object()) return Error{origin + ": expected a JSON object"};
  static const std::set<std::string> kKnown = {"host",
                                               "port",
                                               "rank",
                                               "state_dir",
                                               "db_path",
                                               "key_file",
                                               "scratch_dir",
                                               "corpus_dir",
                                               "shared_dir",
                                               "input_mode",
                                               "runner_path",
                                               "pyrunner_path",
                                               "python",
                                               "bwrap",
                                               "agent_tokens_file",
                                               "admin_tokens_file",
                                               "tls_cert_file",
                                               "tls_key_file",
                                               "results_page",
                                               "default_preset",
                                               "timed_calls",
                                               "warmup_calls",
                                               "alpha",
                                               "submit_fuzzed_configs",
                                               "hidden_variants",
                                               "hidden_presets",
                                               "hidden_preset_reference_s",
                                               "check_all_bytes",
                                               "output_memory_bytes",
                                               "clock_audit_slack_ns",
                                               "thread_settle_s",
                                               "thread_settle_wall_s",
                                               "outside_cpu_ns",
                                               "clock_audit_fraction",
                                               "clock_audit_alpha",
                                               "realtime_observer",
                                               "bandwidth_floor_fraction",
                                               "equivalence_margin",
                                               "min_call_ms",
                                               "hidden_size_jitter",
                                               "calibration_calls",
                                               "timing_processes",
                                               "process_replication",
                                               "score_paired",
                                               "slot_wait_max",
                                               "slot_steal_max",
                                               "slot_retries",
                                               "selfcheck_at_start",
                                               "selfcheck_tolerance",
                                               "selfcheck_parallel_tolerance",
                                               "bandwidth_floor_cache_fraction",
                                               "bandwidth_floor_dram_bytes",
                                               "bandwidth_file",
                                               "memory_bandwidth_gbs",
                                               "baseline_max_age_s",
                                               "suspect_speedup",
                                               "track_baseline",
                                               "kernel_baseline",
                                               "track_oracle",
                                               "report_baselines",
                                               "queue_depth",
                                               "grade_workers",
                                               "slots",
                                               "build_timeout_s",
                                               "build_log_cap",
                                               "call_timeout_s",
                                               "runner_wall_s",
                                               "runner_cpu_s",
                                               "memory_bytes",
                                               "sandbox_nproc",
                                               "sandbox_start_retries",
                                               "run_log_cap",
                                               "max_source_bytes",
                                               "max_json_depth",
                                               "cuda_compiler",
                                               "hip_compiler",
                                               "cuda_archs",
                                               "hip_archs",
                                               "gpu_archs_from_device",
                                               "gpu_devices",
                                               "cuda_runtime_lib",
                                               "hip_runtime_lib",
                                               "gpu_device_index",
                                               "gpu_device_root",
                                               "device_idle_ns",
                                               "gpu_address_space_bytes",
                                               "server"};
  for (const auto& [k, _] : j.items()) {
    if (!kKnown.count(k)) return Error{origin + ": unknown setting '" + k + "'"};
  }
  std::vector<Status> results = {
      take(j, "host", c.host, origin),
      take(j, "port", c.port, origin),
      take(j, "rank", c.rank, origin),
      take(j, "state_dir", c.state_dir, origin),
      take(j, "db_path", c.db_path, origin),
      take(j, "key_file", c.key_file, origin),
      take(j, "scratch_dir", c.scratch_dir, origin),
      take(j, "corpus_dir", c.corpus_dir, origin),
      take(j, "shared_dir", c.shared_dir, origin),
      take(j, "input_mode", c.input_mode, origin),
      take(j, "runner_path", c.runner_path, origin),
      take(j, "pyrunner_path", c.pyrunner_path, origin),
      take(j, "python", c.python, origin),
      take(j, "bwrap", c.bwrap, origin),
      take(j, "agent_tokens_file", c.agent_tokens_file, origin),
      take(j, "admin_tokens_file", c.admin_tokens_file, origin),
      take(j, "tls_cert_file", c.tls_cert_file, origin),
      take(j, "tls_key_file", c.tls_key_file, origin),
      take(j, "results_page", c.results_page, origin),
      take(j, "default_preset", c.default_preset, origin),
      take(j, "timed_calls", c.timed_calls, origin),
      take(j, "warmup_calls", c.warmup_calls, origin),
      take(j, "alpha", c.alpha, origin),
      take(j, "submit_fuzzed_configs", c.submit_fuzzed_configs, origin),
      take(j, "hidden_variants", c.hidden_variants, origin),
      take(j, "hidden_presets", c.hidden_presets, origin),
      take(j, "hidden_preset_reference_s", c.hidden_preset_reference_s, origin),
      take(j, "check_all_bytes", c.check_all_bytes, origin),
      take(j, "output_memory_bytes", c.output_memory_bytes, origin),
      take(j, "suspect_speedup", c.suspect_speedup, origin),
      take(j, "clock_audit_slack_ns", c.clock_audit_slack_ns, origin),
      take(j, "thread_settle_s", c.thread_settle_s, origin),
      take(j, "thread_settle_wall_s", c.thread_settle_wall_s, origin),
      take(j, "outside_cpu_ns", c.outside_cpu_ns, origin),
      take(j, "clock_audit_fraction", c.clock_audit_fraction, origin),
      take(j, "clock_audit_alpha", c.clock_audit_alpha, origin),
      take(j, "realtime_observer", c.realtime_observer, origin),
      take(j, "bandwidth_floor_fraction", c.bandwidth_floor_fraction, origin),
      take(j, "equivalence_margin", c.equivalence_margin, origin),
      take(j, "min_call_ms", c.min_call_ms, origin),
      take(j, "hidden_size_jitter", c.hidden_size_jitter, origin),
      take(j, "calibration_calls", c.calibration_calls, origin),
      take(j, "timing_processes", c.timing_processes, origin),
      take(j, "process_replication", c.process_replication, origin),
      take(j, "score_paired", c.score_paired, origin),
      take(j, "slot_wait_max", c.slot_wait_max, origin),
      take(j, "slot_steal_max", c.slot_steal_max, origin),
      take(j, "slot_retries", c.slot_retries, origin),
      take(j, "selfcheck_at_start", c.selfcheck_at_start, origin),
      take(j, "selfcheck_tolerance", c.selfcheck_tolerance, origin),
      take(j, "selfcheck_parallel_tolerance", c.selfcheck_parallel_tolerance, origin),
      take(j, "bandwidth_floor_cache_fraction", c.bandwidth_floor_cache_fraction, origin),
      take(j, "bandwidth_floor_dram_bytes", c.bandwidth_floor_dram_bytes, origin),
      take(j, "bandwidth_file", c.bandwidth_file, origin),
      take(j, "memory_bandwidth_gbs", c.memory_bandwidth_gbs, origin),
      take(j, "baseline_max_age_s", c.baseline_max_age_s, origin),
      take(j, "track_baseline", c.track_baseline, origin),
      take(j, "kernel_baseline", c.kernel_baseline, origin),
      take(j, "track_oracle", c.track_oracle, origin),
      take(j, "report_baselines", c.report_baselines, origin),
      take(j, "queue_depth", c.queue_depth, origin),
      take(j, "grade_workers", c.grade_workers, origin),
      take(j, "slots", c.slots, origin),
      take(j, "build_timeout_s", c.build_timeout_s, origin),
      take(j, "build_log_cap", c.build_log_cap, origin),
      take(j, "call_timeout_s", c.call_timeout_s, origin),
      take(j, "runner_wall_s", c.runner_wall_s, origin),
      take(j, "runner_cpu_s", c.runner_cpu_s, origin),
      take(j, "memory_bytes", c.memory_bytes, origin),
      take(j, "sandbox_nproc", c.sandbox_nproc, origin),
      take(j, "sandbox_start_retries", c.sandbox_start_retries, origin),
      take(j, "run_log_cap", c.run_log_cap, origin),
      take(j, "max_source_bytes", c.max_source_bytes, origin),
      take(j, "max_json_depth", c.max_json_depth, origin),
      take(j, "cuda_compiler", c.cuda_compiler, origin),
      take(j, "hip_compiler", c.hip_compiler, origin),
      take(j, "cuda_archs", c.cuda_archs, origin),
      take(j, "hip_archs", c.hip_archs, origin),
      take(j, "gpu_archs_from_device", c.gpu_archs_from_device, origin),
      take(j, "cuda_runtime_lib", c.cuda_runtime_lib, origin),
      take(j, "hip_runtime_lib", c.hip_runtime_lib, origin),
      take(j, "gpu_device_index", c.gpu_device_index, origin),
      take(j, "gpu_device_root", c.gpu_device_root, origin),
      take(j, "device_idle_ns", c.device_idle_ns, origin),
      take(j, "gpu_address_space_bytes", c.gpu_address_space_bytes, origin)};

  if (j.contains("gpu_devices")) {
    // "auto", "none", a comma-separated list (the environment's form) or a JSON list.
    const json& g = j.at("gpu_devices");
    if (g.is_string()) {
      c.gpu_devices.clear();
      const std::string text = g.get<std::string>();
      for (std::size_t from = 0; from <= text.size();) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        c.gpu_devices.push_back(text.substr(from, comma - from));
        from = comma + 1;
      }
    } else {
      results.push_back(take(j, "gpu_devices", c.gpu_devices, origin));
    }
  }
  if (j.contains("server")) {
    const json& s = j["server"];
    if (!s.is_object()) return Error{origin + ": 'server' must be an object"};
    results.push_back(take(s, "max_body_bytes", c.server.max_body_bytes, origin));
    results.push_back(take(s, "max_header_bytes", c.server.max_header_bytes, origin));
    results.push_back(take(s, "read_timeout_s", c.server.read_timeout_s, origin));
    results.push_back(take(s, "write_timeout_s", c.server.write_timeout_s, origin));
    results.push_back(take(s, "keepalive_idle_s", c.server.keepalive_idle_s, origin));
    results.push_back(take(s, "max_connections", c.server.max_connections, origin));
    results.push_back(take(s, "io_threads", c.server.io_threads, origin));
    results.push_back(take(s, "shutdown_grace_s", c.server.shutdown_grace_s, origin));
    results.push_back(take(s, "discard_max_bytes", c.server.discard_max_bytes, origin));
    results.push_back(take(s, "discard_timeout_s", c.server.discard_timeout_s, origin));
  }
  for (auto& r : results) {
    if (!r) return r;
  }
  return Ok{};
}

Status apply_config_env(JudgeConfig& c, const std::vector<std::string>& env) {
  json j = json::object();
  static const std::map<std::string, std::string> kVars = {
      {"HPCAB_HOST", "host"},
      {"HPCAB_PORT", "port"},
      {"HPCAB_RANK", "rank"},
      {"HPCAB_STATE_DIR", "state_dir"},
      {"HPCAB_DB", "db_path"},
      {"HPCAB_KEY_FILE", "key_file"},
      {"HPCAB_SCRATCH_DIR", "scratch_dir"},
      {"HPCAB_CORPUS_DIR", "corpus_dir"},
      {"HPCAB_SHARED_DIR", "shared_dir"},
      {"HPCAB_INPUT_MODE", "input_mode"},
      {"HPCAB_AGENT_TOKENS_FILE", "agent_tokens_file"},
      {"HPCAB_ADMIN_TOKENS_FILE", "admin_tokens_file"},
      {"HPCAB_TLS_CERT_FILE", "tls_cert_file"},
      {"HPCAB_TLS_KEY_FILE", "tls_key_file"},
      {"HPCAB_RESULTS_PAGE", "results_page"},
      {"HPCAB_PRESET", "default_preset"},
      {"HPCAB_TIMED_CALLS", "timed_calls"},
      {"HPCAB_QUEUE_DEPTH", "queue_depth"},
      {"HPCAB_GRADE_WORKERS", "grade_workers"},
      {"HPCAB_GPU_DEVICES", "gpu_devices"}};
  static const std::set<std::string> kNumeric = {"port", "rank", "timed_calls", "queue_depth",
                                                 "grade_workers"};
  for (const auto& e : env) {
    auto eq = e.find('=');
    if (eq == std::string::npos) continue;
    auto it = kVars.find(e.substr(0, eq));
    if (it == kVars.end()) continue;
    std::string value = e.substr(eq + 1);
    if (it->second == "results_page") {
      if (value != "true" && value != "false" && value != "1" && value != "0") {
        return Error{it->first + "=" + value + ": expected true, false, 1 or 0"};
      }
      j[it->second] = value == "true" || value == "1";
    } else if (kNumeric.count(it->second)) {
      try {
        std::size_t used = 0;
        long long v = std::stoll(value, &used);
        if (used != value.size()) throw std::invalid_argument("trailing");
        j[it->second] = v;
      } catch (...) {
        return Error{it->first + "=" + value + ": expected an integer"};
      }
    } else {
      j[it->second] = value;
    }
  }
  return apply_config_json(c, j.dump(), "environment");
}

Status JudgeConfig::finalize(const std::string& executable_dir) {
  if (rank < 0) return Error{"rank must be a non-negative integer"};
  if (input_mode != "source" && input_mode != "library" && input_mode != "any") {
    return Error{"input_mode must be source, library or any (got '" + input_mode + "')"};
  }
  if (timed_calls < 3) return Error{"timed_calls must be at least 3"};
  if (warmup_calls < 0) return Error{"warmup_calls must be >= 0"};
  if (queue_depth < 1 || grade_workers < 1) return Error{"queue_depth and grade_workers >= 1"};
  if (!(alpha > 0 && alpha < 0.5)) return Error{"alpha must be in (0, 0.5)"};
  if (max_json_depth < 2) return Error{"max_json_depth must be at least 2"};
  if (gpu_device_index < 0 || device_idle_ns < 0) {
    return Error{"gpu_device_index and device_idle_ns must be >= 0"};
  }
  if (default_preset != "S" && default_preset != "M" && default_preset != "L" &&
      default_preset != "XL") {
    return Error{"default_preset must be S, M, L or XL"};
  }
  state_dir = fs::absolute(state_dir).lexically_normal().string();
  if (db_path.empty()) db_path = (fs::path(state_dir) / "judge.db").string();
  if (key_file.empty()) key_file = (fs::path(state_dir) / "secret.key").string();
  if (bandwidth_file.empty()) bandwidth_file = (fs::path(state_dir) / "bandwidth.json").string();
  if (clock_audit_slack_ns < 0 || clock_audit_fraction < 0) {
    return Error{"clock_audit_slack_ns and clock_audit_fraction must be >= 0"};
  }
  if (!(clock_audit_alpha > 0 && clock_audit_alpha <= 1)) {
    return Error{"clock_audit_alpha must be in (0, 1]"};
  }
  for (const auto& [track, spec] : track_baseline) {
    if (auto o = baseline_options(spec); !o) {
      return Error{"track_baseline." + track + ": " + o.error().message};
    }
  }
  for (const auto& [kernel, spec] : kernel_baseline) {
    if (auto o = baseline_options(spec); !o) {
      return Error{"kernel_baseline." + kernel + ": " + o.error().message};
    }
  }
  for (const auto& [track, oracle] : track_oracle) {
    if (oracle != "c" && oracle != "numpy") {
      return Error{"track_oracle." + track + " must be \"c\" or \"numpy\""};
    }
  }
  if (!report_baselines.empty()) {
    if (auto o = baseline_options(report_baselines); !o) {
      return Error{"report_baselines: " + o.error().message};
    }
  }
  if (min_call_ms < 0 || min_call_ms > 60000) {
    return Error{"min_call_ms must be from 0 (off) to 60000"};
  }
  if (hidden_size_jitter < 0 || hidden_size_jitter >= 1) {
    return Error{"hidden_size_jitter must be in [0, 1)"};
  }
  if (calibration_calls < 1 || calibration_calls > 100) {
    return Error{"calibration_calls must be from 1 to 100"};
  }
  if (equivalence_margin < 0 || equivalence_margin >= 0.5) {
    return Error{"equivalence_margin must be in [0, 0.5) (0 turns it off)"};
  }
  if (timing_processes < 1 || timing_processes > 64) {
    return Error{
        "timing_processes must be from 1 to 64 (a configuration with fewer than two "
        "timed calls per process runs in one)"};
  }
  if (slot_wait_max < 0 || slot_wait_max >= 1 || slot_steal_max < 0 || slot_steal_max >= 1) {
    return Error{"slot_wait_max and slot_steal_max must be in [0, 1) (0 turns a check off)"};
  }
  if (slot_retries < 0 || slot_retries > 10) return Error{"slot_retries must be from 0 to 10"};
  if (!(selfcheck_tolerance > 0 && selfcheck_tolerance < 1) ||
      !(selfcheck_parallel_tolerance > 0 && selfcheck_parallel_tolerance < 1)) {
    return Error{"selfcheck_tolerance and selfcheck_parallel_tolerance must be in (0, 1)"};
  }
  if (bandwidth_floor_cache_fraction < 0 || bandwidth_floor_cache_fraction > 1) {
    return Error{"bandwidth_floor_cache_fraction must be in [0, 1]"};
  }
  if (bandwidth_floor_fraction < 0 || bandwidth_floor_fraction > 1) {
    return Error{"bandwidth_floor_fraction must be in [0, 1] (0 turns the floor off)"};
  }
  if (memory_bandwidth_gbs < 0) return Error{"memory_bandwidth_gbs must be >= 0"};
  if (!(thread_settle_s > 0) || outside_cpu_ns < 0) {
    return Error{"thread_settle_s must be > 0 and outside_cpu_ns >= 0"};
  }
  if (sandbox_start_retries < 0 || sandbox_start_retries > 20) {
    return Error{"sandbox_start_retries must be in [0, 20]"};
  }
  if (!(thread_settle_wall_s >= thread_settle_s)) {
    return Error{"thread_settle_wall_s must be >= thread_settle_s"};
  }
  if (scratch_dir.empty()) {
    scratch_dir = (fs::temp_directory_path() / ("hpcab-judge-" + std::to_string(getuid()) + "-" +
                                                std::to_string(port) + "-" + std::to_string(rank)))
                      .string();
  }
  if (corpus_dir.empty()) corpus_dir = (fs::path(::hpcab::source_dir()) / "corpus").string();
  if (runner_path.empty()) runner_path = (fs::path(executable_dir) / "hpcab-runner").string();
  if (pyrunner_path.empty()) {
    pyrunner_path = (fs::path(executable_dir) / "hpcab-pyrunner").string();
  }
  corpus_dir = fs::absolute(corpus_dir).lexically_normal().string();
  scratch_dir = fs::absolute(scratch_dir).lexically_normal().string();
  // The sandbox mounts scratch work dirs; none of them may expose the judge's state.
  if (inside(scratch_dir, state_dir) || inside(state_dir, scratch_dir)) {
    return Error{"scratch_dir (" + scratch_dir + ") and state_dir (" + state_dir +
                 ") must not contain one another"};
  }
  // The key must never be inside what agents can read.
  if (inside(key_file, corpus_dir) || (!shared_dir.empty() && inside(key_file, shared_dir)) ||
      inside(key_file, scratch_dir)) {
    return Error{"key_file (" + key_file +
                 ") must not be inside the corpus, shared or scratch dir"};
  }
  if (tls_cert_file.empty() != tls_key_file.empty()) {
    return Error{"tls_cert_file and tls_key_file go together: set both (HTTPS) or neither (HTTP)"};
  }
  // Secrets must not be where agents can read them (a source_file submission, the sandbox).
  for (const auto& [name, path] :
       {std::pair<const char*, const std::string*>{"agent_tokens_file", &agent_tokens_file},
        {"admin_tokens_file", &admin_tokens_file},
        {"tls_key_file", &tls_key_file}}) {
    if (path->empty()) continue;
    if (inside(*path, corpus_dir) || (!shared_dir.empty() && inside(*path, shared_dir)) ||
        inside(*path, scratch_dir)) {
      return Error{std::string(name) + " (" + *path +
                   ") must not be inside the corpus, shared or scratch dir"};
    }
  }
  for (const auto& p : hidden_presets) {
    if (p != "S" && p != "M" && p != "L" && p != "XL") {
      return Error{"hidden_presets: '" + p + "' is not S, M, L or XL"};
    }
  }
  if (!(hidden_preset_reference_s >= 0)) {
    return Error{"hidden_preset_reference_s must be >= 0 (0: no limit of its own)"};
  }
  if (auto st = finalize_gpu(); !st) return st;
  if (slots.empty()) {
    unsigned n = std::max(1u, std::thread::hardware_concurrency());
    std::vector<int> all;
    for (unsigned i = 0; i < n; ++i) all.push_back(static_cast<int>(i));
    slots.push_back(all);
  }
  for (const auto& s : slots) {
    if (s.empty()) return Error{"every slot needs at least one CPU"};
  }
  return Ok{};
}

Status JudgeConfig::finalize_gpu() {
  for (const auto& [name, value] :
       {std::pair<const char*, std::string*>{"cuda_compiler", &cuda_compiler},
        {"hip_compiler", &hip_compiler}}) {
    if (value->empty() || value->find_first_of(" \t\n'\"\\`$;") != std::string::npos) {
      return Error{std::string(name) + " must be a compiler name or path without spaces or quotes"};
    }
  }
  std::vector<std::string> path_dirs;
  if (const char* path = std::getenv("PATH")) {
    std::string p = path;
    for (std::size_t from = 0; from <= p.size();) {
      const std::size_t colon = std::min(p.find(':', from), p.size());
      path_dirs.push_back(p.substr(from, colon - from));
      from = colon + 1;
    }
  }
  cuda_compiler = resolve_compiler(cuda_compiler, path_dirs, {"/usr/local/cuda/bin/nvcc"});
  hip_compiler = resolve_compiler(hip_compiler, path_dirs);
  if (cuda_archs.empty() || hip_archs.empty()) {
    return Error{"cuda_archs and hip_archs each need at least one GPU target"};
  }
  for (const auto& a : cuda_archs) {
    if (!valid_cuda_arch(a)) return Error{"cuda_archs: '" + a + "' is not sm_<N> (e.g. sm_90)"};
  }
  for (const auto& a : hip_archs) {
    if (!valid_hip_arch(a)) {
      return Error{"hip_archs: '" + a + "' is not gfx<id>[:feature+-] (e.g. gfx90a) or sm_<N>"};
    }
    if (is_nvidia_arch(a) != is_nvidia_arch(hip_archs.front())) {
      return Error{
          "hip_archs mixes AMD (gfx) and NVIDIA (sm_) targets: one toolchain builds a list"};
    }
  }
  auto found = resolve_gpu_devices(gpu_devices);
  if (!found) return found.error();
  gpus = std::move(*found);
  return Ok{};
}

SandboxPolicy JudgeConfig::sandbox_policy() const {
  SandboxPolicy p;
  p.bwrap = bwrap;
  return p;
}

}  // namespace hpcab::judge
