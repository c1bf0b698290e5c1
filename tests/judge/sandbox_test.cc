// The sandbox against real bubblewrap: isolation, limits and teardown are behaviours of the
// kernel and bwrap, so they are tested for real, not through a mock.
#include "judge/sandbox/sandbox.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "common/process.h"
#include "judge/sandbox/seccomp.h"

namespace hpcab::judge {
namespace {

namespace fs = std::filesystem;

class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-sbx-XXXXXX").string();
    root_ = mkdtemp(tmpl.data());
    work_ = root_ / "work";
    fs::create_directories(work_);
    fs::permissions(root_, fs::perms::all);
    fs::permissions(work_, fs::perms::all);
  }
  void TearDown() override { fs::remove_all(root_); }

  SandboxSpec sh(const std::string& script) {
    SandboxSpec s;
    s.argv = {"/bin/sh", "-c", script};
    s.mounts = {{work_.string(), "/sandbox", true}};
    s.env = {"PATH=/usr/bin:/bin"};
    s.limits.wall_s = 20;
    return s;
  }
  ProcessResult run(const SandboxSpec& s) {
    auto r = run_sandboxed(policy_, s);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return *r;
  }

  SandboxPolicy policy_;
  fs::path root_, work_;
};

TEST_F(SandboxTest, RunsAndCapturesOutput) {
  auto r = run(sh("echo hello; echo err >&2; exit 4"));
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.output.find("hello"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("err"), std::string::npos);
}

TEST_F(SandboxTest, NoNetworkOnlyLoopback) {
  // /proc/net/dev lists the namespace's interfaces: a header of two lines plus `lo`.
  auto r = run(sh("cat /proc/net/dev"));
  EXPECT_TRUE(r.success()) << r.output;
  EXPECT_NE(r.output.find("lo:"), std::string::npos);
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 3) << r.output;
}

TEST_F(SandboxTest, NoDescriptorOfTheJudgeIsInherited) {
  // Descriptors the judge holds without close-on-exec (as Asio's sockets are): a listening
  // socket and a pipe. None may reach the sandbox; the shell lists what it has (its own
  // 0, 1, 2 plus the one `ls` opens to read the directory).
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  auto r = run(sh("ls /proc/self/fd | tr '\\n' ' '"));
  EXPECT_TRUE(r.success()) << r.output;
  EXPECT_EQ(r.output, "0 1 2 3 ") << "inherited descriptors: " << r.output;
  auto interactive = SandboxedProcess::start(
      policy_, sh("ls /proc/self/fd | tr '\\n' ' ' >&3; echo >&3"), (root_ / "log.txt").string());
  ASSERT_TRUE(interactive.ok()) << interactive.error().message;
  auto line = (*interactive)->receive(20);
  ASSERT_TRUE(line.ok()) << line.error().message;
  // Interactive runs keep the reply channel (3); ls's directory descriptor is then 4.
  EXPECT_EQ(*line, "0 1 2 3 4 ") << "inherited descriptors: " << *line;
  (*interactive)->finish(5);
  close(listener);
  close(p[0]);
  close(p[1]);
}

TEST_F(SandboxTest, OwnPidNamespace) {
  auto r = run(sh("echo $$; ls /proc | grep -c '^[0-9]'"));
  EXPECT_TRUE(r.success()) << r.output;
  // The shell is a low pid in its namespace and sees only a handful of processes.
  int pid = std::stoi(r.output);
  EXPECT_LT(pid, 10);
}

