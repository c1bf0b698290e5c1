// The portability screen (common/portability.h) over crafted sources: each rule and code, the
// constructs it must not count (comments, strings, guarded code), line numbers and messages,
// and the ISA level of /proc/cpuinfo flags.
#include "common/portability.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hpcab {
namespace {

const Platform kX86V3{"x86_64", "x86-64-v3", {}};
const Platform kX86V2{"x86_64", "x86-64-v2", {}};
const Platform kX86V4{"x86_64", "x86-64-v4", {}};
const Platform kArm{"aarch64", "", {}};
const Platform kNvidia{"x86_64", "x86-64-v3", {"nvidia"}};
const Platform kAmd{"x86_64", "x86-64-v3", {"amd"}};

std::vector<PortabilityIssue> issues(const std::string& language, const std::string& source,
                                     const Platform& from, const Platform& to,
                                     const std::vector<std::string>& tokens = {}) {
  return portability_issues(language, source, tokens, from, to);
}

// The issues' "code@line" in order, for compact expectations.
std::vector<std::string> codes(const std::vector<PortabilityIssue>& list) {
  std::vector<std::string> out;
  for (const PortabilityIssue& i : list) out.push_back(i.code + "@" + std::to_string(i.line));
  return out;
}

using Codes = std::vector<std::string>;

const char* const kAvxKernel = R"(#include <immintrin.h>
void add(int n, double* a, const double* b) {
  for (int i = 0; i < n; i += 4) {
    __m256d x = _mm256_loadu_pd(b + i);
    _mm256_storeu_pd(a + i, x);
  }
}
)";

TEST(PortabilityX86, HeaderAndIntrinsicsSkippedOnAarch64) {
  const auto list = issues("c", kAvxKernel, kX86V3, kArm);
  EXPECT_EQ(codes(list), (Codes{"x86_intrinsics@1", "x86_intrinsics@4", "x86_intrinsics@5"}));
  EXPECT_NE(list[0].message.find("immintrin.h"), std::string::npos) << list[0].message;
  EXPECT_NE(list[0].message.find("aarch64"), std::string::npos) << list[0].message;
  EXPECT_NE(list[1].message.find("__m256d"), std::string::npos) << list[1].message;
  EXPECT_NE(list[2].message.find("_mm256_storeu_pd"), std::string::npos) << list[2].message;
}

TEST(PortabilityX86, PortableOnX86Judge) {
  EXPECT_TRUE(issues("c", kAvxKernel, kX86V3, kX86V3).empty());
  EXPECT_TRUE(issues("cpp", kAvxKernel, kX86V4, kX86V2).empty());
}

TEST(PortabilityX86, EveryListedHeaderAndQuotedInclude) {
  for (const char* h : {"xmmintrin.h", "emmintrin.h", "x86intrin.h", "cpuid.h", "avx512fintrin.h",
                        "fmaintrin.h", "ammintrin.h"}) {
    const auto list = issues("c", std::string("int x;\n#include <") + h + ">\n", kX86V3, kArm);
    EXPECT_EQ(codes(list), (Codes{"x86_intrinsics@2"})) << h;
  }
  EXPECT_EQ(codes(issues("c", "#  include \"immintrin.h\"\n", kX86V3, kArm)),
            (Codes{"x86_intrinsics@1"}));
}

TEST(PortabilityX86, BuiltinsAndOtherWidths) {
  const std::string src =
      "void f(float* p) {\n"
      "  __builtin_ia32_pause();\n"
      "  _mm_prefetch((const char*)p, 3);\n"
      "  __m512 z = _mm512_setzero_ps(); (void)z;\n"
      "}\n";
  EXPECT_EQ(codes(issues("c", src, kX86V4, kArm)),
            (Codes{"x86_intrinsics@2", "x86_intrinsics@3", "x86_intrinsics@4"}));
}

TEST(PortabilityX86, CommentsAndStringsDoNotCount) {
  const std::string src =
      "// #include <immintrin.h> and _mm256_add_pd(a, b)\n"
      "/* asm volatile(\"nop\");\n"
      "   _mm512_add_pd */\n"
      "const char* s = \"_mm256_add_pd(x) asm(\\\"nop\\\") #include <immintrin.h>\";\n"
      "const char* r = R\"x(__builtin_ia32_pause() \" )\" )x\";\n"
      "char c = '_'; int million = 1'000'000;\n"
      "int g(void) { return 0; }\n";
  EXPECT_TRUE(issues("cpp", src, kX86V3, kArm).empty());
}

