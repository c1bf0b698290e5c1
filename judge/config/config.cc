#include "judge/config/config.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
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

// One setting of the JSON file: its name and how it is read into the configuration.
struct Field {
  const char* name;
  Status (*take)(const json& j, const char* key, JudgeConfig& c, const std::string& origin);
};

template <auto Member>
Status take_field(const json& j, const char* key, JudgeConfig& c, const std::string& origin) {
  return take(j, key, c.*Member, origin);
}

struct ServerField {
  const char* name;
  Status (*take)(const json& j, const char* key, ServerLimits& s, const std::string& origin);
};

template <auto Member>
Status take_server(const json& j, const char* key, ServerLimits& s, const std::string& origin) {
  return take(j, key, s.*Member, origin);
}

// The plain settings, in the order they are read (docs/operations.md lists them). gpu_devices
// and server have their own readers.
const Field kFields[] = {
    {"host", &take_field<&JudgeConfig::host>},
    {"port", &take_field<&JudgeConfig::port>},
    {"rank", &take_field<&JudgeConfig::rank>},
    {"state_dir", &take_field<&JudgeConfig::state_dir>},
    {"db_path", &take_field<&JudgeConfig::db_path>},
    {"key_file", &take_field<&JudgeConfig::key_file>},
    {"scratch_dir", &take_field<&JudgeConfig::scratch_dir>},
    {"corpus_dir", &take_field<&JudgeConfig::corpus_dir>},
    {"shared_dir", &take_field<&JudgeConfig::shared_dir>},
    {"input_mode", &take_field<&JudgeConfig::input_mode>},
    {"runner_path", &take_field<&JudgeConfig::runner_path>},
    {"pyrunner_path", &take_field<&JudgeConfig::pyrunner_path>},
    {"python", &take_field<&JudgeConfig::python>},
    {"bwrap", &take_field<&JudgeConfig::bwrap>},
    {"agent_tokens_file", &take_field<&JudgeConfig::agent_tokens_file>},
    {"admin_tokens_file", &take_field<&JudgeConfig::admin_tokens_file>},
    {"tls_cert_file", &take_field<&JudgeConfig::tls_cert_file>},
    {"tls_key_file", &take_field<&JudgeConfig::tls_key_file>},
    {"results_page", &take_field<&JudgeConfig::results_page>},
    {"default_preset", &take_field<&JudgeConfig::default_preset>},
    {"timed_calls", &take_field<&JudgeConfig::timed_calls>},
    {"warmup_calls", &take_field<&JudgeConfig::warmup_calls>},
    {"alpha", &take_field<&JudgeConfig::alpha>},
    {"submit_fuzzed_configs", &take_field<&JudgeConfig::submit_fuzzed_configs>},
    {"hidden_variants", &take_field<&JudgeConfig::hidden_variants>},
    {"hidden_presets", &take_field<&JudgeConfig::hidden_presets>},
    {"hidden_preset_reference_s", &take_field<&JudgeConfig::hidden_preset_reference_s>},
    {"check_all_bytes", &take_field<&JudgeConfig::check_all_bytes>},
    {"output_memory_bytes", &take_field<&JudgeConfig::output_memory_bytes>},
    {"shared_draw", &take_field<&JudgeConfig::shared_draw>},
    {"suspect_speedup", &take_field<&JudgeConfig::suspect_speedup>},
    {"clock_audit_slack_ns", &take_field<&JudgeConfig::clock_audit_slack_ns>},
    {"thread_settle_s", &take_field<&JudgeConfig::thread_settle_s>},
    {"thread_settle_wall_s", &take_field<&JudgeConfig::thread_settle_wall_s>},
    {"outside_cpu_ns", &take_field<&JudgeConfig::outside_cpu_ns>},
    {"clock_audit_fraction", &take_field<&JudgeConfig::clock_audit_fraction>},
    {"clock_audit_alpha", &take_field<&JudgeConfig::clock_audit_alpha>},
    {"realtime_observer", &take_field<&JudgeConfig::realtime_observer>},
    {"bandwidth_floor_fraction", &take_field<&JudgeConfig::bandwidth_floor_fraction>},
    {"equivalence_margin", &take_field<&JudgeConfig::equivalence_margin>},
    {"min_call_ms", &take_field<&JudgeConfig::min_call_ms>},
    {"hidden_size_jitter", &take_field<&JudgeConfig::hidden_size_jitter>},
    {"calibration_calls", &take_field<&JudgeConfig::calibration_calls>},
    {"timing_processes", &take_field<&JudgeConfig::timing_processes>},
    {"process_replication", &take_field<&JudgeConfig::process_replication>},
    {"score_paired", &take_field<&JudgeConfig::score_paired>},
    {"slot_wait_max", &take_field<&JudgeConfig::slot_wait_max>},
    {"image", &take_field<&JudgeConfig::image>},
    {"image_digest", &take_field<&JudgeConfig::image_digest>},
    {"slot_steal_max", &take_field<&JudgeConfig::slot_steal_max>},
    {"slot_retries", &take_field<&JudgeConfig::slot_retries>},
    {"selfcheck_at_start", &take_field<&JudgeConfig::selfcheck_at_start>},
    {"selfcheck_tolerance", &take_field<&JudgeConfig::selfcheck_tolerance>},
    {"selfcheck_parallel_tolerance", &take_field<&JudgeConfig::selfcheck_parallel_tolerance>},
    {"bandwidth_floor_cache_fraction", &take_field<&JudgeConfig::bandwidth_floor_cache_fraction>},
    {"bandwidth_floor_dram_bytes", &take_field<&JudgeConfig::bandwidth_floor_dram_bytes>},
    {"bandwidth_file", &take_field<&JudgeConfig::bandwidth_file>},
    {"memory_bandwidth_gbs", &take_field<&JudgeConfig::memory_bandwidth_gbs>},
    {"baseline_max_age_s", &take_field<&JudgeConfig::baseline_max_age_s>},
    {"track_baseline", &take_field<&JudgeConfig::track_baseline>},
    {"kernel_baseline", &take_field<&JudgeConfig::kernel_baseline>},
    {"track_oracle", &take_field<&JudgeConfig::track_oracle>},
    {"report_baselines", &take_field<&JudgeConfig::report_baselines>},
    {"queue_depth", &take_field<&JudgeConfig::queue_depth>},
    {"grade_workers", &take_field<&JudgeConfig::grade_workers>},
    {"syntax_check_workers", &take_field<&JudgeConfig::syntax_check_workers>},
    {"syntax_check_queue_depth", &take_field<&JudgeConfig::syntax_check_queue_depth>},
    {"perf", &take_field<&JudgeConfig::perf>},
    {"profile_min_interval_s", &take_field<&JudgeConfig::profile_min_interval_s>},
    {"profile_timeout_s", &take_field<&JudgeConfig::profile_timeout_s>},
    {"peak_gflops", &take_field<&JudgeConfig::peak_gflops>},
    {"slots", &take_field<&JudgeConfig::slots>},
    {"build_timeout_s", &take_field<&JudgeConfig::build_timeout_s>},
    {"build_log_cap", &take_field<&JudgeConfig::build_log_cap>},
    {"call_timeout_s", &take_field<&JudgeConfig::call_timeout_s>},
    {"runner_wall_s", &take_field<&JudgeConfig::runner_wall_s>},
    {"runner_cpu_s", &take_field<&JudgeConfig::runner_cpu_s>},
    {"memory_bytes", &take_field<&JudgeConfig::memory_bytes>},
    {"sandbox_nproc", &take_field<&JudgeConfig::sandbox_nproc>},
    {"sandbox_start_retries", &take_field<&JudgeConfig::sandbox_start_retries>},
    {"run_log_cap", &take_field<&JudgeConfig::run_log_cap>},
    {"max_source_bytes", &take_field<&JudgeConfig::max_source_bytes>},
    {"max_json_depth", &take_field<&JudgeConfig::max_json_depth>},
    {"cuda_compiler", &take_field<&JudgeConfig::cuda_compiler>},
    {"hip_compiler", &take_field<&JudgeConfig::hip_compiler>},
    {"cuda_archs", &take_field<&JudgeConfig::cuda_archs>},
    {"hip_archs", &take_field<&JudgeConfig::hip_archs>},
    {"gpu_archs_from_device", &take_field<&JudgeConfig::gpu_archs_from_device>},
    {"cuda_runtime_lib", &take_field<&JudgeConfig::cuda_runtime_lib>},
    {"hip_runtime_lib", &take_field<&JudgeConfig::hip_runtime_lib>},
    {"gpu_device_index", &take_field<&JudgeConfig::gpu_device_index>},
    {"gpu_device_root", &take_field<&JudgeConfig::gpu_device_root>},
    {"device_idle_ns", &take_field<&JudgeConfig::device_idle_ns>},
    {"gpu_address_space_bytes", &take_field<&JudgeConfig::gpu_address_space_bytes>},
};

