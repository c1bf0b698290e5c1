#include "judge/gpu.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

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
