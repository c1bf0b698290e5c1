// The part of a runner that does not depend on the kernel's language: its common options, the
// reply channel, the draw and its regeneration, the line protocol (judge/runner/protocol.h) and
// every check around a call. hpcab-runner (a C-ABI library through libffi) and hpcab-pyrunner
// (a Python function) are thin mains around it that differ only in how the kernel is loaded and
// called; the call is injected as a callable and is the only thing inside the clock.
//
// The sequence both follow (and every runner must):
//   Runner r(options);
//   if (int rc = r.setup("hpcab-...")) return rc;   // fd 3, manifest, first draw, workspace
//   ... what must happen before any candidate code runs ...
//   if (int rc = r.deny_exec()) return rc;          // no exec from here on
//   ... load the candidate's code; on failure return r.fail(Fault::kLoad, message) ...
//   return r.serve(call);                           // "hello", then command by command
//
// Links only common_core and libseccomp (tests/deps/check_deps.sh checks hpcab-runner).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "common/inputs.h"
#include "common/manifest.h"
#include "common/ndarray.h"
#include "judge/runner/device.h"
#include "judge/runner/protocol.h"
#include "judge/runner/residency.h"

namespace CLI {
class App;
}

namespace hpcab::runner {

// The options every runner takes, whatever its kernel's language.
struct Options {
  std::string manifest_path;
  std::string precision_text = "fp64";
  std::string sizes_text;
  std::string out_dir = ".";
  int64_t workspace_bytes = 0;
  int gen_threads = 0;
  // >= 0: the judge's shared draw (docs/grading.md, "One draw per call"), a sealed memfd the
  // runner maps read-only and closes; every prep then takes its inputs from there instead of
  // generating them.
  int draw_fd = -1;
  // GPU runs only (add_gpu_options): the runtime to open ("none": a CPU run, nothing GPU is
  // loaded), its library (dlopen name or path; empty: the runtime's default), the device,
  // the residency ("host" or "device", judge/runner/residency.h) and the census threshold.
  std::string gpu_text = "none";
  std::string gpu_lib;
  int gpu_index = 0;
  std::string residency_text = "host";
  int64_t device_idle_ns = 200000;
};

// Registers --manifest, --precision, --sizes, --workspace-bytes, --out-dir, --gen-threads and
// --draw-fd.
void add_options(CLI::App& app, Options& options);
// Registers --gpu, --gpu-lib, --gpu-index, --residency and --device-idle-ns (hpcab-runner only:
// a Python kernel has no C-ABI device entry).
void add_gpu_options(CLI::App& app, Options& options);

// The kernel call, timed: it runs on the draw's own arrays (inputs already copied in) and gets
// the zeroed workspace (nullptr when it has no bytes). It returns when the kernel has returned
// and its outputs are in the draw's output arrays; the outputs are copied out right after it.
// On a device-resident GPU run `device_arrays` holds the device pointers the kernel must get
// instead of the draw's (and `workspace` is a device pointer); otherwise it is nullptr.
using Call = std::function<void(Draw& draw, uint8_t* workspace, int64_t workspace_bytes,
                                const std::map<std::string, void*>* device_arrays)>;

class Runner {
 public:
  explicit Runner(Options options) : options_(std::move(options)) {}
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // Opens the reply channel (fd 3), loads the manifest, parses precision and sizes, generates
  // the first draw and allocates the input snapshot, the output copies and the workspace.
  // 0 when all went well, otherwise the exit status (after an `error setup` reply, or a line
  // on stderr naming `program` when fd 3 is not open).
  int setup(const char* program);

  // Installs the seccomp filter that makes execve/execveat fail with EPERM for this process
  // and everything it forks. 0, or the exit status after an `error setup` reply.
  int deny_exec();

  // Replies `error <fault> <message>` and returns the exit status to leave with (2).
  int fail(runner_protocol::Fault fault, const std::string& message);

  // Replies `hello`, then answers commands from stdin until `quit` or EOF (0) or an error
  // reply (2); returns that exit status. `call` runs once per `go`, between the two clock reads.
  int serve(const Call& call);

  // Valid after a successful setup().
  const Manifest& manifest() const { return *manifest_; }
  Precision precision() const { return spec_.precision; }
  // The draw the calls run on: regenerated in place on every `prep` (same NdArray objects,
  // same buffers for the runner's whole life), so views of its arrays stay valid.
  Draw& draw() { return *draw_; }

 private:
  // One command each (runner/protocol.h): nullopt to go on serving, else the exit status.
  std::optional<int> prep(const runner_protocol::Command& cmd);
  std::optional<int> go_device(const Call& call);
  std::optional<int> go_host(const Call& call);
  std::optional<int> post(const runner_protocol::Command& cmd);
  void reply(const std::string& line);
  std::string post_verdict() const;
  Result<std::string> device_post_verdict();
  int setup_gpu();
  // A device runtime call failing once candidate code ran: the kernel broke the device (an
  // illegal address, a trap). Logged, and the runner exits with kDeviceFaultExit (the judge
  // sees the process die: a crash, the candidate's).
  int device_fault(const std::string& message);
  Status save_outputs(const std::string& tag) const;

  Options options_;
  FILE* reply_ = nullptr;  // fd 3
  std::optional<Manifest> manifest_;
  DrawSpec spec_;
  std::optional<Draw> draw_;
  std::map<std::string, NdArray> snapshot_, copied_out_;
  // With a shared draw: the mapping, and views of its in-out arrays (its input arrays are the
  // views in snapshot_).
  void* shared_ = nullptr;
  std::size_t shared_bytes_ = 0;
  std::map<std::string, NdArray> shared_inout_;
  int map_shared_draw();
  std::optional<int> prep_shared();
  NdArray workspace_;
  // GPU runs: the device (nullptr on CPU runs), the residency and, with device residency,
  // the device buffers. device_left_running_: a host-residency census found pending work.
  std::unique_ptr<Device> device_;
  Residency residency_ = Residency::kHost;
  std::unique_ptr<DeviceArrays> device_arrays_;
  bool device_left_running_ = false;
  bool called_ = false;  // candidate code has run (a device error is then the kernel's)
};

// The exit status after a device fault caused by the kernel (see Runner::device_fault).
inline constexpr int kDeviceFaultExit = 4;

}  // namespace hpcab::runner
