#include "judge/runner/residency.h"

#include <algorithm>
#include <cstring>

namespace hpcab::runner {

namespace proto = hpcab::runner_protocol;

const char* residency_name(Residency r) { return r == Residency::kDevice ? "device" : "host"; }

Result<Residency> parse_residency(const std::string& text) {
  if (text == "host") return Residency::kHost;
  if (text == "device") return Residency::kDevice;
  return Error{"unknown residency '" + text + "' (host or device)", Errc::kInvalid};
}

namespace {

constexpr std::size_t kAlign = 256;  // what both runtimes guarantee for their allocations

std::size_t rounded_size(std::size_t bytes) {
  const std::size_t r = (bytes + kAlign - 1) / kAlign * kAlign;
  return r == 0 ? kAlign : r;
}

// First differing byte of two buffers, or n when equal.
std::size_t first_difference(const unsigned char* a, const unsigned char* b, std::size_t n) {
  std::size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

}  // namespace

Result<DeviceArrays::Buffer> DeviceArrays::allocate(const DeviceBufferSpec& spec) {
  Buffer b;
  b.spec = spec;
  b.rounded = rounded_size(spec.bytes);
  auto p = device_.malloc(b.rounded + 2 * kGuardBytes);
  if (!p) return p.error();
  b.base = static_cast<unsigned char*>(*p);
  if (auto st = fill_guards(b); !st) {
    (void)device_.free(b.base);
    return st.error();
  }
  return b;
}

// The leading guard, and the trailing one including the rounding pad after the data.
Status DeviceArrays::fill_guards(const Buffer& b) {
  if (auto st = device_.memset(b.base, kGuardByte, kGuardBytes); !st) return st;
  unsigned char* tail = b.base + kGuardBytes + b.spec.bytes;
  return device_.memset(tail, kGuardByte, b.rounded - b.spec.bytes + kGuardBytes);
}

Result<std::optional<int64_t>> DeviceArrays::guard_violation(const Buffer& b) {
  std::vector<unsigned char> head(kGuardBytes), tail(b.rounded - b.spec.bytes + kGuardBytes);
  if (auto st = device_.copy_to_host(head.data(), b.base, head.size()); !st) return st.error();
  if (auto st = device_.copy_to_host(tail.data(), b.base + kGuardBytes + b.spec.bytes, tail.size());
      !st) {
    return st.error();
  }
  // Nearest damaged byte first, as for host arrays.
  for (std::size_t i = 1; i <= kGuardBytes; ++i) {
    if (head[kGuardBytes - i] != kGuardByte)
      return std::optional<int64_t>(-static_cast<int64_t>(i));
  }
  for (std::size_t i = 0; i < tail.size(); ++i) {
    if (tail[i] != kGuardByte) return std::optional<int64_t>(static_cast<int64_t>(i));
  }
  return std::optional<int64_t>();
}

Result<std::unique_ptr<DeviceArrays>> DeviceArrays::create(Device& device,
                                                           std::vector<DeviceBufferSpec> arrays,
                                                           std::size_t workspace_bytes) {
  std::unique_ptr<DeviceArrays> d(new DeviceArrays(device));
  for (const auto& spec : arrays) {
    auto b = d->allocate(spec);
    if (!b) return b.error();
    d->data_[spec.name] = b->base + kGuardBytes;
    d->buffers_.push_back(*b);
  }
  d->workspace_bytes_ = workspace_bytes;
  auto ws = d->allocate({kWorkspaceName, Intent::kOut, workspace_bytes});
  if (!ws) return ws.error();
  d->workspace_ = ws->base + kGuardBytes;
  d->buffers_.push_back(*ws);
  return d;
}

DeviceArrays::~DeviceArrays() {
  for (const auto& b : buffers_) (void)device_.free(b.base);
}

Status DeviceArrays::stage(const std::map<std::string, const void*>& host_inputs) {
  for (const auto& b : buffers_) {
    unsigned char* data = b.base + kGuardBytes;
    const bool workspace = data == workspace_;
    if (workspace) {
      if (auto st = device_.memset(data, 0, b.spec.bytes); !st) return st;
    } else if (b.spec.intent == Intent::kOut) {
      // Poisoned, so a kernel that skips elements (or relies on the previous call's answer
      // still being there) produces garbage instead of a right answer.
      if (auto st = device_.memset(data, 0xff, b.spec.bytes); !st) return st;
    } else {
      auto it = host_inputs.find(b.spec.name);
      if (it == host_inputs.end()) {
        return Error{"no host data for device input '" + b.spec.name + "'", Errc::kInvalid};
      }
      if (auto st = device_.copy_to_device(data, it->second, b.spec.bytes); !st) return st;
    }
    if (auto st = fill_guards(b); !st) return st;
  }
  auto pending = device_.synchronize();
  if (!pending) return pending.error();
  if (*pending) left_running_ = true;
  return Ok{};
}

Status DeviceArrays::copy_out(const std::map<std::string, void*>& host_outputs) {
  for (const auto& b : buffers_) {
    if (b.spec.intent == Intent::kIn || b.base + kGuardBytes == workspace_) continue;
    auto it = host_outputs.find(b.spec.name);
    if (it == host_outputs.end()) {
      return Error{"no host buffer for device output '" + b.spec.name + "'", Errc::kInvalid};
    }
    if (auto st = device_.copy_to_host(it->second, b.base + kGuardBytes, b.spec.bytes); !st) {
      return st;
    }
  }
  return Ok{};
}

Result<DeviceFinding> DeviceArrays::check(const std::map<std::string, const void*>& inputs,
                                          const std::map<std::string, const void*>& copied_out) {
  auto pending = device_.synchronize();
  if (!pending) return pending.error();
  if (*pending) left_running_ = true;
  if (left_running_) {
    left_running_ = false;  // reported once
    return DeviceFinding{proto::PostProblem::kRunning, "(device)", "pending"};
  }
  std::vector<unsigned char> scratch;
  auto compare = [&](const Buffer& b, const void* expected) -> Result<std::optional<std::size_t>> {
    scratch.resize(b.spec.bytes);
    if (auto st = device_.copy_to_host(scratch.data(), b.base + kGuardBytes, b.spec.bytes); !st) {
      return st.error();
    }
    const std::size_t i =
        first_difference(scratch.data(), static_cast<const unsigned char*>(expected), b.spec.bytes);
    if (i == b.spec.bytes) return std::optional<std::size_t>();
    return std::optional<std::size_t>(i / std::max<std::size_t>(b.spec.element_bytes, 1));
  };
  for (const auto& b : buffers_) {
    if (b.spec.intent != Intent::kIn || b.base + kGuardBytes == workspace_) continue;
    auto it = inputs.find(b.spec.name);
    if (it == inputs.end()) continue;
    auto diff = compare(b, it->second);
    if (!diff) return diff.error();
    if (*diff)
      return DeviceFinding{proto::PostProblem::kConst, b.spec.name, std::to_string(**diff)};
  }
  for (const auto& b : buffers_) {
    auto off = guard_violation(b);
    if (!off) return off.error();
    if (*off) return DeviceFinding{proto::PostProblem::kGuard, b.spec.name, std::to_string(**off)};
  }
  for (const auto& b : buffers_) {
    if (b.spec.intent == Intent::kIn || b.base + kGuardBytes == workspace_) continue;
    auto it = copied_out.find(b.spec.name);
    if (it == copied_out.end()) continue;
    auto diff = compare(b, it->second);
    if (!diff) return diff.error();
    if (*diff) return DeviceFinding{proto::PostProblem::kLate, b.spec.name, std::to_string(**diff)};
  }
  return DeviceFinding{};
}

Result<int64_t> timed_gpu_call(Device& device, Residency residency,
                               const std::function<void()>& call,
                               const std::function<int64_t()>& now) {
  const int64_t t0 = now();
  call();
  if (residency == Residency::kDevice) {
    // Inside the clock: the call is over when the device is done, not when the launch returns.
    auto pending = device.synchronize();
    if (!pending) return pending.error();
  }
  const int64_t t1 = now();
  return t1 - t0;
}

}  // namespace hpcab::runner
