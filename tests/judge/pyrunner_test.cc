// hpcab-pyrunner driven directly (no sandbox, no judge): fork/exec with commands on its stdin
// and replies on its fd 3, as the judge's runner session does it, on real corpus manifests at
// small sizes. Expected outputs come from hpcab-runner on a C build of the same kernel's
// corpus reference.c with the same seeds, so a wrong view (dtype, shape, order, scalar value)
// or a missed delivery makes the saved .npy files disagree.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "common/manifest.h"
#include "common/ndarray.h"
#include "common/npy.h"
#include "common/process.h"
#include "common/reference_build.h"

namespace hpcab {
namespace {

namespace fs = std::filesystem;

const std::string kBin = HPCAB_BINARY_DIR;
const std::string kCorpus = std::string(HPCAB_SOURCE_DIR) + "/corpus";
const std::string kGemm = kCorpus + "/scientific_computing/dense_linear_algebra/gemm";
const std::string kS000 = kCorpus + "/loop_level_reasoning/tsvc_2_s000";
const std::string kS212 = kCorpus + "/loop_level_reasoning/tsvc_2_s212";
const char* kGemmSizes = "NI=24,NJ=20,NK=16";  // no two alike: a transposed view shows

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// One runner process: commands to its stdin, replies from its fd 3, stdout and stderr into
// `log`. Unsandboxed: the runner's own checks and exec filter are what is under test.
class RunnerProcess {
 public:
  RunnerProcess(std::vector<std::string> argv, fs::path log) : log_(std::move(log)) {
    int in[2], reply[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(reply, O_CLOEXEC) != 0) {
      ADD_FAILURE() << "pipe2: " << std::strerror(errno);
      return;
    }
    const int log_fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    signal(SIGPIPE, SIG_IGN);  // writing to a runner that died is an error, not our death
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      dup2(in[0], 0);
      dup2(log_fd, 1);
      dup2(log_fd, 2);
      dup2(reply[1], 3);  // dup2 clears FD_CLOEXEC
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(in[0]);
    close(reply[1]);
    close(log_fd);
    to_ = in[1];
    from_ = reply[0];
  }
  ~RunnerProcess() {
    if (pid_ > 0 && status_ == kRunning) {
      kill(pid_, SIGKILL);
      wait();
    }
    if (to_ >= 0) close(to_);
    if (from_ >= 0) close(from_);
  }
  RunnerProcess(const RunnerProcess&) = delete;
  RunnerProcess& operator=(const RunnerProcess&) = delete;

  void send(const std::string& line) {
    const std::string data = line + "\n";
    ASSERT_EQ(write(to_, data.data(), data.size()), static_cast<ssize_t>(data.size()))
        << "runner input closed";
  }
  // The next reply line; "<eof>" when the runner closed fd 3 (died), "<timeout>".
  // The line after the runner's "boot" (which it writes before anything else) and its
  // "layout" (once its arrays are allocated; an error in its set-up comes instead).
  std::string started(double timeout_s = 60) {
    std::string first = receive(timeout_s);
    if (first != "boot") return "<no boot, first line: " + first + ">";
    std::string second = receive(timeout_s);
    if (second.rfind("layout ", 0) != 0) return second;
    layout_ = second;
    return receive(timeout_s);
  }
  const std::string& layout() const { return layout_; }
  std::string receive(double timeout_s = 60) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    for (;;) {
      if (auto nl = pending_.find('\n'); nl != std::string::npos) {
        std::string line = pending_.substr(0, nl);
        pending_.erase(0, nl + 1);
        return line;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now())
                            .count();
      if (left <= 0) return "<timeout>";
      pollfd p{from_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left)) <= 0) continue;
      char buf[4096];
      const ssize_t got = read(from_, buf, sizeof buf);
      if (got <= 0) return "<eof>";
      pending_.append(buf, static_cast<std::size_t>(got));
    }
  }
  std::string ask(const std::string& line, double timeout_s = 60) {
    send(line);
    return receive(timeout_s);
  }
  // Closes stdin and reaps: the exit status, or 128 + the signal that ended it.
  int wait() {
    if (status_ != kRunning) return status_;
    if (to_ >= 0) close(to_);
    to_ = -1;
    int st = 0;
    while (waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
    }
    status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return status_;
  }
  std::string log() const { return slurp(log_); }

 private:
  static constexpr int kRunning = -1;
  fs::path log_;
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  int status_ = kRunning;
  std::string pending_;
  std::string layout_;  // the layout line, once started() read it
};