TEST(PortabilityX86, ArchGuardedCodeIsFine) {
  const std::string src =
      "#if defined(__x86_64__) && defined(__AVX2__)\n"
      "#include <immintrin.h>\n"
      "static void f(void) { _mm256_zeroupper(); }\n"
      "#elif defined(__aarch64__)\n"
      "#include <arm_neon.h>\n"
      "#endif\n"
      "#if 0\n"
      "_mm_pause();\n"
      "#endif\n"
      "#ifdef __SSE2__\n"
      "static void g(void) { _mm_pause(); }\n"
      "#else\n"
      "static void g(void) { _mm_pause(); }\n"
      "#endif\n";
  EXPECT_EQ(codes(issues("c", src, kX86V3, kArm)), (Codes{"x86_intrinsics@13"}));
  EXPECT_TRUE(issues("c", src, kArm, kX86V3).empty());
}

TEST(PortabilityArm, HeadersAndIntrinsicsOnX86) {
  const std::string src =
      "#include <arm_neon.h>\n"
      "#include <arm_sve.h>\n"
      "void f(int n, float* a) {\n"
      "  float32x4_t v = vld1q_f32(a);\n"
      "  vst1q_f32(a, vaddq_f32(v, v));\n"
      "  svbool_t pg = svwhilelt_b64(0, n);\n"
      "  svfloat64_t x = svld1_f64(pg, (double*)a);\n"
      "  int vec_f32 = 0; (void)vec_f32;\n"
      "}\n";
  const auto list = issues("c", src, kArm, kX86V3);
  EXPECT_EQ(codes(list), (Codes{"arm_intrinsics@1", "arm_intrinsics@2", "arm_intrinsics@4",
                                "arm_intrinsics@5", "arm_intrinsics@6", "arm_intrinsics@7"}));
  EXPECT_NE(list[0].message.find("arm_neon.h"), std::string::npos) << list[0].message;
  EXPECT_NE(list[0].message.find("x86_64"), std::string::npos) << list[0].message;
  EXPECT_NE(list[2].message.find("float32x4_t"), std::string::npos) << list[2].message;
  EXPECT_TRUE(issues("c", src, kArm, kArm).empty());
}

TEST(PortabilityArm, AcleAndGuards) {
  EXPECT_EQ(codes(issues("c", "#include <arm_acle.h>\n", kArm, kX86V3)),
            (Codes{"arm_intrinsics@1"}));
  const std::string guarded =
      "#ifdef __ARM_NEON\n#include <arm_neon.h>\nfloat64x2_t v;\n#endif\n"
      "#ifndef __aarch64__\nint scalar;\n#else\nuint8x16_t w;\n#endif\n";
  EXPECT_TRUE(issues("c", guarded, kArm, kX86V3).empty());
}

TEST(PortabilityAsm, DiffersFromRecordingArch) {
  const std::string src =
      "static inline unsigned long long ticks(void) {\n"
      "  unsigned lo, hi;\n"
      "  __asm__ __volatile__(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi));\n"
      "  asm volatile(\"pause\" ::: \"memory\");\n"
      "  asm goto(\"jmp %l0\" :::: out);\n"
      "out:\n"
      "  __asm { nop }\n"
      "  return ((unsigned long long)hi << 32) | lo;\n"
      "}\n";
  const auto list = issues("c", src, kX86V3, kArm);
  EXPECT_EQ(codes(list), (Codes{"inline_asm@3", "inline_asm@4", "inline_asm@5", "inline_asm@7"}));
  EXPECT_NE(list[0].message.find("__asm__"), std::string::npos) << list[0].message;
  EXPECT_NE(list[0].message.find("x86_64"), std::string::npos) << list[0].message;
  EXPECT_NE(list[0].message.find("aarch64"), std::string::npos) << list[0].message;
  EXPECT_NE(list[1].message.find("asm"), std::string::npos) << list[1].message;
}

