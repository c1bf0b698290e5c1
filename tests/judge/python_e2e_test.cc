// Python kernels end to end: a real judge with the paper's per-track baselines
// (loop-level Numba, scientific the fastest of c, c-autopar and numba-parallel, machine
// learning NumPy) and the reported figures against c, numpy and numba, hpcab-pyrunner in the
// sandbox, real NumPy and Numba. One judge for the suite: Numba's probes and the cached
// reported baselines are paid once.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "judge/store/store.h"
#include "tests/judge/judge_process.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using test::Judge;

const std::string kSolutions = HPCAB_TEST_SOLUTIONS;
const std::string kSource = HPCAB_SOURCE_DIR;

class PythonE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    judge_ = new Judge(json{{"track_baseline",
                             {{"loop_level_reasoning", "numba"},
                              {"scientific_computing", "c,c-autopar,numba-parallel"},
                              {"machine_learning", "numpy"}}},
                            {"report_baselines", "c,numpy,numba"},
                            {"hidden_variants", 1},
                            {"submit_fuzzed_configs", 0}});
  }
  static void TearDownTestSuite() {
    delete judge_;
    judge_ = nullptr;
  }
  // A module written to a file for Judge::grade.
  static std::string module(const std::string& name, const std::string& text) {
    const fs::path p = fs::temp_directory_path() / ("hpcab-py-" + name + ".py");
    std::ofstream(p) << text;
    return p.string();
  }
  static Judge* judge_;
};
Judge* PythonE2E::judge_ = nullptr;

TEST_F(PythonE2E, GemmInPythonIsOkWithSpeedupsAgainstNumPyNumbaAndC) {
  json r = judge_->grade("submit", "gemm", kSolutions + "/gemm.py", "python", {{"preset", "S"}});
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["language"], "python");
  EXPECT_EQ(r["oracle"], "reference.c");
  const std::set<std::string> scientific = {"c", "c-autopar", "numba-parallel"};
  EXPECT_TRUE(scientific.count(r["baseline"].get<std::string>())) << r.dump();
  EXPECT_TRUE(r["speedup"].is_number()) << r.dump();
  for (const char* name : {"numpy", "numba", "c"}) {
    ASSERT_TRUE(r["speedups"].contains(name)) << name << " missing: " << r.dump();
    EXPECT_GT(r["speedups"][name].get<double>(), 0) << name;
  }
  // The Python versions are part of the machine record: no sample is reused across them.
  auto store = judge_->store();
  auto rec = store->get_submission(r["submission_id"].get<int64_t>());
  ASSERT_TRUE(rec.ok() && rec->has_value());
  EXPECT_NE((*rec)->machine.find("numpy"), std::string::npos) << (*rec)->machine;
  EXPECT_NE((*rec)->machine.find("numba"), std::string::npos) << (*rec)->machine;
  std::set<std::string> reported;
  for (const auto& x : (*rec)->reported) {
    reported.insert(x.baseline);
    EXPECT_GT(x.speedup, 0) << x.baseline;
  }
  EXPECT_TRUE(reported.count("numpy") && reported.count("numba")) << r.dump();
}

TEST_F(PythonE2E, LoopLevelIsCreditedAgainstNumbaAndReportsC) {
  json r = judge_->grade("submit", "tsvc_2_s000", kSolutions + "/tsvc_2_s000.c");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["baseline"], "numba") << r.dump();
  EXPECT_FALSE(r.contains("baselines_unavailable")) << r.dump();
  EXPECT_TRUE(r["speedups"].contains("c")) << r.dump();
  EXPECT_TRUE(r["speedups"].contains("numpy")) << r.dump();
}

TEST_F(PythonE2E, TheTaskGivesAPythonStub) {
  auto t = judge_->get("/task/gemm?language=python&rank=0");
  ASSERT_EQ(t.status, 200) << t.body;
  json j = json::parse(t.body);
  EXPECT_EQ(j["prototype"], "def gemm(A, B, C, NI, NJ, NK, alpha, beta):");
  EXPECT_EQ(j["symbol"], "gemm");
  EXPECT_NE(j["signature"].get<std::string>().find("def gemm(A, B, C, NI, NJ, NK, alpha, beta):"),
            std::string::npos);
  // The stub grades as what it is: a module whose function raises.
  json r =
      judge_->grade("score", "gemm", module("stub", j["signature"].get<std::string>()), "python");
  EXPECT_EQ(r["verdict"], "crash") << r.dump();
  EXPECT_NE(r["detail"].get<std::string>().find("NotImplementedError"), std::string::npos)
      << r.dump();
}

