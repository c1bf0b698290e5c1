// The single-source reference build (common/reference_build.h): the units and the command line
// every tool uses, and real builds with gcc: both precisions from one source in one library,
// the fp32 unit computing in float, a float-to-double promotion refused where strict, an
// fp64-only kernel instantiated once, and a reference resubmitted as a submission.
#include "common/reference_build.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/invoke.h"
#include "common/process.h"
#include "tests/unit/test_util.h"

namespace hpcab {
namespace {

namespace fs = std::filesystem;

// 1e8 + 1 - 1e8 is 1 in double and 0 in float (1e8 + 1 rounds to 1e8): out[0] tells which type
// computed it. sqrt of a real is type-generic (<tgmath.h>): at fp32 it is sqrtf, or the strict
// build would refuse the float promoted to double. The helper is static: each unit has its own.
const char* kThird =
    "#include <stdint.h>\n"
    "static real bump(const real big) { return big + (real)1.0 - big; }\n"
    "void HPCAB_KERNEL(third)(real *restrict out, uint8_t *restrict workspace,\n"
    "                         const int64_t workspace_size) {\n"
    "  (void)workspace;\n"
    "  (void)workspace_size;\n"
    "  out[0] = bump(out[0]);\n"
    "  out[1] = sqrt(out[1]);\n"
    "}\n";

// `0.5 * x` with x float computes in double: refused in the strict fp32 unit.
const char* kPromotes =
    "#include <stdint.h>\n"
    "void HPCAB_KERNEL(half)(real *restrict out, uint8_t *restrict workspace,\n"
    "                        const int64_t workspace_size) {\n"
    "  (void)workspace;\n"
    "  (void)workspace_size;\n"
    "  out[0] = 0.5 * out[0];\n"
    "}\n";

// Builds `source` (as reference.c) at `precisions` into dir/lib.so; the compiler's answer.
Result<ProcessResult> build(const fs::path& dir, const std::string& source,
                            const std::vector<Precision>& precisions, bool strict) {
  testing::write_file(dir / "reference.c", source);
  auto units = reference_units(precisions, "reference.c", strict);
  for (auto& u : units) {
    u.name = (dir / u.name).string();
    testing::write_file(u.name, u.text);
  }
  ProcessOptions o;
  o.argv = reference_command({"gcc", "-std=c11", "-O2", "-fPIC", "-shared"},
                             (dir / "lib.so").string(), units);
  o.timeout_s = 60;
  return run_process(o);
}

TEST(ReferenceBuild, OneUnitPerPrecisionIncludingTheSourceAfterItsPrelude) {
  const auto units = reference_units({Precision::kFp64, Precision::kFp32}, "reference.c", false);
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0].name, "hpcab_reference_fp64.c");
  EXPECT_EQ(units[1].name, "hpcab_reference_fp32.c");
  for (const auto& u : units) {
    EXPECT_NE(u.text.find("#include <tgmath.h>"), std::string::npos) << u.text;
    // The source comes last, after every definition it relies on.
    EXPECT_EQ(u.text.substr(u.text.size() - 23), "#include \"reference.c\"\n") << u.text;
    EXPECT_EQ(u.text.find("double-promotion"), std::string::npos) << "not strict: " << u.text;
  }
  EXPECT_NE(units[0].text.find("typedef double real;"), std::string::npos);
  EXPECT_NE(units[0].text.find("#define HPCAB_KERNEL(id) id##_fp64"), std::string::npos);
  EXPECT_NE(units[1].text.find("typedef float real;"), std::string::npos);
  EXPECT_NE(units[1].text.find("#define HPCAB_KERNEL(id) id##_fp32"), std::string::npos);
  EXPECT_NE(units[1].text.find("#define HPCAB_REAL_EPSILON FLT_EPSILON"), std::string::npos);
}

TEST(ReferenceBuild, StrictMakesPromotionAnErrorInTheFp32UnitAlone) {
  const auto units = reference_units({Precision::kFp64, Precision::kFp32}, "r.c", true);
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0].text.find("double-promotion"), std::string::npos) << units[0].text;
  const auto pragma = units[1].text.find("#pragma GCC diagnostic error \"-Wdouble-promotion\"");
  ASSERT_NE(pragma, std::string::npos) << units[1].text;
  EXPECT_LT(pragma, units[1].text.find("#include \"r.c\"")) << "the pragma must precede the source";
}

TEST(ReferenceBuild, AnFp64OnlyKernelHasOneUnit) {
  const auto units = reference_units({Precision::kFp64}, "reference.c", true);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].name, "hpcab_reference_fp64.c");
  EXPECT_EQ(units[0].text.find("double-promotion"), std::string::npos);
}

TEST(ReferenceBuild, TheCommandCompilesEveryUnitIntoOneLibraryWithLibmLast) {
  const auto units = reference_units({Precision::kFp64, Precision::kFp32}, "reference.c", false);
  EXPECT_EQ(reference_command({"gcc", "-O3", "-shared"}, "lib.so", units),
            (std::vector<std::string>{"gcc", "-O3", "-shared", "-o", "lib.so",
                                      "hpcab_reference_fp64.c", "hpcab_reference_fp32.c", "-lm"}));
}

