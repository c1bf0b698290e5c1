// GPU devices and toolchains: which GPUs this judge has (device nodes found under
// /dev, or the operator's explicit list), and the checks of the GPU target names the builder
// passes to nvcc and hipcc. Pure but for detect_gpus, which only lists a directory.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace hpcab::judge {

struct GpuDevice {
  std::string vendor;  // "nvidia" | "amd"
  std::string node;    // the device node a GPU run needs ("/dev/nvidia0", "/dev/dri/renderD128")
};

// The GPUs whose nodes exist under `dev` (normally "/dev"): every /dev/nvidia<N> (N decimal) is
// an NVIDIA GPU; with /dev/kfd present, every /dev/dri/renderD<N> is an AMD GPU (without kfd
// a render node is a display GPU ROCm cannot run on). Sorted by node; empty when none.
std::vector<GpuDevice> detect_gpus(const std::string& dev = "/dev");

// The vendor of an explicitly configured device node, or nullopt when `node` is none of the
// forms above (an absolute path under /dev; /dev/kfd itself is no GPU).
std::optional<std::string> gpu_vendor_of(const std::string& node);

// The setting gpu_devices resolved: ["auto"] detects under `dev`, ["none"] is no GPU, else
// each entry is a device node (gpu_vendor_of must know it). An Error names the entry.
Result<std::vector<GpuDevice>> resolve_gpu_devices(const std::vector<std::string>& setting,
                                                   const std::string& dev = "/dev");

// A CUDA target: sm_<digits>[a|f] (sm_90, sm_90a). A HIP target: an AMD gfx<hex digits>
// with optional :feature+/- suffixes (gfx90a, gfx942:xnack+), or such an sm_ target, which
// builds HIP for NVIDIA with the CUDA compiler (HIP's nvidia_detail headers).
bool valid_cuda_arch(const std::string& arch);
bool valid_hip_arch(const std::string& arch);
inline bool is_nvidia_arch(const std::string& arch) { return arch.rfind("sm_", 0) == 0; }

// The GPU target of a device, from what its driver reports ("-arch from the judge's
// device"). NVIDIA: nvidia-smi's compute_cap ("9.0" -> sm_90; a major >= 10 too: "10.0" ->
// sm_100). AMD: a KFD topology node's gfx_target_version (major*10000 + minor*100 + stepping,
// the stepping a hex digit: 90010 -> gfx90a, 90402 -> gfx942, 110000 -> gfx1100; 0 is a CPU
// node). nullopt for anything else.
std::optional<std::string> cuda_arch_from_compute_cap(const std::string& compute_cap);
std::optional<std::string> hip_arch_from_target_version(unsigned long version);

// The distinct targets of the AMD GPUs in the KFD topology under `topology` (normally
// /sys/class/kfd/kfd/topology/nodes: one directory per node, each with a `properties` file of
// "name value" lines), in node order; empty when there is none or it cannot be read.
std::vector<std::string> amd_gpu_archs(const std::string& topology);

// The distinct targets in `nvidia-smi --query-gpu=compute_cap --format=csv,noheader` output
// (one line per GPU), in order; lines that are not a compute capability are skipped.
std::vector<std::string> nvidia_gpu_archs(const std::string& smi_output);

// The targets a judge with `gpus` builds for: its devices' own when they can be read, else the
// configured lists unchanged. NVIDIA devices set cuda_archs and, as sm_ targets, hip_archs (HIP
// for NVIDIA); AMD devices set hip_archs. `nvidia_smi` returns nvidia-smi's output (an Error when
// it cannot be run); it is called only when there is an NVIDIA device. `log` gets one line per
// list it changed or could not derive.
struct GpuArchs {
  std::vector<std::string> cuda, hip;
};
GpuArchs device_gpu_archs(const std::vector<GpuDevice>& gpus, GpuArchs configured,
                          const std::string& amd_topology,
                          const std::function<Result<std::string>()>& nvidia_smi,
                          const std::function<void(const std::string&)>& log);

// A compiler setting resolved to the path the builder runs: a name without '/' is looked up in
// `path_dirs` (the first executable found), then in `fallbacks`; an absolute path as it is.
// Unresolved names stay as they are (the build then reports the toolchain missing).
std::string resolve_compiler(const std::string& setting, const std::vector<std::string>& path_dirs,
                             const std::vector<std::string>& fallbacks = {});

// True when `compiler` (as resolve_compiler returns it) names an executable file.
bool compiler_exists(const std::string& compiler);

}  // namespace hpcab::judge
