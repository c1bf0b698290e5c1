#include "judge/runner/runner_core.h"

#include <seccomp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "common/npy.h"

namespace hpcab::runner {

namespace proto = hpcab::runner_protocol;

namespace {

int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

Result<SymbolTable> parse_sizes(const std::string& text) {
  SymbolTable t;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    auto eq = item.find('=');
    if (eq == std::string::npos) return Error{"bad --sizes item '" + item + "'"};
    try {
      t[item.substr(0, eq)] = std::stoll(item.substr(eq + 1));
    } catch (...) {
      return Error{"bad --sizes value '" + item + "'"};
    }
  }
  return t;
}

// First differing element of two equally shaped arrays (their byte sizes when equal).
std::size_t first_difference(const NdArray& a, const NdArray& b) {
  const auto* x = static_cast<const unsigned char*>(a.data());
  const auto* y = static_cast<const unsigned char*>(b.data());
  std::size_t i = 0;
  while (i < a.nbytes() && x[i] == y[i]) ++i;
  return i / dtype_size(a.dtype());
}

}  // namespace

void add_options(CLI::App& app, Options& o) {
  app.add_option("--manifest", o.manifest_path, "kernel.json")->required();
  app.add_option("--precision", o.precision_text, "fp64 or fp32")->capture_default_str();
  app.add_option("--sizes", o.sizes_text, "size symbols, e.g. N=100,M=20")->required();
  app.add_option("--workspace-bytes", o.workspace_bytes, "zeroed scratch bytes per call");
  app.add_option("--out-dir", o.out_dir, "where saved outputs go")->capture_default_str();
  app.add_option("--gen-threads", o.gen_threads,
                 "threads generating draws (0: OpenMP default); the judge asks for 1 in the "
                 "candidate's runner, so any other thread busy between calls is the kernel's")
      ->capture_default_str();
  app.add_option("--draw-fd", o.draw_fd,
                 "the judge's shared draw: a sealed memfd holding each call's inputs, mapped "
                 "read-only (-1: generate every draw here)")
      ->capture_default_str();
}

void add_gpu_options(CLI::App& app, Options& o) {
  app.add_option("--gpu", o.gpu_text, "GPU runtime: none, cuda or hip (none: a CPU run)")
      ->capture_default_str();
  app.add_option("--gpu-lib", o.gpu_lib,
                 "the runtime library to dlopen (soname or path; default libcudart.so or "
                 "libamdhip64.so)");
  app.add_option("--gpu-index", o.gpu_index, "device index")->capture_default_str();
  app.add_option("--residency", o.residency_text,
                 "GPU runs: host (the kernel gets host arrays and moves data itself, inside the "
                 "clock) or device (inputs on the device before the clock, device pointers)")
      ->capture_default_str();
  app.add_option("--device-idle-ns", o.device_idle_ns,
                 "a device synchronize waiting longer than this found work still pending")
      ->capture_default_str();
}

void Runner::reply(const std::string& line) {
  std::fprintf(reply_, "%s\n", line.c_str());
  std::fflush(reply_);
}

int Runner::fail(proto::Fault fault, const std::string& message) {
  reply(proto::error_reply(fault, message));
  return 2;
}

