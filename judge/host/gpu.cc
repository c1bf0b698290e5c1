#include "judge/host/gpu.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace hpcab::judge {

namespace fs = std::filesystem;

namespace {

bool digits(const std::string& s, std::size_t from) {
  return s.size() > from && std::all_of(s.begin() + static_cast<std::ptrdiff_t>(from), s.end(),
                                        [](char c) { return c >= '0' && c <= '9'; });
}

bool executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> gpu_vendor_of(const std::string& node) {
  const fs::path p(node);
  const std::string name = p.filename().string();
  const std::string parent = p.parent_path().filename().string();
  if (!p.is_absolute()) return std::nullopt;
  if (name.rfind("nvidia", 0) == 0 && digits(name, 6)) return "nvidia";
  if (parent == "dri" && name.rfind("renderD", 0) == 0 && digits(name, 7)) return "amd";
  return std::nullopt;
}

std::optional<std::string> cuda_arch_from_compute_cap(const std::string& compute_cap) {
  std::string s = compute_cap;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(0, 1);
  const auto dot = s.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string major = s.substr(0, dot), minor = s.substr(dot + 1);
  if (major.empty() || minor.size() != 1 || major.size() > 2 || !digits(major, 0) ||
      !digits(minor, 0) || major[0] == '0') {
    return std::nullopt;
  }
  return "sm_" + major + minor;
}

std::optional<std::string> hip_arch_from_target_version(unsigned long version) {
  const unsigned long major = version / 10000, minor = version / 100 % 100, step = version % 100;
  if (major == 0 || minor > 9 || step > 15) return std::nullopt;
  static const char kHex[] = "0123456789abcdef";
  return "gfx" + std::to_string(major) + std::to_string(minor) + kHex[step];
}

namespace {

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

}  // namespace

std::vector<std::string> amd_gpu_archs(const std::string& topology) {
  std::vector<std::pair<long, std::string>> nodes;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(topology, ec)) {
    const std::string name = e.path().filename().string();
    if (!digits(name, 0)) continue;
    std::ifstream in(e.path() / "properties");
    std::string key;
    unsigned long value = 0;
    while (in >> key >> value) {
      if (key != "gfx_target_version") continue;
      if (auto arch = hip_arch_from_target_version(value))
        nodes.push_back({std::stol(name), *arch});
      break;
    }
  }
  std::sort(nodes.begin(), nodes.end());
  std::vector<std::string> out;
  for (const auto& [n, arch] : nodes) add_unique(out, arch);
  return out;
}

std::vector<std::string> nvidia_gpu_archs(const std::string& smi_output) {
  std::vector<std::string> out;
  std::istringstream in(smi_output);
  for (std::string line; std::getline(in, line);) {
    if (auto arch = cuda_arch_from_compute_cap(line)) add_unique(out, *arch);
  }
  return out;
}

GpuArchs device_gpu_archs(const std::vector<GpuDevice>& gpus, GpuArchs configured,
                          const std::string& amd_topology,
                          const std::function<Result<std::string>()>& nvidia_smi,
                          const std::function<void(const std::string&)>& log) {
  const auto has = [&gpus](const char* vendor) {
    return std::any_of(gpus.begin(), gpus.end(),
                       [vendor](const GpuDevice& g) { return g.vendor == vendor; });
  };
  auto joined = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  if (has("nvidia")) {
    auto out = nvidia_smi();
    std::vector<std::string> archs;
    if (out) archs = nvidia_gpu_archs(*out);
    if (archs.empty()) {
      log("GPU targets: cannot read the NVIDIA devices' compute capability (" +
          (out ? std::string("nvidia-smi printed none") : out.error().message) +
          "): building for the configured cuda_archs " + joined(configured.cuda));
    } else {
      log("GPU targets: the NVIDIA devices are " + joined(archs) +
          ": cuda and hip (for NVIDIA) build for them");
      configured.cuda = archs;
      configured.hip = archs;
    }
    // One vendor per toolchain: a judge with both kinds builds HIP for NVIDIA.
    return configured;
  }
  if (has("amd")) {
    auto archs = amd_gpu_archs(amd_topology);
    if (archs.empty()) {
      log("GPU targets: cannot read the AMD devices' targets under " + amd_topology +
          ": building for the configured hip_archs " + joined(configured.hip));
    } else {
      log("GPU targets: the AMD devices are " + joined(archs) + ": hip builds for them");
      configured.hip = archs;
    }
  }
  return configured;
}

std::vector<GpuDevice> detect_gpus(const std::string& dev) {
  std::vector<GpuDevice> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dev, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("nvidia", 0) == 0 && digits(name, 6)) out.push_back({"nvidia", e.path()});
  }
  if (fs::exists(fs::path(dev) / "kfd", ec)) {
    for (const auto& e : fs::directory_iterator(fs::path(dev) / "dri", ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("renderD", 0) == 0 && digits(name, 7)) out.push_back({"amd", e.path()});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const GpuDevice& a, const GpuDevice& b) { return a.node < b.node; });
  return out;
}

Result<std::vector<GpuDevice>> resolve_gpu_devices(const std::vector<std::string>& setting,
                                                   const std::string& dev) {
  if (setting.size() == 1 && setting[0] == "auto") return detect_gpus(dev);
  if (setting.size() == 1 && setting[0] == "none") return std::vector<GpuDevice>{};
  if (setting.empty()) {
    return Error{"gpu_devices must be \"auto\", \"none\" or a list of device nodes"};
  }
  std::vector<GpuDevice> out;
  for (const auto& node : setting) {
    auto vendor = gpu_vendor_of(node);
    if (!vendor) {
      return Error{"gpu_devices: '" + node +
                   "' is not a GPU device node (/dev/nvidia<N> or /dev/dri/renderD<N>); "
                   "\"auto\" and \"none\" stand alone"};
    }
    out.push_back({*vendor, node});
  }
  return out;
}

bool valid_cuda_arch(const std::string& a) {
  if (a.rfind("sm_", 0) != 0) return false;
  std::string num = a.substr(3);
  if (!num.empty() && (num.back() == 'a' || num.back() == 'f')) num.pop_back();
  return digits(num, 0) && num.size() <= 4;
}

bool valid_hip_arch(const std::string& a) {
  if (valid_cuda_arch(a)) return true;
  if (a.rfind("gfx", 0) != 0 || a.size() > 64) return false;
  const std::string target = a.substr(3, a.find(':') - 3);
  if (target.empty() || target.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return false;
  }
  // Features: ":xnack+", ":sramecc-".
  std::size_t pos = a.find(':');
  while (pos != std::string::npos) {
    const std::size_t next = a.find(':', pos + 1);
    const std::string f = a.substr(pos + 1, next == std::string::npos ? next : next - pos - 1);
    if (f.size() < 2 || (f.back() != '+' && f.back() != '-') ||
        f.find_first_not_of("abcdefghijklmnopqrstuvwxyz", 0) != f.size() - 1) {
      return false;
    }
    pos = next;
  }
  return true;
}

std::string resolve_compiler(const std::string& setting, const std::vector<std::string>& path_dirs,
                             const std::vector<std::string>& fallbacks) {
  if (setting.find('/') != std::string::npos) return setting;
  for (const auto& d : path_dirs) {
    if (!d.empty() && executable(fs::path(d) / setting)) return (fs::path(d) / setting).string();
  }
  for (const auto& f : fallbacks) {
    if (executable(f)) return f;
  }
  return setting;
}

bool compiler_exists(const std::string& compiler) {
  return compiler.find('/') != std::string::npos && executable(compiler);
}

}  // namespace hpcab::judge