bool is_done(const std::string& reply) {
  return std::regex_match(reply, std::regex("done [0-9]+"));
}
int64_t done_ns(const std::string& reply) { return std::stoll(reply.substr(5)); }

class PyRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "hpcab-pyrunner-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write_module(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / (name + ".py");
    std::ofstream(p) << text;
    return p;
  }

  // hpcab-pyrunner on `kernel` with the module file `module`; outputs under dir_/<out>.
  std::unique_ptr<RunnerProcess> py(const std::string& kernel, const fs::path& module,
                                    const std::string& sizes, const std::string& precision = "fp64",
                                    const std::string& out = "py",
                                    std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {kBin + "/hpcab-pyrunner",
                                     "--manifest",
                                     kernel + "/kernel.json",
                                     "--module",
                                     module.string(),
                                     "--sizes",
                                     sizes,
                                     "--precision",
                                     precision,
                                     "--out-dir",
                                     (dir_ / out).string(),
                                     "--gen-threads",
                                     "1"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return std::make_unique<RunnerProcess>(argv,
                                           dir_ / (out + "-" + std::to_string(++logs_) + ".log"));
  }

  // hpcab-runner on a C build of `kernel`'s corpus reference.c.
  std::unique_ptr<RunnerProcess> c(const std::string& kernel, const std::string& sizes,
                                   const std::string& precision = "fp64",
                                   const std::string& out = "c") {
    const fs::path lib = dir_ / (fs::path(kernel).filename().string() + ".so");
    if (!fs::exists(lib)) {
      // Instantiated at the kernel's precisions as every tool does (common/reference_build.h).
      auto m = load_manifest(fs::path(kernel) / "kernel.json");
      EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
      auto units = reference_units(m.ok() ? m->precisions : std::vector<Precision>{},
                                   fs::absolute(kernel + "/reference.c").string(), false);
      for (auto& u : units) {
        u.name = (dir_ / (fs::path(kernel).filename().string() + "-" + u.name)).string();
        std::ofstream(u.name) << u.text;
      }
      ProcessOptions cc;
      cc.argv =
          reference_command({"gcc", "-std=gnu11", "-O2", "-fPIC", "-shared"}, lib.string(), units);
      auto built = run_process(cc);
      EXPECT_TRUE(built.ok() && built->success()) << (built.ok() ? built->output : "");
    }
    return std::make_unique<RunnerProcess>(
        std::vector<std::string>{kBin + "/hpcab-runner", "--manifest", kernel + "/kernel.json",
                                 "--lib", lib.string(), "--sizes", sizes, "--precision", precision,
                                 "--out-dir", (dir_ / out).string(), "--gen-threads", "1"},
        dir_ / (out + "-" + std::to_string(++logs_) + ".log"));
  }

  // One honest call per seed, each saved as call<i>, then quit: every reply as expected.
  void run_calls(RunnerProcess& p, const std::vector<uint64_t>& seeds) {
    ASSERT_EQ(p.started(), "hello") << p.log();
    EXPECT_EQ(p.layout().rfind("layout ", 0), 0u) << p.log();  // both runners tell it
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      ASSERT_EQ(p.ask("prep " + std::to_string(seeds[i]) + " auto 1"), "ready") << p.log();
      const std::string done = p.ask("go");
      ASSERT_TRUE(is_done(done)) << done << "\n" << p.log();
      ASSERT_EQ(p.ask("post 1 call" + std::to_string(i)), "posted ok") << p.log();
    }
    p.send("quit");
    EXPECT_EQ(p.wait(), 0) << p.log();
  }

  NdArray saved(const std::string& out, const std::string& tag, const std::string& name) {
    auto a = read_npy((dir_ / out / tag / (name + ".npy")).string());
    EXPECT_TRUE(a.ok()) << out << "/" << tag << "/" << name << ": "
                        << (a.ok() ? "" : a.error().message);
    return a.ok() ? *a : NdArray();
  }

  // Every element within rel * (1 + |expected|); NaN (an output never written) never is.
  void expect_close(const NdArray& got, const NdArray& want, double rel) {
    ASSERT_EQ(got.dtype(), want.dtype());
    ASSERT_EQ(got.shape(), want.shape());
    ASSERT_GT(want.size(), 0);
    for (int64_t i = 0; i < want.size(); ++i) {
      const double g = got.get(i), w = want.get(i);
      ASSERT_TRUE(std::fabs(g - w) <= rel * (1 + std::fabs(w)))
          << "element " << i << ": " << g << " vs " << w;
    }
  }

  fs::path dir_;
  int logs_ = 0;
};