TEST_F(SandboxTest, JudgeFilesAreInvisibleAndSystemIsReadOnly) {
  fs::path state = root_ / "state";
  fs::create_directories(state);
  std::ofstream(state / "secret.key") << "TOPSECRET";
  auto r = run(sh("cat " + (state / "secret.key").string() +
                  "; echo rc=$?; touch /usr/x; echo "
                  "rc=$?; touch /sandbox/ok && echo wrote"));
  EXPECT_EQ(r.output.find("TOPSECRET"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rc=1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("wrote"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(work_ / "ok"));
}

TEST_F(SandboxTest, WallClockLimitKillsTheTree) {
  auto s = sh("sleep 60 & sleep 60");
  s.limits.wall_s = 0.5;
  auto t0 = std::chrono::steady_clock::now();
  auto r = run(s);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10);
}

TEST_F(SandboxTest, ForkBombIsContainedAndLeavesNoSurvivors) {
  auto s = sh("bomb() { bomb | bomb & }; bomb; sleep 1; echo survived");
  s.limits.nproc = 64;
  s.limits.wall_s = 3;
  auto r = run(s);
  // Whether the shell survives its bomb or not, nothing may outlive the sandbox.
  (void)r;
  // Give the kernel a moment to reap the namespace, then look for leftovers.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ProcessOptions ps;
  ps.argv = {"sh", "-c", "ps -eo args | grep -c '^/bin/sh -c bomb' || true"};
  auto left = run_process(ps);
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(std::stoi(left->output), 0) << left->output;
}

TEST_F(SandboxTest, RlimitsApply) {
  auto s =
      sh("grep -E '^Max (address space|core file size|open files|processes)' /proc/self/limits");
  s.limits.address_space = uint64_t{1} << 30;
  s.limits.nofile = 100;
  s.limits.nproc = 77;
  auto r = run(s);
  EXPECT_NE(r.output.find("Max address space         1073741824"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Max core file size        0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Max open files            100"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Max processes             77"), std::string::npos) << r.output;
}

TEST_F(SandboxTest, RunsUnprivilegedWhenJudgeIsRoot) {
  if (geteuid() != 0) GTEST_SKIP() << "only meaningful when the judge runs as root";
  auto r = run(sh("cat /proc/self/status | grep '^Uid'"));
  EXPECT_EQ(r.output.find("\t0\t"), std::string::npos) << r.output;
}

TEST_F(SandboxTest, InteractiveProtocolAndPause) {
  auto s = sh("while read x; do echo \"got $x\" >&3; done");
  auto p = SandboxedProcess::start(policy_, s, (root_ / "log").string());
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE((*p)->send("one").ok());
  auto line = (*p)->receive(10);
  ASSERT_TRUE(line.ok()) << line.error().message << " log: " << (*p)->log();
  EXPECT_EQ(*line, "got one");
  (*p)->pause();
  ASSERT_TRUE((*p)->send("two").ok());
  EXPECT_FALSE((*p)->receive(0.3).ok());  // stopped: no reply while paused
  (*p)->resume();
  auto two = (*p)->receive(10);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(*two, "got two");
  auto r = (*p)->finish(5);
  EXPECT_EQ(r.exit_code, 0);
}

// The seccomp attack probe: each line is "<call> <return> <errno>". Without the filter ptrace
// and process_vm_readv succeed (the control run proves the test can fail); with it they and
// every non-AF_UNIX socket fail with EPERM.
TEST_F(SandboxTest, SeccompDeniesEscapesAndNetworkSockets) {
  std::ofstream(work_ / "probe.c") << R"(
#include <errno.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  printf("inet %d %d\n", s < 0 ? -1 : 0, s < 0 ? errno : 0);
  int n = socket(AF_NETLINK, SOCK_RAW, 0);
  printf("netlink %d %d\n", n < 0 ? -1 : 0, n < 0 ? errno : 0);
  int u = socket(AF_UNIX, SOCK_STREAM, 0);
  printf("unix %d\n", u < 0 ? -1 : 0);
  long p = ptrace(PTRACE_TRACEME, 0, 0, 0);
  printf("ptrace %ld %d\n", p, p < 0 ? errno : 0);
  long v = syscall(SYS_process_vm_readv, getppid(), 0, 0, 0, 0, 0);
  printf("vmread %ld %d\n", v, v < 0 ? errno : 0);
  long pe = syscall(SYS_perf_event_open, 0, 0, -1, -1, 0);
  printf("perf %ld %d\n", pe, pe < 0 ? errno : 0);
  return 0;
}
)";
  ProcessOptions cc;
  cc.argv = {"gcc", "-O1", "-o", (work_ / "probe").string(), (work_ / "probe.c").string()};
  auto built = run_process(cc);
  ASSERT_TRUE(built.ok() && built->success()) << (built.ok() ? built->output : "");
  SandboxSpec spec = sh("/sandbox/probe");
  spec.argv = {"/sandbox/probe"};

  SandboxPolicy open = policy_;
  open.seccomp = false;
  auto control = run_sandboxed(open, spec);
  ASSERT_TRUE(control.ok());
  EXPECT_NE(control->output.find("ptrace 0 0"), std::string::npos) << control->output;
  EXPECT_NE(control->output.find("vmread 0 0"), std::string::npos) << control->output;

  auto r = run(spec);
  EXPECT_TRUE(r.success()) << r.output;
  for (const char* denied :
       {"inet -1 1", "netlink -1 1", "ptrace -1 1", "vmread -1 1", "perf -1 1"}) {
    EXPECT_NE(r.output.find(denied), std::string::npos) << denied << " in:\n" << r.output;
  }
  EXPECT_NE(r.output.find("unix 0"), std::string::npos) << r.output;
}