int Runner::setup(const char* program) {
  reply_ = fdopen(3, "w");
  if (reply_ == nullptr) {
    std::fprintf(stderr, "%s: fd 3 (the reply channel) is not open\n", program);
    return 2;
  }
  // Before anything that could fail for the submission's sake: the judge then knows a process
  // that ends without this line never got past the sandbox's own set-up.
  reply(proto::boot_reply());
  const auto setup = proto::Fault::kSetup;
  auto m = load_manifest(options_.manifest_path);
  if (!m) return fail(setup, m.error().message);
  manifest_ = std::move(*m);
  auto p = parse_precision(options_.precision_text);
  if (!p) return fail(setup, "bad precision " + options_.precision_text);
  auto sizes = parse_sizes(options_.sizes_text);
  if (!sizes) return fail(setup, sizes.error().message);
  spec_.precision = *p;
  spec_.sizes = *sizes;
  spec_.threads = std::max(options_.gen_threads, 0);
  // Allocated only: every call's "prep" fills it (regenerate_draw) before the kernel sees it,
  // so values generated here would be overwritten unseen (a whole draw's work per runner at
  // the timed sizes, ~0.1 s for tsvc_2_s000 on a Zen 1).
  auto draw = allocate_draw(*manifest_, spec_);
  if (!draw) return fail(setup, draw.error().message);
  draw_ = std::move(*draw);
  if (int rc = map_shared_draw()) return rc;
  for (const auto& a : manifest_->arrays) {
    if (a.intent == Intent::kIn && shared_ == nullptr) {
      snapshot_.emplace(a.name, draw_->arrays.at(a.name));
    }
    if (a.is_output()) copied_out_.emplace(a.name, draw_->arrays.at(a.name));
  }
  // Guarded like the arrays, so a kernel overrunning its scratch space is reported as well.
  workspace_ = NdArray(DType::kUint8, {std::max<int64_t>(options_.workspace_bytes, 0)});
  if (int rc = setup_gpu()) return rc;
  // Where the copy-outs live, told while only the runner's own code has run: the judge reads
  // outputs from these addresses (docs/grading.md, "Outputs in memory"), and an address the
  // submission could have chosen would let it point the judge at a buffer it fills later.
  // copied_out_ is never reallocated, so the addresses hold for the runner's whole life.
  std::vector<proto::OutputSlot> slots;
  for (const auto& [name, copy] : copied_out_) {
    slots.push_back({name, reinterpret_cast<uint64_t>(copy.data()), copy.nbytes()});
  }
  reply(proto::layout_reply(slots));
  return 0;
}

// The judge's shared draw, mapped read-only: the inputs' snapshot is the mapping itself, which
// nothing in this process can write (the judge sealed the memfd against writes, shrinking and
// growing before passing it, so neither a writable mapping nor a write through a reopened
// descriptor can reach the draw the other sides read), and the descriptor is closed at once.
int Runner::map_shared_draw() {
  if (options_.draw_fd < 0) return 0;
  const auto setup = proto::Fault::kSetup;
  auto layout = shared_draw_layout(*manifest_, spec_.precision, spec_.sizes);
  if (!layout) return fail(setup, "shared draw: " + layout.error().message);
  struct stat st {};
  if (fstat(options_.draw_fd, &st) != 0 ||
      static_cast<uint64_t>(st.st_size) < layout->total_bytes) {
    return fail(setup, "shared draw: descriptor " + std::to_string(options_.draw_fd) +
                           " is not a draw of " + std::to_string(layout->total_bytes) + " bytes");
  }
  void* p =
      mmap(nullptr, layout->total_bytes, PROT_READ, MAP_SHARED | MAP_POPULATE, options_.draw_fd, 0);
  ::close(options_.draw_fd);
  if (p == MAP_FAILED)
    return fail(setup, std::string("shared draw: mmap: ") + std::strerror(errno));
  shared_ = p;
  shared_bytes_ = layout->total_bytes;
  Draw view = shared_draw_view(*manifest_, spec_.precision, spec_.sizes, *layout, p);
  for (const auto& a : manifest_->arrays) {
    if (a.intent == Intent::kIn) snapshot_.emplace(a.name, std::move(view.arrays.at(a.name)));
    if (a.intent == Intent::kInout) {
      shared_inout_.emplace(a.name, std::move(view.arrays.at(a.name)));
    }
  }
  return 0;
}

