// What a judge runs on, as GET /health and the machine fingerprint report it: the architecture
// and ISA level (common/portability.h's Platform, which a regrade checks answers against) and the
// container image it was started from. Pure parsing plus thin readers of /proc and /run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/portability.h"
#include "common/result.h"
#include "judge/host/gpu.h"

namespace hpcab::judge {

// This host: uname's machine, the x86-64 ISA level from /proc/cpuinfo's flags ("" elsewhere),
// the vendors of `gpus` (sorted, distinct).
Platform host_platform(const std::vector<GpuDevice>& gpus);

// The image a judge runs from. Both empty outside one.
struct ImageInfo {
  std::string name;    // e.g. "localhost/hpcab-judge:latest"
  std::string digest;  // "sha256:<64 lowercase hex>"
};

// The image named by podman's /run/.containerenv text (`image="..."`, `imageid="..."` lines);
// nullopt when the text names no image id.
std::optional<ImageInfo> parse_containerenv(const std::string& text);

// "sha256:<64 hex>" or a bare 64-hex image id -> "sha256:<64 lowercase hex>"; an Error otherwise.
Result<std::string> normalize_image_digest(const std::string& digest);

}  // namespace hpcab::judge