TEST(PortabilityAsm, SameArchIsFine) {
  const std::string src = "void f(void) { asm volatile(\"nop\"); }\n";
  EXPECT_TRUE(issues("c", src, kX86V3, kX86V2).empty());
  EXPECT_TRUE(issues("cpp", src, kArm, kArm).empty());
  EXPECT_EQ(codes(issues("cpp", src, kArm, kX86V3)), (Codes{"inline_asm@1"}));
}

TEST(PortabilityAsm, NotAStatementAndGuarded) {
  const std::string src =
      "int asm_count = 0;\n"
      "int my_asm(int x);\n"
      "int casm = my_asm(1);\n"
      "void barrier(void) { __asm__ __volatile__(\"\" \"\" ::: \"memory\"); }\n"
      "#ifdef __x86_64__\n"
      "void f(void) { asm(\"pause\"); }\n"
      "#endif\n";
  EXPECT_TRUE(issues("c", src, kX86V3, kArm).empty());
}

TEST(PortabilityAsm, UnknownArchDoesNotFire) {
  const std::string src = "void f(void) { asm(\"nop\"); }\n";
  EXPECT_TRUE(issues("c", src, Platform{}, kArm).empty());
  EXPECT_TRUE(issues("c", src, kX86V3, Platform{}).empty());
}

TEST(PortabilityIsa, TargetAttributeAbove) {
  const std::string src =
      "int x;\n"
      "__attribute__((target(\"avx512f\"))) void f(void) {}\n"
      "[[gnu::target(\"avx2,fma\")]] void g(void) {}\n";
  const auto list = issues("c", src, kX86V4, kX86V3);
  EXPECT_EQ(codes(list), (Codes{"isa_level@2"}));
  EXPECT_NE(list[0].message.find("avx512f"), std::string::npos) << list[0].message;
  EXPECT_NE(list[0].message.find("x86-64-v4"), std::string::npos) << list[0].message;
  EXPECT_NE(list[0].message.find("x86-64-v3"), std::string::npos) << list[0].message;
  EXPECT_TRUE(issues("c", src, kX86V4, kX86V4).empty());
  EXPECT_EQ(codes(issues("c", src, kX86V4, kX86V2)), (Codes{"isa_level@2", "isa_level@3"}));
}

TEST(PortabilityIsa, PragmasAndArchAttribute) {
  const std::string src =
      "#pragma GCC push_options\n"
      "#pragma GCC target(\"avx2\")\n"
      "void f(void) {}\n"
      "#pragma GCC pop_options\n"
      "#pragma clang attribute push (__attribute__((target(\"avx512bw\"))), apply_to=function)\n"
      "__attribute__((target(\"arch=skylake-avx512\"))) void g(void) {}\n"
      "__attribute__((target(\"sse4.2\", \"popcnt\"))) void h(void) {}\n";
  EXPECT_EQ(codes(issues("c", src, kX86V4, kX86V2)),
            (Codes{"isa_level@2", "isa_level@5", "isa_level@6"}));
  EXPECT_EQ(codes(issues("c", src, kX86V4, kX86V3)), (Codes{"isa_level@5", "isa_level@6"}));
  EXPECT_EQ(codes(issues("c", src, kX86V4, kArm)),
            (Codes{"isa_level@2", "isa_level@5", "isa_level@6", "isa_level@7"}));
}

TEST(PortabilityIsa, TargetClonesCommentsAndNonX86TargetsAreFine) {
  const std::string src =
      "__attribute__((target_clones(\"avx512f\", \"avx2\", \"default\"))) void f(void) {}\n"
      "// __attribute__((target(\"avx512f\")))\n"
      "const char* s = \"target(\\\"avx512f\\\")\";\n"
      "__attribute__((target(\"+sve\"))) void g(void) {}\n"
      "__attribute__((target(\"no-avx512f,tune=icelake-server\"))) void h(void) {}\n"
      "#pragma omp target teams\n";
  EXPECT_TRUE(issues("c", src, kX86V4, kX86V2).empty());
}