// Opens the device runtime (GPU runs) and, for device residency, allocates the device buffers:
// all the judge's own set-up, before any candidate code is loaded.
int Runner::setup_gpu() {
  const auto setup = proto::Fault::kSetup;
  auto runtime = parse_gpu_runtime(options_.gpu_text);
  if (!runtime) return fail(setup, runtime.error().message);
  auto residency = parse_residency(options_.residency_text);
  if (!residency) return fail(setup, residency.error().message);
  residency_ = *residency;
  if (*runtime == GpuRuntime::kNone) {
    if (residency_ == Residency::kDevice) return fail(setup, "--residency device needs --gpu");
    return 0;
  }
  DeviceOptions d;
  d.runtime = *runtime;
  d.library = options_.gpu_lib;
  d.index = options_.gpu_index;
  d.idle_threshold_ns = options_.device_idle_ns;
  auto dev = open_device(d);
  if (!dev) return fail(setup, dev.error().message);
  device_ = std::move(*dev);
  // For the log (never parsed): which device this runner got.
  auto name = device_->name(options_.gpu_index);
  std::fprintf(stderr, "hpcab-runner: %s device %d: %s, residency %s\n", gpu_runtime_name(*runtime),
               options_.gpu_index, name ? name->c_str() : name.error().message.c_str(),
               residency_name(residency_));
  if (residency_ == Residency::kDevice) {
    std::vector<DeviceBufferSpec> specs;
    for (const auto& a : manifest_->arrays) {
      const NdArray& arr = draw_->arrays.at(a.name);
      specs.push_back({a.name, a.intent, arr.nbytes(), dtype_size(arr.dtype())});
    }
    auto arrays = DeviceArrays::create(*device_, std::move(specs), workspace_.nbytes());
    if (!arrays) return fail(setup, "device buffers: " + arrays.error().message);
    device_arrays_ = std::move(*arrays);
  }
  return 0;
}

int Runner::device_fault(const std::string& message) {
  if (!called_) return fail(proto::Fault::kSetup, message);
  std::fprintf(stderr, "hpcab-runner: device error after the kernel ran: %s (exit status %d)\n",
               message.c_str(), kDeviceFaultExit);
  std::fflush(stderr);
  return kDeviceFaultExit;
}

// Device residency's checks after a call (judge/runner/residency.h): census, inputs, guards,
// late writes, all through copies outside the clock.
Result<std::string> Runner::device_post_verdict() {
  std::map<std::string, const void*> inputs, outs;
  for (const auto& [name, copy] : snapshot_) inputs[name] = copy.data();
  for (const auto& [name, copy] : copied_out_) outs[name] = copy.data();
  auto f = device_arrays_->check(inputs, outs);
  if (!f) return f.error();
  if (f->problem == proto::PostProblem::kNone) return proto::posted_ok_reply();
  return proto::posted_reply(f->problem, f->name, f->index);
}

// No program may be executed once the kernel is loaded: re-executing the runner with
// LD_PRELOAD (to interpose the clock) or running a helper binary outside the call are the
// obvious escapes, and a numerical kernel has no reason to exec. The filter is inherited by
// every thread created afterwards and by forked children.
int Runner::deny_exec() {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  bool ok = ctx != nullptr;
  if (ok) {
    ok = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(execve), 0) == 0 &&
         seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(execveat), 0) == 0 &&
         seccomp_load(ctx) == 0;
    seccomp_release(ctx);
  }
  if (!ok) return fail(proto::Fault::kSetup, "cannot install the exec filter");
  return 0;
}

// The runner's checks after a call, in order: inputs unchanged, guard zones intact (arrays,
// then the workspace), outputs unchanged since the copy-out. The reply to "post".
std::string Runner::post_verdict() const {
  for (const auto& [name, copy] : snapshot_) {
    const NdArray& now = draw_->arrays.at(name);
    if (!now.bytes_equal(copy)) {
      return proto::posted_reply(proto::PostProblem::kConst, name,
                                 std::to_string(first_difference(now, copy)));
    }
  }
  for (const auto& [name, arr] : draw_->arrays) {
    if (auto off = arr.guard_violation()) {
      return proto::posted_reply(proto::PostProblem::kGuard, name, std::to_string(*off));
    }
  }
  if (auto off = workspace_.guard_violation()) {
    return proto::posted_reply(proto::PostProblem::kGuard, "(workspace)", std::to_string(*off));
  }
  for (const auto& [name, copy] : copied_out_) {
    const NdArray& now = draw_->arrays.at(name);
    if (!now.bytes_equal(copy)) {
      return proto::posted_reply(proto::PostProblem::kLate, name,
                                 std::to_string(first_difference(now, copy)));
    }
  }
  return proto::posted_ok_reply();
}