TEST(ReferenceBuild, BothInstantiationsAreLinkedAndEachComputesInItsType) {
  testing::TempDir dir;
  auto built = build(dir.path(), kThird, {Precision::kFp64, Precision::kFp32}, true);
  ASSERT_TRUE(built.ok()) << built.error().message;
  ASSERT_TRUE(built->success()) << built->output;
  auto lib = SharedLibrary::open((dir.path() / "lib.so").string());
  ASSERT_TRUE(lib.ok()) << lib.error().message;
  auto f64 = lib->symbol("third_fp64");
  auto f32 = lib->symbol("third_fp32");
  ASSERT_TRUE(f64.ok() && f32.ok());
  double d[2] = {1e8, 2.0};
  float f[2] = {1e8f, 2.0f};
  reinterpret_cast<void (*)(double*, uint8_t*, int64_t)> (*f64)(d, nullptr, 0);
  reinterpret_cast<void (*)(float*, uint8_t*, int64_t)> (*f32)(f, nullptr, 0);
  EXPECT_EQ(d[0], 1.0);
  EXPECT_EQ(f[0], 0.0f) << "the fp32 instantiation computed in double";
  EXPECT_EQ(d[1], std::sqrt(2.0));
  EXPECT_EQ(f[1], std::sqrt(2.0f));
}

TEST(ReferenceBuild, AnFp64OnlyKernelExportsOnlyItsFp64Function) {
  testing::TempDir dir;
  auto built = build(dir.path(), kThird, {Precision::kFp64}, true);
  ASSERT_TRUE(built.ok() && built->success()) << (built.ok() ? built->output : "");
  auto lib = SharedLibrary::open((dir.path() / "lib.so").string());
  ASSERT_TRUE(lib.ok());
  EXPECT_TRUE(lib->symbol("third_fp64").ok());
  EXPECT_FALSE(lib->symbol("third_fp32").ok());
}

TEST(ReferenceBuild, APromotionToDoubleFailsTheStrictBuildNamingTheWarning) {
  testing::TempDir dir;
  auto strict = build(dir.path(), kPromotes, {Precision::kFp64, Precision::kFp32}, true);
  ASSERT_TRUE(strict.ok());
  EXPECT_FALSE(strict->success());
  EXPECT_NE(strict->output.find("-Werror=double-promotion"), std::string::npos) << strict->output;
  EXPECT_NE(strict->output.find("half_fp32"), std::string::npos) << "the fp32 unit's error";
  // The fp64 unit alone has nothing to promote; the lax build (the judge's) builds it all.
  EXPECT_TRUE(build(dir.path(), kPromotes, {Precision::kFp64}, true)->success());
  EXPECT_TRUE(build(dir.path(), kPromotes, {Precision::kFp64, Precision::kFp32}, false)->success());
}

TEST(ReferenceBuild, AsASubmissionItIsOneSelfContainedFileForOnePrecision) {
  const std::string text = reference_as_submission(kThird, Precision::kFp32);
  EXPECT_NE(text.find("#line 1 \"reference.c\"\n"), std::string::npos);
  EXPECT_EQ(text.substr(text.size() - std::string(kThird).size()), kThird);
  testing::TempDir dir;
  testing::write_file(dir.path() / "submission.c", text);
  ProcessOptions o;
  o.argv = {"gcc",
            "-std=c11",
            "-O2",
            "-fPIC",
            "-shared",
            "-Werror=double-promotion",
            "-o",
            (dir.path() / "lib.so").string(),
            (dir.path() / "submission.c").string(),
            "-lm"};
  auto built = run_process(o);
  ASSERT_TRUE(built.ok() && built->success()) << (built.ok() ? built->output : "");
  auto lib = SharedLibrary::open((dir.path() / "lib.so").string());
  ASSERT_TRUE(lib.ok());
  EXPECT_TRUE(lib->symbol("third_fp32").ok());
  EXPECT_FALSE(lib->symbol("third_fp64").ok());
}

TEST(ReferenceBuild, TheSingleSourceFormIsToldFromTheOldOne) {
  EXPECT_TRUE(is_single_source_reference(kThird));
  EXPECT_FALSE(is_single_source_reference("void k_fp64(double *a) {}\nvoid k_fp32(float *a) {}\n"));
}

// Every corpus reference is in the single-source form (scripts/reference-single-source.py
// converts one written the old way).
TEST(ReferenceBuild, EveryCorpusReferenceIsSingleSource) {
  int seen = 0;
  for (const auto& e :
       fs::recursive_directory_iterator(std::string(HPCAB_SOURCE_DIR) + "/corpus")) {
    if (e.path().filename() != "reference.c") continue;
    std::ifstream in(e.path());
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    EXPECT_TRUE(is_single_source_reference(text)) << e.path();
    ++seen;
  }
  EXPECT_GT(seen, 100);
}

}  // namespace
}  // namespace hpcab