TEST_F(SandboxTest, DeadChildIsAnErrorNotAHang) {
  auto p = SandboxedProcess::start(policy_, sh("exit 3"), (root_ / "log").string());
  ASSERT_TRUE(p.ok());
  auto line = (*p)->receive(10);
  EXPECT_FALSE(line.ok());
  auto r = (*p)->finish(5);
  EXPECT_EQ(r.exit_code, 3);
}

}  // namespace
}  // namespace hpcab::judge

namespace hpcab::judge {
namespace {

// A stand-in for a host /dev: plain files named like device nodes (bubblewrap binds a file as
// readily as a node, and the selection is by name).
fs::path fake_dev_root(const fs::path& root) {
  const fs::path dev = root / "dev";
  fs::create_directories(dev / "dri");
  fs::create_directories(dev / "nvidia-caps");
  for (const char* n : {"nvidiactl", "nvidia0", "nvidia1", "nvidia-uvm", "nvidia-modeset", "null",
                        "kfd", "dri/renderD128", "dri/renderD129", "dri/card0", "nvidia-caps/x"}) {
    std::ofstream(dev / n) << "x";
  }
  return dev;
}

std::vector<std::string> dests(const std::vector<Mount>& ms) {
  std::vector<std::string> out;
  for (const auto& m : ms) out.push_back(m.dest);
  return out;
}

TEST_F(SandboxTest, GpuProfileBindsExactlyTheRuntimesNodesThatExist) {
  const fs::path dev = fake_dev_root(root_);
  // nvidia-uvm-tools is not there, so it is not bound; nvidia-modeset and nvidia-caps are not
  // a compute runtime's.
  EXPECT_EQ(dests(gpu_device_mounts("cuda", dev.string())),
            (std::vector<std::string>{"/dev/nvidia-uvm", "/dev/nvidia0", "/dev/nvidia1",
                                      "/dev/nvidiactl"}));
  EXPECT_EQ(dests(gpu_device_mounts("hip", dev.string())),
            (std::vector<std::string>{"/dev/dri/renderD128", "/dev/dri/renderD129", "/dev/kfd"}));
  for (const auto& m : gpu_device_mounts("cuda", dev.string())) {
    EXPECT_EQ(m.source, (dev / m.dest.substr(5)).string());
  }
  EXPECT_TRUE(gpu_device_mounts("none", dev.string()).empty());
  EXPECT_TRUE(gpu_device_mounts("cuda", (root_ / "missing").string()).empty());
}

TEST_F(SandboxTest, CpuSandboxesGetNoDeviceNodes) {
  SandboxSpec s = sh("true");
  const auto plain = bwrap_argv(policy_, s);
  // Device mounts on a spec that is not a GPU grade's are ignored.
  s.devices = gpu_device_mounts("cuda", fake_dev_root(root_).string());
  s.gpu_paths = {"/usr/share"};
  ASSERT_FALSE(s.devices.empty());
  EXPECT_EQ(bwrap_argv(policy_, s), plain);
  EXPECT_EQ(std::count(plain.begin(), plain.end(), "--dev-bind"), 0);
  s.gpu = true;
  const auto gpu = bwrap_argv(policy_, s);
  EXPECT_EQ(std::count(gpu.begin(), gpu.end(), "--dev-bind"),
            static_cast<std::ptrdiff_t>(s.devices.size()));
}

TEST_F(SandboxTest, AGpuLibraryIsBoundByItsDirectoryUnlessThatShowsTheJudgesScratch) {
  const std::vector<std::string> system = {"/usr", "/opt/rocm"};
  fs::create_directories(root_ / "rt");
  fs::create_directories(root_ / "work");
  const std::string work = (root_ / "work").string();
  // Under the system mounts, relative, or in a missing directory: nothing to bind.
  EXPECT_EQ(gpu_library_binding("/usr/lib/libcudart.so", work, system), "");
  EXPECT_EQ(gpu_library_binding("libcudart.so", work, system), "");
  EXPECT_EQ(gpu_library_binding((root_ / "missing/libcudart.so").string(), work, system), "");
  // Elsewhere (under /tmp included: bound after the private /tmp): its directory.
  EXPECT_EQ(gpu_library_binding((root_ / "rt/libcudart.so").string(), work, system),
            (root_ / "rt").string());
  // A directory holding the work dir, or /tmp itself: the library file alone.
  EXPECT_EQ(gpu_library_binding((root_ / "libcudart.so").string(), work, system),
            (root_ / "libcudart.so").string());
  EXPECT_EQ(gpu_library_binding((root_ / "work/libcudart.so").string(), work, system),
            (root_ / "work/libcudart.so").string());
  EXPECT_EQ(gpu_library_binding("/tmp/libcudart.so", work, system), "/tmp/libcudart.so");
}

TEST_F(SandboxTest, GpuPathsAreBoundAfterThePrivateTmp) {
  SandboxSpec s = sh("true");
  s.gpu = true;
  s.gpu_paths = {"/tmp/rt"};
  const auto a = bwrap_argv(policy_, s);
  const auto tmp = std::find(a.begin(), a.end(), "--tmpfs");
  const auto rt = std::find(a.begin(), a.end(), "/tmp/rt");
  ASSERT_NE(tmp, a.end());
  ASSERT_NE(rt, a.end());
  EXPECT_LT(tmp - a.begin(), rt - a.begin());
}

TEST_F(SandboxTest, AGpuSandboxSeesItsNodesAndACpuSandboxDoesNot) {
  SandboxSpec s = sh("ls /dev /dev/dri 2>/dev/null | tr '\\n' ' '");
  s.devices = gpu_device_mounts("cuda", fake_dev_root(root_).string());
  auto r = run(s);
  EXPECT_EQ(r.output.find("nvidia"), std::string::npos) << r.output;
  s.gpu = true;
  r = run(s);
  EXPECT_NE(r.output.find("nvidiactl"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nvidia0"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("nvidia-modeset"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("kfd"), std::string::npos) << r.output;
}

TEST(Seccomp, TheCpuProfileIsUnchangedAndTheGpuProfileAdmitsNothingMore) {
  EXPECT_EQ(denied_syscalls(SeccompProfile::kCpu), denied_syscalls());
  EXPECT_EQ(denied_syscalls(SeccompProfile::kGpu), denied_syscalls());
  EXPECT_TRUE(gpu_admitted_syscalls().empty());
  const auto& denied = denied_syscalls();
  EXPECT_EQ(denied.size(), 44u);
  for (const char* must : {"ptrace", "bpf", "perf_event_open", "userfaultfd", "io_uring_setup"}) {
    EXPECT_NE(std::find(denied.begin(), denied.end(), must), denied.end()) << must;
  }
  // What the GPU runtimes need is admitted by both profiles.
  for (const auto& call : gpu_runtime_syscalls()) {
    EXPECT_EQ(std::find(denied.begin(), denied.end(), call), denied.end()) << call;
  }
  for (auto p : {SeccompProfile::kCpu, SeccompProfile::kGpu}) {
    auto fd = seccomp_program_fd(p);
    ASSERT_TRUE(fd) << fd.error().message;
    close(*fd);
  }
}

}  // namespace
}  // namespace hpcab::judge
