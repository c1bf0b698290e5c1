// Building submissions and baselines (SPEC §5.1): a fixed flag matrix per language and baseline
// flavor, compilation inside the sandbox with a time limit and a cap on captured output, and a
// content-hash cache (language + flavor + source + build tokens + flags + compiler version).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "judge/build/languages.h"
#include "judge/build/request.h"
#include "judge/sandbox/sandbox.h"

namespace hpcab::judge {

struct BuildSettings {
  std::string cache_dir;    // judge-private (inside the state dir)
  std::string scratch_dir;  // sandbox work dirs
  double timeout_s = 60;
  std::size_t log_cap = 64 << 10;
  uint64_t memory_bytes = uint64_t{4} << 30;
  uint64_t nproc = 256;
  int autopar_threads = 2;                  // -ftree-parallelize-loops for the c-autopar baseline
  std::string python = "/usr/bin/python3";  // the interpreter hpcab-pyrunner embeds
  // GPU languages (JudgeConfig's GPU block, resolved by its finalize()): the compilers and
  // the targets every build is made for.
  std::string cuda_compiler = "/usr/local/cuda/bin/nvcc";
  std::string hip_compiler = "/usr/bin/hipcc";
  std::vector<std::string> cuda_archs = {"sm_90"};
  std::vector<std::string> hip_archs = {"gfx90a"};
};

// The module text of a Python build: the source as it is for `submission` and `numpy`; for
// `numba` / `numba-parallel` the source followed by a rebinding of `function` under
// numba.njit (with parallel=True), so the kernel's own module is what is jitted (pure).
std::string python_module_text(const BuildRequest& request);

// The BLAS named in a machine fingerprint (its Python part: "..., blas OpenBLAS 0.3.21 (Zen,
// openblas-pthread) | ..."), or "unknown" when it names none.
std::string blas_in_fingerprint(const std::string& fingerprint);

class Builder {
 public:
  Builder(BuildSettings settings, SandboxPolicy policy);
  Result<BuildResult> build(const BuildRequest& request);
  // The compiler command line (without output/input files) for a language and flavor. For
  // cuda and hip it ends with the target flags of cuda_archs / hip_archs (GPU flag matrix,
  // docs/grading.md "GPU languages").
  std::vector<std::string> flags(const std::string& language, const std::string& flavor) const;
  // "gcc (Debian 12.2.0-14) 12.2.0" etc.; part of every cache key and of the machine record.
  // For python: the interpreter with the NumPy and Numba versions and the BLAS alternative
  // ("Python 3.11.2, numpy 1.24.2, numba 0.56.4, blas blas"): a baseline timed under one is
  // never reused under another.
  std::string compiler_version(const std::string& language);
  // The setting that names `language`'s compiler ("cuda_compiler", "hip_compiler"); empty for
  // the CPU languages, whose compilers are part of the judge's installation.
  static const char* compiler_setting(const std::string& language, const BuildSettings& s);

 private:
  BuildSettings settings_;
  SandboxPolicy policy_;
  std::mutex mu_;  // guards versions_
  std::map<std::string, std::string> versions_;
};

}  // namespace hpcab::judge
