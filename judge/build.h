// Building submissions and baselines (SPEC §5.1): a fixed flag matrix per language and baseline
// flavor, compilation inside the sandbox with a time limit and a cap on captured output, and a
// content-hash cache (language + flavor + source + build tokens + flags + compiler version).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "judge/request.h"  // known_language, validate_build_tokens (pure checks of client bytes)
#include "judge/sandbox.h"

namespace hpcab::judge {

struct BuildRequest {
  std::string language = "c";         // c | cpp | fortran
  std::string flavor = "submission";  // submission | c (sequential baseline) | c-autopar
  std::string source;
  std::vector<std::string> tokens;
};

struct BuildResult {
  bool ok = false;
  bool timed_out = false;
  bool cached = false;
  std::string library;  // path of the built .so (in the cache) when ok
  std::string log;      // compiler output, capped
  std::string hash;     // the cache key
  double seconds = 0;
};

struct BuildSettings {
  std::string cache_dir;    // judge-private (inside the state dir)
  std::string scratch_dir;  // sandbox work dirs
  double timeout_s = 60;
  std::size_t log_cap = 64 << 10;
  uint64_t memory_bytes = uint64_t{4} << 30;
  uint64_t nproc = 256;
  int autopar_threads = 2;  // -ftree-parallelize-loops for the c-autopar baseline
};

class Builder {
 public:
  Builder(BuildSettings settings, SandboxPolicy policy);
  Result<BuildResult> build(const BuildRequest& request);
  // The compiler command line (without output/input files) for a language and flavor.
  std::vector<std::string> flags(const std::string& language, const std::string& flavor) const;
  // "gcc (Debian 12.2.0-14) 12.2.0" etc.; part of every cache key and of the machine record.
  std::string compiler_version(const std::string& language);

 private:
  BuildSettings settings_;
  SandboxPolicy policy_;
  std::mutex mu_;  // guards versions_
  std::map<std::string, std::string> versions_;
};

}  // namespace hpcab::judge
