// JudgeConfig: every knob of hpcab-judge in one struct, filled once (defaults, then a JSON file,
// then HPCAB_* environment variables, then command-line flags) and passed by const reference.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/result.h"
#include "judge/config/server_limits.h"
#include "judge/host/gpu.h"
#include "judge/host/platform.h"
#include "judge/sandbox/sandbox.h"

namespace hpcab::judge {

struct JudgeConfig {
  // Service
  std::string host = "127.0.0.1";
  uint16_t port = 8800;
  int rank = 0;
  ServerLimits server;

  // Files. Empty paths are derived from state_dir in finalize().
  std::string state_dir = "var";
  std::string db_path;                      // <state_dir>/judge.db
  std::string key_file;                     // <state_dir>/secret.key (created 0600 on first start)
  std::string scratch_dir;                  // per-grade sandbox work dirs; never inside state_dir
  std::string corpus_dir;                   // default: the source tree's corpus/
  std::string shared_dir;                   // source_file / library submissions resolve inside it
  std::string input_mode = "source";        // source | library | any
  std::string runner_path;                  // default: hpcab-runner next to hpcab-judge
  std::string pyrunner_path;                // default: hpcab-pyrunner next to hpcab-judge (Python)
  std::string python = "/usr/bin/python3";  // the interpreter Python builds are checked with
  std::string bwrap = "bwrap";

  // Access control (docs/operations.md). Token files: one token per line, mode 0600; an empty
  // path leaves that role without tokens. Any token file set: every route but /health needs
  // `Authorization: Bearer`. No admin file: /admin/* is disabled. TLS: both files or neither.
  std::string agent_tokens_file;
  std::string admin_tokens_file;
  std::string tls_cert_file;  // PEM certificate chain; set: the judge speaks HTTPS only
  std::string tls_key_file;   // PEM private key; not readable by others
  // The read-only results page (GET /, /results, /results/<id>/source): recorded submissions
  // with links to their sources. Open like the rest of the API on a judge without token files;
  // with token files it needs an admin token (agents must not read each other's sources), and
  // without an admin token file it is disabled. false: 404 everywhere.
  bool results_page = true;

