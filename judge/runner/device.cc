#include "judge/runner/device.h"

#include <dlfcn.h>

#include <ctime>
#include <vector>

namespace hpcab::runner {

const char* gpu_runtime_name(GpuRuntime r) {
  switch (r) {
    case GpuRuntime::kNone:
      return "none";
    case GpuRuntime::kCuda:
      return "cuda";
    case GpuRuntime::kHip:
      return "hip";
  }
  return "none";
}

Result<GpuRuntime> parse_gpu_runtime(const std::string& text) {
  if (text == "none") return GpuRuntime::kNone;
  if (text == "cuda") return GpuRuntime::kCuda;
  if (text == "hip") return GpuRuntime::kHip;
  return Error{"unknown GPU runtime '" + text + "' (none, cuda or hip)", Errc::kInvalid};
}

namespace {

int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// The runtime API's C entry points. CUDA and HIP share their shapes (an int status, 0 for
// success; memcpy kinds 1 = host to device, 2 = device to host in both), so one table serves
// both, filled from the prefix "cuda" or "hip".
struct Api {
  int (*malloc)(void**, std::size_t) = nullptr;
  int (*free)(void*) = nullptr;
  int (*memcpy)(void*, const void*, std::size_t, int) = nullptr;
  int (*memset)(void*, int, std::size_t) = nullptr;
  int (*synchronize)() = nullptr;
  int (*get_last_error)() = nullptr;
  const char* (*error_string)(int) = nullptr;
  int (*device_count)(int*) = nullptr;
  int (*set_device)(int) = nullptr;
  int (*properties)(void*, int) = nullptr;  // the struct starts with char name[256] in both
};

constexpr int kHostToDevice = 1;
constexpr int kDeviceToHost = 2;

class RuntimeDevice : public Device {
 public:
  RuntimeDevice(void* handle, Api api, std::string prefix, int64_t idle_ns)
      : handle_(handle), api_(api), prefix_(std::move(prefix)), idle_ns_(idle_ns) {}
  ~RuntimeDevice() override {
    // The runtime stays loaded: unloading it under live contexts is undefined in both runtimes,
    // and the process ends soon after anyway.
    (void)handle_;
  }

  Result<void*> malloc(std::size_t bytes) override {
    void* p = nullptr;
    if (auto st = check(api_.malloc(&p, bytes), "Malloc"); !st) return st.error();
    return p;
  }
  Status free(void* p) override { return check(api_.free(p), "Free"); }
  Status copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    return check(api_.memcpy(dst, src, bytes, kHostToDevice), "Memcpy (to device)");
  }
  Status copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    return check(api_.memcpy(dst, src, bytes, kDeviceToHost), "Memcpy (to host)");
  }
  Status memset(void* dst, int value, std::size_t bytes) override {
    return check(api_.memset(dst, value, bytes), "Memset");
  }
  Result<bool> synchronize() override {
    const int64_t t0 = now_ns();
    if (auto st = check(api_.synchronize(), "DeviceSynchronize"); !st) return st.error();
    return now_ns() - t0 > idle_ns_;
  }
  Status last_error() override { return check(api_.get_last_error(), "GetLastError"); }
  Result<int> count() override {
    int n = 0;
    if (auto st = check(api_.device_count(&n), "GetDeviceCount"); !st) return st.error();
    return n;
  }
  Result<std::string> name(int index) override {
    if (api_.properties == nullptr) return std::string("(unnamed)");
    // Larger than either runtime's property struct in any version seen (about 1 KiB); only
    // the leading name is read.
    std::vector<char> props(64 << 10, 0);
    if (auto st = check(api_.properties(props.data(), index), "GetDeviceProperties"); !st) {
      return st.error();
    }
    props[255] = 0;
    return std::string(props.data());
  }
  Status select(int index) { return check(api_.set_device(index), "SetDevice"); }

 private:
  Status check(int rc, const char* what) const {
    if (rc == 0) return Ok{};
    const char* text = api_.error_string != nullptr ? api_.error_string(rc) : nullptr;
    return Error{prefix_ + what + " failed (" + std::to_string(rc) +
                 "): " + (text != nullptr ? text : "unknown error")};
  }
  void* handle_;
  Api api_;
  std::string prefix_;
  int64_t idle_ns_;
};

template <typename F>
bool resolve(void* handle, const std::string& name, F& out) {
  out = reinterpret_cast<F>(dlsym(handle, name.c_str()));
  return out != nullptr;
}

}  // namespace

Result<std::unique_ptr<Device>> open_device(const DeviceOptions& o) {
  if (o.runtime == GpuRuntime::kNone) {
    return Error{"open_device: no GPU runtime requested", Errc::kInvalid};
  }
  const bool cuda = o.runtime == GpuRuntime::kCuda;
  const std::string lib = !o.library.empty() ? o.library : cuda ? "libcudart.so" : "libamdhip64.so";
  void* h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* e = dlerror();
    return Error{"cannot load the " + std::string(gpu_runtime_name(o.runtime)) + " runtime " + lib +
                     ": " + (e != nullptr ? e : "dlopen failed"),
                 Errc::kNotFound};
  }
  const std::string p = cuda ? "cuda" : "hip";
  Api api;
  bool ok = resolve(h, p + "Malloc", api.malloc) && resolve(h, p + "Free", api.free) &&
            resolve(h, p + "Memcpy", api.memcpy) && resolve(h, p + "Memset", api.memset) &&
            resolve(h, p + "DeviceSynchronize", api.synchronize) &&
            resolve(h, p + "GetLastError", api.get_last_error) &&
            resolve(h, p + "GetErrorString", api.error_string) &&
            resolve(h, p + "GetDeviceCount", api.device_count) &&
            resolve(h, p + "SetDevice", api.set_device);
  if (!ok) {
    return Error{lib + " lacks a " + p + " runtime entry point the runner needs", Errc::kNotFound};
  }
  // Versioned names first (CUDA 12+, ROCm 6+ export the current struct layout under these).
  (void)(resolve(h, p + "GetDeviceProperties_v2", api.properties) ||
         resolve(h, p + "GetDevicePropertiesR0600", api.properties) ||
         resolve(h, p + "GetDeviceProperties", api.properties));
  auto dev = std::make_unique<RuntimeDevice>(h, api, p, o.idle_threshold_ns);
  auto n = dev->count();
  if (!n) return n.error();
  if (*n <= o.index) {
    return Error{"the " + p + " runtime reports " + std::to_string(*n) + " device(s); device " +
                     std::to_string(o.index) + " requested",
                 Errc::kNotFound};
  }
  if (auto st = dev->select(o.index); !st) return st.error();
  return std::unique_ptr<Device>(std::move(dev));
}

}  // namespace hpcab::runner