// The corpus reference.py, as the judge would run a Python submission: every reply in turn,
// and the saved C equals alpha*A@B + beta*C as the C reference computes it, on two draws.
TEST_F(PyRunnerTest, GemmReferenceMatchesTheCReference) {
  auto p = py(kGemm, kGemm + "/reference.py", kGemmSizes);
  run_calls(*p, {7, 8});
  auto c_run = c(kGemm, kGemmSizes);
  run_calls(*c_run, {7, 8});
  for (const char* tag : {"call0", "call1"}) {
    SCOPED_TRACE(tag);
    const NdArray got = saved("py", tag, "C"), want = saved("c", tag, "C");
    EXPECT_EQ(got.shape(), (std::vector<int64_t>{24, 20}));
    expect_close(got, want, 1e-12);
  }
  // Fresh inputs for each call: the two draws' results differ.
  EXPECT_FALSE(saved("py", "call0", "C").bytes_equal(saved("py", "call1", "C")));
}

// Real scalars as the C call gets them: np.float32 at fp32 (so fp32 arithmetic stays fp32),
// Python float at fp64; sizes as Python ints; arrays of the run precision.
TEST_F(PyRunnerTest, ScalarAndArrayTypesFollowThePrecision) {
  const auto module = write_module("typed", R"(
import numpy as np

def gemm(A, B, C, NI, NJ, NK, alpha, beta):
    fp32 = A.dtype == np.float32
    real = np.float32 if fp32 else float
    assert type(alpha) is real and type(beta) is real, (type(alpha), type(beta))
    assert alpha == real(1.5) and beta == real(1.2), (alpha, beta)
    assert all(type(n) is int for n in (NI, NJ, NK))
    assert (A.shape, B.shape, C.shape) == ((NI, NK), (NK, NJ), (NI, NJ))
    assert B.dtype == C.dtype == A.dtype == (np.float32 if fp32 else np.float64)
    assert A.flags.c_contiguous and C.flags.c_contiguous and C.flags.writeable
    C[:] = alpha * (A @ B) + beta * C
    assert C.dtype == A.dtype
)");
  for (const char* precision : {"fp32", "fp64"}) {
    SCOPED_TRACE(precision);
    const std::string out = std::string("py-") + precision, c_out = std::string("c-") + precision;
    auto p = py(kGemm, module, kGemmSizes, precision, out);
    run_calls(*p, {3});
    auto c_run = c(kGemm, kGemmSizes, precision, c_out);
    run_calls(*c_run, {3});
    const NdArray got = saved(out, "call0", "C");
    EXPECT_EQ(got.dtype(), std::string(precision) == "fp32" ? DType::kFloat32 : DType::kFloat64);
    expect_close(got, saved(c_out, "call0", "C"), std::string(precision) == "fp32" ? 1e-4 : 1e-12);
  }
}

// A result returned instead of written: one array for a kernel with one output (tsvc_2_s000), a
// tuple in the manifest's order of outputs for one with several (tsvc_2_s212: a, b).
TEST_F(PyRunnerTest, ReturnedResultsAreDelivered) {
  const auto one = write_module("ret1", R"(
def tsvc_2_s000(a, b, N):
    return b + 1
)");
  auto p = py(kS000, one, "N=1000", "fp64", "py1");
  run_calls(*p, {11});
  auto c1 = c(kS000, "N=1000", "fp64", "c1");
  run_calls(*c1, {11});
  EXPECT_TRUE(saved("py1", "call0", "a").bytes_equal(saved("c1", "call0", "a")));

  const auto several = write_module("ret2", R"(
def tsvc_2_s212(a, b, c, d, N):
    a2, b2 = a.copy(), b.copy()
    b2[:N - 1] += a[1:] * d[:N - 1]
    a2[:N - 1] *= c[:N - 1]
    return a2, b2
)");
  auto p2 = py(kS212, several, "N=777", "fp64", "py2");
  run_calls(*p2, {12, 13});
  auto c2 = c(kS212, "N=777", "fp64", "c2");
  run_calls(*c2, {12, 13});
  for (const char* tag : {"call0", "call1"}) {
    for (const char* name : {"a", "b"}) {
      SCOPED_TRACE(std::string(tag) + " " + name);
      expect_close(saved("py2", tag, name), saved("c2", tag, name), 1e-15);
    }
  }
}

