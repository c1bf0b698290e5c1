// The rules of the credited baseline's choice (judge/grade/baseline_choice.h) and the setting
// that names it.
#include "judge/grade/baseline_choice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "judge/config.h"

namespace hpcab::judge {
namespace {

using Names = std::vector<std::string>;

TEST(BaselineOptions, OneNameOrAListOfDistinctKnownNames) {
  EXPECT_EQ(baseline_options("c").value(), Names{"c"});
  EXPECT_EQ(baseline_options("c,c-autopar").value(), (Names{"c", "c-autopar"}));
  EXPECT_EQ(baseline_options(" c-autopar , c ").value(), (Names{"c-autopar", "c"}));
  for (const char* bad : {"", ",", "c,", "c,,c-autopar", "c,c", "numpy", "c,gcc"}) {
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
  EXPECT_EQ(ok.track_baseline.at("scientific_computing"), "c,c-autopar");
  JudgeConfig bad;
  bad.track_baseline["scientific_computing"] = "c,,c-autopar";
  auto st = bad.finalize(dir);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("track_baseline.scientific_computing"), std::string::npos);
}

}  // namespace
}  // namespace hpcab::judge