TEST(PortabilityIsa, BuildTokens) {
  const std::string src = "int f(void) { return 0; }\n";
  const auto v2 = issues("c", src, kX86V3, kX86V2, {"-O3", "-mavx2", "-DTILE=64"});
  EXPECT_EQ(codes(v2), (Codes{"isa_level@0"}));
  EXPECT_NE(v2[0].message.find("-mavx2"), std::string::npos) << v2[0].message;
  EXPECT_NE(v2[0].message.find("x86-64-v2"), std::string::npos) << v2[0].message;
  EXPECT_TRUE(issues("c", src, kX86V3, kX86V3, {"-mavx2", "-mfma", "-msse4.2"}).empty());
  EXPECT_TRUE(
      issues("c", src, kX86V4, kX86V2, {"-march=native", "-mtune=skylake-avx512", "-mno-avx"})
          .empty());
  const auto sky = issues("c", src, kX86V4, kX86V3, {"-march=skylake-avx512"});
  EXPECT_EQ(codes(sky), (Codes{"isa_level@0"}));
  EXPECT_NE(sky[0].message.find("-march=skylake-avx512"), std::string::npos) << sky[0].message;
  // Distinct tokens are distinct issues, even at line 0.
  EXPECT_EQ(codes(issues("c", src, kX86V4, kX86V2, {"-mavx512f", "-mfma"})),
            (Codes{"isa_level@0", "isa_level@0"}));
}

TEST(PortabilityIsa, MarchCpuNames) {
  const std::string src;
  const auto needs = [&](const std::string& cpu, const Platform& judge) {
    return !issues("c", src, kX86V4, judge, {"-march=" + cpu}).empty();
  };
  for (const char* v3 : {"haswell", "skylake", "znver1", "znver2", "znver3", "alderlake"}) {
    EXPECT_FALSE(needs(v3, kX86V3)) << v3;
    EXPECT_TRUE(needs(v3, kX86V2)) << v3;
  }
  for (const char* v4 : {"skylake-avx512", "icelake-server", "icelake-client", "sapphirerapids",
                         "znver4", "cascadelake"}) {
    EXPECT_FALSE(needs(v4, kX86V4)) << v4;
    EXPECT_TRUE(needs(v4, kX86V3)) << v4;
  }
  for (const char* v2 : {"nehalem", "westmere", "sandybridge"}) {
    EXPECT_FALSE(needs(v2, kX86V2)) << v2;
    EXPECT_TRUE(needs(v2, Platform{"x86_64", "x86-64", {}})) << v2;
  }
  EXPECT_FALSE(needs("x86-64-v3", kX86V3));
  EXPECT_TRUE(needs("x86-64-v4", kX86V3));
  EXPECT_FALSE(needs("x86-64", Platform{"x86_64", "x86-64", {}}));
  const auto unknown = issues("c", src, kX86V4, kX86V3, {"-march=futurecpu"});
  ASSERT_EQ(codes(unknown), (Codes{"isa_level@0"}));
  EXPECT_NE(unknown[0].message.find("unknown CPU"), std::string::npos) << unknown[0].message;
  EXPECT_NE(unknown[0].message.find("x86-64-v4"), std::string::npos) << unknown[0].message;
  EXPECT_FALSE(needs("futurecpu", kX86V4));
}

TEST(PortabilityIsa, X86TokensOnArmAndArmTokensOnX86) {
  EXPECT_EQ(codes(issues("c", "", kX86V3, kArm, {"-msse2", "-march=haswell", "-march=native"})),
            (Codes{"isa_level@0", "isa_level@0"}));
  EXPECT_TRUE(issues("c", "", kArm, kArm, {"-march=armv8.2-a+sve", "-mcpu=native"}).empty());
  EXPECT_EQ(codes(issues("c", "", kArm, kX86V3, {"-march=armv8.2-a"})), (Codes{"isa_level@0"}));
  // An x86 judge that does not report its level is not screened for levels.
  EXPECT_TRUE(issues("c", "", kX86V4, Platform{"x86_64", "", {}}, {"-mavx512f"}).empty());
}