// A result that cannot be delivered is an exception of the call: exit status 3, no `done`.
TEST_F(PyRunnerTest, UndeliverableResultsEndTheRunner) {
  struct Case {
    std::string kernel, sizes, text, in_log;
  };
  const std::vector<Case> cases = {
      {kS000, "N=100", "def tsvc_2_s000(a, b, N):\n    return b[:-1] + 1\n",
       "ValueError: tsvc_2_s000() returned an array of shape (99,) for output a of shape (100,)"},
      {kS000, "N=100", "def tsvc_2_s000(a, b, N):\n    return 1.0\n",
       "ValueError: tsvc_2_s000() returned an array of shape () for output a of shape (100,)"},
      {kS212, "N=100", "def tsvc_2_s212(a, b, c, d, N):\n    return (a,)\n",
       "ValueError: tsvc_2_s212() returned 1 values for its 2 outputs"},
      {kS212, "N=100", "def tsvc_2_s212(a, b, c, d, N):\n    return a\n",
       "TypeError: tsvc_2_s212() returned numpy.ndarray: with 2 outputs"},
      {kS000, "N=100", "def tsvc_2_s000(a, b, N):\n    return b.astype(complex)\n", "TypeError"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].text);
    auto p =
        py(cases[i].kernel, write_module("bad" + std::to_string(i), cases[i].text), cases[i].sizes);
    ASSERT_EQ(p->started(), "hello") << p->log();
    ASSERT_EQ(p->ask("prep 1 auto 1"), "ready");
    EXPECT_EQ(p->ask("go"), "<eof>");
    EXPECT_EQ(p->wait(), 3);
    const std::string log = p->log();
    EXPECT_NE(log.find(cases[i].in_log), std::string::npos) << log;
  }
}

// Exceptions raised by the call, SystemExit included, end the runner with status 3 and the
// traceback in its log; they never reach Python's own exit handling.
TEST_F(PyRunnerTest, ExceptionsInTheCallExitWithStatus3) {
  for (const char* raise : {"raise RuntimeError('boom at call')", "raise SystemExit(0)"}) {
    SCOPED_TRACE(raise);
    auto p =
        py(kS000, write_module("raises", std::string("def tsvc_2_s000(a, b, N):\n    ") + raise),
           "N=64");
    ASSERT_EQ(p->started(), "hello") << p->log();
    ASSERT_EQ(p->ask("prep 1 auto 1"), "ready");
    EXPECT_EQ(p->ask("go"), "<eof>");
    EXPECT_EQ(p->wait(), 3);
    const std::string log = p->log();
    EXPECT_NE(log.find("Traceback (most recent call last)"), std::string::npos) << log;
    EXPECT_NE(log.find("tsvc_2_s000() failed"), std::string::npos) << log;
  }
}

