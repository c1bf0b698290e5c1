// GPU languages without a GPU: the GPU settings and their checks, device detection
// on a fake /dev, the flag matrix, and real builds in the sandbox: the /task stubs and a
// correct, an incorrect and a broken source for each of CUDA (where nvcc is installed) and HIP
// (hipcc is in scripts/packages.txt, so always), the cache key, and a missing toolchain.
#include "judge/host/gpu.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/build_info.h"
#include "common/manifest.h"
#include "judge/build/build.h"
#include "judge/config/config.h"
#include "judge/views/task_view.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(GpuArchs, CudaAndHipTargetNamesAreChecked) {
  for (const char* ok : {"sm_90", "sm_80", "sm_90a", "sm_100f"}) EXPECT_TRUE(valid_cuda_arch(ok));
  for (const char* bad : {"", "sm_", "sm_9x", "compute_90", "gfx90a", "sm_90 -O0", "sm_90;x"}) {
    EXPECT_FALSE(valid_cuda_arch(bad)) << bad;
  }
  for (const char* ok : {"gfx90a", "gfx942", "gfx942:xnack+", "gfx90a:sramecc-:xnack+", "sm_90"}) {
    EXPECT_TRUE(valid_hip_arch(ok)) << ok;
  }
  for (const char* bad : {"gfx", "gfxZZ", "gfx90a:", "gfx90a:xnack", "gfx90a:x+y", "gfx90a -v"}) {
    EXPECT_FALSE(valid_hip_arch(bad)) << bad;
  }
}

class FakeDev : public ::testing::Test {
 protected:
  void SetUp() override {
    dev_ = fs::temp_directory_path() / ("hpcab-fakedev-" + std::to_string(getpid()));
    fs::create_directories(dev_ / "dri");
  }
  void TearDown() override { fs::remove_all(dev_); }
  void touch(const std::string& rel) { std::ofstream(dev_ / rel) << ""; }
  fs::path dev_;
};

TEST_F(FakeDev, DetectsNvidiaNodesAndRenderNodesOnlyWithKfd) {
  EXPECT_TRUE(detect_gpus(dev_.string()).empty());
  touch("nvidiactl");  // the control node is no GPU
  touch("nvidia-uvm");
  touch("dri/renderD128");
  EXPECT_TRUE(detect_gpus(dev_.string()).empty())
      << "a render node without /dev/kfd is no ROCm GPU";
  touch("nvidia1");
  touch("nvidia0");
  touch("kfd");
  auto g = detect_gpus(dev_.string());
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].vendor, "amd");
  EXPECT_EQ(fs::path(g[0].node).filename(), "renderD128");
  EXPECT_EQ(g[1].vendor, "nvidia");
  EXPECT_EQ(fs::path(g[1].node).filename(), "nvidia0");
  EXPECT_EQ(fs::path(g[2].node).filename(), "nvidia1");
  auto autod = resolve_gpu_devices({"auto"}, dev_.string());
  ASSERT_TRUE(autod.ok());
  EXPECT_EQ(autod->size(), 3u);
  auto none = resolve_gpu_devices({"none"}, dev_.string());
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(GpuArchs, TargetsFromWhatTheDriversReport) {
  EXPECT_EQ(cuda_arch_from_compute_cap("9.0"), "sm_90");
  EXPECT_EQ(cuda_arch_from_compute_cap(" 8.6\n"), "sm_86");
  EXPECT_EQ(cuda_arch_from_compute_cap("10.0"), "sm_100");
  for (const char* bad : {"", "9", "9.", ".0", "9.10", "x.y", "09.0", "[N/A]", "9.0 GPU"}) {
    EXPECT_FALSE(cuda_arch_from_compute_cap(bad)) << bad;
  }
  EXPECT_EQ(hip_arch_from_target_version(90010), "gfx90a");
  EXPECT_EQ(hip_arch_from_target_version(90402), "gfx942");
  EXPECT_EQ(hip_arch_from_target_version(110000), "gfx1100");
  EXPECT_EQ(hip_arch_from_target_version(90008), "gfx908");
  EXPECT_FALSE(hip_arch_from_target_version(0)) << "a CPU node";
  EXPECT_FALSE(hip_arch_from_target_version(91016)) << "stepping beyond one hex digit";
  // Every derived name passes the builder's own check.
  EXPECT_TRUE(valid_cuda_arch(*cuda_arch_from_compute_cap("10.0")));
  EXPECT_TRUE(valid_hip_arch(*hip_arch_from_target_version(90402)));
  EXPECT_EQ(nvidia_gpu_archs("9.0\n9.0\n8.0\n[N/A]\n"),
            (std::vector<std::string>{"sm_90", "sm_80"}));
}