// The "server" object's settings.
const ServerField kServerFields[] = {
    {"max_body_bytes", &take_server<&ServerLimits::max_body_bytes>},
    {"max_header_bytes", &take_server<&ServerLimits::max_header_bytes>},
    {"read_timeout_s", &take_server<&ServerLimits::read_timeout_s>},
    {"write_timeout_s", &take_server<&ServerLimits::write_timeout_s>},
    {"keepalive_idle_s", &take_server<&ServerLimits::keepalive_idle_s>},
    {"max_connections", &take_server<&ServerLimits::max_connections>},
    {"io_threads", &take_server<&ServerLimits::io_threads>},
    {"shutdown_grace_s", &take_server<&ServerLimits::shutdown_grace_s>},
    {"discard_max_bytes", &take_server<&ServerLimits::discard_max_bytes>},
    {"discard_timeout_s", &take_server<&ServerLimits::discard_timeout_s>},
};

// "auto", "none", a comma-separated list (the environment's form) or a JSON list.
Status take_gpu_devices(const json& j, JudgeConfig& c, const std::string& origin) {
  if (!j.contains("gpu_devices")) return Ok{};
  const json& g = j.at("gpu_devices");
  if (!g.is_string()) return take(j, "gpu_devices", c.gpu_devices, origin);
  c.gpu_devices.clear();
  const std::string text = g.get<std::string>();
  for (std::size_t from = 0; from <= text.size();) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    c.gpu_devices.push_back(text.substr(from, comma - from));
    from = comma + 1;
  }
  return Ok{};
}

}  // namespace

