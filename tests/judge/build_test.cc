// The builder's Python builds: the module text of each flavor, and real builds in
// the sandbox: a syntax error is a failed build with Python's message, a good module is cached
// as kernel.py, and the cache key tells flavors and sources apart. Also a C reference built
// per precision from one source.
#include "judge/build/build.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "judge/config/config.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;

const char* kReference = "def tsvc_2_s000(a, b, N):\n    a[:] = b + 1\n";

TEST(PythonModuleText, NumbaFlavorsRebindTheKernelsFunctionUnderNjit) {
  BuildRequest r{"python", "numba", kReference, {}, "tsvc_2_s000"};
  const std::string numba = python_module_text(r);
  EXPECT_EQ(numba.rfind(kReference, 0), 0u) << "the reference text comes first, unchanged";
  EXPECT_NE(numba.find("tsvc_2_s000 = _hpcab_numba.njit()(tsvc_2_s000)"), std::string::npos)
      << numba;
  r.flavor = "numba-parallel";
  EXPECT_NE(
      python_module_text(r).find("tsvc_2_s000 = _hpcab_numba.njit(parallel=True)(tsvc_2_s000)"),
      std::string::npos);
  for (const char* as_is : {"numpy", "submission"}) {
    r.flavor = as_is;
    EXPECT_EQ(python_module_text(r), kReference) << as_is;
  }
}

class PythonBuildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hpcab-pybuild-" + std::to_string(getpid()));
    fs::create_directories(dir_ / "cache");
    fs::create_directories(dir_ / "scratch");
    // The sandbox's unprivileged uid traverses to its work dir.
    for (const auto& d : {dir_, dir_ / "scratch"}) fs::permissions(d, fs::perms::all);
    BuildSettings s;
    s.cache_dir = (dir_ / "cache").string();
    s.scratch_dir = (dir_ / "scratch").string();
    builder_ = std::make_unique<Builder>(s, JudgeConfig{}.sandbox_policy());
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::unique_ptr<Builder> builder_;
};

TEST_F(PythonBuildTest, ASyntaxErrorFailsWithPythonsMessage) {
  auto r = builder_->build(
      {"python", "submission", "def tsvc_2_s000(a, b, N)\n  pass\n", {}, "tsvc_2_s000"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->ok);
  EXPECT_NE(r->log.find("SyntaxError"), std::string::npos) << r->log;
}

TEST_F(PythonBuildTest, AGoodModuleIsCachedAsKernelPyAndKeyedByFlavor) {
  auto a = builder_->build({"python", "numpy", kReference, {}, "tsvc_2_s000"});
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(a->ok) << a->log;
  EXPECT_EQ(fs::path(a->library).filename(), "kernel.py");
  std::ifstream in(a->library);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), kReference);
  auto again = builder_->build({"python", "numpy", kReference, {}, "tsvc_2_s000"});
  ASSERT_TRUE(again.ok() && again->ok);
  EXPECT_TRUE(again->cached);
  EXPECT_EQ(again->hash, a->hash);
  auto numba = builder_->build({"python", "numba", kReference, {}, "tsvc_2_s000"});
  ASSERT_TRUE(numba.ok() && numba->ok) << (numba.ok() ? numba->log : numba.error().message);
  EXPECT_NE(numba->hash, a->hash);
  std::ifstream nin(numba->library);
  EXPECT_NE(std::string(std::istreambuf_iterator<char>(nin), {}).find("njit"), std::string::npos);
}

TEST_F(PythonBuildTest, BuildTokensAndAMissingFunctionNameAreRefused) {
  EXPECT_FALSE(
      builder_->build({"python", "submission", kReference, {"-DX=1"}, "tsvc_2_s000"}).ok());
  EXPECT_FALSE(builder_->build({"python", "submission", kReference, {}, ""}).ok());
}