// The copied-out outputs as <out-dir>/<tag>/<name>.npy. Errors keep write_npy's code
// (kNoSpace...).
Status Runner::save_outputs(const std::string& tag) const {
  const std::filesystem::path dir = std::filesystem::path(options_.out_dir) / tag;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Error{"cannot create " + dir.string() + ": " + ec.message(),
                 errc_from_errno(ec.value())};
  }
  for (const auto& a : manifest_->arrays) {
    if (!a.is_output()) continue;
    if (auto st = write_npy((dir / (a.name + ".npy")).string(), copied_out_.at(a.name)); !st) {
      return st;
    }
  }
  return Ok{};
}

// With a shared draw the judge has written this call's inputs into the mapping before the
// runner was resumed; what stays the runner's is what the kernel sees until "go": the in-out
// arrays' values copied in, the outputs poisoned and the workspace zeroed. Its input arrays
// need no poison here: they still hold the previous call's inputs, which the kernel has seen,
// and this call's appear in them only at "go" (copied from the mapping), as with a draw of
// the runner's own, which is generated into the snapshot and never into them.
std::optional<int> Runner::prep_shared() {
  for (const auto& [name, values] : shared_inout_) {
    std::memcpy(draw_->arrays.at(name).data(), values.data(), values.nbytes());
  }
  poison_outputs(*manifest_, *draw_);
  std::memset(workspace_.data(), 0, workspace_.nbytes());
  reply(proto::ready_reply());
  return std::nullopt;
}

std::optional<int> Runner::prep(const runner_protocol::Command& cmd) {
  if (shared_ != nullptr) return prep_shared();
  spec_.seed = cmd.seed;
  spec_.scale = cmd.scale;
  spec_.distribution = distribution_named(cmd.dist);
  // The draw's inputs are kept in the snapshot and hidden from the kernel until "go": the
  // arrays it can see hold a poison pattern meanwhile, so a helper thread cannot compute
  // the next answer from them between calls (outside the clock). Honest code sees the
  // real inputs when it is called. The draw is generated straight into the snapshot's
  // buffers, lent to the draw for that by an exchange (not a copy afterwards: 33 MB per
  // call at tsvc_2_s000's timed size, ~15 % of a prep): the kernel is never handed a
  // snapshot buffer's address, and the buffers it was handed never hold a fresh draw
  // before "go" (generated into them and copied away, they did while the draw was made).
  for (auto& [name, copy] : snapshot_) std::swap(copy, draw_->arrays.at(name));
  const Status generated = regenerate_draw(*manifest_, spec_, *draw_);
  for (auto& [name, copy] : snapshot_) {
    NdArray& visible = draw_->arrays.at(name);
    std::swap(copy, visible);
    fill_poison(visible.data(), visible.nbytes(), ~uint64_t{0});
  }
  if (!generated) return fail(proto::Fault::kSetup, generated.error().message);
  std::memset(workspace_.data(), 0, workspace_.nbytes());
  reply(proto::ready_reply());
  return std::nullopt;
}

std::optional<int> Runner::go_device(const Call& call) {
  // Device residency: inputs onto the device, outputs poisoned, all before the clock.
  std::map<std::string, const void*> in;
  for (const auto& a : manifest_->arrays) {
    if (a.intent == Intent::kIn) in[a.name] = snapshot_.at(a.name).data();
    if (a.intent == Intent::kInout) in[a.name] = draw_->arrays.at(a.name).data();
  }
  if (auto st = device_arrays_->stage(in); !st) return device_fault(st.error().message);
  const int64_t ws_bytes = static_cast<int64_t>(workspace_.nbytes());
  auto* ws = static_cast<uint8_t*>(device_arrays_->workspace());
  called_ = true;
  auto ns = timed_gpu_call(
      *device_, residency_, [&] { call(*draw_, ws, ws_bytes, &device_arrays_->pointers()); },
      now_ns);
  if (!ns) return device_fault(ns.error().message);
  std::map<std::string, void*> out;
  for (auto& [name, copy] : copied_out_) out[name] = copy.data();
  if (auto st = device_arrays_->copy_out(out); !st) return device_fault(st.error().message);
  // A launch the runtime refused (a bad configuration) is not sticky and leaves the
  // outputs poisoned, which the output check then reports; the log says why.
  if (auto st = device_->last_error(); !st) {
    std::fprintf(stderr, "hpcab-runner: after the call: %s\n", st.error().message.c_str());
  }
  for (auto& [name, copy] : copied_out_) {
    std::memcpy(draw_->arrays.at(name).data(), copy.data(), copy.nbytes());
  }
  reply(proto::done_reply(*ns));
  return std::nullopt;
}

