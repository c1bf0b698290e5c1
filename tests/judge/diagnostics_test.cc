// Compiler diagnostics parsed from real compiler output (judge/build/diagnostics.h): the logs
// below were captured from GCC 12, gfortran 12, CPython 3.11, nvcc and clang (hipcc).
#include "judge/build/diagnostics.h"

#include <gtest/gtest.h>

namespace hpcab::judge {
namespace {

TEST(Diagnostics, GccErrorsAndWarningsWithTheirPlace) {
  const std::string log =
      "submission.c: In function 'tsvc_2_s000_fp64':\n"
      "submission.c:8:52: error: expected ';' before '}' token\n"
      "    8 |   for (int64_t i = 0; i < N; i++) a[i] = b[i] + 1.0\n"
      "      |                                                    ^\n"
      "submission.c:3:1: warning: unused variable 'x' [-Wunused-variable]\n"
      "In file included from submission.c:2:\n"
      "/usr/include/x.h:4: note: declared here\n"
      "cc1: fatal error: foo.h: No such file or directory\n";
  const auto d = parse_diagnostics(log, "c");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].file, "submission.c");
  EXPECT_EQ(d[0].line, 8);
  EXPECT_EQ(d[0].column, 52);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].message, "expected ';' before '}' token");
  EXPECT_EQ(d[1].severity, "warning");
  EXPECT_EQ(d[2].file, "/usr/include/x.h");
  EXPECT_EQ(d[2].line, 4);
  EXPECT_EQ(d[2].column, 0);
  EXPECT_EQ(d[2].severity, "note");
  EXPECT_EQ(parse_diagnostics(log, "c", 1).size(), 1u);
}

TEST(Diagnostics, GfortranPutsTheMessageLinesBelowThePlace) {
  const std::string log =
      "submission.f90:3:9:\n\n    3 |   a = 1 +\n      |         1\n"
      "Error: Syntax error in expression at (1)\n"
      "submission.f90:7:2:\n\n    7 | x\n      |  1\nWarning: Unused dummy argument 'b' at (1)\n";
  const auto d = parse_diagnostics(log, "fortran");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].file, "submission.f90");
  EXPECT_EQ(d[0].line, 3);
  EXPECT_EQ(d[0].column, 9);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].message, "Syntax error in expression at (1)");
  EXPECT_EQ(d[1].severity, "warning");
  EXPECT_EQ(d[1].line, 7);
}

TEST(Diagnostics, PythonTakesTheLastFrameAndTheException) {
  const std::string log =
      "  File \"kernel.py\", line 2\n    return x +\n              ^\n"
      "SyntaxError: invalid syntax\n";
  const auto d = parse_diagnostics(log, "python");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].file, "kernel.py");
  EXPECT_EQ(d[0].line, 2);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].message, "SyntaxError: invalid syntax");
}

TEST(Diagnostics, NvccAndClangForms) {
  const auto cuda = parse_diagnostics(
      "submission.cu(12): error: identifier \"y\" is undefined\n"
      "submission.cu(3): warning #177-D: variable \"z\" was declared but never referenced\n"
      "1 error detected in the compilation of \"submission.cu\".\n",
      "cuda");
  ASSERT_EQ(cuda.size(), 2u);
  EXPECT_EQ(cuda[0].line, 12);
  EXPECT_EQ(cuda[0].message, "identifier \"y\" is undefined");
  EXPECT_EQ(cuda[1].severity, "warning");
  const auto hip =
      parse_diagnostics("submission.hip:5:3: error: use of undeclared identifier 'q'\n", "hip");
  ASSERT_EQ(hip.size(), 1u);
  EXPECT_EQ(hip[0].column, 3);
  EXPECT_TRUE(parse_diagnostics("/usr/bin/ld: cannot find -lfoo\n", "c").empty());
}

}  // namespace
}  // namespace hpcab::judge
