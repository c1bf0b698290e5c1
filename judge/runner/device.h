// The GPU runtime as the runner sees it: the few calls residency needs (judge/runner/
// residency.h), behind an interface so that
//   - the runner links no GPU library: the real implementation dlopen()s the CUDA runtime
//     (libcudart) or the HIP runtime (libamdhip64) at run time, so hpcab-runner starts, and C
//     kernels run, on a machine with neither;
//   - residency planning is unit-tested against a fake device in milliseconds
//     (tests/judge/fake_device.h).
// Every call returns a Result: a failing runtime call is a value carrying the runtime's own
// error string, never an exception or an abort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/result.h"

namespace hpcab::runner {

enum class GpuRuntime { kNone, kCuda, kHip };

// "cuda", "hip"; anything else (including "none") is kNone with ok == false for non-"none".
const char* gpu_runtime_name(GpuRuntime r);
Result<GpuRuntime> parse_gpu_runtime(const std::string& text);

class Device {
 public:
  virtual ~Device() = default;
  virtual Result<void*> malloc(std::size_t bytes) = 0;
  virtual Status free(void* p) = 0;
  virtual Status copy_to_device(void* dst, const void* src, std::size_t bytes) = 0;
  virtual Status copy_to_host(void* dst, const void* src, std::size_t bytes) = 0;
  virtual Status memset(void* dst, int value, std::size_t bytes) = 0;
  // Waits for all work on the device. The value says whether work was still pending when it
  // was called (the census of kernels left running): the fake knows exactly; the real one
  // infers it from the wait lasting longer than its idle threshold (an idle device returns
  // from a synchronize in microseconds).
  virtual Result<bool> synchronize() = 0;
  // The runtime's sticky error state (cudaGetLastError / hipGetLastError), cleared by reading.
  virtual Status last_error() = 0;
  virtual Result<int> count() = 0;
  virtual Result<std::string> name(int index) = 0;
};

struct DeviceOptions {
  GpuRuntime runtime = GpuRuntime::kCuda;
  // What dlopen() is given: a soname ("libcudart.so.13") or a path. Empty: the runtime's
  // default (libcudart.so / libamdhip64.so).
  std::string library;
  int index = 0;  // the device the runner uses (cudaSetDevice)
  // A synchronize waiting longer than this means work was pending (see Device::synchronize).
  int64_t idle_threshold_ns = 200000;
};

// Opens the runtime library, resolves its entry points and selects the device. Errors: the
// library is missing (Errc::kNotFound), lacks a symbol, or reports no device (the message
// carries the runtime's own words).
Result<std::unique_ptr<Device>> open_device(const DeviceOptions& options);

}  // namespace hpcab::runner
