// Portability of an answer to another judge (docs/regrade.md "Portability checks"): whether a
// recorded submission uses constructs of one machine that another judge cannot build or run, so a
// regrade there skips it with its reason instead of grading it wrong. Pure functions over the
// source text; no compiler runs.
//
// The rules read the source with comments and string literals removed (except the string of a
// `target(...)` attribute or pragma, which they read), so a construct named in a comment does not
// count. They are a conservative screen, not a proof: an answer they pass may still fail on the
// other judge, and then it is graded there like any other.
//
// Preprocessor guards count: code in an #if/#ifdef/#elif branch whose condition names a macro
// of one arch (__x86_64__, __AVX2__, __aarch64__, __ARM_NEON, ...) or one GPU vendor
// (__HIP_PLATFORM_AMD__, __AMDGCN__, __HIP_PLATFORM_HCC__; __CUDA_ARCH__,
// __HIP_PLATFORM_NVIDIA__, __HIP_PLATFORM_NVCC__) positively compiles only there, so it is no
// issue (the #else of a vendor guard counts as the other vendor's); code under #if 0 is none.
// A platform field the judge does not report (an empty arch, an x86 judge's empty isa_level)
// is unknown, and the rules that need it do not fire.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hpcab {

// A judge's platform as GET /health reports it ("platform": {"arch", "isa_level", "gpus"}).
struct Platform {
  std::string arch;       // uname machine: "x86_64", "aarch64", "ppc64le", ...
  std::string isa_level;  // x86-64: "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"; else ""
  // GPU vendors the judge grades on ("nvidia", "amd"); empty without a GPU.
  std::vector<std::string> gpu_vendors;
};

// Why an answer is not portable: a stable code (what programs branch on) and a sentence naming
// the construct and where it is (line numbers are 1-based in the original source).
struct PortabilityIssue {
  // x86_intrinsics: an x86 intrinsics header (immintrin.h, xmmintrin.h, x86intrin.h, cpuid.h,
  //   ...) or an x86 intrinsic/builtin (_mm_*, _mm256_*, _mm512_*, __builtin_ia32_*), on a
  //   judge whose arch is not x86_64.
  // arm_intrinsics: arm_neon.h, arm_sve.h, arm_acle.h or a NEON/SVE intrinsic (vld1q_*, sv*_),
  //   on a judge whose arch is not aarch64.
  // inline_asm: asm / __asm__ / asm volatile (C, C++, CUDA, HIP), on a judge whose arch differs
  //   from `from` (the judge the answer was recorded on); an empty template
  //   (`asm volatile("" ::: "memory")`, a compiler barrier) is portable. In CUDA or HIP device
  //   code (bodies after __global__/__device__, or vendor-guarded code) inline PTX/GCN asm
  //   counts as gpu_vendor_only instead (in CUDA the language rule covers it).
  // isa_level: a target attribute or pragma (`__attribute__((target("avx512f")))`,
  //   `#pragma GCC target("avx2")`, `target_clones` is fine) or a build token (-march=<cpu>,
  //   -mavx*, -mfma, -msse4*, -mavx512*) that needs an x86 ISA level above the judge's
  //   (avx/avx2/fma/bmi/f16c: x86-64-v3; avx512*: x86-64-v4; sse4/ssse3/popcnt: x86-64-v2), or
  //   any such x86 token on a non-x86 judge. -march=native and -mtune are portable (the judge
  //   builds for its own CPU). -march=<cpu> maps common CPU names to levels (haswell, znver3:
  //   v3; skylake-avx512, icelake-server, znver4: v4; nehalem: v2; x86-64-vN as named); an
  //   unknown name is taken to need x86-64-v4, and the message says so.
  // gpu_vendor_only: CUDA on a judge without an NVIDIA GPU; in HIP: AMD-only builtins and
  //   libraries (__builtin_amdgcn_*, __AMDGCN__/__HIP_PLATFORM_AMD__-only code paths are fine
  //   when guarded, unguarded amdgcn builtins, rocblas/rocprim/rocwmma/hipcub-amd headers,
  //   hipExtLaunchKernelGGL, __ockl_*/__ocml_*) on a judge without an AMD GPU, and CUDA-only calls
  //   (cuda* runtime calls, cublas/cufft/cusparse headers, inline PTX, __nv_* builtins) on a judge
  //   without an NVIDIA GPU; HIP on a judge without any GPU.
  std::string code;
  std::string message;
  int line = 0;  // 0 when the issue is not at one line (a build token, the language itself)
};

// At most this many issues per answer (one per code and line; line-0 issues one per message),
// sorted by line: enough to say why, short enough to store with a skipped regrade.
inline constexpr std::size_t kMaxPortabilityIssues = 20;

// The issues of one answer for a judge on `to`, recorded on a judge on `from`. `language` is the
// submission's (c, cpp, fortran, python, cuda, hip); `build_tokens` its build tokens as recorded.
// Empty when the answer is portable. Python and Fortran sources have no rule but the build
// tokens' (Fortran inline asm does not exist; Python is interpreted). Any other language is
// read as C.
std::vector<PortabilityIssue> portability_issues(const std::string& language,
                                                 const std::string& source,
                                                 const std::vector<std::string>& build_tokens,
                                                 const Platform& from, const Platform& to);

// The x86-64 ISA level of a CPU from its /proc/cpuinfo "flags" (space-separated): the highest of
// x86-64-v4 (avx512f avx512bw avx512cd avx512dq avx512vl and all of v3), x86-64-v3 (avx avx2
// bmi1 bmi2 f16c fma abm|lzcnt movbe xsave and all of v2), x86-64-v2 (cx16 lahf_lm popcnt
// sse4_1 sse4_2 ssse3 and the baseline) whose flags are all present, else "x86-64".
std::string x86_isa_level(const std::string& cpuinfo_flags);

// The "flags" line's value from /proc/cpuinfo text (the first processor's); "" when absent.
std::string cpuinfo_flags(const std::string& cpuinfo);

// Ordering of ISA levels: x86-64 < x86-64-v2 < x86-64-v3 < x86-64-v4; -1 for an unknown name.
int isa_level_rank(const std::string& level);

}  // namespace hpcab