// Inputs are read-only views: writing them, or making them writeable, raises (and so ends the
// runner with status 3). Writing through a raw pointer is possible, as in C, and `post` reports
// the changed input by its first changed element.
TEST_F(PyRunnerTest, InputsAreReadOnly) {
  struct Case {
    std::string body, in_log;
  };
  for (const Case& k : std::vector<Case>{
           {"A[0, 0] = 1", "ValueError: assignment destination is read-only"},
           {"A.flags.writeable = True", "cannot set WRITEABLE flag to True"},
           {"A.base.base[0] = 0", "read-only"},
       }) {
    SCOPED_TRACE(k.body);
    auto p = py(
        kGemm,
        write_module("writes", "def gemm(A, B, C, NI, NJ, NK, alpha, beta):\n    " + k.body + "\n"),
        kGemmSizes);
    ASSERT_EQ(p->started(), "hello") << p->log();
    ASSERT_EQ(p->ask("prep 1 auto 1"), "ready");
    EXPECT_EQ(p->ask("go"), "<eof>");
    EXPECT_EQ(p->wait(), 3);
    EXPECT_NE(p->log().find(k.in_log), std::string::npos) << p->log();
  }
  const auto raw = write_module("raw", R"(
import ctypes

def gemm(A, B, C, NI, NJ, NK, alpha, beta):
    C[:] = alpha * (A @ B) + beta * C
    x = ctypes.c_double(12345.0)
    ctypes.memmove(A.ctypes.data + 3 * A.itemsize, ctypes.byref(x), A.itemsize)
    assert A[0, 3] == 12345.0
)");
  auto p = py(kGemm, raw, kGemmSizes);
  ASSERT_EQ(p->started(), "hello") << p->log();
  ASSERT_EQ(p->ask("prep 1 auto 1"), "ready");
  EXPECT_TRUE(is_done(p->ask("go"))) << p->log();
  EXPECT_EQ(p->ask("post 0 x"), "posted const A 3");
  p->send("quit");
  EXPECT_EQ(p->wait(), 0);
}

// What a thread left running after the return can do. The main thread holds the GIL whenever
// it is not inside a call (judge/runner/pyrunner_main.cc), so a Python thread that writes the
// output later cannot run at all between calls: the outputs stay the honest ones (asserted
// here). Code that runs without the GIL can, as in C, and `post` catches it: here a thread
// blocked in read(2) through ctypes (which releases the GIL) gets 8 bytes into C[0, 0] from a
// FIFO the test writes after `done`.
TEST_F(PyRunnerTest, WritesAfterTheReturn) {
  const auto under_gil = write_module("late_gil", R"(
import threading, time

def gemm(A, B, C, NI, NJ, NK, alpha, beta):
    C[:] = alpha * (A @ B) + beta * C
    def later():
        time.sleep(0.2)
        C[...] = 42.0
    threading.Thread(target=later, daemon=True).start()
)");
  auto p = py(kGemm, under_gil, kGemmSizes, "fp64", "gil");
  ASSERT_EQ(p->started(), "hello") << p->log();
  ASSERT_EQ(p->ask("prep 5 auto 1"), "ready");
  EXPECT_TRUE(is_done(p->ask("go")));
  std::this_thread::sleep_for(std::chrono::milliseconds(800));  // 4 times the thread's sleep
  EXPECT_EQ(p->ask("post 1 call0"), "posted ok");
  p->send("quit");
  EXPECT_EQ(p->wait(), 0);
  auto c_run = c(kGemm, kGemmSizes);
  run_calls(*c_run, {5});
  expect_close(saved("gil", "call0", "C"), saved("c", "call0", "C"), 1e-12);

  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const auto without_gil = write_module("late_nogil", R"(
import ctypes, os, threading, time

libc = ctypes.CDLL(None, use_errno=True)
libc.read.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
libc.read.restype = ctypes.c_ssize_t
fd = os.open(")" + fifo.string() + R"(", os.O_RDWR)

def gemm(A, B, C, NI, NJ, NK, alpha, beta):
    C[:] = alpha * (A @ B) + beta * C
    started = threading.Event()
    def later():
        started.set()
        libc.read(fd, C.ctypes.data, 8)  # the GIL is released for the foreign call
    threading.Thread(target=later, daemon=True).start()
    started.wait()
    time.sleep(0.1)  # into read(2)
)");
  auto q = py(kGemm, without_gil, kGemmSizes, "fp64", "nogil");
  ASSERT_EQ(q->started(), "hello") << q->log();
  ASSERT_EQ(q->ask("prep 5 auto 1"), "ready");
  EXPECT_TRUE(is_done(q->ask("go")));
  {
    std::ofstream f(fifo, std::ios::binary);
    f << std::string(8, '\x7f');  // a double near 1.4e306: not the honest C[0, 0]
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(q->ask("post 1 call0"), "posted late C 0");
  q->send("quit");
  EXPECT_EQ(q->wait(), 0);
  // What was saved is the copy taken right after the return: the honest result.
  expect_close(saved("nogil", "call0", "C"), saved("c", "call0", "C"), 1e-12);
}

// A module that does not import, or lacks the function, is answered like a library that does
// not load: `error load <message>` naming the exception, exit status 2, no `hello`. SystemExit
// at import is an import error like any other (Python's own exit never runs).
TEST_F(PyRunnerTest, LoadErrors) {
  struct Case {
    std::string text;
    std::string reply;  // after "error load "; "PATH" is replaced by the module's path
    std::vector<std::string> extra = {};
  };
  const std::vector<Case> cases = {
      {"import hpcab_no_such_module\n",
       "cannot import PATH: ModuleNotFoundError: No module named 'hpcab_no_such_module'"},
      {"def tsvc_2_s000(a, b, N)\n    pass\n",
       "cannot import PATH: SyntaxError: expected ':' (m2.py, line 1)"},
      {"raise SystemExit(5)\n", "cannot import PATH: SystemExit: 5"},
      {"def other(a, b, N):\n    pass\n", "PATH defines no function named 'tsvc_2_s000'"},
      {"tsvc_2_s000 = 3\n", "'tsvc_2_s000' in PATH is not callable (int)"},
      {"def tsvc_2_s000(a, b, N):\n    pass\n",
       "PATH defines no function named 'kernel'",
       {"--function", "kernel"}},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].text);
    const fs::path module = write_module("m" + std::to_string(i + 1), cases[i].text);
    auto p = py(kS000, module, "N=16", "fp64", "py", cases[i].extra);
    std::string want = "error load " + cases[i].reply;
    want.replace(want.find("PATH"), 4, module.string());
    EXPECT_EQ(p->started(), want) << p->log();
    EXPECT_EQ(p->wait(), 2);
  }
  auto missing = py(kS000, dir_ / "absent.py", "N=16");
  const std::string reply = missing->started();
  EXPECT_EQ(
      reply.rfind(
          "error load cannot import " + (dir_ / "absent.py").string() + ": FileNotFoundError: ", 0),
      0u)
      << reply;
  EXPECT_EQ(missing->wait(), 2);
  std::ofstream(dir_ / "text.txt") << "def tsvc_2_s000(a, b, N):\n    a[:] = b + 1\n";
  auto not_py = py(kS000, dir_ / "text.txt", "N=16");
  EXPECT_EQ(not_py->started(), "error load cannot import " + (dir_ / "text.txt").string() +
                                   ": not a Python source file (.py)");
  EXPECT_EQ(not_py->wait(), 2);
  // --function picks another name.
  auto named = py(kS000, write_module("named", "def k(a, b, N):\n    a[:] = b + 1\n"), "N=16",
                  "fp64", "py", {"--function", "k"});
  run_calls(*named, {1});
}

