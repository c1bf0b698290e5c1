#include "common/process.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>

namespace hpcab {
namespace {

ProcessOptions command(std::vector<std::string> argv) {
  ProcessOptions o;
  o.argv = std::move(argv);
  return o;
}

TEST(Process, CapturesOutputAndExitCode) {
  auto r = run_process(command({"sh", "-c", "echo out; echo err >&2; exit 3"}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_FALSE(r->success());
  EXPECT_NE(r->output.find("out"), std::string::npos);
  EXPECT_NE(r->output.find("err"), std::string::npos);
}

TEST(Process, EnvironmentAndWorkingDirectory) {
  ProcessOptions o;
  o.argv = {"sh", "-c", "echo $HPCAB_X; pwd"};
  o.extra_env = {"HPCAB_X=hello"};
  o.cwd = "/";
  auto r = run_process(o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->success());
  EXPECT_EQ(r->output, "hello\n/\n");
}

TEST(Process, TimeoutKillsTheWholeGroup) {
  ProcessOptions o;
  // The background sleeper holds the pipe open; only a group kill lets the call return.
  o.argv = {"sh", "-c", "sleep 30 & sleep 30"};
  o.timeout_s = 0.5;
  auto t0 = std::chrono::steady_clock::now();
  auto r = run_process(o);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_FALSE(r->success());
  EXPECT_LT(secs, 10.0);
}

TEST(Process, OutputIsCapped) {
  ProcessOptions o;
  o.argv = {"sh", "-c", "head -c 100000 /dev/zero"};
  o.output_cap = 1000;
  auto r = run_process(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->output.size(), 1000u);
  EXPECT_EQ(r->output_dropped, 99000u);
}

TEST(Process, SignalIsReported) {
  auto r = run_process(command({"sh", "-c", "kill -SEGV $$"}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->term_signal, SIGSEGV);
  EXPECT_NE(r->describe().find("signal 11"), std::string::npos);
}

TEST(Process, MissingProgramFailsWithExit127) {
  auto r = run_process(command({"/nonexistent/program"}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 127);
}

}  // namespace
}  // namespace hpcab