TEST_F(PythonBuildTest, TheVersionNamesPythonNumPyAndNumba) {
  const std::string v = builder_->compiler_version("python");
  EXPECT_EQ(v.rfind("Python 3.", 0), 0u) << v;
  EXPECT_NE(v.find("numpy "), std::string::npos) << v;
  EXPECT_NE(v.find("numba "), std::string::npos) << v;
  EXPECT_NE(v.find("blas "), std::string::npos) << v;
  // The BLAS libblas.so.3 resolves to (NumPy's): OpenBLAS names its version and core.
  const std::string blas = blas_in_fingerprint("host | cpu | " + v + " | timing protocol 3");
  EXPECT_NE(blas, "unknown") << v;
  std::error_code ec;
  for (const auto& lib :
       {"/usr/lib/x86_64-linux-gnu/libblas.so.3", "/usr/lib/aarch64-linux-gnu/libblas.so.3"}) {
    if (fs::canonical(lib, ec).string().find("openblas") == std::string::npos) continue;
    EXPECT_EQ(blas.rfind("OpenBLAS 0.", 0), 0u) << blas;
    EXPECT_NE(blas.find("openblas"), std::string::npos) << blas;  // the flavour (pthread)
  }
}

// A reference build for real, in the sandbox (common/reference_build.h): one single-source
// reference.c instantiated at each listed precision into one library; the precisions and the
// instantiation units are part of the key, so the stored reference_hash changes with them.
const char* kSingleSource =
    "#include <stdint.h>\n"
    "static real one(void) { return (real)1.0; }\n"
    "void HPCAB_KERNEL(k)(real *restrict a, const real *restrict b, const int64_t N,\n"
    "                     uint8_t *restrict workspace, const int64_t workspace_size) {\n"
    "  for (int64_t i = 0; i < N; i++) a[i] = sqrt(b[i]) + one();\n"
    "}\n";

bool exports(const std::string& library, const char* symbol) {
  void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) return false;
  const bool found = dlsym(h, symbol) != nullptr;
  dlclose(h);
  return found;
}

TEST_F(PythonBuildTest, AReferenceIsInstantiatedAtEachPrecisionIntoOneLibrary) {
  auto both =
      builder_->build({"c", "c", kSingleSource, {}, "", {Precision::kFp64, Precision::kFp32}});
  ASSERT_TRUE(both.ok()) << both.error().message;
  ASSERT_TRUE(both->ok) << both->log;
  EXPECT_TRUE(exports(both->library, "k_fp64"));
  EXPECT_TRUE(exports(both->library, "k_fp32"));
  auto fp64 = builder_->build({"c", "c", kSingleSource, {}, "", {Precision::kFp64}});
  ASSERT_TRUE(fp64.ok() && fp64->ok) << (fp64.ok() ? fp64->log : fp64.error().message);
  EXPECT_TRUE(exports(fp64->library, "k_fp64"));
  EXPECT_FALSE(exports(fp64->library, "k_fp32"));
  EXPECT_NE(fp64->hash, both->hash);
  auto autopar = builder_->build(
      {"c", "c-autopar", kSingleSource, {}, "", {Precision::kFp64, Precision::kFp32}});
  ASSERT_TRUE(autopar.ok() && autopar->ok) << (autopar.ok() ? autopar->log : "");
  EXPECT_TRUE(exports(autopar->library, "k_fp32"));
  EXPECT_NE(autopar->hash, both->hash);  // other flags, another reference_hash
  // Without precisions the same text is a submission: nothing defines `real`.
  auto plain = builder_->build({"c", "submission", kSingleSource, {}, ""});
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->ok);
}

TEST(BlasInFingerprint, IsThePythonPartsBlasOrUnknown) {
  EXPECT_EQ(blas_in_fingerprint("h | m | 2 cpus | gcc | Python 3.11.2, numpy 1.24.2, numba 0.56.4, "
                                "blas OpenBLAS 0.3.21 (Zen, openblas-pthread) | timing protocol 3"),
            "OpenBLAS 0.3.21 (Zen, openblas-pthread)");
  EXPECT_EQ(blas_in_fingerprint("Python 3.11.2, numpy 1.24.2, numba none, blas reference BLAS"),
            "reference BLAS");
  EXPECT_EQ(blas_in_fingerprint("h | m | 2 cpus | gcc | unknown | timing protocol 3"), "unknown");
}

}  // namespace
}  // namespace hpcab::judge
