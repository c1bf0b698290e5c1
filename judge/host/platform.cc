#include "judge/host/platform.h"

#include <sys/utsname.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace hpcab::judge {

Platform host_platform(const std::vector<GpuDevice>& gpus) {
  Platform p;
  struct utsname u {};
  if (uname(&u) == 0) p.arch = u.machine;
  if (p.arch == "x86_64") {
    std::ifstream in("/proc/cpuinfo");
    std::stringstream text;
    text << in.rdbuf();
    p.isa_level = x86_isa_level(cpuinfo_flags(text.str()));
  }
  for (const auto& g : gpus) p.gpu_vendors.push_back(g.vendor);
  std::sort(p.gpu_vendors.begin(), p.gpu_vendors.end());
  p.gpu_vendors.erase(std::unique(p.gpu_vendors.begin(), p.gpu_vendors.end()), p.gpu_vendors.end());
  return p;
}

namespace {

// The value of a `key="value"` line, quotes removed; nullopt when the key is absent.
std::optional<std::string> containerenv_value(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key + "=", 0) != 0) continue;
    std::string v = line.substr(key.size() + 1);
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    return v;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ImageInfo> parse_containerenv(const std::string& text) {
  auto id = containerenv_value(text, "imageid");
  if (!id || id->empty()) return std::nullopt;
  auto digest = normalize_image_digest(*id);
  if (!digest) return std::nullopt;
  return ImageInfo{containerenv_value(text, "image").value_or(""), *digest};
}

Result<std::string> normalize_image_digest(const std::string& digest) {
  std::string hex = digest.rfind("sha256:", 0) == 0 ? digest.substr(7) : digest;
  std::transform(hex.begin(), hex.end(), hex.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const bool ok = hex.size() == 64 && std::all_of(hex.begin(), hex.end(), [](unsigned char c) {
                    return std::isxdigit(c) != 0;
                  });
  if (!ok) return Error{"image digest '" + digest + "' is not sha256:<64 hex digits>"};
  return "sha256:" + hex;
}

}  // namespace hpcab::judge
