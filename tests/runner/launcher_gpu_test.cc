// A GPU grade's runner launched the way the judge launches it (SandboxRunnerLauncher: real
// bubblewrap, the GPU seccomp profile, device nodes, the runtime library's directory bound),
// with tests/runner/fake_cudart.c standing in for the CUDA runtime and plain files standing in
// for the device nodes: the whole launch path of a GPU grade, without a GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/manifest.h"
#include "judge/config/config.h"
#include "judge/grade/real_effects.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;

class LauncherGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-lgpu-XXXXXX").string();
    root_ = mkdtemp(tmpl.data());
    fs::permissions(root_, fs::perms::all);
    fs::create_directories(root_ / "dev");
    std::ofstream(root_ / "dev" / "nvidiactl") << "x";
    std::ofstream(root_ / "dev" / "nvidia0") << "x";
    cfg_.runner_path = std::string(HPCAB_BINARY_DIR) + "/hpcab-runner";
    cfg_.cuda_runtime_lib = HPCAB_FAKE_CUDART;
    cfg_.gpu_device_root = (root_ / "dev").string();
    auto m =
        load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000");
    ASSERT_TRUE(m) << m.error().message;
    manifest_ = std::move(*m);
  }
  void TearDown() override { fs::remove_all(root_); }

  RunnerSpec spec(const std::string& gpu, const std::string& residency) {
    RunnerSpec s;
    s.manifest = &*manifest_;
    s.role = "candidate";
    s.candidate = true;
    s.library = HPCAB_KERNEL_LIB;
    s.sizes = {{"N", 1000}};
    s.cpus = {0};
    s.work_dir = root_.string();
    s.serial = serial_++;
    s.gpu_runtime = gpu;
    s.residency = residency;
    return s;
  }
  // boot, layout, hello, one call; the replies in order (or the error that stopped them),
  // the layout's addresses left out.
  std::string one_call(RunnerChannel& c) {
    std::string out;
    auto next = [&]() {
      auto r = c.receive(20);
      std::string line = r ? *r : "<" + r.error().message + ">";
      if (line.rfind("layout ", 0) == 0) line = "layout";
      out += line + "\n";
    };
    next();
    next();
    next();
    for (const char* cmd : {"prep 3 auto 1", "go", "post 0 t", "quit"}) {
      if (!c.send(cmd)) break;
      if (std::string(cmd) != "quit") next();
    }
    c.finish(10);
    return out;
  }

  // One device-resident call launched with cfg_ as it is now: the replies, or the launch error.
  std::string device_call() {
    SandboxRunnerLauncher launcher(cfg_);
    auto c = launcher.launch(spec("cuda", "device"));
    return c ? one_call(**c) : "<launch: " + c.error().message + ">";
  }

  JudgeConfig cfg_;
  std::optional<Manifest> manifest_;
  fs::path root_;
  int serial_ = 0;
};

TEST_F(LauncherGpuTest, ADeviceResidentGradeRunsInTheGpuSandbox) {
  SandboxRunnerLauncher launcher(cfg_);
  for (const char* residency : {"device", "host"}) {
    auto c = launcher.launch(spec("cuda", residency));
    ASSERT_TRUE(c) << c.error().message;
    const std::string replies = one_call(**c);
    EXPECT_EQ(replies.substr(0, 24), "boot\nlayout\nhello\nready\n")
        << residency << ": " << replies;
    EXPECT_NE(replies.find("\ndone "), std::string::npos) << replies;
    EXPECT_NE(replies.find("posted ok\n"), std::string::npos) << replies;
  }
}

TEST_F(LauncherGpuTest, ARuntimeUnderTmpIsReachableFromTheSandbox) {
  // The sandbox has a private /tmp; a runtime the judge is configured with there (a clone or
  // an install under /tmp) must still load, wherever this build itself lives.
  std::string tmpl = "/tmp/hpcab-lgpu-rt-XXXXXX";
  const fs::path rt = mkdtemp(tmpl.data());
  fs::permissions(rt, fs::perms::all);
  fs::copy_file(HPCAB_FAKE_CUDART, rt / "libcudart.so");
  cfg_.cuda_runtime_lib = (rt / "libcudart.so").string();
  const std::string replies = device_call();
  EXPECT_NE(replies.find("posted ok\n"), std::string::npos) << replies;
  fs::remove_all(rt);
}

TEST_F(LauncherGpuTest, ARuntimeBesideTheWorkDirIsBoundAloneAndLoads) {
  // A runtime in the directory that holds the sandbox's work dir: binding its directory would
  // show the candidate the judge's scratch, so only the library is bound, and it loads.
  fs::copy_file(HPCAB_FAKE_CUDART, root_ / "libcudart.so");
  cfg_.cuda_runtime_lib = (root_ / "libcudart.so").string();
  const std::string replies = device_call();
  EXPECT_NE(replies.find("posted ok\n"), std::string::npos) << replies;
}

TEST_F(LauncherGpuTest, ACpuGradeLoadsNoRuntime) {
  // A runtime library that cannot load is irrelevant to a CPU grade.
  cfg_.cuda_runtime_lib = "/nonexistent/libcudart.so";
  SandboxRunnerLauncher launcher(cfg_);
  auto c = launcher.launch(spec("", "host"));
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_NE(one_call(**c).find("posted ok\n"), std::string::npos);
  // The same library for a GPU grade: the judge's own set-up failed, said as such.
  auto g = launcher.launch(spec("cuda", "device"));
  ASSERT_TRUE(g) << g.error().message;
  const std::string replies = one_call(**g);
  EXPECT_NE(replies.find("error setup cannot load the cuda runtime"), std::string::npos) << replies;
  // An unknown runtime is refused before anything starts.
  auto bad = launcher.launch(spec("opencl", "device"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, Errc::kInvalid);
}

}  // namespace
}  // namespace hpcab::judge