std::optional<int> Runner::go_host(const Call& call) {
  // The inputs appear right before the clock starts (the judge's allowance covers the
  // copy): nothing the kernel left running could have used them earlier.
  for (const auto& [name, copy] : snapshot_) {
    std::memcpy(draw_->arrays.at(name).data(), copy.data(), copy.nbytes());
  }
  uint8_t* const ws = workspace_.nbytes() == 0 ? nullptr : workspace_.as<uint8_t>();
  const auto ws_bytes = static_cast<int64_t>(workspace_.nbytes());
  called_ = true;
  const int64_t t0 = now_ns();
  call(*draw_, ws, ws_bytes, nullptr);
  const int64_t t1 = now_ns();
  for (auto& [name, copy] : copied_out_) {
    std::memcpy(copy.data(), draw_->arrays.at(name).data(), copy.nbytes());
  }
  if (device_) {
    // Host residency: the submission had to finish its device work before returning;
    // the census after the clock (and after the copy-out) says whether it did.
    auto pending = device_->synchronize();
    if (!pending) return device_fault(pending.error().message);
    if (*pending) device_left_running_ = true;
  }
  reply(proto::done_reply(t1 - t0));
  return std::nullopt;
}

std::optional<int> Runner::post(const runner_protocol::Command& cmd) {
  std::string verdict;
  if (device_arrays_) {
    auto v = device_post_verdict();
    if (!v) return device_fault(v.error().message);
    verdict = *v;
  } else {
    if (device_) {
      auto pending = device_->synchronize();
      if (!pending) return device_fault(pending.error().message);
      if (*pending) device_left_running_ = true;
    }
    verdict = device_left_running_
                  ? proto::posted_reply(proto::PostProblem::kRunning, "(device)", "pending")
                  : post_verdict();
    device_left_running_ = false;
  }
  if (cmd.save) {
    if (auto st = save_outputs(cmd.tag); !st) {
      // A filesystem refusing the write is the judge's scratch space; anything else
      // (an array the writer rejects) is this runner's own set-up.
      const bool io = st.error().code == Errc::kNoSpace || st.error().code == Errc::kReadOnly;
      return fail(io ? proto::Fault::kIo : proto::Fault::kSetup, st.error().message);
    }
  }
  reply(verdict);
  return std::nullopt;
}

int Runner::serve(const Call& call) {
  reply(proto::hello_reply());
  std::string line;
  while (std::getline(std::cin, line)) {
    const proto::Command cmd = proto::parse_command(line);
    std::optional<int> exit;
    switch (cmd.verb) {
      case proto::Command::Verb::kPrep:
        exit = prep(cmd);
        break;
      case proto::Command::Verb::kGo:
        exit = device_arrays_ ? go_device(call) : go_host(call);
        break;
      case proto::Command::Verb::kPost:
        exit = post(cmd);
        break;
      case proto::Command::Verb::kPing:
        reply(proto::pong_reply());
        break;
      case proto::Command::Verb::kQuit:
        return 0;
      case proto::Command::Verb::kUnknown:
        return fail(proto::Fault::kCommand, "unknown command '" + cmd.word + "'");
    }
    if (exit) return *exit;
  }
  return 0;
}

}  // namespace hpcab::runner
