// The rules of the credited baseline's choice (judge/grade/baseline_choice.h) and the setting
// that names it.
#include "judge/grade/baseline_choice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "judge/config/config.h"

namespace hpcab::judge {
namespace {

using Names = std::vector<std::string>;

TEST(BaselineOptions, OneNameOrAListOfDistinctKnownNames) {
  EXPECT_EQ(baseline_options("c").value(), Names{"c"});
  EXPECT_EQ(baseline_options("c,c-autopar").value(), (Names{"c", "c-autopar"}));
  EXPECT_EQ(baseline_options(" c-autopar , c ").value(), (Names{"c-autopar", "c"}));
  EXPECT_EQ(baseline_options("numpy,numba,numba-parallel").value(),
            (Names{"numpy", "numba", "numba-parallel"}));
  for (const char* bad : {"", ",", "c,", "c,,c-autopar", "c,c", "pypy", "c,gcc", "numba,numba"}) {
    EXPECT_FALSE(baseline_options(bad).ok()) << bad;
  }
}

TEST(FastestBaseline, LeastMedianWinsTiesGoToTheEarlierOption) {
  const Names both = {"c", "c-autopar"};
  EXPECT_EQ(fastest_baseline(both, {{"c", 5e6}, {"c-autopar", 2e6}}), "c-autopar");
  EXPECT_EQ(fastest_baseline(both, {{"c", 2e6}, {"c-autopar", 5e6}}), "c");
  EXPECT_EQ(fastest_baseline(both, {{"c", 3e6}, {"c-autopar", 3e6}}), "c");
  // An option that was not timed, or timed as zero or NaN, is never the credited baseline.
  EXPECT_EQ(fastest_baseline(both, {{"c", 3e6}, {"c-autopar", 0}}), "c");
  EXPECT_EQ(fastest_baseline(both, {{"c", NAN}, {"c-autopar", 4e6}}), "c-autopar");
  EXPECT_EQ(fastest_baseline(both, {{"c-autopar", 4e6}}), "c-autopar");
  EXPECT_EQ(fastest_baseline(both, {}), "");
}

TEST(DescribeBaselines, ReadsAsTheAgentSeesIt) {
  EXPECT_EQ(describe_baselines({"c-autopar"}), "c-autopar");
  EXPECT_EQ(describe_baselines({"c", "c-autopar"}), "the fastest of c, c-autopar");
}

TEST(TrackBaselineSetting, DefaultsAreValidAndABadListIsRefused) {
  const auto dir = std::filesystem::temp_directory_path().string();
  JudgeConfig ok;
  EXPECT_TRUE(ok.finalize(dir).ok());
  // As the paper: loop-level against Numba, scientific the fastest of c, c-autopar and
  // numba-parallel, machine learning against NumPy.
  EXPECT_EQ(ok.track_baseline.at("loop_level_reasoning"), "numba");
  EXPECT_EQ(ok.track_baseline.at("scientific_computing"), "c,c-autopar,numba-parallel");
  EXPECT_EQ(ok.track_baseline.at("machine_learning"), "numpy");
  JudgeConfig bad;
  bad.track_baseline["scientific_computing"] = "c,,c-autopar";
  auto st = bad.finalize(dir);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("track_baseline.scientific_computing"), std::string::npos);
}

TEST(BaselineKinds, WhichReferenceEachIsBuiltFromAndWhichAreSequential) {
  for (const char* py : {"numpy", "numba", "numba-parallel"}) EXPECT_TRUE(baseline_from_python(py));
  for (const char* c : {"c", "c-autopar"}) EXPECT_FALSE(baseline_from_python(c));
  EXPECT_TRUE(sequential_baseline("c"));
  EXPECT_TRUE(sequential_baseline("numba"));
  for (const char* par : {"c-autopar", "numba-parallel", "numpy"}) {
    EXPECT_FALSE(sequential_baseline(par)) << par;
  }
  EXPECT_TRUE(baseline_needs_probe("numba"));
  EXPECT_TRUE(baseline_needs_probe("numba-parallel"));
  EXPECT_FALSE(baseline_needs_probe("numpy"));
  EXPECT_FALSE(baseline_needs_probe("c"));
}

TEST(BaselineKinds, AKernelWithoutAReferenceFileHasNoBaselineBuiltFromIt) {
  const Names all = {"c", "c-autopar", "numpy", "numba", "numba-parallel"};
  EXPECT_EQ(available_options(all, true, true), all);
  EXPECT_EQ(available_options(all, false, true), (Names{"numpy", "numba", "numba-parallel"}));
  EXPECT_EQ(available_options(all, true, false), (Names{"c", "c-autopar"}));
  EXPECT_EQ(describe_baseline_code("numba"), "reference.py under Numba's njit, sequential");
}

TEST(TrackBaselineSetting, KernelOverridesOraclesAndReportedBaselinesAreChecked) {
  const auto dir = std::filesystem::temp_directory_path().string();
  JudgeConfig ok;
  ok.kernel_baseline["gemm"] = "c,numba";
  ok.report_baselines = "";
  ok.track_oracle["machine_learning"] = "numpy";
  EXPECT_TRUE(ok.finalize(dir).ok());
  JudgeConfig bad_kernel;
  bad_kernel.kernel_baseline["gemm"] = "fortran";
  auto st = bad_kernel.finalize(dir);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("kernel_baseline.gemm"), std::string::npos);
  JudgeConfig bad_oracle;
  bad_oracle.track_oracle["machine_learning"] = "numba";
  st = bad_oracle.finalize(dir);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("track_oracle.machine_learning"), std::string::npos);
  JudgeConfig bad_report;
  bad_report.report_baselines = "c,,numpy";
  st = bad_report.finalize(dir);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("report_baselines"), std::string::npos);
}

}  // namespace
}  // namespace hpcab::judge