  // Grading protocol (SPEC §5)
  std::string default_preset = "S";
  int timed_calls = 20;  // R
  int warmup_calls = 1;
  double alpha = 0.1;
  // Credit rules beyond the paper's (docs/grading.md "Credit rules"; the response's `rules`).
  // A confirmed difference whose ratio lies within 1 +- equivalence_margin is credited 1: below
  // it the judge's own A/A error, not the candidate, decides the sign. So is one whose ratio of
  // medians lies on the other side of 1 from the side the test confirmed. 0 turns both off.
  double equivalence_margin = 0.02;
  // Each timed configuration's calls are split across this many runner processes per side,
  // started afresh in turn, so one process's memory placement (page colouring, NUMA, THP) cannot
  // bias every sample of a side. 1: one process per side, as the paper.
  int timing_processes = 2;
  // A difference the pooled test confirms is credited only when every timing process's share
  // of the calls confirms it on its own, in the same direction and beyond the equivalence
  // margin (the process is the unit that replicates: a placement or a host episode that hits
  // one process's calls does not replicate in the next). Otherwise credited 1, reported as
  // `unreplicated`. No effect with timing_processes 1. docs/grading.md "Credit rules".
  bool process_replication = true;
  // /score times its public configuration paired with the baseline, call by call in one slot
  // on the same draws, as /submit does (true), or against baseline samples cached earlier
  // (false: about half the timed calls, but whatever drifted on the host since the cache was
  // filled, its caches, frequency, neighbours, is credited to the candidate). docs/grading.md §4.
  bool score_paired = true;
  // The slot watch (docs/grading.md "Slot watch"). While a configuration's calls are timed, the
  // judge reads from /proc how long the timed runners' threads waited for a CPU of their slot
  // (run-queue delay over runnable time: another process, or the judge's other work, had it)
  // and how much of the slot's CPU time the hypervisor stole. Past either limit the
  // configuration is rerun, up to slot_retries times, then the grade is a judge fault (fault
  // "slot", never charged to the candidate): its timings measured the host, not the code.
  // 0 turns a check off. Every configuration reports what was seen (`slot_wait`, `slot_steal`).
  double slot_wait_max = 0.10;
  double slot_steal_max = 0.20;
  int slot_retries = 2;
  // The self-check (docs/grading.md "Self-check"; `hpcab-judge selfcheck` runs it alone): at
  // start, once listening, through the grading queue, reported in /health. Off by default so a
  // judge serves at once; a lab turns it on, or runs the command, on a new host. A reference is
  // fit when credited 1 +- selfcheck_tolerance against its own build, the parallel gemm when its
  // paired credit lies within selfcheck_parallel_tolerance of its ratio timed directly.
  bool selfcheck_at_start = false;
  double selfcheck_tolerance = 0.03;
  double selfcheck_parallel_tolerance = 0.10;
  // Timed sizes chosen by time (docs/grading.md "Timed sizes"): > 0, every timed configuration
  // is sized so the credited baseline's call lasts at least this long on this machine (found
  // once per kernel, precision, baseline build and machine; cached in the database). The public
  // configuration of a request naming no preset runs at those sizes ("preset": "timed"); hidden
  // timed configurations are drawn around them (each size symbol times a secret factor in
  // [1 - hidden_size_jitter, 1 + hidden_size_jitter]); the hidden preset correctness draws are
  // then left out (the timed configurations are checked at the timed sizes). 0: the presets and
  // the fuzzed ranges are timed as they are. 5 ms: the shortest call at which the validity
  // benchmark's goals held on a 2-core VM (docs/grading.md "Measured validity").
  double min_call_ms = 5;
  double hidden_size_jitter = 0.15;
  int calibration_calls = 5;      // timed calls per measurement of the search
  int submit_fuzzed_configs = 2;  // secret fuzzed sizes timed on /submit, besides the preset
  int hidden_variants = 5;        // extra correctness draws on /submit
  // Larger presets that also get one hidden correctness draw on /submit (the size ladder; XL
  // is off by default: the sequential oracle would take minutes on big kernels).
  std::vector<std::string> hidden_presets = {"M"};
  // A hidden preset draw is computed by the reference first, under this call limit: slower
  // than that, the preset is left out for time (reported in `excluded`, remembered per kernel,
  // precision and preset until the judge restarts) instead of running the candidate. The
  // sequential C reference of correlation at M (3000 x 2500, column-strided) took over 60 s on
  // a 2-core VM, ~7x what its flops predict from S. The limit is at most call_timeout_s (an
  // honest candidate as fast as the reference has 3x its time by default); 0: the reference
  // has call_timeout_s like any call, and runs after the candidate.
  double hidden_preset_reference_s = 20;
  uint64_t check_all_bytes = uint64_t{64} << 20;  // outputs <= this per call: check every call
  // Outputs a runner session keeps in the judge's memory, read from the runner rather than
  // saved and read back (docs/grading.md, "Outputs in memory"); beyond it, and whenever a
  // configuration checks only some of its calls, the runner saves them to the scratch
  // directory. A configuration has up to three sessions, so a slot holds at most three times
  // this. 512 MiB holds every call of tsvc_2_s000's timed configurations (33 MB per call).
  // 0: always saved.
  uint64_t output_memory_bytes = uint64_t{512} << 20;
  // One draw per call (docs/grading.md, "One draw per call"): the judge generates each call's
  // inputs once into a sealed memfd every runner of the configuration maps read-only, instead
  // of each side generating the same values. false: each runner generates its own.
  bool shared_draw = true;
  double suspect_speedup = 1000;              // above: marked suspect, not credited (SPEC §5.9)
  double baseline_max_age_s = 7 * 24 * 3600;  // cached baseline samples older: re-measured
  // Clock audit (SPEC §5.7, docs/security.md): the judge's own view of a call (from sending "go"
  // until the runner is blocked waiting for its next command, minus the median empty round
  // trip) may exceed the runner's report by at most slack + fraction * view + the copy-out of
  // the outputs at the measured bandwidth. Recorded times are shifted up by the median excess
  // beyond that allowance; when every call of a configuration exceeds it, it is suspect.
  double clock_audit_slack_ns = 500e3;
  double clock_audit_fraction = 0.1;
  // A candidate's reports are shifted only when its overshoots exceed the baseline's at this
  // one-sided Mann-Whitney level (judge/grade/clock_audit.h says why: noise alone shifted honest
  // code).
  double clock_audit_alpha = 0.01;
  // The judge's thread watching a call (until the runner is seen idle) runs at SCHED_FIFO 1
  // while it watches, where the judge has the privilege: an honest pool spinning on every CPU
  // after a parallel call otherwise delays the judge's view, and the clock audit charged that
  // to the candidate (docs/grading.md §6). false: always watch at normal priority.
  bool realtime_observer = true;
  // Work outside the clock (SPEC §5.7): after a call, the candidate's other threads must be
  // asleep once they used thread_settle_s of CPU (OpenMP pools spin briefly first; CPU time,
  // not wall time, so a pool waiting for a CPU on a loaded host is not charged) and within
  // thread_settle_wall_s of wall time in any case, and may use at most outside_cpu_ns of CPU
  // until the next call starts; beyond any: rejected. The trusted sides are waited for as
  // long, never failed.
  double thread_settle_s = 0.5;
  double thread_settle_wall_s = 2;
  double outside_cpu_ns = 250e3;
  // Bandwidth floor (SPEC §5.9): a median call faster than this fraction of declared bytes /
  // measured bandwidth (at that working-set size) is physically impossible: suspect. 0: off.
  double bandwidth_floor_fraction = 0.5;
  // Working sets under bandwidth_floor_dram_bytes sit in cache, where honest code (all slot
  // cores, read-mostly streams) beats the single-threaded copy bandwidth the table measured:
  // there the floor is bandwidth_floor_cache_fraction of bytes / bandwidth. An honest tsvc_2_s111
  // at S ran at 0.99 of the 0.5 floor on a 2-core VM; a clock lying by 100x is still far below 0.2.
  double bandwidth_floor_cache_fraction = 0.2;
  uint64_t bandwidth_floor_dram_bytes = uint64_t{32} << 20;
  std::string bandwidth_file;       // <state_dir>/bandwidth.json: measured once per machine
  double memory_bandwidth_gbs = 0;  // > 0: use this flat figure instead of measuring
  // Credited baseline per track: a name, or "a,b" for the fastest of them on this machine at
  // the timed sizes (SPEC §11, as the paper: loop-level against Numba, scientific against the
  // fastest of c, c-autopar and numba-parallel, machine learning against NumPy). GCC's
  // auto-parallelized gemm alone was 67x slower than plain reference.c at 5 ms calls,
  // crediting the reference itself 15x: hence the fastest of several. A kernel lacking an
  // option's reference file, or whose reference.py Numba cannot compile (probed once per
  // kernel and precision), goes without it; with none left, `c` (or `numpy` without
  // reference.c).
  std::map<std::string, std::string> track_baseline = {
      {"loop_level_reasoning", "numba"},
      {"scientific_computing", "c,c-autopar,numba-parallel"},
      {"machine_learning", "numpy"}};
  // Per kernel id, overriding its track's entry (same syntax).
  std::map<std::string, std::string> kernel_baseline;
  // The oracle per track: "c" (reference.c) or "numpy" (reference.py). A kernel's manifest
  // "oracle" wins; a kernel without reference.c always has the NumPy oracle.
  std::map<std::string, std::string> track_oracle = {
      {"loop_level_reasoning", "c"}, {"scientific_computing", "c"}, {"machine_learning", "c"}};
  // Baselines whose figures an ok /submit also reports (unpaired: each timed alone at the
  // public timed sizes, cached like /score's samples, against the candidate's median there),
  // besides the credited one. Comma-separated; empty for none. Unavailable ones are skipped.
  std::string report_baselines = "c,numpy,numba";

