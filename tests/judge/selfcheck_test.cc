// The self-check's verdicts on grade responses (judge/grade/selfcheck.h), on fixed responses: a
// reference credited 1 passes, one judged suspect or faulted fails the host, the parallel gemm
// is held to its direct ratio.
#include "judge/grade/selfcheck.h"

#include <gtest/gtest.h>

namespace hpcab::judge {
namespace {

using json = nlohmann::json;

SelfcheckCase reference() { return {"memory-bound", "tsvc_2_s000", "c", "src", "c", false}; }
SelfcheckCase parallel() { return {"parallel", "gemm", "c", "src", "c", true}; }

json ok(double speedup, const std::string& baseline = "c") {
  return {{"verdict", "ok"}, {"speedup", speedup}, {"suspect", false}, {"baseline", baseline}};
}

TEST(SelfcheckTest, AReferenceCreditedOneAgainstItsOwnBuildPasses) {
  EXPECT_EQ(judge_self(reference(), ok(1.0), 0.03).outcome, SelfcheckOutcome::kPass);
  EXPECT_EQ(judge_self(reference(), ok(1.029), 0.03).outcome, SelfcheckOutcome::kPass);
  EXPECT_EQ(judge_self(reference(), ok(1.05), 0.03).outcome, SelfcheckOutcome::kMisjudged);
  EXPECT_EQ(judge_self(reference(), ok(0.9), 0.03).outcome, SelfcheckOutcome::kMisjudged);
}

TEST(SelfcheckTest, ASuspectReferenceOrAFaultOrAnotherBaselineIsNoPass) {
  json suspect = ok(1.0);
  suspect["suspect"] = true;
  suspect["speedup"] = nullptr;
  EXPECT_EQ(judge_self(reference(), suspect, 0.03).outcome, SelfcheckOutcome::kSuspect);
  json fault = {{"verdict", "judge_error"}, {"fault", "slot"}, {"speedup", nullptr}};
  EXPECT_EQ(judge_self(reference(), fault, 0.03).outcome, SelfcheckOutcome::kFailed);
  EXPECT_EQ(judge_self(reference(), ok(1.0, "numba"), 0.03).outcome, SelfcheckOutcome::kFailed);
  EXPECT_EQ(judge_self(reference(), json{{"error", "bad request"}}, 0.03).outcome,
            SelfcheckOutcome::kFailed);
}

TEST(SelfcheckTest, TheParallelCandidateIsHeldToItsDirectRatio) {
  json direct = ok(1.0);
  direct["speedups_raw"] = {{"c", 1.8}};
  SelfcheckResult r = judge_parallel(parallel(), ok(1.75), direct, 0.10);
  EXPECT_EQ(r.outcome, SelfcheckOutcome::kPass);
  EXPECT_DOUBLE_EQ(*r.expected, 1.8);
  EXPECT_EQ(judge_parallel(parallel(), ok(1.5), direct, 0.10).outcome,
            SelfcheckOutcome::kMisjudged);
  json no_ratio = ok(1.0);
  EXPECT_EQ(judge_parallel(parallel(), ok(1.75), no_ratio, 0.10).outcome,
            SelfcheckOutcome::kFailed);
  json fault = {{"verdict", "judge_error"}, {"fault", "slot"}};
  EXPECT_EQ(judge_parallel(parallel(), ok(1.75), fault, 0.10).outcome, SelfcheckOutcome::kFailed);
}

TEST(SelfcheckTest, FitOnlyWhenNoCheckFailedAndSomethingWasChecked) {
  SelfcheckReport r;
  EXPECT_FALSE(r.fit());
  r.results.push_back({"memory-bound", "k", SelfcheckOutcome::kPass, 1.0, 1.0, 0.03, ""});
  r.results.push_back({"python", "k", SelfcheckOutcome::kSkipped, {}, {}, 0.03, ""});
  EXPECT_TRUE(r.fit());
  EXPECT_TRUE(r.to_json()["fit"].get<bool>());
  r.results.push_back({"parallel", "k", SelfcheckOutcome::kMisjudged, 1.2, 1.8, 0.1, ""});
  EXPECT_FALSE(r.fit());
  const json j = r.to_json();
  EXPECT_FALSE(j["fit"].get<bool>());
  ASSERT_EQ(j["checks"].size(), 3u);
  EXPECT_EQ(j["checks"][2]["outcome"], "misjudged");
  EXPECT_TRUE(j["checks"][1]["credit"].is_null());
}

TEST(SelfcheckTest, RunSelfcheckGradesEachCaseAndTimesTheParallelOneDirectly) {
  std::vector<std::string> routes;
  SelfcheckGraders g{[&](const GradeRequest& r) {
                       routes.push_back(r.route + " " + r.kernel);
                       return r.kernel == "gemm" ? ok(1.7) : ok(1.0);
                     },
                     [&](const GradeRequest& r) {
                       routes.push_back("direct " + r.route + " " + r.kernel);
                       json d = ok(1.0);
                       d["speedups_raw"] = {{"c", 1.75}};
                       return d;
                     }};
  int reported = 0;
  auto report = run_selfcheck({reference(), parallel()}, g, 0.03, 0.10,
                              [&](const SelfcheckResult&) { ++reported; });
  EXPECT_TRUE(report.fit());
  EXPECT_EQ(reported, 2);
  EXPECT_EQ(routes,
            (std::vector<std::string>{"submit tsvc_2_s000", "submit gemm", "direct score gemm"}));
}

TEST(SelfcheckTest, TheSettingsCreditEachCaseAgainstItsOwnBuild) {
  JudgeConfig base;
  base.kernel_baseline["gemm"] = "c-autopar";
  auto cases =
      std::vector<SelfcheckCase>{reference(), {"python", "softmax", "python", "", "numpy"}};
  JudgeConfig paired = selfcheck_config(base, cases, false);
  EXPECT_EQ(paired.kernel_baseline["tsvc_2_s000"], "c");
  EXPECT_EQ(paired.kernel_baseline["softmax"], "numpy");
  EXPECT_EQ(paired.report_baselines, "");
  EXPECT_TRUE(paired.score_paired);
  EXPECT_FALSE(selfcheck_config(base, cases, true).score_paired);
}

TEST(SelfcheckTest, TheCasesFollowWhatThisJudgeCanRun) {
  auto corpus = load_corpus(std::string(HPCAB_SOURCE_DIR) + "/corpus");
  ASSERT_TRUE(corpus) << corpus.error().message;
  auto names = [](const std::vector<SelfcheckCase>& cases) {
    std::vector<std::string> out;
    for (const auto& c : cases) {
      EXPECT_FALSE(c.source.empty()) << c.name;
      out.push_back(c.name);
    }
    return out;
  };
  EXPECT_EQ(names(selfcheck_cases(*corpus, 2, true)),
            (std::vector<std::string>{"memory-bound", "compute-bound", "python", "parallel"}));
  EXPECT_EQ(names(selfcheck_cases(*corpus, 1, false)),
            (std::vector<std::string>{"memory-bound", "compute-bound"}));
}

}  // namespace
}  // namespace hpcab::judge