TEST_F(PythonE2E, SyntaxAndImportErrorsAreBuildErrors) {
  json r = judge_->grade("score", "tsvc_2_s000",
                         module("syntax", "def tsvc_2_s000(a, b, N)\n  pass\n"), "python");
  EXPECT_EQ(r["verdict"], "build_error") << r.dump();
  EXPECT_NE(r["detail"].get<std::string>().find("SyntaxError"), std::string::npos) << r.dump();
  r = judge_->grade("score", "tsvc_2_s000",
                    module("noname", "def other(a, b, N):\n  a[:] = b + 1\n"), "python");
  EXPECT_EQ(r["verdict"], "build_error") << r.dump();
  r = judge_->grade("score", "tsvc_2_s000", module("import", "import no_such_module_here\n"),
                    "python");
  EXPECT_EQ(r["verdict"], "build_error") << r.dump();
  EXPECT_NE(r["detail"].get<std::string>().find("no_such_module_here"), std::string::npos);
}

TEST_F(PythonE2E, AReturnedResultIsDeliveredAndAWrongOneIsIncorrect) {
  // tsvc_2_s000: a = b + 1 (one output, returned instead of written).
  json r =
      judge_->grade("score", "tsvc_2_s000",
                    module("returned", "def tsvc_2_s000(a, b, N):\n    return b + 1\n"), "python");
  EXPECT_EQ(r["verdict"], "ok") << r.dump();
  r = judge_->grade("score", "tsvc_2_s000",
                    module("wrong", "def tsvc_2_s000(a, b, N):\n    return b + 2\n"), "python");
  EXPECT_EQ(r["verdict"], "incorrect") << r.dump();
}

// swish has kernel.json and reference.py only: the NumPy oracle checks it, NumPy (the machine
// learning track's baseline) times it, and a C submission is graded against both as well.
TEST_F(PythonE2E, ANumPyOnlyKernelIsGradedEndToEnd) {
  json r = judge_->grade("submit", "swish", kSource + "/corpus/machine_learning/swish/reference.py",
                         "python");
  ASSERT_EQ(r["verdict"], "ok") << r.dump();
  EXPECT_EQ(r["oracle"], "reference.py (numpy)");
  EXPECT_EQ(r["baseline"], "numpy");
  EXPECT_EQ(r["hidden_passed"], r["hidden_total"]);
  EXPECT_GT(r["hidden_total"].get<int>(), 0);
  json c = judge_->grade("submit", "swish", kSolutions + "/swish.c");
  ASSERT_EQ(c["verdict"], "ok") << c.dump();
  EXPECT_EQ(c["oracle"], "reference.py (numpy)");
  // A wrong C answer is caught by the NumPy oracle.
  json wrong = judge_->grade("score", "swish",
                             module("swish_wrong",
                                    "def swish(out, x, N):\n"
                                    "    out[:] = x\n"),
                             "python");
  EXPECT_EQ(wrong["verdict"], "incorrect") << wrong.dump();
  auto t = judge_->get("/task/swish?rank=0");
  ASSERT_EQ(t.status, 200) << t.body;
  EXPECT_EQ(json::parse(t.body)["oracle"], "reference.py (numpy)");
}

TEST_F(PythonE2E, BaselineListsEveryBaselineTheKernelHas) {
  auto b = judge_->get("/baseline/tsvc_2_s000?rank=0&preset=S");
  ASSERT_EQ(b.status, 200) << b.body;
  json j = json::parse(b.body);
  for (const char* name : {"c", "c-autopar", "numpy", "numba", "numba-parallel"}) {
    const bool timed = j["baselines"].contains(name) && j["baselines"][name].get<double>() > 0;
    EXPECT_TRUE(timed || j["unavailable"].contains(name)) << name << ": " << b.body;
  }
  EXPECT_TRUE(j["baselines"].contains("numba")) << b.body;  // tsvc_2_s000's reference compiles
}

}  // namespace
}  // namespace hpcab::judge