TEST_F(FakeDev, TheJudgeBuildsForItsDevicesOwnTargets) {
  // A KFD topology: node 0 a CPU, nodes 1 and 2 two MI300A-class GPUs, 3 an MI250X.
  const fs::path topo = dev_ / "nodes";
  auto node = [&](const std::string& n, const std::string& props) {
    fs::create_directories(topo / n);
    std::ofstream(topo / n / "properties") << props;
  };
  node("0", "cpu_cores_count 96\nsimd_count 0\ngfx_target_version 0\n");
  node("2", "simd_count 912\ngfx_target_version 90402\n");
  node("1", "simd_count 912\ngfx_target_version 90402\nmax_waves_per_simd 8\n");
  node("10", "gfx_target_version 90010\n");
  EXPECT_EQ(amd_gpu_archs(topo.string()), (std::vector<std::string>{"gfx942", "gfx90a"}));
  EXPECT_TRUE(amd_gpu_archs((dev_ / "missing").string()).empty());

  const GpuArchs configured{{"sm_90"}, {"gfx90a"}};
  std::vector<std::string> logged;
  auto log = [&logged](const std::string& l) { logged.push_back(l); };
  int smi_calls = 0;
  auto smi = [&smi_calls](std::string out) {
    return [&smi_calls, out]() -> Result<std::string> {
      ++smi_calls;
      return out;
    };
  };
  // AMD: hip builds for the devices; CUDA keeps its list; nvidia-smi is never run.
  GpuArchs a = device_gpu_archs({{"amd", "/dev/dri/renderD128"}}, configured, topo.string(),
                                smi("9.0\n"), log);
  EXPECT_EQ(a.hip, (std::vector<std::string>{"gfx942", "gfx90a"}));
  EXPECT_EQ(a.cuda, configured.cuda);
  EXPECT_EQ(smi_calls, 0);
  // NVIDIA: an H100/H200 (9.0) sets both lists (HIP for NVIDIA).
  GpuArchs n =
      device_gpu_archs({{"nvidia", "/dev/nvidia0"}}, configured, topo.string(), smi("9.0\n"), log);
  EXPECT_EQ(n.cuda, (std::vector<std::string>{"sm_90"}));
  EXPECT_EQ(n.hip, (std::vector<std::string>{"sm_90"}));
  n = device_gpu_archs({{"nvidia", "/dev/nvidia0"}}, configured, topo.string(), smi("10.0\n"), log);
  EXPECT_EQ(n.cuda, (std::vector<std::string>{"sm_100"}));
  // Unreadable: the configured lists stand, and the log says why.
  logged.clear();
  GpuArchs f = device_gpu_archs(
      {{"nvidia", "/dev/nvidia0"}}, configured, topo.string(),
      []() -> Result<std::string> { return Error{"nvidia-smi: not found"}; }, log);
  EXPECT_EQ(f.cuda, configured.cuda);
  EXPECT_EQ(f.hip, configured.hip);
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_NE(logged[0].find("nvidia-smi: not found"), std::string::npos) << logged[0];
  f = device_gpu_archs({{"amd", "/dev/dri/renderD128"}}, configured, (dev_ / "none").string(),
                       smi(""), log);
  EXPECT_EQ(f.hip, configured.hip);
  // No GPU: nothing changes.
  f = device_gpu_archs({}, configured, topo.string(), smi("9.0\n"), log);
  EXPECT_EQ(f.cuda, configured.cuda);
  EXPECT_EQ(f.hip, configured.hip);
}

