// The parsers of POST /profile's perf output (judge/grade/perf.h), on text captured from
// perf 6.1 on this project's KVM guest (no hardware PMU) and from a host with one.
#include "judge/grade/perf.h"

#include <gtest/gtest.h>

namespace hpcab::judge {
namespace {

TEST(PerfStat, CountersAndNotSupportedOnes) {
  const std::string csv =
      "# started on Mon Dec  7 18:20:26 2026\n"
      "\n"
      "1000.84,msec,task-clock,1000841937,100.00,0.657,CPUs utilized\n"
      "45,,context-switches,1000841937,100.00,44.962,/sec\n"
      "241,,page-faults,1000841937,100.00,240.797,/sec\n"
      "<not supported>,,cycles,0,100.00,,\n"
      "<not supported>,,instructions,0,100.00,,\n"
      "<not counted>,,cache-misses,0,0.00,,\n";
  const auto c = parse_perf_stat(csv);
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c[0].event, "task-clock");
  EXPECT_EQ(c[0].unit, "msec");
  ASSERT_TRUE(c[0].value);
  EXPECT_DOUBLE_EQ(*c[0].value, 1000.84);
  EXPECT_TRUE(c[0].supported);
  EXPECT_EQ(c[1].event, "context-switches");
  EXPECT_DOUBLE_EQ(*c[1].value, 45);
  EXPECT_EQ(c[3].event, "cycles");
  EXPECT_FALSE(c[3].value);
  EXPECT_FALSE(c[3].supported);
  EXPECT_FALSE(c[5].supported);
}

TEST(PerfStat, HardwareCountersWithModifiersAndJunk) {
  const std::string csv =
      "12345678,,cycles:u,5000,100.00,,\n"
      "23456789,,instructions:u,5000,100.00,1.90,insn per cycle\n"
      "Events disabled\n"
      "garbage line\n"
      "1.5,msec,task-clock,1500000,100.00,0.9,CPUs utilized\r\n";
  const auto c = parse_perf_stat(csv);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].event, "cycles:u");
  EXPECT_DOUBLE_EQ(*c[0].value, 12345678);
  EXPECT_EQ(c[1].event, "instructions:u");
  EXPECT_EQ(c[2].event, "task-clock");
}

TEST(PerfReport, FunctionsWithTheirShare) {
  const std::string text =
      "# To display the perf.data header info, please use --header/--header-only options.\n"
      "#\n"
      "# Samples: 968  of event 'cpu-clock'\n"
      "# Event count (approx.): 968968968\n"
      "#\n"
      "# Overhead  Shared Object         Symbol\n"
      "# ........  ....................  ......................................\n"
      "#\n"
      "    18.75%  [kernel.kallsyms]  [k] finish_task_switch.isra.0\n"
      "    12.50%  lib.so             [.] tsvc_2_s000_fp64\n"
      "     3.12%  hpcab-runner       [.] hpcab::runner_protocol::parse_command(std::string "
      "const&)\n"
      "     1.03%  libc.so.6          [.] clock_gettime@@GLIBC_2.17\n"
      "     0.50%  [unknown]          [.] 0x00007f12deadbeef\n"
      "\n"
      "#\n"
      "# (Cannot load tips.txt file, please install perf!)\n";
  const auto h = parse_perf_report(text);
  ASSERT_EQ(h.size(), 5u);
  EXPECT_EQ(h[0].dso, "[kernel.kallsyms]");
  EXPECT_TRUE(h[0].kernel);
  EXPECT_DOUBLE_EQ(h[0].share, 0.1875);
  EXPECT_EQ(h[1].dso, "lib.so");
  EXPECT_EQ(h[1].symbol, "tsvc_2_s000_fp64");
  EXPECT_FALSE(h[1].kernel);
  EXPECT_EQ(h[2].symbol, "hpcab::runner_protocol::parse_command(std::string const&)");
  EXPECT_EQ(h[4].symbol, "0x00007f12deadbeef");
  EXPECT_EQ(parse_perf_report(text, 2).size(), 2u);
  EXPECT_EQ(perf_report_samples(text), 968);
  EXPECT_EQ(perf_report_samples("# Samples: 12K of event 'cpu-clock'\n"), 12000);
  EXPECT_EQ(perf_report_samples("nothing"), 0);
}

TEST(PerfReport, SourceLinesSkipUnmappedOnes) {
  const std::string text =
      "# Overhead  Source:Line\n"
      "#\n"
      "    61.20%  submission.c:9\n"
      "    20.00%  submission.c:10\n"
      "    10.00%  ??:0\n"
      "     8.80%  lib.so[+1139]\n";
  const auto l = parse_perf_srclines(text);
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].file, "submission.c");
  EXPECT_EQ(l[0].line, 9);
  EXPECT_DOUBLE_EQ(l[0].share, 0.612);
  EXPECT_EQ(l[1].line, 10);
}

}  // namespace
}  // namespace hpcab::judge