// No program can be executed from the call (the exec filter, inherited by forked children):
// subprocess.run fails with EPERM, a forked child's execv too; fork itself works and leaves
// the runner serving. The module writes what it observed into the output.
TEST_F(PyRunnerTest, ExecIsDeniedForkIsHarmless) {
  const auto module = write_module("execs", R"(
import errno, os, subprocess

def tsvc_2_s000(a, b, N):
    a[:] = b + 1
    try:
        subprocess.run(["/bin/true"], check=True)
        a[0] = 100
    except PermissionError as e:
        a[0] = -1 if e.errno == errno.EPERM else -2
    pid = os.fork()
    if pid == 0:
        try:
            os.execv("/bin/true", ["/bin/true"])
        except PermissionError:
            os._exit(42)
        os._exit(43)
    _, status = os.waitpid(pid, 0)
    a[1] = os.waitstatus_to_exitcode(status)
)");
  auto p = py(kS000, module, "N=32");
  ASSERT_EQ(p->started(), "hello") << p->log();
  for (int call = 0; call < 2; ++call) {
    ASSERT_EQ(p->ask("prep 1 auto 1"), "ready");
    ASSERT_TRUE(is_done(p->ask("go"))) << p->log();
    ASSERT_EQ(p->ask("post 1 call" + std::to_string(call)), "posted ok");
  }
  EXPECT_EQ(p->ask("ping"), "pong");
  p->send("quit");
  EXPECT_EQ(p->wait(), 0) << p->log();
  for (const char* tag : {"call0", "call1"}) {
    const NdArray a = saved("py", tag, "a");
    EXPECT_EQ(a.get(0), -1) << "subprocess.run: -1 is PermissionError(EPERM), 100 success";
    EXPECT_EQ(a.get(1), 42) << "the forked child's execv: 42 is PermissionError, 43 success";
  }
}