TEST(PortabilityGpu, CudaNeedsNvidia) {
  const std::string src = "__global__ void k(float* a) { a[threadIdx.x] = 0; }\n";
  const auto none = issues("cuda", src, kNvidia, kX86V3);
  EXPECT_EQ(codes(none), (Codes{"gpu_vendor_only@0"}));
  EXPECT_NE(none[0].message.find("CUDA"), std::string::npos) << none[0].message;
  EXPECT_NE(none[0].message.find("no GPU"), std::string::npos) << none[0].message;
  const auto amd = issues("cuda", src, kNvidia, kAmd);
  ASSERT_EQ(codes(amd), (Codes{"gpu_vendor_only@0"}));
  EXPECT_NE(amd[0].message.find("amd"), std::string::npos) << amd[0].message;
  EXPECT_TRUE(issues("cuda", src, kNvidia, kNvidia).empty());
}

TEST(PortabilityGpu, CudaDevicePtxIsNotInlineAsm) {
  const std::string src =
      "__device__ unsigned lane(void) {\n"
      "  unsigned r; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(r)); return r;\n"
      "}\n"
      "void host(void) { asm volatile(\"pause\"); }\n";
  const Platform arm_nvidia{"aarch64", "", {"nvidia"}};
  EXPECT_EQ(codes(issues("cuda", src, kNvidia, arm_nvidia)), (Codes{"inline_asm@4"}));
}

const char* const kHipAmdBuiltin = R"(#include <hip/hip_runtime.h>
__global__ void k(int* a) {
  a[threadIdx.x] = __builtin_amdgcn_ds_bpermute(0, a[0]);
}
)";

TEST(PortabilityGpu, HipAmdBuiltinOnNvidiaJudge) {
  const auto list = issues("hip", kHipAmdBuiltin, kAmd, kNvidia);
  EXPECT_EQ(codes(list), (Codes{"gpu_vendor_only@3"}));
  EXPECT_NE(list[0].message.find("__builtin_amdgcn_ds_bpermute"), std::string::npos)
      << list[0].message;
  EXPECT_NE(list[0].message.find("AMD"), std::string::npos) << list[0].message;
  EXPECT_TRUE(issues("hip", kHipAmdBuiltin, kAmd, kAmd).empty());
}

TEST(PortabilityGpu, HipGuardedAmdCodeIsFine) {
  const std::string src =
      "#include <hip/hip_runtime.h>\n"
      "#if defined(__HIP_PLATFORM_AMD__)\n"
      "#include <rocblas/rocblas.h>\n"
      "__device__ int f(int x) { return __builtin_amdgcn_readfirstlane(x); }\n"
      "#else\n"
      "__device__ int f(int x) { return __shfl_sync(0xffffffff, x, 0) + __nv_fast(x); }\n"
      "#endif\n"
      "__global__ void k(int* a) {\n"
      "#ifdef __AMDGCN__\n"
      "  a[0] = __ockl_get_local_id(0);\n"
      "  asm volatile(\"s_waitcnt lgkmcnt(0)\");\n"
      "#elif defined(__CUDA_ARCH__)\n"
      "  asm volatile(\"bar.sync 0;\");\n"
      "#endif\n"
      "}\n";
  EXPECT_TRUE(issues("hip", src, kAmd, kNvidia).empty());
  EXPECT_TRUE(issues("hip", src, kAmd, kAmd).empty());
}

TEST(PortabilityGpu, HipAmdOnlyLibrariesAndNegatedGuard) {
  const std::string src =
      "#include <rocblas/rocblas.h>\n"
      "#if !defined(__HIP_PLATFORM_AMD__)\n"
      "int nv_path;\n"
      "#else\n"
      "int amd = __ocml_sin_f32(1.0f);\n"
      "#endif\n"
      "void launch(void) { hipExtLaunchKernelGGL(k, 1, 1, 0, 0, 0, 0, 0); }\n";
  EXPECT_EQ(codes(issues("hip", src, kAmd, kNvidia)),
            (Codes{"gpu_vendor_only@1", "gpu_vendor_only@7"}));
}