TEST(GpuDevices, AnExplicitListNamesDeviceNodes) {
  auto l = resolve_gpu_devices({"/dev/nvidia3", "/dev/dri/renderD129"});
  ASSERT_TRUE(l.ok()) << l.error().message;
  ASSERT_EQ(l->size(), 2u);
  EXPECT_EQ((*l)[0].vendor, "nvidia");
  EXPECT_EQ((*l)[1].vendor, "amd");
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {}, {"/dev/kfd"}, {"nvidia0"}, {"auto", "/dev/nvidia0"}}) {
    auto r = resolve_gpu_devices(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("gpu_devices"), std::string::npos) << r.error().message;
  }
}

TEST(GpuConfig, SettingsAreValidatedAndNameThemselves) {
  auto finalized = [](const std::string& text) {
    JudgeConfig c;
    c.state_dir = (fs::temp_directory_path() / "hpcab-gpucfg-state").string();
    auto st = apply_config_json(c, text, "test");
    if (!st) return std::make_pair(c, st);
    st = c.finalize("/nonexistent");
    return std::make_pair(c, st);
  };
  {
    auto [c, st] = finalized(R"({"gpu_devices": "none", "cuda_archs": ["sm_80", "sm_90"]})");
    ASSERT_TRUE(st.ok()) << st.error().message;
    EXPECT_TRUE(c.gpus.empty());
    EXPECT_EQ(c.cuda_archs.size(), 2u);
  }
  {
    // The environment's comma-separated form.
    JudgeConfig c;
    ASSERT_TRUE(apply_config_env(c, {"HPCAB_GPU_DEVICES=/dev/nvidia0,/dev/nvidia1"}).ok());
    EXPECT_EQ(c.gpu_devices, (std::vector<std::string>{"/dev/nvidia0", "/dev/nvidia1"}));
  }
  for (const auto& [text, names] : std::vector<std::pair<std::string, std::string>>{
           {R"({"cuda_archs": ["sm_90 -G"]})", "cuda_archs"},
           {R"({"cuda_archs": []})", "cuda_archs"},
           {R"({"hip_archs": ["gfx90a", "sm_90"]})", "hip_archs"},
           {R"({"hip_archs": ["gfx942:bogus"]})", "hip_archs"},
           {R"({"gpu_devices": ["/tmp/x"]})", "gpu_devices"},
           {R"({"cuda_compiler": "nvcc -G"})", "cuda_compiler"},
           {R"({"hip_compiler": 3})", "hip_compiler"}}) {
    auto [c, st] = finalized(text);
    ASSERT_FALSE(st.ok()) << text;
    EXPECT_NE(st.error().message.find(names), std::string::npos) << st.error().message;
  }
}

TEST(GpuFlags, TheFlagMatrixPerToolchainAndTarget) {
  BuildSettings s;
  s.cuda_compiler = "/opt/cuda/bin/nvcc";
  s.hip_compiler = "/opt/rocm/bin/hipcc";
  s.cuda_archs = {"sm_80", "sm_90"};
  s.hip_archs = {"gfx90a", "gfx942"};
  Builder b(s, JudgeConfig{}.sandbox_policy());
  auto cuda = b.flags("cuda", "submission");
  EXPECT_EQ(cuda.front(), "/opt/cuda/bin/nvcc");
  EXPECT_TRUE(has(cuda, "-shared") && has(cuda, "-Xcompiler") && has(cuda, "-fPIC"));
  EXPECT_TRUE(has(cuda, "-gencode=arch=compute_80,code=sm_80"));
  EXPECT_TRUE(has(cuda, "-gencode=arch=compute_90,code=sm_90"));
  EXPECT_FALSE(has(cuda, "--use_fast_math"));
  auto hip = b.flags("hip", "submission");
  EXPECT_EQ(hip.front(), "/opt/rocm/bin/hipcc");
  EXPECT_TRUE(has(hip, "-fPIC") && has(hip, "-shared"));
  EXPECT_TRUE(has(hip, "--offload-arch=gfx90a") && has(hip, "--offload-arch=gfx942"));
  EXPECT_STREQ(Builder::compiler_setting("hip", s), "hip_compiler");
  // HIP for NVIDIA: CUDA's compiler with HIP's nvidia_detail headers selected.
  s.hip_archs = {"sm_90"};
  Builder nv(s, JudgeConfig{}.sandbox_policy());
  auto hip_nv = nv.flags("hip", "submission");
  EXPECT_EQ(hip_nv.front(), "/opt/cuda/bin/nvcc");
  EXPECT_TRUE(has(hip_nv, "-D__HIP_PLATFORM_NVIDIA__") && has(hip_nv, "-x"));
  EXPECT_TRUE(has(hip_nv, "-gencode=arch=compute_90,code=sm_90"));
  EXPECT_STREQ(Builder::compiler_setting("hip", s), "cuda_compiler");
}