// Every call gets a fresh draw: a module that remembers its first result in its globals and
// returns it again (a cache keyed by call count) delivers the first draw's answer for the second
// draw, which differs from the honest one; the judge's comparison then fails it.
TEST_F(PyRunnerTest, ResultCacheGetsFreshInputs) {
  const auto honest = write_module("honest", "def tsvc_2_s000(a, b, N):\n    a[:] = b + 1\n");
  auto p = py(kS000, honest, "N=500", "fp64", "honest");
  run_calls(*p, {21, 22});
  EXPECT_FALSE(saved("honest", "call0", "a").bytes_equal(saved("honest", "call1", "a")));

  const auto cached = write_module("cached", R"(
_results = {}
_calls = 0

def tsvc_2_s000(a, b, N):
    global _calls
    _calls += 1
    if _calls > 1:
        a[:] = _results[1]
        return
    a[:] = b + 1
    _results[_calls] = a.copy()
)");
  auto q = py(kS000, cached, "N=500", "fp64", "cached");
  run_calls(*q, {21, 22});
  EXPECT_TRUE(saved("cached", "call0", "a").bytes_equal(saved("honest", "call0", "a")));
  EXPECT_TRUE(saved("cached", "call1", "a").bytes_equal(saved("honest", "call0", "a")));
  EXPECT_FALSE(saved("cached", "call1", "a").bytes_equal(saved("honest", "call1", "a")));
}

// `quit` leaves with _exit(0): no Python atexit handler or finalizer of the candidate runs
// (they would otherwise run outside every clock), and what it printed is in the log.
TEST_F(PyRunnerTest, QuitRunsNoCandidateExitCode) {
  const fs::path marker = dir_ / "atexit-ran";
  const auto module = write_module("atexit_mod", R"(
import atexit, weakref

def mark():
    open(")" + marker.string() + R"(", "w").close()

atexit.register(mark)

class Finalized:
    pass

_keep = Finalized()
weakref.finalize(_keep, mark)
print("hello from the module")

def tsvc_2_s000(a, b, N):
    print("hello from the call")
    a[:] = b + 1
)");
  auto p = py(kS000, module, "N=16");
  run_calls(*p, {1});
  EXPECT_FALSE(fs::exists(marker));
  const std::string log = p->log();
  EXPECT_NE(log.find("hello from the module\nhello from the call\n"), std::string::npos) << log;
}

// numba.njit on the corpus reference: the first call compiles (inside its clock: the judge's
// untimed warm-up calls absorb it), later calls run the compiled code.
TEST_F(PyRunnerTest, NumbaJitCompilesOnTheFirstCall) {
  const auto module = write_module(
      "jit", "import numba\n" + slurp(kGemm + "/reference.py") + "\n\ngemm = numba.njit(gemm)\n");
  auto p = py(kGemm, module, kGemmSizes);
  ASSERT_EQ(p->started(), "hello") << p->log();
  std::vector<int64_t> ns;
  for (int call = 0; call < 3; ++call) {
    ASSERT_EQ(p->ask("prep " + std::to_string(call + 1) + " auto 1"), "ready");
    const std::string done = p->ask("go", 120);
    ASSERT_TRUE(is_done(done)) << done << "\n" << p->log();
    ns.push_back(done_ns(done));
    ASSERT_EQ(p->ask("post 1 call" + std::to_string(call)), "posted ok");
  }
  p->send("quit");
  EXPECT_EQ(p->wait(), 0);
  EXPECT_GT(ns[0], 50'000'000) << "the first call compiles";
  EXPECT_LT(ns[2], ns[0] / 10) << "the third runs compiled code";
  auto c_run = c(kGemm, kGemmSizes);
  run_calls(*c_run, {1, 2, 3});
  for (const char* tag : {"call0", "call1", "call2"}) {
    SCOPED_TRACE(tag);
    expect_close(saved("py", tag, "C"), saved("c", tag, "C"), 1e-12);
  }
}

}  // namespace
}  // namespace hpcab