  // Scheduling
  int queue_depth = 16;   // grades waiting beyond this: 429 with Retry-After
  int grade_workers = 1;  // concurrent grades (builds overlap; timed phases hold a slot)
  // POST /syntax-check builds (docs/api.md): their own queue and workers, so a check is not
  // queued behind minutes of grades; waiting beyond the depth: 429.
  int syntax_check_workers = 1;
  int syntax_check_queue_depth = 8;
  // POST /profile (docs/api.md): the perf binary the judge runs outside the sandbox (attached
  // to the candidate's runner by pid), the least seconds between two profiles of one client,
  // the wall limit of a profile's calls, and the machine's peak GFLOP/s for the roofline (0:
  // unknown, reported null).
  std::string perf = "perf";
  double profile_min_interval_s = 10;
  double profile_timeout_s = 60;
  double peak_gflops = 0;
  std::vector<std::vector<int>> slots;  // CPU sets; default one slot with every CPU

  // Limits for sandboxed work
  double build_timeout_s = 60;
  std::size_t build_log_cap = 64 << 10;
  double call_timeout_s = 60;  // one kernel call (and one draw)
  double runner_wall_s = 600;  // one runner process in total
  double runner_cpu_s = 1200;
  uint64_t memory_bytes = uint64_t{8} << 30;  // address space of one sandboxed process
  uint64_t sandbox_nproc = 512;
  // A sandbox that dies before its runner's first line (bubblewrap could not fork, the host or
  // the sandbox uid short of processes) is started again this many times, after 0.1 s, 0.2 s,
  // ...: nothing of the submission ran, and a transient shortage is no verdict on anyone.
  int sandbox_start_retries = 3;
  std::size_t run_log_cap = 64 << 10;
  std::size_t max_source_bytes = 1 << 20;
  // Request bodies nesting JSON arrays/objects deeper than this: 400 before parsing.
  int max_json_depth = 64;

