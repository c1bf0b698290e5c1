// GPU languages end to end on a judge without a GPU: a real hpcab-judge with
// gpu_devices "none", real hipcc (and nvcc where installed) in the sandbox. What such a judge
// answers: /health's empty "gpus", /task stubs for cuda and hip, `rejected` (reason no_gpu)
// for sources that build, build_error for one that does not, `rejected` (no_toolchain) when the
// compiler is missing, and the `residency` field's checks and echo.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "judge/host/gpu.h"
#include "tests/judge/judge_process.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using test::Judge;

const std::string kSolutions = HPCAB_TEST_SOLUTIONS;

const json kNoGpu = {{"gpu_devices", "none"}};

std::string ext(const std::string& language) { return language == "cuda" ? ".cu" : ".hip"; }

// The languages this machine can build: hip always (scripts/packages.txt), cuda with nvcc.
std::vector<std::string> buildable() {
  std::vector<std::string> out = {"hip"};
  if (compiler_exists(
          resolve_compiler("nvcc", {"/usr/bin", "/bin"}, {"/usr/local/cuda/bin/nvcc"}))) {
    out.insert(out.begin(), "cuda");
  }
  return out;
}

TEST(GpuE2E, HealthReportsNoGpusAndTheLanguages) {
  Judge j(kNoGpu);
  auto h = json::parse(j.get("/health").body);
  ASSERT_TRUE(h.contains("gpus")) << h.dump();
  EXPECT_EQ(h["gpus"], json::array());
  EXPECT_NE(std::find(h["languages"].begin(), h["languages"].end(), "cuda"), h["languages"].end());
  EXPECT_NE(std::find(h["languages"].begin(), h["languages"].end(), "hip"), h["languages"].end());
  // An explicit device list is what /health then reports (no device is opened to say so).
  Judge listed(json{{"gpu_devices", {"/dev/nvidia0"}}});
  auto lh = json::parse(listed.get("/health").body);
  ASSERT_EQ(lh["gpus"].size(), 1u) << lh.dump();
  EXPECT_EQ(lh["gpus"][0]["vendor"], "nvidia");
  EXPECT_EQ(lh["gpus"][0]["node"], "/dev/nvidia0");
}

TEST(GpuE2E, TaskStubsBuildAndAreRejectedForWantOfAGpu) {
  Judge j(kNoGpu);
  for (const auto& lang : buildable()) {
    auto t = j.get("/task/tsvc_2_s000?rank=0&language=" + lang);
    ASSERT_EQ(t.status, 200) << t.body;
    auto tj = json::parse(t.body);
    EXPECT_EQ(tj["language"], lang);
    EXPECT_EQ(tj["gpus"], json::array());
    EXPECT_EQ(tj["residencies"], json({"host", "device"}));
    EXPECT_NE(tj["abi_doc"].get<std::string>().find("residency"), std::string::npos);
    const std::string stub = tj["signature"];
    EXPECT_NE(stub.find("extern \"C\" void tsvc_2_s000_fp64("), std::string::npos) << stub;
    EXPECT_NE(stub.find("__global__"), std::string::npos) << stub;
    auto r = j.post("/score",
                    {{"kernel", "tsvc_2_s000"}, {"language", lang}, {"rank", 0}, {"source", stub}});
    ASSERT_EQ(r.status, 200) << r.body;
    auto rj = json::parse(r.body);
    EXPECT_EQ(rj["build_ok"], true) << lang << ": " << rj["detail"];
    EXPECT_EQ(rj["verdict"], "rejected") << lang;
    EXPECT_EQ(rj["reason"], "no_gpu") << lang;
    EXPECT_EQ(rj["detail"], "this judge has no GPU");
    EXPECT_EQ(rj["harness_fault"], false);
    EXPECT_EQ(rj["residency"], "host");
  }
  EXPECT_EQ(j.get("/task/tsvc_2_s000?rank=0&language=opencl").status, 400);
}

TEST(GpuE2E, CorrectAndIncorrectSourcesAreRejectedABrokenOneIsABuildError) {
  Judge j(kNoGpu);
  for (const auto& lang : buildable()) {
    for (const std::string& name : {"tsvc_2_s000_" + lang, "tsvc_2_s000_" + lang + "_wrong"}) {
      auto r = j.grade("score", "tsvc_2_s000", kSolutions + "/" + name + ext(lang), lang,
                       {{"residency", "device"}});
      EXPECT_EQ(r["verdict"], "rejected") << name << ": " << r.dump();
      EXPECT_EQ(r["reason"], "no_gpu") << name;
      EXPECT_EQ(r["build_ok"], true) << name;
      EXPECT_EQ(r["residency"], "device") << name;
    }
    // A compile error is the answer before the missing GPU is.
    auto broken = j.grade("submit", "tsvc_2_s000",
                          kSolutions + "/tsvc_2_s000_" + lang + "_syntax_error" + ext(lang), lang);
    EXPECT_EQ(broken["verdict"], "build_error") << broken.dump();
    EXPECT_EQ(broken["build_ok"], false);
    EXPECT_FALSE(broken.contains("reason"));
    EXPECT_NE(broken["detail"].get<std::string>().find("error"), std::string::npos)
        << broken["detail"];
  }
}

TEST(GpuE2E, AMissingToolchainIsARejectionNamingItsSetting) {
  Judge j(json{{"gpu_devices", "none"}, {"hip_compiler", "/nonexistent/hipcc"}});
  auto r = j.grade("score", "tsvc_2_s000", kSolutions + "/tsvc_2_s000_hip.hip", "hip");
  EXPECT_EQ(r["verdict"], "rejected") << r.dump();
  EXPECT_EQ(r["reason"], "no_toolchain");
  EXPECT_EQ(r["harness_fault"], false);
  EXPECT_NE(r["detail"].get<std::string>().find("hip_compiler"), std::string::npos) << r["detail"];
  // The other languages are graded as ever.
  auto c = j.grade("score", "tsvc_2_s000", kSolutions + "/tsvc_2_s000_wrong.c", "c");
  EXPECT_EQ(c["verdict"], "incorrect") << c.dump();
  EXPECT_EQ(c["residency"], "host");
}

TEST(GpuE2E, ResidencyIsCheckedBeforeAnythingIsBuilt) {
  Judge j(kNoGpu);
  auto body = [](const std::string& lang, const json& residency) {
    return json{{"kernel", "tsvc_2_s000"},
                {"language", lang},
                {"rank", 0},
                {"source", "int x;"},
                {"residency", residency}};
  };
  auto device_c = j.post("/score", body("c", "device"));
  EXPECT_EQ(device_c.status, 400);
  EXPECT_NE(device_c.body.find("residency"), std::string::npos) << device_c.body;
  for (const json& bad : {json("gpu"), json(1), json("HOST")}) {
    auto r = j.post("/score", body("hip", bad));
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_NE(r.body.find("residency"), std::string::npos) << r.body;
  }
}

}  // namespace
}  // namespace hpcab::judge