// Real builds in the sandbox with the toolchains this machine has.
class GpuBuildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hpcab-gpubuild-" + std::to_string(getpid()));
    fs::create_directories(dir_ / "cache");
    fs::create_directories(dir_ / "scratch");
    for (const auto& d : {dir_, dir_ / "scratch"}) fs::permissions(d, fs::perms::all);
    JudgeConfig c;  // the judge's own resolution of the default compiler names
    c.gpu_devices = {"none"};
    ASSERT_TRUE(c.finalize_gpu().ok());
    settings_.cache_dir = (dir_ / "cache").string();
    settings_.scratch_dir = (dir_ / "scratch").string();
    settings_.cuda_compiler = c.cuda_compiler;
    settings_.hip_compiler = c.hip_compiler;
    builder_ = std::make_unique<Builder>(settings_, c.sandbox_policy());
    auto corpus = load_corpus(fs::path(source_dir()) / "corpus");
    ASSERT_TRUE(corpus.ok()) << corpus.error().message;
    corpus_ = std::move(*corpus);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // nvcc is part of some machines, not of the project's dependencies: CUDA tests skip without.
  bool skip_without(const std::string& language) {
    if (language == "cuda" && !compiler_exists(settings_.cuda_compiler)) return true;
    return false;
  }
  void require(const std::string& language) {
    if (language == "hip") {
      ASSERT_TRUE(compiler_exists(settings_.hip_compiler))
          << "hipcc not found (" << settings_.hip_compiler
          << "): `make deps` installs it (scripts/packages.txt: hipcc, libamdhip64-dev)";
    }
  }
  BuildResult build(const std::string& language, const std::string& source) {
    auto r = builder_->build({language, "submission", source, {}, ""});
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? *r : BuildResult{};
  }
  fs::path dir_;
  BuildSettings settings_;
  std::unique_ptr<Builder> builder_;
  std::vector<Manifest> corpus_;
};

class GpuLanguageBuild : public GpuBuildTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(GpuLanguageBuild, TheTaskStubBuildsForEveryPrecisionAndKernelShape) {
  const std::string lang = GetParam();
  if (skip_without(lang))
    GTEST_SKIP() << "no nvcc (cuda_compiler " << settings_.cuda_compiler << ")";
  require(lang);
  // A stream, a matrix kernel with scalars and an ML kernel: pointer kinds and scalar types.
  for (const char* id : {"tsvc_2_s000", "gemm", "softmax"}) {
    const Manifest* m = find_kernel(corpus_, id);
    ASSERT_NE(m, nullptr) << id;
    for (Precision p : m->precisions) {
      const std::string stub = stub_source(*m, p, lang);
      EXPECT_NE(stub.find("extern \"C\""), std::string::npos) << stub;
      EXPECT_NE(stub.find("__global__"), std::string::npos) << stub;
      EXPECT_NE(stub.find("__restrict__"), std::string::npos) << stub;
      auto r = build(lang, stub);
      EXPECT_TRUE(r.ok) << id << " " << precision_name(p) << ":\n" << stub << "\n" << r.log;
      if (r.ok) {
        EXPECT_EQ(fs::path(r.library).filename(), "lib.so");
      }
    }
  }
}