TEST(PortabilityGpu, HipCudaCallsAndPtxOnAmdJudge) {
  const std::string src =
      "#include <hip/hip_runtime.h>\n"
      "#include <cublas_v2.h>\n"
      "__global__ void k(unsigned* a) {\n"
      "  unsigned r;\n"
      "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r));\n"
      "  a[0] = r;\n"
      "}\n"
      "void run(unsigned* d) {\n"
      "  cudaMalloc((void**)&d, 4);\n"
      "  hipLaunchKernelGGL(k, 1, 1, 0, 0, d);\n"
      "  cudaDeviceSynchronize(); // cudaFree in a comment\n"
      "}\n";
  const auto list = issues("hip", src, kNvidia, kAmd);
  EXPECT_EQ(codes(list), (Codes{"gpu_vendor_only@2", "gpu_vendor_only@5", "gpu_vendor_only@9",
                                "gpu_vendor_only@11"}));
  EXPECT_NE(list[0].message.find("cublas_v2.h"), std::string::npos) << list[0].message;
  EXPECT_NE(list[1].message.find("PTX"), std::string::npos) << list[1].message;
  EXPECT_NE(list[2].message.find("cudaMalloc"), std::string::npos) << list[2].message;
  EXPECT_NE(list[2].message.find("NVIDIA"), std::string::npos) << list[2].message;
  EXPECT_TRUE(issues("hip", src, kNvidia, kNvidia).empty());
  // Host-side inline asm in HIP is CPU asm: the arch rule, not the vendor rule.
  const std::string host = "void h(void) { asm(\"pause\"); }\n";
  EXPECT_EQ(codes(issues("hip", host, kAmd, Platform{"aarch64", "", {"amd"}})),
            (Codes{"inline_asm@1"}));
}

TEST(PortabilityGpu, HipNeedsSomeGpu) {
  const auto list = issues("hip", "int x;\n", kAmd, kX86V3);
  EXPECT_EQ(codes(list), (Codes{"gpu_vendor_only@0"}));
  EXPECT_NE(list[0].message.find("HIP"), std::string::npos) << list[0].message;
}

TEST(PortabilityLanguages, PythonAndFortranOnlyTokens) {
  const std::string py = "import numpy as np\n# _mm256_add_pd asm(\"nop\")\nx = '_mm256_add_pd'\n";
  EXPECT_TRUE(issues("python", py, kX86V3, kArm).empty());
  const std::string f90 =
      "subroutine s(n, a)\n"
      "  ! call _mm256_add_pd and asm volatile(\"nop\")\n"
      "  integer :: n\n"
      "end subroutine\n";
  EXPECT_TRUE(issues("fortran", f90, kX86V3, kArm).empty());
  EXPECT_EQ(codes(issues("fortran", f90, kX86V3, kX86V2, {"-mavx2"})), (Codes{"isa_level@0"}));
  EXPECT_EQ(codes(issues("python", py, kX86V3, kArm, {"-march=haswell"})), (Codes{"isa_level@0"}));
}

TEST(PortabilityLines, LineNumbersSurviveCommentsAndContinuations) {
  const std::string src =
      "/* a\n"
      "   multi-line\n"
      "   comment */\n"
      "#define LOAD(p) \\\n"
      "  _mm256_loadu_pd(p)\n"
      "const char* s = \"line\\n\";\n"
      "// comment \\\n"
      "   continued _mm_pause();\n"
      "void f(void) { _mm_pause(); }\n";
  EXPECT_EQ(codes(issues("c", src, kX86V3, kArm)), (Codes{"x86_intrinsics@5", "x86_intrinsics@9"}));
}

TEST(PortabilityLines, OneIssuePerCodeAndLineAndCapped) {
  EXPECT_EQ(codes(issues("c", "void f(void) { _mm_pause(); _mm_pause(); _mm_sfence(); }\n", kX86V3,
                         kArm)),
            (Codes{"x86_intrinsics@1"}));
  std::string many;
  for (int i = 0; i < 50; ++i) many += "_mm_pause();\n";
  EXPECT_EQ(issues("c", many, kX86V3, kArm).size(), kMaxPortabilityIssues);
}

TEST(PortabilityIsaLevel, Ranks) {
  EXPECT_EQ(isa_level_rank("x86-64"), 0);
  EXPECT_EQ(isa_level_rank("x86-64-v2"), 1);
  EXPECT_EQ(isa_level_rank("x86-64-v3"), 2);
  EXPECT_EQ(isa_level_rank("x86-64-v4"), 3);
  EXPECT_EQ(isa_level_rank(""), -1);
  EXPECT_EQ(isa_level_rank("armv8-a"), -1);
}

