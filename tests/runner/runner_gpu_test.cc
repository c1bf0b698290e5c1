// hpcab-runner's GPU path end to end on a machine without a GPU: the runner dlopen()s
// tests/runner/fake_cudart.c (host memory standing in for device memory) and runs the C
// reference of tsvc_2_s000 on "device" pointers, both residencies, through the line protocol.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const std::string kRunner = std::string(HPCAB_BINARY_DIR) + "/hpcab-runner";
const std::string kManifest =
    std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000/kernel.json";

std::string sh(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// Runs the runner with `commands` on stdin; returns its fd-3 replies then "rc=<status>".
std::string run(const std::string& extra, const std::string& commands, const std::string& env = "",
                const std::string& lib = HPCAB_KERNEL_LIB) {
  const std::string cmd = "printf '" + commands + "' | " + env + " " + kRunner + " --manifest " +
                          kManifest + " --sizes N=1000 --lib " + lib + " " + extra +
                          " 3>&1 1>/dev/null 2>/dev/null; echo rc=$?";
  return sh(cmd);
}

const std::string kFake = std::string("--gpu cuda --gpu-lib ") + HPCAB_FAKE_CUDART;
// One call; kSavedCall also saves its outputs (under --out-dir).
const std::string kOneCall = "prep 7 auto 1\\ngo\\npost 0 t\\nquit\\n";
const std::string kSavedCall = "prep 7 auto 1\\ngo\\npost 1 t\\nquit\\n";

// The layout reply (judge/runner/protocol.h) names each output once, with the bytes of its
// copy-out at the runner's sizes, between boot and hello: before the library is loaded.
TEST(RunnerGpu, TheLayoutComesBeforeHelloAndNamesEveryOutput) {
  const std::string out = run("", kOneCall);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out, m, std::regex("^boot\nlayout a ([0-9a-f]+) 8000\nhello\n")))
      << out;
  EXPECT_NE(std::stoull(m[1].str(), nullptr, 16), 0u);
}

TEST(RunnerGpu, CpuRunsLoadNoRuntime) {
  // The default: no --gpu, nothing GPU loaded, a missing runtime library is irrelevant.
  EXPECT_NE(run("--gpu-lib /nonexistent.so", kOneCall).find("posted ok\nrc=0"), std::string::npos);
}

TEST(RunnerGpu, DeviceResidencyRunsTheKernelOnDevicePointers) {
  const fs::path dir = fs::temp_directory_path() / "hpcab-runner-gpu-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string log = (dir / "calls.txt").string();
  const std::string out = run(kFake + " --residency device --out-dir " + dir.string(), kSavedCall,
                              "FAKE_CUDART_LOG=" + log);
  EXPECT_TRUE(
      std::regex_search(out, std::regex("^boot\nlayout a [0-9a-f]+ 8000\nhello\nready\ndone ")))
      << out;
  EXPECT_NE(out.find("posted ok\nrc=0"), std::string::npos) << out;
  // The answer came back through the device buffers: byte for byte what the same draw gives
  // on a CPU run.
  const std::string cpu = run("--out-dir " + (dir / "cpu").string(), kSavedCall);
  EXPECT_NE(cpu.find("posted ok\nrc=0"), std::string::npos) << cpu;
  auto slurp = [](const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  const std::string dev_a = slurp(dir / "t" / "a.npy");
  EXPECT_GT(dev_a.size(), 8000u);
  EXPECT_EQ(dev_a, slurp(dir / "cpu" / "t" / "a.npy"));
  std::ifstream in(log);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string calls = ss.str();
  // One input (b) copied to the device per call; the output (a) copied back twice (the
  // copy-out, then the late-write check) and the input once (the const check).
  EXPECT_NE(calls.find("h2d 8000"), std::string::npos) << calls;
  EXPECT_NE(calls.find("d2h 8000"), std::string::npos) << calls;
  EXPECT_NE(calls.find("sync"), std::string::npos);
  fs::remove_all(dir);
}

TEST(RunnerGpu, HostResidencyKeepsHostArrays) {
  EXPECT_NE(run(kFake + " --residency host", kOneCall).find("posted ok\nrc=0"), std::string::npos);
}

TEST(RunnerGpu, ASlowSynchronizeIsReportedAsWorkLeftRunning) {
  for (const char* residency : {"host", "device"}) {
    const std::string out = run(kFake + " --residency " + residency + " --device-idle-ns 1000000",
                                kOneCall, "FAKE_CUDART_SLOW_SYNC_NS=5000000");
    EXPECT_NE(out.find("posted running (device) pending\nrc=0"), std::string::npos)
        << residency << ": " << out;
  }
}

TEST(RunnerGpu, NoDeviceOrNoRuntimeIsASetupError) {
  std::string out = run(kFake, kOneCall, "FAKE_CUDART_DEVICES=0");
  EXPECT_NE(out.find("error setup cudaGetDeviceCount failed (100): no CUDA-capable device"),
            std::string::npos)
      << out;
  out = run("--gpu cuda --gpu-lib /nonexistent/libcudart.so", kOneCall);
  EXPECT_NE(out.find("error setup cannot load the cuda runtime"), std::string::npos) << out;
  EXPECT_NE(out.find("rc=2"), std::string::npos);
  out = run("--residency device", kOneCall);
  EXPECT_NE(out.find("error setup --residency device needs --gpu"), std::string::npos) << out;
  out = run(kFake + " --residency managed", kOneCall);
  EXPECT_NE(out.find("error setup unknown residency 'managed'"), std::string::npos) << out;
}

}  // namespace