  // GPU languages (cuda, hip; docs/operations.md "GPU languages"). The toolchains and target
  // lists are settings, not constants: Debian's hipcc 5.2 builds gfx90a but rejects gfx942
  // (the MI300A), which a cluster's newer ROCm on its PATH builds.
  // A name without '/' is looked up on PATH at start-up (nvcc also in /usr/local/cuda/bin); a
  // compiler that is not there makes every grade of its language `rejected` (reason
  // no_toolchain) naming this setting, while the judge still grades the other languages.
  std::string cuda_compiler = "nvcc";
  std::string hip_compiler = "hipcc";
  // Targets every build of a language is compiled for (one code object each): sm_<N> for CUDA;
  // gfx<id>[:feature+-] for HIP on AMD (hipcc --offload-arch), or sm_<N> for HIP on NVIDIA
  // (built by cuda_compiler with HIP's nvidia_detail headers); one vendor per list.
  std::vector<std::string> cuda_archs = {"sm_90"};
  std::vector<std::string> hip_archs = {"gfx90a"};
  // With a GPU: build for the devices' own targets instead (nvidia-smi's compute capability; the
  // KFD topology's gfx_target_version), the lists above when those cannot be read or this is
  // false. An NVIDIA judge then builds HIP for NVIDIA too.
  bool gpu_archs_from_device = true;
  // The GPUs this judge grades on: ["auto"] (JSON "auto" too) detects /dev/nvidia<N>, and
  // /dev/dri/renderD<N> when /dev/kfd exists; ["none"] has none; else a list of device nodes.
  // Without any, a GPU grade whose build succeeds is `rejected` (reason no_gpu).
  std::vector<std::string> gpu_devices = {"auto"};
  std::vector<GpuDevice> gpus;  // derived by finalize() from gpu_devices; /health lists them
  // Derived by finalize(): the architecture, ISA level and GPU vendors /health reports and a
  // regrade checks answers against (common/portability.h).
  Platform platform;

  // The container image this judge runs from (docs/deploy.md "Images"): reported in /health,
  // in the machine fingerprint and so with every recorded answer. Set by whoever starts the
  // judge from an image (HPCAB_IMAGE, HPCAB_IMAGE_DIGEST: the image cannot know its own digest);
  // unset, finalize() reads podman's /run/.containerenv when it exists. Both empty outside one.
  std::string image;
  std::string image_digest;  // sha256:<64 hex>; a bare 64-hex image id is accepted
  // GPU runs: the runner's device side (judge/runner/device.h, residency.h) and its sandbox
  // (docs/security.md, "GPU runs"). The runtime libraries are dlopen()ed by the runner inside
  // the sandbox: a soname found through the system's loader cache, or an absolute path (its
  // directory is then bound read-only into GPU sandboxes).
  std::string cuda_runtime_lib = "libcudart.so";
  std::string hip_runtime_lib = "libamdhip64.so";
  int gpu_device_index = 0;
  // Where the device nodes are looked for (/dev/nvidia*, /dev/kfd, /dev/dri/renderD*); only
  // those that exist are bound, and only into GPU grades' sandboxes.
  std::string gpu_device_root = "/dev";
  // A census synchronize (after the clock, before the next call) waiting longer than this
  // found device work left running.
  int64_t device_idle_ns = 200000;
  // RLIMIT_AS of a GPU runner; 0: unlimited. Both runtimes reserve virtual address space for
  // the device's memory and more at start-up, which memory_bytes would refuse; host memory
  // use stays bounded by the draw's own arrays, which the sizes admitted already bound.
  uint64_t gpu_address_space_bytes = 0;

  // Derives empty paths and validates; an error names the offending setting.
  Status finalize(const std::string& executable_dir);
  // finalize()'s part for the GPU block: resolves the compilers and gpu_devices into gpus.
  Status finalize_gpu();
  SandboxPolicy sandbox_policy() const;
};

// Applies a JSON object of settings (keys as in JudgeConfig, nested "server" for limits).
Status apply_config_json(JudgeConfig& c, const std::string& json_text, const std::string& origin);
// Applies HPCAB_* variables from `env` ("NAME=value" entries), e.g. HPCAB_PORT, HPCAB_RANK.
Status apply_config_env(JudgeConfig& c, const std::vector<std::string>& env);
// Every key a config file may hold, in the order they are read, then "server" and the limits
// of its object as "server.<name>". docs/operations.md's settings table lists exactly these
// (tests/judge/config_test.cc checks it).
std::vector<std::string> config_setting_names();

}  // namespace hpcab::judge