const char* const kV2Flags = "fpu cmov cx8 mmx sse sse2 lm cx16 lahf_lm popcnt sse4_1 sse4_2 ssse3";
const char* const kV3Extra = " avx avx2 bmi1 bmi2 f16c fma abm movbe xsave";
const char* const kV4Extra = " avx512f avx512bw avx512cd avx512dq avx512vl";

TEST(PortabilityIsaLevel, FromCraftedFlags) {
  EXPECT_EQ(x86_isa_level(""), "x86-64");
  EXPECT_EQ(x86_isa_level("fpu cmov cx8 mmx sse sse2 lm"), "x86-64");
  EXPECT_EQ(x86_isa_level(kV2Flags), "x86-64-v2");
  EXPECT_EQ(x86_isa_level(std::string(kV2Flags) + kV3Extra), "x86-64-v3");
  EXPECT_EQ(x86_isa_level(std::string(kV2Flags) + kV3Extra + kV4Extra), "x86-64-v4");
  // lzcnt stands for abm; one missing flag drops the level.
  std::string lz = std::string(kV2Flags) + kV3Extra;
  lz.replace(lz.find("abm"), 3, "lzcnt");
  EXPECT_EQ(x86_isa_level(lz), "x86-64-v3");
  std::string no_movbe = std::string(kV2Flags) + kV3Extra + kV4Extra;
  no_movbe.replace(no_movbe.find("movbe"), 5, "");
  EXPECT_EQ(x86_isa_level(no_movbe), "x86-64-v2");
  EXPECT_EQ(x86_isa_level(std::string(kV3Extra) + kV4Extra), "x86-64");  // no v2 flags
  EXPECT_EQ(x86_isa_level(std::string(kV2Flags) + " avx512f avx512bw"), "x86-64-v2");
}

// A Zen 3 (EPYC 7003) flags line as /proc/cpuinfo shows it: AVX2 without AVX-512.
const char* const kZen3Flags =
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse "
    "sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl nonstop_tsc "
    "cpuid extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 pcid sse4_1 sse4_2 "
    "x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy svm extapic cr8_legacy abm "
    "sse4a misalignsse 3dnowprefetch osvw ibs skinit wdt tce topoext perfctr_core perfctr_nb bpext "
    "perfctr_llc mwaitx cpb cat_l3 cdp_l3 invpcid_single hw_pstate ssbd mba ibrs ibpb stibp "
    "vmmcall fsgsbase bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a rdseed adx smap clflushopt clwb "
    "sha_ni xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local "
    "clzero irperf xsaveerptr rdpru wbnoinvd amd_ppin arat npt lbrv svm_lock nrip_save tsc_scale "
    "vmcb_clean flushbyasid decodeassists pausefilter pfthreshold v_vmsave_vmload vgif v_spec_ctrl "
    "umip pku ospke vaes vpclmulqdq rdpid overflow_recov succor smca fsrm";

TEST(PortabilityIsaLevel, Zen3IsV3) { EXPECT_EQ(x86_isa_level(kZen3Flags), "x86-64-v3"); }

TEST(PortabilityCpuinfoFlags, FirstProcessorsFlagsLine) {
  const std::string cpuinfo = std::string(
                                  "processor\t: 0\n"
                                  "vendor_id\t: AuthenticAMD\n"
                                  "model name\t: AMD EPYC 7763 64-Core Processor\n"
                                  "flags\t\t: ") +
                              kZen3Flags +
                              "\n"
                              "bugs\t\t: sysret_ss_attrs spectre_v1\n"
                              "\n"
                              "processor\t: 1\n"
                              "flags\t\t: fpu other\n";
  EXPECT_EQ(cpuinfo_flags(cpuinfo), kZen3Flags);
  EXPECT_EQ(x86_isa_level(cpuinfo_flags(cpuinfo)), "x86-64-v3");
  // aarch64 /proc/cpuinfo says "Features", not "flags"; "vmx flags" is another key.
  EXPECT_EQ(cpuinfo_flags("processor\t: 0\nFeatures\t: fp asimd evtstrm\n"), "");
  EXPECT_EQ(cpuinfo_flags("vmx flags\t: vnmi\n"), "");
  EXPECT_EQ(cpuinfo_flags(""), "");
}

}  // namespace
}  // namespace hpcab
