#include "common/corpus_check.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/process.h"
#include "tests/unit/test_util.h"

namespace hpcab {
namespace {

const std::string kFixtures = HPCAB_TEST_FIXTURES;

KernelCheck check_fixture(const std::string& corpus, const std::string& id) {
  auto all = load_corpus(kFixtures + "/" + corpus);
  EXPECT_TRUE(all.ok()) << (all.ok() ? "" : all.error().message);
  testing::TempDir work;
  CheckOptions o;
  o.work_dir = work.path();
  for (const auto& m : *all) {
    if (m.id == id) return check_kernel(m, o);
  }
  ADD_FAILURE() << "no fixture " << id;
  return {};
}

TEST(CorpusCheck, BrokenKernelFailsNamingOutputAndIndex) {
  KernelCheck k = check_fixture("broken_corpus", "broken_add");
  EXPECT_FALSE(k.ok);
  EXPECT_NE(k.reason.find("a[7]"), std::string::npos) << k.reason;
  EXPECT_NE(k.reason.find("output a"), std::string::npos) << k.reason;
  std::string row = format_check_row(k);
  EXPECT_EQ(row.rfind("broken_add", 0), 0u) << row;
  EXPECT_NE(row.find("FAIL"), std::string::npos);
}

TEST(CorpusCheck, LinterRejectsDegenerateKernels) {
  EXPECT_NE(check_fixture("lint_corpus", "ignores_input")
                .reason.find("input 'c' does not affect any output"),
            std::string::npos);
  EXPECT_NE(check_fixture("lint_corpus", "constant_output").reason.find("do not vary across seeds"),
            std::string::npos);
  EXPECT_NE(check_fixture("lint_corpus", "nondeterministic").reason.find("nondeterministic"),
            std::string::npos);
}

TEST(CorpusCheck, GoodKernelPasses) {
  auto m = load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/s000");
  ASSERT_TRUE(m.ok());
  testing::TempDir work;
  CheckOptions o;
  o.work_dir = work.path();
  KernelCheck k = check_kernel(*m, o);
  EXPECT_TRUE(k.ok) << k.reason;
  EXPECT_EQ(k.cases, 10);  // 2 precisions x (3 distributions at S + 2 fuzzed draws)
}

TEST(CorpusCheck, PresetSMustBeGradeableAtEveryPrecision) {
  auto m = load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/s311");
  ASSERT_TRUE(m.ok());
  std::vector<std::string> others;
  EXPECT_TRUE(check_presets_gradeable(*m, &others).ok());
  // s311 sums N values: its M, L and XL presets are ungradeable at both precisions.
  EXPECT_NE(std::find(others.begin(), others.end(), "M fp64"), others.end());
  m->presets["S"] = m->presets["M"];
  auto st = check_presets_gradeable(*m, nullptr);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("preset S is ungradeable"), std::string::npos);
}

TEST(CorpusCheck, PresetSMustFitTheMemoryLimit) {
  auto m = load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/s000");
  ASSERT_TRUE(m.ok());
  // s000 holds two arrays of N reals. Under an 8 GiB runner (a 2 GiB data budget) its M
  // (95e6 elements: 1.4 GiB at fp64) fits, L and XL do at fp32 only.
  std::vector<std::string> others;
  EXPECT_TRUE(check_presets_fit(*m, uint64_t{8} << 30, &others).ok());
  EXPECT_EQ(others, (std::vector<std::string>{"L fp64", "XL fp64"}));
  // Under 16 KiB (a 4 KiB budget) not even S's 2 x 512 reals fit: the kernel fails, naming why,
  // before anything is built.
  auto st = check_presets_fit(*m, 16 << 10, nullptr);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Errc::kInvalid);
  EXPECT_NE(st.error().message.find("preset S does not fit"), std::string::npos)
      << st.error().message;
  testing::TempDir work;
  CheckOptions o;
  o.work_dir = work.path();
  o.memory_bytes = 16 << 10;
  KernelCheck k = check_kernel(*m, o);
  EXPECT_FALSE(k.ok);
  EXPECT_NE(k.reason.find("8 KiB"), std::string::npos) << k.reason;
}

TEST(CorpusCheck, PresetsOverTheMemoryBudgetAreListedInTheRow) {
  KernelCheck k;
  k.id = "s000";
  k.track = "loop_level_reasoning";
  k.ok = true;
  k.cases = 10;
  k.oversized_presets = {"L fp64", "XL fp64"};
  const std::string row = format_check_row(k);
  EXPECT_NE(row.find("presets over the memory budget, excluded from /submit: L fp64, XL fp64"),
            std::string::npos)
      << row;
}

TEST(CorpusCheck, MissingPythonIsAClearFailure) {
  auto m = load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/s000");
  ASSERT_TRUE(m.ok());
  testing::TempDir work;
  CheckOptions o;
  o.work_dir = work.path();
  o.python = "/nonexistent/python3";
  KernelCheck k = check_kernel(*m, o);
  EXPECT_FALSE(k.ok);
  EXPECT_NE(k.reason.find("/nonexistent/python3"), std::string::npos) << k.reason;
}

TEST(CorpusCheck, CommandLineExitsNonZeroAndPrintsTheRow) {
  ProcessOptions o;
  o.argv = {std::string(HPCAB_BINARY_DIR) + "/hpcab", "--corpus", kFixtures + "/broken_corpus",
            "corpus", "check"};
  auto r = run_process(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 1);
  EXPECT_NE(r->output.find("broken_add"), std::string::npos) << r->output;
  EXPECT_NE(r->output.find("a[7]"), std::string::npos) << r->output;
  EXPECT_NE(r->output.find("0 passed, 1 failed"), std::string::npos) << r->output;
}

TEST(CorpusCheck, CommandLineTakesTheMemoryLimit) {
  // atax's S holds a 3600 x 4500 matrix (124 MiB at fp64): over a quarter of a 64 MiB limit.
  ProcessOptions o;
  o.argv = {std::string(HPCAB_BINARY_DIR) + "/hpcab",
            "corpus",
            "check",
            "atax",
            "--memory-bytes",
            std::to_string(64 << 20)};
  auto r = run_process(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 1) << r->output;
  EXPECT_NE(r->output.find("within 16 MiB"), std::string::npos) << r->output;
  EXPECT_NE(r->output.find("preset S does not fit the memory limit"), std::string::npos)
      << r->output;
  o.argv.back() = "1";  // below the option's range
  r = run_process(o);
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->exit_code, 0);
}

TEST(CorpusCheck, CommandLineRejectsUnknownKernel) {
  ProcessOptions o;
  o.argv = {std::string(HPCAB_BINARY_DIR) + "/hpcab", "corpus", "check", "no_such_kernel"};
  auto r = run_process(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 2);
  EXPECT_NE(r->output.find("no kernel 'no_such_kernel'"), std::string::npos) << r->output;
}

}  // namespace
}  // namespace hpcab