TEST_P(GpuLanguageBuild, CorrectAndIncorrectSourcesBuildABrokenOneFailsWithTheCompilersMessage) {
  const std::string lang = GetParam();
  if (skip_without(lang))
    GTEST_SKIP() << "no nvcc (cuda_compiler " << settings_.cuda_compiler << ")";
  require(lang);
  const fs::path solutions = fs::path(source_dir()) / "tests" / "solutions";
  const std::string ext = lang == "cuda" ? ".cu" : ".hip";
  for (const char* name : {"tsvc_2_s000_", "tsvc_2_s000_wrong_"}) {
    std::string file = std::string(name) == "tsvc_2_s000_" ? "tsvc_2_s000_" + lang + ext
                                                           : "tsvc_2_s000_" + lang + "_wrong" + ext;
    auto r = build(lang, read(solutions / file));
    EXPECT_TRUE(r.ok) << file << ":\n" << r.log;
  }
  auto broken = build(lang, read(solutions / ("tsvc_2_s000_" + lang + "_syntax_error" + ext)));
  EXPECT_FALSE(broken.ok);
  EXPECT_FALSE(broken.toolchain_missing);
  EXPECT_NE(broken.log.find("error"), std::string::npos) << broken.log;
  EXPECT_NE(broken.log.find("submission" + ext), std::string::npos) << broken.log;
}

TEST_P(GpuLanguageBuild, BuildsAreCachedAndKeyedByTheTargets) {
  const std::string lang = GetParam();
  if (skip_without(lang))
    GTEST_SKIP() << "no nvcc (cuda_compiler " << settings_.cuda_compiler << ")";
  require(lang);
  const Manifest* m = find_kernel(corpus_, "tsvc_2_s000");
  ASSERT_NE(m, nullptr);
  const std::string stub = stub_source(*m, Precision::kFp64, lang);
  auto first = build(lang, stub);
  ASSERT_TRUE(first.ok) << first.log;
  auto again = build(lang, stub);
  EXPECT_TRUE(again.cached);
  EXPECT_EQ(again.hash, first.hash);
  BuildSettings other = settings_;
  (lang == "cuda" ? other.cuda_archs : other.hip_archs) = {lang == "cuda" ? "sm_80" : "gfx908"};
  Builder b(other, JudgeConfig{}.sandbox_policy());
  auto retargeted = b.build({lang, "submission", stub, {}, ""});
  ASSERT_TRUE(retargeted.ok()) << retargeted.error().message;
  EXPECT_TRUE(retargeted->ok) << retargeted->log;
  EXPECT_FALSE(retargeted->cached) << "another target list is another build";
  EXPECT_NE(retargeted->hash, first.hash);
  EXPECT_NE(builder_->compiler_version(lang), "unknown");
}

INSTANTIATE_TEST_SUITE_P(Languages, GpuLanguageBuild, ::testing::Values("cuda", "hip"),
                         [](const auto& info) { return info.param; });

TEST_F(GpuBuildTest, AMissingToolchainIsReportedNamingItsSettingAndNotCached) {
  BuildSettings s = settings_;
  s.cuda_compiler = (dir_ / "no-such-nvcc").string();
  s.hip_compiler = (dir_ / "no-such-hipcc").string();
  Builder b(s, JudgeConfig{}.sandbox_policy());
  for (const char* lang : {"cuda", "hip"}) {
    auto r = b.build({lang, "submission", "int x;", {}, ""});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_FALSE(r->ok);
    EXPECT_TRUE(r->toolchain_missing) << lang;
    EXPECT_NE(r->log.find(std::string(lang) + "_compiler"), std::string::npos) << r->log;
    EXPECT_NE(r->log.find("no-such-"), std::string::npos) << r->log;
  }
  EXPECT_TRUE(fs::is_empty(dir_ / "cache"));
}

}  // namespace
}  // namespace hpcab::judge