std::vector<std::string> config_setting_names() {
  std::vector<std::string> names;
  for (const auto& f : kFields) names.emplace_back(f.name);
  names.emplace_back("gpu_devices");
  names.emplace_back("server");
  for (const auto& f : kServerFields) names.push_back(std::string("server.") + f.name);
  return names;
}

namespace {

bool known_setting(const std::string& key) {
  if (key == "gpu_devices" || key == "server") return true;
  for (const auto& f : kFields) {
    if (key == f.name) return true;
  }
  return false;
}

// The counts, modes and limits that need nothing else.
Status check_counts(const JudgeConfig& c) {
  if (c.rank < 0) return Error{"rank must be a non-negative integer"};
  if (c.input_mode != "source" && c.input_mode != "library" && c.input_mode != "any") {
    return Error{"input_mode must be source, library or any (got '" + c.input_mode + "')"};
  }
  if (c.timed_calls < 3) return Error{"timed_calls must be at least 3"};
  if (c.warmup_calls < 0) return Error{"warmup_calls must be >= 0"};
  if (c.queue_depth < 1 || c.grade_workers < 1) return Error{"queue_depth and grade_workers >= 1"};
  if (c.syntax_check_workers < 1 || c.syntax_check_queue_depth < 1) {
    return Error{"syntax_check_workers and syntax_check_queue_depth >= 1"};
  }
  if (c.profile_min_interval_s < 0 || !(c.profile_timeout_s > 0) || c.peak_gflops < 0) {
    return Error{"profile_min_interval_s and peak_gflops must be >= 0, profile_timeout_s > 0"};
  }
  if (!(c.alpha > 0 && c.alpha < 0.5)) return Error{"alpha must be in (0, 0.5)"};
  if (c.max_json_depth < 2) return Error{"max_json_depth must be at least 2"};
  if (c.gpu_device_index < 0 || c.device_idle_ns < 0) {
    return Error{"gpu_device_index and device_idle_ns must be >= 0"};
  }
  if (c.default_preset != "S" && c.default_preset != "M" && c.default_preset != "L" &&
      c.default_preset != "XL") {
    return Error{"default_preset must be S, M, L or XL"};
  }
  return Ok{};
}

// The timing, clock-audit, slot-watch and plausibility settings.
Status check_timing(const JudgeConfig& c) {
  if (c.clock_audit_slack_ns < 0 || c.clock_audit_fraction < 0) {
    return Error{"clock_audit_slack_ns and clock_audit_fraction must be >= 0"};
  }
  if (!(c.clock_audit_alpha > 0 && c.clock_audit_alpha <= 1)) {
    return Error{"clock_audit_alpha must be in (0, 1]"};
  }
  if (c.min_call_ms < 0 || c.min_call_ms > 60000) {
    return Error{"min_call_ms must be from 0 (off) to 60000"};
  }
  if (c.hidden_size_jitter < 0 || c.hidden_size_jitter >= 1) {
    return Error{"hidden_size_jitter must be in [0, 1)"};
  }
  if (c.calibration_calls < 1 || c.calibration_calls > 100) {
    return Error{"calibration_calls must be from 1 to 100"};
  }
  if (c.equivalence_margin < 0 || c.equivalence_margin >= 0.5) {
    return Error{"equivalence_margin must be in [0, 0.5) (0 turns it off)"};
  }
  if (c.timing_processes < 1 || c.timing_processes > 64) {
    return Error{
        "timing_processes must be from 1 to 64 (a configuration with fewer than two "
        "timed calls per process runs in one)"};
  }
  if (c.slot_wait_max < 0 || c.slot_wait_max >= 1 || c.slot_steal_max < 0 ||
      c.slot_steal_max >= 1) {
    return Error{"slot_wait_max and slot_steal_max must be in [0, 1) (0 turns a check off)"};
  }
  if (c.slot_retries < 0 || c.slot_retries > 10) return Error{"slot_retries must be from 0 to 10"};
  if (!(c.selfcheck_tolerance > 0 && c.selfcheck_tolerance < 1) ||
      !(c.selfcheck_parallel_tolerance > 0 && c.selfcheck_parallel_tolerance < 1)) {
    return Error{"selfcheck_tolerance and selfcheck_parallel_tolerance must be in (0, 1)"};
  }
  if (c.bandwidth_floor_cache_fraction < 0 || c.bandwidth_floor_cache_fraction > 1) {
    return Error{"bandwidth_floor_cache_fraction must be in [0, 1]"};
  }
  if (c.bandwidth_floor_fraction < 0 || c.bandwidth_floor_fraction > 1) {
    return Error{"bandwidth_floor_fraction must be in [0, 1] (0 turns the floor off)"};
  }
  if (c.memory_bandwidth_gbs < 0) return Error{"memory_bandwidth_gbs must be >= 0"};
  if (!(c.thread_settle_s > 0) || c.outside_cpu_ns < 0) {
    return Error{"thread_settle_s must be > 0 and outside_cpu_ns >= 0"};
  }
  if (c.sandbox_start_retries < 0 || c.sandbox_start_retries > 20) {
    return Error{"sandbox_start_retries must be in [0, 20]"};
  }
  if (!(c.thread_settle_wall_s >= c.thread_settle_s)) {
    return Error{"thread_settle_wall_s must be >= thread_settle_s"};
  }
  return Ok{};
}

// The baseline and oracle names, per track and kernel.
Status check_baselines(const JudgeConfig& c) {
  for (const auto& [track, spec] : c.track_baseline) {
    if (auto o = baseline_options(spec); !o) {
      return Error{"track_baseline." + track + ": " + o.error().message};
    }
  }
  for (const auto& [kernel, spec] : c.kernel_baseline) {
    if (auto o = baseline_options(spec); !o) {
      return Error{"kernel_baseline." + kernel + ": " + o.error().message};
    }
  }
  for (const auto& [track, oracle] : c.track_oracle) {
    if (oracle != "c" && oracle != "numpy") {
      return Error{"track_oracle." + track + " must be \"c\" or \"numpy\""};
    }
  }
  if (!c.report_baselines.empty()) {
    if (auto o = baseline_options(c.report_baselines); !o) {
      return Error{"report_baselines: " + o.error().message};
    }
  }
  return Ok{};
}

// The state, scratch, corpus and runner paths: defaults filled in, made absolute.
void resolve_paths(JudgeConfig& c, const std::string& executable_dir) {
  c.state_dir = fs::absolute(c.state_dir).lexically_normal().string();
  if (c.db_path.empty()) c.db_path = (fs::path(c.state_dir) / "judge.db").string();
  if (c.key_file.empty()) c.key_file = (fs::path(c.state_dir) / "secret.key").string();
  if (c.bandwidth_file.empty())
    c.bandwidth_file = (fs::path(c.state_dir) / "bandwidth.json").string();
  if (c.scratch_dir.empty()) {
    c.scratch_dir =
        (fs::temp_directory_path() / ("hpcab-judge-" + std::to_string(getuid()) + "-" +
                                      std::to_string(c.port) + "-" + std::to_string(c.rank)))
            .string();
  }
  if (c.corpus_dir.empty()) c.corpus_dir = (fs::path(::hpcab::source_dir()) / "corpus").string();
  if (c.runner_path.empty()) c.runner_path = (fs::path(executable_dir) / "hpcab-runner").string();
  if (c.pyrunner_path.empty()) {
    c.pyrunner_path = (fs::path(executable_dir) / "hpcab-pyrunner").string();
  }
  c.corpus_dir = fs::absolute(c.corpus_dir).lexically_normal().string();
  c.scratch_dir = fs::absolute(c.scratch_dir).lexically_normal().string();
}

// Where the secrets and the scratch may live, and the hidden presets.
Status check_locations(const JudgeConfig& c) {
  // The sandbox mounts scratch work dirs; none of them may expose the judge's state.
  if (inside(c.scratch_dir, c.state_dir) || inside(c.state_dir, c.scratch_dir)) {
    return Error{"scratch_dir (" + c.scratch_dir + ") and state_dir (" + c.state_dir +
                 ") must not contain one another"};
  }
  // The key must never be inside what agents can read.
  if (inside(c.key_file, c.corpus_dir) ||
      (!c.shared_dir.empty() && inside(c.key_file, c.shared_dir)) ||
      inside(c.key_file, c.scratch_dir)) {
    return Error{"key_file (" + c.key_file +
                 ") must not be inside the corpus, shared or scratch dir"};
  }
  if (c.tls_cert_file.empty() != c.tls_key_file.empty()) {
    return Error{"tls_cert_file and tls_key_file go together: set both (HTTPS) or neither (HTTP)"};
  }
  // Secrets must not be where agents can read them (a source_file submission, the sandbox).
  for (const auto& [name, path] :
       {std::pair<const char*, const std::string*>{"agent_tokens_file", &c.agent_tokens_file},
        {"admin_tokens_file", &c.admin_tokens_file},
        {"tls_key_file", &c.tls_key_file}}) {
    if (path->empty()) continue;
    if (inside(*path, c.corpus_dir) || (!c.shared_dir.empty() && inside(*path, c.shared_dir)) ||
        inside(*path, c.scratch_dir)) {
      return Error{std::string(name) + " (" + *path +
                   ") must not be inside the corpus, shared or scratch dir"};
    }
  }
  for (const auto& p : c.hidden_presets) {
    if (p != "S" && p != "M" && p != "L" && p != "XL") {
      return Error{"hidden_presets: '" + p + "' is not S, M, L or XL"};
    }
  }
  if (!(c.hidden_preset_reference_s >= 0)) {
    return Error{"hidden_preset_reference_s must be >= 0 (0: no limit of its own)"};
  }
  return Ok{};
}

// One slot of every CPU unless slots are set; none may be empty.
Status default_slots(JudgeConfig& c) {
  if (c.slots.empty()) {
    unsigned n = std::max(1u, std::thread::hardware_concurrency());
    std::vector<int> all;
    for (unsigned i = 0; i < n; ++i) all.push_back(static_cast<int>(i));
    c.slots.push_back(all);
  }
  for (const auto& s : c.slots) {
    if (s.empty()) return Error{"every slot needs at least one CPU"};
  }
  return Ok{};
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
  for (const auto& [k, _] : j.items()) {
    if (!known_setting(k)) return Error{origin + ": unknown setting '" + k + "'"};
  }
  Status first = Ok{};
  auto keep_first = [&first](Status st) {
    if (first && !st) first = std::move(st);
  };
  for (const auto& f : kFields) keep_first(f.take(j, f.name, c, origin));
  keep_first(take_gpu_devices(j, c, origin));
  if (j.contains("server")) {
    const json& s = j["server"];
    if (!s.is_object()) return Error{origin + ": 'server' must be an object"};
    for (const auto& f : kServerFields) keep_first(f.take(s, f.name, c.server, origin));
  }
  return first;
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
      {"HPCAB_GPU_DEVICES", "gpu_devices"},
      {"HPCAB_IMAGE", "image"},
      {"HPCAB_IMAGE_DIGEST", "image_digest"}};
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

namespace {

// The image settings: a given digest normalized, else podman's record of the container's image.
Status resolve_image(JudgeConfig& c) {
  if (c.image_digest.empty()) {
    std::ifstream in("/run/.containerenv");
    std::stringstream text;
    text << in.rdbuf();
    if (auto found = parse_containerenv(text.str())) {
      c.image_digest = found->digest;
      if (c.image.empty()) c.image = found->name;
    }
    return Ok{};
  }
  auto digest = normalize_image_digest(c.image_digest);
  if (!digest) return Error{"image_digest: " + digest.error().message};
  c.image_digest = *digest;
  return Ok{};
}

}  // namespace

Status JudgeConfig::finalize(const std::string& executable_dir) {
  if (auto st = check_counts(*this); !st) return st;
  resolve_paths(*this, executable_dir);
  if (auto st = check_timing(*this); !st) return st;
  if (auto st = check_baselines(*this); !st) return st;
  if (auto st = check_locations(*this); !st) return st;
  if (auto st = finalize_gpu(); !st) return st;
  if (auto st = resolve_image(*this); !st) return st;
  platform = host_platform(gpus);
  return default_slots(*this);
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
