// Where a GPU kernel's arrays live during its call, and the order of every copy relative to the
// clock (docs/grading.md, "GPU residencies"). Pure planning over a Device (judge/runner/
// device.h), so it is unit-tested against a fake device (tests/judge/residency_test.cc).
//
//   host    the arrays are the runner's host buffers exactly as for a C kernel; the submission
//           moves data to and from the device itself, inside the clock. After the clock stops
//           (and the outputs are copied out) the runner synchronizes the device: work still
//           pending then was left running after the return.
//   device  every array has a device buffer of its own, allocated once, between two guard
//           zones. Before the clock: inputs (in, inout) copied in, outputs (out) poisoned with
//           0xff bytes, the workspace zeroed, guards refilled, then a synchronize (the census:
//           work pending there was left running by an earlier call). The kernel's C-ABI entry
//           gets the DEVICE pointers; the clock stops only after a device synchronize; the
//           outputs are copied back after the clock. At post, outside any clock: a census
//           synchronize, then the inputs copied back and compared (const), the guard zones
//           copied back and checked, the outputs copied back again and compared with the
//           copy-out (late writes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/manifest.h"
#include "common/result.h"
#include "judge/runner/device.h"
#include "judge/runner/protocol.h"

namespace hpcab::runner {

enum class Residency { kHost, kDevice };
const char* residency_name(Residency r);
Result<Residency> parse_residency(const std::string& text);

// One array's device buffer as planned: its name, intent and size in bytes.
struct DeviceBufferSpec {
  std::string name;
  Intent intent = Intent::kIn;
  std::size_t bytes = 0;
  std::size_t element_bytes = 1;  // findings report element indices
};

// What the post-call checks found (PostProblem kNone: nothing).
struct DeviceFinding {
  runner_protocol::PostProblem problem = runner_protocol::PostProblem::kNone;
  std::string name;
  std::string index;
};

// The device buffers of one runner (device residency), freed with it.
class DeviceArrays {
 public:
  // Bytes of guard zone on each side of every device buffer, and their pattern.
  static constexpr std::size_t kGuardBytes = 4096;
  static constexpr unsigned char kGuardByte = 0xA7;
  // The name the workspace is reported under (as for host arrays).
  static constexpr const char* kWorkspaceName = "(workspace)";

  static Result<std::unique_ptr<DeviceArrays>> create(Device& device,
                                                      std::vector<DeviceBufferSpec> arrays,
                                                      std::size_t workspace_bytes);
  ~DeviceArrays();
  DeviceArrays(const DeviceArrays&) = delete;
  DeviceArrays& operator=(const DeviceArrays&) = delete;

  // Before the clock: copies every in/inout array from `host_inputs` (name -> host bytes of the
  // array's size), poisons every out array (0xff), zeroes the workspace, refills the guards
  // and synchronizes. The census flag (left_running()) is set when that synchronize found
  // work pending.
  Status stage(const std::map<std::string, const void*>& host_inputs);

  // The pointers the kernel gets (device addresses) and the device workspace (nullptr when
  // it has no bytes).
  const std::map<std::string, void*>& pointers() const { return data_; }
  void* workspace() const { return workspace_bytes_ == 0 ? nullptr : workspace_; }

  // After the clock: every out/inout array copied back into `host_outputs` (name -> host
  // buffer of the array's size).
  Status copy_out(const std::map<std::string, void*>& host_outputs);

  // At post, in order: a census synchronize (pending work: kRunning "(device)"), inputs
  // compared with `inputs` (kConst, element index), guard zones (kGuard,
  // offsets as NdArray::guard_violation), outputs compared with `copied_out` (kLate).
  Result<DeviceFinding> check(const std::map<std::string, const void*>& inputs,
                              const std::map<std::string, const void*>& copied_out);

  // Whether a census synchronize (stage, check) found work pending since the last check()
  // (which reports it once, as kRunning, and clears it).
  bool left_running() const { return left_running_; }

 private:
  struct Buffer {
    DeviceBufferSpec spec;
    unsigned char* base = nullptr;  // guard, data rounded up, guard
    std::size_t rounded = 0;
  };
  DeviceArrays(Device& device) : device_(device) {}
  Result<Buffer> allocate(const DeviceBufferSpec& spec);
  Status fill_guards(const Buffer& b);
  Result<std::optional<int64_t>> guard_violation(const Buffer& b);

  Device& device_;
  std::vector<Buffer> buffers_;  // arrays, then the workspace
  std::map<std::string, void*> data_;
  void* workspace_ = nullptr;
  std::size_t workspace_bytes_ = 0;
  bool left_running_ = false;
};

// The timed call of one `go` on a GPU run, with `now` the clock: device residency
// synchronizes inside the clock (t0, call, synchronize, t1); host residency reads the clock
// around the call alone. Returns t1 - t0. A failing synchronize is the kernel's (it faulted
// on the device).
Result<int64_t> timed_gpu_call(Device& device, Residency residency,
                               const std::function<void()>& call,
                               const std::function<int64_t()>& now);

}  // namespace hpcab::runner
