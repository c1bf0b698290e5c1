#include "common/corpus_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

#include "common/check_record.h"
#include "common/process.h"
#include "tests/unit/test_util.h"

namespace hpcab {
namespace {

namespace fs = std::filesystem;

const std::string kFixtures = HPCAB_TEST_FIXTURES;

KernelCheck check_fixture(const std::string& corpus, const std::string& id) {
  auto all = load_corpus(kFixtures + "/" + corpus);
  EXPECT_TRUE(all.ok()) << (all.ok() ? "" : all.error().message);
  testing::TempDir work;
  CheckOptions o;
  o.work_dir = work.path();
  o.numba = false;
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
  auto m =
      load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000");
  ASSERT_TRUE(m.ok());
  testing::TempDir work;
  CheckOptions o;
  o.work_dir = work.path();
  KernelCheck k = check_kernel(*m, o);
  EXPECT_TRUE(k.ok) << k.reason;
  EXPECT_FALSE(k.numpy_only);
  EXPECT_EQ(k.cases, 10);  // 2 precisions x (3 distributions at S + 2 fuzzed draws)
  // `a[:] = b + 1` compiles under Numba, plain and parallel, and agrees with NumPy.
  EXPECT_EQ(k.numba.state, NumbaStatus::State::kOk) << k.numba.text();
  EXPECT_EQ(k.numba_parallel.state, NumbaStatus::State::kOk) << k.numba_parallel.text();
  const std::string row = format_check_row(k);
  EXPECT_NE(row.find("c-vs-numpy  numba: ok, numba-parallel: ok"), std::string::npos) << row;
}

// tsvc_2_s000 (`a = b + 1`, fp64 and fp32) copied with `reference_c` as its reference.c.
KernelCheck check_c_reference(const std::string& reference_c) {
  testing::TempDir root;
  const fs::path from = std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000";
  const fs::path dir = root.path() / "loop_level_reasoning" / "tsvc_2_s000";
  fs::create_directories(dir);
  for (const char* f : {"kernel.json", "reference.py"}) fs::copy_file(from / f, dir / f);
  testing::write_file(dir / "reference.c", reference_c);
  auto all = load_corpus(root.path());
  EXPECT_TRUE(all.ok()) << (all.ok() ? "" : all.error().message);
  if (!all.ok()) return {};
  testing::TempDir work;
  CheckOptions o;
  o.work_dir = work.path();
  o.numba = false;
  return check_kernel(all->front(), o);
}

const char* kAddOneHead =
    "#include <stdint.h>\n"
    "void HPCAB_KERNEL(tsvc_2_s000)(real *restrict a, const real *restrict b, const int64_t N,\n"
    "                           uint8_t *restrict workspace, const int64_t workspace_size) {\n"
    "  (void)workspace;\n"
    "  (void)workspace_size;\n";

TEST(CorpusCheck, ASingleSourceReferencePassesAtBothPrecisions) {
  KernelCheck k = check_c_reference(
      std::string(kAddOneHead) + "  for (int64_t i = 0; i < N; i++) a[i] = b[i] + (real)1.0;\n}\n");
  EXPECT_TRUE(k.ok) << k.reason;
  EXPECT_EQ(k.cases, 10);  // 2 precisions x (3 distributions at S + 2 fuzzed draws)
}

// `b[i] + 1.0` promotes the fp32 instantiation's float to double: its baseline would compute in
// double, slower than it should be. The check refuses it, saying why.
TEST(CorpusCheck, AReferenceThatPromotesToDoubleAtFp32Fails) {
  KernelCheck k = check_c_reference(std::string(kAddOneHead) +
                                    "  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;\n}\n");
  EXPECT_FALSE(k.ok);
  EXPECT_NE(k.reason.find("at fp32: it computes in double there"), std::string::npos) << k.reason;
  EXPECT_NE(k.reason.find("-Werror=double-promotion"), std::string::npos) << k.reason;
}

TEST(CorpusCheck, AReferenceInTheOldTwoFunctionFormFailsNamingTheConverter) {
  KernelCheck k = check_c_reference(
      "#include <stdint.h>\n"
      "void tsvc_2_s000_fp64(double *restrict a, const double *restrict b, const int64_t N,\n"
      "                  uint8_t *restrict w, const int64_t ws) {\n"
      "  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0;\n}\n"
      "void tsvc_2_s000_fp32(float *restrict a, const float *restrict b, const int64_t N,\n"
      "                  uint8_t *restrict w, const int64_t ws) {\n"
      "  for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0f;\n}\n");
  EXPECT_FALSE(k.ok);
  EXPECT_NE(k.reason.find("scripts/reference-single-source.py"), std::string::npos) << k.reason;
}

// A NumPy-only kernel of the test's own: minimal_manifest's shape (a = f(b), N), track `ml`.
struct NumpyKernel {
  testing::TempDir root;
  Manifest m;
};

std::unique_ptr<NumpyKernel> numpy_kernel(const std::string& id, const std::string& body,
                                          const std::string& imports = "import numpy as np\n") {
  auto k = std::make_unique<NumpyKernel>();
  auto j = testing::minimal_manifest(id);
  j["track"] = "machine_learning";
  j["oracle"] = "numpy";
  testing::write_numpy_kernel(k->root.path() / "machine_learning", j,
                              imports + "\n\ndef " + id + "(a, b, N):\n" + body);
  auto all = load_corpus(k->root.path());
  EXPECT_TRUE(all.ok()) << (all.ok() ? "" : all.error().message);
  if (all.ok()) k->m = all->front();
  return k;
}

KernelCheck check(const Manifest& m, bool numba) {
  testing::TempDir work;
  CheckOptions o;
  o.work_dir = work.path();
  o.numba = numba;
  return check_kernel(m, o);
}

TEST(CorpusCheck, NumpyOnlyKernelPasses) {
  auto m = load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/machine_learning/swish");
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_FALSE(m->has_reference_c());
  KernelCheck k = check(*m, /*numba=*/false);
  EXPECT_TRUE(k.ok) << k.reason;
  EXPECT_TRUE(k.numpy_only);
  EXPECT_EQ(k.cases, 10);  // every case ran through reference.py and was checked
  EXPECT_EQ(k.numba.state, NumbaStatus::State::kNotChecked);
  const std::string row = format_check_row(k);
  EXPECT_EQ(row.rfind("swish", 0), 0u) << row;
  EXPECT_NE(row.find(" ok "), std::string::npos) << row;
  EXPECT_NE(row.find("numpy-only"), std::string::npos) << row;
  EXPECT_EQ(row.find("numba"), std::string::npos) << row;  // not checked: not shown
}

TEST(CorpusCheck, NumpyOnlyKernelThatRaisesFailsNamingIt) {
  auto k = numpy_kernel("raises", "    raise ValueError('no such thing as a free lunch')\n");
  KernelCheck r = check(k->m, /*numba=*/true);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.numpy_only);
  EXPECT_NE(r.reason.find("reference.py failed"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("raises/reference.py: case"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("ValueError: no such thing as a free lunch"), std::string::npos)
      << r.reason;
  const std::string row = format_check_row(r);
  EXPECT_EQ(row.rfind("raises", 0), 0u) << row;
  EXPECT_NE(row.find("FAIL"), std::string::npos) << row;
}

TEST(CorpusCheck, NumpyOnlyKernelOutputsAreChecked) {
  // NaN written, an output never written (left poisoned: NaN), a value returned, a function
  // missing: each fails, naming what.
  for (const auto& [body, want] : std::vector<std::pair<std::string, std::string>>{
           {"    a[:] = b\n    a[3] = np.nan\n", "output 'a' holds NaN at index 3"},
           {"    a = b + 1\n", "output 'a' holds NaN at index 0"},
           {"    a[:] = b / 0.0\n", "holds "},
           {"    a[:] = b\n    return a\n", "must write outputs in place and return None"}}) {
    auto k = numpy_kernel("writes", body);
    KernelCheck r = check(k->m, /*numba=*/false);
    EXPECT_FALSE(r.ok) << body;
    EXPECT_NE(r.reason.find(want), std::string::npos) << body << ": " << r.reason;
  }
  auto k = numpy_kernel("misnamed", "    a[:] = b\n");
  testing::write_file(k->m.reference_py(), "def other(a, b, N):\n    a[:] = b\n");
  KernelCheck r = check(k->m, /*numba=*/false);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.reason.find("defines no function named 'misnamed'"), std::string::npos) << r.reason;
}

TEST(CorpusCheck, NumpyOnlyKernelIsLinted) {
  auto constant = numpy_kernel("constant", "    a[:] = 1.0\n");
  EXPECT_NE(check(constant->m, false).reason.find("do not vary across seeds"), std::string::npos);
  auto random = numpy_kernel("random", "    a[:] = b + np.random.random(N)\n");
  EXPECT_NE(check(random->m, false).reason.find("reference.py is nondeterministic"),
            std::string::npos);
  // Two inputs, one ignored.
  auto k = std::make_unique<NumpyKernel>();
  auto j = testing::minimal_manifest("ignores_c");
  j["arrays"]["c"] = {{"shape", {"N"}}, {"dtype", "real"}, {"intent", "in"}};
  auto dir = testing::write_numpy_kernel(k->root.path(), j,
                                         "def ignores_c(a, b, c, N):\n    a[:] = 2 * b\n");
  auto m = load_manifest(dir);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_NE(check(*m, false).reason.find("input 'c' does not affect any output"),
            std::string::npos);
  // With the linter off, the same kernel passes.
  testing::TempDir work;
  CheckOptions o;
  o.work_dir = work.path();
  o.numba = false;
  o.lint = false;
  KernelCheck r = check_kernel(*m, o);
  EXPECT_TRUE(r.ok) << r.reason;
}

TEST(CorpusCheck, NumbaUnsupportedIsReportedNotAFailure) {
  // np.einsum with a subscript string: NumPy runs it, Numba cannot compile it.
  auto k = numpy_kernel("uses_einsum", "    a[:] = np.einsum('i->i', b) + 1\n");
  KernelCheck r = check(k->m, /*numba=*/true);
  EXPECT_TRUE(r.ok) << r.reason;
  EXPECT_EQ(r.numba.state, NumbaStatus::State::kUnsupported) << r.numba.text();
  EXPECT_EQ(r.numba_parallel.state, NumbaStatus::State::kUnsupported) << r.numba_parallel.text();
  // The first informative line, not Numba's generic "Failed in nopython mode pipeline".
  EXPECT_NE(r.numba.detail.find("TypingError: "), std::string::npos) << r.numba.detail;
  EXPECT_NE(r.numba.detail.find("einsum"), std::string::npos) << r.numba.detail;
  EXPECT_EQ(r.numba.detail.find("Failed in"), std::string::npos) << r.numba.detail;
  const std::string row = format_check_row(r);
  EXPECT_NE(row.find("numba: unsupported (TypingError: "), std::string::npos) << row;
  EXPECT_NE(row.find("numba-parallel: unsupported ("), std::string::npos) << row;
  auto j = check_json(r);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["checked"], "numpy-only");
  EXPECT_EQ(j["numba"]["status"], "unsupported");
  EXPECT_EQ(j["numba_parallel"]["status"], "unsupported");
  EXPECT_FALSE(j.contains("reason"));
}

TEST(CorpusCheck, NumbaDisagreeingWithNumpyIsAFailure) {
  // Python integers are unbounded, Numba's wrap at 64 bits: 3**50 % 7 is 2 under NumPy only.
  auto k = numpy_kernel("wraps", "    a[:] = b + float((N * 0 + 3) ** 50 % 7)\n");
  KernelCheck r = check(k->m, /*numba=*/true);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.numba.state, NumbaStatus::State::kFailed) << r.numba.text();
  EXPECT_NE(r.reason.find("numba: fp64 fuzzed#1"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("disagrees with NumPy"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("output a"), std::string::npos) << r.reason;
  // The row gives the reason once, the statuses by name.
  const std::string row = format_check_row(r);
  EXPECT_NE(row.find("(numba: failed, numba-parallel: failed)"), std::string::npos) << row;

  // NumPy's int64 floor division by zero warns and gives 0; Numba's raises: compiled, then
  // failed at run time, which fails the kernel too.
  auto raising = numpy_kernel("divides", "    a[:] = b + np.int64(N) // np.int64(N - N)\n");
  r = check(raising->m, /*numba=*/true);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.numba.state, NumbaStatus::State::kFailed) << r.numba.text();
  EXPECT_NE(r.reason.find("raised at run time: ZeroDivisionError"), std::string::npos) << r.reason;
}

TEST(CorpusCheck, NumbaStatusCommandPrintsJson) {
  auto k = numpy_kernel("uses_einsum", "    a[:] = np.einsum('i->i', b) + 1\n");
  ProcessOptions o;
  o.argv = {std::string(HPCAB_BINARY_DIR) + "/hpcab",
            "--corpus",
            k->root.path().string(),
            "corpus",
            "numba-status",
            "--json"};
  o.timeout_s = 120;
  auto r = run_process(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0) << r->output;
  auto j = nlohmann::json::parse(r->output, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r->output;
  ASSERT_EQ(j["kernels"].size(), 1u) << r->output;
  EXPECT_EQ(j["kernels"][0]["id"], "uses_einsum");
  EXPECT_EQ(j["kernels"][0]["numba"]["status"], "unsupported");
  EXPECT_NE(j["kernels"][0]["numba"]["detail"].get<std::string>().find("einsum"),
            std::string::npos);
}

TEST(CorpusCheck, PresetSMustBeGradeableAtEveryPrecision) {
  auto m =
      load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s311");
  ASSERT_TRUE(m.ok());
  std::vector<std::string> others;
  EXPECT_TRUE(check_presets_gradeable(*m, &others).ok());
  // tsvc_2_s311 sums N values: its M, L and XL presets are ungradeable at both precisions.
  EXPECT_NE(std::find(others.begin(), others.end(), "M fp64"), others.end());
  m->presets["S"] = m->presets["M"];
  auto st = check_presets_gradeable(*m, nullptr);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("preset S is ungradeable"), std::string::npos);
}

// The graded-outputs lint: a description that calls an output an upstream temporary (or
// intermediate, scratch, a stand-in for a workspace, ...) needs a graded_because on an output.
TEST(CorpusCheck, GradedOutputsAreUpstreamsOrDeclared) {
  auto j = testing::minimal_manifest();
  j["arrays"]["t"] = {{"shape", {"N"}}, {"dtype", "real"}, {"intent", "out"}};
  auto load = [](const nlohmann::json& manifest) {
    testing::TempDir tmp;
    auto m = load_manifest(testing::write_manifest(tmp.path(), manifest));
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
    return *m;
  };
  // Clean descriptions pass: a result, a number with a point, "not an output".
  for (const char* d : {"a = 0.5 * b. The loop's temporary t is written too.",
                        "a = b; the running statistics are not outputs (a scratch copy)."}) {
    j["description"] = d;
    EXPECT_TRUE(check_graded_outputs(load(j)).ok()) << d;
  }
  for (const char* d :
       {"a = 2 * b. The temporary t is an output too, since the kernel has no workspace.",
        "a = 2 * b; the intermediate t is an output, as in upstream's signature.",
        "a = 2 * b. Upstream returns only a, here t is an output as well.",
        "a = 2 * b. The derivative array t is an output as in Rodinia."}) {
    j["description"] = d;
    auto st = check_graded_outputs(load(j));
    ASSERT_FALSE(st.ok()) << d;
    EXPECT_NE(st.error().message.find("no output declares graded_because"), std::string::npos)
        << st.error().message;
    EXPECT_NE(st.error().message.find(" is an output"), std::string::npos)
        << "quotes the sentence: " << st.error().message;
    // Declared with its reason, the same description passes.
    auto declared = j;
    declared["arrays"]["t"]["graded_because"] = "a test of the rule";
    EXPECT_TRUE(check_graded_outputs(load(declared)).ok()) << d;
  }
  // The linter runs it: check_kernel fails such a kernel before building anything.
  j["description"] = "a = 2 * b. The temporary t is an output too.";
  testing::TempDir tmp;
  testing::write_numpy_kernel(tmp.path(), j, "def k(a, b, t, N):\n    a[:] = 2 * b\n");
  auto m = load_manifest(tmp.path() / "k");
  ASSERT_TRUE(m.ok()) << m.error().message;
  testing::TempDir work;
  CheckOptions o;
  o.work_dir = work.path();
  o.numba = false;
  KernelCheck k = check_kernel(*m, o);
  EXPECT_FALSE(k.ok);
  EXPECT_NE(k.reason.find("lint: the description says an output is not upstream's result"),
            std::string::npos)
      << k.reason;
}

// Every kernel of the corpus keeps the rule (it is cheap: descriptions and manifests only).
TEST(CorpusCheck, EveryCorpusKernelGradesUpstreamsResultsOrDeclaresWhy) {
  auto all = load_corpus(std::string(HPCAB_SOURCE_DIR) + "/corpus");
  ASSERT_TRUE(all.ok()) << all.error().message;
  for (const auto& m : *all) {
    auto st = check_graded_outputs(m);
    EXPECT_TRUE(st.ok()) << m.id << ": " << st.error().message;
  }
}

TEST(CorpusCheck, PresetSMustFitTheMemoryLimit) {
  auto m =
      load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000");
  ASSERT_TRUE(m.ok());
  // tsvc_2_s000 holds two arrays of N reals. Under an 8 GiB runner (a 2 GiB data budget) its M
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
  k.id = "tsvc_2_s000";
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
  auto m =
      load_manifest(std::string(HPCAB_SOURCE_DIR) + "/corpus/loop_level_reasoning/tsvc_2_s000");
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
  EXPECT_NE(r->output.find("unknown kernel 'no_such_kernel'"), std::string::npos) << r->output;
}

TEST(CorpusCheck, CommandLineListCountsTracksDwarfsLevelsAndTags) {
  ProcessOptions o;
  o.argv = {std::string(HPCAB_BINARY_DIR) + "/hpcab", "--corpus",
            std::string(HPCAB_SOURCE_DIR) + "/corpus", "corpus", "list"};
  auto r = run_process(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0) << r->output;
  auto all = load_corpus(std::string(HPCAB_SOURCE_DIR) + "/corpus");
  ASSERT_TRUE(all.ok());
  EXPECT_NE(r->output.find("\n" + std::to_string(all->size()) + " kernels\n"), std::string::npos)
      << r->output;
  EXPECT_NE(r->output.find("tags: llr-focus40 40"), std::string::npos) << r->output;
  EXPECT_NE(r->output.find("tracks: loop_level_reasoning "), std::string::npos) << r->output;
  EXPECT_NE(r->output.find("dwarfs: "), std::string::npos) << r->output;
  EXPECT_NE(r->output.find("levels: level 1 "), std::string::npos) << r->output;
}

// --changed selects what the record does not vouch for, --record writes what passed: after a
// recorded check the kernel is no longer "changed"; an edit makes it changed again.
TEST(CorpusCheck, CommandLineChangedAndRecord) {
  testing::TempDir tmp;
  namespace fs = std::filesystem;
  const fs::path src = std::string(HPCAB_SOURCE_DIR) + "/corpus";
  const fs::path corpus = tmp.path() / "corpus";
  for (const char* id : {"tsvc_2_s000", "tsvc_2_s111"}) {
    fs::create_directories(corpus / "loop_level_reasoning");
    fs::copy(src / "loop_level_reasoning" / id, corpus / "loop_level_reasoning" / id,
             fs::copy_options::recursive);
  }
  fs::copy_file(src / "run_reference.py", corpus / "run_reference.py");
  const fs::path record = tmp.path() / "checked.tsv";
  auto run = [&](std::vector<std::string> args) {
    ProcessOptions o;
    o.argv = {std::string(HPCAB_BINARY_DIR) + "/hpcab", "--corpus", corpus.string(), "corpus",
              "check"};
    o.argv.insert(o.argv.end(), args.begin(), args.end());
    auto r = run_process(o);
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : ProcessResult{};
  };
  // --record needs the full check (Numba and the linter vouch too).
  EXPECT_EQ(run({"tsvc_2_s000", "--no-numba", "--record", record.string()}).exit_code, 2);
  EXPECT_FALSE(fs::exists(record));
  auto recorded = run({"tsvc_2_s000", "--record", record.string()});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.output;
  auto rec = read_check_record(record);
  ASSERT_TRUE(rec.ok());
  EXPECT_EQ(rec->size(), 1u);
  EXPECT_TRUE(rec->count("tsvc_2_s000"));
  // The unrecorded kernel is changed, the recorded one is not.
  auto changed = run({"--changed", record.string(), "--no-numba"});
  EXPECT_EQ(changed.exit_code, 0) << changed.output;
  EXPECT_NE(changed.output.find("1 kernel(s) new or changed"), std::string::npos) << changed.output;
  EXPECT_NE(changed.output.find("\ntsvc_2_s111 "), std::string::npos) << changed.output;
  EXPECT_EQ(changed.output.find("\ntsvc_2_s000 "), std::string::npos) << changed.output;
  // An edit to its reference.py makes it changed again.
  std::ofstream(corpus / "loop_level_reasoning" / "tsvc_2_s000" / "reference.py", std::ios::app)
      << "# edited\n";
  auto after = run({"--changed", record.string(), "--no-numba"});
  EXPECT_NE(after.output.find("\ntsvc_2_s000 "), std::string::npos) << after.output;
}

}  // namespace
}  // namespace hpcab
