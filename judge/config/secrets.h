// The judge's secret key (SPEC §5.3): 32 random bytes in a file created 0600 on first start.
// Seeds of every draw derive from it with HMAC-SHA256; it never enters a sandboxed process,
// a response or a log line.
#pragma once

#include <string>

#include "common/result.h"

namespace hpcab::judge {

// Loads the key, creating the file (and its directory, 0700) when absent. A key file readable
// by group or others is refused: it would let other local users predict hidden draws.
Result<std::string> load_or_create_key(const std::string& path);

}  // namespace hpcab::judge
